package protocol

import (
	"strconv"

	"github.com/dobble-dev/dobble/rules"
)

// AppendRequest appends request r as a client sends it: its type, the
// fields its type takes and its id, so that Decode reads r back. It is
// how the load tool's players and the tests' clients write their
// requests.
func AppendRequest(b []byte, r *Request) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, r.TypeName())
	switch r.Type {
	case TypeHello:
		b = append(b, `,"v":`...)
		b = strconv.AppendInt(b, int64(r.V), 10)
		b = append(b, `,"name":`...)
		b = appendString(b, r.Name)
		if r.Lang != "" {
			b = append(b, `,"lang":`...)
			b = appendString(b, r.Lang)
		}
	case TypeCreate:
		b = append(b, `,"room":`...)
		b = appendJSON(b, r.Spec)
	case TypeJoin, TypeWatch, TypeResume:
		b = append(b, `,"room":`...)
		b = appendString(b, r.Code)
		if r.Type == TypeResume {
			b = append(b, `,"token":`...)
			b = appendString(b, r.Token)
		}
	case TypeSeat:
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(r.Seat), 10)
		b = append(b, `,"bot":`...)
		if r.Bot == nil {
			b = append(b, "null"...)
		} else {
			b = appendString(b, *r.Bot)
		}
	case TypePick:
		b = append(b, `,"game":`...)
		b = appendString(b, r.Game)
	case TypePing:
		if len(r.Nonce) > 0 {
			b = append(b, `,"nonce":`...)
			b = append(b, r.Nonce...)
		}
	case TypeAction:
		b = appendAction(b, r)
	}
	if r.ID != "" {
		b = append(b, `,"id":`...)
		b = appendString(b, r.ID)
	}
	return append(b, '}')
}

// appendAction appends the fields of an action after its type: its
// symbol where its kind has one, its target where its kind points at
// zones, its table, its version and the seat it acts for when given.
func appendAction(b []byte, r *Request) []byte {
	a := &r.Action
	if a.Kind.HasSymbol() {
		b = append(b, `,"symbol":`...)
		b = strconv.AppendInt(b, int64(a.Symbol), 10)
	}
	use := targetOptional
	for _, k := range actions {
		if k.kind == a.Kind {
			use = k.target
		}
	}
	if use == targetNeeded || (use == targetOptional && a.Target.Len() > 0) {
		b = append(b, `,"target":`...)
		b = appendTargets(b, a.Target)
	}
	b = append(b, `,"table":`...)
	b = strconv.AppendInt(b, int64(r.Table), 10)
	b = append(b, `,"version":`...)
	b = strconv.AppendUint(b, a.Version, 10)
	if r.HasSeat {
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(r.Seat), 10)
	}
	return b
}

// Action returns the request of a seat's action a at table, with id, as
// Decode reads it: without the action's seat and time, which are the
// server's to set.
func Action(a rules.Action, table int, id string) *Request {
	a.Seat, a.At = rules.NoSeat, 0
	return &Request{Type: TypeAction, ID: id, Seat: rules.NoSeat, Table: table, Action: a}
}
