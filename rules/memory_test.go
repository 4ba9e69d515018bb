package rules

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

func init() { viewChecks["memory"] = checkMemoryView }

// checkMemoryView checks Memory's extra view: the markers are on face-down
// cards; the card flipped last is the one named, and either taken by its
// flipper or back in its place; the turn is the state's.
func checkMemoryView(s *State, seat int, v View) error {
	m, ok := v.Extra.(MemoryView)
	if !ok {
		return fmt.Errorf("extra %T", v.Extra)
	}
	for _, z := range m.Marked {
		if s.Zone(z).Kind != ZoneFaceDown || s.Zone(z).Len() != 1 {
			return fmt.Errorf("marker on zone %d", z)
		}
	}
	if l := m.Last; l != nil {
		where := s.Zone(l.Zone).Top()
		won := slices.Contains(s.Zone(memoryWon(s, l.Seat)).AppendCards(nil), l.Card)
		if l.Taken != won || (!l.Taken && where != l.Card) || !slices.Equal(m.Symbols, s.Cards().AppendCard(nil, l.Card)) {
			return fmt.Errorf("last flip %+v: place holds %d, taken %v", *l, where, won)
		}
	}
	if !s.Over() && v.Turn != s.ext.(*memoryExt).turn {
		return fmt.Errorf("turn %d in the view, %d in the state", v.Turn, s.ext.(*memoryExt).turn)
	}
	return nil
}

// verifyMemory checks an accepted Memory action against RULES.md §4.4 with
// the real deck: a flip is by the seat whose turn it is, names a symbol of
// the face-up card and flips an unmarked card (unless all are marked); the
// card is taken, for 5 points and another turn, exactly when it shows the
// symbol, and otherwise marked, the turn passing; a tick passes the turn,
// or ends the game when every seat has let two turns in a row run out.
func verifyMemory(before *State, d *deck.Deck, a Action, ev []Event) error {
	e := before.ext.(*memoryExt)
	next := (e.turn + 1) % before.Players()
	if a.Kind == ActionTick {
		want := []Event{{Kind: EventTurn, Version: ev[0].Version, Seat: next, Symbol: -1, Card: -1, From: -1, To: -1}}
		if e.idle+1 == memoryIdleRounds*before.Players() {
			// Every seat let its turns run out: the game ends.
			want = []Event{{Kind: EventOver, Version: ev[0].Version, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: before.game.Result(before)}}
		}
		if !reflect.DeepEqual(ev, want) {
			return fmt.Errorf("tick: events %+v", ev)
		}
		return nil
	}
	z := a.Target.At(0)
	card := before.Zone(z).Top()
	up := before.Zone(memoryFaceUp).Top()
	if a.Seat != e.turn || !d.Has(up, a.Symbol) || card < 0 {
		return fmt.Errorf("flip of zone %d by seat %d (turn %d) naming %d", z, a.Seat, e.turn, a.Symbol)
	}
	if e.marked[z-memoryFirst] && !memoryAllMarked(before, e) {
		return fmt.Errorf("flip of marked zone %d", z)
	}
	if ev[0].Kind != EventFlip || ev[0].Card != card || ev[0].From != z {
		return fmt.Errorf("first event %+v", ev[0])
	}
	if d.Has(card, a.Symbol) {
		if ev[1].Kind != EventMove || ev[1].To != memoryWon(before, a.Seat) || ev[2].Kind != EventScore || ev[2].Count != 5 {
			return fmt.Errorf("match: events %+v", ev)
		}
		// With remove-markers=yes, taking the last unmarked card takes
		// every marker off.
		left, marked := 0, 0
		for i, m := range e.marked {
			if i != z-memoryFirst && before.Zone(memoryFirst+i).Len() > 0 {
				left++
				if m {
					marked++
				}
			}
		}
		if before.Option(memoryOptRemove) == memoryRemoveYes && left > 0 && marked == left {
			if len(ev) != 4 || ev[3].Kind != EventMark || ev[3].From != -1 || ev[3].Count != marked {
				return fmt.Errorf("match leaving %d cards, all marked: events %+v, want the markers taken off", left, ev)
			}
		} else if len(ev) > 3 && ev[3].Kind != EventOver {
			return fmt.Errorf("match: events %+v", ev)
		}
		return nil
	}
	if ev[1].Kind != EventMark || ev[1].From != z || ev[len(ev)-1].Kind != EventTurn || ev[len(ev)-1].Seat != next {
		return fmt.Errorf("miss: events %+v", ev)
	}
	return nil
}

// TestMemoryScenario plays RULES.md §4.4 on the order-2 deck (cards 0 =
// {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6}, 4 = {0,4,5}, 5 = {1,5,6},
// 6 = {0,2,6}) with two players: card 0 face up, cards 1..4 face down in
// zones 2..5 (sharing 1, 3, 3 and 0 with it).
func TestMemoryScenario(t *testing.T) {
	s, err := New(mustGame(t, "memory"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1, Lockout: NoLockout})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{5, 6}, []int{0}, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil)
	flip := func(seat, sym, z int, at int64) []Event {
		t.Helper()
		ev, err := s.Apply(Action{Kind: ActionFlip, Seat: seat, Symbol: sym, Target: To(z), Version: s.Version(), At: at}, nil)
		if err != nil {
			t.Fatalf("seat %d flips zone %d naming %d: %v", seat, z, sym, err)
		}
		return ev
	}
	refused := func(seat, sym, z int, at int64, want error) {
		t.Helper()
		mustRefuse(t, s, Action{Kind: ActionFlip, Seat: seat, Symbol: sym, Target: To(z), Version: s.Version(), At: at}, want)
	}
	kinds := func(ev []Event) []EventKind {
		var k []EventKind
		for _, e := range ev {
			k = append(k, e.Kind)
		}
		return k
	}
	if s.Turn() != 0 || s.View(1).Turn != 0 {
		t.Fatal("seat 0 starts")
	}
	refused(1, 1, 2, 10, ErrNotYourTurn)
	refused(0, 2, 2, 10, ErrNotAMatch) // 2 is not on the face-up card
	refused(0, 1, 1, 10, ErrBadTarget) // the face-up card
	mustRefuse(t, s, Action{Seat: 0, Symbol: 1, At: 10}, ErrMalformed)
	// Seat 0 names 3 and flips card 1 = {1,2,4}: no, a marker, seat 1's turn.
	ev := flip(0, 3, 2, 100)
	if !slices.Equal(kinds(ev), []EventKind{EventFlip, EventMark, EventTurn}) || ev[0].Card != 1 || ev[2].Seat != 1 {
		t.Fatalf("miss: %+v", ev)
	}
	if m := s.View(0).Extra.(MemoryView); !slices.Equal(m.Marked, []int{2}) || m.Last.Card != 1 || m.Last.Taken {
		t.Fatalf("view after the miss: %+v", m)
	}
	if len(s.View(1).Zones[2].Cards) != 0 {
		t.Fatal("the card turned back shows in its zone")
	}
	refused(1, 1, 2, 200, ErrBadTarget) // marked
	// Seat 1 names 3 and flips card 2 = {2,3,5}: taken, and it plays again.
	ev = flip(1, 3, 3, 300)
	if !slices.Equal(kinds(ev), []EventKind{EventFlip, EventMove, EventScore}) || s.Turn() != 1 || s.Seat(1).Tally != 5 {
		t.Fatalf("match: %+v, turn %d", ev, s.Turn())
	}
	if d, _ := s.Deadline(); d != 300+20000 {
		t.Fatalf("deadline %d after playing again at 300", d)
	}
	flip(1, 0, 4, 400) // card 3 = {3,4,6}: no
	// Seat 0 misses card 4; every card left has a marker: all come off.
	ev = flip(0, 1, 5, 500)
	if !slices.Equal(kinds(ev), []EventKind{EventFlip, EventMark, EventMark, EventTurn}) || ev[2].Count != 3 ||
		len(s.View(0).Extra.(MemoryView).Marked) != 0 {
		t.Fatalf("markers off: %+v", ev)
	}
	// Seat 1's turn runs out at 20.5 s: its flip then is too late, and the
	// tick passes the turn.
	refused(1, 1, 2, 20500, ErrTimeUp)
	tick, _ := s.Tick()
	if ev, err = s.Apply(tick, nil); err != nil || s.Turn() != 0 || ev[0].Kind != EventTurn {
		t.Fatalf("tick: %v %+v", err, ev)
	}
	flip(0, 1, 2, 20600)
	flip(0, 3, 4, 20700)
	ev = flip(0, 0, 5, 20800)
	if last := ev[len(ev)-1]; !s.Over() || last.Kind != EventOver || !slices.Equal(last.Result.Scores, []int{15, 5}) {
		t.Fatalf("end: %+v", last)
	}
}

// TestMemoryMarkersOffAfterTake plays the decision on markers: they come
// off as soon as every face-down card left carries one, also when that
// happens because a seat takes the last unmarked card. Card 0 {0,1,3} is
// face up; cards 1..3 are missed and marked, then seat 1 takes card 4
// {0,4,5}, leaving three marked cards: the markers come off, and the seat,
// playing again, may flip any of them.
func TestMemoryMarkersOffAfterTake(t *testing.T) {
	s, err := New(mustGame(t, "memory"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{5, 6}, []int{0}, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil)
	flip := func(seat, sym, z int) []Event {
		t.Helper()
		ev, err := s.Apply(Action{Kind: ActionFlip, Seat: seat, Symbol: sym, Target: To(z), Version: s.Version(), At: int64(100 * s.Version())}, nil)
		if err != nil {
			t.Fatalf("seat %d flips zone %d naming %d: %v", seat, z, sym, err)
		}
		return ev
	}
	flip(0, 0, 2) // card 1 {1,2,4}: no
	flip(1, 0, 3) // card 2 {2,3,5}: no
	flip(0, 1, 4) // card 3 {3,4,6}: no; zone 5 is the only unmarked card
	ev := flip(1, 0, 5)
	if len(ev) != 4 || ev[1].Kind != EventMove || ev[3].Kind != EventMark || ev[3].Count != 3 || ev[3].From != -1 {
		t.Fatalf("take of the last unmarked card: events %+v, want flip, move, score and the 3 markers off", ev)
	}
	if m := s.View(0).Extra.(MemoryView); len(m.Marked) != 0 {
		t.Fatalf("markers %v after the take, want none", m.Marked)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
	flip(1, 3, 3) // card 2 shows 3: taken, and it was marked before
}

// TestMemoryMarkersKept plays the variant without the marker removal: once
// every card left is marked, marked cards may be flipped.
func TestMemoryMarkersKept(t *testing.T) {
	s, err := New(mustGame(t, "memory"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1, Options: map[string]string{"remove-markers": "no"}})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{5, 6}, []int{0}, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil)
	for i, z := range []int{2, 3, 4, 5} {
		// Naming a symbol of the face-up card that is not on the card.
		sym := 3
		if z == 3 || z == 4 {
			sym = 1
		}
		if _, err := s.Apply(Action{Kind: ActionFlip, Seat: i % 2, Symbol: sym, Target: To(z), Version: s.Version(), At: int64(i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if m := s.View(0).Extra.(MemoryView); len(m.Marked) != 4 {
		t.Fatalf("markers %v, want all four kept", m.Marked)
	}
	if _, err := s.Apply(Action{Kind: ActionFlip, Seat: 0, Symbol: 1, Target: To(2), Version: s.Version(), At: 10}, nil); err != nil {
		t.Fatalf("a marked card when all are marked: %v", err)
	}
}

// TestMemoryIdle checks the project's decision on a table where nobody
// plays: the game ends when every seat has let two turns in a row run out,
// no card flipped in between (2 × 3 turns passed by the clock, at three),
// the cards left staying face down; a card flipped starts the count again.
func TestMemoryIdle(t *testing.T) {
	s, err := New(mustGame(t, "memory"), mustDeck(t, 3, 0), Config{Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	const idle = 2 * 3 // two rounds of three turns
	pass := func() []Event {
		t.Helper()
		tick, ok := s.Tick()
		if !ok {
			t.Fatal("no deadline")
		}
		ev, err := s.Apply(tick, nil)
		if err != nil {
			t.Fatalf("tick: %v", err)
		}
		if err := CheckInvariants(s); err != nil {
			t.Fatal(err)
		}
		return ev
	}
	// Five turns run out, then seat 2 flips a card it misses.
	for range idle - 1 {
		pass()
	}
	if s.Over() || s.Turn() != 2 {
		t.Fatalf("after %d turns passed: over %v, turn %d", idle-1, s.Over(), s.Turn())
	}
	m := s.Moves(2, nil)
	a := m[0]
	for _, x := range m {
		if !s.cards.Has(s.top(x.Target.At(0)), x.Symbol) {
			a = x // a miss, which passes the turn
			break
		}
	}
	a.At, _ = s.Deadline()
	a.At--
	if _, err := s.Apply(a, nil); err != nil || s.Turn() != 0 {
		t.Fatalf("seat 2's miss: %v, turn %d", err, s.Turn())
	}
	// The count starts again: the game ends with the sixth turn run out
	// after the flip, and not before.
	for n := 1; n <= idle; n++ {
		ev := pass()
		last := ev[len(ev)-1]
		if n < idle {
			if s.Over() {
				t.Fatalf("the game ended after %d turns passed since a flip, before %d", n, idle)
			}
			continue
		}
		if !s.Over() || last.Kind != EventOver {
			t.Fatalf("the game goes on after every seat let two turns run out: %+v", ev)
		}
		if got := last.Result.Scores; !slices.Equal(got, []int{0, 0, 0}) {
			t.Fatalf("scores %v", got)
		}
	}
	if _, ok := s.Tick(); ok {
		t.Fatal("a game over has a deadline")
	}
}

func TestMemoryProperties(t *testing.T) { runProperties(t, "memory", verifyMemory) }

func TestMemoryKeptProperties(t *testing.T) {
	runPropertiesOf(t, mustGame(t, "memory"), map[string]string{"remove-markers": "no"}, verifyMemory)
}

func FuzzMemory(f *testing.F) { fuzzGame(f, "memory", verifyMemory) }
