package symbols

// Beach is the symbol set of Dobble Beach: the 57 symbols listed on the
// Beach rule sheet, in the sheet's order, with the sheet's Polish and Danish
// names. Several beach things have no emoji of their own; they are drawn by
// the closest distinct emoji: the ice lolly as a soft ice cream, the sea
// urchin as a hedgehog, the lighthouse as a red and white tower, the pelican
// as a swan, the deckchair as a chair, the cool box as a red toolbox, the
// armbands as a life vest, the surfboard as a surfer, the hammock as a rope
// knot, the spade as a spoon, the seahorse as a horse's head, the helm as a
// wheel, Aloha as the shaka sign, the sandcastle as a castle, the beach
// towel as a scarf, the torch as a flame, the beach ball as a volleyball,
// the flippers as a foot, the lei as a hibiscus and the orca as a whale.
var Beach = Set{
	Name: "beach",
	Symbols: []Symbol{
		{Key: "water-pistol", Names: Names{En: "water pistol", Pl: "pistolet na wodę", Da: "vandpistol", Ru: "водяной пистолет", Zh: "水枪", It: "pistola ad acqua"}, Art: "twemoji:1f52b"},
		{Key: "sun-hat", Names: Names{En: "sun hat", Pl: "kapelusz", Da: "solhat", Ru: "шляпа", Zh: "遮阳帽", It: "cappello da sole"}, Art: "twemoji:1f452"},
		{Key: "wave", Names: Names{En: "wave", Pl: "fala", Da: "bølge", Ru: "волна", Zh: "海浪", It: "onda"}, Art: "twemoji:1f30a"},
		{Key: "ice-lolly", Names: Names{En: "ice lolly", Pl: "lody na patyku", Da: "ispind", Ru: "эскимо", Zh: "冰棍", It: "ghiacciolo"}, Art: "twemoji:1f366"},
		{Key: "cocktail", Names: Names{En: "cocktail", Pl: "koktajl", Da: "cocktail", Ru: "коктейль", Zh: "鸡尾酒", It: "cocktail"}, Art: "twemoji:1f379"},
		{Key: "sea-urchin", Names: Names{En: "sea urchin", Pl: "jeżowiec", Da: "søpindsvin", Ru: "морской ёж", Zh: "海胆", It: "riccio di mare"}, Art: "twemoji:1f994"},
		{Key: "swim-ring", Names: Names{En: "swim ring", Pl: "koło ratunkowe", Da: "badering", Ru: "надувной круг", Zh: "游泳圈", It: "salvagente"}, Art: "twemoji:1f6df"},
		{Key: "coral", Names: Names{En: "coral", Pl: "koralowiec", Da: "koral", Ru: "коралл", Zh: "珊瑚", It: "corallo"}, Art: "twemoji:1fab8"},
		{Key: "frisbee", Names: Names{En: "frisbee", Pl: "frisbee", Da: "frisbee", Ru: "фрисби", Zh: "飞盘", It: "frisbee"}, Art: "twemoji:1f94f"},
		{Key: "stones", Names: Names{En: "stones", Pl: "kamyczki", Da: "sten", Ru: "камни", Zh: "石头", It: "sassi"}, Art: "twemoji:1faa8"},
		{Key: "lighthouse", Names: Names{En: "lighthouse", Pl: "latarnia morska", Da: "fyrtårn", Ru: "маяк", Zh: "灯塔", It: "faro"}, Art: "twemoji:1f5fc"},
		{Key: "fishing-rod", Names: Names{En: "fishing rod", Pl: "wędka", Da: "fiskestang", Ru: "удочка", Zh: "鱼竿", It: "canna da pesca"}, Art: "twemoji:1f3a3"},
		{Key: "palm-tree", Names: Names{En: "palm tree", Pl: "palma", Da: "palmetræ", Ru: "пальма", Zh: "棕榈树", It: "palma"}, Art: "twemoji:1f334"},
		{Key: "pelican", Names: Names{En: "pelican", Pl: "pelikan", Da: "pelikan", Ru: "пеликан", Zh: "鹈鹕", It: "pellicano"}, Art: "twemoji:1f9a2"},
		{Key: "boat", Names: Names{En: "boat", Pl: "łódka", Da: "båd", Ru: "лодка", Zh: "小船", It: "barca"}, Art: "twemoji:26f5"},
		{Key: "deckchair", Names: Names{En: "deckchair", Pl: "leżak", Da: "solstol", Ru: "шезлонг", Zh: "躺椅", It: "sdraio"}, Art: "twemoji:1fa91"},
		{Key: "flip-flops", Names: Names{En: "flip-flops", Pl: "klapki", Da: "klip-klapper", Ru: "шлёпанцы", Zh: "人字拖", It: "infradito"}, Art: "twemoji:1fa74"},
		{Key: "mermaid", Names: Names{En: "mermaid", Pl: "syrena", Da: "havfrue", Ru: "русалка", Zh: "美人鱼", It: "sirena"}, Art: "twemoji:1f9dc-200d-2640-fe0f"},
		{Key: "oyster", Names: Names{En: "oyster", Pl: "ostryga", Da: "østers", Ru: "устрица", Zh: "牡蛎", It: "ostrica"}, Art: "twemoji:1f9aa"},
		{Key: "cool-box", Names: Names{En: "cool box", Pl: "lodówka plażowa", Da: "køleboks", Ru: "сумка-холодильник", Zh: "冷藏箱", It: "borsa frigo"}, Art: "twemoji:1f9f0"},
		{Key: "armbands", Names: Names{En: "armbands", Pl: "rękawki do pływania", Da: "badevinge", Ru: "нарукавники", Zh: "游泳臂圈", It: "braccioli"}, Art: "twemoji:1f9ba"},
		{Key: "bubbles", Names: Names{En: "bubbles", Pl: "bąbelki", Da: "bobler", Ru: "пузыри", Zh: "泡泡", It: "bolle"}, Art: "twemoji:1fae7"},
		{Key: "squid", Names: Names{En: "squid", Pl: "kalmar", Da: "blæksprutte", Ru: "кальмар", Zh: "鱿鱼", It: "calamaro"}, Art: "twemoji:1f991"},
		{Key: "surfboard", Names: Names{En: "surfboard", Pl: "deska surfingowa", Da: "surfbræt", Ru: "доска для сёрфинга", Zh: "冲浪板", It: "tavola da surf"}, Art: "twemoji:1f3c4"},
		{Key: "hammock", Names: Names{En: "hammock", Pl: "hamak", Da: "hængekøje", Ru: "гамак", Zh: "吊床", It: "amaca"}, Art: "twemoji:1faa2"},
		{Key: "spade", Names: Names{En: "spade", Pl: "łopatka", Da: "spade", Ru: "лопатка", Zh: "小铲子", It: "paletta"}, Art: "twemoji:1f944"},
		{Key: "anchor", Names: Names{En: "anchor", Pl: "kotwica", Da: "anker", Ru: "якорь", Zh: "锚", It: "ancora"}, Art: "twemoji:2693"},
		{Key: "seahorse", Names: Names{En: "seahorse", Pl: "konik morski", Da: "søhest", Ru: "морской конёк", Zh: "海马", It: "cavalluccio marino"}, Art: "twemoji:1f434"},
		{Key: "helm", Names: Names{En: "helm", Pl: "ster", Da: "ror", Ru: "штурвал", Zh: "舵轮", It: "timone"}, Art: "twemoji:2638"},
		{Key: "pufferfish", Names: Names{En: "pufferfish", Pl: "rozdymka", Da: "kuglefisk", Ru: "рыба-фугу", Zh: "河豚", It: "pesce palla"}, Art: "twemoji:1f421"},
		{Key: "splash", Names: Names{En: "splash", Pl: "woda", Da: "plask", Ru: "брызги", Zh: "水花", It: "spruzzo"}, Art: "twemoji:1f4a6"},
		{Key: "sunglasses", Names: Names{En: "sunglasses", Pl: "okulary przeciwsłoneczne", Da: "solbriller", Ru: "солнцезащитные очки", Zh: "太阳镜", It: "occhiali da sole"}, Art: "twemoji:1f576"},
		{Key: "aloha", Names: Names{En: "Aloha", Pl: "Aloha", Da: "Aloha", Ru: "Алоха", Zh: "阿罗哈", It: "Aloha"}, Art: "twemoji:1f919"},
		{Key: "sunscreen", Names: Names{En: "sunscreen", Pl: "krem przeciwsłoneczny", Da: "solcreme", Ru: "солнцезащитный крем", Zh: "防晒霜", It: "crema solare"}, Art: "twemoji:1f9f4"},
		{Key: "sandcastle", Names: Names{En: "sandcastle", Pl: "zamek z piasku", Da: "sandslot", Ru: "замок из песка", Zh: "沙堡", It: "castello di sabbia"}, Art: "twemoji:1f3f0"},
		{Key: "camera", Names: Names{En: "camera", Pl: "aparat", Da: "kamera", Ru: "фотоаппарат", Zh: "相机", It: "macchina fotografica"}, Art: "twemoji:1f4f7"},
		{Key: "beach-umbrella", Names: Names{En: "beach umbrella", Pl: "parasol plażowy", Da: "parasol", Ru: "пляжный зонт", Zh: "遮阳伞", It: "ombrellone"}, Art: "twemoji:26f1"},
		{Key: "crab", Names: Names{En: "crab", Pl: "krab", Da: "krabbe", Ru: "краб", Zh: "螃蟹", It: "granchio"}, Art: "twemoji:1f980"},
		{Key: "bucket", Names: Names{En: "bucket", Pl: "wiaderko", Da: "spand", Ru: "ведёрко", Zh: "小桶", It: "secchiello"}, Art: "twemoji:1faa3"},
		{Key: "beach-towel", Names: Names{En: "beach towel", Pl: "ręcznik plażowy", Da: "badehåndklæde", Ru: "пляжное полотенце", Zh: "沙滩巾", It: "telo da mare"}, Art: "twemoji:1f9e3"},
		{Key: "torch", Names: Names{En: "torch", Pl: "pochodnia", Da: "bambusfakkel", Ru: "факел", Zh: "火把", It: "fiaccola"}, Art: "twemoji:1f525"},
		{Key: "beach-ball", Names: Names{En: "beach ball", Pl: "piłka plażowa", Da: "bold", Ru: "пляжный мяч", Zh: "沙滩球", It: "pallone da spiaggia"}, Art: "twemoji:1f3d0"},
		{Key: "shark", Names: Names{En: "shark", Pl: "rekin", Da: "haj", Ru: "акула", Zh: "鲨鱼", It: "squalo"}, Art: "twemoji:1f988"},
		{Key: "sun", Names: Names{En: "sun", Pl: "słońce", Da: "sol", Ru: "солнце", Zh: "太阳", It: "sole"}, Art: "twemoji:2600"},
		{Key: "flippers", Names: Names{En: "flippers", Pl: "płetwa", Da: "svømmefødder", Ru: "ласты", Zh: "脚蹼", It: "pinne"}, Art: "twemoji:1f9b6"},
		{Key: "swimming-trunks", Names: Names{En: "swimming trunks", Pl: "kąpielówki", Da: "badedragt", Ru: "плавки", Zh: "泳裤", It: "costume da bagno"}, Art: "twemoji:1fa73"},
		{Key: "watermelon", Names: Names{En: "watermelon", Pl: "arbuz", Da: "vandmelon", Ru: "арбуз", Zh: "西瓜", It: "anguria"}, Art: "twemoji:1f349"},
		{Key: "footprint", Names: Names{En: "footprint", Pl: "stopa", Da: "fod", Ru: "след", Zh: "脚印", It: "impronta"}, Art: "twemoji:1f463"},
		{Key: "kite", Names: Names{En: "kite", Pl: "latawiec", Da: "drage", Ru: "воздушный змей", Zh: "风筝", It: "aquilone"}, Art: "twemoji:1fa81"},
		{Key: "lei", Names: Names{En: "lei", Pl: "wianek", Da: "lei", Ru: "венок", Zh: "花环", It: "ghirlanda di fiori"}, Art: "twemoji:1f33a"},
		{Key: "coconut", Names: Names{En: "coconut", Pl: "kokos", Da: "kokosnød", Ru: "кокос", Zh: "椰子", It: "noce di cocco"}, Art: "twemoji:1f965"},
		{Key: "racket", Names: Names{En: "racket", Pl: "rakietka", Da: "ketsjer", Ru: "ракетка", Zh: "球拍", It: "racchetta"}, Art: "twemoji:1f3d3"},
		{Key: "diving-mask", Names: Names{En: "diving mask", Pl: "maska do pływania", Da: "dykkermaske", Ru: "маска для плавания", Zh: "潜水镜", It: "maschera da sub"}, Art: "twemoji:1f93f"},
		{Key: "orca", Names: Names{En: "orca", Pl: "orka", Da: "spækhugger", Ru: "косатка", Zh: "虎鲸", It: "orca"}, Art: "twemoji:1f40b"},
		{Key: "shell", Names: Names{En: "shell", Pl: "muszla", Da: "konkylie", Ru: "ракушка", Zh: "贝壳", It: "conchiglia"}, Art: "twemoji:1f41a"},
		{Key: "book", Names: Names{En: "book", Pl: "książka", Da: "bog", Ru: "книга", Zh: "书", It: "libro"}, Art: "twemoji:1f4d6"},
		{Key: "jellyfish", Names: Names{En: "jellyfish", Pl: "meduza", Da: "vandmand", Ru: "медуза", Zh: "水母", It: "medusa"}, Art: "twemoji:1fabc"},
	},
}
