package rules

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyCollect checks an accepted action of Collect the Symbols against
// RULES.md §4.6 with the real deck: a claim names a symbol of the
// claimant's top card whose token was left and takes it; a discard moves
// the top card onto the seat's own discard pile; a take, by a seat with an
// empty pile, turns another seat's discard pile over into it.
func verifyCollect(before *State, d *deck.Deck, a Action, ev []Event) error {
	pile := before.Zone(collectPile(a.Seat))
	v := ev[0].Version
	var want []Event
	switch a.Kind {
	case ActionClaim:
		tokens := before.View(Spectator).Extra.(CollectView).Tokens
		if !d.Has(pile.Top(), a.Symbol) || !slices.Contains(tokens, a.Symbol) {
			return fmt.Errorf("symbol %d: top card %v, tokens %v", a.Symbol, d.Card(pile.Top()), tokens)
		}
		want = []Event{{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Card: -1, From: -1, To: -1}}
		if len(tokens) == 1 {
			if len(ev) != 2 || ev[1].Kind != EventOver {
				return fmt.Errorf("the last token was taken but the events are %+v", ev)
			}
			want = append(want, ev[1])
		}
	case ActionDiscard:
		want = []Event{{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: pile.Top(), Count: 1,
			From: collectPile(a.Seat), To: collectDiscard(a.Seat)}}
		want = collectStalled(before, ev, want)
	case ActionTake:
		from := before.Zone(a.Target.At(0))
		if pile.Len() != 0 || from.Kind != ZoneDiscard || from.Seat == a.Seat {
			return fmt.Errorf("take of zone %d (%s of seat %d) with %d cards in the pile", a.Target.At(0), from.Kind, from.Seat, pile.Len())
		}
		cards := from.AppendCards(nil)
		for i := len(cards) - 1; i >= 0; i-- {
			want = append(want, Event{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: cards[i], Count: 1,
				From: a.Target.At(0), To: collectPile(a.Seat)})
		}
		want = collectStalled(before, ev, want)
	default:
		return fmt.Errorf("kind %v accepted", a.Kind)
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// TestCollectScenario plays RULES.md §4.6 on the order-2 deck (cards 0 =
// {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6}, 4 = {0,4,5}, 5 =
// {1,5,6}, 6 = {0,2,6}, one token per symbol 0..6) with two players.
func TestCollectScenario(t *testing.T) {
	s, err := New(mustGame(t, "collect"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1, Lockout: NoLockout})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 holds 6, 2, 0 (0 on top), seat 1 holds 5, 4, 3, 1 (1 on top).
	setTable(t, s, []int{6, 2, 0}, nil, []int{5, 4, 3, 1}, nil)
	do := func(a Action) []Event {
		t.Helper()
		a.Version = s.Version()
		ev, err := s.Apply(a, nil)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		return ev
	}
	refused := func(a Action, want error) {
		t.Helper()
		a.Version = s.Version()
		mustRefuse(t, s, a, want)
	}
	tokens := func() []int { return s.View(0).Extra.(CollectView).Tokens }
	// "Grab centre tokens whose symbol is on your top card."
	do(Action{Seat: 0, Symbol: 1})
	refused(Action{Seat: 1, Symbol: 1}, ErrNotAMatch) // taken
	refused(Action{Seat: 0, Symbol: 2}, ErrNotAMatch) // not on card 0
	do(Action{Seat: 1, Symbol: 2})
	do(Action{Seat: 1, Symbol: 4})
	if !slices.Equal(tokens(), []int{0, 3, 5, 6}) || s.Seat(0).Tally != 1 || s.Seat(1).Tally != 2 {
		t.Fatalf("tokens %v, tallies %+v %+v", tokens(), s.Seat(0), s.Seat(1))
	}
	// Each sees only its own top card.
	if v := s.View(1); len(v.Zones[collectPile(0)].Cards) != 0 || v.Zones[collectPile(1)].Cards[0].Card != 1 {
		t.Fatalf("seat 1's view: %+v", v.Zones)
	}
	// "You may discard your top card at any time to see the next."
	ev := do(Action{Kind: ActionDiscard, Seat: 1})
	if ev[0].Card != 1 || ev[0].To != collectDiscard(1) || s.Zone(collectPile(1)).Top() != 3 {
		t.Fatalf("discard: %+v", ev)
	}
	do(Action{Seat: 1, Symbol: 3})
	do(Action{Seat: 1, Symbol: 6})
	// A take while holding cards, of one's own pile, of an empty pile.
	refused(Action{Kind: ActionTake, Seat: 1, Target: To(collectDiscard(0))}, ErrNotNow)
	do(Action{Kind: ActionDiscard, Seat: 0})
	do(Action{Kind: ActionDiscard, Seat: 0})
	do(Action{Kind: ActionDiscard, Seat: 0})
	refused(Action{Kind: ActionDiscard, Seat: 0}, ErrNotNow)
	refused(Action{Seat: 0, Symbol: 0}, ErrNotNow)
	refused(Action{Kind: ActionTake, Seat: 0, Target: To(collectDiscard(0))}, ErrBadTarget)
	refused(Action{Kind: ActionTake, Seat: 0, Target: To(collectPile(1))}, ErrBadTarget)
	// "With no cards left, take over another player's discard pile": seat
	// 1's discard pile holds card 1; turned over it is seat 0's pile.
	do(Action{Kind: ActionTake, Seat: 0, Target: To(collectDiscard(1))})
	if got := s.Zone(collectPile(0)).AppendCards(nil); !slices.Equal(got, []int{1}) {
		t.Fatalf("seat 0's pile after the take: %v", got)
	}
	// Seat 1's next card is 4 = {0,4,5}: tokens 0 and 5 end the game.
	do(Action{Kind: ActionDiscard, Seat: 1})
	do(Action{Seat: 1, Symbol: 0})
	ev = do(Action{Seat: 1, Symbol: 5})
	last := ev[len(ev)-1]
	if !s.Over() || last.Kind != EventOver || !reflect.DeepEqual(last.Result.Scores, []int{1, 6}) || len(tokens()) != 0 {
		t.Fatalf("end: %+v", last)
	}
}

// collectStalled appends to want, the events of a discard or a take made
// in state before, the end of the game that events ev must hold when that
// move was the last of the quiet moves that end it (collectStall).
func collectStalled(before *State, ev, want []Event) []Event {
	e := before.ext.(*collectExt)
	if e.quiet+1 < collectStall*before.cards.Len() || len(ev) == 0 || ev[len(ev)-1].Kind != EventOver {
		return want
	}
	return append(want, ev[len(ev)-1])
}

// collectQuiet makes a move of seat that takes no token, a discard or else a
// take of the first discard pile it may take, and returns its events.
func collectQuiet(t *testing.T, s *State, seat int) []Event {
	t.Helper()
	a := Action{Kind: ActionDiscard, Seat: seat, Version: s.Version()}
	if s.Zone(collectPile(seat)).Len() == 0 {
		for i := range s.Players() {
			if i != seat && s.Zone(collectDiscard(i)).Len() > 0 {
				a = Action{Kind: ActionTake, Seat: seat, Target: To(collectDiscard(i)), Version: s.Version()}
				break
			}
		}
	}
	ev, err := s.Apply(a, nil)
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestCollectStall checks the project's decision on a game that stalls:
// three times as many discards and takes in a row as there are cards, no
// token taken, end the game, the tokens left staying in the centre; a
// token taken starts the count again. Two seats of three pass their cards
// round while the third, who never plays, holds the only cards that show
// the tokens left.
func TestCollectStall(t *testing.T) {
	s, err := New(mustGame(t, "collect"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1, Lockout: NoLockout})
	if err != nil {
		t.Fatal(err)
	}
	// Cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6}, 4 =
	// {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}. Seat 2 holds 0 and 5, the only
	// cards with symbol 1; seats 0 and 1 hold the rest.
	setTable(t, s, []int{6, 4, 3}, nil, []int{2, 1}, nil, []int{5, 0}, nil)
	stall := 3 * s.Cards().Len() // the decision's count: 21 quiet moves
	// Seat 0 takes every token but 1 from its cards 3, 4 and 6, with a
	// discard before each of the last two cards (which the last token
	// taken makes count for nothing).
	for _, sym := range []int{3, 4, 6, -1, 0, 5, -1, 2} {
		if sym < 0 {
			collectQuiet(t, s, 0)
			continue
		}
		if _, err := s.Apply(Action{Seat: 0, Symbol: sym, Version: s.Version()}, nil); err != nil {
			t.Fatalf("seat 0's claim of %d: %v", sym, err)
		}
	}
	// Only token 1 is left, out of reach of seats 0 and 1: their moves
	// end the game at the stall-th.
	for n := 1; n <= stall; n++ {
		ev := collectQuiet(t, s, n%2)
		last := ev[len(ev)-1]
		if n < stall {
			if s.Over() || last.Kind == EventOver {
				t.Fatalf("the game ended after %d quiet moves, before %d", n, stall)
			}
			continue
		}
		if !s.Over() || last.Kind != EventOver {
			t.Fatalf("the game goes on after %d quiet moves: %+v", n, last)
		}
		if tokens := s.View(Spectator).Extra.(CollectView).Tokens; !slices.Equal(tokens, []int{1}) {
			t.Fatalf("tokens %v left in the centre, want [1]", tokens)
		}
		if got := last.Result.Scores; got[2] != 0 || got[0]+got[1] != 6 {
			t.Fatalf("scores %v", got)
		}
	}
	mustRefuse(t, s, Action{Kind: ActionDiscard, Seat: 2, Version: s.Version()}, ErrGameOver)
}

func TestCollectProperties(t *testing.T) { runProperties(t, "collect-symbols", verifyCollect) }

func FuzzCollect(f *testing.F) { fuzzGame(f, "collect-symbols", verifyCollect) }

// BenchmarkCollectGame plays whole games of Collect the Symbols with four
// instant players on the classic deck, setup included. The seats take turns
// to move (as PickMove picks), rather than the first seat that can move
// moving every time as in benchGames: a seat can always discard, so two
// seats passing cards to each other would keep the others from ever moving.
func BenchmarkCollectGame(b *testing.B) {
	x, err := NewIndex(mustDeck(b, 7, 55))
	if err != nil {
		b.Fatal(err)
	}
	g := mustGame(b, "collect-symbols")
	ev := make([]Event, 0, 64)
	actions := 0
	var a Action
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s, err := New(g, x, Config{Players: 4, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		for seat := 0; !s.Over(); seat = (seat + 1) % 4 {
			if !s.PickMoveTo(&a, seat, zeroRand{}) {
				continue
			}
			if ev, err = s.ApplyPtr(&a, ev[:0]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
}
