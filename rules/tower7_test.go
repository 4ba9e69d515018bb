package rules

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyTower7 checks an accepted Tower-7 claim against RULES.md §4.1 with
// the real deck: the first target is the claimant's stack and the second
// another seat's; the symbol is on both top cards; the whole stack, and
// only it, moves onto the other; the game ends when the claimant has no
// cards left, every other seat scoring minus its cards.
func verifyTower7(before *State, d *deck.Deck, a Action, ev []Event) error {
	from, to := before.Zone(a.Target.At(0)), before.Zone(a.Target.At(1))
	if from.Seat != a.Seat || to.Seat == a.Seat || to.Seat < 0 {
		return fmt.Errorf("stack of seat %d onto a stack of seat %d", from.Seat, to.Seat)
	}
	if !d.Has(from.Top(), a.Symbol) || !d.Has(to.Top(), a.Symbol) {
		return fmt.Errorf("symbol %d is not on cards %v and %v", a.Symbol, d.Card(from.Top()), d.Card(to.Top()))
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: from.Top(), Count: from.Len(), From: a.Target.At(0), To: a.Target.At(1)},
	}
	left := -from.Len()
	for z := tower7Hand * a.Seat; z < tower7Hand*(a.Seat+1); z++ {
		left += before.Zone(z).Len()
	}
	if left == 0 {
		if len(ev) != 3 || ev[2].Kind != EventOver {
			return fmt.Errorf("the claimant has no cards left but the events are %+v", ev)
		}
		r := ev[2].Result
		for i := range before.Players() {
			n := 0
			for z := tower7Hand * i; z < tower7Hand*(i+1); z++ {
				n += before.Zone(z).Len()
			}
			switch i {
			case a.Seat:
				n = 0
			case to.Seat:
				n += from.Len()
			}
			if r.Scores[i] != -n {
				return fmt.Errorf("seat %d scores %d with %d cards", i, r.Scores[i], n)
			}
		}
		if !reflect.DeepEqual(r.Winners, []int{a.Seat}) {
			return fmt.Errorf("winners %v, want the claimant %d", r.Winners, a.Seat)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// TestTower7Scenario plays RULES.md §4.1 on a known table of the order-4
// deck with two players: seat 0's places hold cards 0..6 (zones 0..6),
// seat 1's cards 7..13 (zones 7..13), cards 14..20 are set aside.
func TestTower7Scenario(t *testing.T) {
	d := mustDeck(t, 4, 0)
	s, err := New(mustGame(t, "tower-7"), d, Config{Players: 2, Seed: 1, Lockout: NoLockout})
	if err != nil {
		t.Fatal(err)
	}
	zones := make([][]int, 15)
	for c := range 14 {
		zones[c] = []int{c}
	}
	zones[14] = []int{14, 15, 16, 17, 18, 19, 20}
	setTable(t, s, zones...)
	v := uint64(0)
	claim := func(seat, from, to int) []Event {
		t.Helper()
		sym := d.Common(s.Zone(from).Top(), s.Zone(to).Top())
		ev, err := s.Apply(Action{Seat: seat, Symbol: sym, Target: To(from, to), Version: v, At: int64(v) * 100}, nil)
		if err != nil {
			t.Fatalf("seat %d, stack %d onto %d, symbol %d: %v", seat, from, to, sym, err)
		}
		v++
		return ev
	}
	// "Match any of your cards with any card of another player; put your
	// card onto theirs."
	ev := claim(0, 0, 7)
	if ev[1].Count != 1 || s.Zone(0).Len() != 0 || !reflect.DeepEqual(s.Zone(7).AppendCards(nil), []int{7, 0}) {
		t.Fatalf("seat 0's card 0 onto card 7: %+v, zone 7 %v", ev, s.Zone(7).AppendCards(nil))
	}
	if r := s.Result(); !reflect.DeepEqual(r.Scores, []int{-6, -8}) {
		t.Fatalf("standing %v, want [-6 -8]", r.Scores)
	}
	// Only top cards count: card 7 is covered, card 0 shows.
	covered := d.Common(7, 1)
	if d.Has(0, covered) {
		covered = -1
	}
	if covered >= 0 {
		mustRefuse(t, s, Action{Seat: 1, Symbol: covered, Target: To(7, 1), Version: v, At: 150}, ErrNotAMatch)
	}
	// Not one's own stack, not onto one's own, not from an empty place,
	// not onto the aside pile.
	sym := d.Common(1, 8)
	mustRefuse(t, s, Action{Seat: 1, Symbol: sym, Target: To(1, 8), Version: v, At: 160}, ErrBadTarget)
	mustRefuse(t, s, Action{Seat: 0, Symbol: d.Common(1, 2), Target: To(1, 2), Version: v, At: 170}, ErrBadTarget)
	mustRefuse(t, s, Action{Seat: 0, Symbol: sym, Target: To(0, 8), Version: v, At: 180}, ErrBadTarget)
	mustRefuse(t, s, Action{Seat: 0, Symbol: sym, Target: To(1, 14), Version: v, At: 190}, ErrBadTarget)
	// "A stack moves as one": seat 1 moves the stack {7, 0} onto card 1.
	ev = claim(1, 7, 1)
	if ev[1].Count != 2 || ev[1].Card != 0 || !reflect.DeepEqual(s.Zone(1).AppendCards(nil), []int{1, 7, 0}) {
		t.Fatalf("stack moved: %+v, zone 1 %v", ev, s.Zone(1).AppendCards(nil))
	}
	// Seat 0 gets rid of its stacks one by one onto seat 1's: the stack
	// in zone 1 last. "One player has nothing left and wins; every other
	// player loses as many points as cards in front of them."
	for z := 2; z <= 6; z++ {
		claim(0, z, 8)
	}
	ev = claim(0, 1, 9)
	last := ev[len(ev)-1]
	if !s.Over() || last.Kind != EventOver || !reflect.DeepEqual(last.Result.Scores, []int{0, -14}) ||
		!reflect.DeepEqual(last.Result.Winners, []int{0}) {
		t.Fatalf("end: over %v, %+v", s.Over(), last)
	}
}

func TestTower7Properties(t *testing.T) { runProperties(t, "tower-7", verifyTower7) }

func FuzzTower7(f *testing.F) { fuzzGame(f, "tower-7", verifyTower7) }

// BenchmarkTower7Game plays whole games of Tower-7 with four instant
// players on the classic deck.
func BenchmarkTower7Game(b *testing.B) { benchGames(b, "tower-7", 4, nil) }
