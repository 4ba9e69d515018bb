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
	// StatusTryAgain: the server is full.
	StatusTryAgain = 1013
)

// Peer is one connection as the rooms see it: a bounded queue of encoded
// frames to write, and a close signal. The transport waits on Ready, takes
// the waiting frames with Take and writes them in order, and stops when
// Done is closed, closing the connection with CloseStatus. Send never
// blocks: a frame that finds the queue full closes the Peer as a slow
// consumer. The queue holds memory only for the frames waiting in it, so
// that an idle connection costs little.
type Peer struct {
	mu    sync.Mutex
	queue [][]byte
	limit int
	ready chan struct{}
	done  chan struct{}
	once  sync.Once

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

	onSlow func()
}

// NewPeer returns a Peer whose output queue holds queue frames.
func NewPeer(queue int) *Peer {
	return &Peer{limit: queue, ready: make(chan struct{}, 1), done: make(chan struct{})}
}

// Ready receives a value when frames are waiting to be taken.
func (p *Peer) Ready() <-chan struct{} { return p.ready }

// Take empties buf, moves the waiting frames into it, in order, and
// returns it.
func (p *Peer) Take(buf [][]byte) [][]byte {
	p.mu.Lock()
	buf = append(buf[:0], p.queue...)
	clear(p.queue)
	p.queue = p.queue[:0]
	p.mu.Unlock()
	return buf
}

// Done is closed when the Peer is closed.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Close closes the Peer with a WebSocket status and reason, once; later
// calls change nothing.
func (p *Peer) Close(code int, reason string) {
	p.once.Do(func() {
		p.closeCode, p.closeReason = code, reason
		close(p.done)
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
func (p *Peer) Send(b []byte) bool {
	select {
	case <-p.done:
		return false
	default:
	}
	p.mu.Lock()
	if len(p.queue) >= p.limit {
		p.mu.Unlock()
		if p.onSlow != nil {
			p.onSlow()
		}
		p.Close(StatusPolicy, "slow consumer: the output queue is full")
		return false
	}
	p.queue = append(p.queue, b)
	p.mu.Unlock()
	select {
	case p.ready <- struct{}{}:
	default:
	}
	return true
}

// Room returns the room the Peer is in, or nil.
func (p *Peer) Room() *Room { return p.room.Load() }

// Name returns the nickname given in hello.
func (p *Peer) Name() string { return p.name }
