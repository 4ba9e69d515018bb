package web

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/store"
)

// sweptServer is a server whose sweeps the test makes, one call at a
// time: its own would come only every quarter of an hour.
type sweptServer struct {
	t    *testing.T
	s    *server
	ws   string
	seen map[*conn]bool // the connections connect returned
}

func startSwept(t *testing.T) *sweptServer {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(fastConfig(), st, decks, metrics, "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	s, h, err := newServer(Options{Manager: m, Store: st, Decks: decks, Gatherer: reg, Metrics: metrics, MaxConns: 10, PingEvery: time.Hour})
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
		srv.Close()
		st.Close()
	})
	return &sweptServer{t: t, s: s, ws: "ws://" + ln.Addr().String() + "/ws", seen: map[*conn]bool{}}
}

// connect dials the server, says hello and returns the client's end and
// the server's; read says whether the client keeps reading (and so
// answers pings).
func (ss *sweptServer) connect(read bool) (*websocket.Conn, *conn) {
	ss.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ss.ws, nil)
	if err != nil {
		ss.t.Fatal(err)
	}
	ss.t.Cleanup(func() { c.CloseNow() })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","v":1,"name":"swept"}`)); err != nil {
		ss.t.Fatal(err)
	}
	var cn *conn
	eventually(ss.t, "the server has the connection", func() bool {
		ss.s.sw.mu.Lock()
		defer ss.s.sw.mu.Unlock()
		for c := range ss.s.sw.live {
			if !ss.seen[c] {
				cn = c
			}
		}
		return cn != nil
	})
	ss.seen[cn] = true
	if read {
		go func() {
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
	}
	return c, cn
}

// sweep makes one sweep, then waits for the answer to a ping it sent to
// cn, whose client reads.
func (ss *sweptServer) sweep(cn *conn) {
	ss.s.sweep()
	if cn.pinging.Load() {
		eventually(ss.t, "the pong", func() bool { return !cn.pinging.Load() })
	}
}

// closedWith fails unless the server closed cn's Peer with 1008 and a
// reason holding want.
func closedWith(t *testing.T, cn *conn, want string) {
	t.Helper()
	select {
	case <-cn.p.Done():
	default:
		t.Fatalf("the connection is still open; want it closed for %q", want)
	}
	if code, reason := cn.p.CloseStatus(); code != room.StatusPolicy || !strings.Contains(reason, want) {
		t.Fatalf("closed with %d %q; want %d and %q", code, reason, room.StatusPolicy, want)
	}
}

// open fails if the server closed cn.
func open(t *testing.T, cn *conn, after string) {
	t.Helper()
	select {
	case <-cn.p.Done():
		code, reason := cn.p.CloseStatus()
		t.Fatalf("%s: the connection was closed with %d %q", after, code, reason)
	default:
	}
}

func TestWriteWithoutProgressClosesAfterTwoPingIntervalsOfSweeps(t *testing.T) {
	ss := startSwept(t)
	_, cn := ss.connect(true)
	// Writes that finish between sweeps, however long the sweeps are
	// apart: the client is slow, not dead.
	for range 4 * sweepsPerPing {
		cn.writing.Store(true)
		cn.writes.Add(1)
		ss.sweep(cn)
	}
	open(t, cn, "writes that progress")
	// One write under way through every sweep: the sweeps, not the clock,
	// count how long it stalls, so that a server that could not run for
	// a while does not blame its client.
	cn.writing.Store(true)
	cn.writes.Add(1)
	for range 2 * sweepsPerPing {
		ss.sweep(cn)
	}
	open(t, cn, "a write stalled for less than two ping intervals")
	ss.sweep(cn)
	closedWith(t, cn, "slow consumer")
	cn.writing.Store(false)
}

func TestQuietConnectionIsPingedAndClosedWhenItDoesNotAnswer(t *testing.T) {
	ss := startSwept(t)
	// A client that reads answers the pings of its quiet connection.
	_, alive := ss.connect(true)
	for range 4 * sweepsPerPing {
		ss.sweep(alive)
	}
	open(t, alive, "pings answered")
	if now, heard := ss.s.sweeps.Load(), alive.heard.Load(); now-heard > sweepsPerPing {
		t.Fatalf("sweep %d: the connection was last heard of at sweep %d", now, heard)
	}

	// The server answers a client's ping through the same wire as its
	// messages.
	c, _ := ss.connect(true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("the server did not answer a ping: %v", err)
	}

	// One that does not read is pinged once it has been quiet for a
	// ping interval, and closed two intervals later.
	_, deaf := ss.connect(false)
	for range sweepsPerPing {
		ss.s.sweep()
	}
	if !deaf.pinging.Load() {
		t.Fatal("a connection quiet for a ping interval was not pinged")
	}
	for range 2 * sweepsPerPing {
		ss.s.sweep()
	}
	open(t, deaf, "a ping unanswered for less than two intervals")
	ss.s.sweep()
	closedWith(t, deaf, "no answer to ping")
}

func TestFrameSentWithTheUpgradeRequestIsRead(t *testing.T) {
	ts := start(t, fastConfig())
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	// The request and the first frame (masked, as from a client) in one
	// write: the frame reaches the server with the request's bytes.
	hello := []byte(`{"type":"hello","v":1,"name":"eager"}`)
	mask := [4]byte{1, 2, 3, 4}
	frame := append([]byte{0x81, 0x80 | byte(len(hello))}, mask[:]...)
	for i, b := range hello {
		frame = append(frame, b^mask[i%4])
	}
	req := "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := c.Write(append([]byte(req), frame...)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("status %s", resp.Status)
	}
	var head [2]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		t.Fatal(err)
	}
	n := int(head[1] & 0x7f)
	if n == 126 {
		var ext [2]byte
		if _, err := io.ReadFull(r, ext[:]); err != nil {
			t.Fatal(err)
		}
		n = int(binary.BigEndian.Uint16(ext[:]))
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		t.Fatal(err)
	}
	if head[0] != 0x81 || !strings.Contains(string(payload), `"type":"welcome"`) {
		t.Fatalf("first frame %#x %s; want a welcome", head[0], payload)
	}
}
