// Package web is the HTTP face of a dobble server: the embedded browser
// client (web/static), the WebSocket endpoint that carries the protocol of
// docs/PROTOCOL.md to package room, and the plain HTTP endpoints: the
// games, the public rooms, card pictures, the history of finished games
// with their records and step-by-step replays, /healthz and Prometheus
// /metrics.
//
// An idle WebSocket connection costs one goroutine, its reader, which
// enforces the frame size limit (a larger frame closes the connection with
// status 1009) and hands every frame to room.Manager.Handle. Its frames are
// written by a goroutine that its room.Peer starts when they arrive and
// that stops once it has written them all, or closes the connection with
// the Peer's status when the Peer is closed. One sweeper per server pings
// the connections that have been quiet for a ping interval and closes
// those that show no sign of life for two (conn.go states the rule).
package web
