// Package deck builds and checks Dobble decks: sets of cards on which any
// two cards share exactly one symbol.
//
// Such a deck is a finite projective plane: for an order q there are
// N = q²+q+1 cards ("lines") and N symbols ("points"), q+1 symbols on each
// card and each symbol on q+1 cards. Planes exist for every prime power q
// (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, …), which this package builds with
// arithmetic in the finite field GF(q) (Field) — integers mod q only work
// when q is prime. No plane exists for orders 6, 10, 14, …, and nobody knows
// about 12; CheckOrder explains either and names the nearest orders that work.
//
// A Plane is kept in cyclic form, as one perfect difference set D mod N
// (Singer's construction): card j is {d + j mod N : d ∈ D}. So a deck of any
// size costs O(N) memory, any card is derived on demand, and the common
// symbol of two cards is found in O(1). A Deck is the first M cards of a
// plane (any subset keeps the one-match rule); an Edition is a published
// deck with named symbols (classic, beach, kids, pancakes).
//
// Decks given card by card, such as files read with Read, are Cards, and
// Cards.Verify checks the one-match rule and reports the first bad pair.
// WriteText and WriteJSON write the formats that Read reads.
package deck
