package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/dobble-dev/dobble/internal/wsframe"
	"github.com/dobble-dev/dobble/room"
)

// A connection costs one goroutine while it is idle, the one reading it.
// Its frames are written by a goroutine started when they arrive (see
// room.Peer), which stops when it has written them all; and one sweeper
// for all the connections of a server pings the quiet ones and closes
// the dead.
//
// The rule for closing a connection that does not keep up: a client is
// given up when its backlog outgrows its queue (--conn-queue frames: a
// slow consumer, closed at once by room.Peer), or when it has shown no
// sign of life for twice the ping interval: a ping unanswered, or one
// write that made no progress, for that long. Time is counted in sweeps
// of the sweeper, which runs every quarter of the ping interval: a server
// starved of the processor for a while (a busy machine) sweeps late and
// sweeps once, and never takes its own slowness for a dead client.
// Connections from which a frame arrived within the ping interval are not
// pinged: a player who plays is alive.

// conn is one WebSocket connection.
type conn struct {
	s    *server
	c    *websocket.Conn
	wire *wire // under c: the messages are written straight to it
	p    *room.Peer

	finished chan struct{} // closed once the connection is closed on the server's side

	heard   atomic.Int64  // the sweep when a frame or a pong last arrived
	writing atomic.Bool   // a write is under way
	writes  atomic.Uint64 // writes finished
	pinging atomic.Bool   // a ping is waiting for its pong

	// Owned by the sweeper.
	seen     uint64 // writes finished at the last sweep
	stalled  int    // sweeps that found the same write under way
	pingedAt int64  // the sweep that sent the ping waiting for its pong
}

// sweepsPerPing is how many sweeps make one ping interval.
const sweepsPerPing = 4

// run reads the connection until it ends, handing each frame to the
// Manager, then waits for the writer to close it.
func (cn *conn) run() {
	s, c, p := cn.s, cn.c, cn.p
	m := s.o.Manager
	defer func() {
		s.forget(cn)
		s.o.Metrics.Connections.Dec()
		s.conns.Add(-1)
	}()
	// The reads have no deadline of their own (the sweeper finds a dead
	// peer) and reuse one buffer: Handle keeps nothing of a frame.
	var buf []byte
	for {
		typ, r, err := c.Reader(context.Background())
		if err == nil {
			buf, err = readFrame(r, buf[:0])
		}
		if err != nil {
			break
		}
		cn.heard.Store(s.sweeps.Load())
		if typ != websocket.MessageText {
			m.HandleBinary(p, time.Now())
		} else {
			m.Handle(p, buf, time.Now())
		}
		select {
		case <-p.Done():
		default:
			continue
		}
		break
	}
	m.Gone(p)
	<-cn.finished
	c.CloseNow()
}

// readFrame appends what r holds to b.
func readFrame(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// write is the writer the Peer starts: it writes the waiting frames until
// there are none, and closes the connection once the Peer is closed.
func (cn *conn) write() {
	c, p := cn.c, cn.p
	var held [8][]byte
	batch := held[:0]
	for {
		var last bool
		batch, last = p.Take(batch)
		if last {
			cn.close()
			return
		}
		if len(batch) == 0 {
			return
		}
		for _, b := range batch {
			cn.writing.Store(true)
			err := cn.wire.writeText(b)
			cn.writes.Add(1)
			cn.writing.Store(false)
			if err != nil {
				p.Close(room.StatusPolicy, "write failed")
				c.CloseNow()
				break
			}
		}
	}
}

// close closes the connection with the Peer's status.
func (cn *conn) close() {
	code, reason := cn.p.CloseStatus()
	cn.c.Close(websocket.StatusCode(code), reason)
	close(cn.finished)
}

// ping pings the connection and notes the pong.
func (cn *conn) ping() {
	if cn.c.Ping(context.Background()) == nil {
		cn.heard.Store(cn.s.sweeps.Load())
	}
	cn.pinging.Store(false)
}

// sweeper keeps a server's connections for the sweeps.
type sweeper struct {
	mu      sync.Mutex
	live    map[*conn]struct{}
	running bool
}

// watch adds cn to the connections swept, starting the sweeps with the
// first.
func (s *server) watch(cn *conn) {
	cn.heard.Store(s.sweeps.Load())
	s.sw.mu.Lock()
	if s.sw.live == nil {
		s.sw.live = map[*conn]struct{}{}
	}
	s.sw.live[cn] = struct{}{}
	start := !s.sw.running
	s.sw.running = true
	s.sw.mu.Unlock()
	if start {
		go s.sweepEvery(max(s.o.PingEvery/sweepsPerPing, time.Millisecond))
	}
}

// forget removes cn from the connections swept.
func (s *server) forget(cn *conn) {
	s.sw.mu.Lock()
	delete(s.sw.live, cn)
	s.sw.mu.Unlock()
}

// sweepEvery sweeps every d until no connection is left.
func (s *server) sweepEvery(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for range t.C {
		if !s.sweep() {
			return
		}
	}
}

// sweep counts one sweep: it pings the connections that have been quiet
// for a ping interval, and closes those that have not answered a ping, or
// not finished a write, for two. It reports whether connections remain;
// when none do, the sweeps stop until the next connection.
func (s *server) sweep() bool {
	now := s.sweeps.Add(1)
	var ping, dead, stuck []*conn
	s.sw.mu.Lock()
	if len(s.sw.live) == 0 {
		s.sw.running = false
		s.sw.mu.Unlock()
		return false
	}
	for cn := range s.sw.live {
		if cn.writing.Load() {
			if w := cn.writes.Load(); w != cn.seen || cn.stalled == 0 {
				cn.seen, cn.stalled = w, 1
			} else {
				cn.stalled++
			}
			if cn.stalled > 2*sweepsPerPing {
				stuck = append(stuck, cn)
			}
		} else {
			cn.stalled = 0
		}
		switch {
		case cn.pinging.Load():
			if now-cn.pingedAt > 2*sweepsPerPing {
				dead = append(dead, cn)
			}
		case now-cn.heard.Load() >= sweepsPerPing:
			cn.pinging.Store(true)
			cn.pingedAt = now
			ping = append(ping, cn)
		}
	}
	s.sw.mu.Unlock()
	for _, cn := range ping {
		go cn.ping()
	}
	for _, cn := range dead {
		cn.p.Close(room.StatusPolicy, "no answer to ping")
	}
	for _, cn := range stuck {
		s.o.Metrics.SlowConsumers.Inc()
		cn.p.Close(room.StatusPolicy, "slow consumer: a write made no progress")
		cn.c.CloseNow()
	}
	return true
}

// readBuffer is the size of a connection's read buffer: a client's
// messages are small (a claim is about 100 bytes).
const readBuffer = 1024

// controlBuffer is the size of the write buffer left to the WebSocket
// library, which writes only control frames (pings, pongs, closes) of at
// most 127 bytes: each reaches the wire in one piece.
const controlBuffer = 256

// takeover is a ResponseWriter whose Hijack hands the WebSocket library
// small buffers instead of net/http's (which it would keep for the life
// of the connection) and the connection wrapped in a wire, through which
// the library writes its control frames and the connection's writer its
// messages, each frame whole.
type takeover struct {
	http.ResponseWriter
	wire *wire
}

// Hijack takes the connection over from net/http.
func (w *takeover) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("web: this connection cannot be taken over for a WebSocket")
	}
	c, brw, err := h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	// What the client sent after its request is still to be read: it must
	// be in the new reader's buffer, which the library reads before the
	// connection.
	n := brw.Reader.Buffered()
	b, _ := brw.Reader.Peek(n)
	r := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(b), c), max(readBuffer, n))
	if _, err := r.Peek(n); err != nil {
		c.Close()
		return nil, nil, err
	}
	w.wire = &wire{Conn: c}
	return w.wire, bufio.NewReadWriter(r, bufio.NewWriterSize(w.wire, controlBuffer)), nil
}

// wire is a connection whose writes, one frame each, do not interleave.
type wire struct {
	net.Conn
	mu sync.Mutex
}

// Write writes p, one or more whole frames.
func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.Conn.Write(p)
}

// framePool holds the buffers messages are framed in.
var framePool = sync.Pool{New: func() any { return new([]byte) }}

// writeText writes p as one text frame (RFC 6455 §5.2: final, unmasked,
// no extension) in a single write.
func (w *wire) writeText(p []byte) error {
	bp := framePool.Get().(*[]byte)
	f := wsframe.AppendHeader((*bp)[:0], wsframe.Text, len(p), false)
	f = append(f, p...)
	_, err := w.Write(f)
	if cap(f) <= 64<<10 {
		*bp = f
		framePool.Put(bp)
	}
	return err
}
