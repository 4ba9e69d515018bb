package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyCatchThemAll checks an accepted Catch Them All claim against
// RULES.md §3.6 with the real deck: the target is a card around the centre
// and the symbol the one it shares with the centre card; that card, never
// the centre, goes onto the claimant's won pile; when it was the last one
// around the centre, the centre card goes under the deck and, if the deck
// then holds a centre card and one card per player, the next round is
// dealt from its top (centre first, then the ring in order); otherwise the
// game ends, most cards won winning.
func verifyCatchThemAll(before *State, d *deck.Deck, a Action, ev []Event) error {
	p := before.Players()
	z := a.Target.At(0)
	if z < 2 || z >= 2+p {
		return fmt.Errorf("target %d is not a card around the centre", z)
	}
	card, centre := before.Zone(z).Top(), before.Zone(1).Top()
	if card < 0 || d.Common(card, centre) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of card %d and centre %d", a.Symbol, card, centre)
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: card, Count: 1, From: z, To: 2 + p + a.Seat},
	}
	left := 0
	for i := 0; i < p; i++ {
		if 2+i != z {
			left += before.Zone(2 + i).Len()
		}
	}
	if left == 0 {
		want = append(want, Event{Kind: EventMove, Version: v, Seat: NoSeat, Symbol: -1, Card: centre, Count: 1, From: 1, To: 0, Under: true})
		stock := append([]int{centre}, before.Zone(0).AppendCards(nil)...)
		if len(stock) < p+1 {
			if ev[len(ev)-1].Result == nil {
				return fmt.Errorf("the deck cannot fill a round, but the game goes on: %+v", ev)
			}
			r := ev[len(ev)-1].Result
			scores := make([]int, p)
			for i := range scores {
				scores[i] = before.Zone(2 + p + i).Len()
			}
			scores[a.Seat]++
			if !reflect.DeepEqual(r.Scores, scores) || r.Unit != "cards" || !r.HigherWins {
				return fmt.Errorf("result %+v, want scores %v", r, scores)
			}
			want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
		} else {
			want = append(want, Event{Kind: EventRound, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: before.Round() + 1})
			for k := 0; k <= p; k++ {
				want = append(want, Event{Kind: EventMove, Version: v, Seat: NoSeat, Symbol: -1, Card: stock[len(stock)-1-k], Count: 1, From: 0, To: 1 + k})
			}
		}
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events\n %+v\nwant\n %+v", ev, want)
	}
	return nil
}

// TestCatchThemAllScenario plays RULES.md §3.6 on a known table of the
// order-2 deck (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6},
// 4 = {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}) with two players: zone 0 is the
// deck, zone 1 the centre, zones 2 and 3 the cards around it, zones 4 and
// 5 the seats' won piles.
func TestCatchThemAllScenario(t *testing.T) {
	s, err := New(mustGame(t, "catch-them-all"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Round 1: centre 0 {0,1,3}; around it 1 {1,2,4} and 2 {2,3,5}. The
	// deck deals 3, 4, 5, 6 from the top.
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2}, nil, nil)
	if s.Round() != 1 {
		t.Fatalf("round %d at the start", s.Round())
	}
	sc := eventScenario{t, s}
	ring := func(z int) Targets { return To(z) }

	// Symbol 3 is on the centre and on card 2, not on card 1.
	r := sc.refused(Action{Seat: 0, Symbol: 3, Target: ring(2), At: 100}, ErrNotAMatch)
	if !strings.Contains(r.Error(), "symbol 3 is not on both cards; locked out until 1100 ms") {
		t.Fatalf("wrong claim: %v", r)
	}
	// Symbol 2 is on card 1 but not on the centre.
	sc.refused(Action{Seat: 0, Symbol: 2, Target: ring(2), At: 1100}, ErrNotAMatch)
	// The centre itself is never taken; nor is a won pile a target.
	r = sc.refused(Action{Seat: 1, Symbol: 1, Target: ring(1), At: 100}, ErrBadTarget)
	if !strings.Contains(r.Error(), "name one of the cards around the centre") {
		t.Fatalf("centre as target: %v", r)
	}
	sc.refused(Action{Seat: 1, Symbol: 1, Target: ring(4), At: 1200}, ErrBadTarget)
	sc.refused(Action{Seat: 1, Symbol: 1, At: 2300}, ErrMalformed)

	// Seat 1 names 3 on card 2 and takes it.
	sc.accepted(Action{Seat: 1, Symbol: 3, Target: ring(3), At: 2300}, evClaim(1, 3, ring(3)), evMove(1, 2, 3, 5))
	// Seat 0, its lock-out over at 2100 ms, names 3 on the card just taken.
	r = sc.refused(Action{Seat: 0, Symbol: 3, Target: ring(3), Version: 1, At: 2400}, ErrBadTarget)
	if !strings.Contains(r.Error(), "that card has already been taken") {
		t.Fatalf("taken card: %v", r)
	}
	// Seat 1 names 1 on card 1: the ring is empty, the centre card goes
	// under the deck, round 2 is dealt: centre 3 {3,4,6}, around it
	// 4 {0,4,5} and 5 {1,5,6}.
	sc.accepted(Action{Seat: 1, Symbol: 1, Target: ring(2), Version: 1, At: 2500},
		evClaim(1, 1, ring(2)), evMove(1, 1, 2, 5),
		Event{Kind: EventMove, Seat: NoSeat, Symbol: -1, Card: 0, Count: 1, From: 1, To: 0, Under: true},
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 2},
		evMove(NoSeat, 3, 0, 1), evMove(NoSeat, 4, 0, 2), evMove(NoSeat, 5, 0, 3))
	if got := s.Zone(0).AppendCards(nil); s.Round() != 2 || !reflect.DeepEqual(got, []int{0, 6}) {
		t.Fatalf("round %d, deck %v: want round 2 and the old centre under card 6", s.Round(), got)
	}
	// Seat 0 takes 5 (symbol 6), then 4 (symbol 4). The deck, with card 3
	// under it, holds 3, 0, 6: just enough for round 3: centre 6 {0,2,6},
	// around it 0 {0,1,3} and 3 {3,4,6}.
	sc.accepted(Action{Seat: 0, Symbol: 6, Target: ring(3), Version: 2, At: 3500}, evClaim(0, 6, ring(3)), evMove(0, 5, 3, 4))
	sc.accepted(Action{Seat: 0, Symbol: 4, Target: ring(2), Version: 3, At: 3600},
		evClaim(0, 4, ring(2)), evMove(0, 4, 2, 4),
		Event{Kind: EventMove, Seat: NoSeat, Symbol: -1, Card: 3, Count: 1, From: 1, To: 0, Under: true},
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 3},
		evMove(NoSeat, 6, 0, 1), evMove(NoSeat, 0, 0, 2), evMove(NoSeat, 3, 0, 3))
	// Seat 1 takes both. Card 6 goes under the empty deck, which cannot
	// fill a round of 3 cards: the game is over.
	sc.accepted(Action{Seat: 1, Symbol: 0, Target: ring(2), Version: 4, At: 3700}, evClaim(1, 0, ring(2)), evMove(1, 0, 2, 5))
	ev := sc.accepted(Action{Seat: 1, Symbol: 6, Target: ring(3), Version: 5, At: 3800},
		evClaim(1, 6, ring(3)), evMove(1, 3, 3, 5),
		Event{Kind: EventMove, Seat: NoSeat, Symbol: -1, Card: 6, Count: 1, From: 1, To: 0, Under: true}, evOver())
	want := &Result{Unit: "cards", HigherWins: true, Scores: []int{2, 4}, Winners: []int{1},
		Ranking: []int{1, 0}, Places: []int{2, 1}}
	if !s.Over() || !reflect.DeepEqual(ev[len(ev)-1].Result, want) || !reflect.DeepEqual(s.Result(), want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), s.Result(), want)
	}
	if got := s.Zone(0).AppendCards(nil); !reflect.DeepEqual(got, []int{6}) {
		t.Fatalf("deck %v at the end, want [6]", got)
	}
	sc.refused(Action{Seat: 0, Symbol: 0, Target: ring(2), Version: 6, At: 4000}, ErrGameOver)
}

// TestCatchThemAllLength checks, over decks and player counts, that perfect
// play lasts (cards-1)/players rounds: each round takes one card per
// player from the deck and gives the centre card back, and the game ends
// when fewer than players+1 cards remain. The cards left in the deck are
// the ones no round could use.
func TestCatchThemAllLength(t *testing.T) {
	g := mustGame(t, "catch-them-all")
	for _, td := range testDecks(t) {
		n := td.d.Len()
		for p := 2; p <= 8 && p+1 <= n; p++ {
			s, err := New(g, td.x, Config{Players: p, Seed: uint64(n*10 + p)})
			if err != nil {
				t.Fatal(err)
			}
			claims := playPerfect(s, nil, nil)
			rounds := (n - 1) / p
			won := 0
			for _, sc := range s.Result().Scores {
				won += sc
			}
			if s.Round() != rounds || claims != rounds*p || won != rounds*p || s.Zone(0).Len() != n-rounds*p {
				t.Fatalf("%s, %d players: %d rounds, %d claims, %d won, deck %d; want %d rounds, %d claims, deck %d",
					td.name, p, s.Round(), claims, won, s.Zone(0).Len(), rounds, rounds*p, n-rounds*p)
			}
		}
	}
}

// TestCatchThemAllSetup checks the first round on the classic deck: a
// centre card and four cards around it face up, the other 50 hidden in the
// deck, in every view.
func TestCatchThemAllSetup(t *testing.T) {
	s, err := New(mustGame(t, "catch-them-all"), mustDeck(t, 7, 55), Config{Players: 4, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Zones() != 10 || s.Zone(0).Len() != 50 || s.Zone(1).Len() != 1 || s.Round() != 1 {
		t.Fatalf("%d zones, deck %d, centre %d, round %d", s.Zones(), s.Zone(0).Len(), s.Zone(1).Len(), s.Round())
	}
	for _, seat := range []int{Spectator, 0, 3} {
		v := s.View(seat)
		if len(v.Zones[0].Cards) != 0 || v.Zones[0].Count != 50 {
			t.Fatalf("seat %d sees the deck: %+v", seat, v.Zones[0])
		}
		for z := 1; z < 6; z++ {
			if len(v.Zones[z].Cards) != 1 || v.Zones[z].Cards[0].Card != s.Zone(z).Top() {
				t.Fatalf("seat %d: zone %d not face up: %+v", seat, z, v.Zones[z])
			}
		}
	}
	if got := len(s.Moves(2, nil)); got != 4 {
		t.Fatalf("%d claims at the start, want one per card around the centre", got)
	}
}

// TestCatchThemAllConfig checks that a deck too small for a round and a
// card source with two cards sharing nothing are refused with a reason.
func TestCatchThemAllConfig(t *testing.T) {
	g := mustGame(t, "catch-them-all")
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{mustDeck(t, 2, 0), Config{Players: 7}, "cards", "7 cards for 7 players; a round of Catch Them All needs a centre card and one card per player (8 or more)"},
		{mustDeck(t, 7, 55), Config{Players: 1}, "players", "1 players; catch-them-all takes 2 to 8"},
		{planePlusSingles{mustDeck(t, 5, 0)}, Config{Players: 4}, "cards", "share no symbol; Catch Them All needs a deck in which every two cards share one"},
		{mustDeck(t, 7, 55), Config{Players: 4, Options: map[string]string{"rounds": "5"}}, "options", `unknown option "rounds"; catch-them-all takes no options`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	if _, err := New(g, mustDeck(t, 2, 0), Config{Players: 6}); err != nil {
		t.Errorf("7 cards for 6 players make one round: %v", err)
	}
}

func TestCatchThemAllProperties(t *testing.T) {
	runProperties(t, "catch-them-all", verifyCatchThemAll)
}

func FuzzCatchThemAll(f *testing.F) { fuzzGame(f, "catch-them-all", verifyCatchThemAll) }

// BenchmarkCatchThemAllGame plays complete 4-player Catch Them All games on
// the classic 55-card deck with instant perfect play, setup included.
func BenchmarkCatchThemAllGame(b *testing.B) { benchGames(b, "catch-them-all", 4, nil) }
