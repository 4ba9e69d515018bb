package rules

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyHotPotato checks an accepted Hot Potato claim against RULES.md §3.3
// with the real deck, deriving every event from the table before it: the
// target is another seat's non-empty pile; the symbol is the one shared by
// the two top cards; the claimant's whole pile goes onto the target. When
// one seat then holds all the round's cards it loses the round: its cards
// go to its penalty pile (in a series, to its out zone, and when one seat
// is left in the series every out zone goes to its penalty pile); then
// either the game ends, fewest penalty cards winning, or the next round is
// dealt from the cards aside, one card to each seat playing it, in seat
// order.
func verifyHotPotato(before *State, d *deck.Deck, a Action, ev []Event) error {
	p := before.Players()
	series := before.Option(potatoOptScoring) == potatoSeries
	z := a.Target.At(0)
	if z < 1 || z > p || z == 1+a.Seat {
		return fmt.Errorf("seat %d gave to zone %d, which is not another seat's pile", a.Seat, z)
	}
	mine, theirs := before.Zone(1+a.Seat), before.Zone(z)
	if mine.Len() == 0 || theirs.Len() == 0 || d.Common(mine.Top(), theirs.Top()) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of top cards %d and %d", a.Symbol, mine.Top(), theirs.Top())
	}
	v := ev[0].Version
	mv := func(seat, card, count, from, to int) Event {
		return Event{Kind: EventMove, Version: v, Seat: seat, Symbol: -1, Card: card, Count: count, From: from, To: to}
	}
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1},
		mv(a.Seat, mine.Top(), mine.Len(), 1+a.Seat, z),
	}
	inPlay, holding := 0, 0
	for i := 0; i < p; i++ {
		if n := before.Zone(1 + i).Len(); n > 0 {
			inPlay += n
			holding++
		}
	}
	if holding == 2 { // the round is over
		loser := z - 1
		penalty := make([]int, p)
		outAfter := make([]int, p) // cards in each out zone after the loss
		in := 0
		for i := range penalty {
			penalty[i] = before.Zone(1 + p + i).Len()
			if series {
				outAfter[i] = before.Zone(1 + 2*p + i).Len()
			}
		}
		if series {
			outAfter[loser] = inPlay
			want = append(want, mv(loser, mine.Top(), inPlay, z, 1+2*p+loser))
			for i := range outAfter {
				if outAfter[i] == 0 {
					in++
				}
			}
			if in == 1 {
				for i := range outAfter {
					if outAfter[i] > 0 {
						top := before.Zone(1 + 2*p + i).Top()
						if i == loser {
							top = mine.Top()
						}
						want = append(want, mv(i, top, outAfter[i], 1+2*p+i, 1+p+i))
					}
				}
			}
		} else {
			want = append(want, mv(loser, mine.Top(), inPlay, z, 1+p+loser))
			penalty[loser] += inPlay
		}
		aside := before.Zone(potatoAside)
		over := before.Round() == before.Option(potatoOptRounds)
		if before.Option(potatoOptEnd) == potatoEndDeck {
			// The game goes on while the cards aside can deal the next
			// round: to every seat, or to the seats still in a series.
			next := p
			if series && in > 1 {
				next = in
			}
			over = aside.Len() < next
		}
		if over {
			scores := make([]int, p)
			for i := range scores {
				scores[i] = penalty[i] + outAfter[i]
			}
			r := ev[len(ev)-1].Result
			if r == nil || r.Unit != "cards" || r.HigherWins || !reflect.DeepEqual(r.Scores, scores) {
				return fmt.Errorf("result %+v, want penalty cards %v", r, scores)
			}
			want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
		} else {
			want = append(want, Event{Kind: EventRound, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: before.Round() + 1})
			cards := aside.AppendCards(nil)
			for i := 0; i < p; i++ {
				if !series || in == 1 || outAfter[i] == 0 {
					want = append(want, mv(i, cards[len(cards)-1], 1, potatoAside, 1+i))
					cards = cards[:len(cards)-1]
				}
			}
		}
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events\n %+v\nwant\n %+v", ev, want)
	}
	return nil
}

// TestHotPotatoScenario plays RULES.md §3.3 on a known table of the order-2
// deck (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6},
// 4 = {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}) with three players and two
// rounds: seat i holds card i; aside, 6, 5, 4 and 3 on top.
func TestHotPotatoScenario(t *testing.T) {
	s, err := New(mustGame(t, "pumpkin-bomb"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1, Options: map[string]string{"rounds": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Zones() != 7 || s.Round() != 1 {
		t.Fatalf("%d zones in round %d", s.Zones(), s.Round())
	}
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2}, nil, nil, nil)
	sc := scenario{t, s}
	const lost0, lost1, lost2 = 4, 5, 6

	// "Match your top card with another player's top card": not your own,
	// not the cards aside, not a penalty pile.
	r := sc.refused(Action{Seat: 0, Symbol: 1, Target: To(potatoPile(0)), At: 10}, ErrBadTarget)
	if !strings.Contains(r.Error(), "that is your own pile; give your cards to another player") {
		t.Fatalf("own pile: %v", r)
	}
	for seat, z := range map[int]int{1: potatoAside, 2: lost0} {
		r = sc.refused(Action{Seat: seat, Symbol: 1, Target: To(z), At: 10}, ErrBadTarget)
		if !strings.Contains(r.Error(), "name another player's pile") {
			t.Fatalf("zone %d: %v", z, r)
		}
	}
	// Seat 2's {2,3,5} and seat 1's {1,2,4} share 2, not 3.
	sc.refused(Action{Seat: 2, Symbol: 3, Target: To(potatoPile(1)), At: 1010}, ErrNotAMatch)
	// Seat 1 names 2 first and gives its card to seat 2, whose top card
	// becomes {1,2,4}.
	sc.accepted(Action{Seat: 1, Symbol: 2, Target: To(potatoPile(2)), At: 1100},
		claimEvent(1, 2, To(potatoPile(2))), moveEvent(1, 1, 1, potatoPile(1), potatoPile(2)))
	// Seat 1 holds nothing now: it cannot give, nor be given to.
	r = sc.refused(Action{Seat: 1, Symbol: 1, Target: To(potatoPile(0)), Version: 1, At: 1200}, ErrNotAMatch)
	if !strings.Contains(r.Error(), "you hold no card") {
		t.Fatalf("empty-handed claim: %v", r)
	}
	r = sc.refused(Action{Seat: 0, Symbol: 1, Target: To(potatoPile(1)), Version: 1, At: 1200}, ErrBadTarget)
	if !strings.Contains(r.Error(), "that player holds no card") {
		t.Fatalf("empty target: %v", r)
	}
	if len(s.Moves(1, nil)) != 0 {
		t.Fatal("a seat with no card has moves")
	}
	// Seat 2 gives all its cards, {1,2,4} on top, to seat 0 ({0,1,3}) with
	// 1. Seat 0 holds all three: it loses the round and keeps them; round
	// 2 deals 3, 4 and 5 from the cards aside.
	sc.accepted(Action{Seat: 2, Symbol: 1, Target: To(potatoPile(0)), Version: 1, At: 2100},
		claimEvent(2, 1, To(potatoPile(0))), moveEvent(2, 1, 2, potatoPile(2), potatoPile(0)),
		moveEvent(0, 1, 3, potatoPile(0), lost0),
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 2},
		moveEvent(0, 3, 1, potatoAside, potatoPile(0)),
		moveEvent(1, 4, 1, potatoAside, potatoPile(1)),
		moveEvent(2, 5, 1, potatoAside, potatoPile(2)))
	if got := s.Zone(lost0).AppendCards(nil); !slices.Equal(got, []int{0, 2, 1}) || s.Seat(0).Tally != 1 || s.Round() != 2 {
		t.Fatalf("seat 0 keeps %v, tally %d, round %d", got, s.Seat(0).Tally, s.Round())
	}
	for seat := -1; seat < 3; seat++ {
		v := s.View(seat)
		if v.Round != 2 || len(v.Zones[potatoAside].Cards) != 0 || v.Zones[potatoAside].Count != 1 ||
			len(v.Zones[lost0].Cards) != 0 || v.Zones[lost0].Count != 3 || v.Seats[0].Tally != 1 {
			t.Fatalf("seat %d's view shows hidden cards or wrong counts: %+v", seat, v)
		}
	}
	standing := &Result{Unit: "cards", HigherWins: false, Scores: []int{3, 0, 0}, Winners: []int{1, 2},
		Ranking: []int{1, 2, 0}, Places: []int{3, 1, 1}}
	if got := s.Result(); !reflect.DeepEqual(got, standing) {
		t.Fatalf("standing %+v, want %+v", got, standing)
	}
	// Round 2: seat 0 {3,4,6}, seat 1 {0,4,5}, seat 2 {1,5,6}.
	sc.accepted(Action{Seat: 0, Symbol: 4, Target: To(potatoPile(1)), Version: 2, At: 2300},
		claimEvent(0, 4, To(potatoPile(1))), moveEvent(0, 3, 1, potatoPile(0), potatoPile(1)))
	// Seat 2 gives its card to seat 1, now showing {3,4,6}: seat 1 holds
	// the round's three cards and loses the last round.
	res := sc.accepted(Action{Seat: 2, Symbol: 6, Target: To(potatoPile(1)), Version: 3, At: 2400},
		claimEvent(2, 6, To(potatoPile(1))), moveEvent(2, 5, 1, potatoPile(2), potatoPile(1)),
		moveEvent(1, 5, 3, potatoPile(1), lost1), overEvent)
	want := &Result{Unit: "cards", HigherWins: false, Scores: []int{3, 3, 0}, Winners: []int{2},
		Ranking: []int{2, 0, 1}, Places: []int{2, 2, 1}}
	if !s.Over() || !reflect.DeepEqual(res, want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), res, want)
	}
	if got := []int{s.Seat(0).Tally, s.Seat(1).Tally, s.Seat(2).Tally}; !slices.Equal(got, []int{1, 1, 0}) {
		t.Fatalf("rounds lost %v", got)
	}
	if s.Zone(lost2).Len() != 0 || s.Zone(potatoAside).Len() != 1 {
		t.Fatal("the cards left aside should stay aside")
	}
}

// TestHotPotatoSeriesScenario plays the `002` new scoring on the same
// table, to the end of the deck: round 1's loser drops out, round 2 is
// dealt to the two seats left, and when one seat is left the series is over;
// the two cards aside cannot deal the first round of another series (3
// cards).
func TestHotPotatoSeriesScenario(t *testing.T) {
	s, err := New(mustGame(t, "hot-potato"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1,
		Options: map[string]string{"scoring": "series", "end": "deck"}})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{6, 5, 4, 3}, []int{0}, []int{1}, []int{2}, nil, nil, nil, nil, nil, nil)
	sc := scenario{t, s}
	const lost0, lost2, out0, out2 = 4, 6, 7, 9

	sc.accepted(Action{Seat: 1, Symbol: 2, Target: To(potatoPile(2)), At: 100},
		claimEvent(1, 2, To(potatoPile(2))), moveEvent(1, 1, 1, potatoPile(1), potatoPile(2)))
	// Seat 0 is left holding the three cards: it drops out of the series.
	// Only seats 1 and 2 are dealt round 2.
	sc.accepted(Action{Seat: 2, Symbol: 1, Target: To(potatoPile(0)), Version: 1, At: 200},
		claimEvent(2, 1, To(potatoPile(0))), moveEvent(2, 1, 2, potatoPile(2), potatoPile(0)),
		moveEvent(0, 1, 3, potatoPile(0), out0),
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 2},
		moveEvent(1, 3, 1, potatoAside, potatoPile(1)),
		moveEvent(2, 4, 1, potatoAside, potatoPile(2)))
	// Round 2: seat 1 {3,4,6}, seat 2 {0,4,5}. Seat 0 is out.
	r := sc.refused(Action{Seat: 0, Symbol: 4, Target: To(potatoPile(1)), Version: 2, At: 300}, ErrNotAMatch)
	if !strings.Contains(r.Error(), "you are out of this series") {
		t.Fatalf("claim by a seat out of the series: %v", r)
	}
	r = sc.refused(Action{Seat: 1, Symbol: 3, Target: To(potatoPile(0)), Version: 2, At: 300}, ErrBadTarget)
	if !strings.Contains(r.Error(), "that player is out of this series") {
		t.Fatalf("claim on a seat out of the series: %v", r)
	}
	standing := &Result{Unit: "cards", HigherWins: false, Scores: []int{3, 0, 0}, Winners: []int{1, 2},
		Ranking: []int{1, 2, 0}, Places: []int{3, 1, 1}}
	if got := s.Result(); !reflect.DeepEqual(got, standing) {
		t.Fatalf("standing %+v, want %+v", got, standing)
	}
	// Seat 2 is left holding both cards: it drops out, seat 1 is the last
	// one in. The series is over: the penalties are recorded, and two
	// cards aside cannot deal another series.
	res := sc.accepted(Action{Seat: 1, Symbol: 4, Target: To(potatoPile(2)), Version: 2, At: 1400},
		claimEvent(1, 4, To(potatoPile(2))), moveEvent(1, 3, 1, potatoPile(1), potatoPile(2)),
		moveEvent(2, 3, 2, potatoPile(2), out2),
		moveEvent(0, 1, 3, out0, lost0),
		moveEvent(2, 3, 2, out2, lost2),
		overEvent)
	want := &Result{Unit: "cards", HigherWins: false, Scores: []int{3, 0, 2}, Winners: []int{1},
		Ranking: []int{1, 2, 0}, Places: []int{3, 1, 2}}
	if !s.Over() || !reflect.DeepEqual(res, want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), res, want)
	}
	if got := []int{s.Seat(0).Tally, s.Seat(1).Tally, s.Seat(2).Tally}; !slices.Equal(got, []int{1, 0, 1}) || s.Zone(potatoAside).Len() != 2 {
		t.Fatalf("rounds lost %v, %d cards aside", got, s.Zone(potatoAside).Len())
	}
}

// TestHotPotatoPerfectPlay checks instant perfect play on the classic deck
// with four players, where the lowest seat with a claim always gives to the
// lowest other seat holding a card: each round the cards pass 0 → 1 → 2 →
// 3 and seat 3 (in a series, the highest seat still in) loses.
func TestHotPotatoPerfectPlay(t *testing.T) {
	x, err := NewIndex(mustDeck(t, 7, 55))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts    map[string]string
		claims  int
		rounds  int
		scores  []int
		tallies []int
		aside   int
	}{
		{nil, 15, 5, []int{0, 0, 0, 20}, []int{0, 0, 0, 5}, 35},
		{map[string]string{"rounds": "1"}, 3, 1, []int{0, 0, 0, 4}, []int{0, 0, 0, 1}, 51},
		{map[string]string{"end": "deck"}, 39, 13, []int{0, 0, 0, 52}, []int{0, 0, 0, 13}, 3},
		{map[string]string{"scoring": "series", "end": "deck"}, 36, 18, []int{0, 12, 18, 24}, []int{0, 6, 6, 6}, 1},
		{map[string]string{"scoring": "series", "rounds": "4"}, 9, 4, []int{0, 2, 3, 8}, []int{0, 1, 1, 2}, 42},
	} {
		s, err := New(mustGame(t, "hot-potato"), x, Config{Players: 4, Seed: 7, Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		claims := playPerfect(s, nil, nil)
		r := s.Result()
		tallies := []int{s.Seat(0).Tally, s.Seat(1).Tally, s.Seat(2).Tally, s.Seat(3).Tally}
		if claims != tc.claims || s.Round() != tc.rounds || !slices.Equal(r.Scores, tc.scores) ||
			!slices.Equal(tallies, tc.tallies) || s.Zone(potatoAside).Len() != tc.aside {
			t.Errorf("%v: %d claims, round %d, result %+v, tallies %v, %d aside", tc.opts, claims, s.Round(), r, tallies, s.Zone(potatoAside).Len())
		}
	}
}

// TestHotPotatoSeriesCutShort checks the decision on series played to the
// end of the deck: the game goes on while the cards aside can deal the next
// round, even when they cannot deal the rest of the series, and a series
// cut short scores as it stands. Four players on the order-2 deck (7
// cards): round 1 deals 4 cards, round 2 the 3 left to the seats still in,
// and round 3 (2 cards) cannot be dealt, so the game ends after 2 rounds
// with two seats out of the series, their cards counted as penalties.
func TestHotPotatoSeriesCutShort(t *testing.T) {
	x, err := NewIndex(mustDeck(t, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(mustGame(t, "hot-potato"), x, Config{Players: 4, Seed: 3,
		Options: map[string]string{"scoring": "series", "end": "deck"}})
	if err != nil {
		t.Fatal(err)
	}
	playPerfect(s, nil, nil)
	r := s.Result()
	penalties := 0
	for _, n := range r.Scores {
		penalties += n
	}
	tallies := s.Seat(0).Tally + s.Seat(1).Tally + s.Seat(2).Tally + s.Seat(3).Tally
	if !s.Over() || s.Round() != 2 || tallies != 2 || penalties != 7 || s.Zone(potatoAside).Len() != 0 {
		t.Fatalf("over %v after round %d, %d rounds lost, %d penalty cards (%v), %d aside; want over after round 2, 2 rounds lost, 7 penalty cards, 0 aside",
			s.Over(), s.Round(), tallies, penalties, r.Scores, s.Zone(potatoAside).Len())
	}
}

// TestHotPotatoTieBreak sets up what a session uses to settle a tie of
// three or more: a single round among the tied players (one loser), or one
// series (rounds = players - 1), which ranks them all.
func TestHotPotatoTieBreak(t *testing.T) {
	d := mustDeck(t, 7, 55)
	for p := 3; p <= DobbleMaxPlayers; p++ {
		s, err := New(mustGame(t, "hot-potato"), d, Config{Players: p, Seed: uint64(p), Options: map[string]string{"rounds": "1"}})
		if err != nil {
			t.Fatal(err)
		}
		if claims := playPerfect(s, nil, nil); claims != p-1 {
			t.Fatalf("%d players: one round took %d claims", p, claims)
		}
		if r := s.Result(); len(r.Winners) != p-1 || r.Places[p-1] != p {
			t.Fatalf("%d players, one round: %+v", p, r)
		}
		s, err = New(mustGame(t, "hot-potato"), d, Config{Players: p, Seed: uint64(p),
			Options: map[string]string{"scoring": "series", "rounds": fmt.Sprint(p - 1)}})
		if err != nil {
			t.Fatal(err)
		}
		playPerfect(s, nil, nil)
		r := s.Result()
		for seat, place := range r.Places {
			if place != seat+1 || r.Scores[seat] != map[bool]int{true: 0, false: seat + 1}[seat == 0] {
				t.Fatalf("%d players, one series: %+v", p, r)
			}
		}
	}
}

// TestHotPotatoConfig checks that bad options and decks too small for the
// rounds asked are refused with a reason naming what is accepted.
func TestHotPotatoConfig(t *testing.T) {
	g := mustGame(t, "hot-potato")
	classic := mustDeck(t, 7, 55)
	small := mustDeck(t, 3, 0) // 13 cards
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{classic, Config{Players: 4, Options: map[string]string{"rounds": "0"}}, "rounds", `"0" is not a whole number from 1 to 1000`},
		{classic, Config{Players: 4, Options: map[string]string{"end": "never"}}, "end", `"never" is not one of rounds, deck`},
		{classic, Config{Players: 4, Options: map[string]string{"scoring": "points"}}, "scoring", `"points" is not one of cards, series`},
		{classic, Config{Players: 4, Options: map[string]string{"end": "deck", "rounds": "5"}}, "rounds",
			"rounds=5 is set, but end=deck plays until the deck runs out; leave rounds unset or use end=rounds"},
		{classic, Config{Players: 4, Options: map[string]string{"rounds": "14"}}, "cards",
			"55 cards for 4 players; 14 rounds need 56 (one card per player in each round), at most 13 rounds fit"},
		{small, Config{Players: 3}, "cards", "13 cards for 3 players; 5 rounds need 15 (one card per player in each round), at most 4 rounds fit"},
		{small, Config{Players: 3, Options: map[string]string{"scoring": "series", "rounds": "6"}}, "cards",
			"13 cards for 3 players; 6 rounds need 15 (one card per player still in the series in each round), at most 5 rounds fit"},
		{mustDeck(t, 2, 0), Config{Players: 8}, "cards",
			"7 cards for 8 players; 5 rounds need 40 (one card per player in each round), not even one round fits"},
		{mustDeck(t, 2, 0), Config{Players: 8, Options: map[string]string{"end": "deck"}}, "cards",
			"7 cards for 8 players; a round needs one card per player (8 or more)"},
		{mustDeck(t, 2, 0), Config{Players: 8, Options: map[string]string{"end": "deck", "scoring": "series"}}, "cards",
			"7 cards for 8 players; a round needs one card per player (8 or more)"},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	for _, cfg := range []Config{
		{Players: 4, Options: map[string]string{"rounds": "13"}},
		{Players: 8, Options: map[string]string{"rounds": "6"}},
		{Players: 8, Options: map[string]string{"scoring": "series", "end": "deck"}},
		{Players: 2, Options: map[string]string{"scoring": "series", "rounds": "27"}},
	} {
		if _, err := New(g, classic, cfg); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// TestHotPotatoInvariantsCatch checks that the game's own invariants
// notice a broken table.
func TestHotPotatoInvariantsCatch(t *testing.T) {
	g := mustGame(t, "hot-potato")
	s, err := New(g, mustDeck(t, 7, 55), Config{Players: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	series, err := New(g, mustDeck(t, 7, 55), Config{Players: 4, Seed: 4, Options: map[string]string{"scoring": "series", "end": "deck"}})
	if err != nil {
		t.Fatal(err)
	}
	// Play series to round 2: one seat is out.
	var ev []Event
	for series.Round() == 1 {
		for seat := 0; seat < 4; seat++ {
			if m := series.Moves(seat, nil); len(m) > 0 {
				if ev, err = series.Apply(m[0], ev[:0]); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	for name, tc := range map[string]struct {
		s    *State
		edit func(s *State)
		want string
	}{
		"tally":        {s, func(s *State) { s.seats[1].Tally = 1 }, "seat 1 lost 1 rounds of 3 cards but has 0 penalty cards"},
		"series tally": {series, func(s *State) { s.seats[0].Tally = 1 }, "2 rounds lost in all after 1 rounds"},
		"penalty": {s, func(s *State) {
			s.zones[4].cards = append(s.zones[4].cards, s.zones[0].cards[:3]...)
			s.zones[0].cards = s.zones[0].cards[3:]
		}, "seat 0 lost 0 rounds of 3 cards but has 3 penalty cards"},
		"aside": {s, func(s *State) {
			s.zones[1].cards = append(s.zones[1].cards, s.zones[0].cards[0])
			s.zones[0].cards = s.zones[0].cards[1:]
		}, "51 cards aside in round 1, want 52"},
		"one pile": {s, func(s *State) {
			s.zones[1].cards = append(append(s.zones[1].cards, s.zones[2].cards...), s.zones[3].cards...)
			s.zones[2].cards = s.zones[2].cards[:0]
			s.zones[3].cards = s.zones[3].cards[:0]
		}, "round 1 has 3 cards in play in 1 piles"},
		"shown":     {s, func(s *State) { s.zones[0].Show = ShowTop }, "zone 0 is not the hidden cards aside"},
		"lost kind": {s, func(s *State) { s.zones[5].Kind = ZoneWon }, "zone 5 is won of seat 1 showing hidden, want lost of seat 1 showing hidden"},
		"out holds": {series, func(s *State) {
			s.zones[4].cards = append(s.zones[4].cards, s.zones[0].cards[0])
			s.zones[0].cards = s.zones[0].cards[1:]
		}, "seat 3 is out of the series but holds 1 cards"},
		"out size": {series, func(s *State) {
			s.zones[12].cards = append(s.zones[12].cards, s.zones[0].cards[0])
			s.zones[0].cards = s.zones[0].cards[1:]
		}, "seat 3 dropped out of the series with 5 cards"},
	} {
		c := tc.s.Clone()
		tc.edit(c)
		if err := CheckInvariants(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
	if err := CheckInvariants(series); err != nil {
		t.Fatal(err)
	}
}

func TestHotPotatoProperties(t *testing.T) {
	runProperties(t, "hot-potato", verifyHotPotato)
	g := mustGame(t, "hot-potato")
	for _, opts := range []map[string]string{
		{"end": "deck"},
		{"rounds": "1"},
		{"scoring": "series", "end": "deck"},
		{"scoring": "series", "rounds": "4"},
	} {
		runPropertiesOf(t, g, opts, verifyHotPotato)
	}
}

func FuzzHotPotato(f *testing.F) { fuzzGame(f, "hot-potato", verifyHotPotato) }

func FuzzHotPotatoSeries(f *testing.F) {
	fuzzGameOf(f, playedWith(mustGame(f, "hot-potato"), map[string]string{"scoring": "series", "end": "deck"}), verifyHotPotato)
}

// BenchmarkHotPotatoGame plays complete 4-player Hot Potato games on the
// classic 55-card deck with instant perfect play, setup included: the
// default five rounds, rounds until the deck runs out, and series until the
// deck runs out.
func BenchmarkHotPotatoGame(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{
		{"rounds=5", nil},
		{"end=deck", map[string]string{"end": "deck"}},
		{"scoring=series,end=deck", map[string]string{"scoring": "series", "end": "deck"}},
	} {
		b.Run(tc.name, func(b *testing.B) { benchGames(b, "hot-potato", 4, tc.opts) })
	}
}

// BenchmarkHotPotatoClaimValidation checks claims against a 4-player Hot
// Potato on the classic deck through the public Check.
func BenchmarkHotPotatoClaimValidation(b *testing.B) { benchClaims(b, "hot-potato") }
