package deck

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// integerModNDeck is the construction found in many public generators: the
// affine plane over the integers mod n plus its points at infinity. Point
// (x, y) is x·n + y, slope m's point at infinity is n² + m and the vertical
// one n² + n. It is a projective plane only when n is prime.
func integerModNDeck(n int) *Cards {
	c := NewCards()
	for m := 0; m < n; m++ {
		for b := 0; b < n; b++ {
			card := []int{n*n + m}
			for x := 0; x < n; x++ {
				card = append(card, x*n+(m*x+b)%n)
			}
			c.Add(card)
		}
	}
	for x := 0; x < n; x++ {
		card := []int{n*n + n}
		for y := 0; y < n; y++ {
			card = append(card, x*n+y)
		}
		c.Add(card)
	}
	infinity := []int{}
	for m := 0; m <= n; m++ {
		infinity = append(infinity, n*n+m)
	}
	c.Add(infinity)
	return c
}

func TestVerifyRejectsIntegerMod4Deck(t *testing.T) {
	_, err := integerModNDeck(4).Verify()
	var flaw *Flaw
	if !errors.As(err, &flaw) {
		t.Fatalf("Verify accepted the mod-4 deck (err = %v)", err)
	}
	// Slopes 0 and 2 through the origin: y = 0 and y = 2x mod 4 meet at
	// x = 0 and x = 2.
	want := &Flaw{A: 0, B: 8, Shared: []int{0, 8}}
	if !reflect.DeepEqual(flaw, want) {
		t.Fatalf("flaw = %+v (%v), want %+v", flaw, flaw, want)
	}
	if got, want := flaw.Error(), "cards 0 and 8 share 2 symbols (0, 8)"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
	if bruteForceFlaw(integerModNDeck(4)) == nil {
		t.Fatal("brute force disagrees: it finds no flaw")
	}
}

func TestVerifyAcceptsIntegerModPrimeDecks(t *testing.T) {
	for _, n := range []int{2, 3, 5, 7, 11} {
		rep, err := integerModNDeck(n).Verify()
		if err != nil {
			t.Fatalf("mod-%d deck: %v", n, err)
		}
		if rep.Cards != n*n+n+1 || rep.Symbols != n*n+n+1 || rep.MinPerCard != n+1 || rep.MaxPerSymbol != n+1 || rep.Cyclic {
			t.Fatalf("mod-%d deck: report %+v", n, rep)
		}
	}
	for _, n := range []int{4, 6, 8, 9} {
		if _, err := integerModNDeck(n).Verify(); err == nil {
			t.Fatalf("mod-%d deck accepted", n)
		}
	}
}

// bruteForceFlaw compares every pair of cards symbol by symbol: the slow
// reference for Verify.
func bruteForceFlaw(c *Cards) *Flaw {
	for b := 0; b < c.Len(); b++ {
		cb := c.Card(b)
		for x := range cb {
			for y := x + 1; y < len(cb); y++ {
				if cb[x] == cb[y] {
					return &Flaw{A: b, B: b, Shared: []int{int(cb[x])}}
				}
			}
		}
		for a := 0; a < b; a++ {
			shared := []int{}
			for _, s := range c.Card(a) {
				if slices.Contains(cb, s) {
					shared = append(shared, int(s))
				}
			}
			if len(shared) != 1 {
				slices.Sort(shared)
				return &Flaw{A: a, B: b, Shared: shared}
			}
		}
	}
	return nil
}

// TestVerifyMatchesBruteForce corrupts real decks at random (replace a
// symbol, drop one, duplicate one, swap in a foreign id, shuffle symbol ids)
// and checks that Verify finds exactly the flaw that comparing all pairs
// finds first, and that untouched decks pass.
func TestVerifyMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	orders := []int{2, 3, 4, 5, 7, 8, 9}
	for trial := 0; trial < 400; trial++ {
		q := orders[rng.IntN(len(orders))]
		n := q*q + q + 1
		d, _ := New(q, 2+rng.IntN(n-1))
		cards := make([][]int, d.Len())
		for i := range cards {
			cards[i] = d.Card(i)
		}
		// Relabel symbols so that the cyclic fast path does not apply to
		// half the trials.
		if rng.IntN(2) == 0 {
			perm := rng.Perm(d.Symbols())
			for _, card := range cards {
				for x := range card {
					card[x] = perm[card[x]] * 3
				}
			}
		}
		if trial%4 != 0 {
			i := rng.IntN(len(cards))
			card := cards[i]
			switch rng.IntN(4) {
			case 0:
				card[rng.IntN(len(card))] = rng.IntN(3 * n)
			case 1:
				x := rng.IntN(len(card))
				cards[i] = append(card[:x:x], card[x+1:]...)
			case 2:
				cards[i] = append(card, card[rng.IntN(len(card))])
			case 3:
				card[rng.IntN(len(card))] = 1 << 30
			}
		}
		c := NewCards()
		for _, card := range cards {
			c.Add(card)
		}
		want := bruteForceFlaw(c)
		rep, err := c.Verify()
		if want == nil {
			if err != nil {
				t.Fatalf("trial %d: Verify = %v, brute force finds no flaw", trial, err)
			}
			if rep.Cards != len(cards) {
				t.Fatalf("trial %d: report %+v", trial, rep)
			}
			continue
		}
		var got *Flaw
		if !errors.As(err, &got) || !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: Verify = %v, brute force = %v", trial, err, want)
		}
	}
}

func TestVerifyCyclicFastPath(t *testing.T) {
	for _, q := range []int{2, 4, 7, 16, 101} {
		d, _ := New(q, 0)
		rep, err := CardsOf(d).Verify()
		if err != nil {
			t.Fatalf("order %d: %v", q, err)
		}
		if !rep.Cyclic {
			t.Fatalf("order %d: the generated deck was not recognised as cyclic", q)
		}
	}
	// A cyclic-looking deck whose base is not a difference set must fail.
	c := NewCards()
	n := 7
	for j := 0; j < n; j++ {
		c.Add([]int{j % n, (j + 1) % n, (j + 2) % n}) // {0,1,2}: 1−0 = 2−1
	}
	if _, err := c.Verify(); err == nil {
		t.Fatal("accepted translates of {0, 1, 2} mod 7")
	}
}

func TestVerifySmallCases(t *testing.T) {
	if _, err := NewCards().Verify(); err == nil {
		t.Fatal("accepted an empty deck")
	}
	one := NewCards()
	one.Add([]int{4, 5, 6})
	if rep, err := one.Verify(); err != nil || rep.Cards != 1 {
		t.Fatalf("one card: %+v, %v", rep, err)
	}
	dup := NewCards()
	dup.Add([]int{1, 2, 3})
	dup.Add([]int{3, 4, 4})
	_, err := dup.Verify()
	if err == nil || err.Error() != "card 1 shows symbol 4 twice" {
		t.Fatalf("err = %v", err)
	}
	none := NewCards()
	none.Add([]int{1, 2})
	none.Add([]int{3, 4})
	if _, err := none.Verify(); err == nil || err.Error() != "cards 0 and 1 share no symbol" {
		t.Fatalf("err = %v", err)
	}
}

func TestVerifySingles(t *testing.T) {
	d, _ := New(5, 0)
	cards := CardsOf(d)
	singles := NewCards()
	for s := 0; s < d.Symbols(); s++ {
		singles.Add([]int{s})
	}
	if err := VerifySingles(cards, singles); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]int{{1, 2}, {0}, {99}, {}} {
		s := NewCards()
		s.Add([]int{0})
		s.Add(bad)
		if err := VerifySingles(cards, s); err == nil {
			t.Errorf("accepted one-symbol cards [[0] %v]", bad)
		}
	}
}
