package rules

import (
	"encoding/json"
	"fmt"
)

// Code is the machine-readable reason of a Refusal. Its JSON form is its
// name, e.g. "tooLate".
type Code uint8

// The refusal codes. The checks run in this order: CodeNoSeat,
// CodeMalformed, CodeGameOver, CodeTooLate, CodeTimeUp or CodeEarly,
// CodeLockedOut, then the game's own: CodeNotYourTurn, CodeNotNow,
// CodeOut, CodeBadTarget, CodeNotAMatch. An action that fails several
// checks is refused with the first.
const (
	// CodeNoSeat: the acting seat is not at the table.
	CodeNoSeat Code = iota + 1
	// CodeMalformed: the action cannot mean anything in this game: an
	// unknown kind, a symbol outside the deck, a negative time, a version
	// from the future, a target list of the wrong shape.
	CodeMalformed
	// CodeGameOver: the game has ended.
	CodeGameOver
	// CodeTooLate: the action was made against an older version of the
	// table (somebody else was faster).
	CodeTooLate
	// CodeLockedOut: the seat made a wrong claim and its lock-out has not
	// run out at the action's time.
	CodeLockedOut
	// CodeBadTarget: the target is not one the game allows here, such as
	// your own pile where an opponent's is needed.
	CodeBadTarget
	// CodeNotAMatch: the symbol is not on all the cards the claim compares
	// (or, for a flip or a write, not on the card it must be on).
	CodeNotAMatch
	// CodeNotYourTurn: the game has turns and it is another seat's.
	CodeNotYourTurn
	// CodeNotNow: the game is in a phase where this action has no place,
	// such as writing answers while the cards are being studied, or the
	// seat has already done all it may in this phase.
	CodeNotNow
	// CodeOut: the seat is out for the round (a wrong guess, a turn that
	// ran out) or hosts it.
	CodeOut
	// CodeTimeUp: the action arrived at or after the game's deadline
	// (State.Deadline), which the clock's tick must settle first: the
	// turn, the phase or the time it was made for is over.
	CodeTimeUp
	// CodeEarly: a tick arrived before the game's deadline, or when the
	// game has none.
	CodeEarly
)

var codeNames = []string{
	CodeNoSeat:      "noSeat",
	CodeMalformed:   "malformed",
	CodeGameOver:    "gameOver",
	CodeTooLate:     "tooLate",
	CodeLockedOut:   "lockedOut",
	CodeBadTarget:   "badTarget",
	CodeNotAMatch:   "notAMatch",
	CodeNotYourTurn: "notYourTurn",
	CodeNotNow:      "notNow",
	CodeOut:         "out",
	CodeTimeUp:      "timeUp",
	CodeEarly:       "early",
}

// String returns the name of the code, e.g. "notAMatch".
func (c Code) String() string { return enumText(codeNames, int(c), "Code") }

// MarshalText encodes the code as its name.
func (c Code) MarshalText() ([]byte, error) { return enumMarshal(codeNames, int(c), "Code") }

// AppendText appends the code's name to b, as MarshalText returns it.
func (c Code) AppendText(b []byte) ([]byte, error) { return enumAppend(b, codeNames, int(c), "Code") }

// UnmarshalText decodes a code from its name.
func (c *Code) UnmarshalText(b []byte) error {
	v, err := enumParse(codeNames, b, "refusal code")
	*c = Code(v)
	return err
}

// Wrong reports whether a refusal with this code says the action itself was
// wrong, CodeNotAMatch or CodeBadTarget, rather than late, early, out of turn
// or malformed. Whether a wrong action locks its seat out depends on its
// kind (ActionKind.LocksOut); Refusal.LocksOut says whether a refusal did.
func (c Code) Wrong() bool { return c == CodeNotAMatch || c == CodeBadTarget }

// Refusal is the error every refused action returns: a machine Code plus the
// facts a human reason is built from. Refusals never change the table; a
// wrong claim or draw (Code.Wrong of a kind that ActionKind.LocksOut) only
// records the seat's lock-out, reported in LockedUntil (Refusal.LocksOut).
// Use errors.Is with the Err* values to test the code, or errors.As to read
// the fields.
type Refusal struct {
	// Code is why the action was refused.
	Code Code `json:"code"`
	// Seat is the seat that acted.
	Seat int `json:"seat"`
	// Symbol is the symbol the action named.
	Symbol int `json:"symbol"`
	// Version is the version the action was made against; Current is the
	// table's version when it was refused.
	Version uint64 `json:"version"`
	// Current is the table's version when the action was refused.
	Current uint64 `json:"current"`
	// LockedUntil is, for CodeLockedOut, the time the running lock-out
	// ends and, for a wrong action of a kind that locks out
	// (ActionKind.LocksOut), the end of the lock-out it started; 0 for
	// every other refusal and when lock-outs are off. Times are
	// milliseconds since the game began.
	LockedUntil int64 `json:"lockedUntil,omitempty"`
	// Deadline is, for CodeTimeUp and CodeEarly, the game's deadline in
	// milliseconds since the game began (0 when it has none).
	Deadline int64 `json:"deadline,omitempty"`
	// Detail is a fixed phrase from the game saying what exactly was wrong,
	// e.g. "that is your own pile"; it may be empty.
	Detail string `json:"detail,omitempty"`

	sentinel bool // one of the Err* values, which name no seat
}

// The sentinel refusals, one per code, for errors.Is: errors.Is(err,
// ErrTooLate) holds for every refusal with CodeTooLate.
var (
	ErrNoSeat      = sentinel(CodeNoSeat)
	ErrMalformed   = sentinel(CodeMalformed)
	ErrGameOver    = sentinel(CodeGameOver)
	ErrTooLate     = sentinel(CodeTooLate)
	ErrLockedOut   = sentinel(CodeLockedOut)
	ErrBadTarget   = sentinel(CodeBadTarget)
	ErrNotAMatch   = sentinel(CodeNotAMatch)
	ErrNotYourTurn = sentinel(CodeNotYourTurn)
	ErrNotNow      = sentinel(CodeNotNow)
	ErrOut         = sentinel(CodeOut)
	ErrTimeUp      = sentinel(CodeTimeUp)
	ErrEarly       = sentinel(CodeEarly)
)

// sentinel returns the Err* value for code c.
func sentinel(c Code) *Refusal { return &Refusal{Code: c, Seat: NoSeat, sentinel: true} }

// Is reports whether target is a *Refusal with the same code, which makes
// the Err* sentinels work with errors.Is.
func (r *Refusal) Is(target error) bool {
	t, ok := target.(*Refusal)
	return ok && t.Code == r.Code
}

// Reason returns the human reason, a sentence fragment such as "too late:
// the claim was made against version 3, the table is at version 4".
func (r *Refusal) Reason() string {
	detail := func(def string) string {
		if r.Detail != "" {
			return r.Detail
		}
		return def
	}
	switch r.Code {
	case CodeNoSeat:
		return fmt.Sprintf("seat %d is not at this table", r.Seat)
	case CodeMalformed:
		return "malformed action: " + detail("it means nothing in this game")
	case CodeGameOver:
		return "the game is over"
	case CodeTooLate:
		return fmt.Sprintf("too late: the claim was made against version %d, the table is at version %d", r.Version, r.Current)
	case CodeLockedOut:
		return fmt.Sprintf("locked out after a wrong claim until %d ms", r.LockedUntil)
	case CodeBadTarget:
		return "target not allowed: " + detail("the game does not allow that target") + r.lockNote()
	case CodeNotAMatch:
		return fmt.Sprintf("not a match: %s", detail(fmt.Sprintf("symbol %d is not on both cards", r.Symbol))) + r.lockNote()
	case CodeNotYourTurn:
		return "not your turn: " + detail("another player is to play")
	case CodeNotNow:
		return "not now: " + detail("the game is not at a point where that can be done")
	case CodeOut:
		return "out for the round: " + detail("you may not play again before the next round")
	case CodeTimeUp:
		return fmt.Sprintf("time is up: %s", detail(fmt.Sprintf("the time ran out at %d ms, before the action arrived", r.Deadline)))
	case CodeEarly:
		if r.Deadline == 0 {
			return "early: nothing is due; the game has no deadline now"
		}
		return fmt.Sprintf("early: nothing is due before %d ms", r.Deadline)
	}
	return fmt.Sprintf("refused (%v)", r.Code)
}

// LocksOut reports whether the refusal locked its seat out: a wrong action
// of a kind that locks out, refused while lock-outs are on; LockedUntil says
// until when. These are the only refusals that change the state, and so the
// only ones a game record needs.
func (r *Refusal) LocksOut() bool { return r.LockedUntil != 0 && r.Code != CodeLockedOut }

func (r *Refusal) lockNote() string {
	if r.LockedUntil > 0 {
		return fmt.Sprintf("; locked out until %d ms", r.LockedUntil)
	}
	return ""
}

// Error returns "rules: seat N: " followed by the reason; for the Err*
// sentinels, which name no seat, "rules: refused: " and the code.
func (r *Refusal) Error() string {
	if r.sentinel {
		return "rules: refused: " + r.Code.String()
	}
	return fmt.Sprintf("rules: seat %d: %s", r.Seat, r.Reason())
}

// MarshalJSON encodes the refusal with its fields and its human reason
// under "reason", ready to send to the client that acted.
func (r *Refusal) MarshalJSON() ([]byte, error) {
	type plain Refusal
	return json.Marshal(struct {
		*plain
		Reason string `json:"reason"`
	}{(*plain)(r), r.Reason()})
}

// refuse returns a refusal of action a with the given code and detail.
func refuse(code Code, a *Action, detail string) *Refusal {
	return &Refusal{Code: code, Seat: a.Seat, Symbol: a.Symbol, Version: a.Version, Detail: detail}
}
