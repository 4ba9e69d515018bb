package room

import (
	"slices"
	"time"

	"github.com/dobble-dev/dobble/rules"
)

// The boundary between the protocol's numbers and the game's, the one
// place where they are turned into each other.
//
// The protocol (package protocol) numbers seats as the room does: seat i
// of the room, which is session seat i, in joined, lobby, presence and in
// the seat an action may name; and tables as the room does, counting on
// across the room's sessions (a rematch starts at the next number), in
// countdown, state, update, over, refused and in every action. Its times
// are milliseconds since the table began.
//
// The game at a table numbers its own seats, 0 to its players: a
// tie-break seats only the tied seats of the session, in seat order. Its
// views, events, results, refusals and record, the table's driver and its
// bots all speak of those; the session numbers its own tables from 0, and
// the game's clock is the milliseconds of rules.Action.At.
//
// So: r.at maps the seats of the table being played (or last played) to
// room seats, and goes out as the "players" of state and over, with which
// a client reads a view's seats; gameSeat turns a room seat into the
// table's; table is the current table's number; toTable makes a person's
// action, as the protocol read it, the action at the table; elapsed and
// wallTime turn wall time into the table's clock and back. Nothing else
// in the room converts a seat, a table or a time.

// table returns the number of the current table as the protocol numbers
// tables: the session's own, counted on from the tables of the room's
// earlier sessions.
func (r *Room) table() int { return r.base + r.play.Table() }

// gameSeat returns the seat at the table being played (or last played)
// of room seat seat, or rules.Spectator for a spectator (-1) and for a
// seat that sits the table out (a tie-break among others).
func (r *Room) gameSeat(seat int) int {
	if seat < 0 {
		return rules.Spectator
	}
	if gs := slices.Index(r.at, seat); gs >= 0 {
		return gs
	}
	return rules.Spectator
}

// toTable returns the action a person at room seat seat asks for with
// in, made at the current table, as the table's game takes it: by the
// seat of the game, at the time of the table's clock when it arrived. It
// reports false when the seat sits the table out.
func (r *Room) toTable(seat int, in *input) (rules.Action, bool) {
	gs := r.gameSeat(seat)
	if gs == rules.Spectator {
		return rules.Action{}, false
	}
	a := in.Action
	a.Seat, a.At = gs, r.elapsed(in.at)
	return a, true
}

// maxWait bounds how far ahead a table's time is turned into wall time
// (about 35 years), so that a lock-out that never ends stays a valid time.
const maxWait = 1 << 40

// wallTime returns the wall time of ms, milliseconds into the current
// table.
func (r *Room) wallTime(ms int64) time.Time {
	return r.start.Add(time.Duration(min(ms, maxWait)) * time.Millisecond)
}

// elapsed returns the milliseconds since the current table began.
func (r *Room) elapsed(now time.Time) int64 {
	return max(0, now.Sub(r.start).Milliseconds())
}
