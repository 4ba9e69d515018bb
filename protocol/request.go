package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/rules"
)

// Type is what a request asks for: its "type", but that every action of a
// seat at the table (claim, draw, flip…) is TypeAction, its kind in
// Request.Action.
type Type uint8

// The request types, in the order of docs/PROTOCOL.md.
const (
	// TypeNone is no request: a frame that could not be read.
	TypeNone Type = iota
	TypeHello
	TypeCreate
	TypeJoin
	TypeWatch
	TypeResume
	TypeSeat
	TypeStart
	// TypeAction is a seat's action at the table; its message type is
	// the name of its rules.ActionKind.
	TypeAction
	TypePick
	TypeLeave
	TypePing
)

var typeNames = [...]string{TypeHello: "hello", TypeCreate: "create", TypeJoin: "join", TypeWatch: "watch",
	TypeResume: "resume", TypeSeat: "seat", TypeStart: "start", TypePick: "pick", TypeLeave: "leave", TypePing: "ping"}

// targetUse says what an action's "target" is to its kind.
type targetUse uint8

const (
	targetOptional targetUse = iota // passed on, empty when absent: the game says what it needs
	targetNeeded                    // the action points at a zone: "target" must be there
	targetIgnored                   // the action points at nothing: a "target" sent along is dropped
)

// actions are the kinds of action a client may send, each as the message
// type of its name, in the order of docs/PROTOCOL.md: every kind but the
// clock's tick, which only the room makes. A symbol is needed where the
// kind has one (rules.ActionKind.HasSymbol). A game takes the kinds its
// Info.Acts lists and refuses the others as malformed.
var actions = []struct {
	kind   rules.ActionKind
	target targetUse
}{
	{rules.ActionClaim, targetOptional},
	{rules.ActionDraw, targetIgnored},
	{rules.ActionFlip, targetNeeded},
	{rules.ActionLay, targetNeeded},
	{rules.ActionStop, targetIgnored},
	{rules.ActionWrite, targetOptional},
	{rules.ActionGuess, targetOptional},
	{rules.ActionDiscard, targetIgnored},
	{rules.ActionTake, targetNeeded},
}

// ActionType returns the message type of an action of kind k, and whether
// a client may send that kind at all.
func ActionType(k rules.ActionKind) (string, bool) {
	for _, a := range actions {
		if a.kind == k {
			return k.String(), true
		}
	}
	return "", false
}

// ActionKind returns the kind of action a message of type typ makes, and
// whether it makes one.
func ActionKind(typ string) (rules.ActionKind, bool) {
	i := actionIndex([]byte(typ))
	if i < 0 {
		return 0, false
	}
	return actions[i].kind, true
}

// actionIndex returns the index in actions of the kind named typ, or -1.
func actionIndex(typ []byte) int {
	for i, a := range actions {
		if a.kind.String() == string(typ) {
			return i
		}
	}
	return -1
}

// typeList lists every request type, for the error naming them.
var typeList = func() string {
	var names []string
	for t := TypeHello; t <= TypePing; t++ {
		if t == TypeAction {
			for _, a := range actions {
				names = append(names, a.kind.String())
			}
			continue
		}
		names = append(names, typeNames[t])
	}
	return strings.Join(names, ", ")
}()

// Request is one client message, read and checked by Decode: its type,
// the fields that type takes, and nothing else.
//
// Its seats and tables are the protocol's: seats are the room's (session)
// seats, tables are numbered across the room's sessions. The room turns
// them into the game's at one place (room/boundary.go); Action.Seat and
// Action.At are left for it to fill.
type Request struct {
	// Type is what the request asks for.
	Type Type
	// ID is the client's "id", echoed by the answers to the request.
	ID string

	// V, Name and Lang are hello's protocol version, nickname and
	// language, as sent (CheckHello checks them).
	V    int
	Name string
	Lang string
	// Spec is the room create asks for.
	Spec *RoomSpec
	// Code is the room join, watch and resume name.
	Code string
	// Token is the seat's token resume presents.
	Token string
	// Seat is the seat of a seat request, or the seat an action says it
	// is made for, when HasSeat.
	Seat    int
	HasSeat bool
	// Bot is the bot level a seat request puts on the seat, or nil to
	// free it for a person.
	Bot *string
	// Game is the mini-game pick names.
	Game string
	// Nonce is ping's nonce, as sent: any JSON, null when none.
	Nonce json.RawMessage

	// Table is the table an action was made at.
	Table int
	// Action is the action: its Kind, Symbol, Target and Version as sent;
	// its Seat is rules.NoSeat and its At 0 until the room sets them.
	Action rules.Action
}

// TypeName returns the request's message type, e.g. "claim".
func (r *Request) TypeName() string {
	if r.Type == TypeAction {
		return r.Action.Kind.String()
	}
	if int(r.Type) < len(typeNames) {
		return typeNames[r.Type]
	}
	return ""
}

// RoomSpec is the "room" object of a create request.
type RoomSpec struct {
	Game        string                       `json:"game,omitempty"`
	Options     map[string]string            `json:"options,omitempty"`
	GameOptions map[string]map[string]string `json:"gameOptions,omitempty"`
	Deck        string                       `json:"deck,omitempty"`
	Seats       int                          `json:"seats"`
	Bots        []*string                    `json:"bots,omitempty"`
	Private     bool                         `json:"private,omitempty"`
	Scoring     string                       `json:"scoring,omitempty"`
	Games       int                          `json:"games,omitempty"`
	// Lockout is how long a wrong claim or draw locks its seat out, in
	// milliseconds: nil (absent) for the server's default (dobble serve
	// --lockout), 0 for none, at most room.MaxLockout. The same
	// convention holds for --lockout, the lobby's "lockout" and a
	// record's config.lockout.
	Lockout *int64 `json:"lockout,omitempty"`
}

// frame is what a frame held beside the fields Decode reads straight into
// the Request: the type's name, raw JSON for the fields read by type, which
// of the optional numbers were there, and the targets.
type frame struct {
	typ     []byte
	room    []byte
	bot     []byte
	nonce   []byte
	has     uint8
	targets int // how many were sent, -1 for none
	target  [rules.MaxTargets]int
}

// The numbers frame.has records.
const (
	hasSeat uint8 = 1 << iota
	hasSymbol
	hasTable
	hasVersion
)

// addTarget records one more target zone; those beyond MaxTargets are
// counted only.
func (f *frame) addTarget(z int) {
	if f.targets < rules.MaxTargets {
		f.target[f.targets] = z
	}
	f.targets++
}

// wire is a request as encoding/json reads it: every field any type may
// carry, those that may be absent or null as pointers or raw JSON.
type wire struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	V       int             `json:"v"`
	Name    string          `json:"name"`
	Lang    string          `json:"lang"`
	Room    json.RawMessage `json:"room"`
	Token   string          `json:"token"`
	Seat    *int            `json:"seat"`
	Bot     json.RawMessage `json:"bot"`
	Symbol  *int            `json:"symbol"`
	Target  []int           `json:"target"`
	Version *uint64         `json:"version"`
	Table   *int            `json:"table"`
	Game    string          `json:"game"`
	Nonce   json.RawMessage `json:"nonce"`
}

// Decode reads one frame into r and checks it: a JSON object with a known
// "type" and the fields that type needs, each of the right type (the
// error badMessage otherwise, or badRequest for a nonce too long). r is
// reset first. When the frame is an object of a known type, r.Type and
// r.ID are set even if it is refused, so that the answer can echo the id
// and the server can tell what was asked.
func Decode(b []byte, r *Request) *Error {
	*r = Request{Seat: rules.NoSeat, Action: rules.Action{Seat: rules.NoSeat}}
	if !utf8.Valid(b) {
		return Errorf(CodeBadMessage, "the frame is not UTF-8 text")
	}
	f := frame{targets: -1}
	// The frames that come by the thousand (actions) are flat objects of
	// plain strings and whole numbers, which readFast reads; anything
	// else goes to encoding/json.
	if !readFast(b, r, &f) {
		*r = Request{Seat: rules.NoSeat, Action: rules.Action{Seat: rules.NoSeat}}
		f = frame{targets: -1}
		if err := readJSON(b, r, &f); err != nil {
			return err
		}
	}
	return f.check(r)
}

// readJSON reads b with encoding/json. One pass: a frame that is not JSON
// fails with a syntax error, one that is JSON but not an object with a
// type error at its top level.
func readJSON(b []byte, r *Request, f *frame) *Error {
	var w wire
	if err := json.Unmarshal(b, &w); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return Errorf(CodeBadMessage, "not JSON: %v", err)
		case errors.As(err, &te) && te.Field == "":
			return Errorf(CodeBadMessage, "a message is a JSON object with a \"type\"")
		case errors.As(err, &te):
			return Errorf(CodeBadMessage, "field %q: expected %v, got JSON %s", te.Field, te.Type, te.Value)
		}
		return Errorf(CodeBadMessage, "%v", err)
	}
	if i := bytes.IndexFunc(b, func(c rune) bool { return !unicode.IsSpace(c) }); i < 0 || b[i] != '{' {
		return Errorf(CodeBadMessage, "a message is a JSON object with a \"type\"")
	}
	f.typ, f.room, f.bot, f.nonce = []byte(w.Type), w.Room, w.Bot, w.Nonce
	r.ID, r.V, r.Name, r.Lang, r.Token, r.Game = w.ID, w.V, w.Name, w.Lang, w.Token, w.Game
	if w.Seat != nil {
		f.has |= hasSeat
		r.Seat = *w.Seat
	}
	if w.Symbol != nil {
		f.has |= hasSymbol
		r.Action.Symbol = *w.Symbol
	}
	if w.Table != nil {
		f.has |= hasTable
		r.Table = *w.Table
	}
	if w.Version != nil {
		f.has |= hasVersion
		r.Action.Version = *w.Version
	}
	if w.Target != nil {
		f.targets = 0
		for _, z := range w.Target {
			f.addTarget(z)
		}
	}
	return nil
}

// check checks what frame f said for request r and sets the fields its
// type takes: the rest are left zero.
func (f *frame) check(r *Request) *Error {
	if len(r.ID) > MaxID {
		n := len(r.ID)
		r.ID = ""
		return Errorf(CodeBadMessage, "\"id\" is %d bytes; at most %d", n, MaxID)
	}
	if len(f.typ) == 0 {
		return Errorf(CodeBadMessage, "the message has no \"type\"; types: %s", typeList)
	}
	act := actionIndex(f.typ)
	switch {
	case act >= 0:
		r.Type = TypeAction
		r.Action.Kind = actions[act].kind
	default:
		for t, n := range typeNames {
			if n != "" && n == string(f.typ) {
				r.Type = Type(t)
			}
		}
		if r.Type == TypeNone {
			return Errorf(CodeBadMessage, "unknown type %q; types: %s", f.typ, typeList)
		}
	}
	// What a type does not take is dropped, so that the room sees only
	// what the type means.
	in := *r
	*r = Request{Type: in.Type, ID: in.ID, Seat: rules.NoSeat, Action: rules.Action{Kind: in.Action.Kind, Seat: rules.NoSeat}}
	switch r.Type {
	case TypeHello:
		r.V, r.Name, r.Lang = in.V, in.Name, in.Lang
	case TypeCreate:
		var spec RoomSpec
		if len(f.room) == 0 || json.Unmarshal(f.room, &spec) != nil {
			return Errorf(CodeBadMessage, "create needs \"room\": an object with game, deck, seats, bots…")
		}
		r.Spec = &spec
	case TypeJoin, TypeWatch, TypeResume:
		if len(f.room) == 0 || json.Unmarshal(f.room, &r.Code) != nil {
			return Errorf(CodeBadMessage, "%s needs \"room\": the room's code as a string", r.TypeName())
		}
		if r.Type == TypeResume {
			if in.Token == "" {
				return Errorf(CodeBadMessage, "resume needs \"token\", the seat's token from joined")
			}
			r.Token = in.Token
		}
	case TypeSeat:
		if f.has&hasSeat == 0 {
			return Errorf(CodeBadMessage, "seat needs \"seat\", a seat number")
		}
		r.Seat, r.HasSeat = in.Seat, true
		if b := strings.TrimSpace(string(f.bot)); b != "" && b != "null" {
			var level string
			if json.Unmarshal(f.bot, &level) != nil {
				return Errorf(CodeBadMessage, "field \"bot\": a bot level (%s) or null", strings.Join(bot.LevelNames(), ", "))
			}
			r.Bot = &level
		}
	case TypePick:
		if in.Game == "" {
			return Errorf(CodeBadMessage, "pick needs \"game\", the next mini-game")
		}
		r.Game = in.Game
	case TypePing:
		if len(f.nonce) > MaxNonce {
			return Errorf(CodeBadRequest, "a nonce is at most %d bytes of JSON", MaxNonce)
		}
		r.Nonce = json.RawMessage("null")
		if len(f.nonce) > 0 {
			r.Nonce = f.nonce
		}
	case TypeAction:
		return f.checkAction(r, &in, actions[act].target)
	}
	return nil
}

// checkAction checks an action, as read into in, and sets it in r: every
// action names its table and version, the kinds with a symbol their
// symbol, those that point at a zone their target.
func (f *frame) checkAction(r, in *Request, target targetUse) *Error {
	typ := in.Action.Kind.String()
	if f.has&hasVersion == 0 {
		return Errorf(CodeBadMessage, "%s needs \"version\", the version of the view it was made against", typ)
	}
	if f.has&hasTable == 0 {
		return Errorf(CodeBadMessage, "%s needs \"table\", the table of the view it was made against", typ)
	}
	r.Table, r.Action.Version = in.Table, in.Action.Version
	if in.Action.Kind.HasSymbol() {
		if f.has&hasSymbol == 0 {
			return Errorf(CodeBadMessage, "%s needs \"symbol\", the symbol's number", typ)
		}
		r.Action.Symbol = in.Action.Symbol
	}
	switch target {
	case targetNeeded:
		if f.targets < 0 {
			return Errorf(CodeBadMessage, "%s needs \"target\", an array holding the zone it points at", typ)
		}
	case targetIgnored:
		f.targets = -1
	}
	if f.targets > rules.MaxTargets {
		return Errorf(CodeBadMessage, "\"target\" names at most %d zones", rules.MaxTargets)
	}
	if f.targets > 0 {
		r.Action.Target = rules.To(f.target[:f.targets]...)
	}
	if f.has&hasSeat != 0 {
		r.Seat, r.HasSeat = in.Seat, true
	}
	return nil
}
