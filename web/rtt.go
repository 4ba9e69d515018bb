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
// said hello, with a payload of its own (the ping's number), and times the
// pong that echoes it. A pong that does not echo the ping waiting for its
// answer (unsolicited, or replayed) measures nothing. Each round trip,
// with the kernel's measure of the TCP connection's (tcpRTT), goes to the
// connection's Peer (room.Peer.AddRTT), which keeps the estimate the rooms
// read; the estimates go to /metrics (dobble_rtt_seconds).

// rttPayload is the size of a round-trip ping's payload: its number.
const rttPayload = 8

// rttSlices is how many sweeps an interval of round-trip pings is cut
// into. Each connection is pinged every interval at a moment of its own,
// drawn when it says hello, so that the pings of many connections are
// spread over the interval: pinging every connection at once held up
// every other frame of a busy server for tens of milliseconds.
const rttSlices = 10

// rttFirst returns when a connection that says hello at now is first
// pinged, in Unix nanoseconds: at a random moment of the next interval
// of every.
func rttFirst(now time.Time, every time.Duration) int64 {
	return now.Add(time.Duration(rand.Int64N(int64(max(every, 1))))).UnixNano()
}

// rttEvery pings every connection that has said hello, every d, until
// no connection is left.
func (s *server) rttEvery(d time.Duration) {
	t := time.NewTicker(max(d/rttSlices, time.Millisecond))
	defer t.Stop()
	for now := range t.C {
		if !s.rttSweep(now, d) {
			return
		}
	}
}

// rttSweep sends the round-trip pings due by now, each connection's next
// one due d later; it reports whether connections remain. A connection
// whose last ping is still being written (a client that does not read
// holds its writes) is not pinged again until it is, so that its pings
// cannot pile up, each waiting for the write before it.
func (s *server) rttSweep(now time.Time, d time.Duration) bool {
	var ping []*conn
	s.sw.mu.Lock()
	if len(s.sw.live) == 0 {
		s.sw.rttRunning = false
		s.sw.mu.Unlock()
		return false
	}
	at := now.UnixNano()
	for cn := range s.sw.live {
		if cn.measured.Load() && cn.rttDue.Load() <= at && cn.rttBusy.CompareAndSwap(false, true) {
			cn.rttDue.Store(now.Add(d).UnixNano())
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
