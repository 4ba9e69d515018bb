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

// TestHeldAnswerKeepsItsTime checks that a bot writing a Reflection answer
// keeps its plan's times when another seat writes meanwhile (the same
// answer, no new thought), and thinks afresh for its next answer once its
// own is written.
func TestHeldAnswerKeepsItsTime(t *testing.T) {
	x := mustIndex(t, 7, 55)
	medium, err := LookupLevel("medium")
	if err != nil {
		t.Fatal(err)
	}
	s := mustState(t, "reflection", x, rules.Config{Players: 2, Seed: 4})
	bots := []*Bot{New(medium, 0, 4), New(medium, 1, 4)}
	now := int64(0)
	for !s.CanMove(0) {
		// Both bots are shown every version, the study phase too.
		for _, b := range bots {
			b.Plan(s, now)
		}
		tick, ok := s.Tick()
		if !ok {
			t.Fatal("no answer phase")
		}
		if _, err := s.Apply(tick, nil); err != nil {
			t.Fatal(err)
		}
		now = tick.At
	}
	first, ok := bots[0].Plan(s, now)
	other, ok1 := bots[1].Plan(s, now)
	if !ok || !ok1 {
		t.Fatal("no answer planned")
	}
	other.Action.At = now + 1
	if _, err := s.Apply(other.Action, nil); err != nil {
		t.Fatal(err)
	}
	held, ok := bots[0].Plan(s, now+1)
	if !ok || held.Action.Symbol != first.Action.Symbol || held.Decide != max(first.Decide, now+1) ||
		held.Action.At != max(first.Action.At, now+1) || held.Action.Version != s.Version() {
		t.Fatalf("plan %+v after the other seat wrote, first %+v", held, first)
	}
	held.Action.At = max(held.Action.At, now+1)
	if _, err := s.Apply(held.Action, nil); err != nil {
		t.Fatal(err)
	}
	next, ok := bots[0].Plan(s, held.Action.At)
	if !ok || next.Decide < held.Action.At+int64(medium.Orient) {
		t.Fatalf("next answer %+v planned without thought after %+v", next, held)
	}
}
