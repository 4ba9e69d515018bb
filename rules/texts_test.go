package rules

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTexts checks every game's texts (NAME.text.json): every file reads
// and belongs to a registered game; every registered game has, in every
// language of Languages, its title, its rule and each of its options' name,
// description and choices, and no text for an option or choice it lacks; a
// score line in every language or in none; and every translation has the
// {placeholders} of the English text, so that no game falls back to
// English nor loses a value.
func TestTexts(t *testing.T) {
	all, err := allTexts()
	if err != nil {
		t.Fatal(err)
	}
	for name := range all {
		if g, ok := registry.byName[name]; !ok || g.Info().Name != name {
			t.Errorf("rules/%s.text.json names no game: a game's texts are in a file named after its canonical name", name)
		}
	}
	placeholder := regexp.MustCompile(`\{\w+\}`)
	same := func(game, lang, what, en, tr string) {
		t.Helper()
		want, got := placeholder.FindAllString(en, -1), placeholder.FindAllString(tr, -1)
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Errorf("%s: %s %s has placeholders %s, English has %s", game, lang, what, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
	for _, g := range Games() {
		info := g.Info()
		texts := Texts(info.Name)
		if texts == nil {
			t.Errorf("%s has no texts: add rules/%s.text.json", info.Name, info.Name)
			continue
		}
		for _, alias := range info.Aliases {
			if Texts(alias)["en"].Title != texts["en"].Title {
				t.Errorf("%s: Texts(%q) does not find the game's texts by its alias", info.Name, alias)
			}
		}
		en := texts["en"]
		for _, lang := range Languages {
			tx, ok := texts[lang]
			if !ok {
				t.Errorf("%s has no texts in %s", info.Name, lang)
				continue
			}
			if tx.Title == "" || tx.Rule == "" {
				t.Errorf("%s: %s lacks the title or the rule: %+v", info.Name, lang, tx)
			}
			same(info.Name, lang, "rule", en.Rule, tx.Rule)
			if (tx.Score == "") != (en.Score == "") {
				t.Errorf("%s: %s has score line %q, English %q: a score line is in every language or in none", info.Name, lang, tx.Score, en.Score)
			}
			same(info.Name, lang, "score line", en.Score, tx.Score)
			if (tx.Tally == "") != (en.Tally == "") {
				t.Errorf("%s: %s has tally line %q, English %q: a tally line is in every language or in none", info.Name, lang, tx.Tally, en.Tally)
			}
			same(info.Name, lang, "tally line", en.Tally, tx.Tally)
			for _, o := range info.Options {
				ot := tx.Options[o.Name]
				if ot.Name == "" || ot.Doc == "" {
					t.Errorf("%s: %s lacks the name or description of option %s", info.Name, lang, o.Name)
				}
				same(info.Name, lang, "option "+o.Name, en.Options[o.Name].Doc, ot.Doc)
				for _, c := range o.Choices {
					if ot.Choices[c] == "" {
						t.Errorf("%s: %s lacks choice %s of option %s", info.Name, lang, c, o.Name)
					}
				}
				for c := range ot.Choices {
					if !slices.Contains(o.Choices, c) {
						t.Errorf("%s: %s names choice %q of option %s, which has %v", info.Name, lang, c, o.Name, o.Choices)
					}
				}
			}
			for name := range tx.Options {
				if !slices.ContainsFunc(info.Options, func(o Option) bool { return o.Name == name }) {
					t.Errorf("%s: %s has texts for option %q, which the game lacks", info.Name, lang, name)
				}
			}
		}
		for lang := range texts {
			if !slices.Contains(Languages, lang) {
				t.Errorf("%s has texts in %q, not one of %v", info.Name, lang, Languages)
			}
		}
	}
	if got := slices.Sorted(maps.Keys(all)); len(got) != len(Games()) {
		t.Errorf("%d text files for %d games: %v", len(got), len(Games()), got)
	}
}

// TestTextsUnknown checks that a name no game has, and a game's name in
// another spelling, are looked up as Lookup does.
func TestTextsUnknown(t *testing.T) {
	if Texts("no-such-game") != nil {
		t.Error("Texts of an unknown game is not nil")
	}
	if Texts(" Hot_Potato ")["en"].Title != "Hot Potato" {
		t.Errorf("Texts(\" Hot_Potato \") = %v, want Hot Potato's", Texts(" Hot_Potato ")["en"])
	}
}
