package sim

import (
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// The only game-specific knowledge of the simulator is which cards a game
// is played with, and it lives in this file.

// pancakes is the name of the game played with one-symbol cards besides
// the plane's cards: Anarchy Pancakes' one-topping cards (RULES.md §6).
const pancakes = "anarchy-pancakes"

// DefaultDeck returns the deck g is played with when none is asked for:
// the pancakes edition with its one-topping cards for Anarchy Pancakes,
// the classic 55-card deck for every other game.
func DefaultDeck(g rules.Game) record.Deck { return deckFor(g.Info().Name, "", 0, 0) }

// DeckFor returns the description of the deck to play g with: the named
// edition, or else the first cards lines of the plane of the given order
// (0 for all of them), or else, with neither, DefaultDeck. Anarchy Pancakes
// always gets one single-symbol card per symbol besides the plane's cards;
// no other game does. Build the description to get the cards.
func DeckFor(g rules.Game, edition string, order, cards int) record.Deck {
	return deckFor(g.Info().Name, edition, order, cards)
}

// deckFor is DeckFor for the game called name.
func deckFor(name, edition string, order, cards int) record.Deck {
	if edition == "" && order == 0 {
		edition = "classic"
		if name == pancakes {
			edition = "pancakes"
		}
	}
	return record.Deck{Edition: edition, Order: order, Cards: cards, Singles: name == pancakes}
}
