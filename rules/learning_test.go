package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyLearning checks an accepted learning-mode claim against RULES.md §2
// with the real deck: the symbol is the one the two centre cards share; the
// pair, and only it, goes to the claimant's won pile; then either the game
// ends (the stock cannot refill the centre, or the pair limit is reached)
// with the most pairs winning, or the stock's top two cards turn face up.
func verifyLearning(before *State, d *deck.Deck, a Action, ev []Event) error {
	centre := before.Zone(learningCentre).AppendCards(nil)
	if len(centre) != 2 {
		return fmt.Errorf("the centre held %v before the claim", centre)
	}
	if d.Common(centre[0], centre[1]) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of cards %v and %v", a.Symbol, d.Card(centre[0]), d.Card(centre[1]))
	}
	v := ev[0].Version
	want := []Event{
		{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Card: -1, From: -1, To: -1},
		{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: centre[1], Count: 2, From: learningCentre, To: learningWon(a.Seat)},
	}
	stock := before.Zone(learningStock).AppendCards(nil)
	pairs := make([]int, before.Players())
	found := 1
	for i := range pairs {
		pairs[i] = before.Zone(learningWon(i)).Len() / 2
		if i == a.Seat {
			pairs[i]++
		}
		found += before.Zone(learningWon(i)).Len() / 2
	}
	limit := 0
	if text, ok := before.Config().Options["pairs"]; ok {
		if _, err := fmt.Sscan(text, &limit); err != nil {
			return err
		}
	}
	if len(stock) < 2 || (limit > 0 && found >= limit) {
		if len(ev) != 3 || ev[2].Kind != EventOver || ev[2].Result == nil {
			return fmt.Errorf("the game should end (stock %d, %d pairs found, limit %d): events %+v", len(stock), found, limit, ev)
		}
		r := ev[2].Result
		best := 0
		for _, p := range pairs {
			best = max(best, p)
		}
		var winners []int
		for i, p := range pairs {
			if p == best {
				winners = append(winners, i)
			}
		}
		if r.Unit != "pairs" || !r.HigherWins || !reflect.DeepEqual(r.Scores, pairs) || !reflect.DeepEqual(r.Winners, winners) {
			return fmt.Errorf("result %+v, want pairs %v winners %v", r, pairs, winners)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	} else {
		n := len(stock)
		want = append(want,
			Event{Kind: EventMove, Version: v, Seat: NoSeat, Symbol: -1, Card: stock[n-1], Count: 1, From: learningStock, To: learningCentre},
			Event{Kind: EventMove, Version: v, Seat: NoSeat, Symbol: -1, Card: stock[n-2], Count: 1, From: learningStock, To: learningCentre})
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events %+v, want %+v", ev, want)
	}
	return nil
}

// TestLearningScenario plays RULES.md §2 "Before you start" on a known
// table of the order-2 deck (cards 0 = {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5},
// 3 = {3,4,6}, 4 = {0,4,5}, 5 = {1,5,6}, 6 = {0,2,6}) with two players: two
// cards face up, whoever first names their common symbol takes them and the
// next two are drawn, until the stock has fewer than two cards.
func TestLearningScenario(t *testing.T) {
	s, err := New(mustGame(t, "learning"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Stock bottom to top 6, 5, 4, 3, 2; centre 0 and 1; nothing won yet.
	setTable(t, s, []int{6, 5, 4, 3, 2}, []int{0, 1}, nil, nil)
	claim := func(seat, sym int) Event {
		return Event{Kind: EventClaim, Seat: seat, Symbol: sym, Card: -1, From: -1, To: -1}
	}
	took := func(seat, top int) Event {
		return Event{Kind: EventMove, Seat: seat, Symbol: -1, Card: top, Count: 2, From: learningCentre, To: learningWon(seat)}
	}
	drew := func(card int) Event {
		return Event{Kind: EventMove, Seat: NoSeat, Symbol: -1, Card: card, Count: 1, From: learningStock, To: learningCentre}
	}
	accepted := func(a Action, want ...Event) {
		t.Helper()
		ev, err := s.Apply(a, nil)
		if err != nil {
			t.Fatalf("%+v refused: %v", a, err)
		}
		for i := range want {
			want[i].Version = a.Version + 1
			if want[i].Kind == EventOver {
				want[i].Result = ev[i].Result
			}
		}
		if !reflect.DeepEqual(ev, want) {
			t.Fatalf("%+v: events\n %+v\nwant\n %+v", a, ev, want)
		}
	}

	// The centre shows {0,1,3} and {1,2,4}. Seat 0 names 0, only on the
	// first card: not a match, and locked out until 1100 ms.
	_, err = s.Apply(Action{Seat: 0, Symbol: 0, At: 100}, nil)
	var r *Refusal
	if !errors.As(err, &r) || r.Code != CodeNotAMatch || r.LockedUntil != 1100 || s.Version() != 0 {
		t.Fatalf("wrong claim: %v, version %d", err, s.Version())
	}
	// Seat 1 names 1 and takes both cards; 2 and 3 turn face up.
	accepted(Action{Seat: 1, Symbol: 1, At: 400}, claim(1, 1), took(1, 1), drew(2), drew(3))
	if got := s.Zone(learningWon(1)).AppendCards(nil); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Fatalf("seat 1 won %v, want [0 1]", got)
	}
	v := s.View(0)
	if len(v.Zones[learningCentre].Cards) != 2 || v.Zones[learningCentre].Cards[0].Card != 2 ||
		v.Zones[learningCentre].Cards[1].Card != 3 || v.Zones[learningStock].Count != 3 || len(v.Zones[learningStock].Cards) != 0 {
		t.Fatalf("view after the first pair: centre %+v, stock %+v", v.Zones[learningCentre], v.Zones[learningStock])
	}
	// Seat 0 names 3, right for {2,3,5} and {3,4,6}, but against version 0.
	if _, err := s.Apply(Action{Seat: 0, Symbol: 3, Version: 0, At: 1200}, nil); !errors.Is(err, ErrTooLate) {
		t.Fatalf("late claim: %v", err)
	}
	// Seat 0 is still locked out at 1000 ms, then names 3 at 1100 ms.
	if _, err := s.Apply(Action{Seat: 0, Symbol: 3, Version: 1, At: 1000}, nil); !errors.Is(err, ErrLockedOut) {
		t.Fatalf("locked-out claim: %v", err)
	}
	accepted(Action{Seat: 0, Symbol: 3, Version: 1, At: 1100}, claim(0, 3), took(0, 3), drew(4), drew(5))
	// The centre shows {0,4,5} and {1,5,6}; one card is left in the stock,
	// too few for another pair, so seat 1's claim of 5 ends the game.
	over := Event{Kind: EventOver, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1}
	accepted(Action{Seat: 1, Symbol: 5, Version: 2, At: 1500}, claim(1, 5), took(1, 5), over)
	want := &Result{Unit: "pairs", HigherWins: true, Scores: []int{1, 2}, Winners: []int{1},
		Ranking: []int{1, 0}, Places: []int{2, 1}}
	if got := s.Result(); !s.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), got, want)
	}
	if s.Zone(learningStock).Len() != 1 || s.Zone(learningCentre).Len() != 0 {
		t.Fatalf("end: stock %d, centre %d; want 1 and 0", s.Zone(learningStock).Len(), s.Zone(learningCentre).Len())
	}
	if _, err := s.Apply(Action{Seat: 0, Symbol: 6, Version: 3, At: 2000}, nil); !errors.Is(err, ErrGameOver) {
		t.Fatalf("claim after the end: %v", err)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// TestLearningPairLimit checks the "pairs" option: the game stops after
// that many pairs, with cards still in the stock.
func TestLearningPairLimit(t *testing.T) {
	s, err := New(mustGame(t, "learning"), mustDeck(t, 7, 55), Config{Players: 3, Seed: 4, Options: map[string]string{"pairs": "5"}})
	if err != nil {
		t.Fatal(err)
	}
	claims := playPerfect(s, nil, nil)
	r := s.Result()
	if claims != 5 || !reflect.DeepEqual(r.Scores, []int{5, 0, 0}) || s.Zone(learningStock).Len() != 55-10 {
		t.Fatalf("%d claims, scores %v, stock %d; want 5 claims, [5 0 0], 45", claims, r.Scores, s.Zone(learningStock).Len())
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// TestLearningAlone plays learning mode with one seat through the whole
// classic deck: 27 pairs, one card left over.
func TestLearningAlone(t *testing.T) {
	s, err := New(mustGame(t, "learning-mode"), mustDeck(t, 7, 55), Config{Players: 1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	claims := playPerfect(s, nil, nil)
	r := s.Result()
	if claims != 27 || !reflect.DeepEqual(r.Scores, []int{27}) || !reflect.DeepEqual(r.Winners, []int{0}) ||
		s.Zone(learningStock).Len() != 1 {
		t.Fatalf("%d claims, result %+v, stock %d", claims, r, s.Zone(learningStock).Len())
	}
}

// TestLearningConfig checks that bad player counts, decks and options are
// refused with a reason naming what is accepted.
func TestLearningConfig(t *testing.T) {
	g := mustGame(t, "before-you-start")
	classic := mustDeck(t, 7, 55)
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{classic, Config{Players: 0}, "players", "0 players; learning takes 1 to 8"},
		{classic, Config{Players: 9}, "players", "9 players; learning takes 1 to 8"},
		{planePlusSingles{mustDeck(t, 5, 0)}, Config{Players: 2}, "cards", "share no symbol; learning mode needs a deck in which every two cards share one"},
		{badCards{1, 3, nil}, Config{Players: 1}, "cards", "1 card; learning mode needs at least 2 (one pair in the centre)"},
		{classic, Config{Players: 2, Options: map[string]string{"pairs": "-1"}}, "pairs", `"-1" is not a whole number from 0 to 1000000`},
		{classic, Config{Players: 2, Options: map[string]string{"rounds": "3"}}, "options", `unknown option "rounds"; learning takes pairs`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	s, err := New(g, mustDeck(t, 2, 2), Config{Players: 8})
	if err != nil {
		t.Fatalf("8 players with a 2-card deck: %v", err)
	}
	if claims := playPerfect(s, nil, nil); claims != 1 || !s.Over() {
		t.Fatalf("a 2-card deck gives one pair, got %d claims (over %v)", claims, s.Over())
	}
}

func TestLearningProperties(t *testing.T) {
	runProperties(t, "learning", verifyLearning)
	g := mustGame(t, "learning")
	runPropertiesOf(t, g, map[string]string{"pairs": "3"}, verifyLearning)
}

func FuzzLearning(f *testing.F) { fuzzGame(f, "learning", verifyLearning) }

// BenchmarkLearningGame plays complete 4-player learning-mode games on the
// classic 55-card deck with instant perfect play, setup included.
func BenchmarkLearningGame(b *testing.B) { benchGames(b, "learning", 4, nil) }
