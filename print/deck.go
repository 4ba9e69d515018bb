package print

import (
	"fmt"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/layout"
)

// MaxOrder is the largest plane order that prints: its cards carry
// layout.MaxSymbols symbols.
const MaxOrder = layout.MaxSymbols - 1

// TooFewError is a custom deck with fewer symbols than the smallest deck
// asked for needs.
type TooFewError struct {
	Have, Need int
	// Order is the order that was asked for, or 0 when the order was to
	// be chosen from the number of symbols.
	Order int
	// Fits is the largest order that the symbols given would fill (0 if
	// none).
	Fits *deck.Deck
}

// Error says how many symbols are needed and what would fit.
func (e *TooFewError) Error() string {
	msg := fmt.Sprintf("%d symbols given, but the deck needs %d", e.Have, e.Need)
	if e.Fits != nil {
		msg += fmt.Sprintf("; %d symbols fill order %d (%d cards × %d symbols)", e.Have, e.Fits.Order(), e.Fits.Len(), e.Fits.SymbolsPerCard())
	}
	return msg
}

// DeckFor returns the deck for a custom set of n symbols: of order q when
// q > 0, otherwise the largest order up to MaxOrder whose deck needs at
// most n symbols; with its first cards cards when cards > 0. A deck that
// needs more than n symbols is a *TooFewError.
func DeckFor(n, q, cards int) (*deck.Deck, error) {
	if q > 0 {
		d, err := deck.New(q, cards)
		if err != nil {
			return nil, err
		}
		if d.Symbols() > n {
			fits, _ := largestFitting(n, cards)
			return nil, &TooFewError{Have: n, Need: d.Symbols(), Order: q, Fits: fits}
		}
		return d, nil
	}
	d, need := largestFitting(n, cards)
	if d == nil {
		return nil, &TooFewError{Have: n, Need: need}
	}
	return d, nil
}

// largestFitting returns the deck of the largest order up to MaxOrder that
// needs at most n symbols, or nil and the number of symbols the smallest
// deck needs.
func largestFitting(n, cards int) (*deck.Deck, int) {
	need := 0
	for q := MaxOrder; q >= deck.MinOrder; q-- {
		if !deck.IsPrimePower(q) || cards > q*q+q+1 {
			continue
		}
		d, err := deck.New(q, cards)
		if err != nil {
			continue
		}
		if d.Symbols() <= n {
			return d, 0
		}
		need = d.Symbols()
	}
	return nil, need
}
