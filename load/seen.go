package load

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
	"time"
)

// SeenKind says what a client saw (Seen.Kind).
type SeenKind int

// The kinds of Seen.
const (
	// SeenPlay: the rooms have been filled and their hosts start them.
	// Client and Room are −1.
	SeenPlay SeenKind = iota
	// SeenState: the client was sent a table (state), at its start or on
	// a resume (Resumed).
	SeenState
	// SeenUpdate: the client was sent an accepted action or a tick of the
	// game's clock (update): what it saw acknowledged.
	SeenUpdate
	// SeenOver: a table ended (over).
	SeenOver
	// SeenDrop: the client's connection dropped while the rooms played
	// (Code says how); with Config.Resume it tries to come back, without
	// it plays no more.
	SeenDrop
	// SeenBack: the client took its seat back after a drop and is back in
	// play (Since is when it dropped).
	SeenBack
	// SeenFailed: the client gave up coming back (Code says why).
	SeenFailed
)

// String names the kind.
func (k SeenKind) String() string {
	switch k {
	case SeenPlay:
		return "play"
	case SeenState:
		return "state"
	case SeenUpdate:
		return "update"
	case SeenOver:
		return "over"
	case SeenDrop:
		return "drop"
	case SeenBack:
		return "back"
	case SeenFailed:
		return "failed"
	}
	return "unknown"
}

// Seen is one thing a client saw, or what became of its connection, as
// Config.Watch is told it.
type Seen struct {
	Kind SeenKind
	// Client is the client's number, from 0 (its nickname is "Name
	// Client"), Room the number of its room (Client / PlayersPerRoom);
	// both −1 for SeenPlay.
	Client, Room int
	// At is when the client received it.
	At time.Time
	// Table is the room's table of a state, an update or an over; Version
	// the version of its view (of a state or an update); Seat the
	// client's seat at that table (the view's, −1 when it does not play
	// there, as in a tie-break among others).
	Table   int
	Version uint64
	Seat    int
	// Over is set when the view shows the game ended.
	Over bool
	// View is the fingerprint of the view as the server wrote it, Frame
	// that of the whole update (its table, version, time, events and
	// view): see Fingerprint.
	View, Frame uint64
	// Events are an update's events, each its kind and seat.
	Events []Event
	// Own is set on an update holding an action of the client's own (its
	// claim, flip, write…): an action it saw acknowledged.
	Own bool
	// Resumed is set on the first state a client is sent after it
	// resumed its seat.
	Resumed bool
	// Since is when the client dropped, on SeenBack.
	Since time.Time
	// Code says how a connection dropped (SeenDrop) or why the client
	// gave up (SeenFailed: the server's error code, or "gave up after …").
	Code string
}

// Event is an update's event as Seen keeps it: its kind and its seat.
type Event struct {
	Kind string
	Seat int
}

// Fingerprint reads a server message, a state or an update as the server
// writes it (protocol.Encode, protocol.Updates), and returns the
// fingerprints Seen keeps of it: view, of its view's JSON exactly as
// written, and frame, of the table, version, time, events and view of an
// update (for a state, of its table and view). Two frames of the same
// table at the same version have the same fingerprints when the server
// wrote the same bytes for what they hold; FNV-1a, 64 bits.
func Fingerprint(b []byte) (view, frame uint64, err error) {
	var m struct {
		Table   *int            `json:"table"`
		Version uint64          `json:"version"`
		At      int64           `json:"at"`
		Events  json.RawMessage `json:"events"`
		View    json.RawMessage `json:"view"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return 0, 0, err
	}
	if m.Table == nil || len(m.View) == 0 {
		return 0, 0, errors.New("load: not a state or an update: no table or no view")
	}
	h := fnv.New64a()
	h.Write(m.View)
	view = h.Sum64()
	h.Reset()
	var n [8]byte
	for _, v := range []uint64{uint64(*m.Table), m.Version, uint64(m.At)} {
		binary.LittleEndian.PutUint64(n[:], v)
		h.Write(n[:])
	}
	binary.LittleEndian.PutUint64(n[:], uint64(len(m.Events)))
	h.Write(n[:])
	h.Write(m.Events)
	h.Write(m.View)
	return view, h.Sum64(), nil
}
