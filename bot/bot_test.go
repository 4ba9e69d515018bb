package bot

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

func mustIndex(t testing.TB, q, n int) *rules.Index {
	t.Helper()
	d, err := deck.New(q, n)
	if err != nil {
		t.Fatal(err)
	}
	x, err := rules.NewIndex(d)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func mustState(t testing.TB, name string, cards rules.Cards, cfg rules.Config) *rules.State {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.New(g, cards, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// meanSD returns the mean and the standard deviation of xs.
func meanSD(xs []float64) (float64, float64) {
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - m) * (x - m)
	}
	return m, math.Sqrt(sq / float64(len(xs)-1))
}

// near fails t unless the mean of xs is within 4 standard errors of want.
func near(t *testing.T, what string, xs []float64, want float64) float64 {
	t.Helper()
	m, sd := meanSD(xs)
	se := sd / math.Sqrt(float64(len(xs)))
	if math.Abs(m-want) > 4*se+1e-9 {
		t.Errorf("%s: mean %.3f over %d samples, want %.3f (±%.3f)", what, m, len(xs), want, 4*se)
	}
	return m
}

// TestSearchGrowsWithSymbols plans Tower claims on decks of 3 to 10 symbols
// a card with a noisy level free of misses and false alarms: the number of
// comparisons averages (k²+1)/2, the search time that many comparisons, the
// arrival Orient and Motor later, and all of them grow with k.
func TestSearchGrowsWithSymbols(t *testing.T) {
	level := Level{Name: "test", Orient: 100, Compare: 50, Noise: 0.3, Motor: 200}
	const samples = 3000
	prev := 0.0
	for _, q := range []int{2, 3, 4, 5, 7, 8, 9} {
		x := mustIndex(t, q, 0)
		k := q + 1
		want := ExpectedComparisons(k, 2, 1, 1)
		if want != float64(k*k+1)/2 {
			t.Fatalf("k=%d: ExpectedComparisons %v, want (k²+1)/2", k, want)
		}
		var comps, search, arrive []float64
		for i := range samples {
			s := mustState(t, "tower", x, rules.Config{Players: 3, Seed: uint64(i)})
			b := New(level, i%3, uint64(i))
			now := int64(i % 1000)
			p, ok := b.Plan(s, now)
			if !ok || p.Wrong || p.Missed {
				t.Fatalf("k=%d: plan %+v, %v", k, p, ok)
			}
			if err := s.Check(p.Action); err != nil {
				t.Fatalf("k=%d: the plan's claim is refused: %v", k, err)
			}
			if p.Comparisons < 1 || p.Comparisons > float64(k*k) {
				t.Fatalf("k=%d: %v comparisons for two cards", k, p.Comparisons)
			}
			comps = append(comps, p.Comparisons)
			search = append(search, float64(p.Decide-now)-level.Orient)
			arrive = append(arrive, float64(p.Action.At-p.Decide))
		}
		near(t, "comparisons", comps, want)
		m := near(t, "search ms", search, level.Compare*want)
		if a, _ := meanSD(arrive); a != level.Motor {
			t.Errorf("k=%d: claims arrive %v ms after the decision, want %v", k, a, level.Motor)
		}
		if m <= prev {
			t.Errorf("k=%d: mean search %.1f ms is not longer than with fewer symbols (%.1f)", k, m, prev)
		}
		prev = m
	}
}

// TestComparisonsModel checks the sampled search against
// ExpectedComparisons where claims need targets: several options, few or
// none holding a match, two or three cards each.
func TestComparisonsModel(t *testing.T) {
	b := New(Level{Name: "test", Compare: 1}, 0, 7)
	for _, tc := range []struct{ k, c, n, m int }{
		{8, 2, 1, 1}, {8, 2, 3, 3}, {8, 2, 7, 1}, {6, 2, 40, 3}, {8, 3, 84, 2}, {8, 3, 84, 1}, {6, 2, 12, 0}, {1, 2, 5, 1},
	} {
		xs := make([]float64, 20000)
		for i := range xs {
			xs[i] = b.comparisons(float64(tc.k), tc.c, tc.n, tc.m)
		}
		near(t, "comparisons", xs, ExpectedComparisons(tc.k, tc.c, tc.n, tc.m))
	}
	// More fruitless options cost more; more matching ones cost less.
	if !(ExpectedComparisons(8, 2, 7, 1) > ExpectedComparisons(8, 2, 3, 1) &&
		ExpectedComparisons(8, 2, 7, 3) < ExpectedComparisons(8, 2, 7, 1) &&
		ExpectedComparisons(8, 3, 1, 1) > ExpectedComparisons(8, 2, 1, 1)) {
		t.Error("ExpectedComparisons does not grow with the work to do")
	}
}

// TestLevelTimes checks the built-in levels' mean Tower claim time against
// Orient + Compare·(k²+1)/2 + Motor, which the package documentation quotes,
// and that the levels get faster in order.
func TestLevelTimes(t *testing.T) {
	x := mustIndex(t, 7, 55)
	prev := math.Inf(1)
	for _, l := range Levels() {
		var times []float64
		for i := range 4000 {
			s := mustState(t, "tower", x, rules.Config{Players: 4, Seed: uint64(i)})
			p, ok := New(l, i%4, uint64(i)).Plan(s, 0)
			if !ok {
				t.Fatalf("%s: no plan", l.Name)
			}
			if !p.Wrong && !p.Missed {
				times = append(times, float64(p.Action.At))
			}
		}
		want := l.Orient + l.Compare*ExpectedComparisons(8, 2, 1, 1) + l.Motor
		m := near(t, l.Name, times, want)
		if m >= prev && !l.Instant() {
			t.Errorf("%s: mean %.0f ms is not faster than the level before (%.0f)", l.Name, m, prev)
		}
		prev = m
	}
}

// TestRates checks that false alarms and misses happen at the configured
// rates, that every false alarm is a claim the rules refuse as wrong (and
// every other plan one they accept), and that a miss costs MissMean on
// average.
func TestRates(t *testing.T) {
	x := mustIndex(t, 7, 55)
	levels := append(Levels(), Level{Name: "clumsy", Orient: 300, Compare: 40, Noise: 0.2, Motor: 300,
		WrongRate: 0.25, MissRate: 0.4, MissMean: 1500})
	for _, l := range levels {
		const n = 20000
		wrong, missed := 0, 0
		var hit, miss []float64
		for i := range n {
			s := mustState(t, "tower", x, rules.Config{Players: 2, Seed: uint64(i)})
			b := New(l, i%2, uint64(i)*31)
			p, ok := b.Plan(s, 0)
			if !ok {
				t.Fatalf("%s: no plan", l.Name)
			}
			err := s.Check(p.Action)
			var r *rules.Refusal
			if p.Wrong {
				wrong++
				if !errors.As(err, &r) || !r.Code.Wrong() {
					t.Fatalf("%s: false alarm %+v is not refused as wrong: %v", l.Name, p.Action, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: planned claim %+v refused: %v", l.Name, p.Action, err)
			}
			if p.Missed {
				missed++
				miss = append(miss, float64(p.Decide))
			} else {
				hit = append(hit, float64(p.Decide))
			}
		}
		rate := func(what string, got int, of int, want float64) {
			p := float64(got) / float64(of)
			se := math.Sqrt(want * (1 - want) / float64(of))
			if math.Abs(p-want) > 4*se+1e-9 {
				t.Errorf("%s: %s rate %.4f, want %.4f (±%.4f)", l.Name, what, p, want, 4*se)
			}
		}
		rate("wrong-claim", wrong, n, l.WrongRate)
		rate("miss", missed, n-wrong, l.MissRate)
		if len(miss) > 200 {
			mm, msd := meanSD(miss)
			hm, hsd := meanSD(hit)
			se := math.Sqrt(msd*msd/float64(len(miss)) + hsd*hsd/float64(len(hit)))
			if d := mm - hm; math.Abs(d-l.MissMean) > 4*se {
				t.Errorf("%s: a miss costs %.0f ms on average, want %.0f (±%.0f)", l.Name, d, l.MissMean, 4*se)
			}
		}
	}
}

// TestLockout applies a bot's false alarm and checks that its next plan
// waits for the lock-out, then arrives exactly when it ends if the search
// was shorter.
func TestLockout(t *testing.T) {
	x := mustIndex(t, 7, 55)
	l := Level{Name: "rash", Orient: 10, Compare: 1, Motor: 10, WrongRate: 1}
	for i := range 200 {
		s := mustState(t, "tower", x, rules.Config{Players: 2, Seed: uint64(i), Lockout: 5000})
		b := New(l, 1, uint64(i))
		p, ok := b.Plan(s, 100)
		if !ok || !p.Wrong {
			t.Fatalf("plan %+v, %v: want a false alarm", p, ok)
		}
		if _, err := s.Apply(p.Action, nil); !errors.Is(err, rules.ErrNotAMatch) {
			t.Fatalf("false alarm applied: %v", err)
		}
		until := s.Seat(1).LockedUntil
		if until != p.Action.At+5000 {
			t.Fatalf("locked until %d after a claim at %d", until, p.Action.At)
		}
		next, ok := b.Plan(s, p.Action.At)
		if !ok || next.Action.At != until || next.Decide > next.Action.At || next.Decide < p.Action.At {
			t.Fatalf("plan after the lock-out: %+v, want arrival at %d", next, until)
		}
		if next.Wrong {
			continue
		}
		if _, err := s.Apply(next.Action, nil); err != nil {
			t.Fatalf("claim at the end of the lock-out refused: %v", err)
		}
	}
}

// TestDeterministic checks that a bot's plans depend only on its level,
// seat, seed and the questions asked, and that Reseed restarts it.
func TestDeterministic(t *testing.T) {
	x := mustIndex(t, 7, 55)
	l, _ := LookupLevel("easy")
	run := func(b *Bot) []Plan {
		var out []Plan
		for i := range 50 {
			s := mustState(t, "tower", x, rules.Config{Players: 4, Seed: uint64(i)})
			p, _ := b.Plan(s, int64(i))
			out = append(out, p)
		}
		return out
	}
	a := run(New(l, 2, 42))
	b := New(l, 2, 42)
	if !slices.Equal(a, run(b)) {
		t.Fatal("same level, seat and seed planned differently")
	}
	b.Reseed(42)
	if !slices.Equal(a, run(b)) {
		t.Fatal("a reseeded bot planned differently from a new one")
	}
	if slices.Equal(a, run(New(l, 1, 42))) || slices.Equal(a, run(New(l, 2, 43))) {
		t.Fatal("another seat or seed planned the same")
	}
}

// TestNoPlan checks that a bot has nothing to do when the game is over or
// its seat is not at the table.
func TestNoPlan(t *testing.T) {
	x := mustIndex(t, 2, 0)
	s := mustState(t, "tower", x, rules.Config{Players: 2, Seed: 1})
	if _, ok := New(Level{}, 2, 1).Plan(s, 0); ok {
		t.Error("a bot at seat 2 of a 2-seat table planned")
	}
	b := New(Level{}, 0, 1)
	for !s.Over() {
		p, ok := b.Plan(s, 0)
		if !ok {
			p, _ = New(Level{}, 1, 1).Plan(s, 0)
		}
		if _, err := s.Apply(p.Action, nil); err != nil {
			t.Fatal(err)
		}
	}
	if p, ok := b.Plan(s, 0); ok {
		t.Errorf("planned %+v after the end", p)
	}
}

func TestLookupLevel(t *testing.T) {
	for _, name := range LevelNames() {
		l, err := LookupLevel(" " + strings.ToUpper(name) + " ")
		if err != nil || l.Name != name || l.Validate() != nil || l.Doc == "" {
			t.Errorf("%s: %+v, %v", name, l, err)
		}
	}
	_, err := LookupLevel("godlike")
	if err == nil || err.Error() != `unknown bot level "godlike"; levels: easy, medium, hard, expert, instant` {
		t.Errorf("unknown level: %v", err)
	}
	for _, bad := range []Level{{WrongRate: 1.5}, {Compare: -1}, {Noise: math.NaN()}, {Motor: math.Inf(1)}, {MissMean: 1e12}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validates", bad)
		}
		if c := bad.clamped(); c.Validate() != nil {
			t.Errorf("%+v clamps to %+v, which does not validate", bad, c)
		}
	}
}
