package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifySubwayRescue checks an accepted Subway Rescue claim against
// RULES.md §3.7 with the real deck: the target is a laid-out card and the
// symbol the one it shares with the claimant's top card; that card goes
// onto the claimant's pile; when it was the last laid-out card, the game
// ends after the fourth pile (most cards winning), and otherwise every
// seat's pile is shuffled and the next pile is laid out, top card first,
// into the layout's places in order.
func verifySubwayRescue(before *State, d *deck.Deck, a Action, ev []Event) error {
	p := before.Players()
	first := 4 + p
	z := a.Target.At(0)
	if z < first {
		return fmt.Errorf("target %d is not a laid-out card", z)
	}
	card, own := before.Zone(z).Top(), before.Zone(4+a.Seat).Top()
	if card < 0 || d.Common(own, card) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of top card %d and laid-out card %d", a.Symbol, own, card)
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: card, Count: 1, From: z, To: 4 + a.Seat},
	}
	laid := -1
	for k := first; k < before.Zones(); k++ {
		laid += before.Zone(k).Len()
	}
	sizes := make([]int, p)
	for i := range sizes {
		sizes[i] = before.Zone(4 + i).Len()
	}
	sizes[a.Seat]++
	switch {
	case laid > 0:
	case before.Round() == 4:
		if ev[len(ev)-1].Result == nil {
			return fmt.Errorf("the fourth pile is gone, but the game goes on: %+v", ev)
		}
		r := ev[len(ev)-1].Result
		if !reflect.DeepEqual(r.Scores, sizes) || r.Unit != "cards" || !r.HigherWins {
			return fmt.Errorf("result %+v, want scores %v", r, sizes)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	default:
		for i, n := range sizes {
			want = append(want, Event{Kind: EventShuffle, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, Count: n, From: 4 + i, To: -1})
		}
		next := before.Round()
		want = append(want, Event{Kind: EventRound, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: next + 1})
		pile := before.Zone(next).AppendCards(nil)
		for j := range pile {
			want = append(want, Event{Kind: EventMove, Version: v, Seat: NoSeat, Symbol: -1, Card: pile[len(pile)-1-j], Count: 1, From: next, To: first + j})
		}
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events\n %+v\nwant\n %+v", ev, want)
	}
	return nil
}

// sortedCards returns the cards of zone z of s in increasing order.
func sortedCards(s *State, z int) []int {
	c := s.Zone(z).AppendCards(nil)
	slices.Sort(c)
	return c
}

// TestSubwayRescueScenario plays RULES.md §3.7 on a known table of the
// order-2 deck (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6},
// 4 = {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}) with two players. Five cards are
// left after dealing one to each seat, so the piles hold 2, 1, 1 and 1
// cards and the layout has two places. Zones 0 to 3 are the piles, 4 and
// 5 the seats' piles, 6 and 7 the layout.
func TestSubwayRescueScenario(t *testing.T) {
	d := mustDeck(t, 2, 0)
	s, err := New(mustGame(t, "subway-rescue"), d, Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Zones() != 8 {
		t.Fatalf("%d zones, want 4 piles, 2 seat piles, 2 layout places", s.Zones())
	}
	// Seat 0 holds 0 {0,1,3}, seat 1 holds 1 {1,2,4}; pile 0 is laid out:
	// 2 {2,3,5} and 3 {3,4,6}; piles 1, 2 and 3 hold 4, 5 and 6.
	setTable(t, s, nil, []int{4}, []int{5}, []int{6}, []int{0}, []int{1}, []int{2}, []int{3})
	sc := eventScenario{t, s}
	layout := func(z int) Targets { return To(z) }

	// Symbol 3 is on card 2, not on seat 1's card.
	sc.refused(Action{Seat: 1, Symbol: 3, Target: layout(6), At: 100}, ErrNotAMatch)
	// Symbol 2 is on seat 1's card, not on card 3.
	sc.refused(Action{Seat: 1, Symbol: 2, Target: layout(7), At: 1100}, ErrNotAMatch)
	// Only laid-out cards can be taken: not a pile, not a seat's pile.
	r := sc.refused(Action{Seat: 0, Symbol: 1, Target: layout(5), At: 100}, ErrBadTarget)
	if !strings.Contains(r.Error(), "name one of the laid-out cards") {
		t.Fatalf("seat pile as target: %v", r)
	}
	sc.refused(Action{Seat: 0, Symbol: 0, Target: layout(1), At: 1100}, ErrBadTarget)

	// Seat 0 names 3 on card 3 and takes it: its top card is now 3.
	sc.accepted(Action{Seat: 0, Symbol: 3, Target: layout(7), At: 2200}, evClaim(0, 3, layout(7)), evMove(0, 3, 7, 4))
	r = sc.refused(Action{Seat: 1, Symbol: 4, Target: layout(7), Version: 1, At: 2300}, ErrBadTarget)
	if !strings.Contains(r.Error(), "that card has already been taken") {
		t.Fatalf("taken card: %v", r)
	}
	// Seat 0's top card 3 {3,4,6} and card 2 share 3. The layout is then
	// empty: both piles are shuffled and pile 1 is laid out: card 4.
	sc.accepted(Action{Seat: 0, Symbol: 3, Target: layout(6), Version: 1, At: 2400},
		evClaim(0, 3, layout(6)), evMove(0, 2, 6, 4),
		Event{Kind: EventShuffle, Seat: NoSeat, Symbol: -1, Card: -1, Count: 3, From: 4, To: -1},
		Event{Kind: EventShuffle, Seat: NoSeat, Symbol: -1, Card: -1, Count: 1, From: 5, To: -1},
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 2},
		evMove(NoSeat, 4, 1, 6))
	if got := sortedCards(s, 4); s.Round() != 2 || !reflect.DeepEqual(got, []int{0, 2, 3}) {
		t.Fatalf("round %d, seat 0's pile %v: want round 2 and cards 0, 2, 3", s.Round(), got)
	}
	// Rounds 2 to 4: card 4 {0,4,5} to seat 1, then 5 {1,5,6} and
	// 6 {0,2,6} to seat 0; the symbol is the one the seat's top card,
	// whatever the shuffle put there, shares with the laid-out card.
	for k, tc := range []struct{ seat, card int }{{1, 4}, {0, 5}, {0, 6}} {
		round := 2 + k
		top := s.Zone(4 + tc.seat).Top()
		sym := d.Common(top, tc.card)
		held := sortedCards(s, 4+tc.seat)
		v := s.Version()
		ev, err := s.Apply(Action{Seat: tc.seat, Symbol: sym, Target: layout(6), Version: v, At: int64(4000 + 100*k)}, nil)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		want := []Event{evClaim(tc.seat, sym, layout(6)), evMove(tc.seat, tc.card, 6, 4+tc.seat)}
		if round < 4 {
			want = append(want,
				Event{Kind: EventShuffle, Seat: NoSeat, Symbol: -1, Card: -1, Count: s.Zone(4).Len(), From: 4, To: -1},
				Event{Kind: EventShuffle, Seat: NoSeat, Symbol: -1, Card: -1, Count: s.Zone(5).Len(), From: 5, To: -1},
				Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: round + 1},
				evMove(NoSeat, tc.card+1, round, 6))
		} else {
			want = append(want, evOver())
			want[2].Result = ev[len(ev)-1].Result
		}
		for i := range want {
			want[i].Version = v + 1
		}
		if !reflect.DeepEqual(ev, want) {
			t.Fatalf("round %d: events\n %+v\nwant\n %+v", round, ev, want)
		}
		// The shuffle keeps each pile's cards; the card taken joins them.
		if got := sortedCards(s, 4+tc.seat); !reflect.DeepEqual(got, slices.Sorted(slices.Values(append(held, tc.card)))) {
			t.Fatalf("round %d: seat %d holds %v after taking %d onto %v", round, tc.seat, got, tc.card, held)
		}
	}
	want := &Result{Unit: "cards", HigherWins: true, Scores: []int{5, 2}, Winners: []int{0},
		Ranking: []int{0, 1}, Places: []int{1, 2}}
	if !s.Over() || !reflect.DeepEqual(s.Result(), want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), s.Result(), want)
	}
	sc.refused(Action{Seat: 1, Symbol: 0, Target: layout(6), Version: s.Version(), At: 5000}, ErrGameOver)
}

// TestSubwayRescueSplit checks the deal over every deck size and player
// count the property decks allow: one card per seat, four piles whose
// sizes differ by at most one (the larger first) and add up to the rest,
// the first laid out face up in as many places as the largest pile, the
// others hidden in every view.
func TestSubwayRescueSplit(t *testing.T) {
	g := mustGame(t, "subway-rescue")
	for _, td := range testDecks(t) {
		n := td.d.Len()
		for p := 2; p <= 8 && p+4 <= n; p++ {
			s, err := New(g, td.x, Config{Players: p, Seed: uint64(p)})
			if err != nil {
				t.Fatal(err)
			}
			layout := 0
			for z := 4 + p; z < s.Zones(); z++ {
				layout += s.Zone(z).Len()
			}
			sizes := []int{layout, s.Zone(1).Len(), s.Zone(2).Len(), s.Zone(3).Len()}
			if s.Zones()-4-p != layout || s.Zone(0).Len() != 0 {
				t.Fatalf("%s, %d players: %d layout places for %d cards, pile 0 holds %d", td.name, p, s.Zones()-4-p, layout, s.Zone(0).Len())
			}
			if sizes[0]+sizes[1]+sizes[2]+sizes[3] != n-p || sizes[3] < 1 || sizes[0]-sizes[3] > 1 || !slices.IsSortedFunc(sizes, func(a, b int) int { return b - a }) {
				t.Fatalf("%s, %d players: piles %v for %d cards", td.name, p, sizes, n-p)
			}
			for _, seat := range []int{Spectator, 0, p - 1} {
				v := s.View(seat)
				for k := 1; k < 4; k++ {
					if len(v.Zones[k].Cards) != 0 || v.Zones[k].Count != sizes[k] {
						t.Fatalf("seat %d sees pile %d: %+v", seat, k, v.Zones[k])
					}
				}
			}
		}
	}
}

// TestSubwayRescueAlwaysMatches checks the reasoning the game relies on:
// any two cards of a deck share exactly one symbol, so at every moment of
// every game each seat has exactly one claim per laid-out card, whatever
// its top card, and no laid-out card is ever stranded. The order-9 deck,
// with 91 symbols, takes the path for cards wider than one 64-bit word.
func TestSubwayRescueAlwaysMatches(t *testing.T) {
	g := mustGame(t, "subway-rescue")
	r := rand.New(rand.NewPCG(7, 11))
	var moves []Action
	var ev []Event
	games := 0
	d9 := mustDeck(t, 9, 0)
	x9, err := NewIndex(d9)
	if err != nil {
		t.Fatal(err)
	}
	for _, td := range append(testDecks(t), testDeck{"order9/91cards", d9, x9}) {
		for p := 2; p <= 8 && p+4 <= td.d.Len(); p++ {
			for k := 0; k < 5; k++ {
				s, err := New(g, td.x, Config{Players: p, Seed: r.Uint64()})
				if err != nil {
					t.Fatal(err)
				}
				for !s.Over() {
					var laid []int
					for z := 4 + p; z < s.Zones(); z++ {
						if s.Zone(z).Len() > 0 {
							laid = append(laid, z)
						}
					}
					var all []Action
					for seat := 0; seat < p; seat++ {
						moves = s.Moves(seat, moves[:0])
						targets := make([]int, 0, len(moves))
						for _, m := range moves {
							if top := s.Zone(4 + seat).Top(); td.d.Common(top, s.Zone(m.Target.At(0)).Top()) != m.Symbol {
								t.Fatalf("%s: seat %d offered symbol %d for zone %d", td.name, seat, m.Symbol, m.Target.At(0))
							}
							targets = append(targets, m.Target.At(0))
						}
						if !reflect.DeepEqual(targets, laid) {
							t.Fatalf("%s, %d players: seat %d can claim zones %v, cards are laid out in %v", td.name, p, seat, targets, laid)
						}
						all = append(all, moves...)
					}
					if ev, err = s.Apply(all[r.IntN(len(all))], ev[:0]); err != nil {
						t.Fatal(err)
					}
				}
				games++
			}
		}
	}
	if games < 100 {
		t.Fatalf("only %d games", games)
	}
}

// TestSubwayRescueConfig checks that a deck too small for the deal and a
// card source with two cards sharing nothing are refused with a reason.
func TestSubwayRescueConfig(t *testing.T) {
	g := mustGame(t, "subway-rescue")
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{mustDeck(t, 2, 0), Config{Players: 4}, "cards", "7 cards for 4 players; Subway Rescue needs one card per player and at least one for each of the 4 piles (8 or more)"},
		{mustDeck(t, 7, 55), Config{Players: 9}, "players", "9 players; subway-rescue takes 2 to 8"},
		{planePlusSingles{mustDeck(t, 5, 0)}, Config{Players: 4}, "cards", "share no symbol; Subway Rescue needs a deck in which every two cards share one"},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	if _, err := New(g, mustDeck(t, 2, 0), Config{Players: 3}); err != nil {
		t.Errorf("7 cards for 3 players leave one per pile: %v", err)
	}
}

func TestSubwayRescueProperties(t *testing.T) {
	runProperties(t, "subway-rescue", verifySubwayRescue)
}

func FuzzSubwayRescue(f *testing.F) { fuzzGame(f, "subway-rescue", verifySubwayRescue) }

// BenchmarkSubwayRescueGame plays complete 4-player Subway Rescue games on
// the classic 55-card deck with instant perfect play, setup included.
func BenchmarkSubwayRescueGame(b *testing.B) { benchGames(b, "subway-rescue", 4, nil) }
