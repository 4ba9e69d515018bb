package layout

import (
	"fmt"
	"math"
	"sync"
)

// Outline is the shape of a symbol's ink, for packing symbols by their
// outlines rather than by their enclosing circles. It is a distance field
// over the square [-1, 1]² of the symbol's own coordinates, in which the
// symbol's smallest enclosing circle is the unit disc (y down, like a
// card): for every cell, how far its centre is from the nearest inked
// cell. An Outline is immutable and safe for concurrent use.
type Outline struct {
	n    int
	cell float64 // side of a cell, in symbol units
	// dist is by row, in steps of distStep cells, rounded down, at most
	// maxDist.
	dist []uint8
	// pad is extra room kept around the ink, in symbol units.
	pad float64
	// turn is the largest rotation, in degrees either way from upright.
	turn float64
	// ink is the inked share of the square's cells.
	ink float64
}

// distStep is the step, in cells, in which an outline keeps distances;
// maxDist the most steps it keeps: a cell kept at maxDist may be farther.
const (
	distStep = 1.0 / 4
	maxDist  = math.MaxUint8
)

// MinOutlineSide and MaxOutlineSide bound the side of an outline's mask.
const (
	MinOutlineSide = 16
	MaxOutlineSide = 512
)

// NewOutline returns the outline of a mask of n×n cells covering the
// square [-1, 1]² of the symbol's coordinates, by row from the top left:
// inked[y*n+x] is true where any ink touches the cell. pad is room to keep
// clear around the ink, in symbol units (0 for pictures, more for words
// that must not read as one phrase); turn is the largest rotation the
// symbol may get either way from upright, in degrees (180 for a symbol
// that turns freely, less for words that must stay readable). It fails
// for a mask that is not square, has no ink, or is out of bounds.
func NewOutline(n int, inked []bool, pad, turn float64) (*Outline, error) {
	if n < MinOutlineSide || n > MaxOutlineSide || len(inked) != n*n {
		return nil, fmt.Errorf("layout: an outline mask must be n×n cells with %d ≤ n ≤ %d, not %d cells for n = %d", MinOutlineSide, MaxOutlineSide, len(inked), n)
	}
	if !(pad >= 0) || !(turn >= 0 && turn <= 180) {
		return nil, fmt.Errorf("layout: outline padding %g and turn %g: want padding ≥ 0 and a turn of 0 to 180 degrees", pad, turn)
	}
	d2, count := squaredDistances(n, inked)
	if count == 0 {
		return nil, fmt.Errorf("layout: the outline mask has no ink")
	}
	cell := 2 / float64(n)
	dist := make([]uint8, n*n)
	for i, v := range d2 {
		dist[i] = uint8(math.Min(math.Floor(math.Sqrt(v)/distStep), maxDist))
	}
	return &Outline{n: n, cell: cell, dist: dist, pad: pad, turn: turn, ink: float64(count) / float64(n*n)}, nil
}

// Disc returns the outline of a symbol whose ink fills its enclosing
// circle and that turns freely: packing discs is packing circles.
func Disc() *Outline { return disc() }

// disc makes the outline Disc returns once, when it is first asked for,
// so that a command that lays out no card does not pay for it at start.
var disc = sync.OnceValue(func() *Outline {
	const n = 64
	inked := make([]bool, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			// A cell is inked if any of it is within the unit disc.
			cx, cy := -1+(float64(x)+0.5)*2/n, -1+(float64(y)+0.5)*2/n
			inked[y*n+x] = math.Hypot(cx, cy) <= 1+math.Sqrt2/n
		}
	}
	o, err := NewOutline(n, inked, 0, 180)
	if err != nil {
		panic(err)
	}
	return o
})

// Turn returns the largest rotation the symbol may get, in degrees either
// way from upright.
func (o *Outline) Turn() float64 { return o.turn }

// InkShare returns the share of the unit disc that the mask's inked cells
// cover (at most about 1; an outline's cells are coarse, so this slightly
// overstates the ink).
func (o *Outline) InkShare() float64 { return o.ink * 4 / math.Pi }

// distance returns a lower bound on the distance, in symbol units, from
// the point (u, v) of the symbol's coordinates to its ink.
func (o *Outline) distance(u, v float64) float64 {
	n := o.n
	x := int(math.Floor((u + 1) / o.cell))
	y := int(math.Floor((v + 1) / o.cell))
	// Outside the square, the ink (inside it) is at least as far as the
	// square, and at most as near as from the nearest cell less the way
	// to it.
	out := 0.0
	cx, cy := min(max(x, 0), n-1), min(max(y, 0), n-1)
	if cx != x || cy != y {
		px := -1 + (float64(cx)+0.5)*o.cell
		py := -1 + (float64(cy)+0.5)*o.cell
		out = math.Sqrt((u-px)*(u-px) + (v-py)*(v-py))
	}
	d := float64(o.dist[cy*n+cx]) * distStep * o.cell
	// The point is within half a cell's diagonal of its cell's centre, and
	// ink within a cell may lie anywhere in it.
	return max(out, d-out) - o.cell*math.Sqrt2
}

// squaredDistances returns, for every cell, the squared distance in cells
// from its centre to the nearest inked cell's centre (the exact Euclidean
// distance transform of Felzenszwalb and Huttenlocher), and the number of
// inked cells.
func squaredDistances(n int, inked []bool) ([]float64, int) {
	// Farther than any two cells of the square.
	inf := float64(4 * n * n)
	d := make([]float64, n*n)
	count := 0
	for i, in := range inked {
		if in {
			count++
		} else {
			d[i] = inf
		}
	}
	f := make([]float64, n)
	out := make([]float64, n)
	v := make([]int, n)
	z := make([]float64, n+1)
	// Columns, then rows.
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			f[y] = d[y*n+x]
		}
		transform1D(f, out, v, z)
		for y := 0; y < n; y++ {
			d[y*n+x] = out[y]
		}
	}
	for y := 0; y < n; y++ {
		copy(f, d[y*n:(y+1)*n])
		transform1D(f, out, v, z)
		copy(d[y*n:(y+1)*n], out)
	}
	return d, count
}

// transform1D is the one-dimensional squared distance transform of f
// (lower envelope of parabolas) into out; v and z are scratch space.
func transform1D(f, out []float64, v []int, z []float64) {
	n := len(f)
	k := 0
	v[0] = 0
	z[0], z[1] = math.Inf(-1), math.Inf(1)
	for q := 1; q < n; q++ {
		s := parabolas(f, v[k], q)
		for s <= z[k] {
			k--
			s = parabolas(f, v[k], q)
		}
		k++
		v[k] = q
		z[k] = s
		z[k+1] = math.Inf(1)
	}
	k = 0
	for q := 0; q < n; q++ {
		for z[k+1] < float64(q) {
			k++
		}
		p := v[k]
		out[q] = float64((q-p)*(q-p)) + f[p]
	}
}

// parabolas returns where the parabolas of f rooted at p and q > p meet.
func parabolas(f []float64, p, q int) float64 {
	return ((f[q] + float64(q*q)) - (f[p] + float64(p*p))) / float64(2*(q-p))
}
