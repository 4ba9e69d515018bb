package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

func mustDeck(t testing.TB, q, n int) *deck.Deck {
	t.Helper()
	d, err := deck.New(q, n)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustGame(t testing.TB, name string) Game {
	t.Helper()
	g, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// verifyTower checks an accepted Tower claim against RULES.md §3.1 with the
// real deck: the symbol is the one shared by the claimant's top card and the
// centre's top card; the centre card, and only it, moves onto the
// claimant's pile; the game ends, most cards winning, when the centre is
// empty.
func verifyTower(before *State, d *deck.Deck, a Action, ev []Event) error {
	own := before.Zone(towerPile(a.Seat)).Top()
	centre := before.Zone(towerCentre).Top()
	if !d.Has(own, a.Symbol) || !d.Has(centre, a.Symbol) || d.Common(own, centre) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of cards %v and %v", a.Symbol, d.Card(own), d.Card(centre))
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: centre, Count: 1, From: towerCentre, To: towerPile(a.Seat)},
	}
	if before.Zone(towerCentre).Len() == 1 {
		scores := make([]int, before.Players())
		best := 0
		for i := range scores {
			scores[i] = before.Zone(towerPile(i)).Len()
			if i == a.Seat {
				scores[i]++
			}
			best = max(best, scores[i])
		}
		var winners []int
		for i, sc := range scores {
			if sc == best {
				winners = append(winners, i)
			}
		}
		if len(ev) != 3 || ev[2].Result == nil {
			return fmt.Errorf("the centre emptied but the events are %+v", ev)
		}
		r := ev[2].Result
		if r.Unit != "cards" || !r.HigherWins || !reflect.DeepEqual(r.Scores, scores) || !reflect.DeepEqual(r.Winners, winners) {
			return fmt.Errorf("result %+v, want scores %v winners %v", r, scores, winners)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// TestTowerScenario plays RULES.md §3.1 on a known table of the order-2
// deck (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6},
// 4 = {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}) with three players: each holds one
// card, the centre pile holds the rest.
func TestTowerScenario(t *testing.T) {
	d := mustDeck(t, 2, 0)
	s, err := New(mustGame(t, "tower"), d, Config{Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Centre bottom to top 6, 5, 4, 3; seat i holds card i.
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2})

	refused := func(a Action, want error) *Refusal {
		t.Helper()
		return mustRefuse(t, s, a, want)
	}
	accepted := func(a Action, want ...Event) {
		t.Helper()
		v := s.Version()
		ev, err := s.Apply(a, nil)
		if err != nil {
			t.Fatalf("%+v refused: %v", a, err)
		}
		for i := range want {
			want[i].Version = v + 1
		}
		if len(ev) == 3 { // the over event's result is checked separately
			want[2].Result = ev[2].Result
		}
		if !reflect.DeepEqual(ev, want) {
			t.Fatalf("%+v: events\n %+v\nwant\n %+v", a, ev, want)
		}
		if s.Version() != v+1 {
			t.Fatalf("version %d after an accepted claim at %d", s.Version(), v)
		}
	}
	claim := func(seat, sym int) Event {
		return Event{Kind: EventClaim, Seat: seat, Symbol: sym, Card: -1, From: -1, To: -1}
	}
	took := func(seat, card int) Event {
		return Event{Kind: EventMove, Seat: seat, Symbol: -1, Card: card, Count: 1, From: towerCentre, To: towerPile(seat)}
	}

	// Centre top is card 3 = {3,4,6}. Seat 0 names 1, on its own card {0,1,3}
	// but not in the centre: not a match, and locked out for 1000 ms.
	r := refused(Action{Seat: 0, Symbol: 1, At: 100}, ErrNotAMatch)
	if r.LockedUntil != 1100 || s.Seat(0).LockedUntil != 1100 || s.Version() != 0 {
		t.Fatalf("wrong claim: %+v, seat %+v, version %d", r, s.Seat(0), s.Version())
	}
	if !strings.Contains(r.Error(), "not a match: symbol 1 is not on both cards; locked out until 1100 ms") {
		t.Fatalf("reason: %v", r)
	}
	// Seat 0 now has the right symbol (3), but is still locked out.
	r = refused(Action{Seat: 0, Symbol: 3, At: 600}, ErrLockedOut)
	if r.LockedUntil != 1100 || s.Seat(0).LockedUntil != 1100 {
		t.Fatalf("locked-out claim extended the lock-out: %+v", r)
	}
	// Seat 1 = {1,2,4} names 4 first and takes card 3 onto its pile.
	accepted(Action{Seat: 1, Symbol: 4, At: 700}, claim(1, 4), took(1, 3))
	if got := s.Zone(towerPile(1)).AppendCards(nil); !reflect.DeepEqual(got, []int{1, 3}) {
		t.Fatalf("seat 1's pile %v, want [1 3] with 3 on top", got)
	}
	if v := s.View(Spectator); v.Zones[towerCentre].Cards[0].Card != 4 || v.Zones[towerCentre].Count != 3 {
		t.Fatalf("the next centre card should show: %+v", v.Zones[towerCentre])
	}
	// Seat 2 = {2,3,5} named 3, right for the old centre card, but against
	// version 0: too late.
	r = refused(Action{Seat: 2, Symbol: 3, At: 710}, ErrTooLate)
	if r.Current != 1 || r.Version != 0 || s.Seat(2).LockedUntil != 0 {
		t.Fatalf("too late: %+v, seat %+v", r, s.Seat(2))
	}
	refused(Action{Seat: 3, Symbol: 0, Version: 1, At: 720}, ErrNoSeat)
	refused(Action{Seat: -1, Symbol: 0, Version: 1, At: 720}, ErrNoSeat)
	refused(Action{Seat: 0, Symbol: 7, Version: 1, At: 2000}, ErrMalformed)
	refused(Action{Seat: 0, Symbol: 0, Version: 1, At: 2000, Target: To(towerCentre)}, ErrMalformed)
	refused(Action{Kind: ActionDraw, Seat: 0, Version: 1, At: 2000}, ErrMalformed)
	refused(Action{Seat: 0, Symbol: 0, Version: 2, At: 2000}, ErrMalformed)
	refused(Action{Seat: 0, Symbol: 0, Version: 1, At: -1}, ErrMalformed)

	// Centre top is card 4 = {0,4,5}; seat 0 = {0,1,3}; its lock-out ends
	// at 1100, so a claim arriving at 1100 counts.
	accepted(Action{Seat: 0, Symbol: 0, Version: 1, At: 1100}, claim(0, 0), took(0, 4))
	// Centre top is card 5 = {1,5,6}; seat 2 = {2,3,5} names 5.
	accepted(Action{Seat: 2, Symbol: 5, Version: 2, At: 1200}, claim(2, 5), took(2, 5))
	// The last centre card, 6 = {0,2,6}: seat 1's top card is 3 = {3,4,6}.
	over := Event{Kind: EventOver, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1}
	accepted(Action{Seat: 1, Symbol: 6, Version: 3, At: 1300}, claim(1, 6), took(1, 6), over)
	if !s.Over() || s.Version() != 4 {
		t.Fatalf("over %v at version %d, want over at 4", s.Over(), s.Version())
	}
	want := &Result{Unit: "cards", HigherWins: true, Scores: []int{2, 3, 2}, Winners: []int{1},
		Ranking: []int{1, 0, 2}, Places: []int{2, 1, 2}}
	if got := s.Result(); !reflect.DeepEqual(got, want) {
		t.Fatalf("result %+v, want %+v", got, want)
	}
	// Seat 2's top card 5 = {1,5,6} matches nothing any more: the game is over.
	refused(Action{Seat: 2, Symbol: 6, Version: 4, At: 1400}, ErrGameOver)
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// TestTowerTie checks that equal scores give several winners sharing first
// place, left for the session to settle.
func TestTowerTie(t *testing.T) {
	s, err := New(mustGame(t, "tower"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2})
	var ev []Event
	for _, a := range []Action{
		{Seat: 0, Symbol: 3, Version: 0}, // {0,1,3} and centre {3,4,6}
		{Seat: 1, Symbol: 4, Version: 1}, // {1,2,4} and centre {0,4,5}
		{Seat: 0, Symbol: 6, Version: 2}, // {3,4,6} and centre {1,5,6}
		{Seat: 1, Symbol: 0, Version: 3}, // {0,4,5} and centre {0,2,6}
	} {
		if ev, err = s.Apply(a, ev[:0]); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}
	if !s.Over() {
		t.Fatal("the centre is empty but the game is not over")
	}
	want := &Result{Unit: "cards", HigherWins: true, Scores: []int{3, 3, 1}, Winners: []int{0, 1},
		Ranking: []int{0, 1, 2}, Places: []int{1, 1, 3}}
	if r := ev[len(ev)-1].Result; !reflect.DeepEqual(r, want) {
		t.Fatalf("tie: result %+v, want %+v", r, want)
	}
}

// TestTowerSetup checks the deal: one card per seat, the rest in the centre,
// all face up on top only, the same deal for the same seed.
func TestTowerSetup(t *testing.T) {
	d := mustDeck(t, 7, 55)
	g := mustGame(t, "tower")
	deal := func(seed uint64) [][]int {
		s, err := New(g, d, Config{Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if s.Version() != 0 || s.Over() || s.Zones() != 5 {
			t.Fatalf("fresh table: version %d over %v zones %d", s.Version(), s.Over(), s.Zones())
		}
		var out [][]int
		for z := 0; z < s.Zones(); z++ {
			zone := s.Zone(z)
			if zone.Show != ShowTop {
				t.Fatalf("zone %d shows %v, want top", z, zone.Show)
			}
			out = append(out, zone.AppendCards(nil))
		}
		if len(out[0]) != 51 || len(out[1]) != 1 || len(out[4]) != 1 {
			t.Fatalf("deal sizes %d, %d, ... %d", len(out[0]), len(out[1]), len(out[4]))
		}
		return out
	}
	a, b, c := deal(42), deal(42), deal(43)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different deals")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("seeds 42 and 43 dealt the same table")
	}
	if a[1][0] != a[0][0] && reflect.DeepEqual(a[0][:10], []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatal("the centre is not shuffled")
	}
}

// TestTowerGoldenDeal pins the deal of one seed. Records store only the
// seed, so a change to the random source, the shuffle or the deal order
// would make old records replay a different game: this test fails first.
func TestTowerGoldenDeal(t *testing.T) {
	s, err := New(mustGame(t, "tower"), mustDeck(t, 7, 55), Config{Players: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	centre := s.Zone(towerCentre).AppendCards(nil)
	piles := []int{s.Zone(1).Top(), s.Zone(2).Top(), s.Zone(3).Top(), s.Zone(4).Top()}
	if !reflect.DeepEqual(centre[len(centre)-6:], []int{49, 53, 32, 54, 17, 35}) || !reflect.DeepEqual(piles, []int{51, 39, 47, 46}) {
		t.Fatalf("seed 1 deals centre top %v and piles %v; records made before this change no longer replay",
			centre[len(centre)-6:], piles)
	}
}

// TestTowerConfig checks that bad player counts, decks, lock-outs and
// options are refused with a reason naming what is accepted.
func TestTowerConfig(t *testing.T) {
	g := mustGame(t, "tower")
	classic := mustDeck(t, 7, 55)
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{classic, Config{Players: 1}, "players", "1 players; tower takes 2 to 8"},
		{classic, Config{Players: 9}, "players", "9 players; tower takes 2 to 8"},
		{mustDeck(t, 2, 0), Config{Players: 7}, "cards", "7 cards for 7 players; the Tower needs one card per player plus at least one for the centre (8 or more)"},
		{classic, Config{Players: 4, Lockout: -5}, "lockout", "-5 ms; use a positive number"},
		{classic, Config{Players: 4, Options: map[string]string{"rounds": "3"}}, "options", `unknown option "rounds"; tower takes no options`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	if _, err := New(g, mustDeck(t, 2, 0), Config{Players: 6}); err != nil {
		t.Errorf("6 players with 7 cards: %v", err)
	}
}

// TestTowerPerfectPlay checks the outcome of instant perfect play, where
// seat 0 always claims first: it takes every centre card.
func TestTowerPerfectPlay(t *testing.T) {
	x, err := NewIndex(mustDeck(t, 7, 55))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(mustGame(t, "tower"), x, Config{Players: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	claims := playPerfect(s, nil, nil)
	r := s.Result()
	if claims != 51 || !reflect.DeepEqual(r.Scores, []int{52, 1, 1, 1}) || !reflect.DeepEqual(r.Winners, []int{0}) {
		t.Fatalf("%d claims, result %+v", claims, r)
	}
}

func TestTowerProperties(t *testing.T) { runProperties(t, "tower", verifyTower) }

func FuzzTower(f *testing.F) { fuzzGame(f, "tower", verifyTower) }

// playPerfect plays s to the end with instant perfect players: at each step
// the first correct claim of the lowest seat that has one. It returns the
// number of claims made.
func playPerfect(s *State, moves []Action, ev []Event) int {
	claims := 0
	for !s.Over() {
		found := false
		for seat := 0; seat < s.Players() && !found; seat++ {
			moves = s.Moves(seat, moves[:0])
			if len(moves) > 0 {
				var err error
				if ev, err = s.Apply(moves[0], ev[:0]); err != nil {
					panic(err)
				}
				claims++
				found = true
			}
		}
		if !found {
			panic("no seat has a correct claim")
		}
	}
	return claims
}

// BenchmarkTowerGame plays complete 4-player Tower games on the classic
// 55-card deck with instant perfect play, setup included.
func BenchmarkTowerGame(b *testing.B) { benchGames(b, "tower", 4, nil) }

// BenchmarkClaimValidation checks claims against a 4-player Tower on the
// classic deck: correct ones, wrong symbols and stale versions, through the
// public Check.
func BenchmarkClaimValidation(b *testing.B) { benchClaims(b, "tower") }
