package deck

import "fmt"

// Deck is a playable deck: the first M lines of a projective plane, M between
// 2 and N = q²+q+1. Any two cards share exactly one symbol, as any subset of
// a plane's lines does.
//
// Cards are numbered 0..Len()-1 and symbols 0..Symbols()-1. When some of the
// plane's points lie on no kept card (small M), the remaining symbols are
// renumbered in increasing point order so that ids stay contiguous. Cards
// are derived on demand: a Deck holds O(N) memory whatever its size, and
// Common and Has are O(1). A Deck is immutable and safe for concurrent use.
type Deck struct {
	plane *Plane
	cards int
	// symbolOf[point] is the symbol id of a plane point, or -1 if the point
	// lies on no kept card; pointOf is its inverse. Both are nil when every
	// point is used, where symbol id = point.
	symbolOf []int32
	pointOf  []int32
}

// New returns the deck of order q keeping the first cards lines of the plane;
// cards = 0 keeps all q²+q+1. Errors are *OrderError for a bad order and
// *CardsError for a bad card count.
func New(q, cards int) (*Deck, error) {
	if err := CheckOrder(q); err != nil {
		return nil, err
	}
	n := q*q + q + 1
	if cards == 0 {
		cards = n
	}
	if cards < 2 || cards > n {
		return nil, &CardsError{Order: q, Cards: cards, Max: n}
	}
	p, err := NewPlane(q)
	if err != nil {
		return nil, err
	}
	return fromPlane(p, cards), nil
}

// CardsError is the error for a card count a plane cannot supply.
type CardsError struct {
	Order, Cards, Max int
}

// Error names the count asked for and the range that works.
func (e *CardsError) Error() string {
	if e.Cards > e.Max {
		return fmt.Sprintf("--cards %d: a deck of order %d has only %d cards; use 2..%d, or a larger order",
			e.Cards, e.Order, e.Max, e.Max)
	}
	return fmt.Sprintf("--cards %d: a deck needs at least 2 cards; use 2..%d", e.Cards, e.Max)
}

// fromPlane keeps the first cards lines of p and numbers the used points.
func fromPlane(p *Plane, cards int) *Deck {
	d := &Deck{plane: p, cards: cards}
	n, k := p.Len(), p.LineSize()
	// A point is unused only if all k lines through it were dropped, so
	// dropping fewer than k lines keeps every point.
	if n-cards < k {
		return d
	}
	used := make([]bool, n)
	if cards <= n/2 {
		line := make([]int, 0, k)
		for j := 0; j < cards; j++ {
			for _, s := range p.AppendLine(line[:0], j) {
				used[s] = true
			}
		}
	} else {
		// Cheaper to count, per point, the dropped lines through it.
		dropped := make([]int32, n)
		line := make([]int, 0, k)
		for j := cards; j < n; j++ {
			for _, s := range p.AppendLine(line[:0], j) {
				dropped[s]++
			}
		}
		for s := range used {
			used[s] = int(dropped[s]) < k
		}
	}
	d.symbolOf = make([]int32, n)
	for s, u := range used {
		if u {
			d.symbolOf[s] = int32(len(d.pointOf))
			d.pointOf = append(d.pointOf, int32(s))
		} else {
			d.symbolOf[s] = -1
		}
	}
	if len(d.pointOf) == n {
		d.symbolOf, d.pointOf = nil, nil
	}
	return d
}

// Order returns the order q of the plane the deck comes from.
func (d *Deck) Order() int { return d.plane.Order() }

// Len returns the number of cards.
func (d *Deck) Len() int { return d.cards }

// Symbols returns the number of distinct symbols on the cards.
func (d *Deck) Symbols() int {
	if d.pointOf == nil {
		return d.plane.Len()
	}
	return len(d.pointOf)
}

// SymbolsPerCard returns q+1, the number of symbols on every card.
func (d *Deck) SymbolsPerCard() int { return d.plane.LineSize() }

// Plane returns the full plane the deck's cards are taken from.
func (d *Deck) Plane() *Plane { return d.plane }

// AppendCard appends the symbols of card i (0 <= i < Len()) to dst in
// increasing order and returns the extended slice.
func (d *Deck) AppendCard(dst []int, i int) []int {
	start := len(dst)
	dst = d.plane.AppendLine(dst, i)
	if d.symbolOf != nil {
		// Renumbering keeps the order of points, so the card stays sorted.
		for x := start; x < len(dst); x++ {
			dst[x] = int(d.symbolOf[dst[x]])
		}
	}
	return dst
}

// Card returns the symbols of card i in increasing order.
func (d *Deck) Card(i int) []int {
	return d.AppendCard(make([]int, 0, d.SymbolsPerCard()), i)
}

// Common returns the one symbol that cards i and j share; i and j must be
// different cards. O(1).
func (d *Deck) Common(i, j int) int {
	s := d.plane.Meet(i, j)
	if d.symbolOf != nil {
		return int(d.symbolOf[s])
	}
	return s
}

// Has reports whether card i shows symbol s. O(1).
func (d *Deck) Has(i, s int) bool {
	if s < 0 || s >= d.Symbols() {
		return false
	}
	if d.pointOf != nil {
		s = int(d.pointOf[s])
	}
	return d.plane.OnLine(i, s)
}

// Verify checks that every two cards of the deck share exactly one symbol:
// it verifies the plane from scratch in O(q²) (see Plane.Verify) and that
// the renumbering of symbols is one-to-one.
func (d *Deck) Verify() error {
	if err := d.plane.Verify(); err != nil {
		return err
	}
	for id, s := range d.pointOf {
		if d.symbolOf[s] != int32(id) {
			return fmt.Errorf("symbol %d maps to point %d, which maps back to %d", id, s, d.symbolOf[s])
		}
	}
	return nil
}
