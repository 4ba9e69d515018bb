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
)

var eventKindNames = []string{
	EventClaim:   "claim",
	EventMove:    "move",
	EventShuffle: "shuffle",
	EventRound:   "round",
	EventOver:    "over",
}

// String returns the name of the kind, e.g. "move".
func (k EventKind) String() string { return enumText(eventKindNames, int(k), "EventKind") }

// MarshalText encodes the kind as its name.
func (k EventKind) MarshalText() ([]byte, error) {
	return enumMarshal(eventKindNames, int(k), "EventKind")
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
