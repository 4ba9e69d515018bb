// Package layout decides where each symbol sits on a card: its position,
// size and rotation. The printer and the browser client draw the same
// layouts, so a card looks the same on paper and on screen.
//
// A card is the unit disc (Round, the default) or the square [-1, 1]²
// (Square), centred on the origin with y pointing down. Every symbol gets a
// Spot: a circle it must stay inside, and a rotation. Because pictures are
// scaled into their spot's circle about the centre of their own smallest
// enclosing circle, symbols never overlap and never cross the card's edge,
// whatever their rotation, as long as the circles do not — and Arrange
// guarantees that exactly, not approximately.
//
// Arrange packs k circles (3 ≤ k ≤ MaxSymbols) of varied sizes: two large
// ones, then sizes falling to between a third and 48% of the largest, so
// the largest is always at least twice the smallest (2.1 to 3 times; the
// more symbols, the wider the range). The circles are packed by
// relaxation: they start at random places and are pushed apart and into
// the card while all of them grow together, until
// they jam, at around 65% of a round card's area; then the exact scale at
// which no two circles meet and none crosses the edge (keeping a small gap)
// is computed from the final positions. The densest of a few such packings
// is kept. Results depend only on k, the shape and the seed.
//
// A Plan lays out a whole deck. It decides, for every card, which of its
// symbols get the two large spots, by a matching between symbols and cards
// that gives every symbol a large spot on at least one card whenever the
// deck has at least half as many cards as symbols (every edition and every
// full plane). The other symbols get the remaining spots in a shuffled
// order, so a symbol's size varies from card to card, as in the printed
// game. A Plan is deterministic for (deck, shape, seed).
package layout
