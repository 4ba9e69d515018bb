package session

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// checkSession checks what must hold of a session after every input: the
// phase agrees with the picker and the table; every settled game is
// consistent (places, winners, points recomputed from its outcome) and the
// standings add up the history; the table's game obeys its invariants.
func checkSession(s *Session) error {
	n := s.Players()
	if (s.Phase() == PhasePick) != (s.Picker() != rules.NoSeat) {
		return fmt.Errorf("phase %v with picker %d", s.Phase(), s.Picker())
	}
	if s.Phase() == PhasePlay && !slices.Equal(s.Seats(), allSeats(n)) {
		return fmt.Errorf("mini-game played by seats %v", s.Seats())
	}
	if s.Phase() == PhaseTieBreak {
		p := s.Settling()
		if p == nil || p.Result == nil || len(p.TieBreaks) == 0 || len(s.Seats()) < 2 {
			return fmt.Errorf("tie-break without a tied mini-game: %+v, seats %v", p, s.Seats())
		}
		for _, seat := range s.Seats() {
			if p.Result.Places[seat] != 1 {
				return fmt.Errorf("seat %d plays the tie-break but placed %d", seat, p.Result.Places[seat])
			}
		}
	}
	if s.Phase() == PhasePlay || s.Phase() == PhaseTieBreak {
		if s.State().Over() {
			return errors.New("the table being played is over")
		}
	} else if !s.State().Over() {
		return fmt.Errorf("phase %v while the table is still being played", s.Phase())
	}
	if err := rules.CheckInvariants(s.State()); err != nil {
		return err
	}
	won, points := make([]int, n), make([]int, n)
	h := s.History()
	for k, p := range h {
		if len(p.Places) != n || len(p.Points) != n || len(p.Winners) == 0 {
			return fmt.Errorf("game %d: %+v", k, p)
		}
		firsts := 0
		for seat, pl := range p.Places {
			if pl == 1 {
				firsts++
				if !slices.Contains(p.Winners, seat) {
					return fmt.Errorf("game %d: seat %d placed first but did not win", k, seat)
				}
			}
			if pl < p.Result.Places[seat] && p.Result.Places[seat] != 1 {
				return fmt.Errorf("game %d: seat %d moved up from place %d to %d without a tie", k, seat, p.Result.Places[seat], pl)
			}
		}
		if firsts != len(p.Winners) || len(p.Winners) > 1 && len(p.TieBreaks) != TieBreakLimit {
			return fmt.Errorf("game %d: winners %v with %d tie-breaks, places %v", k, p.Winners, len(p.TieBreaks), p.Places)
		}
		if len(p.Result.Winners) > 1 != (len(p.TieBreaks) > 0) {
			return fmt.Errorf("game %d: %d winners and %d tie-breaks", k, len(p.Result.Winners), len(p.TieBreaks))
		}
		for _, tb := range p.TieBreaks {
			want := DuelGame
			if len(tb.Seats) > 2 {
				want = s.Config().TieBreak
			}
			if tb.Game != want || tb.Result == nil {
				return fmt.Errorf("game %d: tie-break %+v for %d seats", k, tb, len(tb.Seats))
			}
		}
		if pts := s.tournamentPoints(&p); !slices.Equal(pts, p.Points) {
			return fmt.Errorf("game %d: points %v, the table gives %v", k, p.Points, pts)
		}
		if p.Places[p.Loser] != slices.Max(p.Places) {
			return fmt.Errorf("game %d: loser %d placed %d", k, p.Loser, p.Places[p.Loser])
		}
		if k > 0 && p.Picker != h[k-1].Loser || k == 0 && p.Picker != rules.NoSeat {
			return fmt.Errorf("game %d picked by %d, the loser before was %d", k, p.Picker, h[max(k-1, 0)].Loser)
		}
		for i := range won {
			points[i] += p.Points[i]
			if slices.Contains(p.Winners, i) {
				won[i]++
			}
		}
	}
	st := s.Standings()
	for i, sd := range st.Seats {
		if sd.Seat != i || sd.Won != won[i] || sd.Points != points[i] {
			return fmt.Errorf("standing %+v, history says won %d points %d", sd, won[i], points[i])
		}
	}
	if s.Over() != (len(h) == s.Config().Games) {
		return fmt.Errorf("over %v after %d of %d games", s.Over(), len(h), s.Config().Games)
	}
	return nil
}

// randomSession plays one session with random picks and a stream of
// correct, wrong, late, misdirected and garbage inputs, checking it after
// every input; it returns the session and its record.
func randomSession(t testing.TB, cfg Config, decks Decks, r *rand.Rand) (*Session, []Input) {
	t.Helper()
	rec := newRecorder(t, cfg, decks)
	s := rec.s
	var at int64
	for i := 0; !s.Over(); i++ {
		if i > 200000 {
			t.Fatalf("%+v: the session did not end", cfg)
		}
		at += int64(r.IntN(300))
		var in Input
		switch {
		case s.Phase() == PhasePick:
			choices := s.Choices()
			in.Pick = &Pick{Seat: s.Picker(), Game: choices[r.IntN(len(choices))]}
			switch r.IntN(8) {
			case 0:
				in.Pick.Seat = (s.Picker() + 1 + r.IntN(s.Players()-1)) % s.Players()
			case 1:
				in.Pick.Game = "no-such-game"
			}
		case ticking(s, at):
			// A timed game's clock: its deadline has come, or nobody can
			// move before it.
			st := s.State()
			d, _ := st.Deadline()
			at = max(at, d)
			in.Table, in.Action = s.Table(), &rules.Action{Kind: rules.ActionTick, Seat: rules.NoSeat, Version: st.Version(), At: at}
		default:
			st := s.State()
			seat := r.IntN(s.Players())
			a := rules.Action{Seat: seat, Version: st.Version(), At: at, Symbol: r.IntN(st.Cards().Symbols())}
			if k := st.Info().Targets; k > 0 {
				zs := make([]int, k)
				for j := range zs {
					zs[j] = r.IntN(st.Zones())
				}
				a.Target = rules.To(zs...)
			}
			table := s.Table()
			switch k := r.IntN(10); {
			case k < 6:
				if gs := s.GameSeat(seat); gs != rules.NoSeat {
					if moves := st.Moves(gs, nil); len(moves) > 0 {
						a = moves[r.IntN(len(moves))]
						a.Seat, a.At = seat, at
					}
				}
			case k == 6:
				table = r.IntN(table + 2)
			case k == 7:
				a.Version = uint64(r.IntN(int(st.Version()) + 1))
			}
			in.Table, in.Action = table, &a
		}
		before := s.Table()
		err := rec.feed(in)
		if in.Pick != nil && err == nil && s.Table() != before+1 {
			t.Fatalf("an accepted pick did not open a table")
		}
		if err := checkSession(s); err != nil {
			t.Fatalf("%+v, after input %d (%+v): %v", cfg, i, in, err)
		}
	}
	return s, rec.inputs
}

// ticking reports whether the game at s's table wants its clock's tick at
// time at: its deadline has passed, or no seat can move before it.
func ticking(s *Session, at int64) bool {
	st := s.State()
	d, ok := st.Deadline()
	return ok && (at >= d || st.Movers() == 0)
}

// sessionDecks are the decks the property test plays sessions on: small
// ones, where ties are frequent, and the classic deck.
func sessionDecks(t testing.TB) []*rules.Index {
	var out []*rules.Index
	for _, qn := range [][2]int{{2, 0}, {3, 0}, {3, 9}, {4, 0}, {7, 55}} {
		d, err := deck.New(qn[0], qn[1])
		if err != nil {
			t.Fatal(err)
		}
		x, err := rules.NewIndex(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}

// TestSessionProperties plays random sessions over decks, table sizes,
// scorings and tie-breaks, checking every input, and replays each record
// to an Equal session.
func TestSessionProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	five, err := deck.New(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	pancakes, err := rules.NewIndex(rules.WithSingles(five))
	if err != nil {
		t.Fatal(err)
	}
	sessions, tieBreaks, played := 0, map[string]int{}, map[string]int{}
	repeats := 3
	if testing.Short() {
		repeats = 1
	}
	for _, x := range sessionDecks(t) {
		for p := 2; p <= 8; p++ {
			if x.Len() < p+1 {
				break
			}
			for k := 0; k < 3*repeats; k++ {
				tb := []string{"", "learning", "tower"}[k%3]
				cfg := Config{Players: p, Seed: r.Uint64(), Games: 1 + r.IntN(6), Scoring: Scoring(r.IntN(2)), TieBreak: tb,
					NewScoring: withNewScoring[:r.IntN(len(withNewScoring)+1)]}
				if r.IntN(3) == 0 {
					cfg.Lockout = rules.NoLockout
				}
				if tb == "learning" {
					cfg.TieBreakOptions = map[string]string{"pairs": fmt.Sprint(1 + r.IntN(3))}
				}
				decks := Decks{Cards: x}
				if x.Len() == 55 {
					decks.Games = map[string]rules.Cards{"anarchy-pancakes": pancakes}
				}
				s, inputs := randomSession(t, cfg, decks, r)
				again, _, err := Replay(cfg, decks, inputs)
				if err != nil || !again.Equal(s) || !reflect.DeepEqual(again.Standings(), s.Standings()) {
					t.Fatalf("%+v: replay differs (%v)", cfg, err)
				}
				sessions++
				for _, h := range s.History() {
					played[h.Game]++
					for _, tb := range h.TieBreaks {
						tieBreaks[tb.Game]++
					}
				}
			}
		}
	}
	if sessions < 40 || len(tieBreaks) != 4 || len(played) != len(rules.Games()) {
		t.Fatalf("only %d sessions played, with tie-breaks %v and games %v", sessions, tieBreaks, played)
	}
	t.Logf("%d sessions, tie-breaks %v, games %v", sessions, tieBreaks, played)
}

// FuzzSession feeds a session inputs decoded from bytes: picks of any
// registered game by any seat, and actions correct or not at any table.
// Nothing may panic and the session's properties hold throughout.
func FuzzSession(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{4, 8, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("picks and claims and ties, broken"))
	decks := sessionDecks(f)
	games := rules.Games()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		x := decks[int(data[0])%len(decks)]
		cfg := Config{Players: 2 + int(data[1])%7, Seed: uint64(data[2]), Games: 1 + int(data[2])%4, Scoring: Scoring(data[1] >> 7)}
		s, err := New(cfg, Decks{Cards: x})
		if err != nil {
			return
		}
		var moves []rules.Action
		var ev []rules.Event
		for data = data[3:]; len(data) >= 3 && !s.Over(); data = data[3:] {
			op, b1, b2 := data[0], data[1], data[2]
			seat := int(b1) % s.Players()
			switch {
			case s.Phase() == PhasePick && op&1 == 0:
				_ = s.Pick(s.Picker(), games[int(b2)%len(games)].Info().Name)
			case s.Phase() == PhasePick:
				_ = s.Pick(seat, games[int(b2)%len(games)].Info().Name)
			case op&6 != 0:
				if gs := s.GameSeat(seat); gs != rules.NoSeat {
					if moves = s.State().Moves(gs, moves[:0]); len(moves) > 0 {
						a := moves[int(b2)%len(moves)]
						a.Seat = seat
						ev, _ = s.Apply(s.Table(), a, ev[:0])
					}
				}
			default:
				a := rules.Action{Seat: int(int8(b1)), Symbol: int(b2) - 2, Version: s.State().Version() - uint64(op>>3&1), At: int64(op)}
				ev, _ = s.Apply(s.Table()-int(op>>4&1), a, ev[:0])
			}
			if err := checkSession(s); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// BenchmarkSession plays complete four-seat sessions of five mini-games
// (the Tower, the Well, the Poisoned Gift, Hot Potato, learning mode) on
// the classic deck with instant perfect play spread over the seats, ties
// (Hot Potato rounds and duels) and picks included.
func BenchmarkSession(b *testing.B) {
	x := classic(b)
	picks := []string{"well", "poisoned-gift", "hot-potato", "learning"}
	var moves []rules.Action
	var ev []rules.Event
	claims := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s, err := New(Config{Players: 4, Seed: uint64(i)}, Decks{Cards: x})
		if err != nil {
			b.Fatal(err)
		}
		table, seats := -1, []int(nil)
		for g := 0; !s.Over(); {
			if s.Table() != table {
				table, seats = s.Table(), s.Seats()
			}
			if s.Phase() == PhasePick {
				if err := s.Pick(s.Picker(), picks[g]); err != nil {
					b.Fatal(err)
				}
				g++
				continue
			}
			st := s.State()
			seat := claims % st.Players() // spread the claims to make ties
			for k := 0; k < st.Players(); k++ {
				if moves = st.Moves((seat+k)%st.Players(), moves[:0]); len(moves) > 0 {
					break
				}
			}
			a := moves[0]
			a.Seat = seats[a.Seat]
			if ev, err = s.Apply(table, a, ev[:0]); err != nil {
				b.Fatal(err)
			}
			claims++
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "sessions/s")
	b.ReportMetric(float64(claims)/sec, "claims/s")
}

// withNewScoring names the games that declare a new scoring, the choices of
// Config.NewScoring.
var withNewScoring = func() []string {
	var names []string
	for _, g := range rules.Games() {
		if p := g.Info().Points; p != nil && p.NewScoring != "" {
			names = append(names, g.Info().Name)
		}
	}
	return names
}()
