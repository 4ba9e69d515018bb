package rules

// This file holds what a game declares so that its records can be checked
// from the record alone, without these rules nor their random source
// (package record's Check): how it scores, when its clock ticks, which
// versions its seats may name and what its own events must say. The check
// tracks what every game shares (the cards of every zone through moves,
// shuffles and zones opened, claims against the claim shape, versions,
// arrival times, lock-outs, rounds, turns, phases and the seats' score
// events); a game's RecordRules read that table through RecordTable and
// keep what else they need.

// RecordRules is what a game declares for the check of its records
// (Info.Record). A game without them has its records checked for what
// every game shares, not its scores, its clock nor its own events.
type RecordRules struct {
	// Events lists the game's own kinds of event (EventFlip, EventMark,
	// EventWrite, EventGuess, EventSecret, EventScore) that its records
	// may hold; a record holding another is wrong.
	Events []EventKind
	// New returns the hooks of the check of one record, once the table
	// as set up (the record's start line) is read into t.
	New func(t RecordTable) *RecordHooks
}

// RecordHooks are a game's part in the check of one record. Scores is
// required; a nil hook does nothing.
type RecordHooks struct {
	// Event checks event i of ev, of accepted action a, once the check
	// has carried it out on the table (the cards moved, the shuffle
	// applied, the round begun, the score added to the seat's tally).
	// It is called for every event but the over event.
	Event func(a *Action, ev []Event, i int) error
	// Accepted follows up accepted action a with events ev, once the
	// table is at the version it gave: the game's clock, what it keeps
	// for a round.
	Accepted func(a *Action, ev []Event)
	// Deadline returns the time the game's clock next ticks, for a timed
	// game (Info.Timed).
	Deadline func() int64
	// Lenient reports whether action a of a seat may name a version older
	// than the table's and still count.
	Lenient func(a *Action) bool
	// Scores returns the scores the table and the events give each seat
	// once the game ends, and their unit when it is not Info.Unit.
	Scores func() (scores []int, unit string)
}

// RecordTable is the table as the check of a record tracks it, for a
// game's RecordHooks to read.
type RecordTable interface {
	// Players returns the number of seats.
	Players() int
	// Symbols returns the number of symbols of the deck.
	Symbols() int
	// Zones returns the number of zones.
	Zones() int
	// Zone returns the kind, the owner (NoSeat for none) and the cards,
	// bottom first, of zone z; the cards must not be changed.
	Zone(z int) (kind ZoneKind, seat int, cards []int)
	// Top returns the top card of zone z, or -1 for an empty zone or a
	// zone that does not exist.
	Top(z int) int
	// ZoneOf returns the first zone of kind, or -1.
	ZoneOf(kind ZoneKind) int
	// Has reports whether card shows symbol; false for a card or a
	// symbol that is not the deck's.
	Has(card, symbol int) bool
	// CardsOf returns the number of cards in the zones of seat of the
	// given kinds.
	CardsOf(seat int, kinds ...ZoneKind) int
	// Option returns the value of the game's option name, set or default.
	Option(name string) string
	// OptionInt returns the value of the option name as an integer.
	OptionInt(name string) int
	// Round returns the round the table is in.
	Round() int
	// Phase returns the phase the last phase event began, 0 before any.
	Phase() int
	// Version returns the table's version.
	Version() uint64
	// Tally returns the sum of the score events of seat.
	Tally(seat int) int
	// Claims returns the number of accepted claims of seat.
	Claims(seat int) int
	// Line returns the line of the record being checked.
	Line() int
	// Fail returns the error of an inconsistency on the line being
	// checked, saying what is wrong.
	Fail(format string, args ...any) error
	// FailAt returns the error of an inconsistency on an earlier line.
	FailAt(line int, format string, args ...any) error
}

// PerSeat returns f of every seat of t.
func PerSeat(t RecordTable, f func(seat int) int) []int {
	out := make([]int, t.Players())
	for s := range out {
		out[s] = f(s)
	}
	return out
}

// ScoreCardsIn declares the RecordRules of a game that scores each seat
// sign times the cards in its zones of kinds, and has no clock nor events
// of its own.
func ScoreCardsIn(sign int, kinds ...ZoneKind) *RecordRules {
	return &RecordRules{New: func(t RecordTable) *RecordHooks {
		return &RecordHooks{Scores: func() ([]int, string) {
			return PerSeat(t, func(s int) int { return sign * t.CardsOf(s, kinds...) }), ""
		}}
	}}
}

// flipOfTop checks that flip event x turns the top card of an existing
// zone.
func flipOfTop(t RecordTable, x *Event) error {
	if x.From < 0 || x.From >= t.Zones() || x.Card != t.Top(x.From) || x.Card < 0 {
		return t.Fail("a flip of card %d in zone %d, whose top card is %d", x.Card, x.From, t.Top(x.From))
	}
	return nil
}

// scoreIs checks that score event x counts what the rules give, want.
func scoreIs(t RecordTable, x *Event, want int) error {
	if x.Count != want {
		return t.Fail("seat %d scores %d; the rules give %d", x.Seat, x.Count, want)
	}
	return nil
}
