package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/web"
)

// natsURL is the NATS server (with JetStream) the tests run against.
const natsURL = "nats://127.0.0.1:4222"

// cluster is the nodes of one test, on the machine's NATS server: its
// node names and its directory bucket are its own, so that tests running
// at the same time on the same server do not meet.
type cluster struct {
	t      testing.TB
	prefix string             // of the node names
	bucket string             // the directory's bucket
	kv     jetstream.KeyValue // the directory, written by the test
}

// newCluster makes the test's directory bucket, deleted when it ends.
func newCluster(t testing.TB) *cluster {
	t.Helper()
	var b [4]byte
	rand.Read(b[:])
	c := &cluster{t: t, prefix: "t" + hex.EncodeToString(b[:]), bucket: "dobble_rooms_test_" + hex.EncodeToString(b[:])}
	nc := connect(t)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if c.kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: c.bucket, Storage: jetstream.MemoryStorage}); err != nil {
		t.Fatalf("create the directory bucket: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		js.DeleteKeyValue(ctx, c.bucket)
	})
	return c
}

// connect connects to NATS until the test ends.
func connect(t testing.TB) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(natsURL, nats.MaxReconnects(-1))
	if err != nil {
		t.Fatalf("NATS at %s (the tests need it running, with JetStream): %v", natsURL, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// own writes in the directory that node holds room code, as the node
// that opens a room does.
func (c *cluster) own(code string, n *node) {
	c.t.Helper()
	c.put(code, n.name)
}

// across opens a room of spec on node a for a player named host, with
// a written in the directory as the room's node, and has a player named
// guest join it through node b. It returns the two players and the
// room's code.
func (c *cluster) across(a, b *node, spec msg) (host, guest *client, code string) {
	c.t.Helper()
	host = a.connect("host")
	code = host.create(spec)
	c.own(code, a)
	guest = b.connect("guest")
	guest.enter(msg{"type": "join", "room": code})
	return host, guest, code
}

// put writes in the directory that the node named name holds room code.
func (c *cluster) put(code, name string) {
	c.t.Helper()
	b, _ := json.Marshal(Entry{Node: name, Journal: "dobble.journal." + code})
	if _, err := c.kv.Put(context.Background(), code, b); err != nil {
		c.t.Fatal(err)
	}
}

// node is one node of a cluster: a Manager, its web handler on a real
// listener, and its relay, on a NATS connection of its own (nc), whose
// name has a dot, as a host's may.
type node struct {
	t       testing.TB
	name    string
	m       *room.Manager
	r       *Relay
	nc      *nats.Conn
	metrics *Metrics
	url, ws string
}

// fastRooms is a room configuration for tests: short countdowns and a
// generous rate limit.
func fastRooms() room.Config {
	return room.Config{Countdown: 5 * time.Millisecond, BotPick: 5 * time.Millisecond, PickTime: time.Second, Rate: 1000, Burst: 1000,
		BotDelay: time.Millisecond}
}

// testRelay is the relay's configuration in tests: a heartbeat every
// 100 ms, and a node taken for dead after a minute of silence, which no
// busy machine's pause reaches; the tests of a node's death shorten it
// for the node that sees the death (quick).
func (c *cluster) testRelay(name string) Config {
	cfg := DefaultConfig()
	cfg.Node, cfg.Bucket = c.prefix+"."+name, c.bucket
	cfg.Heartbeat, cfg.Timeout = 100*time.Millisecond, time.Minute
	return cfg
}

// quick takes a node silent for 3 s for dead.
func quick(cfg *Config) { cfg.Timeout = 3 * time.Second }

// start runs node name with the rooms' configuration rc, its relay's
// configuration changed by edit when it is not nil, until the test ends.
func (c *cluster) start(name string, rc room.Config, edit func(*Config)) *node {
	t := c.t
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(rc, st, decks, metrics, "dobble-"+name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.testRelay(name)
	if edit != nil {
		edit(&cfg)
	}
	rm := NewMetrics(reg)
	r, err := Dial(natsURL, m, cfg, rm)
	if err != nil {
		t.Fatal(err)
	}
	nc := r.nc
	h, err := web.Handler(web.Options{Manager: m, Store: st, Decks: decks, Registry: reg, Metrics: metrics, MaxConns: 100,
		PingEvery: time.Second, Checks: []func() error{r.Health}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() {
		m.Close()
		r.Close()
		srv.Close()
		st.Close()
	})
	return &node{t: t, name: cfg.Node, m: m, r: r, nc: nc, metrics: rm, url: "http://" + ln.Addr().String(), ws: "ws://" + ln.Addr().String() + "/ws"}
}

// get fetches path from n and returns the status and body.
func (n *node) get(path string) (int, string) {
	n.t.Helper()
	resp, err := http.Get(n.url + path)
	if err != nil {
		n.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// value returns a metric's value.
func value(c interface{ Value() float64 }) float64 { return c.Value() }

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// msg is a server message, decoded loosely.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) int    { f, _ := m[k].(float64); return int(f) }

// client is a real WebSocket client.
type client struct {
	t      testing.TB
	c      *websocket.Conn
	in     chan msg
	closed chan struct{}
	err    error // the read error that ended the connection
	name   string
	token  string
	room   string
	seat   int
}

// connect dials n and says hello as name.
func (n *node) connect(name string) *client {
	n.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, n.ws, nil)
	if err != nil {
		n.t.Fatal(err)
	}
	c.SetReadLimit(1 << 22)
	cl := &client{t: n.t, c: c, in: make(chan msg, 4096), closed: make(chan struct{}), seat: -1, name: name}
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
	n.t.Cleanup(func() { c.CloseNow() })
	cl.send(msg{"type": "hello", "v": 1, "name": name, "lang": "en"})
	cl.expect("welcome")
	return cl
}

// send sends one JSON message.
func (cl *client) send(m msg) {
	cl.t.Helper()
	if err := cl.try(m); err != nil {
		cl.t.Fatalf("%s: write: %v", cl.name, err)
	}
}

// try sends one JSON message and returns what failed, if anything.
func (cl *client) try(m msg) error {
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return cl.c.Write(ctx, websocket.MessageText, b)
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
	case <-time.After(20 * time.Second):
		cl.t.Fatalf("%s: no message for 20 s", cl.name)
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
// close status and reason.
func (cl *client) waitClosed() (websocket.StatusCode, string) {
	cl.t.Helper()
	select {
	case <-cl.closed:
	case <-time.After(20 * time.Second):
		cl.t.Fatalf("%s: still open after 20 s", cl.name)
	}
	code := websocket.CloseStatus(cl.err)
	reason := ""
	if s := fmt.Sprint(cl.err); strings.Contains(s, "reason = ") {
		reason = strings.Trim(s[strings.Index(s, "reason = ")+len("reason = "):], `"`)
	}
	return code, reason
}

// enter sends a create, join, watch or resume and waits for joined.
func (cl *client) enter(m msg) {
	cl.t.Helper()
	cl.send(m)
	j := cl.expect("joined")
	cl.room, cl.seat = j.str("room"), j.num("seat")
	if tok := j.str("token"); tok != "" {
		cl.token = tok
	}
}

// create creates a room with spec and returns its code.
func (cl *client) create(spec msg) string {
	cl.t.Helper()
	cl.enter(msg{"type": "create", "room": spec})
	return cl.room
}

// decodeView reads the "view" of a state or update message.
func decodeView(t testing.TB, m msg) rules.View {
	t.Helper()
	b, _ := json.Marshal(m["view"])
	var v rules.View
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// sessionOf returns the "session" object of a state or over message.
func sessionOf(m msg) msg {
	s, _ := m["session"].(map[string]any)
	return msg(s)
}

// play runs cl as a client bot until the session is over, and returns
// the over message that ends it: it chooses its actions from the views it
// receives with the game's rules.Player, one action per table version.
// A spectator (seat -1) only watches.
func (cl *client) play() msg {
	cl.t.Helper()
	table, claimed := -1, ""
	var v rules.View
	var mind rules.Player
	have := false
	for {
		m := cl.next()
		switch m.str("type") {
		case "state":
			table, v, have = m.num("table"), decodeView(cl.t, m), true
			g, err := rules.Lookup(v.Game)
			if err != nil {
				cl.t.Fatalf("%s: %v", cl.name, err)
			}
			mind = rules.NewPlayer(g)
			mind.Observe(&v)
		case "update":
			if m.num("table") == table && have {
				v = decodeView(cl.t, m)
				mind.Observe(&v)
			}
		case "refused":
			switch m.str("code") {
			case "tooLate", "gameOver", "lockedOut", "timeUp":
			default:
				cl.t.Fatalf("%s: a claim chosen from the view was refused: %v", cl.name, m)
			}
		case "over":
			have = false
			if sessionOf(m).str("phase") == "over" {
				return m
			}
		case "error":
			if m.str("code") != "busy" {
				cl.t.Fatalf("%s: error %v", cl.name, m)
			}
			claimed = ""
		}
		if !have || v.Over || v.Seat < 0 {
			continue
		}
		key := fmt.Sprintf("%d/%d", table, v.Version)
		if key == claimed {
			continue
		}
		var a rules.Action
		if !mind.Decide(&v, &a) {
			continue
		}
		claimed = key
		out := msg{"type": a.Kind.String(), "table": table, "version": v.Version}
		if a.Kind.HasSymbol() {
			out["symbol"] = a.Symbol
		}
		if a.Kind == rules.ActionClaim || a.Target.Len() > 0 {
			out["target"] = a.Target
		}
		cl.send(out)
		mind.Sent(&v, &a)
	}
}

// playAsync runs cl.play in a goroutine; the channel yields its final
// message, or nil when the goroutine failed the test.
func (cl *client) playAsync() <-chan msg {
	done := make(chan msg, 1)
	go func() {
		var final msg
		defer func() { done <- final }()
		final = cl.play()
	}()
	return done
}

// wait returns what a playAsync channel yields, failing after a deadline.
func wait(t testing.TB, done <-chan msg) msg {
	t.Helper()
	select {
	case m := <-done:
		return m
	case <-time.After(60 * time.Second):
		t.Fatal("a client did not finish the session within 60 s")
	}
	return nil
}
