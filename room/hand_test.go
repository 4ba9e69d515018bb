package room

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/journal"
)

// handRoom is a room driven by hand: no goroutine runs it, time is a
// variable moved by the test, and each Peer's frames are taken as soon as
// they are sent, and kept when keep is set.
type handRoom struct {
	tb     testing.TB
	m      *Manager
	r      *Room
	peers  []*Peer
	frames [][][]byte // by peer, when keep
	keep   bool
	now    time.Time
	rng    *rand.Rand
	id     int
}

// newHandRoom opens a room of game for seats people, each on a Peer of
// its own, and starts it: the first table is under way. With a journal j
// (which keep must not be set with: the frames then go out on the
// journal's writer), the room writes each turn to it.
func newHandRoom(tb testing.TB, game string, seats int, keep bool, j *journal.Journal) *handRoom {
	tb.Helper()
	cfg := DefaultConfig()
	cfg.Rate, cfg.Burst = 10_000, 100_000
	m, err := NewManager(cfg, nil, NewDecks(), NewMetrics(metrics.NewRegistry()), "hand")
	if err != nil {
		tb.Fatal(err)
	}
	if j != nil {
		m.UseJournal(j)
	}
	h := &handRoom{tb: tb, m: m, keep: keep, now: time.Unix(1_700_000_000, 0), rng: rand.New(rand.NewPCG(1, 2)),
		frames: make([][][]byte, seats)}
	m.now = func() time.Time { return h.now }
	m.spawn = func(r *Room) { h.r = r }
	for i := range seats {
		p := m.NewPeer()
		var buf [][]byte
		p.SetWriter(func() {
			for {
				var last bool
				if buf, last = p.Take(buf); len(buf) == 0 || last {
					return
				}
				if h.keep {
					h.frames[i] = append(h.frames[i], buf...)
				}
			}
		})
		h.peers = append(h.peers, p)
		h.send(i, fmt.Sprintf(`{"type":"hello","v":1,"name":"p%d"}`, i))
	}
	h.send(0, fmt.Sprintf(`{"type":"create","room":{"game":%q,"seats":%d}}`, game, seats))
	for i := 1; i < seats; i++ {
		h.send(i, fmt.Sprintf(`{"type":"join","room":%q}`, h.r.code))
	}
	h.send(0, `{"type":"start"}`)
	h.countdown()
	return h
}

// countdown lets the countdown run out: the next table starts.
func (h *handRoom) countdown() {
	h.tb.Helper()
	h.now = h.now.Add(h.m.cfg.Countdown)
	h.r.tick(h.now)
	if h.r.phase != PhasePlay {
		h.tb.Fatalf("the room is in phase %s, want play", h.r.phase)
	}
}

// send hands frame to the Manager from peer i and lets the room serve
// what it queued, each request a turn of its loop.
func (h *handRoom) send(i int, frame string) {
	h.m.Handle(h.peers[i], []byte(frame), h.now)
	if h.r == nil {
		return
	}
	for {
		select {
		case in := <-h.r.in:
			h.r.request(in)
			h.r.endTurn(h.now)
			continue
		default:
		}
		return
	}
}

// claim sends the right claim of room seat seat, which plays the table's
// seat gs, 300 ms after the last; it reports whether the table had one.
func (h *handRoom) claim(seat, gs int) bool {
	st := h.r.play.State()
	a, ok := st.PickMove(gs, h.rng)
	if !ok {
		return false
	}
	h.now = h.now.Add(300 * time.Millisecond)
	h.id++
	h.send(seat, fmt.Sprintf(`{"type":"claim","symbol":%d,"target":[],"table":%d,"version":%d,"id":"%d"}`,
		a.Symbol, h.r.table(), st.Version(), h.id))
	return true
}

// received returns the first message of type typ peer i received,
// decoded, and forgets what it received.
func (h *handRoom) received(i int, typ string) map[string]any {
	h.tb.Helper()
	f := h.frames[i]
	h.frames[i] = nil
	for _, b := range f {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			h.tb.Fatal(err)
		}
		if m["type"] == typ {
			return m
		}
	}
	h.tb.Fatalf("peer %d received no %s in %q", i, typ, f)
	return nil
}

// BenchmarkClaim measures the server's work for one right claim at a
// Tower of four people, from the frame read off the connection to the
// four updates queued on the peers: reading the request, the room, the
// rules and encoding the updates. A new room is opened, off the clock,
// when a game ends.
func BenchmarkClaim(b *testing.B) {
	b.ReportAllocs()
	var h *handRoom
	for i := 0; i < b.N; i++ {
		if h == nil {
			b.StopTimer()
			h = newHandRoom(b, "tower", 4, false, nil)
			b.StartTimer()
		}
		seat := h.rng.IntN(4)
		if !h.claim(seat, seat) || h.r.phase != PhasePlay {
			h = nil
		}
	}
}
