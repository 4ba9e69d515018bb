// Package room is the live side of a dobble server: rooms where people and
// bots play sessions of mini-games over the protocol of docs/PROTOCOL.md.
//
// A Manager holds the rooms by code and answers each frame a connection
// sends (Manager.Handle), read into a request by package protocol: hello,
// create, join, watch, resume, seat, start, a seat's actions (claim, draw,
// flip, lay, stop, write, guess, discard, take), pick, leave, ping. The
// room turns the protocol's seats, tables and times into the game's at one
// place (boundary.go). A connection is a Peer: the
// transport (package web) reads frames and hands them to Handle, and writes
// what arrives on the Peer's bounded output queue, with a writer the Peer
// starts when frames arrive and that stops when none are left. A Peer whose
// queue is full is closed as a slow consumer instead of slowing anyone
// down.
//
// One goroutine owns each Room, with a session.Session inside (a plain
// rules.State adapter for a one-seat learning game). Every request for a
// room goes through its bounded input queue; when the queue is full the
// request is dropped and its sender gets the error "busy". Disconnections
// take another path that never drops, so a seat is always marked gone.
//
// The room keeps the membership, the seats and their tokens, the session's
// course (countdowns, picks, rematches) and the broadcasts; each table's
// game is played by a table.Driver, the one package sim plays with, run in
// wall time: it applies the people's actions at the times they arrive
// (Action.At, milliseconds since the table began), the bots' actions at the
// times they planned (package bot: planned after every change, withdrawn
// when the table changes before they are Committed), and the ticks of a
// timed game's clock when rules.State.Deadline comes, before any action
// due at that moment; it keeps the table's record, and tells the room what
// it did, which the room broadcasts. The bots of a room have a floor under
// their times (Config.BotDelay, 250 ms by default: an instant bot is a
// perfect player there, not one that acts at 0 ms) and a bound on their
// actions (Config.BotRate and BotBurst); the actions the bound puts off
// are counted (Metrics.BotsDeferred) and logged once a table. A room has one timer, set for the next
// of the moments it waits for: the driver's Next, the end of a countdown or
// of a pick, and the expiry of a disconnected seat's hold.
//
// With Config.FairCap (the default) the people's actions are ranked by
// their estimated reactions rather than by their arrivals (fair.go): each
// is credited with its sender's round trip (Peer.RTT, which package web
// measures with WebSocket pings; rtt.go), capped and drawn from a quota,
// and the driver runs on the time of reactions, up to the horizon past
// which no earlier reaction can still arrive; the people's actions wait
// for that horizon, at most the cap.
//
// The files follow these jobs: room.go is the room's loop and timer,
// seats.go membership, seats and tokens, requests.go the requests,
// tables.go a table's life with its driver and record, fair.go the
// ranking by reaction, rtt.go the connections' round trips, broadcast.go
// the messages and their broadcast, durable.go the journal, route.go the
// hand-over of a connection to the node of a cluster that holds its room
// (a Router, package relay) and the remote Peers of the connections other
// nodes hand over.
//
// Each broadcast is encoded once per distinct view: one encoding per seat
// at the table and one shared by spectators and by seats that sit out a
// tie-break; an update, when every seat sees the same table, once for all
// (protocol.Updates). Finished games go to a Saver (package store) with
// their record in the format of package record, in the background and in
// the order they finished (saves.go): a game whose save fails is kept in
// memory and tried again (Config.SaveBacklog of them at most), the
// failure logged, counted in the Metrics, reported by
// Manager.SaveHealth until a save works again, and told to the game's
// room with a saved message.
package room
