package bot

import (
	"math"
	"testing"

	"github.com/dobble-dev/dobble/rules"
)

// TestLevelMinds checks the Mind each level decides with: the instant
// level remembers all, misreads nothing, never bluffs and guesses only a
// sure thing; the others remember with 1 − 5 × WrongRate, misread with
// WrongRate, bluff one time in five and guess among two candidates (hard,
// expert) or three (medium, easy), all drawing from the bot's own source.
func TestLevelMinds(t *testing.T) {
	want := map[string]rules.Mind{
		"easy":    {Recall: 0.6, Misread: 0.08, Bluff: 0.2, Risk: 3},
		"medium":  {Recall: 0.75, Misread: 0.05, Bluff: 0.2, Risk: 3},
		"hard":    {Recall: 0.85, Misread: 0.03, Bluff: 0.2, Risk: 2},
		"expert":  {Recall: 0.95, Misread: 0.01, Bluff: 0.2, Risk: 2},
		"instant": {Recall: 1, Risk: 1},
	}
	for _, l := range Levels() {
		b := New(l, 0, 1)
		m, w := b.mind, want[l.Name]
		if math.Abs(m.Recall-w.Recall) > 1e-9 || m.Misread != w.Misread || m.Bluff != w.Bluff || m.Risk != w.Risk || m.Rand != b.rng {
			t.Errorf("%s: mind %+v, want %+v drawing from the bot's source", l.Name, m, w)
		}
	}
}
