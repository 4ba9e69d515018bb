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

// TestDecidedTimes checks that a plan in a game with Deciders takes the
// level's time for the effort the Decider reports: at the instant level
// none; otherwise Orient, then Compare for each of the comparisons (k² in
// False Poker, k the symbols of a card), scaled by noise of mean 1, then
// Motor. (An easy bot often runs out of False Poker's five seconds.)
func TestDecidedTimes(t *testing.T) {
	x := mustIndex(t, 7, 55)
	for _, l := range Levels() {
		var search []float64
		for i := range 3000 {
			s := mustState(t, "false-poker", x, rules.Config{Players: 3, Seed: uint64(i)})
			b := New(l, s.Turn(), uint64(i))
			const now = 1000
			p, ok := b.Plan(s, now)
			if !ok {
				t.Fatalf("%s: no plan on the seat's turn", l.Name)
			}
			if l.Instant() {
				if err := s.Check(p.Action); err != nil {
					t.Fatalf("instant plan %+v refused: %v", p.Action, err)
				}
				if p.Decide != now || p.Action.At != now || p.Comparisons != 0 {
					t.Fatalf("instant plan %+v at %d", p, now)
				}
				continue
			}
			if p.Comparisons != 64 || p.Action.At-p.Decide != int64(l.Motor) {
				t.Fatalf("%s: plan %+v: want 64 comparisons, Motor %v", l.Name, p, l.Motor)
			}
			search = append(search, float64(p.Decide-now)-l.Orient)
		}
		if len(search) > 0 {
			near(t, l.Name+" search", search, l.Compare*64)
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
