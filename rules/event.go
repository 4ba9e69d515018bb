package rules

// EventKind says what an Event reports. Its JSON form is its name.
type EventKind uint8

// The event kinds.
const (
	// EventClaim: Seat's claim of Symbol (with Target) was accepted. It is
	// the first event of every accepted claim.
	EventClaim EventKind = iota + 1
	// EventMove: Count cards, Card on top, went from zone From to the top
	// of zone To (to its bottom when Under is set), won by or dealt to
	// Seat (NoSeat when the game itself moves them).
	EventMove
	// EventShuffle: zone From, holding Count cards, was shuffled.
	EventShuffle
	// EventRound: round Round began.
	EventRound
	// EventOver: the game ended; Result holds the outcome.
	EventOver
	// EventTurn: it is now Seat's turn, in a game with turns.
	EventTurn
	// EventFlip: Card, in zone From, was shown to everyone. Seat flipped
	// it (NoSeat for the game's host) and Symbol is the symbol named with
	// it, or -1: in Memory the symbol the flipper named, in Guess the
	// symbol the host eliminates; in Guess Count is 1 when the secret is
	// on the card and 0 when it is not.
	EventFlip
	// EventMark: a marker was put on the card in zone From (Memory); From
	// is -1 when every marker was taken off, Count of them.
	EventMark
	// EventWrite: Seat wrote Symbol on its answer sheet (Reflection).
	// Only Seat sees the symbol (State.EventFor); the others see -1.
	EventWrite
	// EventScore: Seat's score changed by Count points (which may be
	// negative); Round is the round it was scored in.
	EventScore
	// EventGuess: Seat guessed Symbol; Count is 1 when it was right and 0
	// when it was wrong (Guess).
	EventGuess
	// EventStop: Seat said "STOP" (False Poker).
	EventStop
	// EventOut: Seat is out for the rest of the round (a wrong guess, a
	// turn that ran out).
	EventOut
	// EventPhase: the game entered phase Count of its round (each game's
	// file lists its phases); Round is the round.
	EventPhase
	// EventSecret: Symbol is the secret of the round (Guess). With Seat
	// NoSeat it is revealed to everyone; with a seat, only that seat (the
	// round's host) sees the symbol, the others see -1.
	EventSecret
)

var eventKindNames = []string{
	EventClaim:   "claim",
	EventMove:    "move",
	EventShuffle: "shuffle",
	EventRound:   "round",
	EventOver:    "over",
	EventTurn:    "turn",
	EventFlip:    "flip",
	EventMark:    "mark",
	EventWrite:   "write",
	EventScore:   "score",
	EventGuess:   "guess",
	EventStop:    "stop",
	EventOut:     "out",
	EventPhase:   "phase",
	EventSecret:  "secret",
}

// String returns the name of the kind, e.g. "move".
func (k EventKind) String() string { return enumText(eventKindNames, int(k), "EventKind") }

// MarshalText encodes the kind as its name.
func (k EventKind) MarshalText() ([]byte, error) {
	return enumMarshal(eventKindNames, int(k), "EventKind")
}

// AppendText appends the kind's name to b, as MarshalText returns it.
func (k EventKind) AppendText(b []byte) ([]byte, error) {
	return enumAppend(b, eventKindNames, int(k), "EventKind")
}

// UnmarshalText decodes a kind from its name.
func (k *EventKind) UnmarshalText(b []byte) error {
	v, err := enumParse(eventKindNames, b, "event kind")
	*k = EventKind(v)
	return err
}

// Event is one thing that happened as the result of an accepted action. An
// action yields a short list of events, all stamped with the version the
// action produced, which a server broadcasts (through State.EventFor, so
// nobody learns a face-down card) and a record keeps. Fields that do not
// apply to a kind are -1 (seats, cards, zones, symbols) or zero.
type Event struct {
	// Kind is what happened.
	Kind EventKind `json:"kind"`
	// Version is the state version after the action that caused the event.
	Version uint64 `json:"version"`
	// Seat is the seat that claimed, won, received or was dealt the cards,
	// or NoSeat.
	Seat int `json:"seat"`
	// Symbol is the symbol a claim named, or -1.
	Symbol int `json:"symbol"`
	// Target is the target list of a claim.
	Target Targets `json:"target,omitzero"`
	// Card is the card moved (the top card of a moved stack), or -1 when
	// the event has no card or, in a redacted copy, when the card is face
	// down to the viewer.
	Card int `json:"card"`
	// Count is the number of cards moved or shuffled.
	Count int `json:"count"`
	// From is the zone the cards left (or the zone shuffled), or -1.
	From int `json:"from"`
	// To is the zone the cards went to, or -1.
	To int `json:"to"`
	// Under is set when the cards went to the bottom of To, not its top.
	Under bool `json:"under,omitzero"`
	// Round is the round an EventRound starts.
	Round int `json:"round,omitzero"`
	// Result is the outcome an EventOver reports.
	Result *Result `json:"result,omitempty"`
}
