// Package web is the HTTP face of a dobble server: the embedded browser
// client (web/static), the WebSocket endpoint that carries the protocol of
// docs/PROTOCOL.md to package room, and the plain HTTP endpoints: the
// games, the public rooms, card pictures, the history of finished games
// with their records and step-by-step replays, /healthz and Prometheus
// /metrics.
//
// Each WebSocket connection has two goroutines: a reader, which enforces the
// frame size limit (a larger frame closes the connection with status 1009)
// and hands every frame to room.Manager.Handle, and a writer, which writes
// the frames queued on the connection's room.Peer, pings the client and
// closes the connection with the Peer's status when it is closed.
package web
