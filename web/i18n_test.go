package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// TestTranslationsComplete reads the client's dictionaries (web/static/
// i18n.js) and checks that every language has every English key, no key
// English lacks, and the same {placeholders} in each text, so that no part
// of the interface falls back to English or loses a value; that the
// client, the server and the games' texts speak the same languages; and
// that no game's title, rule or option texts are left in the client: they
// are the game's, in rules (TestTexts checks them), served by GET
// /api/games.
func TestTranslationsComplete(t *testing.T) {
	src, err := fs.ReadFile(Static(), "i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?ms)^const (\w\w) = \{\n(.*?)^\};`)
	entry := regexp.MustCompile(`(?m)^  "([^"]+)": "((?:[^"\\]|\\.)*)",?$`)
	placeholder := regexp.MustCompile(`\{\w+\}`)
	dicts := map[string]map[string]string{}
	for _, m := range block.FindAllStringSubmatch(string(src), -1) {
		d := map[string]string{}
		for _, e := range entry.FindAllStringSubmatch(m[2], -1) {
			d[e[1]] = e[2]
		}
		dicts[m[1]] = d
	}
	var langs []string
	if m := regexp.MustCompile(`export const LANGS = (\[.*\]);`).FindSubmatch(src); m == nil || json.Unmarshal(m[1], &langs) != nil {
		t.Fatal("i18n.js has no LANGS list")
	}
	if !slices.Equal(langs, rules.Languages) || !slices.Equal(langs, protocol.Languages) {
		t.Fatalf("the client speaks %v, the games' texts are in %v, the server accepts %v", langs, rules.Languages, protocol.Languages)
	}
	for _, l := range langs {
		if len(dicts[l]) == 0 {
			t.Fatalf("no %s dictionary found in i18n.js", l)
		}
	}
	en := dicts["en"]
	if len(en) < 100 {
		t.Fatalf("only %d English texts read from i18n.js; the reader no longer matches the file", len(en))
	}
	for key := range en {
		for _, p := range []string{"game.", "how.", "opt.", "optdoc.", "choice."} {
			if strings.HasPrefix(key, p) {
				t.Errorf("i18n.js has %q: a game's texts are in rules/NAME.text.json", key)
			}
		}
	}
	for _, l := range langs[1:] {
		for key, text := range en {
			tr, ok := dicts[l][key]
			if !ok {
				t.Errorf("%s lacks %q (%q)", l, key, text)
				continue
			}
			want, got := placeholder.FindAllString(text, -1), placeholder.FindAllString(tr, -1)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Errorf("%s %q has placeholders %s, English has %s", l, key, strings.Join(got, " "), strings.Join(want, " "))
			}
		}
		for key := range dicts[l] {
			if _, ok := en[key]; !ok {
				t.Errorf("%s has %q, which English lacks", l, key)
			}
		}
	}
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
