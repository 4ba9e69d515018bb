package rules

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPickMoveUniform plays random games of every registered game and, on
// tables where a seat has several claims, picks many times: every claim the
// seat has comes up about equally often (within five standard deviations),
// and nothing else does.
func TestPickMoveUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, g := range Games() {
		name := g.Info().Name
		td := decksFor(t, name)[0]
		for _, td2 := range decksFor(t, name) {
			if td2.d.Len() > td.d.Len() {
				td = td2 // the largest deck: the most claims
			}
		}
		tables := 0
		for seed := uint64(0); seed < 40 && tables < 6; seed++ {
			s, err := New(g, td.x, Config{Players: min(4, g.Info().MaxPlayers), Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			for step := 0; !s.Over() && tables < 6; step++ {
				seat := r.IntN(s.Players())
				moves := s.Moves(seat, nil)
				claims := slices.DeleteFunc(slices.Clone(moves), func(m Action) bool { return m.Kind != ActionClaim })
				if len(claims) >= 2 && step%3 == 0 {
					tables++
					const per = 400
					counts := make([]int, len(claims))
					for range per * len(claims) {
						a, ok := s.PickMove(seat, r)
						i := slices.Index(claims, a)
						if !ok || i < 0 {
							t.Fatalf("%s: PickMove gave %+v, %v; the claims are %+v", name, a, ok, claims)
						}
						counts[i]++
					}
					sd := math.Sqrt(per * (1 - 1/float64(len(claims))))
					for i, c := range counts {
						if math.Abs(float64(c)-per) > 5*sd {
							t.Fatalf("%s: claim %+v picked %d times of %d, want about %d; counts %v",
								name, claims[i], c, per*len(claims), per, counts)
						}
					}
				}
				if tick, ok := s.Tick(); ok && s.Movers() == 0 {
					// A timed game waiting for its clock.
					if _, err := s.Apply(tick, nil); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if len(moves) == 0 {
					continue
				}
				if _, err := s.Apply(moves[r.IntN(len(moves))], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Games whose claims are one per table (the Tower, the Well, a
		// duel) never offer a choice on a plane deck.
		if tables == 0 && g.Info().Targets > 0 {
			t.Errorf("%s: no table with a choice of claims", name)
		}
	}
}

// TestFastPaths checks that every registered game answers CanMove, Movers
// and PickMove itself, without listing its moves: the simulator of instant
// bots relies on them, and the harness checks them against Moves.
func TestFastPaths(t *testing.T) {
	for _, g := range Games() {
		if _, ok := g.(MoveChecker); !ok {
			t.Errorf("%s is not a MoveChecker", g.Info().Name)
		}
		if _, ok := g.(MovePicker); !ok {
			t.Errorf("%s is not a MovePicker", g.Info().Name)
		}
		if _, ok := g.(MoverFinder); !ok {
			t.Errorf("%s is not a MoverFinder", g.Info().Name)
		}
	}
}
