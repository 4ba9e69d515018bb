package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dobble-dev/dobble/internal/logtest"
	"github.com/dobble-dev/dobble/internal/natstest"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/store/storetest"
)

// TestServe starts the server on a free loopback port, fetches the home page
// and the health check over real HTTP, then stops it and checks that it
// shut down cleanly.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "dobble.db")
	var logged logtest.Buffer
	cfg.Log = slog.New(slog.NewTextHandler(&logged, nil))
	go func() { done <- Serve(ctx, ln, cfg, nil) }()
	base := "http://" + ln.Addr().String()

	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get("/healthz"); code != 200 || body != "ok\n" {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	code, body := get("/")
	if code != 200 || !strings.Contains(body, "<title>dobble</title>") {
		t.Fatalf("/: %d\n%s", code, body)
	}
	if code, _ := get("/no-such-page"); code != 404 {
		t.Fatalf("/no-such-page: %d", code)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "dobble_rooms 0") {
		t.Fatalf("/metrics: %d\n%s", code, body)
	}
	// A connected player is told the server is restarting: status 1012, as
	// its rooms are kept in the journal for the next server.
	ws, _, err := websocket.Dial(t.Context(), "ws://"+ln.Addr().String()+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(t.Context(), websocket.MessageText, []byte(`{"type":"hello","v":1,"name":"ann"}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := ws.Read(t.Context()); err != nil || !strings.Contains(string(b), `"welcome"`) {
		t.Fatalf("hello answered with %s, %v", b, err)
	}
	// Read on, as a browser does, so the close handshake completes.
	readCtx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(readCtx); err != nil {
				ended <- err
				return
			}
		}
	}()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve returned %v after shutdown", err)
	}
	err = <-ended
	if got := websocket.CloseStatus(err); got != websocket.StatusServiceRestart {
		t.Fatalf("the connection ended with %v (status %d), want 1012 service restart", err, got)
	}
	// The operator who stops the server is told what becomes of the rooms,
	// and when the server is done.
	for _, want := range []string{`msg="stopping: the rooms in play are kept in the journal`, "rooms=0", "msg=stopped took="} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the server's log lacks %q:\n%s", want, logged.String())
		}
	}
}

// TestServeBadConfig: a configuration that cannot serve is refused with an
// error that says why, and the listener is closed.
func TestServeBadConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no connections", func(c *Config) { c.MaxConns = 0 }, "MaxConns must be 1 or more"},
		{"bad rooms", func(c *Config) { c.Rooms.MaxRooms = -1 }, "max rooms -1"},
		{"bad limits", func(c *Config) { c.Limits.HandshakeBurst = 0 }, "handshakes a second in bursts of 0"},
		{"bad timeouts", func(c *Config) { c.IdleTimeout = -time.Second }, "HTTP timeouts must be positive"},
		{"journal in PostgreSQL", func(c *Config) { c.JournalFile = "postgres://postgres@127.0.0.1/test" }, "the journal of the rooms in play is a SQLite file"},
		{"bad PostgreSQL URL", func(c *Config) { c.DB = "postgres://postgres:secret@127.0.0.1:99999/test" }, "is not a PostgreSQL URL this server understands"},
		// Port 1 of the loopback: nothing listens there.
		{"unreachable PostgreSQL", func(c *Config) { c.DB = "postgres://postgres@127.0.0.1:1/test" }, "the database server cannot be reached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			cfg := DefaultConfig()
			cfg.DB = filepath.Join(t.TempDir(), "dobble.db")
			tc.edit(&cfg)
			err = Serve(context.Background(), ln, cfg, func(string) { t.Error("a server that cannot serve said it was ready") })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Serve: %v, want an error saying %q", err, tc.want)
			}
			if _, err := ln.Accept(); err == nil {
				t.Error("the listener is still open")
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("the error shows the password: %v", err)
			}
			for _, f := range []string{cfg.DB, DefaultJournalFile} {
				if _, err := os.Stat(f); !os.IsNotExist(err) {
					t.Errorf("the refused configuration left a database file %s: %v", f, err)
				}
			}
		})
	}
}

// TestHTTPTimeoutsSpareWebSockets serves with read, write and idle
// timeouts of 100 ms: a connection that sends nothing, and a keep-alive
// connection idle after its request, are closed, and a WebSocket opened
// before them still carries messages both ways once both have closed, long
// after the timeouts of its own request have passed.
func TestHTTPTimeoutsSpareWebSockets(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "dobble.db")
	cfg.ReadTimeout, cfg.WriteTimeout, cfg.IdleTimeout = 100*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, cfg, nil) }()
	defer func() {
		cancel()
		<-done
	}()
	addr := ln.Addr().String()

	ws, _, err := websocket.Dial(t.Context(), "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	talk := func(when string) {
		t.Helper()
		ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
		defer stop()
		msg := `{"type":"ping","nonce":1}`
		if when == "first" {
			msg = `{"type":"hello","v":1,"name":"ann"}`
		}
		if err := ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatalf("%s: write: %v", when, err)
		}
		if _, b, err := ws.Read(ctx); err != nil || !strings.Contains(string(b), `"type":"`) {
			t.Fatalf("%s: read %s, %v", when, b, err)
		}
	}
	talk("first")

	// ends waits until the server closes c, failing after 10 s.
	ends := func(what string, c net.Conn) {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.Copy(io.Discard, c); err != nil {
			t.Fatalf("%s: %v; want the server to close it", what, err)
		}
	}
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if _, err := io.WriteString(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	ends("a keep-alive connection idle after its request", idle)
	ends("a connection that sends nothing", silent)
	talk("after the HTTP timeouts")
}

// TestServeRestartKeepsRooms plays a room against a bot, stops the server
// (its player hears 1012, service restart), starts another on the same
// files, and resumes the seat with its token: the room, its table and its
// version are as the player last saw them. The games go to a SQLite
// file, the journal's, or to PostgreSQL, the journal in a file of its
// own.
func TestServeRestartKeepsRooms(t *testing.T) {
	storetest.ForEach(t, restartKeepsRooms)
}

func restartKeepsRooms(t *testing.T, kind storetest.Kind) {
	db := kind.New(t)
	journalFile := ""
	if store.IsPostgres(db) {
		journalFile = filepath.Join(t.TempDir(), "journal.db")
	}
	serve := func() (addr string, stop func()) {
		t.Helper()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		cfg := DefaultConfig()
		cfg.DB, cfg.JournalFile = db, journalFile
		cfg.Rooms.Countdown = 10 * time.Millisecond
		go func() { done <- Serve(ctx, ln, cfg, nil) }()
		return ln.Addr().String(), func() {
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("Serve: %v", err)
			}
		}
	}
	type frame struct {
		Type    string          `json:"type"`
		Room    string          `json:"room"`
		Token   string          `json:"token"`
		Seat    int             `json:"seat"`
		Version uint64          `json:"version"`
		View    json.RawMessage `json:"view"`
	}
	dial := func(addr string) (*websocket.Conn, func(typ string) frame) {
		t.Helper()
		ws, _, err := websocket.Dial(t.Context(), "ws://"+addr+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 20)
		await := func(typ string) frame {
			t.Helper()
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			for {
				_, b, err := ws.Read(ctx)
				if err != nil {
					t.Fatalf("awaiting %s: %v", typ, err)
				}
				var f frame
				json.Unmarshal(b, &f)
				if f.Type == typ {
					return f
				}
			}
		}
		write := func(s string) {
			if err := ws.Write(t.Context(), websocket.MessageText, []byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		write(`{"type":"hello","v":1,"name":"ann"}`)
		await("welcome")
		return ws, func(s string) frame {
			if strings.HasPrefix(s, "{") {
				write(s)
				return frame{}
			}
			return await(s)
		}
	}

	addr, stop := serve()
	ws, do := dial(addr)
	do(`{"type":"create","room":{"game":"memory","seats":2,"bots":[null,"easy"],"games":1}}`)
	joined := do("joined")
	do(`{"type":"start"}`)
	st := do("state")
	var view struct {
		Version uint64 `json:"version"`
	}
	json.Unmarshal(st.View, &view)
	// Read on, as a browser does, so that the close handshake completes.
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(t.Context()); err != nil {
				ended <- err
				return
			}
		}
	}()
	stop()
	err := <-ended
	if got := websocket.CloseStatus(err); got != websocket.StatusServiceRestart {
		t.Fatalf("at the restart the connection ended with %v (status %d), want 1012", err, got)
	}
	if journalFile != "" {
		if _, err := os.Stat(journalFile); err != nil {
			t.Fatalf("the journal of a server on PostgreSQL: %v", err)
		}
	}

	addr, stop = serve()
	defer stop()
	ws, do = dial(addr)
	defer ws.CloseNow()
	do(`{"type":"resume","room":"` + joined.Room + `","token":"` + joined.Token + `"}`)
	if j := do("joined"); j.Room != joined.Room || j.Seat != 0 {
		t.Fatalf("resumed %+v", j)
	}
	again := do("state")
	var after struct {
		Version uint64 `json:"version"`
	}
	json.Unmarshal(again.View, &after)
	if after.Version < view.Version {
		t.Fatalf("the table after the restart is at version %d, before it at %d", after.Version, view.Version)
	}
}

// TestServeCluster runs the server as a node of a cluster on a NATS
// server of the test's own: a room created over a WebSocket takes a
// lease, which /healthz and /metrics show; with NATS stopped /healthz
// answers 503, saying the node is cut off, and ok again once NATS is
// back.
func TestServeCluster(t *testing.T) {
	ns := natstest.Start(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "dobble.db")
	cfg.NATS, cfg.Node = ns.URL(), "n1"
	go func() { done <- Serve(ctx, ln, cfg, nil) }()
	base := "http://" + ln.Addr().String()
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	poll := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waited 20s for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	poll("the server to answer", func() bool { code, _ := get("/healthz"); return code != 0 })

	ws, _, err := websocket.Dial(t.Context(), "ws://"+ln.Addr().String()+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	for _, req := range []string{`{"type":"hello","v":1,"name":"ann"}`, `{"type":"create","room":{"game":"tower","seats":2}}`} {
		if err := ws.Write(t.Context(), websocket.MessageText, []byte(req)); err != nil {
			t.Fatal(err)
		}
	}
	for {
		_, b, err := ws.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"joined"`) {
			break
		}
		if strings.Contains(string(b), `"error"`) {
			t.Fatalf("create: %s", b)
		}
	}
	code, body := get("/healthz")
	var h map[string]any
	if code != 200 || json.Unmarshal([]byte(body), &h) != nil || h["status"] != "ok" || h["node"] != "n1" || h["connected"] != true || h["leases"] != 1.0 {
		t.Fatalf("/healthz of a node holding a room's lease: %d %s", code, body)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "dobble_cluster_leases 1") || !strings.Contains(body, "dobble_cluster_nats_connected 1") {
		t.Fatalf("/metrics: %d\n%s", code, body)
	}
	ns.Stop()
	poll("/healthz to answer 503 with NATS stopped", func() bool {
		code, body := get("/healthz")
		return code == 503 && strings.Contains(body, "cut off from NATS")
	})
	ns.Restart()
	poll("/healthz to answer ok with NATS back", func() bool { code, _ := get("/healthz"); return code == 200 })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve returned %v after shutdown", err)
	}
}

// TestServeNodeOfACluster runs a server with NATS (the machine's, at
// 127.0.0.1:4222) as a node of a cluster: its relay's metrics are in
// /metrics, /healthz checks its NATS connection, and a join of a room no
// node holds is answered noRoom; a NATS server that cannot be reached is
// refused at start.
func TestServeNodeOfACluster(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "dobble.db")
	cfg.NATS, cfg.Node, cfg.MaxRemotePeers = "nats://127.0.0.1:4222", "server-test-"+strconv.FormatInt(time.Now().UnixNano(), 36), 7
	ready := make(chan struct{})
	go func() { done <- Serve(ctx, ln, cfg, func(string) { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Serve with NATS: %v", err)
	}
	base := "http://" + ln.Addr().String()
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get("/healthz"); code != 200 {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "dobble_relay_remote_peers 0") {
		t.Fatalf("/metrics: %d\n%s", code, body)
	}
	ws, _, err := websocket.Dial(t.Context(), "ws://"+ln.Addr().String()+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	for _, m := range []string{`{"type":"hello","v":1,"name":"ann"}`, `{"type":"join","room":"ZZZZZZZZ"}`} {
		if err := ws.Write(t.Context(), websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{`"welcome"`, `"noRoom"`} {
		_, b, err := ws.Read(t.Context())
		if err != nil || !strings.Contains(string(b), want) {
			t.Fatalf("got %s (%v), want %s", b, err, want)
		}
	}
	ws.Close(websocket.StatusNormalClosure, "")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}

	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.NATS = "nats://127.0.0.1:1"
	if err := Serve(context.Background(), ln2, cfg, nil); err == nil || !strings.Contains(err.Error(), "nats://127.0.0.1:1") {
		t.Fatalf("Serve with a NATS server that is not there: %v", err)
	}
}
