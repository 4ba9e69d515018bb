package deck

import (
	"math/rand/v2"
	"testing"
)

// primePowersUpTo lists the prime powers 2..n.
func primePowersUpTo(n int) []int {
	var out []int
	for q := 2; q <= n; q++ {
		if IsPrimePower(q) {
			out = append(out, q)
		}
	}
	return out
}

func TestPrimePower(t *testing.T) {
	tests := []struct{ n, p, k int }{
		{2, 2, 1}, {3, 3, 1}, {4, 2, 2}, {8, 2, 3}, {9, 3, 2}, {16, 2, 4}, {25, 5, 2},
		{27, 3, 3}, {32, 2, 5}, {49, 7, 2}, {121, 11, 2}, {1009, 1009, 1}, {1024, 2, 10}, {4096, 2, 12},
	}
	for _, tt := range tests {
		p, k, ok := primePower(tt.n)
		if !ok || p != tt.p || k != tt.k {
			t.Errorf("primePower(%d) = %d, %d, %v; want %d, %d, true", tt.n, p, k, ok, tt.p, tt.k)
		}
	}
	for _, n := range []int{-4, 0, 1, 6, 10, 12, 14, 15, 18, 20, 100, 1000, 4095} {
		if _, _, ok := primePower(n); ok {
			t.Errorf("primePower(%d) reports a prime power", n)
		}
	}
	if got := len(primePowersUpTo(128)); got != 44 {
		t.Errorf("%d prime powers up to 128, want 44", got)
	}
}

// TestFieldAxiomsExhaustive checks every field axiom on every pair and
// triple of elements for all prime powers up to 32, the orders where integer
// arithmetic mod q goes wrong among them (4, 8, 9, 16, 25, 27, 32).
func TestFieldAxiomsExhaustive(t *testing.T) {
	for _, q := range primePowersUpTo(32) {
		f, err := NewField(q)
		if err != nil {
			t.Fatal(err)
		}
		checkFieldTriples(t, f, func(yield func(a, b, c int)) {
			for a := 0; a < q; a++ {
				for b := 0; b < q; b++ {
					for c := 0; c < q; c++ {
						yield(a, b, c)
					}
				}
			}
		})
		checkFieldStructure(t, f)
	}
}

// TestFieldAxiomsSampled checks the axioms on random triples for larger
// fields, up to the largest supported order.
func TestFieldAxiomsSampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, q := range []int{49, 64, 81, 121, 125, 128, 243, 256, 343, 512, 625, 729, 1009, 1021, 1024, 2048, 2187, 3125, 4096} {
		f, err := NewField(q)
		if err != nil {
			t.Fatal(err)
		}
		checkFieldTriples(t, f, func(yield func(a, b, c int)) {
			for range 20000 {
				yield(rng.IntN(q), rng.IntN(q), rng.IntN(q))
			}
		})
		checkFieldStructure(t, f)
	}
}

func checkFieldTriples(t *testing.T, f *Field, triples func(func(a, b, c int))) {
	t.Helper()
	q := f.Order()
	bad := 0
	triples(func(a, b, c int) {
		if bad > 5 {
			return
		}
		fail := func(what string) {
			bad++
			t.Errorf("GF(%d): %s fails for a=%d b=%d c=%d", q, what, a, b, c)
		}
		if f.Add(a, b) != f.Add(b, a) {
			fail("a+b = b+a")
		}
		if f.Mul(a, b) != f.Mul(b, a) {
			fail("ab = ba")
		}
		if f.Add(f.Add(a, b), c) != f.Add(a, f.Add(b, c)) {
			fail("(a+b)+c = a+(b+c)")
		}
		if f.Mul(f.Mul(a, b), c) != f.Mul(a, f.Mul(b, c)) {
			fail("(ab)c = a(bc)")
		}
		if f.Mul(a, f.Add(b, c)) != f.Add(f.Mul(a, b), f.Mul(a, c)) {
			fail("a(b+c) = ab+ac")
		}
		if f.Sub(f.Add(a, b), b) != a {
			fail("(a+b)-b = a")
		}
		if b != 0 && f.Mul(f.Mul(a, b), f.Inv(b)) != a {
			fail("(ab)/b = a")
		}
		if s := f.Add(a, b); s < 0 || s >= q {
			fail("0 <= a+b < q")
		}
	})
}

// checkFieldStructure checks identities, inverses, the characteristic and
// that the primitive element generates every non-zero element.
func checkFieldStructure(t *testing.T, f *Field) {
	t.Helper()
	q, p := f.Order(), f.Characteristic()
	seen := make([]bool, q)
	x := 1
	for i := 0; i < q-1; i++ {
		if seen[x] || x == 0 {
			t.Fatalf("GF(%d): powers of the primitive element %d repeat after %d steps", q, f.Primitive(), i)
		}
		seen[x] = true
		if f.Pow(f.Primitive(), i) != x {
			t.Fatalf("GF(%d): Pow(g, %d) = %d, want %d", q, i, f.Pow(f.Primitive(), i), x)
		}
		x = f.Mul(x, f.Primitive())
	}
	for a := 0; a < q; a++ {
		if f.Add(a, 0) != a || f.Mul(a, 1) != a || f.Mul(a, 0) != 0 {
			t.Fatalf("GF(%d): identity laws fail for %d", q, a)
		}
		if f.Add(a, f.Neg(a)) != 0 {
			t.Fatalf("GF(%d): a + (-a) = %d for a = %d", q, f.Add(a, f.Neg(a)), a)
		}
		if a != 0 && f.Mul(a, f.Inv(a)) != 1 {
			t.Fatalf("GF(%d): a · a⁻¹ = %d for a = %d", q, f.Mul(a, f.Inv(a)), a)
		}
		sum := 0
		for range p {
			sum = f.Add(sum, a)
		}
		if sum != 0 {
			t.Fatalf("GF(%d): adding %d to itself %d times gives %d, want 0", q, a, p, sum)
		}
	}
}

// TestFieldIsNotIntegersModQ pins down why integer arithmetic mod q fails
// for prime powers that are not prime: it has zero divisors, a field has none.
func TestFieldIsNotIntegersModQ(t *testing.T) {
	for _, q := range []int{4, 8, 9, 16, 25, 27} {
		f, _ := NewField(q)
		p := f.Characteristic()
		if (p*(q/p))%q != 0 {
			t.Fatalf("setup: %d·%d should be 0 mod %d", p, q/p, q)
		}
		for a := 1; a < q; a++ {
			for b := 1; b < q; b++ {
				if f.Mul(a, b) == 0 {
					t.Fatalf("GF(%d): %d·%d = 0, a zero divisor", q, a, b)
				}
			}
		}
	}
}

func TestNewFieldRejectsNonPrimePowers(t *testing.T) {
	for _, q := range []int{0, 1, 6, 10, 12} {
		if _, err := NewField(q); err == nil {
			t.Errorf("NewField(%d) succeeded", q)
		}
	}
}
