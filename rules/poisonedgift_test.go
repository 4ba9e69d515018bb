package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyPoisonedGift checks an accepted Poisoned Gift claim against RULES.md
// §3.4 with the real deck: the target is another seat's pile; the symbol is
// the one shared by the centre card and that pile's top card; the centre
// card, and only it, goes onto that pile; the game ends, fewest cards
// winning, when the centre is empty.
func verifyPoisonedGift(before *State, d *deck.Deck, a Action, ev []Event) error {
	p := before.Players()
	z := a.Target.At(0)
	if z < 1 || z > p || z == 1+a.Seat {
		return fmt.Errorf("seat %d's gift went to zone %d, which is not another seat's pile", a.Seat, z)
	}
	centre := before.Zone(giftCentre).Top()
	theirs := before.Zone(z).Top()
	if d.Common(centre, theirs) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of the centre card %v and seat %d's top card %v", a.Symbol, d.Card(centre), z-1, d.Card(theirs))
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: centre, Count: 1, From: giftCentre, To: z},
	}
	if before.Zone(giftCentre).Len() == 1 {
		scores := make([]int, p)
		fewest := d.Len()
		for i := range scores {
			scores[i] = before.Zone(1 + i).Len()
			if 1+i == z {
				scores[i]++
			}
			fewest = min(fewest, scores[i])
		}
		var winners []int
		for i, sc := range scores {
			if sc == fewest {
				winners = append(winners, i)
			}
		}
		if len(ev) != 3 || ev[2].Result == nil {
			return fmt.Errorf("the centre emptied but the events are %+v", ev)
		}
		r := ev[2].Result
		if r.Unit != "cards" || r.HigherWins || !reflect.DeepEqual(r.Scores, scores) || !reflect.DeepEqual(r.Winners, winners) {
			return fmt.Errorf("result %+v, want scores %v winners %v", r, scores, winners)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// TestPoisonedGiftScenario plays RULES.md §3.4 on a known table of the
// order-2 deck (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6},
// 4 = {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}) with three players: seat i holds
// card i, the centre pile holds 6, 5, 4 and 3 on top.
func TestPoisonedGiftScenario(t *testing.T) {
	s, err := New(mustGame(t, "symbiont"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2})
	sc := scenario{t, s}
	gift := func(seat, card, to int) Event { return moveEvent(seat, card, 1, giftCentre, giftPile(to)) }

	// The centre card 3 = {3,4,6} and seat 0's own card {0,1,3} share 3,
	// but the gift must go to another player: refused, and locked out.
	r := sc.refused(Action{Seat: 0, Symbol: 3, Target: To(giftPile(0)), At: 100}, ErrBadTarget)
	if r.LockedUntil != 1100 || s.Seat(0).LockedUntil != 1100 ||
		!strings.Contains(r.Error(), "target not allowed: that is your own pile; the gift goes to another player; locked out until 1100 ms") {
		t.Fatalf("own pile: %v (%+v)", r, r)
	}
	r = sc.refused(Action{Seat: 1, Symbol: 3, Target: To(giftCentre), At: 100}, ErrBadTarget)
	if !strings.Contains(r.Error(), "name another player's pile, not the centre") {
		t.Fatalf("centre as target: %v", r)
	}
	// A claim must name its one target.
	sc.refused(Action{Seat: 2, Symbol: 3, At: 100}, ErrMalformed)
	sc.refused(Action{Seat: 2, Symbol: 3, Target: To(giftPile(0), giftPile(1)), At: 100}, ErrMalformed)
	// Seat 2 names 4, which the centre card shares with seat 1's card
	// {1,2,4}, but gives to seat 0, whose {0,1,3} lacks it.
	sc.refused(Action{Seat: 2, Symbol: 4, Target: To(giftPile(0)), At: 150}, ErrNotAMatch)
	// "Match the centre card with another player's top card; put the
	// centre card on that player's pile." Seat 2's lock-out ran out at 1150.
	sc.accepted(Action{Seat: 2, Symbol: 3, Target: To(giftPile(0)), At: 1150},
		claimEvent(2, 3, To(giftPile(0))), gift(2, 3, 0))
	if got := s.Zone(giftPile(0)).AppendCards(nil); !reflect.DeepEqual(got, []int{0, 3}) {
		t.Fatalf("seat 0's pile %v, want [0 3]", got)
	}
	// Seat 1 saw 4 on the old centre card and seat 0's old top card: too
	// late, whatever it named.
	sc.refused(Action{Seat: 1, Symbol: 3, Target: To(giftPile(0)), At: 1160}, ErrTooLate)
	// "Next centre card shows": 4 = {0,4,5}. Seat 0, free again, gives it
	// to seat 2 ({2,3,5}) with 5.
	if v := s.View(0); v.Zones[giftCentre].Cards[0].Card != 4 || v.Zones[giftPile(0)].Cards[0].Card != 3 {
		t.Fatalf("view: %+v", v.Zones)
	}
	sc.accepted(Action{Seat: 0, Symbol: 5, Target: To(giftPile(2)), Version: 1, At: 1200},
		claimEvent(0, 5, To(giftPile(2))), gift(0, 4, 2))
	// Centre 5 = {1,5,6}; seat 0 shows 3 = {3,4,6}: seat 1 gives it with 6.
	sc.accepted(Action{Seat: 1, Symbol: 6, Target: To(giftPile(0)), Version: 2, At: 1300},
		claimEvent(1, 6, To(giftPile(0))), gift(1, 5, 0))
	// The last centre card 6 = {0,2,6}; seat 0 shows 5 = {1,5,6}.
	res := sc.accepted(Action{Seat: 1, Symbol: 6, Target: To(giftPile(0)), Version: 3, At: 1400},
		claimEvent(1, 6, To(giftPile(0))), gift(1, 6, 0), overEvent)
	want := &Result{Unit: "cards", HigherWins: false, Scores: []int{4, 1, 2}, Winners: []int{1},
		Ranking: []int{1, 2, 0}, Places: []int{3, 1, 2}}
	if !s.Over() || !reflect.DeepEqual(res, want) || !reflect.DeepEqual(s.Result(), want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), res, want)
	}
	sc.refused(Action{Seat: 2, Symbol: 0, Target: To(giftPile(0)), Version: 4, At: 1500}, ErrGameOver)
}

// TestPoisonedGiftTie checks that equal fewest scores give several winners.
func TestPoisonedGiftTie(t *testing.T) {
	s, err := New(mustGame(t, "poisoned-gift"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2})
	var ev []Event
	for _, a := range []Action{
		{Seat: 2, Symbol: 3, Target: To(giftPile(0)), Version: 0}, // centre {3,4,6}, seat 0 {0,1,3}
		{Seat: 0, Symbol: 5, Target: To(giftPile(2)), Version: 1}, // centre {0,4,5}, seat 2 {2,3,5}
		{Seat: 0, Symbol: 1, Target: To(giftPile(1)), Version: 2}, // centre {1,5,6}, seat 1 {1,2,4}
		{Seat: 1, Symbol: 0, Target: To(giftPile(2)), Version: 3}, // centre {0,2,6}, seat 2 {0,4,5}
	} {
		if ev, err = s.Apply(a, ev[:0]); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}
	want := &Result{Unit: "cards", HigherWins: false, Scores: []int{2, 2, 3}, Winners: []int{0, 1},
		Ranking: []int{0, 1, 2}, Places: []int{1, 1, 3}}
	if r := ev[len(ev)-1].Result; !s.Over() || !reflect.DeepEqual(r, want) {
		t.Fatalf("tie: over %v, result %+v, want %+v", s.Over(), r, want)
	}
}

// TestPoisonedGiftSetup checks the deal: one face-up card per seat, the
// rest face up in the centre, nothing under a top card shown.
func TestPoisonedGiftSetup(t *testing.T) {
	s, err := New(mustGame(t, "poisoned-gift"), mustDeck(t, 7, 55), Config{Players: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.Zones() != 6 || s.Zone(giftCentre).Len() != 50 {
		t.Fatalf("%d zones, centre %d cards", s.Zones(), s.Zone(giftCentre).Len())
	}
	for seat := -1; seat < 5; seat++ {
		v := s.View(seat)
		for z, zv := range v.Zones {
			if len(zv.Cards) != 1 || zv.Cards[0].Card != s.Zone(z).Top() {
				t.Fatalf("seat %d sees %+v of zone %d, want its top card", seat, zv.Cards, z)
			}
		}
	}
	// Every move targets another seat.
	for seat := 0; seat < 5; seat++ {
		for _, m := range s.Moves(seat, nil) {
			if m.Target.At(0) == giftPile(seat) || m.Target.At(0) == giftCentre {
				t.Fatalf("seat %d may give to zone %d", seat, m.Target.At(0))
			}
		}
	}
}

// TestPoisonedGiftConfig checks that bad player counts, decks and options
// are refused with a reason naming what is accepted.
func TestPoisonedGiftConfig(t *testing.T) {
	g := mustGame(t, "poisoned-gift")
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{mustDeck(t, 7, 55), Config{Players: 9}, "players", "9 players; poisoned-gift takes 2 to 8"},
		{mustDeck(t, 2, 0), Config{Players: 7}, "cards", "7 cards for 7 players; the Poisoned Gift needs one card per player plus at least one for the centre (8 or more)"},
		{mustDeck(t, 7, 55), Config{Players: 3, Options: map[string]string{"end": "x"}}, "options", `unknown option "end"; poisoned-gift takes no options`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
}

// TestPoisonedGiftPerfectPlay checks instant perfect play, where seat 0
// always claims first and gives to the lowest other seat: seat 1 receives
// every centre card.
func TestPoisonedGiftPerfectPlay(t *testing.T) {
	s, err := New(mustGame(t, "poisoned-gift"), mustDeck(t, 7, 55), Config{Players: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	claims := playPerfect(s, nil, nil)
	r := s.Result()
	if claims != 51 || !reflect.DeepEqual(r.Scores, []int{1, 52, 1, 1}) || !reflect.DeepEqual(r.Winners, []int{0, 2, 3}) {
		t.Fatalf("%d claims, result %+v", claims, r)
	}
}

// TestPoisonedGiftInvariantsCatch checks that the game's own invariants
// notice a broken table.
func TestPoisonedGiftInvariantsCatch(t *testing.T) {
	s, err := New(mustGame(t, "poisoned-gift"), mustDeck(t, 3, 0), Config{Players: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		edit func(s *State)
		want string
	}{
		"empty pile": {func(s *State) {
			s.zones[0].cards = append(s.zones[0].cards, s.zones[2].cards...)
			s.zones[2].cards = s.zones[2].cards[:0]
		}, "seat 1 has no card"},
		"over early":  {func(s *State) { s.over = true }, "over = true with 10 cards in the centre"},
		"hidden pile": {func(s *State) { s.zones[3].Show = ShowOwnerTop }, "zone 3 is not seat 2's face-up pile"},
	} {
		c := s.Clone()
		tc.edit(c)
		if err := CheckInvariants(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

func TestPoisonedGiftProperties(t *testing.T) {
	runProperties(t, "poisoned-gift", verifyPoisonedGift)
}

func FuzzPoisonedGift(f *testing.F) { fuzzGame(f, "poisoned-gift", verifyPoisonedGift) }

// BenchmarkPoisonedGiftGame plays complete 4-player Poisoned Gift games on
// the classic 55-card deck with instant perfect play, setup included.
func BenchmarkPoisonedGiftGame(b *testing.B) { benchGames(b, "poisoned-gift", 4, nil) }

// BenchmarkPoisonedGiftClaimValidation checks claims against a 4-player
// Poisoned Gift on the classic deck through the public Check.
func BenchmarkPoisonedGiftClaimValidation(b *testing.B) { benchClaims(b, "poisoned-gift") }
