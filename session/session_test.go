package session

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// classic returns the Index of the classic 55-card deck, shared by every
// session of a test so that replayed sessions compare Equal.
func classic(t testing.TB) *rules.Index {
	t.Helper()
	d, err := deck.New(7, 55)
	if err != nil {
		t.Fatal(err)
	}
	x, err := rules.NewIndex(d)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// recorder feeds a session and keeps every input, as a game record does.
type recorder struct {
	t      testing.TB
	s      *Session
	inputs []Input
	moves  []rules.Action
	ev     []rules.Event
}

func newRecorder(t testing.TB, cfg Config, decks Decks) *recorder {
	t.Helper()
	s, err := New(cfg, decks)
	if err != nil {
		t.Fatal(err)
	}
	return &recorder{t: t, s: s}
}

// feed feeds one input and returns the error.
func (r *recorder) feed(in Input) error {
	r.inputs = append(r.inputs, in)
	var err error
	r.ev, err = r.s.Feed(in, r.ev[:0])
	return err
}

// pick makes seat pick game and fails the test if it is refused.
func (r *recorder) pick(seat int, game string) {
	r.t.Helper()
	if err := r.feed(Input{Pick: &Pick{Seat: seat, Game: game}}); err != nil {
		r.t.Fatal(err)
	}
}

// play plays the current table to its end with instant perfect claims:
// at step k the session seat who(k) claims, if it is at the table and has
// a correct claim (from State.Moves), otherwise the first seat of the table
// that has one. It returns the number of claims made.
func (r *recorder) play(who func(step int) int) int {
	r.t.Helper()
	s := r.s
	table := s.Table()
	step := 0
	for ; s.Table() == table && !s.State().Over(); step++ {
		st := s.State()
		seat := who(step)
		gs := s.GameSeat(seat)
		if gs == rules.NoSeat || len(st.Moves(gs, r.moves[:0])) == 0 {
			seat = rules.NoSeat
			for g := 0; g < st.Players(); g++ {
				if len(st.Moves(g, r.moves[:0])) > 0 {
					seat, gs = s.Seats()[g], g
					break
				}
			}
			if seat == rules.NoSeat {
				r.t.Fatalf("table %d (%s): no seat has a correct claim", table, st.Info().Name)
			}
		}
		r.moves = st.Moves(gs, r.moves[:0])
		a := r.moves[0]
		a.Seat = seat
		a.At = int64(step) * 100
		if err := r.feed(Input{Table: table, Action: &a}); err != nil {
			r.t.Fatalf("table %d: %+v: %v", table, a, err)
		}
	}
	return step
}

// seq returns a claimer for play: seats[k] at step k, the last one after.
func seq(seats ...int) func(int) int {
	return func(k int) int { return seats[min(k, len(seats)-1)] }
}

// cycle returns a claimer for play cycling through seats, n steps each
// time round, then always last.
func cycle(steps int, last int, seats ...int) func(int) int {
	return func(k int) int {
		if k >= steps {
			return last
		}
		return seats[k%len(seats)]
	}
}

// TestSessionFullByWins plays three mini-games at a four-seat table with
// scripted claims, and checks every settled game, the picks, the
// tie-breaks (a duel for two, learning mode with one pair for three), the
// points and the grand winner against hand-computed values.
func TestSessionFullByWins(t *testing.T) {
	x := classic(t)
	r := newRecorder(t, Config{Players: 4, Seed: 1, Games: 3, TieBreak: "learning",
		TieBreakOptions: map[string]string{"pairs": "1"}}, Decks{Cards: x})
	s := r.s
	if s.Phase() != PhasePlay || s.Table() != 0 || s.State().Info().Name != "tower" || s.Picker() != rules.NoSeat {
		t.Fatalf("start: phase %v table %d game %s picker %d", s.Phase(), s.Table(), s.State().Info().Name, s.Picker())
	}
	if p := s.Settling(); p == nil || p.Game != "tower" || p.Result != nil || p.Picker != rules.NoSeat {
		t.Fatalf("settling at the start: %+v", p)
	}

	// Game 1, the Tower (RULES.md §5 starts with it): seat 0 takes all 51
	// centre cards. Cards held 52, 1, 1, 1; points 51 + 5 for seat 0.
	if n := r.play(seq(0)); n != 51 {
		t.Fatalf("tower: %d claims", n)
	}
	h := s.History()
	if len(h) != 1 || h[0].Game != "tower" || h[0].Table != 0 ||
		!reflect.DeepEqual(h[0].Result.Scores, []int{52, 1, 1, 1}) || !reflect.DeepEqual(h[0].Winners, []int{0}) ||
		!reflect.DeepEqual(h[0].Places, []int{1, 2, 2, 2}) || !reflect.DeepEqual(h[0].Points, []int{56, 0, 0, 0}) ||
		len(h[0].TieBreaks) != 0 {
		t.Fatalf("tower settled as %+v", h[0])
	}
	// Seats 1, 2 and 3 share the last place and stand equal: the lowest
	// seat, 1, picks.
	if s.Phase() != PhasePick || s.Picker() != 1 || h[0].Loser != 1 || s.Settling() != nil {
		t.Fatalf("after the tower: phase %v picker %d loser %d", s.Phase(), s.Picker(), h[0].Loser)
	}

	// Seat 0 may not pick; seat 1 may not pick a duel at a four-seat table.
	var pe *PickError
	if err := s.Pick(0, "well"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "seat 1 lost the last mini-game and picks the next") {
		t.Fatalf("pick by the wrong seat: %v", err)
	}
	if err := s.Pick(1, "duel"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "4 players; duel takes exactly 2") ||
		!strings.Contains(err.Error(), "the table can play") {
		t.Fatalf("pick of a duel for four: %v", err)
	}
	if err := s.Pick(1, "chess"); !errors.As(err, &pe) || !strings.Contains(err.Error(), `unknown game "chess"; valid games:`) {
		t.Fatalf("pick of an unknown game: %v", err)
	}
	if s.Phase() != PhasePick || s.Table() != 0 {
		t.Fatal("refused picks changed the session")
	}
	// A claim at the finished table is refused: the game is over.
	late := rules.Action{Seat: 2, Version: s.State().Version()}
	if _, err := s.Apply(0, late, nil); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("claim during the pick: %v", err)
	}

	// Game 2, learning mode, picked by seat 1 under an alias: seats 1 and 2
	// win 13 pairs each, seat 3 the last one. They duel: seat 2 wins.
	r.pick(1, "Before you start")
	if s.Table() != 1 || s.State().Info().Name != "learning" || s.Settling().Picker != 1 {
		t.Fatalf("after the pick: table %d, %s", s.Table(), s.State().Info().Name)
	}
	r.play(cycle(26, 3, 1, 2))
	if s.Phase() != PhaseTieBreak || s.State().Info().Name != "duel" || !reflect.DeepEqual(s.Seats(), []int{1, 2}) || s.Table() != 2 {
		t.Fatalf("tie of seats 1 and 2: phase %v game %s seats %v table %d", s.Phase(), s.State().Info().Name, s.Seats(), s.Table())
	}
	if p := s.Settling(); !reflect.DeepEqual(p.Result.Scores, []int{0, 13, 13, 1}) || len(p.TieBreaks) != 1 || p.TieBreaks[0].Result != nil {
		t.Fatalf("settling the tie: %+v", p)
	}
	// Seat 0 is not in the duel; a claim at table 1 is too late.
	if _, err := s.Apply(2, rules.Action{Seat: 0}, nil); !errors.Is(err, rules.ErrNoSeat) {
		t.Fatalf("seat 0 in the duel: %v", err)
	}
	if _, err := s.Apply(1, rules.Action{Seat: 1}, nil); !errors.Is(err, rules.ErrTooLate) {
		t.Fatalf("claim at the previous table: %v", err)
	}
	if _, err := s.Apply(3, rules.Action{Seat: 1}, nil); !errors.Is(err, ErrNoTable) {
		t.Fatalf("claim at a future table: %v", err)
	}
	// Seat 1 (duel seat 0) names a wrong symbol: refused as seat 1, locked
	// out; then seat 2 (duel seat 1) wins the duel.
	st := s.State()
	wrong := rules.Action{Seat: 1, Symbol: (st.Moves(0, nil)[0].Symbol + 1) % x.Symbols(), At: 10}
	err := r.feed(Input{Table: 2, Action: &wrong})
	var ref *rules.Refusal
	if !errors.As(err, &ref) || ref.Code != rules.CodeNotAMatch || ref.Seat != 1 || st.Seat(0).LockedUntil == 0 {
		t.Fatalf("wrong claim in the duel: %v", err)
	}
	// Play takes the duel's own seats: duel seat 0 is session seat 1,
	// locked out just now, and its refusal names duel seat 0.
	if _, err := s.Play(rules.Action{Seat: 0, Symbol: wrong.Symbol, Version: st.Version(), At: 20}, nil); !errors.As(err, &ref) || ref.Code != rules.CodeLockedOut || ref.Seat != 0 {
		t.Fatalf("Play by duel seat 0: %v", err)
	}
	r.play(seq(2))
	h = s.History()
	g2 := h[1]
	if g2.Game != "learning" || g2.Picker != 1 || !reflect.DeepEqual(g2.Winners, []int{2}) ||
		!reflect.DeepEqual(g2.Places, []int{4, 2, 1, 3}) || !reflect.DeepEqual(g2.Points, []int{0, 13, 13, 1}) ||
		len(g2.TieBreaks) != 1 || g2.TieBreaks[0].Game != "duel" || !reflect.DeepEqual(g2.TieBreaks[0].Seats, []int{1, 2}) ||
		!reflect.DeepEqual(g2.TieBreaks[0].Winners, []int{2}) || !reflect.DeepEqual(g2.TieBreaks[0].Result.Scores, []int{0, 2}) ||
		g2.TieBreaks[0].Table != 2 || g2.Loser != 0 {
		t.Fatalf("learning settled as %+v", g2)
	}
	if s.Picker() != 0 || !reflect.DeepEqual(s.Standings().Seats, []Standing{
		{Seat: 0, Won: 1, Points: 56, Place: 1}, {Seat: 1, Won: 0, Points: 13, Place: 3},
		{Seat: 2, Won: 1, Points: 13, Place: 2}, {Seat: 3, Won: 0, Points: 1, Place: 4}}) {
		t.Fatalf("after two games: picker %d, standings %+v", s.Picker(), s.Standings())
	}

	// Game 3, the Tower again: seats 0, 1 and 2 take 17 cards each and tie
	// on 18. The tie-break for three, learning mode with one pair, goes to
	// seat 1; seats 0 and 2 share its second place.
	r.pick(0, "bank-heist")
	r.play(cycle(51, 0, 0, 1, 2))
	if s.Phase() != PhaseTieBreak || s.State().Info().Name != "learning" || !reflect.DeepEqual(s.Seats(), []int{0, 1, 2}) {
		t.Fatalf("three-way tie: phase %v, %s, seats %v", s.Phase(), s.State().Info().Name, s.Seats())
	}
	if v := s.View(3); v.Seat != rules.Spectator || v.Game != "learning" {
		t.Fatalf("seat 3 should watch the tie-break: %+v", v)
	}
	if v := s.View(2); v.Seat != 2 {
		t.Fatalf("seat 2 plays the tie-break as its seat 2: %+v", v)
	}
	r.play(seq(1))
	g3 := s.History()[2]
	if !reflect.DeepEqual(g3.Result.Scores, []int{18, 18, 18, 1}) || !reflect.DeepEqual(g3.Winners, []int{1}) ||
		!reflect.DeepEqual(g3.Places, []int{2, 1, 2, 4}) || !reflect.DeepEqual(g3.Points, []int{17, 22, 17, 0}) ||
		len(g3.TieBreaks) != 1 || !reflect.DeepEqual(g3.TieBreaks[0].Result.Scores, []int{0, 1, 0}) ||
		!reflect.DeepEqual(g3.TieBreaks[0].Options, map[string]string{"pairs": "1"}) || g3.Loser != 3 || g3.Picker != 0 {
		t.Fatalf("second tower settled as %+v", g3)
	}

	// The session is over: three seats won one mini-game each; points break
	// the tie and seat 0 is the grand winner.
	want := Standings{Scoring: ByWins, Seats: []Standing{
		{Seat: 0, Won: 1, Points: 73, Place: 1}, {Seat: 1, Won: 1, Points: 35, Place: 2},
		{Seat: 2, Won: 1, Points: 30, Place: 3}, {Seat: 3, Won: 0, Points: 1, Place: 4}},
		Ranking: []int{0, 1, 2, 3}, Winners: []int{0}}
	if got := s.Standings(); !s.Over() || s.Picker() != rules.NoSeat || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(s.Winners(), []int{0}) {
		t.Fatalf("end: over %v picker %d standings %+v", s.Over(), s.Picker(), got)
	}
	if err := s.Pick(3, "tower"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "the session is over") {
		t.Fatalf("pick after the end: %v", err)
	}

	// The record replays to the same session.
	again, refused, err := Replay(s.Config(), Decks{Cards: x}, r.inputs)
	if err != nil || refused != 1 || !again.Equal(s) || !reflect.DeepEqual(again.History(), s.History()) {
		t.Fatalf("replay: %v, %d refused, equal %v", err, refused, again != nil && again.Equal(s))
	}
	if again.Equal(mustSession(t, s.Config(), Decks{Cards: x})) {
		t.Fatal("a fresh session equals a finished one")
	}
	// The history and the standings encode as JSON with their names.
	b, err := json.Marshal(struct {
		H []Played
		S Standings
		P Phase
	}{s.History(), s.Standings(), s.Phase()})
	if err != nil || !strings.Contains(string(b), `"scoring":"wins"`) || !strings.Contains(string(b), `"P":"over"`) ||
		!strings.Contains(string(b), `"tieBreaks":[{"game":"duel","table":2,"seats":[1,2]`) {
		t.Fatalf("JSON: %v %s", err, b)
	}
}

// deck54 returns 54 cards of the order-7 deck: with three seats the Tower's
// centre holds 51 cards, which three seats can split evenly.
func deck54(t testing.TB) *rules.Index {
	t.Helper()
	d, err := deck.New(7, 54)
	if err != nil {
		t.Fatal(err)
	}
	x, err := rules.NewIndex(d)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func mustSession(t testing.TB, cfg Config, decks Decks) *Session {
	t.Helper()
	s, err := New(cfg, decks)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSessionByPoints checks that tournament scoring ranks by points, and
// that the loser picks: after a Tower that seat 1 wins and seat 0 loses,
// seat 0 picks; the last game's loser picks nothing.
func TestSessionByPoints(t *testing.T) {
	r := newRecorder(t, Config{Players: 3, Seed: 7, Games: 2, Scoring: ByPoints, TieBreak: "tower"}, Decks{Cards: classic(t)})
	s := r.s
	// Tower: seat 1 takes 40 cards, seat 2 the other 12, seat 0 none.
	r.play(cycle(40, 2, 1))
	h := s.History()[0]
	if !reflect.DeepEqual(h.Result.Scores, []int{1, 41, 13}) || !reflect.DeepEqual(h.Points, []int{0, 45, 12}) || s.Picker() != 0 {
		t.Fatalf("tower: %+v, picker %d", h, s.Picker())
	}
	// Learning: seat 0 wins 20 pairs, seat 2 seven.
	r.pick(0, "learning")
	r.play(cycle(20, 2, 0))
	h = s.History()[1]
	if !reflect.DeepEqual(h.Points, []int{20, 0, 7}) || h.Loser != 1 || s.Picker() != rules.NoSeat || !s.Over() {
		t.Fatalf("learning: %+v, picker %d, over %v", h, s.Picker(), s.Over())
	}
	// Points 20, 45, 19: seat 1 first although seats 0 and 1 won a game
	// each; by wins the tie would go to points too, so check the order.
	want := []Standing{{0, 1, 20, 2}, {1, 1, 45, 1}, {2, 0, 19, 3}}
	if got := s.Standings(); !reflect.DeepEqual(got.Seats, want) || !reflect.DeepEqual(got.Winners, []int{1}) || got.Scoring != ByPoints {
		t.Fatalf("standings %+v", got)
	}
}

// TestSessionPointsBeforeWins checks that ByPoints and ByWins disagree when
// they should: a seat with more points but fewer wins.
func TestSessionPointsBeforeWins(t *testing.T) {
	for _, scoring := range []Scoring{ByWins, ByPoints} {
		r := newRecorder(t, Config{Players: 2, Seed: 3, Games: 3, Scoring: scoring}, Decks{Cards: classic(t)})
		// Tower: seat 0 wins 52 of the 53 centre cards, then seat 1 wins
		// two learning games by 18 pairs to 9.
		r.play(cycle(52, 1, 0))
		r.pick(1, "learning")
		r.play(cycle(27, 0, 1, 1, 0))
		r.pick(0, "learning")
		r.play(cycle(27, 0, 1, 1, 0))
		st := r.s.Standings()
		won := []int{st.Seats[0].Won, st.Seats[1].Won}
		pts := []int{st.Seats[0].Points, st.Seats[1].Points}
		// Tower: seat 0 won 52 cards and the bonus, seat 1 one card.
		if !reflect.DeepEqual(won, []int{1, 2}) || !reflect.DeepEqual(pts, []int{52 + 5 + 9 + 9, 1 + 18 + 18}) {
			t.Fatalf("%v: won %v points %v", scoring, won, pts)
		}
		want := map[Scoring][]int{ByWins: {1}, ByPoints: {0}}[scoring]
		if !reflect.DeepEqual(st.Winners, want) {
			t.Fatalf("%v: grand winners %v, want %v", scoring, st.Winners, want)
		}
	}
}

// TestSessionTieBreakRepeats checks a tie-break that ties again: learning
// mode for three pairs among three tied seats, each winning one pair, is
// played again; the second time seat 2 wins two pairs and seat 0 one, so
// seat 2 wins, seat 0 is second and seat 1 third.
func TestSessionTieBreakRepeats(t *testing.T) {
	r := newRecorder(t, Config{Players: 4, Seed: 5, Games: 1, TieBreak: "learning",
		TieBreakOptions: map[string]string{"pairs": "3"}}, Decks{Cards: classic(t)})
	s := r.s
	r.play(cycle(51, 0, 0, 1, 2)) // Tower: 18, 18, 18, 1
	r.play(seq(0, 1, 2))          // all tied on one pair
	if s.Phase() != PhaseTieBreak || !reflect.DeepEqual(s.Seats(), []int{0, 1, 2}) || len(s.Settling().TieBreaks) != 2 {
		t.Fatalf("after a tied tie-break: phase %v seats %v", s.Phase(), s.Seats())
	}
	r.play(seq(2, 0, 2))
	h := s.History()[0]
	if !reflect.DeepEqual(h.Winners, []int{2}) || !reflect.DeepEqual(h.Places, []int{2, 3, 1, 4}) || len(h.TieBreaks) != 2 ||
		!reflect.DeepEqual(h.TieBreaks[0].Winners, []int{0, 1, 2}) || !reflect.DeepEqual(h.TieBreaks[1].Result.Scores, []int{1, 0, 2}) ||
		!reflect.DeepEqual(h.Points, []int{17, 17, 22, 0}) || h.TieBreaks[0].Table == h.TieBreaks[1].Table {
		t.Fatalf("settled as %+v", h)
	}
	if !s.Over() || !reflect.DeepEqual(s.Winners(), []int{2}) {
		t.Fatalf("over %v, winners %v", s.Over(), s.Winners())
	}
}

// TestSessionTieBreakNarrows checks a tie-break that puts one seat behind
// and leaves two tied: they then duel.
func TestSessionTieBreakNarrows(t *testing.T) {
	r := newRecorder(t, Config{Players: 3, Seed: 6, Games: 2, TieBreak: "learning",
		TieBreakOptions: map[string]string{"pairs": "2"}}, Decks{Cards: deck54(t)})
	s := r.s
	r.play(cycle(51, 0, 0, 1, 2)) // Tower, 51 centre cards: 18, 18, 18
	r.play(seq(2, 1))             // seats 2 and 1 win a pair each, seat 0 none
	if s.State().Info().Name != "duel" || !reflect.DeepEqual(s.Seats(), []int{1, 2}) {
		t.Fatalf("after the narrowing tie-break: %s seats %v", s.State().Info().Name, s.Seats())
	}
	r.play(seq(1))
	h := s.History()[0]
	if !reflect.DeepEqual(h.Winners, []int{1}) || !reflect.DeepEqual(h.Places, []int{3, 1, 2}) ||
		!reflect.DeepEqual(h.Points, []int{17, 22, 17}) || h.Loser != 0 || s.Picker() != 0 ||
		len(h.TieBreaks) != 2 || h.TieBreaks[1].Game != "duel" {
		t.Fatalf("settled as %+v, picker %d", h, s.Picker())
	}
}

// TestSessionTieBreakLimit checks the bound: a tie-break that ties among
// all its seats every time is played TieBreakLimit times, then the seats
// share the win, each credited with a mini-game won.
func TestSessionTieBreakLimit(t *testing.T) {
	r := newRecorder(t, Config{Players: 3, Seed: 8, Games: 1, TieBreak: "learning",
		TieBreakOptions: map[string]string{"pairs": "3"}}, Decks{Cards: deck54(t)})
	s := r.s
	r.play(cycle(51, 0, 0, 1, 2))
	for k := 0; k < TieBreakLimit; k++ {
		if s.Phase() != PhaseTieBreak {
			t.Fatalf("tie-break %d: phase %v", k, s.Phase())
		}
		r.play(seq(0, 1, 2))
	}
	h := s.History()[0]
	st := s.Standings()
	if !s.Over() || len(h.TieBreaks) != TieBreakLimit || !reflect.DeepEqual(h.Winners, []int{0, 1, 2}) ||
		!reflect.DeepEqual(h.Places, []int{1, 1, 1}) || !reflect.DeepEqual(h.Points, []int{22, 22, 22}) ||
		!reflect.DeepEqual(st.Winners, []int{0, 1, 2}) || st.Seats[1].Won != 1 {
		t.Fatalf("after %d tied tie-breaks: %+v, standings %+v", TieBreakLimit, h, st)
	}
}

// TestSessionLoserTieStanding checks who picks when several seats share the
// last place: the one standing lowest in the session.
func TestSessionLoserTieStanding(t *testing.T) {
	r := newRecorder(t, Config{Players: 3, Seed: 2, Games: 3}, Decks{Cards: classic(t)})
	s := r.s
	r.play(cycle(50, 1, 2, 1)) // Tower: seat 1 wins 27 cards, seat 2 25
	if s.Picker() != 0 {
		t.Fatalf("picker %d, want 0", s.Picker())
	}
	// Learning: seat 0 wins every pair; seats 1 and 2 share the last
	// place with 0 pairs. Seat 2 stands lower (no game won), so it picks
	// although seat 1 has the lower number.
	r.pick(0, "learning")
	r.play(seq(0))
	if h := s.History()[1]; !reflect.DeepEqual(h.Places, []int{1, 2, 2}) || h.Loser != 2 || s.Picker() != 2 {
		t.Fatalf("learning: places %v loser %d picker %d", h.Places, h.Loser, s.Picker())
	}
}

// TestSessionChoices checks what a table can pick: a duel only at two.
func TestSessionChoices(t *testing.T) {
	x := classic(t)
	four := mustSession(t, Config{Players: 4}, Decks{Cards: x})
	two := mustSession(t, Config{Players: 2}, Decks{Cards: x})
	if c := four.Choices(); slices.Contains(c, "duel") || !slices.Contains(c, "tower") || !slices.Contains(c, "learning") ||
		!slices.Contains(c, "hot-potato") || !slices.Contains(c, "well") || !slices.Contains(c, "poisoned-gift") {
		t.Fatalf("four seats can pick %v", c)
	}
	if c := two.Choices(); !slices.Contains(c, "duel") || !slices.Contains(c, "tower") {
		t.Fatalf("two seats can pick %v", c)
	}
	// A two-seat session never needs the three-seat tie-break.
	if two.Config().TieBreak != DefaultTieBreak || two.Config().Games != DefaultGames || two.Config().First != "tower" ||
		!reflect.DeepEqual(four.Config().TieBreakOptions, map[string]string{"rounds": "1"}) {
		t.Fatalf("defaults: %+v", two.Config())
	}
	// Hot Potato named by its alias is still played for one round.
	if c := mustSession(t, Config{Players: 3, TieBreak: "pumpkin-bomb"}, Decks{Cards: x}).Config(); c.TieBreak != "hot-potato" ||
		!reflect.DeepEqual(c.TieBreakOptions, map[string]string{"rounds": "1"}) {
		t.Fatalf("pumpkin-bomb tie-break: %+v", c)
	}
}

// TestSessionDuelOfTwo plays a two-seat session through a duel picked as a
// mini-game and a tied Tower settled by a duel tie-break.
func TestSessionDuelOfTwo(t *testing.T) {
	r := newRecorder(t, Config{Players: 2, Seed: 4, Games: 2}, Decks{Cards: classic(t)})
	s := r.s
	r.play(cycle(52, 0, 0, 1)) // Tower: 53 centre cards, seat 0 wins 27, seat 1 26
	h := s.History()[0]
	if !reflect.DeepEqual(h.Result.Scores, []int{28, 27}) || s.Picker() != 1 {
		t.Fatalf("tower %+v picker %d", h.Result, s.Picker())
	}
	r.pick(1, "duel")
	r.play(seq(1))
	h = s.History()[1]
	if h.Game != "duel" || !reflect.DeepEqual(h.Points, []int{0, 5}) || len(h.TieBreaks) != 0 || !s.Over() {
		t.Fatalf("duel %+v", h)
	}
	// A tied two-seat Tower on six cards of the order-2 deck: four in the
	// centre, two won by each seat.
	d, err := deck.New(2, 6)
	if err != nil {
		t.Fatal(err)
	}
	r = newRecorder(t, Config{Players: 2, Seed: 4, Games: 1}, Decks{Cards: d})
	r.play(cycle(4, 0, 0, 1))
	if r.s.Phase() != PhaseTieBreak || r.s.State().Info().Name != "duel" || !reflect.DeepEqual(r.s.Seats(), []int{0, 1}) {
		t.Fatalf("tied tower: phase %v game %s", r.s.Phase(), r.s.State().Info().Name)
	}
	r.play(seq(1))
	h = r.s.History()[0]
	if !reflect.DeepEqual(h.Result.Scores, []int{3, 3}) || !reflect.DeepEqual(h.Winners, []int{1}) ||
		!reflect.DeepEqual(h.Places, []int{2, 1}) || !reflect.DeepEqual(h.Points, []int{2, 7}) {
		t.Fatalf("tied tower settled as %+v", h)
	}
}

// TestSessionConfig checks that bad configurations are refused with a
// reason naming what is accepted.
func TestSessionConfig(t *testing.T) {
	x := classic(t)
	for _, tc := range []struct {
		cfg   Config
		decks Decks
		field string
		text  string
	}{
		{Config{Players: 1}, Decks{Cards: x}, "players", "1 players; a session takes 2 to 8"},
		{Config{Players: 9}, Decks{Cards: x}, "players", "9 players; a session takes 2 to 8"},
		{Config{Players: 2, Games: -1}, Decks{Cards: x}, "games", "-1 mini-games; use 1 to 1000, or 0 for the default (5)"},
		{Config{Players: 2, Scoring: 7}, Decks{Cards: x}, "scoring", "scoring 7; use wins or points"},
		{Config{Players: 2, Lockout: -7}, Decks{Cards: x}, "lockout", "-7 ms"},
		{Config{Players: 2}, Decks{}, "cards", "no deck"},
		{Config{Players: 2}, Decks{Cards: x, Games: map[string]rules.Cards{"chess": x}}, "cards", `cards given for rules: unknown game "chess"`},
		{Config{Players: 3, TieBreak: "chess"}, Decks{Cards: x}, "tieBreak", `unknown game "chess"`},
		{Config{Players: 3, TieBreak: "duel"}, Decks{Cards: x}, "tieBreak", "duel cannot settle a tie of 3 seats: rules: duel: players: 3 players; duel takes exactly 2"},
		{Config{Players: 3, TieBreak: "learning", TieBreakOptions: map[string]string{"pairs": "x"}}, Decks{Cards: x}, "tieBreak", `learning cannot settle a tie of 3 seats: rules: learning: pairs: "x" is not a whole number`},
		{Config{Players: 2}, Decks{Cards: rules.WithSingles(x)}, "tieBreak", "two tied seats could not duel: rules: duel: cards: cards 0 and 57 share no symbol"},
		{Config{Players: 2, First: "chess"}, Decks{Cards: x}, "first", `unknown game "chess"`},
		{Config{Players: 4, First: "duel"}, Decks{Cards: x}, "first", "4 players; duel takes exactly 2"},
		{Config{Players: 2, Options: map[string]map[string]string{"chess": {}}}, Decks{Cards: x}, "options", `options given for rules: unknown game "chess"`},
		{Config{Players: 2, Options: map[string]map[string]string{"learning": {"pairs": "-3"}}}, Decks{Cards: x}, "options", `pairs: "-3" is not a whole number from 0 to 1000000`},
		{Config{Players: 2, Options: map[string]map[string]string{"learning": {}, "before-you-start": {}}}, Decks{Cards: x}, "options", "options for learning given twice"},
		{Config{Players: 2, Options: map[string]map[string]string{"tower": {"rounds": "2"}}}, Decks{Cards: x}, "options", `unknown option "rounds"; tower takes no options`},
		{Config{Players: 3, TieBreakOptions: map[string]string{"rounds": "0"}}, Decks{Cards: x}, "tieBreak", `hot-potato cannot settle a tie of 3 seats: rules: hot-potato: rounds: "0" is not a whole number from 1 to 1000`},
		{Config{Players: 2, NewScoring: []string{"well"}, Options: map[string]map[string]string{"whoosh": {"end": "last-loses"}}}, Decks{Cards: x}, "options", `the new scoring of well needs its option "end" to be "first-empty", not "last-loses"`},
		{Config{Players: 2, NewScoring: []string{"tower"}}, Decks{Cards: x}, "newScoring", `tower has no new scoring; the games with one are poisoned-gift, well`},
		{Config{Players: 2, NewScoring: []string{"nope"}}, Decks{Cards: x}, "newScoring", `rules: unknown game "nope"`},
	} {
		_, err := New(tc.cfg, tc.decks)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	// Options for a game that cannot seat the table are still checked, at
	// a table size it can seat.
	if _, err := New(Config{Players: 4, Options: map[string]map[string]string{"duel": {"x": "1"}}}, Decks{Cards: x}); err == nil ||
		!strings.Contains(err.Error(), `unknown option "x"; duel takes no options`) {
		t.Errorf("options of the duel at a four-seat table: %v", err)
	}
	if _, err := New(Config{Players: 4, Options: map[string]map[string]string{"learning": {"pairs": "4"}}}, Decks{Cards: x}); err != nil {
		t.Errorf("good options refused: %v", err)
	}
}

// TestSessionEnums checks the JSON names of Scoring and Phase.
func TestSessionEnums(t *testing.T) {
	var c Config
	if err := json.Unmarshal([]byte(`{"players":3,"scoring":"points"}`), &c); err != nil || c.Scoring != ByPoints {
		t.Fatalf("scoring: %v %v", c.Scoring, err)
	}
	if err := json.Unmarshal([]byte(`{"scoring":"goals"}`), &c); err == nil || !strings.Contains(err.Error(), `"goals" is not a scoring; use one of ["wins" "points"]`) {
		t.Fatalf("bad scoring: %v", err)
	}
	for p := PhasePlay; p <= PhaseOver; p++ {
		b, err := json.Marshal(p)
		var q Phase
		if err != nil || json.Unmarshal(b, &q) != nil || q != p {
			t.Fatalf("phase %v: %s %v", p, b, err)
		}
	}
	if _, err := json.Marshal(Phase(9)); err == nil || Phase(9).String() != "Phase(9)" {
		t.Fatal("an unnamed phase encodes")
	}
	if _, err := (&Session{}).Feed(Input{}, nil); !errors.Is(err, ErrBadInput) {
		t.Fatalf("empty input: %v", err)
	}
}
