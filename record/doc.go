// Package record writes and reads game records: a whole game as JSON lines
// (a header with the game, its configuration and its deck; the table as set
// up; every accepted action with its events, the outcome of its shuffles and
// the zones it opened, and every refusal that locked a seat out; the
// result). Replay rebuilds the identical game with the rules and checks every
// line on the way; Check checks a record from its own lines alone, without
// the rules' random source, as anyone could. Simulations write records, and
// the server keeps them for history. The format is documented in
// docs/RECORD.md.
package record
