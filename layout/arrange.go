package layout

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Shape is the outline of a card.
type Shape int

// The card shapes.
const (
	// Round cards are the unit disc, like the printed game's.
	Round Shape = iota
	// Square cards are the square [-1, 1]².
	Square
)

// String returns "round" or "square".
func (s Shape) String() string {
	if s == Square {
		return "square"
	}
	return "round"
}

// ParseShape reads "round" or "square".
func ParseShape(s string) (Shape, error) {
	switch s {
	case "round":
		return Round, nil
	case "square":
		return Square, nil
	}
	return Round, fmt.Errorf("unknown card shape %q; use round or square", s)
}

// Area returns the area of the card in card units: π for Round, 4 for
// Square.
func (s Shape) Area() float64 {
	if s == Square {
		return 4
	}
	return math.Pi
}

// MinSymbols and MaxSymbols bound the number of symbols a card layout
// holds: from the 3 of an order-2 deck to the 32 of an order-31 deck.
const (
	MinSymbols = 3
	MaxSymbols = 32
)

// LargeShare is the share of a card's largest symbol radius from which a
// symbol counts as large on that card. Every card has at least two large
// spots.
const LargeShare = 0.85

// Gap is the smallest space left between two symbols, as a fraction of the
// sum of their radii, and between a symbol and the card's edge, as a
// fraction of its radius.
const Gap = 0.04

// Spot is where one symbol sits on a card, in card units: its smallest
// enclosing circle is scaled to the circle of radius R centred on (X, Y),
// and it is turned by Angle degrees clockwise (0 ≤ Angle < 360). Arrange's
// circles never meet; Fit's may, where the symbols' ink does not.
type Spot struct {
	X, Y, R, Angle float64
}

// Coverage returns the share of the card's area that the spots' circles
// cover.
func Coverage(spots []Spot, shape Shape) float64 {
	var a float64
	for _, s := range spots {
		a += math.Pi * s.R * s.R
	}
	return a / shape.Area()
}

// Arrange lays out k symbols on a card of the given shape. It returns k
// spots ordered from largest to smallest: the sizes are fixed by rank, so
// spot i is for the symbol of size rank i. The result depends only on
// (k, shape, seed). Arrange panics if k is outside MinSymbols..MaxSymbols.
func Arrange(k int, shape Shape, seed uint64) []Spot {
	if k < MinSymbols || k > MaxSymbols {
		panic(fmt.Sprintf("layout: Arrange(%d): want %d to %d symbols", k, MinSymbols, MaxSymbols))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c61796f7574^uint64(k)<<8^uint64(shape)))
	w := sizes(k, rng)
	// A few independent packings; keep the densest.
	var best []Spot
	bestCover := -1.0
	for attempt := 0; attempt < attempts(k); attempt++ {
		spots := pack(w, shape, rng)
		if c := Coverage(spots, shape); c > bestCover {
			best, bestCover = spots, c
		}
	}
	for i := range best {
		best[i].Angle = rng.Float64() * 360
	}
	return best
}

// attempts is how many packings Arrange tries: more for few symbols, where
// one packing is cheap and a bad one shows most.
func attempts(k int) int {
	switch {
	case k <= 10:
		return 4
	case k <= 20:
		return 3
	}
	return 2
}

// sizes returns k relative radii in decreasing order: 1 and a second large
// one (0.87..0.95), then falling roughly evenly to the smallest, 1/ρ with
// ρ between 2.1 and 2.1+0.15(k−2), at most 3: cards with few symbols keep
// them closer in size, so that none looks lost.
func sizes(k int, rng *rand.Rand) []float64 {
	ratio := 2.1 + math.Min(0.9, 0.15*float64(k-2))*rng.Float64()
	smallest := 1 / ratio
	w := make([]float64, k)
	w[0] = 1
	w[1] = 0.87 + 0.08*rng.Float64()
	w[k-1] = smallest
	// Middle ranks fall from 0.8 to just above the smallest, jittered but
	// kept in order and strictly between their neighbours.
	mid := k - 3
	for i := 0; i < mid; i++ {
		t := float64(i+1) / float64(mid+1)
		v := 0.8 - t*(0.8-smallest)
		v += (rng.Float64() - 0.5) * 0.6 * (0.8 - smallest) / float64(mid+1)
		w[2+i] = v
	}
	// Keep the order: a middle size never exceeds 0.8 (below LargeShare
	// of the largest) nor falls under the smallest.
	for i := 2; i < k-1; i++ {
		w[i] = math.Min(w[i], 0.8)
		w[i] = math.Max(w[i], smallest*1.02)
		if w[i] > w[i-1] {
			w[i] = w[i-1]
		}
	}
	return w
}

// pack places circles of relative radii w (decreasing) on the card and
// returns their spots, with the exact largest common scale at which they
// fit with the gaps.
func pack(w []float64, shape Shape, rng *rand.Rand) []Spot {
	n := len(w)
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		// Random start inside the card, larger circles nearer the middle.
		reach := 0.3 + 0.6*float64(i)/float64(n)
		if shape == Round {
			a, r := rng.Float64()*2*math.Pi, reach*math.Sqrt(rng.Float64())
			x[i], y[i] = r*math.Cos(a), r*math.Sin(a)
		} else {
			x[i], y[i] = reach*(2*rng.Float64()-1), reach*(2*rng.Float64()-1)
		}
	}
	var sumSq float64
	for _, v := range w {
		sumSq += v * v
	}
	// Start at 55% coverage and grow while the circles fit.
	s := math.Sqrt(0.55 * shape.Area() / math.Pi / sumSq)
	mass := make([]float64, n)
	for i, v := range w {
		mass[i] = v * v
	}
	// Grow while nearly everything fits, shrink a little when jammed;
	// then settle at a slightly smaller scale so that the last overlaps
	// relax away before the exact scale is computed.
	const grow, settle = 400, 60
	for it := 0; it < grow+settle; it++ {
		if it == grow {
			s *= 0.985
		}
		worst := relax(w, mass, x, y, s, shape, rng)
		if it >= grow {
			continue
		}
		switch {
		case worst < 0.002:
			s *= 1.003
		case worst < 0.02:
			s *= 1.002
		case worst > 0.1:
			s *= 0.995
		}
	}
	scale := fitScale(w, x, y, shape)
	spots := make([]Spot, n)
	for i := range spots {
		spots[i] = Spot{X: x[i], Y: y[i], R: w[i] * scale}
	}
	return spots
}

// relax runs one sweep that pushes overlapping circles (radii s·w, gaps
// included) apart and circles that cross the edge back in, and returns the
// worst overlap it met as a fraction of the distance wanted.
func relax(w, mass, x, y []float64, s float64, shape Shape, rng *rand.Rand) float64 {
	n := len(w)
	worst := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := x[j]-x[i], y[j]-y[i]
			want := s * (w[i] + w[j]) * (1 + Gap)
			d2 := dx*dx + dy*dy
			if d2 >= want*want {
				continue
			}
			d := math.Sqrt(d2)
			if d < 1e-9 {
				a := rng.Float64() * 2 * math.Pi
				dx, dy, d = math.Cos(a)*1e-6, math.Sin(a)*1e-6, 1e-6
			}
			over := want - d
			worst = math.Max(worst, over/want)
			// The lighter circle moves more.
			fi := mass[j] / (mass[i] + mass[j])
			ux, uy := dx/d, dy/d
			x[i] -= ux * over * fi
			y[i] -= uy * over * fi
			x[j] += ux * over * (1 - fi)
			y[j] += uy * over * (1 - fi)
		}
	}
	for i := 0; i < n; i++ {
		r := s * w[i] * (1 + Gap)
		if shape == Round {
			d := math.Sqrt(x[i]*x[i] + y[i]*y[i])
			if d+r > 1 {
				worst = math.Max(worst, (d+r-1)/r)
				if d > 1e-12 {
					f := math.Max(0, 1-r) / d
					x[i], y[i] = x[i]*f, y[i]*f
				}
			}
		} else {
			lim := math.Max(0, 1-r)
			if math.Abs(x[i]) > lim || math.Abs(y[i]) > lim {
				worst = math.Max(worst, (math.Max(math.Abs(x[i]), math.Abs(y[i]))-lim)/r)
				x[i] = math.Max(-lim, math.Min(lim, x[i]))
				y[i] = math.Max(-lim, math.Min(lim, y[i]))
			}
		}
	}
	return worst
}

// fitScale returns the largest scale at which circles of radii scale·w at
// the given centres keep the gaps between each other and to the edge.
func fitScale(w, x, y []float64, shape Shape) float64 {
	s := math.Inf(1)
	for i := range w {
		var room float64
		if shape == Round {
			room = 1 - math.Hypot(x[i], y[i])
		} else {
			room = 1 - math.Max(math.Abs(x[i]), math.Abs(y[i]))
		}
		s = math.Min(s, room/(w[i]*(1+Gap)))
		for j := i + 1; j < len(w); j++ {
			d := math.Hypot(x[j]-x[i], y[j]-y[i])
			s = math.Min(s, d/((w[i]+w[j])*(1+Gap)))
		}
	}
	// Rounding must never let two circles touch.
	return math.Max(0, s*(1-1e-9))
}
