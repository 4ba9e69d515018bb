package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyDuel checks an accepted duel claim against RULES.md §2 with the
// real deck: the symbol is the one the two drawn cards share; the claimant
// takes the other card and wins, and the duel is over.
func verifyDuel(before *State, d *deck.Deck, a Action, ev []Event) error {
	mine, theirs := before.Zone(duelPile(a.Seat)).Top(), before.Zone(duelPile(1-a.Seat)).Top()
	if d.Common(mine, theirs) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of cards %v and %v", a.Symbol, d.Card(mine), d.Card(theirs))
	}
	if len(ev) != 3 || ev[2].Result == nil {
		return fmt.Errorf("one claim must end the duel: events %+v", ev)
	}
	scores := []int{0, 0}
	scores[a.Seat] = 2
	r := ev[2].Result
	if r.Unit != "cards" || !r.HigherWins || !reflect.DeepEqual(r.Scores, scores) || !reflect.DeepEqual(r.Winners, []int{a.Seat}) {
		return fmt.Errorf("result %+v, want scores %v and seat %d alone winning", r, scores, a.Seat)
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: theirs, Count: 1, From: duelPile(1 - a.Seat), To: duelPile(a.Seat)},
		{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r},
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// TestDuelScenario plays RULES.md §2's duel on a known table of the order-2
// deck (cards 0 = {0,1,3}, 3 = {3,4,6}): each player draws one card, both
// are revealed at once, the first to name the common symbol wins.
func TestDuelScenario(t *testing.T) {
	s, err := New(mustGame(t, "duel"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{1, 2, 4, 5, 6}, []int{0}, []int{3})
	// Both cards are revealed at once: each seat, and a spectator, sees
	// both, and nobody sees the stock.
	for _, seat := range []int{0, 1, Spectator} {
		v := s.View(seat)
		if v.Zones[1].Cards[0].Card != 0 || v.Zones[2].Cards[0].Card != 3 || v.Zones[0].Count != 5 || len(v.Zones[0].Cards) != 0 {
			t.Fatalf("view of seat %d: %+v", seat, v.Zones)
		}
	}
	// Seat 1 names 4, on its own card only: not a match.
	_, err = s.Apply(Action{Seat: 1, Symbol: 4, At: 300}, nil)
	if !errors.Is(err, ErrNotAMatch) || s.Over() || s.Seat(1).LockedUntil != 1300 {
		t.Fatalf("wrong claim: %v, over %v, seat 1 %+v", err, s.Over(), s.Seat(1))
	}
	// Seat 0 names 3 and wins: one claim ends the duel.
	ev, err := s.Apply(Action{Seat: 0, Symbol: 3, At: 450}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Result{Unit: "cards", HigherWins: true, Scores: []int{2, 0}, Winners: []int{0}, Ranking: []int{0, 1}, Places: []int{1, 2}}
	wantEv := []Event{
		{Kind: EventClaim, Version: 1, Seat: 0, Symbol: 3, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: 1, Seat: 0, Symbol: -1, Card: 3, Count: 1, From: 2, To: 1},
		{Kind: EventOver, Version: 1, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: want},
	}
	if !reflect.DeepEqual(ev, wantEv) || !s.Over() {
		t.Fatalf("events\n %+v\nwant\n %+v", ev, wantEv)
	}
	// Seat 1's lock-out has run out, but the duel is over.
	if _, err := s.Apply(Action{Seat: 1, Symbol: 3, Version: 1, At: 2000}, nil); !errors.Is(err, ErrGameOver) {
		t.Fatalf("claim after the duel: %v", err)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// TestDuelEitherSeat checks that the second seat wins when it is first,
// from a dealt table: the winner is whoever claims first, never a tie.
func TestDuelEitherSeat(t *testing.T) {
	d := mustDeck(t, 7, 55)
	for seed := uint64(0); seed < 20; seed++ {
		s, err := New(mustGame(t, "duel"), d, Config{Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		a, b := s.Zone(duelPile(0)).Top(), s.Zone(duelPile(1)).Top()
		if a == b || s.Zone(duelStock).Len() != 53 {
			t.Fatalf("seed %d: drew %d and %d, stock %d", seed, a, b, s.Zone(duelStock).Len())
		}
		winner := int(seed % 2)
		if _, err := s.Apply(Action{Seat: winner, Symbol: d.Common(a, b)}, nil); err != nil {
			t.Fatal(err)
		}
		if r := s.Result(); !s.Over() || !reflect.DeepEqual(r.Winners, []int{winner}) || r.Scores[winner] != 2 {
			t.Fatalf("seed %d: over %v, result %+v", seed, s.Over(), r)
		}
	}
}

// TestDuelConfig checks that a duel takes exactly two players and two
// cards, refusing anything else with a reason.
func TestDuelConfig(t *testing.T) {
	g := mustGame(t, "duel")
	classic := mustDeck(t, 7, 55)
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{classic, Config{Players: 1}, "players", "1 players; duel takes exactly 2"},
		{classic, Config{Players: 3}, "players", "3 players; duel takes exactly 2"},
		{planePlusSingles{mustDeck(t, 5, 0)}, Config{Players: 2}, "cards", "share no symbol; a duel needs a deck in which every two cards share one"},
		{badCards{1, 3, nil}, Config{Players: 2}, "cards", "1 card; a duel needs at least 2 (one for each player)"},
		{classic, Config{Players: 2, Options: map[string]string{"rounds": "1"}}, "options", `unknown option "rounds"; duel takes no options`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	if _, err := New(g, mustDeck(t, 2, 2), Config{Players: 2}); err != nil {
		t.Errorf("a duel with a 2-card deck: %v", err)
	}
}

func TestDuelProperties(t *testing.T) { runProperties(t, "duel", verifyDuel) }

func FuzzDuel(f *testing.F) { fuzzGame(f, "duel", verifyDuel) }

// BenchmarkDuelGame plays complete duels on the classic 55-card deck with
// instant perfect play, setup included.
func BenchmarkDuelGame(b *testing.B) { benchGames(b, "duel", 2, nil) }
