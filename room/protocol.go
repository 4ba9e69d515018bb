package room

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// Version is the protocol version, the "v" of hello and welcome.
const Version = 1

// MaxFrame is the largest frame a client may send, in bytes; a larger one
// closes the connection with status 1009.
const MaxFrame = 4096

// The error codes of an "error" message (docs/PROTOCOL.md).
const (
	CodeBadMessage  = "badMessage"
	CodeBadRequest  = "badRequest"
	CodeNoRoom      = "noRoom"
	CodeRoomFull    = "roomFull"
	CodeNotAllowed  = "notAllowed"
	CodeBadToken    = "badToken"
	CodeRateLimited = "rateLimited"
	CodeBusy        = "busy"
	CodeFull        = "serverFull"
)

// Languages are the accepted values of hello's "lang".
var Languages = []string{"en", "pl", "da", "ru", "zh", "it"}

// MaxName is the longest nickname, in characters.
const MaxName = 24

// request is one client message, every field any type may carry. Fields
// that may be absent or null are pointers or raw JSON.
type request struct {
	Type    string            `json:"type"`
	ID      string            `json:"id"`
	V       int               `json:"v"`
	Name    string            `json:"name"`
	Lang    string            `json:"lang"`
	Room    json.RawMessage   `json:"room"`
	Token   string            `json:"token"`
	Seat    *int              `json:"seat"`
	Bot     json.RawMessage   `json:"bot"`
	Symbol  *int              `json:"symbol"`
	Target  []int             `json:"target"`
	Version *uint64           `json:"version"`
	Table   *int              `json:"table"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Nonce   json.RawMessage   `json:"nonce"`

	// What Seat, Symbol, Table and Version point to when fastParse
	// read them.
	seat, symbol, table int
	version             uint64
}

// RoomSpec is the "room" object of a create request.
type RoomSpec struct {
	Game        string                       `json:"game"`
	Options     map[string]string            `json:"options"`
	GameOptions map[string]map[string]string `json:"gameOptions"`
	Deck        string                       `json:"deck"`
	Seats       int                          `json:"seats"`
	Bots        []*string                    `json:"bots"`
	Private     bool                         `json:"private"`
	Scoring     string                       `json:"scoring"`
	Games       int                          `json:"games"`
	Lockout     *int64                       `json:"lockout"`
}

// protoError is an error frame to send: a code and a message.
type protoError struct {
	code, msg string
}

func (e *protoError) Error() string { return e.code + ": " + e.msg }

func errf(code, format string, args ...any) *protoError {
	return &protoError{code: code, msg: fmt.Sprintf(format, args...)}
}

// knownTypes are the client message types.
var knownTypes = []string{"hello", "create", "join", "watch", "resume", "seat", "start",
	"claim", "draw", "flip", "lay", "stop", "write", "guess", "discard", "take", "pick", "leave", "ping"}

// actionTypes are the message types that make a seat's action at the
// table, each named as its rules.ActionKind: every kind but the clock's
// tick, which only the room makes. A game takes the kinds its Info.Acts
// lists (a claim where it lists none) and refuses the others as malformed.
var actionTypes = map[string]rules.ActionKind{
	"claim": rules.ActionClaim, "draw": rules.ActionDraw, "flip": rules.ActionFlip, "lay": rules.ActionLay,
	"stop": rules.ActionStop, "write": rules.ActionWrite, "guess": rules.ActionGuess,
	"discard": rules.ActionDiscard, "take": rules.ActionTake,
}

// parse decodes one frame into a request, or says why it cannot.
func parse(b []byte) (*request, *protoError) {
	if !utf8.Valid(b) {
		return nil, errf(CodeBadMessage, "the frame is not UTF-8 text")
	}
	// The frames that come by the thousand (claims) are flat objects of
	// plain strings and whole numbers, which fastParse reads; anything
	// else it leaves to encoding/json.
	var r request
	if fastParse(b, &r) {
		return r.check()
	}
	r = request{}
	// One pass: a frame that is not JSON fails with a syntax error, one
	// that is JSON but not an object with a type error at its top level.
	if err := json.Unmarshal(b, &r); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, errf(CodeBadMessage, "not JSON: %v", err)
		case errors.As(err, &te) && te.Field == "":
			return nil, errf(CodeBadMessage, "a message is a JSON object with a \"type\"")
		case errors.As(err, &te):
			return nil, errf(CodeBadMessage, "field %q: expected %v, got JSON %s", te.Field, te.Type, te.Value)
		}
		return nil, errf(CodeBadMessage, "%v", err)
	}
	if i := bytes.IndexFunc(b, func(c rune) bool { return !unicode.IsSpace(c) }); i < 0 || b[i] != '{' {
		return nil, errf(CodeBadMessage, "a message is a JSON object with a \"type\"")
	}
	return r.check()
}

// check checks the fields every message has.
func (r *request) check() (*request, *protoError) {
	if len(r.ID) > 64 {
		return nil, errf(CodeBadMessage, "\"id\" is %d bytes; at most 64", len(r.ID))
	}
	if r.Type == "" {
		return nil, &protoError{CodeBadMessage, "the message has no \"type\"; types: " + strings.Join(knownTypes, ", ")}
	}
	for _, t := range knownTypes {
		if r.Type == t {
			return r, nil
		}
	}
	return nil, errf(CodeBadMessage, "unknown type %q; types: %s", r.Type, strings.Join(knownTypes, ", "))
}

// cleanName checks and trims a nickname: 1 to MaxName characters, no
// control characters. Markup is kept as typed: it is text, and every
// client shows it as text.
func cleanName(name string) (string, *protoError) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxName {
		return "", errf(CodeBadRequest, "a name is 1 to %d characters, not %d", MaxName, n)
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return "", errf(CodeBadRequest, "a name may not hold control characters")
		}
	}
	return name, nil
}

// SeatInfo is one seat as lobby, state and over messages show it.
type SeatInfo struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Level     string `json:"level,omitempty"`
	Connected bool   `json:"connected"`
}

// The seat kinds.
const (
	KindHuman = "human"
	KindBot   = "bot"
	KindFree  = "free"
)

// LobbyInfo is the "room" of a lobby message.
type LobbyInfo struct {
	Code    string            `json:"code"`
	Phase   string            `json:"phase"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options,omitempty"`
	Deck    string            `json:"deck"`
	Private bool              `json:"private"`
	Scoring string            `json:"scoring"`
	Games   int               `json:"games"`
	Lockout int64             `json:"lockout"`
	Seats   []SeatInfo        `json:"seats"`
	Host    int               `json:"host"`
}

// SessionInfo is the "session" of state and over messages: the phase,
// the picker, the standings and the mini-games played.
type SessionInfo struct {
	Phase     session.Phase     `json:"phase"`
	Game      string            `json:"game"`
	Picker    int               `json:"picker"`
	Games     int               `json:"games"`
	Played    int               `json:"played"`
	Standings session.Standings `json:"standings"`
	History   []session.Played  `json:"history"`
}

// The server messages.
type (
	msgJoined struct {
		Type  string `json:"type"`
		ID    string `json:"id,omitempty"`
		Room  string `json:"room"`
		Seat  int    `json:"seat"`
		Token string `json:"token,omitempty"`
		Host  int    `json:"host"`
	}
	msgLobby struct {
		Type string    `json:"type"`
		Room LobbyInfo `json:"room"`
	}
	msgCountdown struct {
		Type  string `json:"type"`
		Ms    int64  `json:"ms"`
		Table int    `json:"table"`
		Game  string `json:"game"`
	}
	msgState struct {
		Type    string      `json:"type"`
		Table   int         `json:"table"`
		Game    string      `json:"game"`
		Deck    string      `json:"deck"`
		Elapsed int64       `json:"elapsed"`
		Players []int       `json:"players"`
		Seat    int         `json:"seat"`
		View    rules.View  `json:"view"`
		Seats   []SeatInfo  `json:"seats"`
		Session SessionInfo `json:"session"`
	}
	msgUpdate struct {
		Type    string        `json:"type"`
		Table   int           `json:"table"`
		Version uint64        `json:"version"`
		At      int64         `json:"at"`
		Events  []rules.Event `json:"events"`
		View    rules.View    `json:"view"`
	}
	msgRefused struct {
		Type        string     `json:"type"`
		ID          string     `json:"id,omitempty"`
		Table       int        `json:"table"`
		Code        rules.Code `json:"code"`
		Reason      string     `json:"reason"`
		Version     uint64     `json:"version"`
		Current     uint64     `json:"current"`
		LockedUntil int64      `json:"lockedUntil,omitempty"`
	}
	msgOver struct {
		Type    string        `json:"type"`
		Table   int           `json:"table"`
		Game    string        `json:"game"`
		Players []int         `json:"players"`
		Result  *rules.Result `json:"result"`
		Session SessionInfo   `json:"session"`
	}
	msgPick struct {
		Type    string   `json:"type"`
		Picker  int      `json:"picker"`
		Choices []string `json:"choices"`
		Ms      int64    `json:"ms"`
	}
	msgPresence struct {
		Type      string `json:"type"`
		Seat      int    `json:"seat"`
		Connected bool   `json:"connected"`
	}
	msgClosed struct {
		Type   string `json:"type"`
		Reason string `json:"reason"`
	}
	msgError struct {
		Type    string `json:"type"`
		ID      string `json:"id,omitempty"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	msgWelcome struct {
		Type   string `json:"type"`
		ID     string `json:"id,omitempty"`
		V      int    `json:"v"`
		Server string `json:"server"`
		Name   string `json:"name"`
	}
	msgPong struct {
		Type  string          `json:"type"`
		ID    string          `json:"id,omitempty"`
		Nonce json.RawMessage `json:"nonce"`
	}
)

// encode marshals a server message; the types above always marshal.
func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("room: encoding %T: %v", v, err))
	}
	return b
}

// errorFrame is the encoded error message for e, echoing id.
func errorFrame(e *protoError, id string) []byte {
	return encode(msgError{Type: "error", ID: id, Code: e.code, Message: e.msg})
}

// fastParse reads frame b into r when it is a JSON object whose keys are
// fields of a request spelled as the protocol spells them and whose values
// are strings without escapes, whole numbers of at most 18 digits, or
// (for "target") arrays of them: it then sets what json.Unmarshal would
// and reports true. For anything else it reports false, leaving r in any
// state, and the frame goes to encoding/json. b is valid UTF-8.
func fastParse(b []byte, r *request) bool {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return false // no "type": encoding/json says so
	}
	for {
		key, j, ok := plainString(b, i)
		if !ok {
			return false
		}
		i = skipSpace(b, j)
		if i == len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		switch string(key) {
		case "type", "id", "name", "lang", "token", "game", "room":
			v, j, ok := plainString(b, i)
			if !ok {
				return false
			}
			switch string(key) {
			case "type":
				r.Type = string(v)
			case "id":
				r.ID = string(v)
			case "name":
				r.Name = string(v)
			case "lang":
				r.Lang = string(v)
			case "token":
				r.Token = string(v)
			case "game":
				r.Game = string(v)
			case "room":
				r.Room = append(json.RawMessage(nil), b[i:j]...)
			}
			i = j
		case "v", "seat", "symbol", "table":
			n, j, ok := wholeNumber(b, i)
			if !ok {
				return false
			}
			switch string(key) {
			case "v":
				r.V = n
			case "seat":
				r.seat, r.Seat = n, &r.seat
			case "symbol":
				r.symbol, r.Symbol = n, &r.symbol
			case "table":
				r.table, r.Table = n, &r.table
			}
			i = j
		case "version":
			n, j, ok := wholeNumber(b, i)
			if !ok || n < 0 {
				return false
			}
			r.version, r.Version = uint64(n), &r.version
			i = j
		case "target":
			if i == len(b) || b[i] != '[' {
				return false
			}
			r.Target = r.Target[:0]
			if r.Target == nil {
				r.Target = make([]int, 0, 2)
			}
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			for {
				n, j, ok := wholeNumber(b, i)
				if !ok {
					return false
				}
				r.Target = append(r.Target, n)
				i = skipSpace(b, j)
				if i == len(b) {
					return false
				}
				if b[i] == ']' {
					i++
					break
				}
				if b[i] != ',' {
					return false
				}
				i = skipSpace(b, i+1)
			}
		default:
			return false
		}
		i = skipSpace(b, i)
		if i == len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
			continue
		case '}':
			return skipSpace(b, i+1) == len(b)
		}
		return false
	}
}

// skipSpace returns the index of the first byte from i on that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a JSON string without escapes or control characters
// at b[i]: its bytes without the quotes, and the index after it.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i == len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// wholeNumber reads a JSON integer of at most 18 digits at b[i], and
// returns the index after it; a number with a fraction or an exponent is
// not one.
func wholeNumber(b []byte, i int) (int, int, bool) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start, n := i, 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int(b[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || digits > 18 || (b[start] == '0' && digits > 1) {
		return 0, 0, false
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0, 0, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}
