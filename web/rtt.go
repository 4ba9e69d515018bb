package web

import (
	"encoding/binary"
	"math/rand/v2"
	"net"
	"time"

	"github.com/gobwas/ws"

	"github.com/dobble-dev/dobble/room"
)

// Every connection's round trip is measured with the standard WebSocket
// ping: every Options.RTTEvery the server pings each connection that has
// said hello, at a moment of the interval of its own (rttSlots), with a
// payload of its own (the ping's number), and times the pong that echoes
// it. A pong that does not echo the ping waiting for its
// answer (unsolicited, or replayed) measures nothing. Each round trip,
// with the kernel's measure of the TCP connection's (tcpRTT), goes to the
// connection's Peer (room.Peer.AddRTT), which keeps the estimate the rooms
// read; the estimates go to /metrics (dobble_rtt_seconds).

// rttPayload is the size of a round-trip ping's payload: its number.
const rttPayload = 8

// rttSlots is how many slots the interval of round-trip pings is cut
// into: a wheel, turned one slot a tick, whose slot holds the connections
// pinged at that tick. A connection that says hello goes into a slot
// drawn at random, so that the pings of many connections are spread
// evenly over the interval, a few at each tick (at the default 2 s, a
// tick is 10 ms): pings sent in bursts hold up every other frame of a
// busy server, by tens of milliseconds at 10,000 players when the
// interval was cut into ten.
const rttSlots = 200

// measure puts cn, which has said hello, into a slot of the wheel of
// round-trip pings, drawn at random. A connection the sweeps have
// already forgotten (it ended as it said hello) is left out.
func (s *server) measure(cn *conn) {
	s.sw.mu.Lock()
	defer s.sw.mu.Unlock()
	if _, ok := s.sw.live[cn]; !ok || cn.measured.Load() {
		return
	}
	cn.rttSlot = rand.IntN(rttSlots)
	if s.sw.rttWheel[cn.rttSlot] == nil {
		s.sw.rttWheel[cn.rttSlot] = map[*conn]struct{}{}
	}
	s.sw.rttWheel[cn.rttSlot][cn] = struct{}{}
	cn.measured.Store(true)
}

// rttEvery turns the wheel of round-trip pings a slot every d/rttSlots,
// so that each connection that has said hello is pinged every d, until
// no connection is left. An interval shorter than rttSlots milliseconds
// turns several slots a tick of 1 ms.
func (s *server) rttEvery(d time.Duration) {
	tick := max(d/rttSlots, time.Millisecond)
	step := max(1, int(rttSlots*tick/max(d, 1)))
	t := time.NewTicker(tick)
	defer t.Stop()
	for range t.C {
		for range step {
			s.sw.mu.Lock()
			s.sw.rttTurn = (s.sw.rttTurn + 1) % rttSlots
			slot := s.sw.rttTurn
			s.sw.mu.Unlock()
			if !s.rttSweep(slot) {
				return
			}
		}
	}
}

// rttSweep sends the round-trip pings of the wheel's slot; it reports
// whether connections remain. A connection whose last ping is still
// being written (a client that does not read holds its writes) is not
// pinged again until it is, so that its pings cannot pile up, each
// waiting for the write before it.
func (s *server) rttSweep(slot int) bool {
	var ping []*conn
	s.sw.mu.Lock()
	if len(s.sw.live) == 0 {
		s.sw.rttRunning = false
		s.sw.mu.Unlock()
		return false
	}
	for cn := range s.sw.rttWheel[slot] {
		if cn.rttBusy.CompareAndSwap(false, true) {
			ping = append(ping, cn)
		}
	}
	s.sw.mu.Unlock()
	for _, cn := range ping {
		go func() {
			cn.rttPing()
			cn.rttBusy.Store(false)
		}()
	}
	return true
}

// rttPing sends a round-trip ping; a ping still waiting for its pong is
// replaced, its round trip being no less than the interval.
func (cn *conn) rttPing() {
	n := cn.rttSeq.Add(1)
	var b [rttPayload]byte
	binary.BigEndian.PutUint64(b[:], n)
	cn.rttWait.Store(&rttProbe{n: n, sent: time.Now()})
	cn.writeControl(ws.OpPing, b[:])
}

// rttProbe is a round-trip ping waiting for its pong: its number and when
// it was sent, replaced together, so that a pong is never timed from
// another ping than its own.
type rttProbe struct {
	n    uint64
	sent time.Time
}

// rttPong takes note of a pong: when it echoes the ping waiting for its
// answer, its round trip.
func (cn *conn) rttPong(payload []byte, at time.Time) {
	if len(payload) != rttPayload {
		return
	}
	n := binary.BigEndian.Uint64(payload)
	w := cn.rttWait.Load()
	if w == nil || w.n != n || !cn.rttWait.CompareAndSwap(w, nil) {
		return
	}
	ping := at.Sub(w.sent)
	// Only a ping longer than room.RTTSlack can exceed what TCP shows by
	// more than the slack: a shorter one needs no look at the kernel's.
	var tcp time.Duration
	ok := false
	if cn.s.o.TCPCheck && ping > room.RTTSlack {
		tcp, ok = tcpRTT(cn.nc)
	}
	est := cn.p.AddRTT(ping, tcp, ok)
	cn.s.o.Metrics.RTT.Observe(est.Seconds())
}

// tcpRTT returns the kernel's smoothed round trip of the TCP connection
// under nc, when it has one (Linux).
func tcpRTT(nc net.Conn) (time.Duration, bool) {
	if cc, ok := nc.(*countedConn); ok {
		nc = cc.Conn
	}
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return 0, false
	}
	return kernelRTT(tc)
}
