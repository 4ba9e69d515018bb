// Package layout decides where each symbol sits on a card: its position,
// size and rotation. The printer and the browser client draw the same
// layouts, so a card looks the same on paper and on screen.
//
// A card is the unit disc (Round, the default) or the square [-1, 1]²
// (Square), centred on the origin with y pointing down. Every symbol gets a
// Spot: the circle its smallest enclosing circle is scaled to, and a
// rotation.
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
// is kept. Results depend only on k, the shape and the seed. Circles that
// never meet keep symbols apart whatever their drawings, but a picture
// inks only about half of its circle, so such cards are a third ink.
//
// Fit packs symbols by their outlines instead, as the printed game does.
// An Outline is a symbol's ink as a distance field over a mask (the
// drawing rasterized so that every cell any ink touches is marked), with
// how far the symbol may turn (words stay near upright) and room to keep
// around it. Starting from Arrange's circles, the symbols grow in turns,
// each moving away from what it bumps into and turning a little when
// that lets it grow, into the room their outlines leave; then they are
// shaken and grow again, and grow a last time on a finer grid. The space
// each takes is kept on a grid of cells: a symbol's footprint is every
// cell whose centre is within half a cell's diagonal plus half of InkGap
// of its ink, by a lower bound on the distance, and footprints never
// share a cell nor reach the card's edge. So no two symbols' ink comes
// closer than InkGap, nor any ink to the edge — exactly, whatever the
// drawings — and cards are about half ink. Sizes stay varied: the largest
// symbol is at least SizeRatio times the smallest.
//
// A Plan lays out a whole deck. It decides, for every card, which of its
// symbols get the two large spots, by a matching between symbols and cards
// that gives every symbol a large spot on at least one card whenever the
// deck has at least half as many cards as symbols (every edition and every
// full plane). The other symbols get the remaining spots in a shuffled
// order, so a symbol's size varies from card to card, as in the printed
// game. With outlines (WithOutlines), every card's circles are then packed
// by Fit. A Plan is deterministic for (deck, shape, seed).
package layout
