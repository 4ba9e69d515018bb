package symbols

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var (
	keyPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	artPattern = regexp.MustCompile(`^twemoji:[0-9a-f]+(-[0-9a-f]+)*$`)
)

// properKeys lists the symbols whose names are proper names and so keep
// their capital letters.
var properKeys = map[string]bool{"dobble": true, "aloha": true}

// traditionalHan holds traditional Chinese characters whose simplified
// forms occur in the sets; Chinese names must use the simplified forms.
const traditionalHan = "龍魚鳥貓馬錨蘋燭車蘿蔔鐘醜雛歎嘆靈錘愛塊鑰蟲燈閃電鎖葉鉛筆問號髏網陽鏡龜譜樹陰槍雞膽飛盤頭櫚鵜鶘魷衝鏟輪羅機傘灘鯊腳褲風箏環貝殼書鯨蝸蝦長頸獅鵝鷹檸櫻獼楓漿鮮腸藍遊蠣曬潛豬綿鴨烏蝟蠟國際時漬彈"

func TestSetsOrderAndLengths(t *testing.T) {
	want := []struct {
		name string
		len  int
	}{{"classic", 57}, {"beach", 57}, {"kids", 31}, {"toppings", 31}}
	sets := Sets()
	if len(sets) != len(want) {
		t.Fatalf("Sets() returned %d sets, want %d", len(sets), len(want))
	}
	for i, w := range want {
		if sets[i].Name != w.name {
			t.Errorf("Sets()[%d].Name = %q, want %q", i, sets[i].Name, w.name)
		}
		if sets[i].Len() != w.len {
			t.Errorf("set %q has %d symbols, want %d", sets[i].Name, sets[i].Len(), w.len)
		}
		got, ok := ByName(w.name)
		if !ok || got.Name != w.name || got.Len() != w.len {
			t.Errorf("ByName(%q) = %q with %d symbols, %v", w.name, got.Name, got.Len(), ok)
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Error(`ByName("nope") reported a set`)
	}
}

func TestKeys(t *testing.T) {
	for _, s := range Sets() {
		seen := map[string]bool{}
		for i, sym := range s.Symbols {
			if !keyPattern.MatchString(sym.Key) {
				t.Errorf("%s[%d]: key %q is not a lowercase slug", s.Name, i, sym.Key)
			}
			if seen[sym.Key] {
				t.Errorf("%s[%d]: duplicate key %q", s.Name, i, sym.Key)
			}
			seen[sym.Key] = true
		}
	}
}

func TestByKeyRoundTrip(t *testing.T) {
	for _, s := range Sets() {
		for i, sym := range s.Symbols {
			id, ok := s.ByKey(sym.Key)
			if !ok || id != i {
				t.Errorf("%s.ByKey(%q) = %d, %v; want %d, true", s.Name, sym.Key, id, ok, i)
			}
		}
		if id, ok := s.ByKey("no-such-symbol"); ok || id != -1 {
			t.Errorf("%s.ByKey(unknown) = %d, %v; want -1, false", s.Name, id, ok)
		}
	}
}

func TestNamesGet(t *testing.T) {
	n := Names{En: "en", Pl: "pl", Da: "da", Ru: "ru", Zh: "zh", It: "it"}
	for _, lang := range Languages {
		got, ok := n.Get(lang)
		if !ok || got != lang {
			t.Errorf("Get(%q) = %q, %v; want %q, true", lang, got, ok, lang)
		}
	}
	for _, lang := range []string{"", "de", "EN", "fr", "zh-Hant"} {
		if got, ok := n.Get(lang); ok || got != "" {
			t.Errorf("Get(%q) = %q, %v; want \"\", false", lang, got, ok)
		}
	}
	if want := []string{"en", "pl", "da", "ru", "zh", "it"}; !slices.Equal(Languages, want) {
		t.Errorf("Languages = %v, want %v", Languages, want)
	}
}

func TestNames(t *testing.T) {
	for _, s := range Sets() {
		for _, lang := range Languages {
			seen := map[string]string{}
			for _, sym := range s.Symbols {
				name, ok := sym.Names.Get(lang)
				if !ok {
					t.Fatalf("Names.Get(%q) failed", lang)
				}
				where := s.Name + "/" + sym.Key + "/" + lang
				if name == "" {
					t.Errorf("%s: empty name", where)
					continue
				}
				if strings.TrimSpace(name) != name || strings.Contains(name, "  ") {
					t.Errorf("%s: name %q has stray spaces", where, name)
				}
				if !utf8.ValidString(name) {
					t.Errorf("%s: name %q is not valid UTF-8", where, name)
				}
				fold := strings.ToLower(name)
				if other, dup := seen[fold]; dup {
					t.Errorf("%s: name %q also used by %s[%s]", where, name, s.Name, other)
				}
				seen[fold] = sym.Key
				checkScript(t, where, lang, name, properKeys[sym.Key])
				checkCase(t, where, name, properKeys[sym.Key])
			}
		}
	}
}

// checkScript reports letters from the wrong writing system, such as a
// Cyrillic letter inside a Polish word.
func checkScript(t *testing.T, where, lang, name string, proper bool) {
	t.Helper()
	for _, r := range name {
		var ok bool
		switch {
		case r == ' ' || r == '-' || r == '\'':
			ok = lang != "zh"
		case lang == "ru":
			ok = unicode.Is(unicode.Cyrillic, r)
		case lang == "zh":
			ok = unicode.Is(unicode.Han, r) && !strings.ContainsRune(traditionalHan, r) ||
				proper && unicode.Is(unicode.Latin, r)
		default:
			ok = unicode.Is(unicode.Latin, r)
		}
		if !ok {
			t.Errorf("%s: name %q has unexpected character %q", where, name, r)
		}
	}
}

// checkCase reports common nouns that start with a capital letter and
// proper names that do not.
func checkCase(t *testing.T, where, name string, proper bool) {
	t.Helper()
	first, _ := utf8.DecodeRuneInString(name)
	if !unicode.IsLetter(first) || !unicode.In(first, unicode.Latin, unicode.Cyrillic) {
		return
	}
	if proper && !unicode.IsUpper(first) {
		t.Errorf("%s: proper name %q should start with a capital", where, name)
	}
	if !proper && name != strings.ToLower(name) {
		t.Errorf("%s: common noun %q should be lower case", where, name)
	}
}

func TestArt(t *testing.T) {
	for _, s := range Sets() {
		seen := map[string]string{}
		for _, sym := range s.Symbols {
			if !artPattern.MatchString(sym.Art) {
				t.Errorf("%s/%s: art %q is not a twemoji reference", s.Name, sym.Key, sym.Art)
			}
			if other, dup := seen[sym.Art]; dup {
				t.Errorf("%s/%s: art %q already used by %s", s.Name, sym.Key, sym.Art, other)
			}
			seen[sym.Art] = sym.Key
		}
	}
}

// readTwemojiList reads testdata/twemoji-files.txt: one file stem a line,
// with blank lines and '#' comments ignored.
func readTwemojiList(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "twemoji-files.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stems []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		stems = append(stems, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return stems
}

// usedStems returns the twemoji file stems referenced by all sets, sorted
// and without duplicates.
func usedStems() []string {
	var stems []string
	for _, s := range Sets() {
		for _, sym := range s.Symbols {
			stems = append(stems, strings.TrimPrefix(sym.Art, "twemoji:"))
		}
	}
	slices.Sort(stems)
	return slices.Compact(stems)
}

func TestTwemojiList(t *testing.T) {
	list := readTwemojiList(t)
	if !slices.IsSorted(list) {
		t.Error("testdata/twemoji-files.txt is not sorted")
	}
	if len(slices.Compact(slices.Clone(list))) != len(list) {
		t.Error("testdata/twemoji-files.txt has duplicate lines")
	}
	for _, s := range Sets() {
		for _, sym := range s.Symbols {
			if _, found := slices.BinarySearch(list, strings.TrimPrefix(sym.Art, "twemoji:")); !found {
				t.Errorf("%s/%s: art %q is not in testdata/twemoji-files.txt", s.Name, sym.Key, sym.Art)
			}
		}
	}
	used := usedStems()
	for _, stem := range list {
		if _, found := slices.BinarySearch(used, stem); !found {
			t.Errorf("testdata/twemoji-files.txt lists %q, which no set uses", stem)
		}
	}
}

// beachSeed is the Beach symbol list of seed sheet 000 as printed: the
// Polish and the Danish name of each symbol, in the sheet's order.
var beachSeed = [57][2]string{
	{"pistolet na wodę", "Vandpistol"},
	{"kapelusz", "Solhat"},
	{"fala", "Bølge"},
	{"lody na patyku", "Ispind"},
	{"koktajl", "Cocktail"},
	{"jeżowiec", "Søpindsvin"},
	{"kolo ratunkowe", "Badering"},
	{"koralowiec", "Koral"},
	{"frisbee", "Frisbee"},
	{"kamyczki, skały", "Sten"},
	{"latarnia morska", "Fyrtårn"},
	{"wędką", "Fiskestang"},
	{"palma", "Palmetræ"},
	{"pelikan", "Pelikan"},
	{"łódka", "Båd"},
	{"leżak", "Solstol"},
	{"klapki", "Klip-klapper"},
	{"syrena", "Havfrue"},
	{"ostryga", "Østers"},
	{"lodówka plażowa", "Køleboks"},
	{"rękawki do pływania", "Badevinge"},
	{"bąbelki", "Bobler"},
	{"kalmar", "Blæksprutte"},
	{"deska surfingowa", "Surfbræt"},
	{"hamak", "Hængekøje"},
	{"łopátka", "Spade"},
	{"kotwica", "Anker"},
	{"konik morski", "Søhest"},
	{"ster", "Ror"},
	{"rozdyмка", "Kuglefisk"},
	{"woda, plama, Dobble", "Plask/Dobble"},
	{"okulary przeciwsłoneczne", "Solbriller"},
	{"Aloha", "Aloha"},
	{"krem przeciwsłoneczny", "Solcreme"},
	{"zamek z piasku", "Sandslot"},
	{"aparat", "Kamera"},
	{"parasol plażowy", "Parasol"},
	{"krab", "Krabbe"},
	{"wiaderko", "Spand"},
	{"ręcznik plażowy", "Badehåndklæde"},
	{"pochodnia", "Bambusfakkel"},
	{"piłka plażowa", "Bold"},
	{"rekin", "Haj"},
	{"słońce", "Sol"},
	{"pletwa", "Svømmefødder"},
	{"kąpielówki", "Badedragt"},
	{"arbuż", "Vandmelon"},
	{"stopa, odcisk stopy", "Fod/Fodaftryk"},
	{"latawiec", "Drage"},
	{"wianek", "Lei/Guirlande"},
	{"kokos", "Kokosnød"},
	{"rakietka", "Ketsjer"},
	{"maska do pływania", "Dykkermaske"},
	{"orka", "Spækhugger"},
	{"muszla", "Konkylie"},
	{"książka", "Bog"},
	{"meduza", "Vandmand"},
}

// beachSeedFixes corrects scanning errors in beachSeed's Polish names.
var beachSeedFixes = map[string]string{
	"kolo ratunkowe":          "koło ratunkowe",
	"wędką":                   "wędka",
	"łopátka":                 "łopatka",
	"rozdy\u043c\u043a\u0430": "rozdymka",
	"pletwa":                  "płetwa",
	"arbuż":                   "arbuz",
}

// seedName turns a printed seed name into a display name: scanning errors
// are corrected, the first of several names ("kamyczki, skały",
// "Fod/Fodaftryk") is taken, and common nouns are written in lower case.
func seedName(printed string) string {
	name := printed
	if fixed, ok := beachSeedFixes[name]; ok {
		name = fixed
	}
	if i := strings.IndexAny(name, ",/"); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	if name == "Aloha" {
		return name
	}
	return strings.ToLower(name)
}

func TestBeachMatchesSeed(t *testing.T) {
	if Beach.Len() != len(beachSeed) {
		t.Fatalf("Beach has %d symbols, the seed lists %d", Beach.Len(), len(beachSeed))
	}
	for i, printed := range beachSeed {
		sym := Beach.Symbols[i]
		if want := seedName(printed[0]); sym.Names.Pl != want {
			t.Errorf("Beach[%d] (%s): Pl = %q, want %q (seed %q)", i, sym.Key, sym.Names.Pl, want, printed[0])
		}
		if want := seedName(printed[1]); sym.Names.Da != want {
			t.Errorf("Beach[%d] (%s): Da = %q, want %q (seed %q)", i, sym.Key, sym.Names.Da, want, printed[1])
		}
	}
	used := map[string]bool{}
	for _, printed := range beachSeed {
		used[printed[0]] = true
	}
	for raw := range beachSeedFixes {
		if !used[raw] {
			t.Errorf("beachSeedFixes corrects %q, which the seed table does not contain", raw)
		}
	}
}
