package web

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTranslationsComplete reads the client's dictionaries (web/static/
// i18n.js) and checks that every language has every English key, no key
// English lacks, and the same {placeholders} in each text, so that no part
// of the interface falls back to English or loses a value.
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
