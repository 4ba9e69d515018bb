package room

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/dobble-dev/dobble/rules"
)

// The messages a room sends most, update and refused, are encoded by the
// appenders below rather than by encoding/json: a table of four sends four
// updates for every accepted claim, and reflection over the view was most
// of the cost of a claim. They write exactly the bytes json.Marshal writes
// for the same message (frame_test.go checks it for every game), so the
// protocol does not change.

// updateFrames encodes the update message of one accepted action for each
// seat that asks (and spectators), building and encoding the view once
// when every seat sees the same table (rules.State.Public): then a seat's
// view differs from a spectator's only in its "seat", and its events not
// at all.
type updateFrames struct {
	st    *rules.State
	table int
	at    int64
	ev    []rules.Event
	buf   []byte // scratch space, kept by the caller between updates

	shared bool
	split  int // where the viewer's seat goes in buf, once encoded
}

// newUpdateFrames prepares the updates of the accepted action at table,
// stamped at ms, whose events are ev; buf is scratch space.
func newUpdateFrames(st *rules.State, table int, at int64, ev []rules.Event, buf []byte) *updateFrames {
	return &updateFrames{st: st, table: table, at: at, ev: ev, buf: buf[:0], shared: st.Public(), split: -1}
}

// frame returns the update as seat gs (or a spectator) sees it, in a
// slice of its own.
func (u *updateFrames) frame(gs int) []byte {
	if !u.shared {
		v := u.st.View(gs)
		u.buf = appendUpdate(u.buf[:0], u.st, gs, u.table, u.at, u.ev, &v)
		return slices.Clone(u.buf)
	}
	if u.split < 0 {
		v := u.st.View(rules.Spectator)
		u.buf = appendUpdateHead(u.buf[:0], u.st, rules.Spectator, u.table, u.at, u.ev, &v)
		u.split = len(u.buf)
		u.buf = appendViewRest(u.buf, &v)
		u.buf = append(u.buf, '}')
	}
	if gs < 0 || gs >= u.st.Players() {
		gs = rules.Spectator
	}
	f := make([]byte, 0, len(u.buf)+4)
	f = append(f, u.buf[:u.split]...)
	f = strconv.AppendInt(f, int64(gs), 10)
	return append(f, u.buf[u.split:]...)
}

// appendUpdate appends the update message of an accepted action at table,
// stamped at ms, as seat gs (or a spectator) sees it: its events through
// st.EventFor, and view, the state as gs sees it.
func appendUpdate(b []byte, st *rules.State, gs, table int, at int64, ev []rules.Event, view *rules.View) []byte {
	b = appendUpdateHead(b, st, gs, table, at, ev, view)
	b = strconv.AppendInt(b, int64(view.Seat), 10)
	b = appendViewRest(b, view)
	return append(b, '}')
}

// appendUpdateHead appends an update message up to the value of its
// view's "seat".
func appendUpdateHead(b []byte, st *rules.State, gs, table int, at int64, ev []rules.Event, view *rules.View) []byte {
	b = append(b, `{"type":"update","table":`...)
	b = strconv.AppendInt(b, int64(table), 10)
	b = append(b, `,"version":`...)
	b = strconv.AppendUint(b, st.Version(), 10)
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, at, 10)
	b = append(b, `,"events":`...)
	if ev == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range ev {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEvent(b, st.EventFor(e, gs))
		}
		b = append(b, ']')
	}
	b = append(b, `,"view":`...)
	return appendViewHead(b, view)
}

// appendRefused appends a refused message.
func appendRefused(b []byte, m *msgRefused) []byte {
	code, err := m.Code.MarshalText()
	if err != nil {
		// A code without a name: encoding/json fails on it as well.
		return append(b, encode(m)...)
	}
	b = append(b, `{"type":"refused"`...)
	if m.ID != "" {
		b = append(b, `,"id":`...)
		b = appendString(b, m.ID)
	}
	b = append(b, `,"table":`...)
	b = strconv.AppendInt(b, int64(m.Table), 10)
	b = append(b, `,"code":`...)
	b = appendString(b, string(code))
	b = append(b, `,"reason":`...)
	b = appendString(b, m.Reason)
	b = append(b, `,"version":`...)
	b = strconv.AppendUint(b, m.Version, 10)
	b = append(b, `,"current":`...)
	b = strconv.AppendUint(b, m.Current, 10)
	if m.LockedUntil != 0 {
		b = append(b, `,"lockedUntil":`...)
		b = strconv.AppendInt(b, m.LockedUntil, 10)
	}
	return append(b, '}')
}

// appendEvent appends one event.
func appendEvent(b []byte, e rules.Event) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, e.Kind.String())
	b = append(b, `,"version":`...)
	b = strconv.AppendUint(b, e.Version, 10)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	b = append(b, `,"symbol":`...)
	b = strconv.AppendInt(b, int64(e.Symbol), 10)
	if e.Target != (rules.Targets{}) {
		b = append(b, `,"target":[`...)
		for i := range e.Target.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(e.Target.At(i)), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"card":`...)
	b = strconv.AppendInt(b, int64(e.Card), 10)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(e.Count), 10)
	b = append(b, `,"from":`...)
	b = strconv.AppendInt(b, int64(e.From), 10)
	b = append(b, `,"to":`...)
	b = strconv.AppendInt(b, int64(e.To), 10)
	if e.Under {
		b = append(b, `,"under":true`...)
	}
	if e.Round != 0 {
		b = append(b, `,"round":`...)
		b = strconv.AppendInt(b, int64(e.Round), 10)
	}
	if e.Result != nil {
		b = append(b, `,"result":`...)
		b = appendResult(b, e.Result)
	}
	return append(b, '}')
}

// appendView appends a view.
func appendView(b []byte, v *rules.View) []byte {
	b = appendViewHead(b, v)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	return appendViewRest(b, v)
}

// appendViewHead appends a view up to the value of its "seat".
func appendViewHead(b []byte, v *rules.View) []byte {
	b = append(b, `{"game":`...)
	b = appendString(b, v.Game)
	return append(b, `,"seat":`...)
}

// appendViewRest appends what follows the "seat" of a view.
func appendViewRest(b []byte, v *rules.View) []byte {
	b = append(b, `,"version":`...)
	b = strconv.AppendUint(b, v.Version, 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(v.Round), 10)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"zones":`...)
	if v.Zones == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Zones {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendZone(b, &v.Zones[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"seats":`...)
	if v.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range v.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"lockedUntil":`...)
			b = strconv.AppendInt(b, s.LockedUntil, 10)
			b = append(b, `,"tally":`...)
			b = strconv.AppendInt(b, int64(s.Tally), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"result":`...)
	b = appendResult(b, v.Result)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.Turn), 10)
	if v.Deadline != 0 {
		b = append(b, `,"deadline":`...)
		b = strconv.AppendInt(b, v.Deadline, 10)
	}
	if v.Extra != nil {
		// A game's own view data is rarer and of the game's own types:
		// encoding/json writes it. The rules' property tests check that
		// every view encodes.
		extra, err := json.Marshal(v.Extra)
		if err != nil {
			extra = []byte("null")
		}
		b = append(b, `,"extra":`...)
		b = append(b, extra...)
	}
	return append(b, '}')
}

// appendZone appends one zone of a view.
func appendZone(b []byte, z *rules.ZoneView) []byte {
	b = append(b, `{"zone":`...)
	b = strconv.AppendInt(b, int64(z.Zone), 10)
	b = append(b, `,"kind":`...)
	b = appendString(b, string(z.Kind))
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(z.Seat), 10)
	b = append(b, `,"show":`...)
	b = appendString(b, z.Show.String())
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(z.Count), 10)
	b = append(b, `,"cards":`...)
	if z.Cards == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range z.Cards {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"card":`...)
			b = strconv.AppendInt(b, int64(c.Card), 10)
			b = append(b, `,"symbols":`...)
			b = appendInts(b, c.Symbols)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendResult appends a result, or null.
func appendResult(b []byte, r *rules.Result) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"unit":`...)
	b = appendString(b, r.Unit)
	b = append(b, `,"higherWins":`...)
	b = strconv.AppendBool(b, r.HigherWins)
	b = append(b, `,"scores":`...)
	b = appendInts(b, r.Scores)
	b = append(b, `,"winners":`...)
	b = appendInts(b, r.Winners)
	b = append(b, `,"ranking":`...)
	b = appendInts(b, r.Ranking)
	b = append(b, `,"places":`...)
	b = appendInts(b, r.Places)
	return append(b, '}')
}

// appendInts appends a list of numbers, or null for a nil list.
func appendInts(b []byte, xs []int) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendString appends s as a JSON string, escaped as encoding/json
// escapes it: the names and codes of the protocol are plain ASCII and
// are copied as they are; anything else goes through encoding/json.
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
