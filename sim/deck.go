package sim

import (
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// DefaultDeck returns the deck g is played with when none is asked for:
// the game's own (rules.Info.Deck), else the classic 55-card deck.
func DefaultDeck(g rules.Game) record.Deck { return DeckFor(g, "", 0, 0) }

// DeckFor returns the description of the deck to play g with: the named
// edition, or else the first cards lines of the plane of the given order
// (0 for all of them), or else, with neither, DefaultDeck. A game that
// declares one-symbol cards (rules.DeckSpec.Singles, Anarchy Pancakes)
// always gets one per symbol besides the plane's cards. Build the
// description to get the cards.
func DeckFor(g rules.Game, edition string, order, cards int) record.Deck {
	own := g.Info().Deck
	if edition == "" && order == 0 {
		edition = "classic"
		if own != nil && own.Edition != "" {
			edition = own.Edition
		}
	}
	return record.Deck{Edition: edition, Order: order, Cards: cards, Singles: own != nil && own.Singles}
}
