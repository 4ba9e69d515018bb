package web

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/rules"
)

// TestTranslationsComplete reads the client's dictionaries (web/static/
// i18n.js) and checks that English names every game of the rules engine,
// its rules and each of its options and choices, that every language has
// every English key, no key English lacks, and the same {placeholders} in
// each text, so that no part of the interface falls back to English or
// loses a value.
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
	langs := []string{"en", "pl", "da", "ru", "zh", "it"}
	for _, l := range langs {
		if len(dicts[l]) == 0 {
			t.Fatalf("no %s dictionary found in i18n.js", l)
		}
	}
	en := dicts["en"]
	if len(en) < 100 {
		t.Fatalf("only %d English texts read from i18n.js; the reader no longer matches the file", len(en))
	}
	// Every game of the rules engine has its title and its rules in a
	// few words, and each of its options (which GET /api/games names and
	// describes in English only) its name, its description and the name
	// of each choice; the loop below then asks every language for them.
	for _, g := range rules.Games() {
		info := g.Info()
		keys := []string{"game." + info.Name, "how." + info.Name}
		for _, o := range info.Options {
			keys = append(keys, "opt."+info.Name+"."+o.Name, "optdoc."+info.Name+"."+o.Name)
			for _, c := range o.Choices {
				keys = append(keys, "choice."+info.Name+"."+o.Name+"."+c)
			}
		}
		for _, k := range keys {
			if en[k] == "" {
				t.Errorf("en lacks %q: game %s has no text for it", k, info.Name)
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
