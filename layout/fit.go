package layout

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// InkGap is the least space kept between the ink of two symbols and
// between ink and the card's edge, in card units, when symbols are packed
// by their outlines (Fit).
const InkGap = 0.012

// fitCells is the side of the grid of cells over [-1, 1]² on which Fit
// keeps track of the space the symbols take.
const fitCells = 192

// Sizes keep their variety: a symbol may grow to at most its share of the
// largest symbol (from Arrange's sizes) times growSlack, the middle ones
// never to LargeShare of it (so that the two large spots stay the two
// largest), the smallest not at all beyond its share.
const (
	growSlack = 1.3
	middleCap = LargeShare - 0.03
)

// Fit packs symbols by their outlines, starting from circles: spots as
// Arrange returns them (ordered from largest to smallest), the outline of
// the symbol that goes into each, the card's shape and a seed. Every
// symbol is placed with its enclosing circle on its spot, turned as far as
// its outline allows, and then the symbols grow in turn — each moving
// away from what it bumps into and turning a little when that lets it
// grow more — into the room their outlines leave between them, until none
// can grow. The result keeps the spots' order; a spot's circle is the
// symbol's enclosing circle, and circles may now overlap where the ink
// does not. No two symbols' ink comes closer than InkGap, nor any ink to
// the card's edge, whatever the outlines. The result depends only on the
// arguments.
func Fit(spots []Spot, outlines []*Outline, shape Shape, seed uint64) []Spot {
	if len(spots) != len(outlines) {
		panic(fmt.Sprintf("layout: Fit: %d spots but %d outlines", len(spots), len(outlines)))
	}
	f := newFitter(shape)
	rng := rand.New(rand.NewPCG(seed, 0x6f75746c696e65))
	k := len(spots)
	out := make([]Spot, k)
	caps := make([]float64, k)
	for i, s := range spots {
		s.Angle = turned(s.Angle, outlines[i].turn)
		out[i] = s
		switch {
		case i == 0:
			caps[i] = math.Inf(1)
		case i == 1:
			caps[i] = 1
		case i == k-1:
			caps[i] = s.R / spots[0].R
		default:
			caps[i] = middleCap
		}
	}
	// Place the circles' symbols, shrinking any that the grid's
	// coarseness makes bump into another.
	for i := range out {
		for tries := 0; !f.fits(outlines[i], out[i], i) && tries < 40; tries++ {
			out[i].R *= 0.95
		}
		f.claim(outlines[i], out[i], i)
	}
	step := make([]float64, k)
	for i := range step {
		step[i] = 0.1
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	for round := 0; round < 30; round++ {
		moved := false
		// The largest first, then the others in a new order each round.
		rng.Shuffle(k-1, func(a, b int) { order[a+1], order[b+1] = order[b+1], order[a+1] })
		for _, i := range order {
			if step[i] < 0.004 {
				continue
			}
			limit := caps[i] * out[0].R
			if i == 0 {
				limit = math.Inf(1)
			}
			grow := math.Min(1+step[i], limit/out[i].R)
			if grow <= 1.002 {
				continue
			}
			f.release(i)
			if s, ok := f.grow(outlines[i], out[i], i, grow, rng); ok {
				out[i] = s
				moved = true
			} else {
				step[i] /= 2
			}
			f.claim(outlines[i], out[i], i)
		}
		if !moved && !anyLeft(step) {
			break
		}
	}
	return out
}

func anyLeft(step []float64) bool {
	for _, s := range step {
		if s >= 0.004 {
			return true
		}
	}
	return false
}

// turned maps an angle in [0, 360) evenly onto -turn..turn, in [0, 360).
func turned(a, turn float64) float64 {
	if turn >= 180 {
		return a
	}
	return normAngle(a/360*2*turn - turn)
}

func normAngle(a float64) float64 {
	a = math.Mod(a, 360)
	if a < 0 {
		a += 360
	}
	if a >= 360 {
		a = 0
	}
	return a
}

// withinTurn reports whether angle a (0 ≤ a < 360) is at most turn
// degrees from upright either way.
func withinTurn(a, turn float64) bool {
	return a <= turn || a >= 360-turn
}

// fitter is the grid of cells over [-1, 1]², each free, outside the card
// (with its gap) or taken by one symbol.
type fitter struct {
	h     float64 // side of a cell in card units
	owner []int16 // 0 free, -1 outside the card, i+1 taken by symbol i
	cells [][]int32
	buf   []int32
}

func newFitter(shape Shape) *fitter {
	n := fitCells
	f := &fitter{h: 2 / float64(n), owner: make([]int16, n*n), cells: make([][]int32, MaxSymbols)}
	// A cell is outside when ink within it could be nearer the edge than
	// the gap.
	lim := 1 - InkGap - f.h*math.Sqrt2/2
	for y := 0; y < n; y++ {
		cy := -1 + (float64(y)+0.5)*f.h
		for x := 0; x < n; x++ {
			cx := -1 + (float64(x)+0.5)*f.h
			var d float64
			if shape == Round {
				d = math.Hypot(cx, cy)
			} else {
				d = math.Max(math.Abs(cx), math.Abs(cy))
			}
			if d > lim {
				f.owner[y*n+x] = -1
			}
		}
	}
	return f
}

// footprint calls visit with every cell that symbol o placed at s may
// reach with its ink, its padding and half the gap, until visit returns
// false. Two symbols whose footprints share no cell keep the gap between
// their ink: a point halfway between two inked points nearer than the gap
// lies in a cell whose centre both footprints reach.
func (f *fitter) footprint(o *Outline, s Spot, visit func(c int32) bool) {
	n := fitCells
	half := f.h * math.Sqrt2 / 2
	thr := (half+InkGap/2)/s.R + o.pad
	reach := s.R * (1 + thr + 2*o.cell)
	sin, cos := math.Sincos(s.Angle * math.Pi / 180)
	y0 := max(0, int(math.Floor((s.Y-reach+1)/f.h)))
	y1 := min(n-1, int(math.Floor((s.Y+reach+1)/f.h)))
	inv := 1 / s.R
	// A cell is reached when the lower bound on its distance to the ink
	// (see Outline.distance) is at most thr.
	lim := float32(thr + o.cell*math.Sqrt2)
	on := o.n
	du, dv := cos*f.h*inv, -sin*f.h*inv // per cell to the right
	for y := y0; y <= y1; y++ {
		cy := -1 + (float64(y)+0.5)*f.h
		dy := cy - s.Y
		w := reach*reach - dy*dy
		if w < 0 {
			continue
		}
		w = math.Sqrt(w)
		x0 := max(0, int(math.Floor((s.X-w+1)/f.h)))
		x1 := min(n-1, int(math.Floor((s.X+w+1)/f.h)))
		dx := -1 + (float64(x0)+0.5)*f.h - s.X
		u := (cos*dx + sin*dy) * inv
		v := (-sin*dx + cos*dy) * inv
		for x := x0; x <= x1; x, u, v = x+1, u+du, v+dv {
			gx := int((u + 1) / o.cell)
			gy := int((v + 1) / o.cell)
			var reached bool
			if u > -1 && v > -1 && gx < on && gy < on {
				reached = o.dist[gy*on+gx] <= lim
			} else {
				reached = o.distance(u, v) <= thr
			}
			if reached && !visit(int32(y*n+x)) {
				return
			}
		}
	}
}

// fits reports whether symbol i fits at s: its footprint meets neither the
// card's edge nor another symbol.
func (f *fitter) fits(o *Outline, s Spot, i int) bool {
	ok := true
	me := int16(i + 1)
	f.footprint(o, s, func(c int32) bool {
		if w := f.owner[c]; w != 0 && w != me {
			ok = false
		}
		return ok
	})
	return ok
}

// bumps returns how many cells of symbol i's footprint at s are taken or
// outside the card, and their centroid.
func (f *fitter) bumps(o *Outline, s Spot, i int) (int, float64, float64) {
	count, sx, sy := 0, 0.0, 0.0
	me := int16(i + 1)
	f.footprint(o, s, func(c int32) bool {
		if w := f.owner[c]; w != 0 && w != me {
			count++
			sx += float64(c % fitCells)
			sy += float64(c / fitCells)
		}
		return true
	})
	if count == 0 {
		return 0, 0, 0
	}
	return count, -1 + (sx/float64(count)+0.5)*f.h, -1 + (sy/float64(count)+0.5)*f.h
}

// claim marks symbol i's footprint at s as taken by it.
func (f *fitter) claim(o *Outline, s Spot, i int) {
	me := int16(i + 1)
	cells := f.cells[i][:0]
	f.footprint(o, s, func(c int32) bool {
		if f.owner[c] == 0 {
			f.owner[c] = me
			cells = append(cells, c)
		}
		return true
	})
	f.cells[i] = cells
}

// release frees the cells symbol i takes.
func (f *fitter) release(i int) {
	for _, c := range f.cells[i] {
		f.owner[c] = 0
	}
	f.cells[i] = f.cells[i][:0]
}

// grow tries to make symbol i (released from the grid) larger by the
// factor g: in place, then moved away from what it bumps into, then also
// turned a little either way. It returns the new spot and true, or false
// if none of these fits.
func (f *fitter) grow(o *Outline, s Spot, i int, g float64, rng *rand.Rand) (Spot, bool) {
	c := s
	c.R *= g
	if f.fits(o, c, i) {
		return c, true
	}
	n, bx, by := f.bumps(o, c, i)
	if n == 0 {
		return c, true
	}
	dx, dy := c.X-bx, c.Y-by
	d := math.Hypot(dx, dy)
	if d < 1e-9 {
		a := rng.Float64() * 2 * math.Pi
		dx, dy, d = math.Cos(a), math.Sin(a), 1
	}
	dx, dy = dx/d, dy/d
	// Move by about the overlap: the bumped cells' area spread along the
	// symbol's growing rim.
	push := math.Max(f.h, float64(n)*f.h*f.h/(c.R*1.5))
	// Straight away from what it bumps into, then aslant, each also
	// turned a little either way.
	dirs := [][2]float64{{dx, dy}, {dx - dy, dy + dx}, {dx + dy, dy - dx}}
	turns := []float64{0, 6, -6, 20, -20}
	for _, m := range []float64{1, 2} {
		for _, dir := range dirs {
			for _, t := range turns {
				a := normAngle(s.Angle + t + (rng.Float64()-0.5)*2)
				if o.turn < 180 && !withinTurn(a, o.turn) {
					continue
				}
				try := Spot{X: c.X + dir[0]*push*m, Y: c.Y + dir[1]*push*m, R: c.R, Angle: a}
				if f.fits(o, try, i) {
					return try, true
				}
			}
		}
	}
	return s, false
}
