package layout

import (
	"fmt"
	"math/rand/v2"

	"github.com/dobble-dev/dobble/deck"
)

// Placement is one symbol of a card and where it sits.
type Placement struct {
	Symbol int
	Spot
}

// Plan lays out every card of a deck. It is immutable and safe for
// concurrent use.
type Plan struct {
	deck  *deck.Deck
	shape Shape
	seed  uint64
	// large[c] lists the symbols that card c shows in its large spots
	// (at most two), chosen so that every symbol is large somewhere.
	large [][]int
	// covered reports whether every symbol got a large spot.
	covered bool
	// outline returns a symbol's outline; nil packs symbols as circles.
	outline func(symbol int) *Outline
}

// NewPlan returns the layout plan of a deck for the given card shape and
// seed. It fails for decks with more than MaxSymbols symbols a card.
func NewPlan(d *deck.Deck, shape Shape, seed uint64) (*Plan, error) {
	k := d.SymbolsPerCard()
	if k < MinSymbols || k > MaxSymbols {
		return nil, fmt.Errorf("cards of %d symbols cannot be laid out; the most is %d (order %d)", k, MaxSymbols, MaxSymbols-1)
	}
	p := &Plan{deck: d, shape: shape, seed: seed}
	p.large, p.covered = assignLarge(d, rand.New(rand.NewPCG(seed, 0x6c61726765)))
	return p, nil
}

// WithOutlines returns a copy of the plan that packs symbols by their
// outlines (see Fit), outline(s) giving symbol s's; it must be safe for
// concurrent use and always return the same outline for a symbol.
func (p *Plan) WithOutlines(outline func(symbol int) *Outline) *Plan {
	q := *p
	q.outline = outline
	return &q
}

// Deck returns the deck the plan lays out.
func (p *Plan) Deck() *deck.Deck { return p.deck }

// Shape returns the card shape.
func (p *Plan) Shape() Shape { return p.shape }

// EverySymbolLarge reports whether every symbol of the deck is large (see
// LargeShare) on at least one card. It is true whenever the deck has at
// least half as many cards as symbols.
func (p *Plan) EverySymbolLarge() bool { return p.covered }

// cardSeed mixes the plan's seed with a card number (SplitMix64), so that
// every card has its own independent layout.
func cardSeed(seed uint64, card int) uint64 {
	z := seed + 0x9E3779B97F4A7C15*uint64(card+1)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Card returns the layout of card i: its symbols, each with its spot, in
// the deck's order of the card's symbols (increasing ids). With outlines,
// the circles are the start of Fit. Calling it twice gives the same
// layout.
func (p *Plan) Card(i int) []Placement {
	syms := p.deck.Card(i)
	seed := cardSeed(p.seed, i)
	spots := Arrange(len(syms), p.shape, seed)
	rng := rand.New(rand.NewPCG(seed, 0x72616e6b73))
	// Ranks: the card's large symbols first (in a random order of their
	// own), then the others shuffled.
	order := make([]int, 0, len(syms))
	isLarge := map[int]bool{}
	for _, s := range p.large[i] {
		isLarge[s] = true
	}
	large := append([]int(nil), p.large[i]...)
	rng.Shuffle(len(large), func(a, b int) { large[a], large[b] = large[b], large[a] })
	order = append(order, large...)
	var rest []int
	for _, s := range syms {
		if !isLarge[s] {
			rest = append(rest, s)
		}
	}
	rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	order = append(order, rest...)
	if p.outline != nil {
		outlines := make([]*Outline, len(order))
		for rank, s := range order {
			outlines[rank] = p.outline(s)
		}
		spots = Fit(spots, outlines, p.shape, seed)
	}
	spotOf := make(map[int]Spot, len(syms))
	for rank, s := range order {
		spotOf[s] = spots[rank]
	}
	out := make([]Placement, len(syms))
	for j, s := range syms {
		out[j] = Placement{Symbol: s, Spot: spotOf[s]}
	}
	return out
}

// Single returns the spot of the only symbol of a one-symbol card (Anarchy
// Pancakes' topping cards): large and in the middle, turned by an angle
// that depends on the seed and the symbol.
func Single(shape Shape, seed uint64, symbol int) Spot {
	rng := rand.New(rand.NewPCG(cardSeed(seed, -2-symbol), 0x73696e676c65))
	return Spot{R: 0.78, Angle: rng.Float64() * 360}
}

// assignLarge picks, for every card, at most two symbols to show large, so
// that as many symbols as possible (all, when the deck has at least half as
// many cards as symbols) are large on some card: a maximum matching of
// symbols to cards with two places each (augmenting paths), visited in a
// seeded random order so that which cards feature a symbol varies with the
// seed.
func assignLarge(d *deck.Deck, rng *rand.Rand) ([][]int, bool) {
	const places = 2
	cards, symbols := d.Len(), d.Symbols()
	// cardsOf[s] lists the cards that show symbol s.
	cardsOf := make([][]int, symbols)
	buf := make([]int, 0, d.SymbolsPerCard())
	for c := 0; c < cards; c++ {
		buf = d.AppendCard(buf[:0], c)
		for _, s := range buf {
			cardsOf[s] = append(cardsOf[s], c)
		}
	}
	for _, cs := range cardsOf {
		rng.Shuffle(len(cs), func(a, b int) { cs[a], cs[b] = cs[b], cs[a] })
	}
	large := make([][]int, cards)
	matchedTo := make([]int, symbols) // card of symbol s, or -1
	for s := range matchedTo {
		matchedTo[s] = -1
	}
	visited := make([]int, cards) // stamp of the last search that saw a card
	stamp := 0
	var augment func(s int) bool
	augment = func(s int) bool {
		for _, c := range cardsOf[s] {
			if visited[c] == stamp {
				continue
			}
			visited[c] = stamp
			if len(large[c]) < places {
				large[c] = append(large[c], s)
				matchedTo[s] = c
				return true
			}
			for idx, other := range large[c] {
				if augment(other) {
					large[c][idx] = s
					matchedTo[s] = c
					return true
				}
			}
		}
		return false
	}
	covered := true
	for _, s := range rng.Perm(symbols) {
		stamp++
		if !augment(s) {
			covered = false
		}
	}
	return large, covered
}
