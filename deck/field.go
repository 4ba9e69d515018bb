package deck

import "fmt"

// Field is the finite field GF(q) with q = p^k elements.
//
// Elements are the integers 0..q-1. An element stands for the polynomial over
// GF(p) whose coefficients are its base-p digits (least significant digit =
// constant term), so 0 is the zero, 1 is the unit, and for a prime q the
// elements are simply the residues mod q. Multiplication goes through
// logarithm tables with respect to a primitive element and addition, for
// q = p^k with k > 1, through Zech logarithms, so every operation is O(1)
// with O(q) memory.
//
// Integer arithmetic mod q is a field only when q is prime; Field is correct
// for every prime power, which is what decks of order 4, 8, 9, 16, ... need.
type Field struct {
	p, k, q int
	// exp[i] = g^i for i in [0, 2(q-1)), so exp[log a + log b] needs no reduction.
	exp []int32
	// log[a] = i with g^i = a, for a != 0; log[0] is unused.
	log []int32
	// zech[i] = log(1 + g^i), or -1 where 1 + g^i = 0. Nil for prime fields.
	zech []int32
}

// NewField returns GF(q). It fails unless q is a prime power of at least 2.
func NewField(q int) (*Field, error) {
	p, k, ok := primePower(q)
	if !ok {
		return nil, fmt.Errorf("GF(%d) does not exist: %d is not a prime power", q, q)
	}
	f := &Field{p: p, k: k, q: q}
	if k == 1 {
		f.buildPrime()
	} else {
		f.buildExtension()
	}
	return f, nil
}

// Order returns q, the number of elements.
func (f *Field) Order() int { return f.q }

// Characteristic returns p, the prime with q = p^k.
func (f *Field) Characteristic() int { return f.p }

// Degree returns k, the degree of the field over its prime field.
func (f *Field) Degree() int { return f.k }

// Add returns a + b.
func (f *Field) Add(a, b int) int {
	switch {
	case f.k == 1:
		s := a + b
		if s >= f.q {
			s -= f.q
		}
		return s
	case f.p == 2:
		return a ^ b
	case a == 0:
		return b
	case b == 0:
		return a
	}
	// a + b = a(1 + b/a) = g^(la + zech(lb - la)).
	la, lb := int(f.log[a]), int(f.log[b])
	d := lb - la
	if d < 0 {
		d += f.q - 1
	}
	z := f.zech[d]
	if z < 0 {
		return 0
	}
	return int(f.exp[la+int(z)])
}

// Neg returns -a.
func (f *Field) Neg(a int) int {
	switch {
	case a == 0 || f.p == 2:
		return a
	case f.k == 1:
		return f.q - a
	}
	// -1 = g^((q-1)/2) in odd characteristic.
	return int(f.exp[int(f.log[a])+(f.q-1)/2])
}

// Sub returns a - b.
func (f *Field) Sub(a, b int) int { return f.Add(a, f.Neg(b)) }

// Mul returns a · b.
func (f *Field) Mul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return int(f.exp[f.log[a]+f.log[b]])
}

// Inv returns 1/a. It panics if a is 0, which has no inverse.
func (f *Field) Inv(a int) int {
	if a == 0 {
		panic("deck: inverse of zero in GF(q)")
	}
	l := int(f.log[a])
	if l == 0 {
		return 1
	}
	return int(f.exp[f.q-1-l])
}

// Primitive returns the primitive element g the logarithm tables are built on:
// every non-zero element is a power of g.
func (f *Field) Primitive() int { return int(f.exp[1%len(f.exp)]) }

// Pow returns a^e for e >= 0.
func (f *Field) Pow(a, e int) int {
	if e == 0 {
		return 1
	}
	if a == 0 {
		return 0
	}
	return int(f.exp[(int(f.log[a])*(e%(f.q-1)))%(f.q-1)])
}

// buildPrime fills the tables of GF(p) from the smallest primitive root mod p.
func (f *Field) buildPrime() {
	q := f.q
	f.exp = make([]int32, 2*(q-1))
	f.log = make([]int32, q)
	if q == 2 {
		f.exp[0], f.exp[1] = 1, 1
		return
	}
	for g := 2; g < q; g++ {
		if f.fillTables(func(x int) int { return x * g % q }) {
			return
		}
	}
	panic(fmt.Sprintf("deck: no primitive root mod %d", q))
}

// buildExtension finds the first primitive polynomial of degree k over GF(p)
// (in a fixed enumeration order, so the tables are the same on every run) and
// builds the tables from powers of x modulo it, then the Zech logarithms.
func (f *Field) buildExtension() {
	p, k, q := f.p, f.k, f.q
	f.exp = make([]int32, 2*(q-1))
	f.log = make([]int32, q)
	// poly holds the low coefficients c_0..c_{k-1} of the monic x^k + ... + c_0,
	// enumerated as the base-p digits of code.
	poly := make([]int, k)
	digits := make([]int, k)
	found := false
	for code := 1; code < q && !found; code++ {
		for i, c := 0, code; i < k; i, c = i+1, c/p {
			poly[i] = c % p
		}
		if poly[0] == 0 {
			continue // divisible by x
		}
		// Multiply by x modulo the polynomial: shift digits up and subtract
		// top·poly, since x^k = -(c_{k-1}x^{k-1} + ... + c_0).
		timesX := func(x int) int {
			for i := 0; i < k; i++ {
				digits[i] = x % p
				x /= p
			}
			top := digits[k-1]
			for i := k - 1; i > 0; i-- {
				digits[i] = ((digits[i-1]-top*poly[i])%p + p) % p
			}
			digits[0] = ((-top*poly[0])%p + p) % p
			v := 0
			for i := k - 1; i >= 0; i-- {
				v = v*p + digits[i]
			}
			return v
		}
		found = f.fillTables(timesX)
	}
	if !found {
		panic(fmt.Sprintf("deck: no primitive polynomial of degree %d over GF(%d)", k, p))
	}
	f.zech = make([]int32, q-1)
	for i := 0; i < q-1; i++ {
		// 1 + g^i: add 1 to the constant digit of g^i.
		v := int(f.exp[i])
		c := v % p
		v += (c+1)%p - c
		if v == 0 {
			f.zech[i] = -1
		} else {
			f.zech[i] = f.log[v]
		}
	}
}

// fillTables walks 1, g, g², ... with next(x) = g·x and fills exp and log. It
// reports false, leaving junk in the tables, if g is not primitive: the walk
// returns to 1 (or falls to 0) before q-1 steps.
func (f *Field) fillTables(next func(int) int) bool {
	q := f.q
	x := 1
	for i := 0; i < q-1; i++ {
		if x == 0 || (i > 0 && x == 1) {
			return false
		}
		f.exp[i] = int32(x)
		f.exp[i+q-1] = int32(x)
		f.log[x] = int32(i)
		x = next(x)
	}
	return x == 1
}

// primePower reports whether n = p^k for a prime p and k >= 1.
func primePower(n int) (p, k int, ok bool) {
	if n < 2 {
		return 0, 0, false
	}
	p = smallestPrimeFactor(n)
	for n%p == 0 {
		n /= p
		k++
	}
	return p, k, n == 1
}

// smallestPrimeFactor returns the smallest prime dividing n >= 2.
func smallestPrimeFactor(n int) int {
	if n%2 == 0 {
		return 2
	}
	for d := 3; d*d <= n; d += 2 {
		if n%d == 0 {
			return d
		}
	}
	return n
}

// primeFactors returns the distinct primes dividing n >= 1, in increasing order.
func primeFactors(n int) []int {
	var out []int
	for n > 1 {
		p := smallestPrimeFactor(n)
		out = append(out, p)
		for n%p == 0 {
			n /= p
		}
	}
	return out
}
