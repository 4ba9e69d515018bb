// Package protocol is the WebSocket protocol of docs/PROTOCOL.md, in one
// place: the client's requests and how a frame is read into one (Decode,
// and AppendRequest for clients), the server's messages and how they are
// encoded (Append, Updates), the error codes, and which message type makes
// which rules.ActionKind.
//
// A frame is read once, straight into a Request: its type, its id, and the
// fields that type takes, checked for shape (the error badMessage names
// what is missing or of the wrong type). A seat's action (claim, draw,
// flip…, every kind but the clock's tick) is a rules.Action in the
// Request, its message type the kind's name; what a game makes of it is
// the rules' business, and a refusal goes back with the rules' code
// (rules.Code) in a "refused" message.
//
// Seats and tables are the protocol's, in requests and in messages: a seat
// is a seat of the room (a session seat, the seat of joined) and a table
// is numbered across the room's sessions. The game at a table numbers its
// own seats (a tie-break seats only the tied); a view, its events and a
// result are in those, and the "players" of state and over map them to
// the room's. The server turns one into the other at one place, the room's
// boundary (room/boundary.go); the package only carries them.
//
// The messages are Go structs whose json tags define their JSON. Those
// sent for every action, update and refused, with the rules' View, Event
// and Result inside, are encoded by code generated from those same types
// (encode_gen.go, written by package internal/jsongen: go generate), which
// writes the bytes encoding/json writes, without reflection; the others go
// through encoding/json.
package protocol
