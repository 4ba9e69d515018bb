package web

import (
	"net"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/room"
)

// startLimited runs a server with the rooms' configuration cfg, at most
// maxConns WebSocket connections and the bounds l, its listener bounded by
// Listen, until the test ends. Loopback is not exempt unless l says so.
func startLimited(t *testing.T, cfg room.Config, maxConns int, l Limits) *testServer {
	t.Helper()
	return startWith(t, cfg, tempStore(t), Options{MaxConns: maxConns, PingEvery: time.Second, Limits: l},
		func(ln net.Listener, metrics *room.Metrics) net.Listener { return Listen(ln, l, metrics, nil) })
}
