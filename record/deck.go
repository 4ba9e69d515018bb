package record

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// Deck describes the cards a game was played with, so that a replay can
// build them again: the first Cards lines of the projective plane of order
// Order, plus, when Singles is set, one card per symbol showing that symbol
// alone (Anarchy Pancakes' one-topping cards). Edition names the published
// edition the deck is, if any. Size, Symbols and Fingerprint are derived by
// Build and let a reader check that it rebuilt the very same cards.
type Deck struct {
	// Edition is the edition's name ("classic", "pancakes"…), or empty.
	Edition string `json:"edition,omitempty"`
	// Order is the order of the plane.
	Order int `json:"order"`
	// Cards is the number of plane cards kept, the first ones.
	Cards int `json:"cards"`
	// Singles adds one card per symbol, after the plane's cards, as
	// rules.WithSingles does: card Cards+s shows symbol s alone.
	Singles bool `json:"singles,omitzero"`
	// Size is the number of cards in play: Cards, plus Symbols with
	// Singles.
	Size int `json:"size"`
	// Symbols is the number of symbol ids.
	Symbols int `json:"symbols"`
	// Fingerprint is a hash of every card's symbols (see Fingerprint).
	Fingerprint string `json:"fingerprint"`
}

// Build makes the cards d describes, flattened into an Index, and returns
// d completed: an Edition fills in Order and Cards (and must agree with them
// if they are set), Cards 0 means every line of the plane, and Size,
// Symbols and Fingerprint are computed. When d already has a fingerprint,
// the cards built must match it.
func (d Deck) Build() (Deck, *rules.Index, error) {
	var plane *deck.Deck
	var err error
	if d.Edition != "" {
		e, lerr := deck.LookupEdition(d.Edition)
		if lerr != nil {
			return d, nil, fmt.Errorf("record: %w", lerr)
		}
		if (d.Order != 0 && d.Order != e.Order) || (d.Cards != 0 && d.Cards != e.Cards) {
			return d, nil, fmt.Errorf("record: edition %s is order %d with %d cards, not order %d with %d", e.Name, e.Order, e.Cards, d.Order, d.Cards)
		}
		d.Order, d.Cards = e.Order, e.Cards
		plane, err = e.Deck()
	} else {
		plane, err = deck.New(d.Order, d.Cards)
	}
	if err != nil {
		return d, nil, fmt.Errorf("record: %w", err)
	}
	var cards rules.Cards = plane
	if d.Singles {
		cards = rules.WithSingles(plane)
	}
	x, err := rules.NewIndex(cards)
	if err != nil {
		return d, nil, fmt.Errorf("record: %w", err)
	}
	want := d.Fingerprint
	d.Cards, d.Size, d.Symbols, d.Fingerprint = plane.Len(), x.Len(), x.Symbols(), Fingerprint(x)
	if want != "" && want != d.Fingerprint {
		return d, nil, fmt.Errorf("record: the deck built (order %d, %d cards, singles %v) has fingerprint %s, the record says %s",
			d.Order, d.Cards, d.Singles, d.Fingerprint, want)
	}
	return d, x, nil
}

// Fingerprint returns a hash of a card source, "fnv1a64:" and 16 hex
// digits: FNV-1a over the number of cards and of symbols, then each card's
// symbol count and symbols in order, all as little-endian uint32s. Two
// sources with the same fingerprint deal the same cards.
func Fingerprint(c rules.Cards) string {
	h := fnv.New64a()
	var b [4]byte
	put := func(v int) {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		h.Write(b[:])
	}
	put(c.Len())
	put(c.Symbols())
	var syms []int
	for i := 0; i < c.Len(); i++ {
		syms = c.AppendCard(syms[:0], i)
		put(len(syms))
		for _, s := range syms {
			put(s)
		}
	}
	return fmt.Sprintf("fnv1a64:%016x", h.Sum64())
}
