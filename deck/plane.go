package deck

import (
	"fmt"
	"slices"
)

// Plane is the finite projective plane of order q in cyclic form: its
// N = q²+q+1 points are the residues mod N, and its N lines are the
// translates L_j = {d + j mod N : d ∈ D} of one perfect difference set D of
// q+1 residues. Every non-zero residue mod N is exactly one difference d−d′
// of elements of D, which is why two lines meet in exactly one point.
//
// D is built with Singer's construction: for a generator α of the cyclic group
// GF(q³)*/GF(q)*, D = {j : α^j lies in the plane spanned by 1 and α}. A Plane
// holds only D and a table of its differences, O(N) memory in all, so any
// line and the common point of any two lines are derived on demand.
type Plane struct {
	order int
	n     int
	// base is D in increasing order.
	base []int32
	// member is D as a bitmap over the residues mod N.
	member []uint64
	// diff[r] is the d in D with d − d′ ≡ r (mod N) for some d′ in D, for
	// every r ≠ 0; diff[0] is unused.
	diff []int32
}

// NewPlane builds the projective plane of order q. It fails with an
// *OrderError for any order that is not a supported prime power.
func NewPlane(q int) (*Plane, error) {
	if err := CheckOrder(q); err != nil {
		return nil, err
	}
	f, err := NewField(q)
	if err != nil {
		return nil, err
	}
	n := q*q + q + 1
	cubic := singerCubic(f, n)
	// Walk α^0, α^1, ..., α^(N-1) as coordinates (c0, c1, c2) on the basis
	// 1, α, α²; α^j lies in span{1, α} exactly when c2 = 0. Multiplying by α
	// shifts the coordinates and reduces with α³ = −(a2α² + a1α + a0).
	base := make([]int32, 0, q+1)
	var c0, c1, c2 = 1, 0, 0
	a0, a1, a2 := cubic[0], cubic[1], cubic[2]
	for j := 0; j < n; j++ {
		if c2 == 0 {
			base = append(base, int32(j))
		}
		c0, c1, c2 = f.Neg(f.Mul(c2, a0)), f.Sub(c0, f.Mul(c2, a1)), f.Sub(c1, f.Mul(c2, a2))
	}
	p := &Plane{order: q, n: n, base: base}
	if err := p.index(); err != nil {
		// Singer's theorem makes this unreachable; failing loudly beats
		// handing out a broken deck.
		return nil, fmt.Errorf("deck: order %d: construction is not a plane: %w", q, err)
	}
	return p, nil
}

// index fills member and diff from base, checking on the way that base is a
// perfect difference set: q+1 distinct residues whose differences are all
// distinct (and so cover every non-zero residue exactly once).
func (p *Plane) index() error {
	n, q := p.n, p.order
	if len(p.base) != q+1 {
		return fmt.Errorf("difference set has %d elements, want %d", len(p.base), q+1)
	}
	p.member = make([]uint64, (n+63)/64)
	for i, d := range p.base {
		if d < 0 || int(d) >= n || (i > 0 && d <= p.base[i-1]) {
			return fmt.Errorf("difference set is not %d increasing residues mod %d", q+1, n)
		}
		p.member[d>>6] |= 1 << (d & 63)
	}
	p.diff = make([]int32, n)
	for i := range p.diff {
		p.diff[i] = -1
	}
	for _, a := range p.base {
		for _, b := range p.base {
			if a == b {
				continue
			}
			r := int(a) - int(b)
			if r < 0 {
				r += n
			}
			if p.diff[r] >= 0 {
				return fmt.Errorf("difference %d occurs twice (%d−%d and %d−…)", r, a, b, p.diff[r])
			}
			p.diff[r] = a
		}
	}
	return nil
}

// Order returns q.
func (p *Plane) Order() int { return p.order }

// Len returns N = q²+q+1, the number of lines (cards) and of points (symbols).
func (p *Plane) Len() int { return p.n }

// LineSize returns q+1, the number of points on a line (symbols on a card).
func (p *Plane) LineSize() int { return p.order + 1 }

// DifferenceSet returns a copy of D, the points of line 0, in increasing order.
func (p *Plane) DifferenceSet() []int {
	out := make([]int, len(p.base))
	for i, d := range p.base {
		out[i] = int(d)
	}
	return out
}

// AppendLine appends the points of line j (0 <= j < N) to dst in increasing
// order and returns the extended slice.
func (p *Plane) AppendLine(dst []int, j int) []int {
	// d + j wraps past N for the largest elements of D; those come first.
	split, _ := slices.BinarySearch(p.base, int32(p.n-j))
	for _, d := range p.base[split:] {
		dst = append(dst, int(d)+j-p.n)
	}
	for _, d := range p.base[:split] {
		dst = append(dst, int(d)+j)
	}
	return dst
}

// Meet returns the point shared by lines i and j, which must differ. O(1).
func (p *Plane) Meet(i, j int) int {
	// The point is d + i = d′ + j, so d − d′ ≡ j − i.
	r := j - i
	if r < 0 {
		r += p.n
	}
	s := int(p.diff[r]) + i
	if s >= p.n {
		s -= p.n
	}
	return s
}

// OnLine reports whether point s lies on line j. O(1).
func (p *Plane) OnLine(j, s int) bool {
	d := s - j
	if d < 0 {
		d += p.n
	}
	return p.member[d>>6]&(1<<(d&63)) != 0
}

// Verify checks from scratch that the plane's lines pairwise meet in exactly
// one point, by checking that D is a perfect difference set mod N. That
// check covers all N(N−1)/2 pairs of lines in O(q²) steps: lines i and j
// meet once for each way of writing j−i as a difference of elements of D.
func (p *Plane) Verify() error {
	check := &Plane{order: p.order, n: p.n, base: p.base}
	return check.index()
}

// singerCubic returns the low coefficients (a0, a1, a2) of the first monic
// cubic x³ + a2x² + a1x + a0 over f, in a fixed enumeration order, that is
// irreducible and whose root α generates GF(q³)*/GF(q)*, a cyclic group of
// order n = q²+q+1: α^(n/r) must lie outside GF(q) for every prime r | n.
func singerCubic(f *Field, n int) [3]int {
	q := f.Order()
	primes := primeFactors(n)
	for code := 0; code < q*q*q; code++ {
		a := [3]int{code % q, code / q % q, code / (q * q)}
		if a[0] == 0 || hasRoot(f, a) {
			continue
		}
		ok := true
		for _, r := range primes {
			x := cubicPow(f, a, n/r)
			if x[1] == 0 && x[2] == 0 {
				ok = false
				break
			}
		}
		if ok {
			return a
		}
	}
	panic(fmt.Sprintf("deck: no Singer cubic over GF(%d)", q))
}

// hasRoot reports whether x³ + a2x² + a1x + a0 has a root in f; a cubic
// without roots is irreducible.
func hasRoot(f *Field, a [3]int) bool {
	for t := 0; t < f.Order(); t++ {
		v := f.Add(f.Mul(f.Add(f.Mul(f.Add(t, a[2]), t), a[1]), t), a[0])
		if v == 0 {
			return true
		}
	}
	return false
}

// cubicPow returns α^e in GF(q)[x]/(x³ + a2x² + a1x + a0), as coefficients
// on 1, α, α².
func cubicPow(f *Field, a [3]int, e int) [3]int {
	result := [3]int{1, 0, 0}
	base := [3]int{0, 1, 0}
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			result = cubicMul(f, a, result, base)
		}
		base = cubicMul(f, a, base, base)
	}
	return result
}

// cubicMul multiplies u and v modulo x³ + a2x² + a1x + a0.
func cubicMul(f *Field, a, u, v [3]int) [3]int {
	var r [5]int
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i+j] = f.Add(r[i+j], f.Mul(u[i], v[j]))
		}
	}
	for d := 4; d >= 3; d-- {
		t := r[d]
		r[d-1] = f.Sub(r[d-1], f.Mul(t, a[2]))
		r[d-2] = f.Sub(r[d-2], f.Mul(t, a[1]))
		r[d-3] = f.Sub(r[d-3], f.Mul(t, a[0]))
	}
	return [3]int{r[0], r[1], r[2]}
}
