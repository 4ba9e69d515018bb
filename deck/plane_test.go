package deck

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkAllPairs verifies a deck pair by pair with an oracle that shares no
// code with Deck.Common or Verify: it builds every card explicitly and, for
// each card, counts how often it meets every earlier card through the
// incidence lists of its symbols. Every pair must meet exactly once, at the
// symbol Common reports, and Has must agree with the cards.
func checkAllPairs(t *testing.T, d *Deck) {
	t.Helper()
	n, k, syms := d.Len(), d.SymbolsPerCard(), d.Symbols()
	cards := make([][]int, n)
	on := make([][]int32, syms) // cards showing each symbol, in card order
	for i := range cards {
		cards[i] = d.Card(i)
		if len(cards[i]) != k {
			t.Fatalf("order %d: card %d has %d symbols, want %d", d.Order(), i, len(cards[i]), k)
		}
		if !slices.IsSorted(cards[i]) {
			t.Fatalf("order %d: card %d is not sorted: %v", d.Order(), i, cards[i])
		}
		for x, s := range cards[i] {
			if s < 0 || s >= syms || (x > 0 && s == cards[i][x-1]) {
				t.Fatalf("order %d: card %d has a bad or repeated symbol %d", d.Order(), i, s)
			}
			if !d.Has(i, s) {
				t.Fatalf("order %d: Has(%d, %d) = false for a symbol on the card", d.Order(), i, s)
			}
			on[s] = append(on[s], int32(i))
		}
	}
	for s, list := range on {
		if len(list) == 0 {
			t.Fatalf("order %d, %d cards: symbol %d is on no card", d.Order(), n, s)
		}
	}
	count := make([]int32, n)
	point := make([]int32, n)
	for i := range cards {
		for _, s := range cards[i] {
			for _, j := range on[s] {
				if int(j) >= i {
					break
				}
				count[j]++
				point[j] = int32(s)
			}
		}
		for j := 0; j < i; j++ {
			if count[j] != 1 {
				t.Fatalf("order %d: cards %d and %d share %d symbols", d.Order(), j, i, count[j])
			}
			if c := d.Common(j, i); c != int(point[j]) || d.Common(i, j) != c {
				t.Fatalf("order %d: Common(%d, %d) = %d, but they share %d", d.Order(), j, i, c, point[j])
			}
			count[j] = 0
		}
	}
}

// TestEveryPrimePowerUpTo128AllPairs is the exhaustive check: every pair of
// cards of every plane of prime-power order up to 128 (16,513 cards at 128).
func TestEveryPrimePowerUpTo128AllPairs(t *testing.T) {
	for _, q := range primePowersUpTo(128) {
		t.Run(fmt.Sprint(q), func(t *testing.T) {
			t.Parallel()
			d, err := New(q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if d.Len() != q*q+q+1 || d.Symbols() != q*q+q+1 || d.SymbolsPerCard() != q+1 {
				t.Fatalf("order %d: %d cards, %d symbols, %d per card", q, d.Len(), d.Symbols(), d.SymbolsPerCard())
			}
			checkAllPairs(t, d)
			// Each symbol on exactly q+1 cards.
			freq := make([]int, d.Symbols())
			for i := 0; i < d.Len(); i++ {
				for _, s := range d.Card(i) {
					freq[s]++
				}
			}
			for s, f := range freq {
				if f != q+1 {
					t.Fatalf("order %d: symbol %d is on %d cards, want %d", q, s, f, q+1)
				}
			}
			if err := d.Verify(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestLargeOrdersSampled checks random pairs of the largest planes, which are
// too big to check exhaustively, by intersecting the derived cards.
func TestLargeOrdersSampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, q := range []int{256, 343, 1009, 1021, 1024, 2048} {
		d, err := New(q, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Verify(); err != nil {
			t.Fatal(err)
		}
		for range 300 {
			i, j := rng.IntN(d.Len()), rng.IntN(d.Len())
			if i == j {
				continue
			}
			a, b := d.Card(i), d.Card(j)
			var shared []int
			for _, s := range a {
				if _, ok := slices.BinarySearch(b, s); ok {
					shared = append(shared, s)
				}
			}
			if len(shared) != 1 || shared[0] != d.Common(i, j) {
				t.Fatalf("order %d: cards %d and %d share %v, Common says %d", q, i, j, shared, d.Common(i, j))
			}
		}
	}
}

func TestPlaneVerifyDetectsCorruption(t *testing.T) {
	p, err := NewPlane(7)
	if err != nil {
		t.Fatal(err)
	}
	bad := &Plane{order: 7, n: p.n, base: slices.Clone(p.base)}
	bad.base[3]++ // no longer a difference set (or no longer increasing)
	if err := bad.Verify(); err == nil {
		t.Fatalf("Verify accepted %v, which is not a perfect difference set mod %d", bad.base, p.n)
	}
}

func TestPlaneDeterministic(t *testing.T) {
	for _, q := range []int{4, 9, 27, 101} {
		a, _ := NewPlane(q)
		b, _ := NewPlane(q)
		if !slices.Equal(a.DifferenceSet(), b.DifferenceSet()) {
			t.Fatalf("order %d: two builds differ", q)
		}
	}
}

// TestSubsetsKeepOneMatch is the property test on random subsets: any order,
// any card count, every pair still shares exactly one symbol, symbol ids are
// contiguous and every one is used, and the cards are the plane's first M
// lines with their points renumbered in order.
func TestSubsetsKeepOneMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	orders := primePowersUpTo(32)
	for trial := 0; trial < 150; trial++ {
		q := orders[rng.IntN(len(orders))]
		n := q*q + q + 1
		m := 2 + rng.IntN(n-1)
		d, err := New(q, m)
		if err != nil {
			t.Fatal(err)
		}
		if d.Len() != m {
			t.Fatalf("New(%d, %d) has %d cards", q, m, d.Len())
		}
		checkAllPairs(t, d)
		if err := d.Verify(); err != nil {
			t.Fatal(err)
		}
		full, _ := New(q, 0)
		rank := map[int]int{}
		for i := 0; i < m; i++ {
			for _, s := range full.Card(i) {
				rank[s] = 0
			}
		}
		if len(rank) != d.Symbols() {
			t.Fatalf("order %d, %d cards: %d symbols used, deck says %d", q, m, len(rank), d.Symbols())
		}
		points := make([]int, 0, len(rank))
		for s := range rank {
			points = append(points, s)
		}
		slices.Sort(points)
		for id, s := range points {
			rank[s] = id
		}
		for i := 0; i < m; i++ {
			want := full.Card(i)
			for x := range want {
				want[x] = rank[want[x]]
			}
			if got := d.Card(i); !slices.Equal(got, want) {
				t.Fatalf("order %d, %d cards: card %d = %v, want %v", q, m, i, got, want)
			}
		}
		if d.Has(0, -1) || d.Has(0, d.Symbols()) {
			t.Fatalf("Has accepts an id out of range")
		}
	}
}

func TestNewRejectsBadCardCounts(t *testing.T) {
	for _, m := range []int{-1, 1, 58, 1000} {
		_, err := New(7, m)
		var ce *CardsError
		if !errors.As(err, &ce) {
			t.Fatalf("New(7, %d): err = %v, want *CardsError", m, err)
		}
	}
	_, err := New(7, 58)
	if want := "--cards 58: a deck of order 7 has only 57 cards; use 2..57, or a larger order"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}
