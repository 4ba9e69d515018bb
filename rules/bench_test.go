package rules

import "testing"

// benchGames plays complete games of the named game for players seats on
// the classic 55-card deck with instant perfect play, setup included, with
// the given options, and reports games and claims per second.
func benchGames(b *testing.B, name string, players int, options map[string]string) {
	x, err := NewIndex(mustDeck(b, 7, 55))
	if err != nil {
		b.Fatal(err)
	}
	g := mustGame(b, name)
	moves := make([]Action, 0, 64)
	ev := make([]Event, 0, 64)
	claims := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s, err := New(g, x, Config{Players: players, Seed: uint64(i), Options: options})
		if err != nil {
			b.Fatal(err)
		}
		claims += playPerfect(s, moves, ev)
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(float64(claims)/sec, "claims/s")
}

// benchClaims checks claims against a fresh 4-player game of the named game
// on the classic 55-card deck through the public Check: every seat's
// correct claims, the same with the next symbol (wrong), with the seat's
// own pile as target in games with one target (a bad target), and against
// the previous version (stale). It reports claims checked per second.
func benchClaims(b *testing.B, name string) {
	x, err := NewIndex(mustDeck(b, 7, 55))
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(mustGame(b, name), x, Config{Players: 4, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	var correct, wrong, target []Action
	for seat := 0; seat < 4; seat++ {
		correct = s.Moves(seat, correct)
	}
	if len(correct) == 0 {
		b.Fatal("no seat has a correct claim")
	}
	for _, m := range correct {
		w := m
		w.Symbol = (m.Symbol + 1) % x.Symbols()
		wrong = append(wrong, w)
		if m.Target.Len() == 1 {
			w = m
			w.Target = To(1 + m.Seat) // the seat's own pile in these games
			target = append(target, w)
		}
	}
	run := func(name string, claims []Action, wantErr bool) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, a := range claims {
					if (s.Check(a) != nil) != wantErr {
						b.Fatalf("%+v: unexpected verdict", a)
					}
				}
				n += len(claims)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "claims/s")
		})
	}
	run("correct", correct, false)
	run("wrong", wrong, true)
	if len(target) > 0 {
		run("badTarget", target, true)
	}
	if _, err := s.Apply(correct[0], nil); err != nil {
		b.Fatal(err)
	}
	run("stale", correct[1:], true)
}
