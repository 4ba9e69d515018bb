package rules

import (
	"math/bits"
	"slices"
)

// Seen is what one seat sees of a table, the whole of what a Decider
// decides from: the seat, the version, the round and the turn, every
// zone's kind, owner and count, the cards face up to the seat, and the
// game's own state as the seat's View shows it. It is made either from
// the State itself (State.SeenBy), which is how a bot reads the table
// without building a View, or from a View the seat was shown (View.Seen),
// which is how a program playing over the protocol reads it; both read
// the same. A Seen made from a State is valid until the State changes; one
// made from a View as long as the View.
//
// Seen is a concrete type rather than an interface so that a bot reading
// the State through it pays no call for each thing it looks at.
type Seen struct {
	st   *State // the State, or nil when v is set
	v    *View
	seat int
}

// SeenBy returns the table as seat sees it: what View(seat) shows, read
// from the State in place. A seat not at the table sees what a spectator
// does.
func (s *State) SeenBy(seat int) Seen {
	if uint(seat) >= uint(len(s.seats)) {
		seat = Spectator
	}
	return Seen{st: s, seat: seat}
}

// Seen returns the table as v shows it.
func (v *View) Seen() Seen { return Seen{v: v, seat: v.Seat} }

// Seat returns the seat that sees the table, or Spectator.
func (s Seen) Seat() int { return s.seat }

// Version returns the version of the table seen.
func (s Seen) Version() uint64 {
	if s.st != nil {
		return s.st.version
	}
	return s.v.Version
}

// Round returns the current round (0 in games without rounds).
func (s Seen) Round() int {
	if s.st != nil {
		return s.st.round
	}
	return s.v.Round
}

// Turn returns the seat whose turn it is, or NoSeat, as State.Turn.
func (s Seen) Turn() int {
	if s.st != nil {
		return s.st.Turn()
	}
	return s.v.Turn
}

// Over reports whether the game is over.
func (s Seen) Over() bool {
	if s.st != nil {
		return s.st.over
	}
	return s.v.Over
}

// Zones returns the number of zones.
func (s Seen) Zones() int {
	if s.st != nil {
		return len(s.st.zones)
	}
	return len(s.v.Zones)
}

// Kind returns what zone z is.
func (s Seen) Kind(z int) ZoneKind {
	if s.st != nil {
		return s.st.zones[z].Kind
	}
	return s.v.Zones[z].Kind
}

// Owner returns the seat zone z belongs to, or NoSeat.
func (s Seen) Owner(z int) int {
	if s.st != nil {
		return s.st.zones[z].Seat
	}
	return s.v.Zones[z].Seat
}

// Count returns the number of cards in zone z, face up or not.
func (s Seen) Count(z int) int {
	if s.st != nil {
		return len(s.st.zones[z].cards)
	}
	return s.v.Zones[z].Count
}

// Shown returns how many of zone z's cards the seat sees face up: all of
// them in a zone showing all, its top card where the seat sees it, none
// otherwise (ZoneView.Cards).
func (s Seen) Shown(z int) int {
	if s.st != nil {
		zn := &s.st.zones[z]
		switch {
		case zn.Show == ShowAll:
			return len(zn.cards)
		case len(zn.cards) > 0 && zn.Show.visibleTop(zn.Seat, s.seat):
			return 1
		}
		return 0
	}
	return len(s.v.Zones[z].Cards)
}

// Card returns the i-th of the cards of zone z the seat sees face up,
// bottom first; i must be below Shown(z).
func (s Seen) Card(z, i int) Card {
	if s.st != nil {
		zn := &s.st.zones[z]
		if zn.Show != ShowAll {
			i = len(zn.cards) - 1 // only the top shows
		}
		return Card{x: s.st.cards, id: int(zn.cards[i])}
	}
	c := &s.v.Zones[z].Cards[i]
	return Card{id: c.Card, syms: &c.Symbols}
}

// Top returns the top card of zone z if the seat sees it face up, and
// false when the zone is empty or its top is face down to the seat.
func (s Seen) Top(z int) (Card, bool) {
	if st := s.st; st != nil {
		zn := &st.zones[z]
		if len(zn.cards) == 0 || !zn.Show.visibleTop(zn.Seat, s.seat) {
			return Card{}, false
		}
		return Card{x: st.cards, id: int(zn.cards[len(zn.cards)-1])}, true
	}
	cs := s.v.Zones[z].Cards
	if len(cs) == 0 {
		return Card{}, false
	}
	c := &cs[len(cs)-1]
	return Card{id: c.Card, syms: &c.Symbols}, true
}

// Common returns the lowest symbol that the top cards of zones z1 and z2
// both show (Card.Common), or -1 when they share none or the seat does not
// see both.
func (s Seen) Common(z1, z2 int) int {
	if st := s.st; st != nil {
		a, b := &st.zones[z1], &st.zones[z2]
		if len(a.cards) == 0 || len(b.cards) == 0 || !a.Show.visibleTop(a.Seat, s.seat) || !b.Show.visibleTop(b.Seat, s.seat) {
			return -1
		}
		return st.cards.Common(int(a.cards[len(a.cards)-1]), int(b.cards[len(b.cards)-1]))
	}
	c, ok := s.Top(z1)
	d, ok2 := s.Top(z2)
	if !ok || !ok2 {
		return -1
	}
	return c.Common(d)
}

// Card is a card a seat was shown: its number and its symbols, read from
// the deck's Index when seen on a State, from the view's CardView when
// seen in a View. A Card seen in a View shares the view's memory; a
// Decider that remembers it past the view keeps a copy (keep). It is three
// words, which the compiler keeps in registers: a larger one would be
// copied through memory and wait for its stores.
type Card struct {
	x    *Index // the deck, or nil when syms holds the symbols
	id   int
	syms *[]int
}

// noCard is the Card of a place where no card is known.
var noCard = Card{id: -1}

// ID returns the card's number in the deck, or -1 for no card.
func (c Card) ID() int { return c.id }

// Len returns the number of symbols on the card.
func (c Card) Len() int {
	if x := c.x; x != nil {
		if x.words == 1 {
			// The bits Has and Common read, rather than the list of
			// symbols.
			return bits.OnesCount64(x.bits[c.id])
		}
		return x.CardLen(c.id)
	}
	return len(*c.syms)
}

// Symbol returns the card's i-th symbol, in the order the deck gives them
// (0 <= i < Len()).
func (c Card) Symbol(i int) int {
	if x := c.x; x != nil {
		return int(x.syms[int(x.start[c.id])+i])
	}
	return (*c.syms)[i]
}

// Has reports whether the card shows symbol sym.
func (c Card) Has(sym int) bool {
	if c.x != nil {
		return c.x.Has(c.id, sym)
	}
	return slices.Contains(*c.syms, sym)
}

// Common returns the lowest symbol that c and d both show, or -1: for two
// different cards of a projective-plane deck, the one symbol they share.
func (c Card) Common(d Card) int {
	if x := c.x; x != nil && x == d.x {
		// Index.Common, written out here to spare a call.
		if x.words == 1 {
			if m := x.bits[c.id] & x.bits[d.id]; m != 0 {
				return bits.TrailingZeros64(m)
			}
			return -1
		}
		return x.Common(c.id, d.id)
	}
	return c.common(d)
}

// common is Card.Common for cards seen in a view.
func (c Card) common(d Card) int {
	sym := -1
	for i := range c.Len() {
		if s := c.Symbol(i); (sym < 0 || s < sym) && d.Has(s) {
			sym = s
		}
	}
	return sym
}

// Word returns word w of the card's symbols as a bit set: symbols 64w to
// 64w+63, symbol s being bit s%64 (Index.Word).
func (c Card) Word(w int) uint64 {
	if c.x != nil {
		return c.x.Word(c.id, w)
	}
	var m uint64
	for _, s := range *c.syms {
		if s>>6 == w {
			m |= 1 << (s & 63)
		}
	}
	return m
}

// keep returns c as it may be remembered after the table or the view it
// was seen in changes: itself when read from the deck, otherwise a Card
// of a copy of its symbols in *buf, which it reuses: *buf must not move
// while the Card is kept.
func (c Card) keep(buf *[]int) Card {
	if c.x != nil || c.id < 0 {
		return c
	}
	*buf = append((*buf)[:0], *c.syms...)
	return Card{id: c.id, syms: buf}
}
