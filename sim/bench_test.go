package sim

import (
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/rules"
)

// benchPlayers is the table size of the benchmarks: four players, or the
// game's most if fewer.
func benchPlayers(g rules.Game) int { return min(4, g.Info().MaxPlayers) }

// benchGames plays complete games of every registered game on its default
// deck with bots of the given level, setup included (each game set up in
// the State of the game before, as Config.ReuseState does), one game an
// iteration, and reports games and actions a second.
func benchGames(b *testing.B, level string) {
	l, err := bot.LookupLevel(level)
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range rules.Games() {
		b.Run(g.Info().Name, func(b *testing.B) {
			m, err := New(Config{Game: g, Rules: rules.Config{Players: benchPlayers(g)}, Bots: []bot.Level{l}, ReuseState: true})
			if err != nil {
				b.Fatal(err)
			}
			actions := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				o, err := m.Play(uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				actions += o.Actions
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(actions)/sec, "actions/s")
		})
	}
}

// BenchmarkGame plays complete 4-player games (fewer where the game takes
// fewer) with instant bots: the simulator's own speed.
func BenchmarkGame(b *testing.B) { benchGames(b, "instant") }

// BenchmarkHumanGame plays the same games with medium bots, whose search
// model probes the rules for every plan.
func BenchmarkHumanGame(b *testing.B) { benchGames(b, "medium") }

// BenchmarkClaimValidation checks claims with State.Check on a table of
// every registered game up to five actions into a 4-player game (fewer
// players where the game takes fewer; fewer actions where the game would
// end): the correct claims of every seat, and as many wrong ones (the same
// claims naming another symbol).
func BenchmarkClaimValidation(b *testing.B) {
	for _, g := range rules.Games() {
		_, x, err := DefaultDeck(g).Build()
		if err != nil {
			b.Fatal(err)
		}
		s, err := rules.New(g, x, rules.Config{Players: benchPlayers(g), Seed: 3})
		if err != nil {
			b.Fatal(err)
		}
		// A few actions in, short of the end: the first claim (or draw) of
		// the first seat that has one, up to five times, unless it would
		// end the game (a duel ends with its first claim).
	deal:
		for range 5 {
			for seat := range s.Players() {
				if moves := s.Moves(seat, nil); len(moves) > 0 {
					next := s.Clone()
					if _, err := next.Apply(moves[0], nil); err != nil {
						b.Fatal(err)
					}
					if next.Over() {
						break deal
					}
					s = next
					break
				}
			}
		}
		// A timed game in a phase without moves (Reflection's study
		// time): its clock moves it on to one with some.
		for range 10 {
			if s.Movers() != 0 {
				break
			}
			tick, ok := s.Tick()
			if !ok {
				break
			}
			if _, err := s.Apply(tick, nil); err != nil {
				b.Fatal(err)
			}
		}
		// The claims, or in the extra mini-games that have none the
		// moves that play their part (a flip, a lay, a written answer, a
		// guess): every seat's, and for each one naming a symbol the same
		// move with the next symbol the rules refuse, if any is.
		var correct, wrong []rules.Action
		for seat := range s.Players() {
			for _, a := range s.Moves(seat, nil) {
				if a.Kind == rules.ActionDraw {
					continue
				}
				correct = append(correct, a)
				if !a.Kind.HasSymbol() {
					continue
				}
				w := a
				for range s.Cards().Symbols() {
					w.Symbol = (w.Symbol + 1) % s.Cards().Symbols()
					if s.Check(w) != nil {
						wrong = append(wrong, w)
						break
					}
				}
			}
		}
		if len(correct) == 0 {
			b.Fatalf("%s: no move to check", g.Info().Name)
		}
		for _, tc := range []struct {
			name   string
			claims []rules.Action
			ok     bool
		}{{"correct", correct, true}, {"wrong", wrong, false}} {
			if len(tc.claims) == 0 {
				continue // moves without a symbol: none is wrong
			}
			b.Run(g.Info().Name+"/"+tc.name, func(b *testing.B) {
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					for _, a := range tc.claims {
						if (s.Check(a) == nil) != tc.ok {
							b.Fatalf("%+v: unexpected verdict", a)
						}
					}
					n += len(tc.claims)
				}
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "claims/s")
			})
		}
	}
}

// BenchmarkPlan makes one bot plan on the opening table of a 4-player game
// of every registered game, at the instant level and at medium, which
// stands for every human-like level (they differ only in their numbers).
func BenchmarkPlan(b *testing.B) {
	for _, g := range rules.Games() {
		m, err := New(Config{Game: g, Rules: rules.Config{Players: benchPlayers(g)}})
		if err != nil {
			b.Fatal(err)
		}
		s, err := rules.New(g, m.Cards(), rules.Config{Players: benchPlayers(g), Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"instant", "medium"} {
			l, err := bot.LookupLevel(name)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(g.Info().Name+"/"+l.Name, func(b *testing.B) {
				bt := bot.New(l, 0, 1)
				var p bot.Plan
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					// A new time each plan, as after every change of the
					// table; the survey of the table is remade per version.
					bt.Reseed(uint64(i))
					bt.PlanTo(&p, s, int64(i))
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "plans/s")
			})
		}
	}
}
