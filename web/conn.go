package web

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
)

// A connection costs one goroutine while it is idle, the one reading it,
// and a read buffer of readBuffer bytes. Its frames are written by a
// goroutine started when they arrive (see room.Peer), which stops when it
// has written them all, through a buffer taken from a pool for the time of
// the write; and one sweeper for all the connections of a server pings
// the quiet ones and closes the dead.
//
// The rule for closing a connection that does not keep up: a client is
// given up when its backlog outgrows its queue (--conn-queue frames: a
// slow consumer, closed at once by room.Peer), or when it has shown no
// sign of life for twice the ping interval: a ping unanswered, or one
// write that made no progress, for that long. Time is counted in sweeps
// of the sweeper, which runs every quarter of the ping interval: a server
// starved of the processor for a while (a busy machine) sweeps late and
// sweeps once, and never takes its own slowness for a dead client. So the
// writes of messages have no deadline on the clock; only the handshake's
// answer and the close frame do (handshakeTimeout, closeTimeout).
// Connections from which a frame arrived within the ping interval are not
// pinged: a player who plays is alive.
//
// A new connection has Limits.HelloTimeout to say hello: until then its
// reads have that deadline, and a connection that has not said hello by
// then is closed (1008). Every frame a client sends, its control frames
// too, draws on its budget of messages (room.Manager.Handle and Control),
// and on its address's, which outlives the connection.
//
// Closing follows RFC 6455 §7: the side that closes first sends a close
// frame with its status and waits for the other's; the server then closes
// the TCP connection. The server waits closeTimeout at most for a client's
// answer (the server's closeWait).

// conn is one WebSocket connection.
type conn struct {
	s     *server
	nc    net.Conn
	rd    wsutil.Reader // reads nc through a buffer of readBuffer bytes
	p     *room.Peer
	addr  netip.Addr // the client's address
	entry *addrEntry // the client's address in the table of addresses, or nil when it is exempt

	// dmu orders the reader's lifting of the hello deadline and the
	// writer's setting of the close frame's.
	dmu        sync.Mutex
	closeTimed bool // under dmu: the reads have the close frame's deadline

	wmu       sync.Mutex // held through each write to nc, so that frames do not interleave
	closeSent bool       // under wmu: the close frame is written and nothing may follow it

	finished chan struct{} // closed once the close frame is written, or could not be

	closeHeard bool        // owned by the reader: the client's close frame arrived
	helloSaid  bool        // owned by the reader: the client has said hello
	lost       atomic.Bool // the connection failed: nothing more goes through it

	heard   atomic.Int64  // the sweep when a frame last arrived
	writing atomic.Bool   // a write is under way
	writes  atomic.Uint64 // writes finished
	pinging atomic.Bool   // a ping is waiting for its pong

	// The round-trip pings (rtt.go): measured once the client has said
	// hello; the slot of the sweeper's wheel it is pinged in (under the
	// sweeper's lock, while measured); the number of the last ping, the
	// one waiting for its pong (nil for none), and rttBusy, set while a
	// ping is being written.
	measured atomic.Bool
	rttSlot  int
	rttSeq   atomic.Uint64
	rttWait  atomic.Pointer[rttProbe]
	rttBusy  atomic.Bool

	// Owned by the sweeper.
	seen     uint64 // writes finished at the last sweep
	stalled  int    // sweeps that found the same write under way
	pingedAt int64  // the sweep that sent the ping waiting for its pong
}

// sweepsPerPing is how many sweeps make one ping interval.
const sweepsPerPing = 4

// readBuffer is the size of a connection's read buffer: a client's
// messages are small (a claim is about 100 bytes).
const readBuffer = 1024

// maxWrite is about the most bytes written to a connection at once: the
// frames waiting for a connection go out together, up to that many.
const maxWrite = 32 << 10

// handshakeTimeout bounds the write of the handshake's answer, and
// closeTimeout the write of the close frame and the wait for the client's.
const (
	handshakeTimeout = 10 * time.Second
	closeTimeout     = 5 * time.Second
)

// errCloseHeard ends the reads when the client's close frame arrives.
var errCloseHeard = errors.New("the client closed the connection")

// upgrader makes the WebSocket handshake.
var upgrader = ws.HTTPUpgrader{Timeout: handshakeTimeout}

// accept makes the WebSocket handshake of r and returns the connection,
// not yet running; the library answers a request that is not a WebSocket
// handshake with an HTTP error itself.
func (s *server) accept(w http.ResponseWriter, r *http.Request) (*conn, error) {
	nc, rw, _, err := upgrader.Upgrade(r, w)
	if err != nil {
		if nc != nil {
			nc.Close()
		}
		return nil, err
	}
	// What the client sent after its request is in net/http's buffer: it
	// must be read first, through the connection's own smaller buffer.
	var src io.Reader = nc
	n := rw.Reader.Buffered()
	if n > 0 {
		b, _ := rw.Reader.Peek(n)
		src = io.MultiReader(bytes.NewReader(b), nc)
	}
	br := bufio.NewReaderSize(src, max(readBuffer, n))
	if _, err := br.Peek(n); err != nil {
		nc.Close()
		return nil, err
	}
	// The client has HelloTimeout to say hello; net/http's deadlines, if
	// any, were lifted when the connection was taken from it.
	nc.SetWriteDeadline(time.Time{})
	if d := s.o.Limits.HelloTimeout; d > 0 {
		nc.SetReadDeadline(time.Now().Add(d))
	}
	cn := &conn{s: s, nc: nc, p: s.o.Manager.NewPeer(), finished: make(chan struct{})}
	cn.rd = wsutil.Reader{
		Source:         br,
		State:          ws.StateServerSide,
		MaxFrameSize:   protocol.MaxFrame,
		MaxMessageSize: protocol.MaxFrame,
		OnIntermediate: cn.control,
	}
	return cn, nil
}

// run reads the connection until it ends, handing each message to the
// Manager, then waits for the writer's close frame, and for the client's
// when it has not come yet, and closes the connection.
func (cn *conn) run() {
	s, p := cn.s, cn.p
	m := s.o.Manager
	defer func() {
		s.forget(cn)
		if cn.entry != nil {
			s.addrs.release(cn.entry)
		}
		s.o.Metrics.Connections.Dec()
		s.conns.Add(-1)
	}()
	// The reads have no deadline of their own (the sweeper finds a dead
	// peer) and reuse one buffer: Handle keeps nothing of a message.
	var buf []byte
	clean := false // the reads stopped between two frames
	for {
		h, err := cn.rd.NextFrame()
		if err == nil && h.OpCode.IsControl() {
			err = cn.control(h, &cn.rd)
			if err == nil {
				err = cn.rd.Discard()
			}
			if err == nil && cn.closing() {
				clean = true // closed for a flood of control frames
				break
			}
			if err == nil {
				continue
			}
		}
		if err == nil {
			buf, err = readMessage(&cn.rd, buf[:0])
		}
		if err != nil {
			cn.failed(err)
			break
		}
		cn.heard.Store(s.sweeps.Load())
		if h.OpCode != ws.OpText {
			m.HandleBinary(p, time.Now())
		} else {
			m.Handle(p, buf, time.Now())
		}
		if !cn.helloSaid && p.Hello() {
			cn.hello()
		}
		if !cn.closing() {
			continue
		}
		clean = true
		break
	}
	m.Gone(p)
	<-cn.finished
	if !cn.lost.Load() && !cn.closeHeard {
		cn.awaitClose(clean)
	}
	cn.nc.Close()
	if code, reason := p.CloseStatus(); code == room.StatusPolicy {
		for _, kind := range boundCloses {
			if strings.HasPrefix(reason, kind) {
				s.notes.note("closed: "+kind, "closed a WebSocket connection", "reason", reason, "addr", cn.addr.String())
			}
		}
	}
}

// boundCloses are how the reasons of the closes for a bound begin, which
// are logged: a flood, no hello in time, a slow consumer.
var boundCloses = []string{"flood", "no hello", "slow consumer"}

// closing reports whether the Peer is closed: the reads stop.
func (cn *conn) closing() bool {
	select {
	case <-cn.p.Done():
		return true
	default:
		return false
	}
}

// hello lifts the deadline of the reads once the client has said hello,
// unless the close frame's deadline has replaced it.
func (cn *conn) hello() {
	cn.helloSaid = true
	cn.s.measure(cn)
	if cn.s.o.Limits.HelloTimeout <= 0 {
		return
	}
	cn.dmu.Lock()
	if !cn.closeTimed {
		cn.nc.SetReadDeadline(time.Time{})
	}
	cn.dmu.Unlock()
}

// readMessage appends the rest of the message r is at to b.
func readMessage(r io.Reader, b []byte) ([]byte, error) {
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

// control answers the control frame of header h, whose payload r holds;
// it returns errCloseHeard for a close frame.
func (cn *conn) control(h ws.Header, r io.Reader) error {
	// The payload is read through an interface, so it is not kept on the
	// stack: a buffer from a pool spares the collector one a pong.
	b := controlBuffers.Get().(*[ws.MaxControlFramePayloadSize]byte)
	defer controlBuffers.Put(b)
	payload := b[:h.Length]
	if _, err := io.ReadFull(r, payload); err != nil {
		return err
	}
	cn.heard.Store(cn.s.sweeps.Load())
	// Every control frame draws on the budget of messages; a ping is
	// answered only within it, a close always. Once the connection is
	// closing, nothing is counted and no ping answered.
	allowed := !cn.closing() && cn.s.o.Manager.Control(cn.p, time.Now())
	switch h.OpCode {
	case ws.OpPing:
		if allowed {
			cn.writeControl(ws.OpPong, payload)
		}
	case ws.OpPong:
		cn.pinging.Store(false)
		if allowed {
			cn.rttPong(payload, time.Now())
		}
	case ws.OpClose:
		cn.closeHeard = true
		code, reason := ws.ParseCloseFrameData(payload)
		switch {
		case len(payload) == 0:
			cn.p.Close(room.StatusNormal, "")
		case ws.CheckCloseFrameData(code, reason) != nil:
			cn.p.Close(int(ws.StatusProtocolError), "an invalid close frame")
		default:
			cn.p.Close(int(code), "") // the answer echoes the client's status
		}
		return errCloseHeard
	}
	return nil
}

// controlBuffers holds the buffers control reads control frames into.
var controlBuffers = sync.Pool{New: func() any { return new([ws.MaxControlFramePayloadSize]byte) }}

// failed closes the Peer for what ended the reads: a message too large
// (1009), a breach of the protocol (1002), no hello in time (1008), or a
// connection that failed.
func (cn *conn) failed(err error) {
	var perr ws.ProtocolError
	switch {
	case errors.Is(err, errCloseHeard):
	case errors.Is(err, os.ErrDeadlineExceeded) && !cn.helloSaid && !cn.closing():
		cn.s.o.Metrics.HelloTimeouts.Inc()
		cn.p.Close(room.StatusPolicy, "no hello within "+cn.s.o.Limits.HelloTimeout.String())
	case errors.Is(err, wsutil.ErrFrameTooLarge), errors.Is(err, wsutil.ErrMessageTooLarge):
		cn.p.Close(room.StatusTooBig, "a message over "+strconv.Itoa(protocol.MaxFrame)+" bytes")
	case errors.As(err, &perr):
		cn.p.Close(int(ws.StatusProtocolError), perr.Error())
	default:
		cn.lost.Store(true)
	}
}

// awaitClose reads until the client's close frame arrives, the client
// closes the connection or the server's closeWait (set by close) passes. After a
// clean stop the client's frames are read and dropped; after a failure,
// in the middle of a frame, its bytes are.
func (cn *conn) awaitClose(clean bool) {
	if !clean {
		io.Copy(io.Discard, cn.rd.Source)
		return
	}
	for {
		h, err := cn.rd.NextFrame()
		if err == nil && h.OpCode.IsControl() {
			err = cn.control(h, &cn.rd)
		}
		if err == nil {
			err = cn.rd.Discard()
		}
		if err != nil {
			return
		}
	}
}

// write is the writer the Peer starts: it writes the waiting frames until
// there are none, and closes the connection once the Peer is closed.
func (cn *conn) write() {
	p := cn.p
	var held [8][]byte
	var heldPooled [8]bool
	batch, pooled := held[:0], heldPooled[:0]
	for {
		var last bool
		batch, pooled, last = p.TakePooled(batch, pooled)
		if last {
			cn.close()
			return
		}
		if len(batch) == 0 {
			return
		}
		f := getFrames()
		for i, b := range batch {
			f.add(ws.OpText, b)
			if pooled[i] {
				// Copied: the frame goes back to the pool (the next
				// TakePooled clears batch).
				protocol.PutFrame(b)
			}
			if len(f.b) < maxWrite && i < len(batch)-1 {
				continue
			}
			err := cn.sendMessages(f.b)
			f.b = f.b[:0]
			if err != nil {
				p.Close(room.StatusPolicy, "write failed")
				cn.nc.Close()
				break
			}
		}
		f.put()
	}
}

// send writes b, whole frames, unless the close frame has gone.
func (cn *conn) send(b []byte) error {
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	if cn.closeSent {
		return net.ErrClosed
	}
	_, err := cn.nc.Write(b)
	return err
}

// sendMessages writes b, whole frames of messages, and counts the write
// for the sweeper, from before it waits for a control frame to go.
func (cn *conn) sendMessages(b []byte) error {
	cn.writing.Store(true)
	err := cn.send(b)
	cn.writes.Add(1)
	cn.writing.Store(false)
	return err
}

// writeControl writes a control frame holding payload; a failure closes
// the connection.
func (cn *conn) writeControl(op ws.OpCode, payload []byte) {
	f := getFrames()
	f.add(op, payload)
	err := cn.send(f.b)
	f.put()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		cn.p.Close(room.StatusPolicy, "write failed")
		cn.nc.Close()
	}
}

// close writes the close frame with the Peer's status, gives the client
// the server's closeWait to answer it, and lets the reader finish.
func (cn *conn) close() {
	defer close(cn.finished)
	code, reason := cn.p.CloseStatus()
	f := getFrames()
	defer f.put()
	f.add(ws.OpClose, ws.NewCloseFrameBody(ws.StatusCode(code), reason))
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	if cn.closeSent || cn.lost.Load() {
		return
	}
	cn.closeSent = true
	deadline := time.Now().Add(cn.s.closeWait)
	cn.nc.SetWriteDeadline(deadline)
	if _, err := cn.nc.Write(f.b); err != nil {
		cn.nc.Close()
		return
	}
	cn.dmu.Lock()
	cn.closeTimed = true
	cn.nc.SetReadDeadline(deadline)
	cn.dmu.Unlock()
}

// ping pings the connection; its pong ends pinging.
func (cn *conn) ping() {
	cn.writeControl(ws.OpPing, nil)
}

// frames is a buffer of frames written to a connection in one write.
type frames struct {
	b   []byte
	hdr [ws.MaxHeaderSize]byte
}

// framesPool holds the buffers of frames between writes.
var framesPool = sync.Pool{New: func() any { return new(frames) }}

// getFrames returns an empty buffer of frames.
func getFrames() *frames { return framesPool.Get().(*frames) }

// put returns f to the pool, unless it has grown too large to keep.
func (f *frames) put() {
	if cap(f.b) <= 2*maxWrite {
		f.b = f.b[:0]
		framesPool.Put(f)
	}
}

// Write appends p to the frames.
func (f *frames) Write(p []byte) (int, error) {
	f.b = append(f.b, p...)
	return len(p), nil
}

// add appends a final, unmasked frame of opcode op holding payload, as a
// server sends it.
func (f *frames) add(op ws.OpCode, payload []byte) {
	ws.WriteHeaderBuffer(f, ws.Header{Fin: true, OpCode: op, Length: int64(len(payload))}, f.hdr[:])
	f.b = append(f.b, payload...)
}

// sweeper keeps a server's connections for the sweeps.
type sweeper struct {
	mu         sync.Mutex
	live       map[*conn]struct{}
	running    bool
	rttRunning bool // the round-trip pings are running (rtt.go)
	// rttWheel holds the connections that have said hello, each in the
	// slot of the interval it is pinged in; rttTurn is the slot pinged
	// last (rtt.go).
	rttWheel [rttSlots]map[*conn]struct{}
	rttTurn  int
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
	rtt := !s.sw.rttRunning && s.o.RTTEvery > 0
	s.sw.rttRunning = s.sw.rttRunning || rtt
	s.sw.mu.Unlock()
	if start {
		go s.sweepEvery(max(s.o.PingEvery/sweepsPerPing, time.Millisecond))
	}
	if rtt {
		go s.rttEvery(s.o.RTTEvery)
	}
}

// forget removes cn from the connections swept.
func (s *server) forget(cn *conn) {
	s.sw.mu.Lock()
	delete(s.sw.live, cn)
	if cn.measured.Load() {
		delete(s.sw.rttWheel[cn.rttSlot], cn)
	}
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
		cn.nc.Close()
	}
	return true
}
