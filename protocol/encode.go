package protocol

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"strconv"
	"sync"

	"github.com/dobble-dev/dobble/rules"
)

// The messages a room sends most, update and refused, are encoded by code
// generated from their types and from the rules' View, Event and Result
// (encode_gen.go, by package jsongen): a table of four sends four updates
// for every accepted claim, and reflection over the view was most of the
// cost of a claim. The json tags of the types stay the one definition of
// the JSON: the code writes exactly the bytes encoding/json writes for
// the same message (the tests check it for every game, and for every
// field of the types), and regenerating it after the types change is one
// command, which a test runs to check that nothing changed.
//
// Built with the tag jsongen, the package leaves the generated file out
// and encodes every message with encoding/json (encode_boot.go), so that
// the generator, which reads the types from the package, can run even
// when the generated code no longer compiles against changed types.

//go:generate go test -tags jsongen -run ^TestGeneratedEncoders$ . -args -update

// Updates encodes the update of one accepted action for each viewer that
// asks. When every seat sees the same table (rules.State.Public), it
// builds and encodes the view once: a seat's view then differs from a
// spectator's only in its "seat", and its events not at all.
type Updates struct {
	st     *rules.State
	msg    Update
	ev     []rules.Event
	buf    []byte
	shared bool
	split  int // where the viewer's seat goes in buf, once encoded; -1 before
}

// Reset prepares the updates of the accepted action at st, at table (as
// the protocol numbers tables), stamped at ms since the table began, whose
// events are ev. The Updates keeps its scratch space from one action to
// the next.
func (u *Updates) Reset(st *rules.State, table int, at int64, ev []rules.Event) {
	u.st, u.shared, u.split = st, st.Public(), -1
	// The events' list and the view's lists are filled again (ViewInto).
	u.msg = Update{Table: table, Version: st.Version(), At: at, Events: u.msg.Events[:0], View: u.msg.View}
	u.ev = ev
}

// Frame returns the update as seat gs of the table (or a spectator, for
// any seat not at it) sees it, in a slice of its own, taken from the
// frame pool: whoever is the last to use it may give it back (PutFrame).
func (u *Updates) Frame(gs int) []byte {
	if gs < 0 || gs >= u.st.Players() {
		gs = rules.Spectator
	}
	if u.shared && u.split < 0 {
		u.encodeShared()
	}
	if !u.shared {
		u.encode(gs, gs)
		return append(getFrame(len(u.buf)), u.buf...)
	}
	f := getFrame(len(u.buf) - len(sharedSeat) + 4)
	f = append(f, u.buf[:u.split]...)
	f = strconv.AppendInt(f, int64(gs), 10)
	return append(f, u.buf[u.split+len(sharedSeat):]...)
}

// The frame pool. A room sends four updates for each claim a table of four
// accepts, each in a slice of its own, as each connection's writer writes
// it later; the pool has the writers give them back once written, rather
// than leave them to the garbage collector, whose cycles, at 10,000
// players, were what delayed the slowest claims (docs/BENCHMARKS.md).
var framePool sync.Pool

// maxPooledFrame is the largest frame kept in the pool.
const maxPooledFrame = 16 << 10

// getFrame returns an empty frame that holds n bytes, from the pool when it
// has one large enough.
func getFrame(n int) []byte {
	if f, ok := framePool.Get().(*[]byte); ok && cap(*f) >= n {
		return (*f)[:0]
	}
	// Room to grow, up to the next 256 bytes: a table's views differ in
	// length by a few bytes from one action to the next.
	return make([]byte, 0, (n+255)&^255)
}

// PutFrame gives frame f, which Updates.Frame returned, back to the frame
// pool, for a later Frame to fill again: whoever calls it must be the last
// to use f.
func PutFrame(f []byte) {
	if cap(f) <= maxPooledFrame {
		framePool.Put(&f)
	}
}

// sharedSeat is the seat a view shared by every seat is encoded with, to
// find where each viewer's own goes: a number no other field of an update
// holds.
var sharedSeat = strconv.AppendInt(nil, math.MinInt, 10)

// encodeShared encodes the view every seat shares, finding where the
// seat goes: at the first "seat" with that number, since no event before
// the view holds it (the test of every game checks the frames against
// the views encoded one by one). Should it not be found, every view is
// encoded on its own.
func (u *Updates) encodeShared() {
	u.encode(rules.Spectator, math.MinInt)
	// The number begins with "-9", rare in JSON, where a key begins with
	// a quote: a search for it skips fast from one minus sign to the
	// next.
	i := bytes.Index(u.buf, sharedSeat)
	if i < 0 || !bytes.HasSuffix(u.buf[:i], []byte(`"seat":`)) {
		u.shared = false
		return
	}
	u.split = i
}

// encode encodes the update as seat gs sees it into buf, its view's seat
// written as seat.
func (u *Updates) encode(gs, seat int) {
	u.msg.Events = u.msg.Events[:0]
	for _, e := range u.ev {
		u.msg.Events = append(u.msg.Events, u.st.EventFor(e, gs))
	}
	if u.ev == nil {
		u.msg.Events = nil
	}
	u.st.ViewInto(gs, &u.msg.View)
	u.msg.View.Seat = seat
	u.buf = appendUpdate(u.buf[:0], &u.msg)
}

// appendTargets appends a target list as rules.Targets.MarshalJSON
// writes it.
func appendTargets(b []byte, t rules.Targets) []byte {
	b = append(b, '[')
	for i := range t.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(t.At(i)), 10)
	}
	return append(b, ']')
}

// AppendString appends s to b as a JSON string, escaped as encoding/json
// escapes it, for the packages that write JSON of their own by hand.
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// appendString appends s as a JSON string, escaped as encoding/json
// escapes it: the names and codes of the protocol are plain ASCII and are
// copied as they are; anything else goes through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendText appends the text of v as a JSON string, or null when v has
// none (an enum value without a name).
func appendText[T encoding.TextAppender](b []byte, v T) []byte {
	n := len(b)
	b = append(b, '"')
	b, err := v.AppendText(b)
	if err != nil {
		return append(b[:n], "null"...)
	}
	for _, c := range b[n+1:] {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendString(b[:n], string(b[n+1:]))
		}
	}
	return append(b, '"')
}

// appendMarshalText appends the text of v as a JSON string, or null when
// v has none.
func appendMarshalText(b []byte, v encoding.TextMarshaler) []byte {
	t, err := v.MarshalText()
	if err != nil {
		return append(b, "null"...)
	}
	return appendString(b, string(t))
}

// appendJSON appends v as encoding/json writes it, or null when it cannot.
func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, j...)
}
