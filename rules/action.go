package rules

import (
	"encoding/json"
	"fmt"
)

// ActionKind says what an action asks for. Its JSON form is its name.
type ActionKind uint8

// The action kinds. A game refuses, as malformed, a kind it does not use
// (Info.Acts lists the kinds a game takes). Their JSON names are stable:
// records and the protocol use them.
const (
	// ActionClaim names a symbol shared by the cards the game compares
	// (and, where the game needs one, the target). It is the zero kind, so
	// an Action literal without a Kind is a claim.
	ActionClaim ActionKind = iota
	// ActionDraw asks to draw a card (Anarchy Pancakes: "no match? draw 1
	// card"). It carries no symbol.
	ActionDraw
	// ActionTick is the game clock, not a seat: the time has come for what
	// the game said it would do at State.Deadline (turn a card, end a
	// study time, end a turn that ran out). Its Seat is NoSeat; it carries
	// no symbol and no target; its At is when the driver applied it, no
	// earlier than the deadline. State.Tick builds it.
	ActionTick
	// ActionFlip names a symbol and flips the face-down card in the one
	// target zone (Memory).
	ActionFlip
	// ActionLay lays the hand card in the one target zone at the end of a
	// row (False Poker). It carries no symbol.
	ActionLay
	// ActionStop says "STOP" (False Poker). It carries no symbol and no
	// target.
	ActionStop
	// ActionWrite writes a symbol on the seat's answer sheet
	// (Reflection); only the seat sees it until the answers are scored.
	ActionWrite
	// ActionGuess guesses that the symbol is the secret (Guess).
	ActionGuess
	// ActionDiscard discards the top card of the seat's pile to see the
	// next (Collect the Symbols). It carries no symbol and no target.
	ActionDiscard
	// ActionTake takes over the discard pile in the one target zone as
	// the seat's new pile (Collect the Symbols). It carries no symbol.
	ActionTake
)

var actionKindNames = []string{
	ActionClaim: "claim", ActionDraw: "draw", ActionTick: "tick", ActionFlip: "flip", ActionLay: "lay",
	ActionStop: "stop", ActionWrite: "write", ActionGuess: "guess", ActionDiscard: "discard", ActionTake: "take",
}

// String returns the name of the kind, e.g. "claim".
func (k ActionKind) String() string { return enumText(actionKindNames, int(k), "ActionKind") }

// MarshalText encodes the kind as its name.
func (k ActionKind) MarshalText() ([]byte, error) {
	return enumMarshal(actionKindNames, int(k), "ActionKind")
}

// AppendText appends the kind's name to b, as MarshalText returns it.
func (k ActionKind) AppendText(b []byte) ([]byte, error) {
	return enumAppend(b, actionKindNames, int(k), "ActionKind")
}

// UnmarshalText decodes a kind from its name.
func (k *ActionKind) UnmarshalText(b []byte) error {
	v, err := enumParse(actionKindNames, b, "action kind")
	*k = ActionKind(v)
	return err
}

// HasSymbol reports whether an action of kind k names a symbol: a claim,
// a flip, a write or a guess. The symbol of any other kind is ignored.
func (k ActionKind) HasSymbol() bool {
	return k == ActionClaim || k == ActionFlip || k == ActionWrite || k == ActionGuess
}

// LocksOut reports whether a wrong action of kind k, one refused with
// CodeNotAMatch or CodeBadTarget (Code.Wrong), locks its seat out for
// Config.Lockout. Only the racing kinds do: a claim, in every game that
// takes claims, and an Anarchy Pancakes draw. Without the lock-out a client
// could try every symbol or target until one is accepted (RULES.md §7.2). A
// wrong flip, lay, write or take is judged on what the seat sees, so a free
// retry gives nothing away: it is refused with its reason and no lock-out,
// and in a game with turns it never costs the seat its turn.
func (k ActionKind) LocksOut() bool { return k == ActionClaim || k == ActionDraw }

// targets returns the number of target zones an action of kind k names in
// game info: Info.Targets for a claim, one for a flip, a lay or a take,
// none otherwise.
func (k ActionKind) targets(info *Info) int {
	switch k {
	case ActionClaim:
		return info.Targets
	case ActionFlip, ActionLay, ActionTake:
		return 1
	}
	return 0
}

// MaxTargets is the largest number of zones one action can point at (three,
// for the three cards of a Triplets claim).
const MaxTargets = 3

// Targets lists the zones an action points at, in the order the game
// defines: the opponent's pile in Hot Potato, the three grid slots in
// Triplets, the own stack and then the matching card in Anarchy Pancakes.
// It holds at most MaxTargets zones without allocating; the zero value is
// the empty list. Its JSON form is an array of zone indices.
type Targets struct {
	n int8
	z [MaxTargets]int32
}

// To returns the list of the given zones. It panics when given more than
// MaxTargets zones, which is a programming error; decoded input that is too
// long fails in UnmarshalJSON instead.
func To(zones ...int) Targets {
	if len(zones) > MaxTargets {
		panic(fmt.Sprintf("rules: To: %d zones, at most %d", len(zones), MaxTargets))
	}
	var t Targets
	t.n = int8(len(zones))
	for i, z := range zones {
		t.z[i] = int32(z)
	}
	return t
}

// Len returns the number of zones in the list.
func (t Targets) Len() int { return int(t.n) }

// At returns the i-th zone of the list, 0 <= i < Len().
func (t Targets) At(i int) int {
	if i < 0 || i >= int(t.n) {
		panic(fmt.Sprintf("rules: Targets.At(%d) of %d", i, t.n))
	}
	return int(t.z[i])
}

// MarshalJSON encodes the list as a JSON array of zone indices.
func (t Targets) MarshalJSON() ([]byte, error) {
	zs := make([]int32, t.n)
	copy(zs, t.z[:t.n])
	return json.Marshal(zs)
}

// UnmarshalJSON decodes the list from a JSON array of at most MaxTargets
// zone indices.
func (t *Targets) UnmarshalJSON(b []byte) error {
	var zs []int32
	if err := json.Unmarshal(b, &zs); err != nil {
		return err
	}
	if len(zs) > MaxTargets {
		return fmt.Errorf("rules: an action names at most %d target zones, got %d", MaxTargets, len(zs))
	}
	*t = Targets{n: int8(len(zs))}
	copy(t.z[:], zs)
	return nil
}

// Action is one input to a game: a claim, a draw or another kind of move
// by one seat (or a tick of the game clock), made against the state version
// the seat last saw and stamped with the time it arrived. Actions are plain data, so a record of them replays a game.
type Action struct {
	// Kind is what the action asks for; the zero kind is ActionClaim.
	Kind ActionKind `json:"kind"`
	// Seat is the seat acting, 0..players-1; NoSeat for a tick.
	Seat int `json:"seat"`
	// Symbol is the symbol a claim, flip, write or guess names; other
	// kinds ignore it (ActionKind.HasSymbol).
	Symbol int `json:"symbol"`
	// Target lists the zones the action points at, where the kind needs
	// them (a claim: Info.Targets; a flip, a lay, a take: one); empty
	// otherwise.
	Target Targets `json:"target"`
	// Version is the state version the seat saw when it acted. An action
	// against any other version is refused with CodeTooLate.
	Version uint64 `json:"version"`
	// At is when the action arrived, in milliseconds since the game began.
	// It is the only clock the rules know: lock-outs and deadlines are
	// measured with it.
	At int64 `json:"at"`
}
