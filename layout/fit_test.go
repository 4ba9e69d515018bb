package layout

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestSquaredDistancesAreExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 24
	for trial := 0; trial < 20; trial++ {
		inked := make([]bool, n*n)
		for i := range inked {
			inked[i] = rng.Float64() < 0.03
		}
		inked[rng.IntN(n*n)] = true
		d, _ := squaredDistances(n, inked)
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				best := math.Inf(1)
				for yy := 0; yy < n; yy++ {
					for xx := 0; xx < n; xx++ {
						if inked[yy*n+xx] {
							best = math.Min(best, float64((x-xx)*(x-xx)+(y-yy)*(y-yy)))
						}
					}
				}
				if d[y*n+x] != best {
					t.Fatalf("trial %d, cell (%d, %d): squared distance %v, want %v", trial, x, y, d[y*n+x], best)
				}
			}
		}
	}
}

func TestNewOutlineRefusesBadMasks(t *testing.T) {
	if _, err := NewOutline(8, make([]bool, 64), 0, 180); err == nil {
		t.Error("an 8×8 mask was accepted")
	}
	if _, err := NewOutline(32, make([]bool, 100), 0, 180); err == nil {
		t.Error("a mask of the wrong length was accepted")
	}
	if _, err := NewOutline(32, make([]bool, 32*32), 0, 180); err == nil {
		t.Error("a mask without ink was accepted")
	}
	ink := make([]bool, 32*32)
	ink[500] = true
	if _, err := NewOutline(32, ink, 0, 200); err == nil {
		t.Error("a turn of 200° was accepted")
	}
	if _, err := NewOutline(32, ink, -1, 180); err == nil {
		t.Error("a negative padding was accepted")
	}
}

// blob is a test symbol whose ink is a union of discs, in symbol units
// (inside the unit disc), so that whether two placed blobs keep the gap
// can be computed exactly.
type blob struct {
	x, y, r []float64
}

func randomBlob(rng *rand.Rand) blob {
	var b blob
	// A long one, a ring of dots, or a lump.
	switch rng.IntN(3) {
	case 0:
		for i := 0; i < 6; i++ {
			t := -0.8 + 1.6*float64(i)/5
			b.x, b.y, b.r = append(b.x, t), append(b.y, 0.3*t*t-0.1), append(b.r, 0.18)
		}
	case 1:
		for i := 0; i < 7; i++ {
			a := 2 * math.Pi * float64(i) / 7
			b.x, b.y, b.r = append(b.x, 0.8*math.Cos(a)), append(b.y, 0.8*math.Sin(a)), append(b.r, 0.2)
		}
	default:
		for i := 0; i < 4; i++ {
			a, d := rng.Float64()*2*math.Pi, 0.5*rng.Float64()
			b.x, b.y, b.r = append(b.x, d*math.Cos(a)), append(b.y, d*math.Sin(a)), append(b.r, 0.3+0.2*rng.Float64())
		}
	}
	// Keep every disc inside the unit disc.
	for i := range b.x {
		if over := math.Hypot(b.x[i], b.y[i]) + b.r[i]; over > 1 {
			b.x[i] /= over
			b.y[i] /= over
			b.r[i] /= over
		}
	}
	return b
}

// outline returns the blob's outline from a mask of n×n cells: a cell is
// inked if any disc reaches into it.
func (b blob) outline(t testing.TB, n int, turn float64) *Outline {
	inked := make([]bool, n*n)
	half := math.Sqrt2 / float64(n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			cx, cy := -1+(float64(x)+0.5)*2/float64(n), -1+(float64(y)+0.5)*2/float64(n)
			for i := range b.x {
				if math.Hypot(cx-b.x[i], cy-b.y[i]) <= b.r[i]+half {
					inked[y*n+x] = true
				}
			}
		}
	}
	o, err := NewOutline(n, inked, 0, turn)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// discs returns the blob's discs placed at s, in card units.
func (b blob) discs(s Spot) (x, y, r []float64) {
	sin, cos := math.Sincos(s.Angle * math.Pi / 180)
	for i := range b.x {
		x = append(x, s.X+s.R*(cos*b.x[i]-sin*b.y[i]))
		y = append(y, s.Y+s.R*(sin*b.x[i]+cos*b.y[i]))
		r = append(r, s.R*b.r[i])
	}
	return x, y, r
}

func TestFitKeepsInkApartAndInside(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range []Shape{Round, Square} {
		for _, k := range []int{3, 8, 12} {
			for seed := 0; seed < seeds; seed++ {
				blobs := make([]blob, k)
				outlines := make([]*Outline, k)
				for i := range blobs {
					blobs[i] = randomBlob(rng)
					turn := 180.0
					if i%3 == 1 {
						turn = 40 // like words
					}
					outlines[i] = blobs[i].outline(t, 64, turn)
				}
				start := Arrange(k, shape, uint64(seed))
				spots := Fit(start, outlines, shape, uint64(seed))
				if again := Fit(start, outlines, shape, uint64(seed)); !reflect.DeepEqual(spots, again) {
					t.Fatalf("%s k=%d seed %d: two fits differ", shape, k, seed)
				}
				var grew float64
				for i, s := range spots {
					grew += s.R*s.R - start[i].R*start[i].R
					if outlines[i].Turn() < 180 && !withinTurn(s.Angle, outlines[i].Turn()) {
						t.Errorf("%s k=%d seed %d: symbol %d is turned %.1f°, more than %g° from upright", shape, k, seed, i, s.Angle, outlines[i].Turn())
					}
					if s.Angle < 0 || s.Angle >= 360 {
						t.Errorf("angle %v out of [0, 360)", s.Angle)
					}
				}
				if grew <= 0 {
					t.Errorf("%s k=%d seed %d: the symbols did not grow", shape, k, seed)
				}
				if spots[0].R < SizeRatio*spots[k-1].R*(1-1e-9) {
					t.Errorf("%s k=%d seed %d: largest %.3f is less than %g times the smallest %.3f", shape, k, seed, spots[0].R, float64(SizeRatio), spots[k-1].R)
				}
				for i := range spots {
					xi, yi, ri := blobs[i].discs(spots[i])
					for a := range xi {
						var edge float64
						if shape == Round {
							edge = 1 - math.Hypot(xi[a], yi[a]) - ri[a]
						} else {
							edge = 1 - math.Max(math.Abs(xi[a]), math.Abs(yi[a])) - ri[a]
						}
						if edge < InkGap-1e-9 {
							t.Fatalf("%s k=%d seed %d: symbol %d's ink is %.4f from the edge, want ≥ %g", shape, k, seed, i, edge, InkGap)
						}
					}
					for j := i + 1; j < len(spots); j++ {
						xj, yj, rj := blobs[j].discs(spots[j])
						for a := range xi {
							for b := range xj {
								if gap := math.Hypot(xi[a]-xj[b], yi[a]-yj[b]) - ri[a] - rj[b]; gap < InkGap-1e-9 {
									t.Fatalf("%s k=%d seed %d: symbols %d and %d are %.4f apart, want ≥ %g", shape, k, seed, i, j, gap, InkGap)
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestPlanWithOutlinesIsDeterministic(t *testing.T) {
	decks := testDecks(t)
	d := decks["order 3"]
	rng := rand.New(rand.NewPCG(5, 6))
	outlines := make([]*Outline, d.Symbols())
	for i := range outlines {
		outlines[i] = randomBlob(rng).outline(t, 64, 180)
	}
	base, err := NewPlan(d, Round, 9)
	if err != nil {
		t.Fatal(err)
	}
	p := base.WithOutlines(func(s int) *Outline { return outlines[s] })
	q := base.WithOutlines(func(s int) *Outline { return outlines[s] })
	for c := 0; c < d.Len(); c++ {
		a, b := p.Card(c), q.Card(c)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("card %d: two plans with the same outlines differ", c)
		}
		if reflect.DeepEqual(a, base.Card(c)) {
			t.Fatalf("card %d: outlines change nothing", c)
		}
		for i, pl := range a {
			if pl.Symbol != d.Card(c)[i] {
				t.Fatalf("card %d: placement %d is symbol %d, want %d", c, i, pl.Symbol, d.Card(c)[i])
			}
		}
	}
}
