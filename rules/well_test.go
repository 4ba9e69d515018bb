package rules

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyWell checks an accepted Well claim against RULES.md §3.2 with the
// real deck: the symbol is the one shared by the claimant's top card and the
// centre card; that top card, and only it, goes onto the centre; a seat that
// empties its pile ends the game at once with end=first-empty (winning, the
// others ranked by cards left) and, with end=last-loses, only when one seat
// alone is left holding cards (ranked by the order of emptying).
func verifyWell(before *State, d *deck.Deck, a Action, ev []Event) error {
	p := before.Players()
	own := before.Zone(wellPile(a.Seat)).Top()
	centre := before.Zone(wellCentre).Top()
	if own < 0 || d.Common(own, centre) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of seat %d's top card %d and the centre card %d", a.Symbol, a.Seat, own, centre)
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: own, Count: 1, From: wellPile(a.Seat), To: wellCentre},
	}
	left := make([]int, p)
	emptied := 0
	for i := range left {
		left[i] = before.Zone(wellPile(i)).Len()
		if i == a.Seat {
			left[i]--
		}
		if left[i] == 0 {
			emptied++
		}
	}
	lastLoses := before.Option(wellOptEnd) == wellLastLoses
	over := left[a.Seat] == 0 && (!lastLoses || emptied == p-1)
	if over {
		if len(ev) != 3 || ev[2].Result == nil {
			return fmt.Errorf("the game should be over; events %+v", ev)
		}
		r := ev[2].Result
		if lastLoses {
			places := make([]int, p)
			for i := range places {
				switch {
				case i == a.Seat:
					places[i] = emptied
				case left[i] > 0:
					places[i] = p
				default:
					places[i] = before.Seat(i).Tally
				}
			}
			first := slices.Index(places, 1)
			if r.Unit != "place" || r.HigherWins || !reflect.DeepEqual(r.Scores, places) || !reflect.DeepEqual(r.Winners, []int{first}) {
				return fmt.Errorf("result %+v, want places %v, winner %d", r, places, first)
			}
		} else if r.Unit != "cards" || r.HigherWins || !reflect.DeepEqual(r.Scores, left) || !reflect.DeepEqual(r.Winners, []int{a.Seat}) {
			return fmt.Errorf("result %+v, want cards left %v, winner %d", r, left, a.Seat)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// scenario drives a scenario test: it applies actions to s and checks the
// outcome exactly.
type scenario struct {
	t testing.TB
	s *State
}

// refused applies a, which must be refused with want, and checks that the
// table did not change (bar the lock-out of a wrong claim).
func (sc scenario) refused(a Action, want error) *Refusal {
	sc.t.Helper()
	return mustRefuse(sc.t, sc.s, a, want)
}

// accepted applies a, which must be accepted with exactly the events want
// (their versions are filled in; an over event's result is returned for the
// caller to check).
func (sc scenario) accepted(a Action, want ...Event) *Result {
	sc.t.Helper()
	v := sc.s.Version()
	ev, err := sc.s.Apply(a, nil)
	if err != nil {
		sc.t.Fatalf("%+v refused: %v", a, err)
	}
	var r *Result
	for i := range want {
		want[i].Version = v + 1
		if want[i].Kind == EventOver && i < len(ev) {
			want[i].Result = ev[i].Result
			r = ev[i].Result
		}
	}
	if !reflect.DeepEqual(ev, want) {
		sc.t.Fatalf("%+v: events\n %+v\nwant\n %+v", a, ev, want)
	}
	if err := CheckInvariants(sc.s); err != nil {
		sc.t.Fatalf("after %+v: %v", a, err)
	}
	return r
}

// claimEvent is the EventClaim of seat's claim of sym with targets t.
func claimEvent(seat, sym int, t Targets) Event {
	return Event{Kind: EventClaim, Seat: seat, Symbol: sym, Target: t, Card: -1, From: -1, To: -1}
}

// moveEvent is the EventMove of count cards, card on top, from zone from to
// zone to, for seat.
func moveEvent(seat, card, count, from, to int) Event {
	return Event{Kind: EventMove, Seat: seat, Symbol: -1, Card: card, Count: count, From: from, To: to}
}

// overEvent is an EventOver; accepted fills in its result.
var overEvent = Event{Kind: EventOver, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1}

// TestWellScenario plays RULES.md §3.2 on a known table of the order-2 deck
// (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6}, 4 = {0,4,5},
// 5 = {1,5,6}, 6 = {0,2,6}) with three players, under both end rules: the
// centre shows card 6; seat 0 holds 2 under 0, seat 1 holds 3 under 1, seat
// 2 holds 5 under 4.
func TestWellScenario(t *testing.T) {
	for _, end := range []string{"first-empty", "last-loses"} {
		t.Run(end, func(t *testing.T) {
			s, err := New(mustGame(t, "whoosh"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1, Options: map[string]string{"end": end}})
			if err != nil {
				t.Fatal(err)
			}
			setTable(t, s, []int{6}, []int{2, 0}, []int{3, 1}, []int{5, 4})
			sc := scenario{t, s}
			// "Match your top card with the centre card": seat 1's {1,2,4}
			// and the centre {0,2,6} share 2, not 0.
			r := sc.refused(Action{Seat: 1, Symbol: 0, At: 50}, ErrNotAMatch)
			if r.LockedUntil != 1050 || r.Detail != "" {
				t.Fatalf("wrong claim: %+v", r)
			}
			// A claim names no target.
			sc.refused(Action{Seat: 0, Symbol: 0, Target: To(wellCentre), At: 60}, ErrMalformed)
			// "The first to name it puts their card on the centre: it
			// becomes the new centre card." Seat 0's {0,1,3} shares 0.
			sc.accepted(Action{Seat: 0, Symbol: 0, At: 100},
				claimEvent(0, 0, Targets{}), moveEvent(0, 0, 1, wellPile(0), wellCentre))
			if got := s.Zone(wellCentre).AppendCards(nil); !slices.Equal(got, []int{6, 0}) {
				t.Fatalf("centre %v, want [6 0]", got)
			}
			// Seat 2 also saw 0 on the old centre card: too late.
			sc.refused(Action{Seat: 2, Symbol: 0, At: 110}, ErrTooLate)
			// Seat 2's {0,4,5} and the new centre {0,1,3} share 0.
			sc.accepted(Action{Seat: 2, Symbol: 0, Version: 1, At: 200},
				claimEvent(2, 0, Targets{}), moveEvent(2, 4, 1, wellPile(2), wellCentre))
			if v := s.View(1); v.Zones[wellCentre].Cards[0].Card != 4 || v.Zones[wellPile(2)].Cards[0].Card != 5 || v.Zones[wellPile(2)].Count != 1 {
				t.Fatalf("view after two claims: %+v", v.Zones)
			}
			// Seat 0's last card {2,3,5} and the centre {0,4,5} share 5:
			// seat 0 has got rid of all its cards first.
			if end == "first-empty" {
				res := sc.accepted(Action{Seat: 0, Symbol: 5, Version: 2, At: 300},
					claimEvent(0, 5, Targets{}), moveEvent(0, 2, 1, wellPile(0), wellCentre), overEvent)
				want := &Result{Unit: "cards", HigherWins: false, Scores: []int{0, 2, 1}, Winners: []int{0},
					Ranking: []int{0, 2, 1}, Places: []int{1, 3, 2}}
				if !reflect.DeepEqual(res, want) || !reflect.DeepEqual(s.Result(), want) {
					t.Fatalf("result %+v, want %+v", res, want)
				}
				if !s.Over() || s.Seat(0).Tally != 1 || s.Seat(1).Tally != 0 || s.Seat(2).Tally != 0 {
					t.Fatalf("over %v, tallies %d %d %d", s.Over(), s.Seat(0).Tally, s.Seat(1).Tally, s.Seat(2).Tally)
				}
				sc.refused(Action{Seat: 1, Symbol: 2, Version: 3, At: 400}, ErrGameOver)
				return
			}
			sc.accepted(Action{Seat: 0, Symbol: 5, Version: 2, At: 300},
				claimEvent(0, 5, Targets{}), moveEvent(0, 2, 1, wellPile(0), wellCentre))
			if s.Over() || s.Seat(0).Tally != 1 {
				t.Fatalf("last-loses: over %v after the first empty pile, seat 0 tally %d", s.Over(), s.Seat(0).Tally)
			}
			standing := &Result{Unit: "place", HigherWins: false, Scores: []int{1, 2, 2}, Winners: []int{0},
				Ranking: []int{0, 1, 2}, Places: []int{1, 2, 2}}
			if got := s.Result(); !reflect.DeepEqual(got, standing) {
				t.Fatalf("standing %+v, want %+v", got, standing)
			}
			// Seat 0 is out: it has no card to match.
			r = sc.refused(Action{Seat: 0, Symbol: 2, Version: 3, At: 400}, ErrNotAMatch)
			if !strings.Contains(r.Error(), "you have no cards left to play") {
				t.Fatalf("reason: %v", r)
			}
			if len(s.Moves(0, nil)) != 0 {
				t.Fatal("a seat with no cards has moves")
			}
			// Centre {2,3,5}: seat 2's last card {1,5,6} shares 5. Seat 2
			// empties second; seat 1 is left holding cards and loses.
			res := sc.accepted(Action{Seat: 2, Symbol: 5, Version: 3, At: 500},
				claimEvent(2, 5, Targets{}), moveEvent(2, 5, 1, wellPile(2), wellCentre), overEvent)
			want := &Result{Unit: "place", HigherWins: false, Scores: []int{1, 3, 2}, Winners: []int{0},
				Ranking: []int{0, 2, 1}, Places: []int{1, 3, 2}}
			if !reflect.DeepEqual(res, want) {
				t.Fatalf("result %+v, want %+v", res, want)
			}
			if got := []int{s.Seat(0).Tally, s.Seat(1).Tally, s.Seat(2).Tally}; !slices.Equal(got, []int{1, 0, 2}) {
				t.Fatalf("order of emptying %v, want [1 0 2]", got)
			}
			if s.Zone(wellPile(1)).Len() != 2 {
				t.Fatalf("the loser keeps its cards: %d", s.Zone(wellPile(1)).Len())
			}
		})
	}
}

// TestWellDeal checks the deal: one centre card, the rest one by one from
// first-seat on, so the piles differ by at most one card and the first
// seats dealt to get the extra cards; first-seat rotates the same deal.
func TestWellDeal(t *testing.T) {
	d := mustDeck(t, 7, 55)
	g := mustGame(t, "well")
	piles := func(p int, first string) [][]int {
		t.Helper()
		s, err := New(g, d, Config{Players: p, Seed: 77, Options: map[string]string{"first-seat": first}})
		if err != nil {
			t.Fatal(err)
		}
		if s.Zone(wellCentre).Len() != 1 || s.Zone(wellCentre).Show != ShowTop {
			t.Fatalf("centre: %+v", s.Zone(wellCentre))
		}
		var out [][]int
		for i := 0; i < p; i++ {
			if s.Zone(wellPile(i)).Show != ShowTop {
				t.Fatalf("seat %d's pile is not face up", i)
			}
			out = append(out, s.Zone(wellPile(i)).AppendCards(nil))
		}
		for _, v := range s.View(Spectator).Zones[1:] {
			if len(v.Cards) != 1 {
				t.Fatalf("a pile shows %d cards, want its top card only", len(v.Cards))
			}
		}
		return out
	}
	for _, tc := range []struct {
		p     int
		first int
		sizes []int
	}{
		{4, 0, []int{14, 14, 13, 13}},
		{4, 2, []int{13, 13, 14, 14}},
		{4, 3, []int{14, 13, 13, 14}},
		{5, 1, []int{10, 11, 11, 11, 11}},
		{2, 1, []int{27, 27}},
		{8, 7, []int{7, 7, 7, 7, 7, 6, 6, 7}},
	} {
		base := piles(tc.p, "0")
		got := piles(tc.p, fmt.Sprint(tc.first))
		for i, pile := range got {
			if len(pile) != tc.sizes[i] {
				t.Fatalf("%d players, first seat %d: seat %d holds %d cards, want sizes %v", tc.p, tc.first, i, len(pile), tc.sizes)
			}
			// The same shuffled deck dealt from another seat: seat
			// (first+j) mod p gets what seat j got from seat 0 on.
			if want := base[(i-tc.first+tc.p)%tc.p]; !slices.Equal(pile, want) {
				t.Fatalf("%d players, first seat %d: seat %d holds %v, want %v", tc.p, tc.first, i, pile, want)
			}
		}
	}
}

// TestWellConfig checks that bad player counts, decks and options are
// refused with a reason naming what is accepted.
func TestWellConfig(t *testing.T) {
	g := mustGame(t, "well")
	classic := mustDeck(t, 7, 55)
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{classic, Config{Players: 1}, "players", "1 players; well takes 2 to 8"},
		{mustDeck(t, 2, 0), Config{Players: 7}, "cards", "7 cards for 7 players; the Well needs one card for the centre and at least one per player (8 or more)"},
		{classic, Config{Players: 4, Options: map[string]string{"first-seat": "4"}}, "first-seat", "seat 4 is not at a 4-player table; use a seat from 0 to 3"},
		{classic, Config{Players: 4, Options: map[string]string{"first-seat": "8"}}, "first-seat", `"8" is not a whole number from 0 to 7`},
		{classic, Config{Players: 4, Options: map[string]string{"end": "last"}}, "end", `"last" is not one of first-empty, last-loses`},
		{classic, Config{Players: 4, Options: map[string]string{"rounds": "2"}}, "options", `unknown option "rounds"; well takes end, first-seat`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	if _, err := New(g, mustDeck(t, 2, 0), Config{Players: 6, Options: map[string]string{"first-seat": "5"}}); err != nil {
		t.Errorf("6 players with 7 cards, first seat 5: %v", err)
	}
}

// TestWellPerfectPlay checks the outcome of instant perfect play, where the
// lowest seat with a card always claims first: seat 0 empties its 14 cards
// first; played to the last, seats 1 and 2 follow and seat 3 loses.
func TestWellPerfectPlay(t *testing.T) {
	x, err := NewIndex(mustDeck(t, 7, 55))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		end     string
		claims  int
		scores  []int
		tallies []int
	}{
		{"first-empty", 14, []int{0, 14, 13, 13}, []int{1, 0, 0, 0}},
		{"last-loses", 41, []int{1, 2, 3, 4}, []int{1, 2, 3, 0}},
	} {
		s, err := New(mustGame(t, "well"), x, Config{Players: 4, Seed: 7, Options: map[string]string{"end": tc.end}})
		if err != nil {
			t.Fatal(err)
		}
		claims := playPerfect(s, nil, nil)
		r := s.Result()
		tallies := []int{s.Seat(0).Tally, s.Seat(1).Tally, s.Seat(2).Tally, s.Seat(3).Tally}
		if claims != tc.claims || !slices.Equal(r.Scores, tc.scores) || !slices.Equal(r.Winners, []int{0}) || !slices.Equal(tallies, tc.tallies) {
			t.Fatalf("%s: %d claims, result %+v, tallies %v", tc.end, claims, r, tallies)
		}
	}
}

// TestWellInvariantsCatch checks that the Well's own invariants notice a
// broken table.
func TestWellInvariantsCatch(t *testing.T) {
	s, err := New(mustGame(t, "well"), mustDeck(t, 3, 0), Config{Players: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		edit func(s *State)
		want string
	}{
		"centre empty": {func(s *State) {
			s.zones[1].cards = append(s.zones[1].cards, s.zones[0].cards...)
			s.zones[0].cards = s.zones[0].cards[:0]
		}, "the centre is empty"},
		"empty, not over": {func(s *State) {
			s.zones[2].cards = append(s.zones[2].cards, s.zones[1].cards...)
			s.zones[1].cards = s.zones[1].cards[:0]
			s.seats[0].Tally = 1
		}, "over = false with 1 of 3 piles empty"},
		"tally without emptying": {func(s *State) { s.seats[1].Tally = 1 }, "seat 1 holds 4 cards but emptied its pile in place 1"},
		"empty without tally": {func(s *State) {
			s.zones[2].cards = append(s.zones[2].cards, s.zones[1].cards...)
			s.zones[1].cards = s.zones[1].cards[:0]
		}, "seat 0 emptied its pile but has place 0"},
		"over too soon": {func(s *State) { s.over = true }, "over = true with 0 of 3 piles empty"},
		"hidden pile":   {func(s *State) { s.zones[2].Show = ShowHidden }, "zone 2 is not seat 1's face-up pile"},
	} {
		c := s.Clone()
		tc.edit(c)
		if err := CheckInvariants(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

func TestWellProperties(t *testing.T) {
	runProperties(t, "well", verifyWell)
	runPropertiesOf(t, mustGame(t, "well"), map[string]string{"end": "last-loses", "first-seat": "1"}, verifyWell)
}

func FuzzWell(f *testing.F) { fuzzGame(f, "well", verifyWell) }

func FuzzWellLastLoses(f *testing.F) {
	fuzzGameOf(f, playedWith(mustGame(f, "well"), map[string]string{"end": "last-loses"}), verifyWell)
}

// variantGame is a registered game whose options default to other values,
// so that the fuzz harness, which plays with the defaults, plays a variant.
type variantGame struct {
	Game
	defaults map[string]string
}

// playedWith returns g with the given option defaults. It is a pointer so
// that states can compare their games.
func playedWith(g Game, defaults map[string]string) Game {
	return &variantGame{Game: g, defaults: maps.Clone(defaults)}
}

// Info returns the game's Info with the variant's defaults.
func (v *variantGame) Info() Info {
	info := v.Game.Info()
	info.Options = slices.Clone(info.Options)
	for i := range info.Options {
		if d, ok := v.defaults[info.Options[i].Name]; ok {
			info.Options[i].Default = d
		}
	}
	return info
}

// Invariants checks the game's own invariants.
func (v *variantGame) Invariants(s *State) error {
	if c, ok := v.Game.(Checker); ok {
		return c.Invariants(s)
	}
	return nil
}

// BenchmarkWellGame plays complete 4-player Well games on the classic
// 55-card deck with instant perfect play, setup included, under each end
// rule.
func BenchmarkWellGame(b *testing.B) {
	for _, end := range []string{"first-empty", "last-loses"} {
		b.Run("end="+end, func(b *testing.B) {
			benchGames(b, "well", 4, map[string]string{"end": end})
		})
	}
}

// BenchmarkWellClaimValidation checks claims against a 4-player Well on the
// classic deck through the public Check.
func BenchmarkWellClaimValidation(b *testing.B) { benchClaims(b, "well") }
