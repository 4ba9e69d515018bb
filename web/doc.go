// Package web is the HTTP face of a dobble server: the embedded browser
// client (web/static), the WebSocket endpoint that carries the protocol of
// docs/PROTOCOL.md to package room, and the plain HTTP endpoints: the
// games, the public rooms, card pictures, the history of finished games
// with their records and step-by-step replays, /healthz and Prometheus
// /metrics. The client's files are sent compressed, under names holding
// their content's hash that browsers keep for good, so that a page loaded
// again fetches only what changed (static.go says how).
//
// The WebSocket connections are built on github.com/gobwas/ws, which lets
// the server own every buffer: an idle connection costs one goroutine, its
// reader, with a read buffer of 1 KB, and its frames are written through
// buffers lent by a pool for the time of a write. The reader enforces the
// message size limit (a larger message closes the connection with status
// 1009), answers pings and the client's close, and hands every message to
// room.Manager.Handle. A connection's frames are written by a goroutine
// that its room.Peer starts when they arrive and that stops once it has
// written them all, or makes the close handshake with the Peer's status
// when the Peer is closed. One sweeper per server pings the connections
// that have been quiet for a ping interval and closes those that show no
// sign of life for two (conn.go states the rule).
//
// Limits bound what one client can take (limits.go): Listen wraps the
// server's listener to bound the sockets open at once, in all and from
// one address; the WebSocket handler bounds the connections and the
// handshakes of a client address, gives a new connection a deadline to say
// hello, and makes the connections of one address share a budget of
// messages, control frames included, that outlives them, in a table of
// addresses of bounded size. A client is an IPv4 address or an IPv6 /64,
// read from X-Forwarded-For only behind a trusted proxy.
package web
