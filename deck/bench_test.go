package deck

import (
	"fmt"
	"io"
	"testing"
)

var benchOrders = []int{7, 101, 1009}

// BenchmarkGenerate measures building a full deck (plane and tables).
func BenchmarkGenerate(b *testing.B) {
	for _, q := range benchOrders {
		b.Run(fmt.Sprintf("order=%d", q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(q, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerify measures verifying a generated deck from its structure.
func BenchmarkVerify(b *testing.B) {
	for _, q := range benchOrders {
		d, _ := New(q, 0)
		b.Run(fmt.Sprintf("order=%d", q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := d.Verify(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerifyCards measures verifying an explicit deck, as read from a
// file, by the counting check (symbols relabelled so that the cyclic fast
// path does not apply); order 1009 is out of reach for any pairwise check
// (5·10¹¹ pairs) and is verified from its structure instead.
func BenchmarkVerifyCards(b *testing.B) {
	for _, q := range []int{7, 31, 101} {
		d, _ := New(q, 0)
		c := NewCards()
		for i := 0; i < d.Len(); i++ {
			card := d.Card(i)
			for x := range card {
				card[x] = (card[x] * 7919) % (2 * d.Symbols()) // injective relabelling
			}
			c.Add(card)
		}
		b.Run(fmt.Sprintf("order=%d", q), func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Verify(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.Len())*float64(d.Len()-1)/2*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		})
	}
}

// BenchmarkCommon measures the common-symbol lookup of two cards.
func BenchmarkCommon(b *testing.B) {
	for _, q := range benchOrders {
		d, _ := New(q, 0)
		n := d.Len()
		b.Run(fmt.Sprintf("order=%d", q), func(b *testing.B) {
			i, j, sum := 0, n/2, 0
			for b.Loop() {
				sum += d.Common(i, j)
				i++
				if i == n {
					i = 0
				}
				if i == j {
					i++
				}
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}

// BenchmarkWriteText256 measures formatting the order-256 deck as text
// (65,793 cards, about 98 MB).
func BenchmarkWriteText256(b *testing.B) {
	d, _ := New(256, 0)
	b.SetBytes(98_000_000)
	for b.Loop() {
		if err := WriteText(io.Discard, d); err != nil {
			b.Fatal(err)
		}
	}
}
