// Package record writes and reads game records: a whole game as JSON lines
// (a header with the game, its configuration and its deck; every accepted
// action with its events and every refusal that locked a seat out; the
// result), from which Replay rebuilds the identical game and checks every
// line on the way. Simulations write them, and the server will keep them
// for history and crash recovery. The format is documented in docs/RECORD.md.
package record
