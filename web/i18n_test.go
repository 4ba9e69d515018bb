package web

import (
	"encoding/json"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// A dictionary block of the client's texts: "const en = {" to "};", as
// each language's dictionary (lang/LANG.js) and each game module
// (games/NAME.js) write them, and the "key": "text" entries in it.
var (
	dictBlock = regexp.MustCompile(`(?ms)^const (\w\w) = \{\n(.*?)^\};\n`)
	dictEntry = regexp.MustCompile(`"([^"\\]+)": "((?:[^"\\]|\\.)*)",?`)
	// textKey is a string literal that looks like a text's key
	// ("play.score", "memory.feed.flipTaken"); textKeyPrefix, a template
	// literal that makes one (`reflection.${phase}`).
	textKey       = regexp.MustCompile(`"([a-z][a-z0-9-]*(?:\.[A-Za-z0-9]+)+)"`)
	textKeyPrefix = regexp.MustCompile("`([a-z][a-z0-9-]*(?:\\.[A-Za-z0-9]*)+)\\$\\{")
)

// clientTexts is one file of the client's texts: its dictionaries by
// language, and its code without them (or its comments).
type clientTexts struct {
	file  string
	dicts map[string]map[string]string
	code  string
}

// readTexts reads file's dictionary blocks; anything in a block that is
// not an entry fails the test, so that no text goes unchecked when the
// files' layout changes.
func readTexts(t *testing.T, file string) clientTexts {
	t.Helper()
	src, err := fs.ReadFile(Static(), file)
	if err != nil {
		t.Fatal(err)
	}
	ct := clientTexts{file: file, dicts: map[string]map[string]string{}}
	for _, m := range dictBlock.FindAllStringSubmatch(string(src), -1) {
		d := map[string]string{}
		for _, e := range dictEntry.FindAllStringSubmatch(m[2], -1) {
			if _, dup := d[e[1]]; dup {
				t.Errorf("%s: %s has %q twice", file, m[1], e[1])
			}
			d[e[1]] = e[2]
		}
		if rest := strings.Trim(dictEntry.ReplaceAllString(m[2], ""), " ,\n"); rest != "" {
			t.Errorf("%s: %s has what is not a \"key\": \"text\" entry: %.80q", file, m[1], rest)
		}
		ct.dicts[m[1]] = d
	}
	var code []string
	for _, line := range strings.Split(dictBlock.ReplaceAllString(string(src), ""), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code = append(code, line)
		}
	}
	ct.code = strings.Join(code, "\n")
	return ct
}

// clientDicts reads the generic client's dictionaries, one module per
// language (web/static/lang/LANG.js, each its one dictionary block named
// after its language and exported as its default), and the languages the
// client speaks (i18n.js's LANGS). It fails the test when a language lacks
// its module, a module is not a language's, or i18n.js itself holds texts.
func clientDicts(t *testing.T) (clientTexts, []string) {
	t.Helper()
	code := readTexts(t, "i18n.js")
	if len(code.dicts) != 0 {
		t.Errorf("i18n.js holds dictionaries; each language's is lang/LANG.js, loaded alone")
	}
	var langs []string
	if m := regexp.MustCompile(`export const LANGS = (\[.*\]);`).FindStringSubmatch(code.code); m == nil || json.Unmarshal([]byte(m[1]), &langs) != nil {
		t.Fatal("i18n.js has no LANGS list")
	}
	files, err := fs.Glob(Static(), "lang/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if l := strings.TrimSuffix(path.Base(f), ".js"); !slices.Contains(langs, l) || !strings.HasSuffix(f, ".js") {
			t.Errorf("%s is not the dictionary of a language the client speaks (%v)", f, langs)
		}
	}
	all := clientTexts{file: "lang/*.js", dicts: map[string]map[string]string{}}
	for _, l := range langs {
		f := "lang/" + l + ".js"
		d := readTexts(t, f)
		if len(d.dicts) != 1 || d.dicts[l] == nil {
			t.Errorf("%s has the dictionaries %v; want one, const %s", f, slices.Sorted(maps.Keys(d.dicts)), l)
		}
		if !strings.Contains(d.code, "\nexport default "+l+";") {
			t.Errorf("%s does not export its dictionary (export default %s;)", f, l)
		}
		all.dicts[l] = d.dicts[l]
	}
	return all, langs
}

// gameModules reads the game modules' texts (web/static/games/NAME.js),
// by game name.
func gameModules(t *testing.T) map[string]clientTexts {
	t.Helper()
	files, err := fs.Glob(Static(), "games/*.js")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no game module found in web/static/games")
	}
	mods := map[string]clientTexts{}
	for _, f := range files {
		mods[strings.TrimSuffix(path.Base(f), ".js")] = readTexts(t, f)
	}
	return mods
}

// pluralCategories are the plural categories of each language the client
// speaks, as Unicode's CLDR gives them and Intl.PluralRules selects them:
// a text that depends on a count ("KEY#CATEGORY", see i18n.js's t) has
// exactly these forms in its language.
var pluralCategories = map[string][]string{
	"en": {"one", "other"},
	"pl": {"one", "few", "many", "other"},
	"da": {"one", "other"},
	"ru": {"one", "few", "many", "other"},
	"zh": {"other"},
	"it": {"one", "many", "other"},
}

// plurals splits a dictionary into its plain texts and its plural ones:
// the latter by key, then by plural category.
func plurals(d map[string]string) (plain map[string]string, forms map[string]map[string]string) {
	plain, forms = map[string]string{}, map[string]map[string]string{}
	for key, text := range d {
		base, cat, ok := strings.Cut(key, "#")
		if !ok {
			plain[key] = text
			continue
		}
		if forms[base] == nil {
			forms[base] = map[string]string{}
		}
		forms[base][cat] = text
	}
	return plain, forms
}

// checkComplete checks that every language of langs has every English
// text of dicts, with the same {placeholders}, and no text English lacks;
// that a text English gives plural forms has them in every language, one
// for each of the language's plural categories (pluralCategories) and no
// other, each with the placeholders of English's; and that no key is both
// plain and plural.
func checkComplete(t *testing.T, file string, langs []string, dicts map[string]map[string]string) {
	t.Helper()
	placeholder := regexp.MustCompile(`\{\w+\}`)
	samePlaces := func(l, key, text, tr string) {
		want, got := placeholder.FindAllString(text, -1), placeholder.FindAllString(tr, -1)
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(slices.Compact(want), slices.Compact(got)) {
			t.Errorf("%s: %s %q has placeholders %s, English has %s", file, l, key, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
	en, enForms := plurals(dicts["en"])
	for _, l := range langs {
		plain, forms := plurals(dicts[l])
		for key, f := range forms {
			if _, ok := plain[key]; ok {
				t.Errorf("%s: %s has %q both as a plain text and in plural forms", file, l, key)
			}
			if got, want := slices.Sorted(maps.Keys(f)), slices.Sorted(slices.Values(pluralCategories[l])); !slices.Equal(got, want) {
				t.Errorf("%s: %s %q has the plural forms %v; %s's plural categories are %v", file, l, key, got, l, want)
			}
			if _, ok := enForms[key]; !ok {
				t.Errorf("%s: %s has %q in plural forms, which English lacks", file, l, key)
			}
			for cat, tr := range f {
				samePlaces(l, key+"#"+cat, enForms[key]["other"], tr)
			}
		}
		if l == "en" {
			continue
		}
		for key, f := range enForms {
			if _, ok := forms[key]; !ok {
				t.Errorf("%s: %s lacks the plural forms of %q (%q)", file, l, key, f["other"])
			}
		}
		for key, text := range en {
			tr, ok := plain[key]
			if !ok {
				t.Errorf("%s: %s lacks %q (%q)", file, l, key, text)
				continue
			}
			samePlaces(l, key, text, tr)
		}
		for key := range plain {
			if _, ok := en[key]; !ok {
				t.Errorf("%s: %s has %q, which English lacks", file, l, key)
			}
		}
	}
	for l := range dicts {
		if !slices.Contains(langs, l) {
			t.Errorf("%s has texts in %s, a language the client does not speak (%v)", file, l, langs)
		}
	}
}

// TestTranslationsComplete reads the client's dictionaries: the generic
// client's (web/static/lang/LANG.js, one per language) and each game
// module's (web/static/games/NAME.js, its texts). It checks that every language has every English
// key, no key English lacks, and the same {placeholders} in each text, so
// that no part of the interface falls back to English or loses a value;
// that the client, the server and the games' texts speak the same
// languages; that a module is a registered game's, exports its texts in
// every language and names every key after its game, so that no two
// modules' texts can clash; and that no game's texts are left in the
// generic client's dictionaries: its title, rule and option texts are the game's, in rules
// (TestTexts checks them), served by GET /api/games, and its table's
// texts are its module's.
func TestTranslationsComplete(t *testing.T) {
	client, langs := clientDicts(t)
	if !slices.Equal(langs, rules.Languages) || !slices.Equal(langs, protocol.Languages) {
		t.Fatalf("the client speaks %v, the games' texts are in %v, the server accepts %v", langs, rules.Languages, protocol.Languages)
	}
	for _, l := range langs {
		if pluralCategories[l] == nil {
			t.Errorf("the test knows no plural categories of %s; add them to pluralCategories from CLDR", l)
		}
		if len(client.dicts[l]) == 0 {
			t.Fatalf("no %s dictionary found in lang/%s.js", l, l)
		}
	}
	if n := len(client.dicts["en"]); n < 100 {
		t.Fatalf("only %d English texts read from lang/en.js; the reader no longer matches the file", n)
	}
	checkComplete(t, "lang/*.js", langs, client.dicts)
	mods := gameModules(t)
	for key := range client.dicts["en"] {
		for _, p := range []string{"game.", "how.", "opt.", "optdoc.", "choice."} {
			if strings.HasPrefix(key, p) {
				t.Errorf("lang/en.js has %q: a game's texts are in rules/NAME.text.json", key)
			}
		}
		if ns, _, _ := strings.Cut(key, "."); mods[ns].file != "" {
			t.Errorf("lang/en.js has %q: the texts of %s's table are in games/%s.js", key, ns, ns)
		}
	}
	exports := regexp.MustCompile(`(?m)^export const texts = \{ (.*) \};$`)
	for name, mod := range mods {
		if _, err := rules.Lookup(name); err != nil {
			t.Errorf("%s is not a game's module: %v", mod.file, err)
		}
		m := exports.FindStringSubmatch(mod.code)
		if m == nil {
			t.Errorf("%s does not export its texts (export const texts = { %s };)", mod.file, strings.Join(langs, ", "))
			continue
		}
		if got := strings.Split(m[1], ", "); !slices.Equal(got, langs) {
			t.Errorf("%s exports texts in %v, the client speaks %v", mod.file, got, langs)
		}
		for _, l := range langs {
			if len(mod.dicts[l]) == 0 {
				t.Errorf("%s has no %s texts", mod.file, l)
			}
		}
		for key := range mod.dicts["en"] {
			if !strings.HasPrefix(key, name+".") {
				t.Errorf("%s has %q: a module's keys begin with its game's name (%s.)", mod.file, key, name)
			}
		}
		checkComplete(t, mod.file, langs, mod.dicts)
	}
}

// TestTextKeys checks that every text the client's code names is in the
// dictionaries it can see: a key written in a file of the generic client
// in its dictionaries (lang/LANG.js), one written in a game module in those
// or the module's own texts (never another module's, which may not be loaded); that a key made
// from a template (`reflection.${phase}`) begins some key; and that a feed
// line about a seat (line(key, seat), which says "key.you" to that seat)
// has its "key.you". So a key renamed, moved or mistyped in one place
// fails here rather than showing as the raw key on the page.
func TestTextKeys(t *testing.T) {
	client, _ := clientDicts(t)
	mods := gameModules(t)
	spaces := map[string]bool{}
	for key := range client.dicts["en"] {
		ns, _, _ := strings.Cut(key, ".")
		spaces[ns] = true
	}
	for name := range mods {
		spaces[name] = true
	}
	files, err := fs.Glob(Static(), "*.js")
	if err != nil {
		t.Fatal(err)
	}
	var all []clientTexts
	for _, f := range files {
		all = append(all, readTexts(t, f))
	}
	for _, m := range mods {
		all = append(all, m)
	}
	lineCall := regexp.MustCompile(`(?:^|[^\w])line\(`)
	checked, lines := 0, 0
	for _, f := range all {
		known := func(key string) bool {
			for _, k := range []string{key, key + "#other"} {
				if _, ok := client.dicts["en"][k]; ok {
					return true
				}
				if _, ok := f.dicts["en"][k]; ok {
					return true
				}
			}
			return false
		}
		for _, m := range textKey.FindAllStringSubmatch(f.code, -1) {
			ns, _, _ := strings.Cut(m[1], ".")
			if !spaces[ns] {
				continue
			}
			checked++
			if !known(m[1]) {
				t.Errorf("%s names the text %q, which is not in lang/en.js%s", f.file, m[1], map[bool]string{true: " or its own texts"}[f.dicts["en"] != nil])
			}
		}
		for _, m := range textKeyPrefix.FindAllStringSubmatch(f.code, -1) {
			ns, _, _ := strings.Cut(m[1], ".")
			if !spaces[ns] {
				continue
			}
			checked++
			found := false
			for _, d := range []map[string]string{client.dicts["en"], f.dicts["en"]} {
				for key := range d {
					found = found || strings.HasPrefix(key, m[1])
				}
			}
			if !found {
				t.Errorf("%s makes keys beginning %q, and no text's key does", f.file, m[1])
			}
		}
		for _, loc := range lineCall.FindAllStringIndex(f.code, -1) {
			for _, m := range textKey.FindAllStringSubmatch(firstArg(f.code[loc[1]:]), -1) {
				lines++
				if !known(m[1] + ".you") {
					t.Errorf("%s writes the feed line %q about a seat, and has no %q for the seat itself", f.file, m[1], m[1]+".you")
				}
			}
		}
	}
	if checked < 200 || lines < 10 {
		t.Fatalf("only %d keys and %d feed lines found in the client's code; the reader no longer matches it", checked, lines)
	}
}

// firstArg returns the first argument of a call whose arguments begin
// src: up to the first comma or closing parenthesis outside brackets and
// strings.
func firstArg(src string) string {
	depth, quote := 0, rune(0)
	for i, r := range src {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'' || r == '`':
			quote = r
		case r == '(' || r == '[' || r == '{':
			depth++
		case (r == ')' || r == ']' || r == '}') && depth > 0:
			depth--
		case (r == ',' || r == ')') && depth == 0:
			return src[:i]
		}
	}
	return src
}

// TestGamesList checks GET /api/games: every game with its texts in every
// language (rules.Texts), and the games the home page starts with, which
// must be registered.
func TestGamesList(t *testing.T) {
	ts := start(t, fastConfig())
	code, body := ts.get("/api/games")
	if code != 200 {
		t.Fatalf("/api/games: %d %.200s", code, body)
	}
	var got struct {
		Games []struct {
			Name  string                    `json:"name"`
			Title string                    `json:"title"`
			Claim *rules.ClaimShape         `json:"claim"`
			Texts map[string]rules.GameText `json:"texts"`
		} `json:"games"`
		First    string `json:"first"`
		Practice string `json:"practice"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Games) != len(rules.Games()) {
		t.Fatalf("/api/games lists %d games, the rules have %d", len(got.Games), len(rules.Games()))
	}
	for i, g := range rules.Games() {
		info, e := g.Info(), got.Games[i]
		if e.Name != info.Name || e.Title != info.Title || (e.Claim == nil) != (info.Claim == nil) {
			t.Errorf("/api/games lists %s %q (claim %v) where the rules have %s %q (claim %v)", e.Name, e.Title, e.Claim, info.Name, info.Title, info.Claim)
		}
		for _, l := range rules.Languages {
			if e.Texts[l].Title == "" || e.Texts[l].Title != rules.Texts(info.Name)[l].Title {
				t.Errorf("/api/games: %s has title %q in %s, its texts say %q", info.Name, e.Texts[l].Title, l, rules.Texts(info.Name)[l].Title)
			}
		}
	}
	for _, name := range []string{got.First, got.Practice} {
		if _, err := rules.Lookup(name); err != nil {
			t.Errorf("/api/games names %q to start with: %v", name, err)
		}
	}
}
