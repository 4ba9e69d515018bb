package rules

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

func init() { viewChecks["reflection"] = checkReflectionView }

// checkReflectionView checks Reflection's extra view: a seat sees its own
// answers only, a spectator none; the phase is the state's.
func checkReflectionView(s *State, seat int, v View) error {
	r, ok := v.Extra.(ReflectionView)
	e := s.ext.(*reflExt)
	if !ok || r.Phase != reflPhases[e.phase] {
		return fmt.Errorf("extra %+v in phase %d", v.Extra, e.phase)
	}
	var own []int
	if seat >= 0 {
		own = e.answers[seat]
	}
	if !slices.Equal(r.Answers, own) && len(r.Answers)+len(own) > 0 {
		return fmt.Errorf("answers %v, the seat's own are %v", r.Answers, own)
	}
	for i, n := range r.Written {
		if n != len(e.answers[i]) {
			return fmt.Errorf("seat %d wrote %d, the view says %d", i, len(e.answers[i]), n)
		}
	}
	return nil
}

// verifyReflection checks an accepted Reflection action against RULES.md
// §4.2 with the real deck: a write is of a symbol of the fifth card, in the
// answer phase, the seat's fourth at most; a tick turns the cards of the
// phase over or scores the round.
func verifyReflection(before *State, d *deck.Deck, a Action, ev []Event) error {
	e := before.ext.(*reflExt)
	if a.Kind == ActionWrite {
		if e.phase != reflAnswer || len(e.answers[a.Seat]) >= 4 || !d.Has(before.Zone(reflFifthUp).Top(), a.Symbol) {
			return fmt.Errorf("write of %d by seat %d in phase %d", a.Symbol, a.Seat, e.phase)
		}
		if ev[0].Kind != EventWrite || ev[0].Seat != a.Seat || ev[0].Symbol != a.Symbol {
			return fmt.Errorf("events %+v", ev)
		}
		return nil
	}
	switch e.phase {
	case reflLook, reflStudy:
		if len(ev) != 6 || ev[5].Kind != EventPhase || ev[5].Count != e.phase+1 {
			return fmt.Errorf("tick in phase %d: %+v", e.phase, ev)
		}
	default:
		for seat := range before.Players() {
			if ev[seat].Kind != EventScore || ev[seat].Seat != seat {
				return fmt.Errorf("scoring: %+v", ev)
			}
		}
	}
	return nil
}

// TestReflectionScenario plays RULES.md §4.2 on the order-2 deck (cards 0 =
// {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6}, 4 = {0,4,5}, 5 = {1,5,6},
// 6 = {0,2,6}) with two players: the four are cards 1..4, the fifth card
// 0, which shares 1 with card 1, 3 with cards 2 and 3, and 0 with card 4.
func TestReflectionScenario(t *testing.T) {
	s, err := New(mustGame(t, "reflection"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1, Lockout: NoLockout})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{5, 6}, nil, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil, nil, nil, nil, []int{0})
	write := func(seat, sym int, at int64) {
		t.Helper()
		if _, err := s.Apply(Action{Kind: ActionWrite, Seat: seat, Symbol: sym, Version: s.Version(), At: at}, nil); err != nil {
			t.Fatalf("seat %d writes %d: %v", seat, sym, err)
		}
	}
	tick := func() []Event {
		t.Helper()
		a, ok := s.Tick()
		if !ok {
			t.Fatal("no deadline")
		}
		ev, err := s.Apply(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	// "Look at the face-up card": the four are face down, the fifth shows.
	v := s.View(0)
	if len(v.Zones[reflFifthUp].Cards) != 1 || len(v.Zones[reflUp].Cards) != 0 || v.Deadline != 5000 {
		t.Fatalf("look: %+v", v)
	}
	mustRefuse(t, s, Action{Kind: ActionWrite, Seat: 0, Symbol: 1, At: 100}, ErrNotNow)
	// "Then the 4 are turned up and the fifth turned down; 20 seconds to
	// study the 4."
	tick()
	v = s.View(1)
	if len(v.Zones[reflFifthUp].Cards) != 0 || v.Zones[reflUp+3].Cards[0].Card != 4 || v.Deadline != 25000 {
		t.Fatalf("study: %+v", v)
	}
	// "Then they are hidden and the fifth shown."
	tick()
	v = s.View(1)
	for i := range 4 {
		if len(v.Zones[reflUp+i].Cards)+len(v.Zones[reflDown+i].Cards) != 0 {
			t.Fatalf("answer: the four show: %+v", v.Zones)
		}
	}
	mustRefuse(t, s, Action{Kind: ActionWrite, Seat: 0, Symbol: 2, Version: s.Version(), At: 25100}, ErrNotAMatch)
	// Seat 0 writes 3 twice (it matches two cards), 1 and 0: four points.
	// Seat 1 writes 3 three times and 1: 3 counts twice at most, 1 once.
	for _, sym := range []int{3, 3, 1} {
		write(0, sym, 25200)
	}
	if r := s.View(1).Extra.(ReflectionView); len(r.Answers) != 0 || r.Written[0] != 3 {
		t.Fatalf("seat 1 sees %+v", r)
	}
	write(0, 0, 25300)
	mustRefuse(t, s, Action{Kind: ActionWrite, Seat: 0, Symbol: 0, Version: s.Version(), At: 25400}, ErrNotNow)
	for _, sym := range []int{3, 3, 3, 1} {
		write(1, sym, 25500)
	}
	// Everyone has written four: scored at once, a new round dealt.
	last := s.View(Spectator).Extra.(ReflectionView).Last
	if last == nil || !slices.Equal(last.Points, []int{4, 3}) || !slices.Equal(last.Shared, []int{1, 3, 3, 0}) ||
		s.Seat(0).Tally != 4 || s.Round() != 2 {
		t.Fatalf("scoring: %+v, tallies %d %d, round %d", last, s.Seat(0).Tally, s.Seat(1).Tally, s.Round())
	}
	if d, _ := s.Deadline(); d != 25500+5000 {
		t.Fatalf("the next round's look ends at %d", d)
	}
	// No answers in the next round: the time runs out, nobody scores.
	tick()
	tick()
	ev := tick()
	if ev[0].Kind != EventScore || ev[0].Count != 0 || s.Round() != 3 {
		t.Fatalf("empty round: %+v", ev)
	}
}

// TestReflectionTarget plays to a target of 4 points: the round that
// reaches it ends the game.
func TestReflectionTarget(t *testing.T) {
	s, err := New(mustGame(t, "reflection"), mustDeck(t, 2, 0), Config{Players: 2, Options: map[string]string{"target": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{5, 6}, nil, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil, nil, nil, nil, []int{0})
	for range 2 {
		a, _ := s.Tick()
		if _, err := s.Apply(a, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, sym := range []int{1, 3, 3, 0} {
		if _, err := s.Apply(Action{Kind: ActionWrite, Seat: 1, Symbol: sym, Version: s.Version(), At: 25001}, nil); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := s.Tick()
	ev, err := s.Apply(a, nil)
	if err != nil || !s.Over() || !slices.Equal(ev[len(ev)-1].Result.Winners, []int{1}) {
		t.Fatalf("%v %+v", err, ev)
	}
}

func TestReflectionProperties(t *testing.T) { runProperties(t, "reflection", verifyReflection) }

func FuzzReflection(f *testing.F) { fuzzGame(f, "reflection", verifyReflection) }
