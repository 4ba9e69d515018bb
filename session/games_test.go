package session

import (
	"reflect"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// TestSessionRealGames plays a four-seat tournament of the Tower, the
// Well, the Poisoned Gift and Hot Potato with scripted claims (seat 0
// claims whenever it can, otherwise the first seat of the table that can),
// with the default tie-breaks: Hot Potato for one round among three tied
// seats, then a duel. Every figure is worked out by hand from the rules:
//
//   - Tower: seat 2 takes the 51 centre cards: points 51 + 5.
//   - Well, picked by seat 0: 54 cards dealt from seat 2, the Tower's
//     winner (option first-seat), so seats 2 and 3 hold 14 and seats 0 and
//     1 hold 13; seat 0 empties first, leaving 0, 13, 14, 14.
//   - Poisoned Gift, picked by seat 3: seat 0 gives every centre card to
//     seat 1 (its first target), who ends with 52 cards; seats 0, 2 and 3
//     tie on 1. Hot Potato (seats 0, 2, 3 as its 0, 1, 2): seat 0 gives to
//     seat 2, who gives to seat 3, who loses the round; seats 0 and 2
//     duel and seat 0 wins.
//   - Hot Potato, picked by seat 1: each round seat 0 gives to seat 1, who
//     gives to seat 2, who gives to seat 3, who loses all five rounds;
//     seats 0, 1 and 2 tie on no cards, seat 2 loses the Hot Potato round,
//     seat 0 wins the duel.
func TestSessionRealGames(t *testing.T) {
	type want struct {
		game    string
		picker  int
		scores  []int
		places  []int
		points  []int
		ties    []string
		tieWins [][]int
	}
	classicPoints := [][]int{{0, 0, 56, 0}, {10, 0, -20, -20}, {20, 0, 10, 0}, {0, 0, 0, -25}}
	newPoints := [][]int{{0, 0, 56, 0}, {10, -13, -19, -19}, {0, -51, -2, -5}, {0, -2, -6, -8}}
	for _, tc := range []struct {
		name    string
		cfg     Config
		points  [][]int
		potato  []int
		total   []int
		winners []int
	}{
		{"RULES.md §5", Config{Players: 4, Seed: 11, Games: 4, Scoring: ByPoints}, classicPoints,
			[]int{0, 0, 0, 20}, []int{30, 0, 46, -45}, []int{2}},
		// With the new scorings: Hot Potato's series drops each round's
		// loser (seat 3 with 4 cards, seat 2 with 3, seat 1 with 2), then
		// a new series: seat 3 and seat 2 lose again. Seat 0 alone has no
		// penalty and wins without a tie-break.
		{"new scorings", Config{Players: 4, Seed: 11, Games: 4, Scoring: ByPoints, NewScoring: []string{"well", "poisoned-gift"},
			Options: map[string]map[string]string{"pumpkin-bomb": {"scoring": "series"}}}, newPoints,
			[]int{0, 2, 6, 8}, []int{10, -66, 29, -32}, []int{2}},
		{"by wins", Config{Players: 4, Seed: 11, Games: 4}, classicPoints,
			[]int{0, 0, 0, 20}, []int{30, 0, 46, -45}, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(t, tc.cfg, Decks{Cards: classic(t)})
			s := r.s
			potatoTies, potatoWins := []string{"hot-potato", "duel"}, [][]int{{0, 1}, {0}}
			places := []int{1, 2, 3, 4}
			if tc.potato[1] != 0 { // series: no tie
				potatoTies, potatoWins, places = nil, nil, []int{1, 2, 3, 4}
			}
			games := []want{
				{"tower", rules.NoSeat, []int{1, 1, 52, 1}, []int{2, 2, 1, 2}, tc.points[0], nil, nil},
				{"well", 0, []int{0, 13, 14, 14}, []int{1, 2, 3, 3}, tc.points[1], nil, nil},
				{"poisoned-gift", 3, []int{1, 52, 1, 1}, []int{1, 4, 2, 3}, tc.points[2], []string{"hot-potato", "duel"}, [][]int{{0, 2}, {0}}},
				{"hot-potato", 1, tc.potato, places, tc.points[3], potatoTies, potatoWins},
			}
			for k, w := range games {
				if k > 0 {
					r.pick(s.Picker(), map[string]string{"well": "whoosh", "poisoned-gift": "symbiont", "hot-potato": "pumpkin-bomb"}[w.game])
				}
				if k == 0 {
					r.play(seq(2))
				} else {
					r.play(seq(0))
				}
				for s.Phase() == PhaseTieBreak {
					r.play(seq(0))
				}
				h := s.History()[k]
				if h.Game != w.game || h.Picker != w.picker || !reflect.DeepEqual(h.Result.Scores, w.scores) ||
					!reflect.DeepEqual(h.Places, w.places) || !reflect.DeepEqual(h.Points, w.points) || len(h.TieBreaks) != len(w.ties) {
					t.Fatalf("game %d: %+v\nwant %+v", k, h, w)
				}
				for i, tb := range h.TieBreaks {
					if tb.Game != w.ties[i] || !reflect.DeepEqual(tb.Winners, w.tieWins[i]) {
						t.Fatalf("game %d tie-break %d: %+v, want %s won by %v", k, i, tb, w.ties[i], w.tieWins[i])
					}
				}
				if w.game == "well" && h.Options["first-seat"] != "2" {
					t.Fatalf("the Well was dealt from seat %s, not from the Tower's winner", h.Options["first-seat"])
				}
			}
			h := s.History()
			if tb := h[2].TieBreaks[0]; !reflect.DeepEqual(tb.Seats, []int{0, 2, 3}) || !reflect.DeepEqual(tb.Result.Scores, []int{0, 0, 3}) ||
				tb.Options["rounds"] != "1" {
				t.Fatalf("the Poisoned Gift's Hot Potato tie-break: %+v", tb)
			}
			if tc.potato[1] == 0 && !reflect.DeepEqual(h[3].Tallies, []int{0, 0, 0, 5}) {
				t.Fatalf("Hot Potato tallies %v, want seat 3 losing 5 rounds", h[3].Tallies)
			}
			st := s.Standings()
			total := []int{st.Seats[0].Points, st.Seats[1].Points, st.Seats[2].Points, st.Seats[3].Points}
			if !s.Over() || !reflect.DeepEqual(total, tc.total) || !reflect.DeepEqual(st.Winners, tc.winners) {
				t.Fatalf("end: points %v winners %v, want %v and %v", total, st.Winners, tc.total, tc.winners)
			}
			again, _, err := Replay(s.Config(), Decks{Cards: classic(t)}, r.inputs)
			if err != nil || !reflect.DeepEqual(again.History(), s.History()) {
				t.Fatalf("replay: %v", err)
			}
		})
	}
}

// TestSessionPotatoChain checks a four-way tie settled by the default
// tie-breaks: a Hot Potato round for four, another for the three left, then
// a duel; the seats each round put behind take the places in reverse order
// of elimination. On 56 cards the Tower's centre holds 52, 13 for each
// seat; in every Hot Potato round seat 0 gives to the next seat, which
// gives to the next, so the last seat of the tie-break loses the round.
func TestSessionPotatoChain(t *testing.T) {
	d, err := deck.New(7, 56)
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, Config{Players: 4, Seed: 12, Games: 1}, Decks{Cards: d})
	s := r.s
	r.play(cycle(52, 0, 0, 1, 2, 3))
	var seats [][]int
	for s.Phase() == PhaseTieBreak {
		seats = append(seats, s.Seats())
		r.play(seq(0))
	}
	h := s.History()[0]
	if !reflect.DeepEqual(seats, [][]int{{0, 1, 2, 3}, {0, 1, 2}, {0, 1}}) || !reflect.DeepEqual(h.Result.Scores, []int{14, 14, 14, 14}) ||
		!reflect.DeepEqual(h.Places, []int{1, 2, 3, 4}) || !reflect.DeepEqual(h.Points, []int{18, 13, 13, 13}) ||
		h.TieBreaks[0].Game != "hot-potato" || h.TieBreaks[1].Game != "hot-potato" || h.TieBreaks[2].Game != "duel" ||
		!reflect.DeepEqual(h.TieBreaks[1].Winners, []int{0, 1}) || h.Loser != 3 {
		t.Fatalf("tie-breaks among %v: %+v", seats, h)
	}
}

// TestSessionMoreGames plays Catch Them All, Triplets, Subway Rescue and
// Anarchy Pancakes (on its own two decks, through Decks.Games) in one
// three-seat session where seat 0 claims whenever it can, and checks each
// game's points by the table:
//
//   - Catch Them All: 55 cards, rounds of a centre card and 3 around it,
//     the centre going back under the deck: 18 rounds while 4 cards
//     remain, seat 0 winning all 54 cards around: +54.
//   - Triplets: seat 0 wins every triple it takes: +1 per card, +5.
//   - Subway Rescue: seat 0 takes all 52 laid-out cards: 52 won, +5.
//   - Anarchy Pancakes: +10 per butter pat, the winner holding 2.
func TestSessionMoreGames(t *testing.T) {
	five, err := deck.New(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	decks := Decks{Cards: classic(t), Games: map[string]rules.Cards{"anarchy-pancakes": rules.WithSingles(five)}}
	r := newRecorder(t, Config{Players: 3, Seed: 21, Games: 4, First: "catch-them-all"}, decks)
	s := r.s
	r.play(seq(0))
	for _, g := range []string{"triplets", "subway-rescue", "anarchy-pancakes"} {
		if s.Phase() != PhasePick || !slices.Contains(s.Choices(), g) {
			t.Fatalf("before %s: phase %v, choices %v", g, s.Phase(), s.Choices())
		}
		r.pick(s.Picker(), g)
		r.play(seq(0))
	}
	h := s.History()
	if !reflect.DeepEqual(h[0].Result.Scores, []int{54, 0, 0}) || !reflect.DeepEqual(h[0].Points, []int{54, 0, 0}) {
		t.Fatalf("catch them all: %+v", h[0])
	}
	if won := h[1].Result.Scores[0]; won%3 != 0 || won < 45 || !reflect.DeepEqual(h[1].Result.Scores, []int{won, 0, 0}) ||
		!reflect.DeepEqual(h[1].Points, []int{won + 5, 0, 0}) {
		t.Fatalf("triplets: %+v", h[1])
	}
	if !reflect.DeepEqual(h[2].Result.Scores, []int{53, 1, 1}) || !reflect.DeepEqual(h[2].Points, []int{57, 0, 0}) {
		t.Fatalf("subway rescue: %+v", h[2])
	}
	p := h[3]
	if p.Game != "anarchy-pancakes" || p.Result.Unit != "butter pats" || len(p.Winners) != 1 || p.Result.Scores[p.Winners[0]] != 2 {
		t.Fatalf("anarchy pancakes: %+v", p)
	}
	for i, pats := range p.Result.Scores {
		if p.Points[i] != 10*pats || p.Tallies[i] != pats {
			t.Fatalf("anarchy pancakes: seat %d has %d pats (tally %d) and %d points", i, pats, p.Tallies[i], p.Points[i])
		}
	}
	// Without its own decks, Anarchy Pancakes cannot be picked.
	plain := mustSession(t, Config{Players: 3}, Decks{Cards: classic(t)})
	if slices.Contains(plain.Choices(), "anarchy-pancakes") || !slices.Contains(plain.Choices(), "triplets") {
		t.Fatalf("choices without the pancake decks: %v", plain.Choices())
	}
}
