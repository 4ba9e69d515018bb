package rules

// Extension is the part of a game's state that is not cards in zones, seat
// lock-outs, tallies or the round: a turn order, tokens in a shared pool,
// bids, or bookkeeping a game keeps to answer quickly (which seats could
// move now). A game that needs one creates it in Setup and stores it with
// SetExtension; the State then carries it through Clone and Equal. A game
// reads it back with Extension and a type assertion to its own type.
//
// Everything a game keeps in its Extension must be determined by the deck,
// the config and the accepted actions, like the rest of the State, so that a
// replay rebuilds it.
type Extension interface {
	// CloneExtension returns a deep copy that evolves independently.
	CloneExtension() Extension
	// EqualExtension reports whether o holds the same game state; o is
	// always an Extension of the same game.
	EqualExtension(o Extension) bool
}

// Resyncer is an optional interface for an Extension that mirrors the table
// (caches derived from the zones): Resync rebuilds it from s after the zones
// were changed from outside the game's own Apply, as a test that lays out a
// known table does.
type Resyncer interface {
	// Resync rebuilds the extension from the table of s.
	Resync(s *State)
}

// SetExtension stores the game's own state in s. Games call it from Setup.
func (s *State) SetExtension(e Extension) { s.ext = e }

// spareExtension returns, during a Setup called by Reset, the Extension of
// the game Reset replaced, which Setup may reuse instead of allocating a
// new one; nil otherwise.
func (s *State) spareExtension() Extension { return s.spare }

// Extension returns what the game stored with SetExtension, or nil.
func (s *State) Extension() Extension { return s.ext }
