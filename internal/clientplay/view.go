// Package clientplay is how a program playing dobble over the WebSocket
// protocol of docs/PROTOCOL.md sees its table and chooses its seat's
// actions, knowing only what the server shows that seat, as a person at
// the table would. It reads the views of the server's messages into View
// (with Scanner, a small JSON reader that does not allocate, or through
// encoding/json), remembers what a person would of the views before
// (Mind), and chooses a correct action in every game it Plays: the match
// to claim in the games of claims (Choose), and a flip, a lay, STOP, an
// answer, a guess, a discard or a take in the extra mini-games (Decide).
//
// The load tool's clients play with it by the thousand, and the web
// package's tests play every game to its end with it.
package clientplay

import "github.com/dobble-dev/dobble/rules"

// View is the part of a rules.View that a client needs to choose its
// action. Scanner.View and encoding/json (through UnmarshalJSON) read it.
type View struct {
	Game    string
	Seat    int
	Version uint64
	Round   int
	Over    bool
	Zones   []Zone
	// Turn is the seat whose turn it is (Memory, False Poker), or -1.
	Turn int
	// Deadline is when the game next wants time to pass, in milliseconds
	// since the table began; 0 when there is none.
	Deadline int64
	// Extra is the part of the game's own state the clients use.
	Extra Extra
}

// Zone is one zone of a view.
type Zone struct {
	Kind  rules.ZoneKind
	Seat  int
	Count int
	// Cards are the face-up cards, bottom first.
	Cards []Card
}

// Card is a face-up card of a zone.
type Card struct {
	Symbols []int
}

// Extra holds the fields of a view's "extra" (rules.MemoryView,
// ReflectionView, GuessView, FalsePokerView, CollectView) that the
// clients use; the others stay empty.
type Extra struct {
	// Memory: the places with a marker, the place of the card flipped
	// last (-1 before the first flip), whether it was taken, and its
	// symbols.
	Marked    []int
	LastZone  int
	LastTaken bool
	Symbols   []int
	// Reflection: the phase and the viewer's answers this round.
	Phase   string
	Answers []int
	// Guess: the host seat, whether the secret is on each card turned,
	// the symbols named as not the secret, and the seats that may not
	// guess (also False Poker's seats out of the round).
	Host       int
	Flips      []bool
	Eliminated []int
	Out        []int
	// False Poker: each seat's markers off the row.
	Free []int
	// Collect the Symbols: the tokens left in the centre.
	Tokens []int
}

// Top returns the symbols of zone z's top face-up card, or nil.
func (v *View) Top(z int) []int {
	if z < 0 || z >= len(v.Zones) || len(v.Zones[z].Cards) == 0 {
		return nil
	}
	c := v.Zones[z].Cards
	return c[len(c)-1].Symbols
}

// The seats zones filters by, beside a seat's own.
const (
	anySeat   = -2 // every zone of the kind
	otherSeat = -3 // the zones of the seats other than the viewer's
)

// zones lists the zones of a kind; seat filters them: anySeat,
// otherSeat, or a seat for that seat's only.
func (v *View) zones(kind rules.ZoneKind, seat int) []int {
	var out []int
	for i, z := range v.Zones {
		if z.Kind != kind {
			continue
		}
		switch {
		case seat == anySeat:
		case seat == otherSeat:
			if z.Seat == v.Seat || z.Seat < 0 {
				continue
			}
		case z.Seat != seat:
			continue
		}
		out = append(out, i)
	}
	return out
}
