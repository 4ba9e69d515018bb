package room

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// benchRoom is a Tower of four people, driven by hand: no goroutine runs
// the room, time is a variable, and each Peer's frames are taken as soon
// as they are sent.
type benchRoom struct {
	m     *Manager
	r     *Room
	peers []*Peer
	now   time.Time
	rng   *rand.Rand
	id    int
}

// newBenchRoom opens the room, seats four people and plays until the
// first table is under way.
func newBenchRoom(tb testing.TB) *benchRoom {
	tb.Helper()
	cfg := DefaultConfig()
	cfg.Rate, cfg.Burst = 10_000, 100_000
	m, err := NewManager(cfg, nil, NewDecks(), NewMetrics(prometheus.NewRegistry()), "bench")
	if err != nil {
		tb.Fatal(err)
	}
	b := &benchRoom{m: m, now: time.Unix(1_700_000_000, 0), rng: rand.New(rand.NewPCG(1, 2))}
	m.now = func() time.Time { return b.now }
	m.spawn = func(r *Room) { b.r = r }
	for i := range 4 {
		p := m.NewPeer()
		var buf [][]byte
		p.SetWriter(func() {
			for {
				var last bool
				if buf, last = p.Take(buf); len(buf) == 0 || last {
					return
				}
			}
		})
		b.peers = append(b.peers, p)
		b.send(i, fmt.Sprintf(`{"type":"hello","v":1,"name":"p%d"}`, i))
	}
	b.send(0, `{"type":"create","room":{"game":"tower","seats":4}}`)
	for i := 1; i < 4; i++ {
		b.send(i, fmt.Sprintf(`{"type":"join","room":%q}`, b.r.code))
	}
	b.send(0, `{"type":"start"}`)
	b.now = b.now.Add(cfg.Countdown)
	b.r.tick(b.now)
	if b.r.phase != PhasePlay {
		tb.Fatalf("the room is in phase %s, want play", b.r.phase)
	}
	return b
}

// send hands frame to the Manager from peer i and lets the room serve
// what it queued.
func (b *benchRoom) send(i int, frame string) {
	b.m.Handle(b.peers[i], []byte(frame), b.now)
	if b.r == nil {
		return
	}
	for {
		select {
		case in := <-b.r.in:
			b.r.handle(in)
			b.r.tick(b.now)
			continue
		default:
		}
		return
	}
}

// claim sends the right claim of a random seat, 300 ms after the last,
// and reports whether the game goes on.
func (b *benchRoom) claim() bool {
	st := b.r.play.State()
	seat := b.rng.IntN(4)
	a, ok := st.PickMove(seat, b.rng)
	if !ok {
		return false
	}
	b.now = b.now.Add(300 * time.Millisecond)
	b.id++
	b.send(seat, fmt.Sprintf(`{"type":"claim","symbol":%d,"target":[],"table":%d,"version":%d,"id":"%d"}`,
		a.Symbol, b.r.table(), st.Version(), b.id))
	return b.r.phase == PhasePlay
}

// BenchmarkClaim measures the server's work for one right claim at a
// Tower of four people, from the frame read off the connection to the
// four updates queued on the peers: reading the request, the room, the
// rules and encoding the updates. A new room is opened, off the clock,
// when a game ends.
func BenchmarkClaim(b *testing.B) {
	b.ReportAllocs()
	var room *benchRoom
	for i := 0; i < b.N; i++ {
		if room == nil {
			b.StopTimer()
			room = newBenchRoom(b)
			b.StartTimer()
		}
		if !room.claim() {
			room = nil
		}
	}
}
