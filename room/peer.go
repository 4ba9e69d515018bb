package room

import (
	"sync"
	"sync/atomic"
	"time"
)

// Close statuses a Peer is closed with, as WebSocket close codes.
const (
	// StatusNormal: the server or the client ended the conversation.
	StatusNormal = 1000
	// StatusGoingAway: the server is shutting down.
	StatusGoingAway = 1001
	// StatusPolicy: the client broke the protocol (no hello first, a
	// flood of refused messages) or could not keep up (slow consumer).
	StatusPolicy = 1008
	// StatusTooBig: a frame was larger than MaxFrame.
	StatusTooBig = 1009
	// StatusRestart: the server is restarting and keeps the rooms in
	// play; reconnect and resume.
	StatusRestart = 1012
	// StatusTryAgain: the server is full.
	StatusTryAgain = 1013
)

// Peer is one connection as the rooms see it: a bounded queue of encoded
// frames to write, and a close signal. Send never blocks: a frame that
// finds the queue full closes the Peer as a slow consumer. The queue holds
// memory only for the frames waiting in it, and no goroutine waits on an
// idle Peer: the transport gives SetWriter a function that starts a
// writer, which the Peer calls when frames arrive and none is at work, and
// when it is closed. The writer takes the waiting frames with Take and
// writes them in order until Take returns none; it then stops, unless the
// Peer is closed (Done), when it closes the connection with CloseStatus.
type Peer struct {
	mu     sync.Mutex
	queue  [][]byte
	pooled []bool // pooled[i]: queue[i] was sent with SendPooled
	limit  int
	busy   bool   // a writer has been started and has not stopped
	closed bool   // Close was called: Send refuses frames
	start  func() // starts a writer; set by SetWriter
	done   chan struct{}
	once   sync.Once

	closeCode   int
	closeReason string

	room atomic.Pointer[Room]

	// Owned by the goroutine reading the connection.
	hello  bool
	name   string
	lang   string
	tokens float64
	last   time.Time
	strike int
	budget *Budget // shared with the other connections of the client's address, or nil
	addr   string  // the client's address as the per-address bounds count it, or "" when exempt
	routed bool    // a Router carries the connection to another node (route.go)
	remote bool    // the connection was made to another node (NewRemotePeer)

	onSlow func()

	rtt rttState // the connection's round trips (rtt.go)
}

// ShareBudget makes the Peer draw each message from b as well as from its
// own bucket: b is the budget of every connection from the client's
// address, which a new connection does not refill. It is called by the
// goroutine that reads the connection, before its first message.
func (p *Peer) ShareBudget(b *Budget) { p.budget = b }

// SetAddress names the client's address (an IPv4 address or an IPv6 /64)
// for the bound on the rooms one address may have open
// (Config.MaxRoomsPerAddr); a connection without one is not bounded.
func (p *Peer) SetAddress(addr string) { p.addr = addr }

// Hello reports whether the connection has said hello; only the goroutine
// reading the connection may ask.
func (p *Peer) Hello() bool { return p.hello }

// NewPeer returns a Peer whose output queue holds queue frames.
func NewPeer(queue int) *Peer {
	return &Peer{limit: queue, done: make(chan struct{})}
}

// SetWriter sets the function that starts a writer for the Peer; it is
// called without the Peer's lock held, never while an earlier writer is at
// work, and at once when frames are already waiting or the Peer is
// closed.
func (p *Peer) SetWriter(start func()) {
	p.mu.Lock()
	p.start = start
	kick := p.wake()
	p.mu.Unlock()
	if kick {
		start()
	}
}

// wake reports whether a writer must be started now, and marks the Peer
// busy if so; p.mu is held.
func (p *Peer) wake() bool {
	if p.busy || p.start == nil || (len(p.queue) == 0 && !p.closed) {
		return false
	}
	p.busy = true
	return true
}

// Take empties buf, moves the waiting frames into it, in order, and
// returns it. When no frame is waiting it returns an empty list, and the
// writer must stop: the Peer starts a new one when frames arrive or when
// it is closed. A closed Peer stays busy: its writer, having taken
// everything, is told so by last and closes the connection. Only that
// writer does, so the connection is closed once and after every frame
// queued before Close.
func (p *Peer) Take(buf [][]byte) (frames [][]byte, last bool) {
	frames, _, last = p.TakePooled(buf, nil)
	return frames, last
}

// TakePooled is Take for a writer that gives the frames sent with
// SendPooled back to protocol's pool once it has written them: fromPool[i]
// reports whether frames[i] was. frames and fromPool are built in buf and
// pooled, emptied first.
func (p *Peer) TakePooled(buf [][]byte, pooled []bool) (frames [][]byte, fromPool []bool, last bool) {
	clear(buf)
	p.mu.Lock()
	buf = append(buf[:0], p.queue...)
	pooled = append(pooled[:0], p.pooled...)
	clear(p.queue)
	p.queue = p.queue[:0]
	p.pooled = p.pooled[:0]
	if len(buf) == 0 {
		if p.closed {
			last = true
		} else {
			p.busy = false
		}
	}
	p.mu.Unlock()
	return buf, pooled, last
}

// Done is closed when the Peer is closed.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Close closes the Peer with a WebSocket status and reason, once; later
// calls change nothing. The frames already queued are still written.
func (p *Peer) Close(code int, reason string) {
	p.once.Do(func() {
		p.mu.Lock()
		p.closeCode, p.closeReason = code, reason
		p.closed = true
		close(p.done)
		kick := p.wake()
		p.mu.Unlock()
		if kick {
			p.start()
		}
	})
}

// CloseStatus returns the status and reason the Peer was closed with; it
// is valid once Done is closed.
func (p *Peer) CloseStatus() (int, string) {
	<-p.done
	return p.closeCode, p.closeReason
}

// Send queues frame b without blocking. When the queue is full the Peer is
// closed as a slow consumer and the frame is dropped; it reports whether b
// was queued.
func (p *Peer) Send(b []byte) bool { return p.send(b, false) }

// SendPooled is Send for a frame from protocol's frame pool
// (protocol.Updates.Frame) sent to this Peer alone: the writer that writes
// it may give it back to the pool (TakePooled), so nothing else may keep
// it.
func (p *Peer) SendPooled(b []byte) bool { return p.send(b, true) }

// send queues frame b, from protocol's frame pool when pooled.
func (p *Peer) send(b []byte, pooled bool) bool {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return false
	}
	if len(p.queue) >= p.limit {
		p.mu.Unlock()
		if p.onSlow != nil {
			p.onSlow()
		}
		p.Close(StatusPolicy, "slow consumer: the output queue is full")
		return false
	}
	p.queue = append(p.queue, b)
	p.pooled = append(p.pooled, pooled)
	kick := p.wake()
	p.mu.Unlock()
	if kick {
		p.start()
	}
	return true
}

// Room returns the room the Peer is in, or nil.
func (p *Peer) Room() *Room { return p.room.Load() }

// Name returns the nickname given in hello.
func (p *Peer) Name() string { return p.name }

// Budget is a bucket of messages (a token bucket) that several connections
// draw on together, such as those of one client address: one that closes
// and opens again finds it as it left it. It is safe for concurrent use.
type Budget struct {
	mu     sync.Mutex
	rate   float64 // messages added a second
	burst  float64 // the most it holds
	tokens float64
	last   time.Time // when tokens was counted; zero before the first Take
}

// NewBudget returns a full budget of burst messages, refilled at rate
// messages a second.
func NewBudget(rate float64, burst int) *Budget {
	return &Budget{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

// refill adds what has come in since the last count; b.mu is held. A time
// earlier than the last (another goroutine's clock reading) adds nothing.
func (b *Budget) refill(at time.Time) {
	if b.last.IsZero() || at.After(b.last) {
		if !b.last.IsZero() {
			b.tokens = min(b.burst, b.tokens+at.Sub(b.last).Seconds()*b.rate)
		}
		b.last = at
	}
}

// Take takes one message from the budget at time at, and reports whether
// there was one to take.
func (b *Budget) Take(at time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(at)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Full reports whether the budget is full at time at: it remembers
// nothing that a new, full one would not.
func (b *Budget) Full(at time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(at)
	return b.tokens >= b.burst
}
