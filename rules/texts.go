package rules

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// This file holds the texts people read about a game: its title, its rule
// in a sentence and its options' names, descriptions and choices, in every
// language of the interface. Each game's texts are one file beside its
// rules, NAME.text.json (NAME its canonical name), read once, on first use,
// so that a command that never shows them never parses them.

// Languages are the languages a game's texts are written in, English first:
// a text missing in another language falls back to English.
var Languages = []string{"en", "pl", "da", "ru", "zh", "it"}

// GameText is a game's texts in one language.
type GameText struct {
	// Title is the game's name, e.g. "The Tower".
	Title string `json:"title"`
	// Rule says in a sentence or two how the game is played.
	Rule string `json:"rule"`
	// Score, when not empty, is how a seat's score is shown during play
	// where the count alone would mislead, with {score} for the count and
	// its unit: Hot Potato's "Penalty: {score}".
	Score string `json:"score,omitempty"`
	// Tally, when not empty, is how a seat's tally (Seat.Tally) is shown
	// during play beside a score it differs from, with {n} for the
	// tally: Hot Potato's "Rounds lost: {n}". A game without it shows no
	// tally.
	Tally string `json:"tally,omitempty"`
	// Options holds each option's texts by the option's name.
	Options map[string]OptionText `json:"options,omitempty"`
}

// OptionText is an option's texts in one language.
type OptionText struct {
	// Name is the option's label.
	Name string `json:"name"`
	// Doc says what the option changes.
	Doc string `json:"doc"`
	// Choices holds each choice's name by its value.
	Choices map[string]string `json:"choices,omitempty"`
}

//go:embed *.text.json
var textFiles embed.FS

// textSuffix ends the name of every game's text file.
const textSuffix = ".text.json"

// allTexts reads every game's text file once, on first use: the texts by
// game name, then by language. A file that cannot be read leaves its game
// without texts, and the error names it (TestTexts fails on it).
var allTexts = sync.OnceValues(func() (map[string]map[string]GameText, error) {
	files, err := fs.Glob(textFiles, "*"+textSuffix)
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]GameText, len(files))
	var errs []string
	for _, f := range files {
		b, err := textFiles.ReadFile(f)
		if err == nil {
			var t map[string]GameText
			if err = json.Unmarshal(b, &t); err == nil {
				out[strings.TrimSuffix(f, textSuffix)] = t
				continue
			}
		}
		errs = append(errs, fmt.Sprintf("rules/%s: %v", f, err))
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("rules: game texts: %s", strings.Join(errs, "; "))
	}
	return out, nil
})

// Texts returns the texts of the game named game (its canonical name or an
// alias) by language, or nil for a game without a text file. The map is
// shared: callers must not change it. A game may have English only, or no
// texts at all; whoever shows them falls back to English, then to
// Info.Title and the options' names and Doc.
func Texts(game string) map[string]GameText {
	name := normalName(game)
	if g, ok := registry.byName[name]; ok {
		name = g.Info().Name
	}
	t, _ := allTexts()
	return t[name]
}
