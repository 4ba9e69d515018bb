package protocol

import (
	"encoding/json"
	"fmt"

	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// Message is a server message. Its JSON is an object whose first member
// is "type", the message's Type, followed by the fields of the struct as
// their json tags name them (Append).
type Message interface {
	// Type returns the message's "type", e.g. "update".
	Type() string
}

// The server messages, in the order of docs/PROTOCOL.md. Their seats and
// tables are the protocol's (see Request); a view, its events and a
// result are the game's, in the seats of the table.
type (
	// Welcome answers hello.
	Welcome struct {
		ID     string `json:"id,omitempty"`
		V      int    `json:"v"`
		Server string `json:"server"`
		Name   string `json:"name"`
	}
	// Joined answers create, join, watch and resume.
	Joined struct {
		ID    string `json:"id,omitempty"`
		Room  string `json:"room"`
		Seat  int    `json:"seat"`
		Token string `json:"token,omitempty"`
		Host  int    `json:"host"`
	}
	// Lobby describes the room.
	Lobby struct {
		Room LobbyInfo `json:"room"`
	}
	// Countdown says when the next table starts.
	Countdown struct {
		Ms    int64  `json:"ms"`
		Table int    `json:"table"`
		Game  string `json:"game"`
	}
	// State is a table as one viewer sees it.
	State struct {
		Table   int    `json:"table"`
		Game    string `json:"game"`
		Deck    string `json:"deck"`
		Elapsed int64  `json:"elapsed"`
		// Players holds the room seat of each seat of the table.
		Players []int `json:"players"`
		// Seat is the viewer's seat at the table, or -1.
		Seat    int         `json:"seat"`
		View    rules.View  `json:"view"`
		Seats   []SeatInfo  `json:"seats"`
		Session SessionInfo `json:"session"`
	}
	// Update is an accepted action, or a tick of the game's clock, as one
	// viewer sees it. Updates encodes it for every viewer.
	Update struct {
		Table   int           `json:"table"`
		Version uint64        `json:"version"`
		At      int64         `json:"at"`
		Events  []rules.Event `json:"events"`
		View    rules.View    `json:"view"`
	}
	// Refused answers an action the rules refused, or one that came too
	// late for its table.
	Refused struct {
		ID          string     `json:"id,omitempty"`
		Table       int        `json:"table"`
		Code        rules.Code `json:"code"`
		Reason      string     `json:"reason"`
		Version     uint64     `json:"version"`
		Current     uint64     `json:"current"`
		LockedUntil int64      `json:"lockedUntil,omitempty"`
	}
	// Over says how a table ended.
	Over struct {
		Table int    `json:"table"`
		Game  string `json:"game"`
		// Players holds the room seat of each seat of the table, whose
		// seats Result numbers.
		Players []int         `json:"players"`
		Result  *rules.Result `json:"result"`
		Session SessionInfo   `json:"session"`
	}
	// PickMessage asks the picker for the next mini-game (type "pick").
	PickMessage struct {
		Picker  int      `json:"picker"`
		Choices []string `json:"choices"`
		Ms      int64    `json:"ms"`
	}
	// Presence says a seat's connection dropped or came back.
	Presence struct {
		Seat      int  `json:"seat"`
		Connected bool `json:"connected"`
	}
	// Closed says the room was closed, or left.
	Closed struct {
		Reason string `json:"reason"`
	}
	// Saved says what became of the storing of a finished table's game
	// when it did not simply work (Status): not stored yet and kept to
	// be tried again, stored after all (ID its id in the history), or
	// given up. Reason says why, in a few words, but for SavedStored.
	Saved struct {
		Table  int    `json:"table"`
		Game   string `json:"game"`
		Status string `json:"status"`
		ID     int64  `json:"id,omitempty"`
		Reason string `json:"reason,omitempty"`
	}
	// ErrorMessage answers a request that could not be served (type
	// "error").
	ErrorMessage struct {
		ID      string `json:"id,omitempty"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	// Pong answers ping. RTT is the connection's round trip as the
	// server last estimated it, in milliseconds rounded up, which it
	// credits to the claims when it ranks them by reaction
	// (docs/PROTOCOL.md); absent until measured.
	Pong struct {
		ID    string          `json:"id,omitempty"`
		Nonce json.RawMessage `json:"nonce"`
		RTT   int64           `json:"rtt,omitempty"`
	}
)

// The types of the server messages, for clients telling them apart.
const (
	MsgWelcome   = "welcome"
	MsgJoined    = "joined"
	MsgLobby     = "lobby"
	MsgCountdown = "countdown"
	MsgState     = "state"
	MsgUpdate    = "update"
	MsgRefused   = "refused"
	MsgOver      = "over"
	MsgPick      = "pick"
	MsgPresence  = "presence"
	MsgClosed    = "closed"
	MsgSaved     = "saved"
	MsgError     = "error"
	MsgPong      = "pong"
)

func (Welcome) Type() string      { return MsgWelcome }
func (Joined) Type() string       { return MsgJoined }
func (Lobby) Type() string        { return MsgLobby }
func (Countdown) Type() string    { return MsgCountdown }
func (State) Type() string        { return MsgState }
func (Update) Type() string       { return MsgUpdate }
func (Refused) Type() string      { return MsgRefused }
func (Over) Type() string         { return MsgOver }
func (PickMessage) Type() string  { return MsgPick }
func (Presence) Type() string     { return MsgPresence }
func (Closed) Type() string       { return MsgClosed }
func (Saved) Type() string        { return MsgSaved }
func (ErrorMessage) Type() string { return MsgError }
func (Pong) Type() string         { return MsgPong }

// The statuses of a saved message.
const (
	// SavedRetrying: the game could not be stored yet; the server keeps
	// it and tries again.
	SavedRetrying = "retrying"
	// SavedStored: a game that could not be stored at first now is.
	SavedStored = "stored"
	// SavedLost: the game will not be stored (the server keeps too many
	// games waiting already, or it stopped before it could store it).
	SavedLost = "lost"
)

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

// Encode returns the JSON of message m.
func Encode(m Message) []byte { return Append(nil, m) }

// Append appends the JSON of message m to b: an update or a refusal with
// the encoders generated from their types (encode_gen.go), any other
// message with encoding/json. A value that cannot be encoded (an enum
// without a name: a server's bug) makes encoding/json panic here, and is
// written as null by the generated encoders.
func Append(b []byte, m Message) []byte {
	switch m := m.(type) {
	case *Update:
		return appendUpdate(b, m)
	case Update:
		return appendUpdate(b, &m)
	case *Refused:
		return appendRefused(b, m)
	case Refused:
		return appendRefused(b, &m)
	}
	return appendMessage(b, m)
}

// appendMessage appends m as encoding/json writes it, after its "type".
func appendMessage(b []byte, m Message) []byte {
	body, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("protocol: encoding %T: %v", m, err))
	}
	b = append(b, `{"type":`...)
	b = appendString(b, m.Type())
	if len(body) > 2 {
		b = append(b, ',')
	}
	return append(b, body[1:]...)
}

// ErrorFrame is the encoded error message for e, echoing id.
func ErrorFrame(e *Error, id string) []byte {
	return Encode(ErrorMessage{ID: id, Code: e.Code, Message: e.Message})
}
