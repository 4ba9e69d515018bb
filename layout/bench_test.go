package layout

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// BenchmarkArrange lays out one card of k symbols.
func BenchmarkArrange(b *testing.B) {
	for _, k := range []int{3, 6, 8, 14, 24, 32} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			seed := uint64(0)
			for b.Loop() {
				Arrange(k, Round, seed)
				seed++
			}
		})
	}
}

// BenchmarkPlanCard lays out one card of the classic edition through a
// deck plan (symbol choice for the large spots included).
func BenchmarkPlanCard(b *testing.B) {
	e, err := deck.LookupEdition("classic")
	if err != nil {
		b.Fatal(err)
	}
	d, err := e.Deck()
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewPlan(d, Round, 1)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		p.Card(i % d.Len())
		i++
	}
}

// BenchmarkFit packs one card of 8 symbols by their outlines (symbols made
// of discs, with masks of 256 cells a side, as a deck of 8 symbols a card
// has), from Arrange's circles.
func BenchmarkFit(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	outlines := make([]*Outline, 8)
	for i := range outlines {
		outlines[i] = randomBlob(rng).outline(b, 256, 180)
	}
	seed := uint64(0)
	for b.Loop() {
		Fit(Arrange(8, Round, seed), outlines, Round, seed)
		seed++
	}
}
