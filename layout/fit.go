package layout

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// InkGap is the least space kept between the ink of two symbols and
// between ink and the card's edge, in card units, when symbols are packed
// by their outlines (Fit).
const InkGap = 0.01

// passCells are the sides of the grids of cells over [-1, 1]² on which
// Fit keeps track of the space the symbols take, one for each growth: the
// first, from the circles, takes the largest steps on the coarsest grid,
// where a try costs least; each after a shake takes a finer one; the last
// takes small steps on the finest, which leaves the least room unused
// around the ink.
var passCells = [shakes + 2]int{128, 160, 224, 384}

// SizeRatio is the least ratio of the largest symbol's size (its enclosing
// circle) to the smallest's on a card that Fit keeps: the smallest never
// grows beyond 1/SizeRatio of the largest.
const SizeRatio = 2

// middleCap is the largest share of the largest symbol's size that a
// symbol between the two large ones and the smallest grows to.
const middleCap = 0.95

// Growth: a symbol grows by at most 10 % a step (3 % in the last growth),
// halves its step when it cannot take it, and stops trying when the step
// falls under minStep; after the symbols stop growing, they are shaken
// and grow again, shakes times.
const (
	minStep = 0.004
	shakes  = 2
)

// Fit packs symbols by their outlines, starting from circles: spots as
// Arrange returns them (ordered from largest to smallest), the outline of
// the symbol that goes into each, the card's shape and a seed. Every
// symbol is placed with its enclosing circle on its spot, turned as far as
// its outline allows, and then the symbols grow in turn — each moving
// away from what it bumps into and turning a little when that lets it
// grow more — into the room their outlines leave between them, until none
// can grow; then they are shaken a little and grow again, each time on a
// finer grid of cells (passCells), and grow a last time on the finest. The
// largest stays the largest, at least SizeRatio times the smallest. The
// result keeps the spots' order; a spot's circle is the symbol's enclosing
// circle, and circles may now overlap where the ink does not. No two symbols' ink comes closer than InkGap, nor any ink to
// the card's edge, whatever the outlines. The result depends only on the
// arguments.
func Fit(spots []Spot, outlines []*Outline, shape Shape, seed uint64) []Spot {
	if len(spots) != len(outlines) {
		panic(fmt.Sprintf("layout: Fit: %d spots but %d outlines", len(spots), len(outlines)))
	}
	f := newFitter(shape, passCells[0])
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
			caps[i] = 1 / SizeRatio
		default:
			caps[i] = middleCap
		}
	}
	// Place the symbols, shrinking any that the grid's coarseness makes
	// bump into another.
	for i := range out {
		if i == k-1 {
			out[i].R = math.Min(out[i].R, out[0].R/SizeRatio)
		}
		for tries := 0; !f.fits(outlines[i], out[i], i) && tries < 80; tries++ {
			out[i].R *= 0.97
		}
		f.claim(outlines[i], out[i], i)
	}
	step := make([]float64, k)
	for pass, n := range passCells {
		first := 0.1
		if pass > 0 {
			f = newFitter(shape, n)
			for i := range out {
				f.claim(outlines[i], out[i], i)
			}
		}
		if pass == len(passCells)-1 {
			first = 0.03
		} else if pass > 0 {
			f.shake(outlines, out, rng)
		}
		f.growAll(outlines, out, caps, step, first, rng)
	}
	return out
}

// growAll lets the symbols grow in turns, each by up to first at a time,
// until none can grow by minStep (see grow).
func (f *fitter) growAll(outlines []*Outline, out []Spot, caps, step []float64, first float64, rng *rand.Rand) {
	k := len(out)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	for i := range step {
		step[i] = first
	}
	for round := 0; round < 30 && anyLeft(step); round++ {
		// The largest first, then the others in a new order each round.
		rng.Shuffle(k-1, func(a, b int) { order[a+1], order[b+1] = order[b+1], order[a+1] })
		for _, i := range order {
			if step[i] < minStep {
				continue
			}
			limit := caps[i] * out[0].R
			grow := math.Min(1+step[i], limit/out[i].R)
			if grow <= 1+minStep/2 {
				step[i] = 0
				continue
			}
			f.release(i)
			if s, ok := f.grow(outlines[i], out[i], i, grow, rng); ok {
				out[i] = s
				f.claim(outlines[i], out[i], i)
			} else {
				step[i] /= 2
				f.restore(i)
			}
		}
	}
}

// shake moves every symbol a little, in a random direction and turned a
// little, where it still fits, so that the next growth starts from a new
// arrangement.
func (f *fitter) shake(outlines []*Outline, out []Spot, rng *rand.Rand) {
	for i, o := range outlines {
		f.release(i)
		for try := 0; try < 4; try++ {
			a := rng.Float64() * 2 * math.Pi
			d := f.h * (1 + 3*rng.Float64())
			s := out[i]
			s.X += d * math.Cos(a)
			s.Y += d * math.Sin(a)
			s.Angle = normAngle(s.Angle + (rng.Float64()-0.5)*20)
			if o.turn < 180 && !withinTurn(s.Angle, o.turn) {
				continue
			}
			if f.fits(o, s, i) {
				out[i] = s
				break
			}
		}
		f.claim(o, out[i], i)
	}
}

func anyLeft(step []float64) bool {
	for _, s := range step {
		if s >= minStep {
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
	n     int     // cells a side
	h     float64 // side of a cell in card units
	owner []int16 // 0 free, -1 outside the card, i+1 taken by symbol i
	// taken counts the cells of each block of blockSide×blockSide cells
	// that are not free, so that checks skip free blocks.
	taken []int32
	// blockOf is the block of each cell.
	blockOf []int32
	cells   [][]int32
	buf     []int32
	// hints are the last cells where fits found a symbol bumping into
	// something (-1 for none yet), next the one to replace: the tries of
	// a growth differ little, so these cells are checked first, and
	// most tries that fail fail on one of them without a scan.
	hints [fitHints]int32
	next  int
}

// fitHints is how many cells a fitter keeps as hints.
const fitHints = 32

// noHints is a fitter's hints before it has any.
var noHints = func() (h [fitHints]int32) {
	for i := range h {
		h[i] = -1
	}
	return h
}()

func newFitter(shape Shape, n int) *fitter {
	g := blankGrid(shape, n)
	return &fitter{n: n, h: 2 / float64(n), owner: slices.Clone(g.owner), taken: slices.Clone(g.taken), blockOf: g.blockOf, cells: make([][]int32, MaxSymbols), hints: noHints}
}

// blockSide is the side, in cells, of the blocks whose taken cells a
// fitter counts; it divides every side of passCells.
const blockSide = 4

// grid is an empty grid: the cells outside the card marked, the others
// free, and the count of cells outside the card in each block.
type grid struct {
	owner   []int16
	taken   []int32
	blockOf []int32
}

// blankGrids keeps the empty grids of each shape and size (two of each).
var blankGrids sync.Map

func blankGrid(shape Shape, n int) grid {
	key := [2]int{int(shape), n}
	if g, ok := blankGrids.Load(key); ok {
		return g.(grid)
	}
	nb := n / blockSide
	g := grid{owner: make([]int16, n*n), taken: make([]int32, nb*nb), blockOf: make([]int32, n*n)}
	h := 2 / float64(n)
	// A cell is outside when ink within it could be nearer the edge than
	// the gap.
	lim := 1 - InkGap - h*math.Sqrt2/2
	for y := 0; y < n; y++ {
		cy := -1 + (float64(y)+0.5)*h
		for x := 0; x < n; x++ {
			cx := -1 + (float64(x)+0.5)*h
			var d float64
			if shape == Round {
				d = math.Hypot(cx, cy)
			} else {
				d = math.Max(math.Abs(cx), math.Abs(cy))
			}
			g.blockOf[y*n+x] = int32((y/blockSide)*nb + x/blockSide)
			if d > lim {
				g.owner[y*n+x] = -1
				g.taken[(y/blockSide)*nb+x/blockSide]++
			}
		}
	}
	blankGrids.Store(key, g)
	return g
}

// block returns the block of cell c.
func (f *fitter) block(c int32) int32 { return f.blockOf[c] }

// claim marks the free cells of symbol i's footprint at s as taken by
// it. The footprint of symbol o placed at s is every cell that it may
// reach with its ink, its padding and half the gap. Two symbols whose
// footprints share no cell keep the gap between their ink: a point
// halfway between two inked points nearer than the gap lies in a cell
// whose centre both footprints reach.
func (f *fitter) claim(o *Outline, s Spot, i int) {
	me := int16(i + 1)
	cells := f.cells[i][:0]
	n := f.n
	half := f.h * math.Sqrt2 / 2
	thr := (half+InkGap/2)/s.R + o.pad
	reach := s.R * (1 + thr + 2*o.cell)
	sin, cos := math.Sincos(s.Angle * math.Pi / 180)
	y0 := max(0, int(math.Floor((s.Y-reach+1)/f.h)))
	y1 := min(n-1, int(math.Floor((s.Y+reach+1)/f.h)))
	inv := 1 / s.R
	// A cell is reached when the lower bound on its distance to the ink
	// (see Outline.distance) is at most thr.
	lim := uint8(math.Min((thr+o.cell*math.Sqrt2)/(o.cell*distStep), maxDist))
	on, ic := o.n, 1/o.cell
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
			gx := int((u + 1) * ic)
			gy := int((v + 1) * ic)
			var reached bool
			if u > -1 && v > -1 && gx < on && gy < on {
				reached = o.dist[gy*on+gx] <= lim
			} else {
				reached = o.distance(u, v) <= thr
			}
			if c := int32(y*n + x); reached && f.owner[c] == 0 {
				f.owner[c] = me
				f.taken[f.blockOf[c]]++
				cells = append(cells, c)
			}
		}
	}
	f.cells[i] = cells
}

// scanTaken calls visit with every cell of symbol o's footprint at s (see
// claim) that is not free, until visit returns false. It looks only
// at blocks that hold such cells.
func (f *fitter) scanTaken(o *Outline, s Spot, visit func(c int32) bool) {
	n, nb := f.n, f.n/blockSide
	half := f.h * math.Sqrt2 / 2
	thr := (half+InkGap/2)/s.R + o.pad
	reach := s.R * (1 + thr + 2*o.cell)
	sin, cos := math.Sincos(s.Angle * math.Pi / 180)
	inv := 1 / s.R
	lim := uint8(math.Min((thr+o.cell*math.Sqrt2)/(o.cell*distStep), maxDist))
	on, ic := o.n, 1/o.cell
	du, dv := cos*f.h*inv, -sin*f.h*inv
	reach2 := reach * reach
	cellOf := func(p float64) int { return int(math.Floor((p + 1) / f.h)) }
	bx0, bx1 := max(0, cellOf(s.X-reach)/blockSide), min(nb-1, cellOf(s.X+reach)/blockSide)
	by0, by1 := max(0, cellOf(s.Y-reach)/blockSide), min(nb-1, cellOf(s.Y+reach)/blockSide)
	for by := by0; by <= by1; by++ {
		for bx := bx0; bx <= bx1; bx++ {
			if f.taken[by*nb+bx] == 0 {
				continue
			}
			// The block's nearest point to the centre.
			side := f.h * blockSide
			nx := math.Max(-1+float64(bx)*side, math.Min(s.X, -1+float64(bx+1)*side))
			ny := math.Max(-1+float64(by)*side, math.Min(s.Y, -1+float64(by+1)*side))
			if (nx-s.X)*(nx-s.X)+(ny-s.Y)*(ny-s.Y) > reach2 {
				continue
			}
			x0 := bx * blockSide
			for y := by * blockSide; y < (by+1)*blockSide; y++ {
				dy := -1 + (float64(y)+0.5)*f.h - s.Y
				dx := -1 + (float64(x0)+0.5)*f.h - s.X
				u := (cos*dx + sin*dy) * inv
				v := (-sin*dx + cos*dy) * inv
				for x := x0; x < x0+blockSide; x, u, v, dx = x+1, u+du, v+dv, dx+f.h {
					c := y*n + x
					if f.owner[c] == 0 || dx*dx+dy*dy > reach2 {
						continue
					}
					gx := int((u + 1) * ic)
					gy := int((v + 1) * ic)
					var reached bool
					if u > -1 && v > -1 && gx < on && gy < on {
						reached = o.dist[gy*on+gx] <= lim
					} else {
						reached = o.distance(u, v) <= thr
					}
					if reached && !visit(int32(c)) {
						return
					}
				}
			}
		}
	}
}

// fits reports whether symbol i fits at s: its footprint meets neither the
// card's edge nor another symbol.
func (f *fitter) fits(o *Outline, s Spot, i int) bool {
	me := int16(i + 1)
	for _, h := range f.hints {
		if h < 0 {
			continue
		}
		if w := f.owner[h]; w != 0 && w != me && f.reaches(o, s, h) {
			return false
		}
	}
	ok := true
	f.scanTaken(o, s, func(c int32) bool {
		if w := f.owner[c]; w != 0 && w != me {
			ok = false
			f.hints[f.next] = c
			f.next = (f.next + 1) % len(f.hints)
		}
		return ok
	})
	return ok
}

// reaches reports whether cell c is in symbol o's footprint at s (see
// claim), by the outline's lower bound on the distance to its ink
// (Outline.distance). fits only ever refuses a spot on its word.
func (f *fitter) reaches(o *Outline, s Spot, c int32) bool {
	half := f.h * math.Sqrt2 / 2
	thr := (half+InkGap/2)/s.R + o.pad
	reach := s.R * (1 + thr + 2*o.cell)
	dx := -1 + (float64(int(c)%f.n)+0.5)*f.h - s.X
	dy := -1 + (float64(int(c)/f.n)+0.5)*f.h - s.Y
	if dx*dx+dy*dy > reach*reach {
		return false
	}
	sin, cos := math.Sincos(s.Angle * math.Pi / 180)
	u := (cos*dx + sin*dy) / s.R
	v := (-sin*dx + cos*dy) / s.R
	return o.distance(u, v) <= thr
}

// bumps returns how many cells of symbol i's footprint at s are taken or
// outside the card, and their centroid.
func (f *fitter) bumps(o *Outline, s Spot, i int) (int, float64, float64) {
	count, sx, sy := 0, 0.0, 0.0
	me := int16(i + 1)
	f.scanTaken(o, s, func(c int32) bool {
		if w := f.owner[c]; w != 0 && w != me {
			count++
			sx += float64(int(c) % f.n)
			sy += float64(int(c) / f.n)
		}
		return true
	})
	if count == 0 {
		return 0, 0, 0
	}
	return count, -1 + (sx/float64(count)+0.5)*f.h, -1 + (sy/float64(count)+0.5)*f.h
}

// release frees the cells symbol i takes; restore takes them again, as
// long as nothing was claimed in between.
func (f *fitter) release(i int) {
	for _, c := range f.cells[i] {
		f.owner[c] = 0
		f.taken[f.block(c)]--
	}
}

func (f *fitter) restore(i int) {
	me := int16(i + 1)
	for _, c := range f.cells[i] {
		f.owner[c] = me
		f.taken[f.block(c)]++
	}
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
