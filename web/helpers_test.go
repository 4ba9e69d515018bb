package web

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
)

// testServer is a real server on 127.0.0.1 port 0 with a real SQLite file.
type testServer struct {
	t     *testing.T
	url   string
	ws    string
	m     *room.Manager
	store store.Store
	srv   *http.Server
	s     *server // the handler's state
}

// fastConfig is a room configuration for tests: short countdowns, and
// instant bots that act 1 ms after a change (the rooms' floor is 250 ms).
func fastConfig() room.Config {
	return room.Config{Countdown: 5 * time.Millisecond, BotPick: 5 * time.Millisecond, PickTime: time.Second, Rate: 1000, Burst: 1000,
		BotDelay: time.Millisecond}
}

// start runs a server with cfg until the test ends.
func start(t *testing.T, cfg room.Config) *testServer {
	t.Helper()
	return startOn(t, cfg, tempStore(t))
}

// tempStore opens a store on a SQLite file in the test's own folder.
func tempStore(t *testing.T) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// startOn runs a server like start, storing its games in st, which it
// closes when the test ends.
func startOn(t *testing.T, cfg room.Config, st store.Store) *testServer {
	t.Helper()
	return startWith(t, cfg, st, Options{MaxConns: 100, PingEvery: time.Second}, nil)
}

// startWith runs a server on 127.0.0.1 port 0 until the test ends: its
// options are o with a Manager of rooms of configuration cfg, the store
// st (which it closes when the test ends), and new Decks, Registry and
// Metrics. Where listen is not nil, the server accepts its connections
// from what listen makes of the listener.
func startWith(t *testing.T, cfg room.Config, st store.Store, o Options, listen func(net.Listener, *room.Metrics) net.Listener) *testServer {
	t.Helper()
	reg := metrics.NewRegistry()
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(cfg, st, decks, metrics, "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	o.Manager, o.Store, o.Decks, o.Registry, o.Metrics = m, st, decks, reg, metrics
	s, h, err := newServer(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	if listen != nil {
		go srv.Serve(listen(ln, metrics))
	} else {
		go srv.Serve(ln)
	}
	ts := &testServer{t: t, url: "http://" + ln.Addr().String(), ws: "ws://" + ln.Addr().String() + "/ws", m: m, store: st, srv: srv, s: s}
	t.Cleanup(func() {
		m.Close()
		srv.Close()
		st.Close()
	})
	return ts
}

// get fetches path and returns the status and body.
func (ts *testServer) get(path string) (int, []byte) {
	ts.t.Helper()
	resp, err := http.Get(ts.url + path)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// msg is a server message, decoded loosely.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) int    { f, _ := m[k].(float64); return int(f) }

// client is a real WebSocket client.
type client struct {
	t      *testing.T
	c      *websocket.Conn
	in     chan msg
	closed chan struct{}
	err    error // the read error that ended the connection
	name   string
	token  string
	room   string
	seat   int
	// silent makes play leave picks unanswered, for the room to pick.
	silent bool
}

// dial connects to ts without saying hello.
func (ts *testServer) dial() *client {
	ts.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ts.ws, nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	c.SetReadLimit(1 << 22)
	cl := &client{t: ts.t, c: c, in: make(chan msg, 4096), closed: make(chan struct{}), seat: -1}
	go func() {
		defer close(cl.closed)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				cl.err = err
				return
			}
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				cl.err = err
				return
			}
			cl.in <- m
		}
	}()
	ts.t.Cleanup(func() { c.CloseNow() })
	return cl
}

// connect dials and says hello as name.
func (ts *testServer) connect(name string) *client {
	ts.t.Helper()
	cl := ts.dial()
	cl.name = name
	cl.send(msg{"type": "hello", "v": 1, "name": name, "lang": "en"})
	cl.expect("welcome")
	return cl
}

// send sends one JSON message.
func (cl *client) send(m msg) {
	cl.t.Helper()
	b, _ := json.Marshal(m)
	cl.sendRaw(b)
}

// sendRaw sends one text frame.
func (cl *client) sendRaw(b []byte) {
	cl.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cl.c.Write(ctx, websocket.MessageText, b); err != nil {
		cl.t.Fatalf("%s: write: %v", cl.name, err)
	}
}

// next returns the next message, failing the test after a deadline.
func (cl *client) next() msg {
	cl.t.Helper()
	select {
	case m := <-cl.in:
		return m
	case <-cl.closed:
		select {
		case m := <-cl.in:
			return m
		default:
		}
		cl.t.Fatalf("%s: connection closed: %v", cl.name, cl.err)
	case <-time.After(15 * time.Second):
		cl.t.Fatalf("%s: no message for 15 s", cl.name)
	}
	return nil
}

// expect skips messages until one of type typ arrives; an error message
// fails the test unless typ is "error".
func (cl *client) expect(typ string) msg {
	cl.t.Helper()
	for {
		m := cl.next()
		if m.str("type") == typ {
			return m
		}
		if m.str("type") == "error" {
			cl.t.Fatalf("%s: waiting for %s, got error %v", cl.name, typ, m)
		}
	}
}

// expectError waits for an error message and checks its code.
func (cl *client) expectError(code string) msg {
	cl.t.Helper()
	for {
		m := cl.next()
		if m.str("type") == "error" {
			if m.str("code") != code {
				cl.t.Fatalf("%s: error %v, want code %s", cl.name, m, code)
			}
			return m
		}
	}
}

// waitClosed waits until the server closes the connection and returns the
// close status.
func (cl *client) waitClosed() (websocket.StatusCode, string) {
	cl.t.Helper()
	select {
	case <-cl.closed:
	case <-time.After(15 * time.Second):
		cl.t.Fatalf("%s: still open after 15 s", cl.name)
	}
	var ce websocket.CloseError
	if asClose(cl.err, &ce) {
		return ce.Code, ce.Reason
	}
	return -1, ""
}

func asClose(err error, ce *websocket.CloseError) bool {
	code := websocket.CloseStatus(err)
	if code == -1 {
		return false
	}
	ce.Code = code
	if s := err.Error(); strings.Contains(s, "reason = ") {
		ce.Reason = s[strings.Index(s, "reason = ")+len("reason = "):]
	}
	return true
}

// create creates a room with spec and returns its code.
func (cl *client) create(spec msg) string {
	cl.t.Helper()
	cl.send(msg{"type": "create", "room": spec})
	j := cl.expect("joined")
	cl.room, cl.token, cl.seat = j.str("room"), j.str("token"), j.num("seat")
	return cl.room
}

// join joins room code.
func (cl *client) join(code string) {
	cl.t.Helper()
	cl.send(msg{"type": "join", "room": code})
	j := cl.expect("joined")
	cl.room, cl.token, cl.seat = j.str("room"), j.str("token"), j.num("seat")
}

// decodeView reads the "view" of a state or update message.
func decodeView(t *testing.T, m msg) rules.View {
	t.Helper()
	b, _ := json.Marshal(m["view"])
	var v rules.View
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// choose returns the claim a player sees in the view (rules.FindClaim).
func choose(t *testing.T, v *rules.View) rules.Action {
	t.Helper()
	var a rules.Action
	if !rules.FindClaim(v, &a) {
		t.Fatalf("no claim in view %+v", v)
	}
	return a
}
