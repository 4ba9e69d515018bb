package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/internal/natstest"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
)

// wait is how long a test waits for something to happen before it fails.
const wait = 20 * time.Second

// poll calls ok until it reports true, failing the test after wait.
func poll(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", wait, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startNATS starts a NATS server of the test's own.
func startNATS(t testing.TB) *natstest.Server { return natstest.Start(t) }

// testNode is a Manager with its node of the cluster.
type testNode struct {
	name string
	m    *room.Manager
	n    *Node
	reg  *metrics.Registry
	dead bool
}

// roomConfig is the rooms' configuration in the tests: a short countdown.
func roomConfig(t testing.TB) room.Config {
	c := room.DefaultConfig()
	c.Countdown = 50 * time.Millisecond
	c.Log = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelInfo}))
	return c
}

// startNode starts node name of the cluster on url, with a store of its
// own and a lease of lease (0: the default); it is closed when the test
// ends, unless it was crashed.
func startNode(t testing.TB, url, name string, lease ...time.Duration) *testNode {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), name+".db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	cfg := roomConfig(t)
	m, err := room.NewManager(cfg, st, room.NewDecks(), room.NewMetrics(reg), name)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{URL: url, Node: name, Manager: m, Log: cfg.Log.With("test_node", name), Registerer: reg}
	if len(lease) > 0 {
		o.Lease = lease[0]
	}
	n, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{name: name, m: m, n: n, reg: reg}
	t.Cleanup(func() {
		if !tn.dead {
			m.Close()
			n.Close()
		}
		st.Close()
	})
	return tn
}

// crash ends the node as a crash does: its key is no longer renewed,
// its connection to NATS is dropped with whatever it had in flight, and
// nothing of its rooms reaches anyone any more.
func (tn *testNode) crash() {
	tn.dead = true
	tn.n.cancel()
	tn.n.wg.Wait()
	tn.n.nc.Close()
	tn.n.closeJournal()
}

// counter returns the value of the metric name (with label, if not
// empty, as "key=value") in the node's registry.
func (tn *testNode) counter(name, label string) float64 {
	total := 0.0
	for _, mf := range tn.reg.Gather() {
		if mf.Name != name {
			continue
		}
		for _, m := range mf.Series {
			if label != "" {
				match := false
				for _, lp := range m.Labels {
					if lp.Name+"="+lp.Value == label {
						match = true
					}
				}
				if !match {
					continue
				}
			}
			if mf.Type == metrics.CounterType || mf.Type == metrics.GaugeType {
				total += m.Value
			}
		}
	}
	return total
}

// owner returns the directory's value for room code, polling until it
// names the node want (any node when want is empty).
func owner(t *testing.T, url, code, want string) Owner {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	var o Owner
	poll(t, fmt.Sprintf("room %s to be owned by %q", code, want), func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		kv, err := js.KeyValue(ctx, Bucket)
		if err != nil {
			return false
		}
		e, err := kv.Get(ctx, code)
		if err != nil || json.Unmarshal(e.Value(), &o) != nil {
			return false
		}
		return want == "" || o.Node == want
	})
	return o
}

// message is a server message, with the fields the tests read.
type message struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Code   string          `json:"code"`
	Room   json.RawMessage `json:"room"`
	Token  string          `json:"token"`
	Seat   int             `json:"seat"`
	Table  int             `json:"table"`
	View   *rules.View     `json:"view"`
	Events []struct {
		Seat int `json:"seat"`
	} `json:"events"`
}

// player is a person's connection to a node: to its Manager, read as the
// WebSocket transport reads a Peer (connect), or a WebSocket (dial).
type player struct {
	t      testing.TB
	name   string
	write  func(b []byte)
	p      *room.Peer // the Peer of a connection to a Manager
	frames chan []byte
	closed chan struct{}

	code, token string
	seat, table int
	view        *rules.View
	mind        rules.Player
	ids         int
	// acked is the highest version of the table the player was sent.
	acked uint64
}

// connect connects a player named name to m and says hello.
func connect(t testing.TB, m *room.Manager, name string) *player {
	t.Helper()
	// The writer uses its own copies of the player's fields: resume
	// copies a new connection's player over this one.
	p, frames, closed := m.NewPeer(), make(chan []byte, 4096), make(chan struct{})
	pl := &player{t: t, name: name, p: p, frames: frames, closed: closed}
	pl.write = func(b []byte) { m.Handle(p, b, time.Now()) }
	var once sync.Once
	var buf [][]byte
	var mu sync.Mutex
	p.SetWriter(func() {
		go func() {
			mu.Lock()
			defer mu.Unlock()
			for {
				var last bool
				buf, last = p.Take(buf)
				for _, f := range buf {
					frames <- append([]byte(nil), f...)
				}
				if last {
					once.Do(func() { close(closed) })
					m.Gone(p)
					return
				}
				if len(buf) == 0 {
					return
				}
			}
		}()
	})
	pl.send(`{"type": "hello", "v": 1, "name": %q}`, name)
	pl.take(protocol.MsgWelcome)
	return pl
}

// send sends a request.
func (pl *player) send(format string, args ...any) {
	pl.write(fmt.Appendf(nil, format, args...))
}

// next returns the next message, failing the test after wait.
func (pl *player) next() *message {
	pl.t.Helper()
	select {
	case b := <-pl.frames:
		return pl.decode(b)
	case <-time.After(wait):
		pl.t.Fatalf("%s: no message for %v", pl.name, wait)
		return nil
	}
}

// decode reads frame b, a message, and keeps what the player learns
// from it.
func (pl *player) decode(b []byte) *message {
	pl.t.Helper()
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		pl.t.Fatalf("%s: %v: %s", pl.name, err, b)
	}
	pl.see(&m)
	return &m
}

// see keeps what the player learns from m.
func (pl *player) see(m *message) {
	switch m.Type {
	case protocol.MsgJoined:
		json.Unmarshal(m.Room, &pl.code)
		pl.token, pl.seat = m.Token, m.Seat
	case protocol.MsgState, protocol.MsgUpdate:
		if m.View == nil {
			return
		}
		pl.table, pl.view = m.Table, m.View
		if pl.mind == nil {
			g, err := rules.Lookup(m.View.Game)
			if err != nil {
				pl.t.Fatal(err)
			}
			pl.mind = rules.NewPlayer(g)
		}
		if m.Type == protocol.MsgState {
			pl.mind.Reset()
		}
		pl.mind.Observe(m.View)
		pl.acked = max(pl.acked, m.View.Version)
	}
}

// take reads messages until one of type typ, which it returns; an error
// fails the test.
func (pl *player) take(typ string) *message {
	pl.t.Helper()
	for {
		m := pl.next()
		if m.Type == typ {
			return m
		}
		if m.Type == protocol.MsgError {
			pl.t.Fatalf("%s: error %s while waiting for %s", pl.name, m.Code, typ)
		}
	}
}

// catchUp reads messages until the player has seen version v of the table.
func (pl *player) catchUp(v uint64) {
	pl.t.Helper()
	for pl.view == nil || pl.view.Version < v {
		pl.next()
	}
}

// act makes the player's next move and waits for its answer: it reports
// whether the move was accepted (an update of its own), or refused.
func (pl *player) act() bool {
	pl.t.Helper()
	var a rules.Action
	if pl.view == nil || !pl.mind.Decide(pl.view, &a) {
		pl.t.Fatalf("%s has no move to make", pl.name)
	}
	pl.ids++
	id := strconv.Itoa(pl.ids)
	req := protocol.Action(a, pl.table, id)
	req.Action.Version = pl.view.Version
	pl.write(protocol.AppendRequest(nil, req))
	for {
		m := pl.next()
		switch {
		case m.Type == protocol.MsgUpdate && len(m.Events) > 0 && m.Events[0].Seat == pl.seat:
			return true
		case m.Type == protocol.MsgRefused && m.ID == id:
			return false
		case m.Type == protocol.MsgError:
			pl.t.Fatalf("%s: error %s on its move", pl.name, m.Code)
		}
	}
}

// resume has the player resume its seat on back, its new connection: it
// returns the table's state as the player is sent it.
func (pl *player) resume(back *player) *message {
	pl.t.Helper()
	back.code, back.token, back.seat = pl.code, pl.token, pl.seat
	back.acked = pl.acked
	back.send(`{"type": "resume", "room": %q, "token": %q}`, pl.code, pl.token)
	back.take(protocol.MsgJoined)
	st := back.take(protocol.MsgState)
	*pl = *back
	return st
}

// game opens a Tower for two people, host and guest, on node tn and
// starts it; it returns the two players at the table.
func game(t testing.TB, tn *testNode) (host, guest *player) {
	t.Helper()
	host = connect(t, tn.m, "host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	host.take(protocol.MsgJoined)
	guest = connect(t, tn.m, "guest")
	guest.send(`{"type": "join", "room": %q}`, host.code)
	guest.take(protocol.MsgJoined)
	host.send(`{"type": "start"}`)
	host.take(protocol.MsgState)
	guest.take(protocol.MsgState)
	return host, guest
}

// play makes n moves accepted, the two players in turn, and returns the
// table's version after them.
func play(t testing.TB, n int, players ...*player) uint64 {
	t.Helper()
	var v uint64
	for i := 0; i < n; {
		pl := players[i%len(players)]
		pl.catchUp(v)
		if pl.act() {
			i++
		}
		v = max(v, pl.view.Version)
	}
	for _, pl := range players {
		pl.catchUp(v)
	}
	return v
}

// errorsIs is errors.Is.
func errorsIs(err, target error) bool { return errors.Is(err, target) }

// proxy forwards TCP connections to a NATS server, until cut: then it
// drops every connection and refuses new ones, as a network partition
// does to the nodes behind it.
type proxy struct {
	ln     net.Listener
	to     string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
	closed bool
}

// newProxy starts a proxy to the NATS server at addr (host:port).
func newProxy(t *testing.T, addr string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, to: addr}
	go p.serve()
	t.Cleanup(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		p.partition()
		ln.Close()
	})
	return p
}

// url returns the proxy's URL.
func (p *proxy) url() string { return "nats://" + p.ln.Addr().String() }

// serve forwards each connection accepted.
func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.to)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

// heal lets connections through again.
func (p *proxy) heal() {
	p.mu.Lock()
	p.cut = p.closed
	p.mu.Unlock()
}

// partition drops every connection and refuses new ones.
func (p *proxy) partition() {
	p.mu.Lock()
	p.cut = true
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}
