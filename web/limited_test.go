package web

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/store"
)

// startLimited runs a server with the rooms' configuration cfg, at most
// maxConns WebSocket connections and the bounds l, its listener bounded by
// Listen, until the test ends. Loopback is not exempt unless l says so.
func startLimited(t *testing.T, cfg room.Config, maxConns int, l Limits) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(cfg, st, decks, metrics, "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(Options{Manager: m, Store: st, Decks: decks, Gatherer: reg, Metrics: metrics, MaxConns: maxConns,
		PingEvery: time.Second, Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(Listen(ln, l, metrics, nil))
	ts := &testServer{t: t, url: "http://" + ln.Addr().String(), ws: "ws://" + ln.Addr().String() + "/ws", m: m, store: st, srv: srv}
	t.Cleanup(func() {
		m.Close()
		srv.Close()
		st.Close()
	})
	return ts
}
