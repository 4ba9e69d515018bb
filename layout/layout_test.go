package layout

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// checkSpots verifies the geometric properties of one card's spots and
// returns a description of the first violation, or "".
func checkSpots(spots []Spot, k int, shape Shape) string {
	if len(spots) != k {
		return "wrong number of spots"
	}
	for i, s := range spots {
		if !(s.R > 0) {
			return "a spot has no size"
		}
		if s.Angle < 0 || s.Angle >= 360 {
			return "angle out of [0, 360)"
		}
		// Inside the card, with the edge gap.
		if shape == Round {
			if math.Hypot(s.X, s.Y)+s.R*(1+Gap) > 1+1e-12 {
				return "a spot crosses the round edge"
			}
		} else if math.Abs(s.X)+s.R*(1+Gap) > 1+1e-12 || math.Abs(s.Y)+s.R*(1+Gap) > 1+1e-12 {
			return "a spot crosses the square edge"
		}
		if i > 0 && s.R > spots[i-1].R {
			return "spots are not ordered by size"
		}
		for j := i + 1; j < len(spots); j++ {
			t := spots[j]
			if math.Hypot(s.X-t.X, s.Y-t.Y) < (s.R+t.R)*(1+Gap)-1e-12 {
				return "two spots overlap"
			}
		}
	}
	if spots[0].R < 2*spots[k-1].R {
		return "largest is less than twice the smallest"
	}
	large := 0
	for _, s := range spots {
		if s.R >= LargeShare*spots[0].R {
			large++
		}
	}
	if large != 2 {
		return "not exactly two large spots"
	}
	return ""
}

// minCoverage is the least share of a card that a layout of k symbols
// covers; meanCoverage the least average over many seeds.
func minCoverage(k int) float64 {
	if k == 3 {
		return 0.45 // two large circles side by side bound it at 0.55
	}
	return 0.5
}

func meanCoverage(k int) float64 {
	if k <= 4 {
		return 0.48
	}
	return 0.58
}

func TestArrangeProperties(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 10
	}
	for _, shape := range []Shape{Round, Square} {
		for k := MinSymbols; k <= MaxSymbols; k++ {
			var sum float64
			for seed := 0; seed < seeds; seed++ {
				spots := Arrange(k, shape, uint64(seed))
				if msg := checkSpots(spots, k, shape); msg != "" {
					t.Fatalf("%s k=%d seed=%d: %s: %+v", shape, k, seed, msg, spots)
				}
				c := Coverage(spots, shape)
				if c < minCoverage(k) {
					t.Errorf("%s k=%d seed=%d: covers %.3f of the card, want ≥ %.2f", shape, k, seed, c, minCoverage(k))
				}
				sum += c
			}
			if mean := sum / float64(seeds); mean < meanCoverage(k) {
				t.Errorf("%s k=%d: mean coverage %.3f over %d seeds, want ≥ %.2f", shape, k, mean, seeds, meanCoverage(k))
			}
		}
	}
}

func TestArrangeIsDeterministicAndVaries(t *testing.T) {
	for _, shape := range []Shape{Round, Square} {
		for _, k := range []int{3, 6, 8, 14, 32} {
			a, b := Arrange(k, shape, 42), Arrange(k, shape, 42)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s k=%d: two calls with seed 42 differ", shape, k)
			}
			c := Arrange(k, shape, 43)
			if reflect.DeepEqual(a, c) {
				t.Errorf("%s k=%d: seeds 42 and 43 give the same layout", shape, k)
			}
		}
	}
}

func TestArrangeRefusesBadCounts(t *testing.T) {
	for _, k := range []int{0, 2, MaxSymbols + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Arrange(%d) did not panic", k)
				}
			}()
			Arrange(k, Round, 1)
		}()
	}
}

func TestShapeNames(t *testing.T) {
	for _, s := range []Shape{Round, Square} {
		got, err := ParseShape(s.String())
		if err != nil || got != s {
			t.Errorf("ParseShape(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseShape("oval"); err == nil {
		t.Error(`ParseShape("oval") succeeded`)
	}
}

// testDecks returns every edition's deck and the full planes of orders 2
// to 13.
func testDecks(t *testing.T) map[string]*deck.Deck {
	t.Helper()
	decks := map[string]*deck.Deck{}
	for _, e := range deck.Editions() {
		d, err := e.Deck()
		if err != nil {
			t.Fatal(err)
		}
		decks[e.Name] = d
	}
	for _, q := range []int{2, 3, 4, 5, 7, 8, 9, 11, 13} {
		d, err := deck.New(q, 0)
		if err != nil {
			t.Fatal(err)
		}
		decks[fmt.Sprintf("order %d", q)] = d
	}
	return decks
}

func TestPlanMakesEverySymbolLargeSomewhere(t *testing.T) {
	for name, d := range testDecks(t) {
		for _, shape := range []Shape{Round, Square} {
			p, err := NewPlan(d, shape, 7)
			if err != nil {
				t.Fatal(err)
			}
			if !p.EverySymbolLarge() {
				t.Errorf("%s: the plan leaves a symbol without a large spot", name)
			}
			best := make([]float64, d.Symbols())       // largest share of its card's biggest
			ranks := make([]map[int]bool, d.Symbols()) // distinct sizes a symbol gets
			for c := 0; c < d.Len(); c++ {
				card := p.Card(c)
				spots := make([]Spot, len(card))
				maxR := 0.0
				for i, pl := range card {
					spots[i] = pl.Spot
					maxR = math.Max(maxR, pl.R)
					if want := d.Card(c)[i]; pl.Symbol != want {
						t.Fatalf("%s card %d: placement %d is symbol %d, want %d", name, c, i, pl.Symbol, want)
					}
				}
				for _, pl := range card {
					best[pl.Symbol] = math.Max(best[pl.Symbol], pl.R/maxR)
					if ranks[pl.Symbol] == nil {
						ranks[pl.Symbol] = map[int]bool{}
					}
					ranks[pl.Symbol][int(math.Round(pl.R/maxR*20))] = true
				}
			}
			for s, b := range best {
				if b < LargeShare {
					t.Errorf("%s %s: symbol %d is never large (at most %.2f of a card's largest)", name, shape, s, b)
				}
				if len(ranks[s]) < 2 && d.Len() > 3 {
					t.Errorf("%s %s: symbol %d has the same size on all its cards", name, shape, s)
				}
			}
		}
	}
}

func TestPlanCardsKeepTheGeometry(t *testing.T) {
	d, err := deck.New(7, 55)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(d, Round, 1)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; c < d.Len(); c++ {
		card := p.Card(c)
		spots := make([]Spot, len(card))
		for i, pl := range card {
			spots[i] = pl.Spot
		}
		// Sort by size for checkSpots.
		for i := range spots {
			for j := i + 1; j < len(spots); j++ {
				if spots[j].R > spots[i].R {
					spots[i], spots[j] = spots[j], spots[i]
				}
			}
		}
		if msg := checkSpots(spots, 8, Round); msg != "" {
			t.Fatalf("card %d: %s", c, msg)
		}
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	d, err := deck.New(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewPlan(d, Round, 99)
	b, _ := NewPlan(d, Round, 99)
	c, _ := NewPlan(d, Round, 100)
	same, differ := true, false
	for i := 0; i < d.Len(); i++ {
		if !reflect.DeepEqual(a.Card(i), b.Card(i)) || !reflect.DeepEqual(a.Card(i), a.Card(i)) {
			same = false
		}
		if !reflect.DeepEqual(a.Card(i), c.Card(i)) {
			differ = true
		}
	}
	if !same {
		t.Error("two plans with the same deck and seed lay cards out differently")
	}
	if !differ {
		t.Error("seeds 99 and 100 give the same layouts")
	}
}

func TestPlanLimits(t *testing.T) {
	d, err := deck.New(3, 3) // 3 cards, 9 symbols: 6 large places only
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(d, Round, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.EverySymbolLarge() {
		t.Errorf("a deck of %d cards and %d symbols cannot make every symbol large, but the plan says it does", d.Len(), d.Symbols())
	}
	big, err := deck.New(32, 40)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlan(big, Round, 1); err == nil {
		t.Error("NewPlan accepted cards of 33 symbols")
	}
}

func TestSingle(t *testing.T) {
	s := Single(Round, 3, 5)
	if s.X != 0 || s.Y != 0 || s.R*(1+Gap) > 1 || s.R < 0.5 {
		t.Errorf("Single = %+v, want a large centred spot", s)
	}
	if Single(Round, 3, 5) != s || Single(Round, 3, 6) == s {
		t.Error("Single is not deterministic per (seed, symbol)")
	}
}
