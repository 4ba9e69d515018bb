package symbols

// Toppings is the symbol set of Anarchy Pancakes: 31 pancake toppings, one
// for each point of the order-5 plane behind the 31 six-topping cards and
// the 31 one-topping cards. Maple syrup is drawn as a maple leaf, whipped
// cream as a soft ice cream swirl, chocolate as a bar and the sausage as a
// hot dog. Butter is left out, as the game's butter pats are its
// victory tokens.
var Toppings = Set{
	Name: "toppings",
	Symbols: []Symbol{
		{Key: "strawberry", Names: Names{En: "strawberry", Pl: "truskawka", Da: "jordbær", Ru: "клубника", Zh: "草莓", It: "fragola"}, Art: "twemoji:1f353"},
		{Key: "blueberries", Names: Names{En: "blueberries", Pl: "borówki", Da: "blåbær", Ru: "черника", Zh: "蓝莓", It: "mirtilli"}, Art: "twemoji:1fad0"},
		{Key: "banana", Names: Names{En: "banana", Pl: "banan", Da: "banan", Ru: "банан", Zh: "香蕉", It: "banana"}, Art: "twemoji:1f34c"},
		{Key: "cherries", Names: Names{En: "cherries", Pl: "czereśnie", Da: "kirsebær", Ru: "вишня", Zh: "樱桃", It: "ciliegie"}, Art: "twemoji:1f352"},
		{Key: "peach", Names: Names{En: "peach", Pl: "brzoskwinia", Da: "fersken", Ru: "персик", Zh: "桃子", It: "pesca"}, Art: "twemoji:1f351"},
		{Key: "kiwi", Names: Names{En: "kiwi", Pl: "kiwi", Da: "kiwi", Ru: "киви", Zh: "猕猴桃", It: "kiwi"}, Art: "twemoji:1f95d"},
		{Key: "pineapple", Names: Names{En: "pineapple", Pl: "ananas", Da: "ananas", Ru: "ананас", Zh: "菠萝", It: "ananas"}, Art: "twemoji:1f34d"},
		{Key: "grapes", Names: Names{En: "grapes", Pl: "winogrona", Da: "vindruer", Ru: "виноград", Zh: "葡萄", It: "uva"}, Art: "twemoji:1f347"},
		{Key: "lemon", Names: Names{En: "lemon", Pl: "cytryna", Da: "citron", Ru: "лимон", Zh: "柠檬", It: "limone"}, Art: "twemoji:1f34b"},
		{Key: "orange", Names: Names{En: "orange", Pl: "pomarańcza", Da: "appelsin", Ru: "апельсин", Zh: "橙子", It: "arancia"}, Art: "twemoji:1f34a"},
		{Key: "apple", Names: Names{En: "apple", Pl: "jabłko", Da: "æble", Ru: "яблоко", Zh: "苹果", It: "mela"}, Art: "twemoji:1f34f"},
		{Key: "coconut", Names: Names{En: "coconut", Pl: "kokos", Da: "kokos", Ru: "кокос", Zh: "椰子", It: "cocco"}, Art: "twemoji:1f965"},
		{Key: "honey", Names: Names{En: "honey", Pl: "miód", Da: "honning", Ru: "мёд", Zh: "蜂蜜", It: "miele"}, Art: "twemoji:1f36f"},
		{Key: "maple-syrup", Names: Names{En: "maple syrup", Pl: "syrop klonowy", Da: "ahornsirup", Ru: "кленовый сироп", Zh: "枫糖浆", It: "sciroppo d'acero"}, Art: "twemoji:1f341"},
		{Key: "whipped-cream", Names: Names{En: "whipped cream", Pl: "bita śmietana", Da: "flødeskum", Ru: "взбитые сливки", Zh: "鲜奶油", It: "panna montata"}, Art: "twemoji:1f366"},
		{Key: "chocolate", Names: Names{En: "chocolate", Pl: "czekolada", Da: "chokolade", Ru: "шоколад", Zh: "巧克力", It: "cioccolato"}, Art: "twemoji:1f36b"},
		{Key: "bacon", Names: Names{En: "bacon", Pl: "bekon", Da: "bacon", Ru: "бекон", Zh: "培根", It: "pancetta"}, Art: "twemoji:1f953"},
		{Key: "fried-egg", Names: Names{En: "fried egg", Pl: "jajko sadzone", Da: "spejlæg", Ru: "яичница", Zh: "煎蛋", It: "uovo fritto"}, Art: "twemoji:1f373"},
		{Key: "cheese", Names: Names{En: "cheese", Pl: "ser", Da: "ost", Ru: "сыр", Zh: "奶酪", It: "formaggio"}, Art: "twemoji:1f9c0"},
		{Key: "ham", Names: Names{En: "ham", Pl: "szynka", Da: "skinke", Ru: "ветчина", Zh: "火腿", It: "prosciutto"}, Art: "twemoji:1f356"},
		{Key: "mushroom", Names: Names{En: "mushroom", Pl: "grzyb", Da: "svamp", Ru: "гриб", Zh: "蘑菇", It: "fungo"}, Art: "twemoji:1f344"},
		{Key: "avocado", Names: Names{En: "avocado", Pl: "awokado", Da: "avocado", Ru: "авокадо", Zh: "牛油果", It: "avocado"}, Art: "twemoji:1f951"},
		{Key: "peanuts", Names: Names{En: "peanuts", Pl: "orzeszki ziemne", Da: "jordnødder", Ru: "арахис", Zh: "花生", It: "arachidi"}, Art: "twemoji:1f95c"},
		{Key: "cookie", Names: Names{En: "cookie", Pl: "ciastko", Da: "småkage", Ru: "печенье", Zh: "曲奇", It: "biscotto"}, Art: "twemoji:1f36a"},
		{Key: "candy", Names: Names{En: "candy", Pl: "cukierek", Da: "bolsje", Ru: "конфета", Zh: "糖果", It: "caramella"}, Art: "twemoji:1f36c"},
		{Key: "chili", Names: Names{En: "chili", Pl: "papryczka chili", Da: "chili", Ru: "перец чили", Zh: "辣椒", It: "peperoncino"}, Art: "twemoji:1f336"},
		{Key: "corn", Names: Names{En: "corn", Pl: "kukurydza", Da: "majs", Ru: "кукуруза", Zh: "玉米", It: "mais"}, Art: "twemoji:1f33d"},
		{Key: "shrimp", Names: Names{En: "shrimp", Pl: "krewetka", Da: "reje", Ru: "креветка", Zh: "虾", It: "gambero"}, Art: "twemoji:1f364"},
		{Key: "watermelon", Names: Names{En: "watermelon", Pl: "arbuz", Da: "vandmelon", Ru: "арбуз", Zh: "西瓜", It: "anguria"}, Art: "twemoji:1f349"},
		{Key: "sausage", Names: Names{En: "sausage", Pl: "kiełbaska", Da: "pølse", Ru: "сосиска", Zh: "香肠", It: "salsiccia"}, Art: "twemoji:1f32d"},
		{Key: "popcorn", Names: Names{En: "popcorn", Pl: "popcorn", Da: "popcorn", Ru: "попкорн", Zh: "爆米花", It: "popcorn"}, Art: "twemoji:1f37f"},
	},
}
