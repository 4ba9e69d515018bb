package web

import (
	"encoding/binary"
	"net"
	"time"

	"github.com/gobwas/ws"
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

// rttEvery pings every connection that has said hello, every d, until
// no connection is left.
func (s *server) rttEvery(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for range t.C {
		if !s.rttSweep() {
			return
		}
	}
}

// rttSweep sends the round-trip pings; it reports whether connections
// remain.
func (s *server) rttSweep() bool {
	var ping []*conn
	s.sw.mu.Lock()
	if len(s.sw.live) == 0 {
		s.sw.rttRunning = false
		s.sw.mu.Unlock()
		return false
	}
	for cn := range s.sw.live {
		if cn.measured.Load() {
			ping = append(ping, cn)
		}
	}
	s.sw.mu.Unlock()
	for _, cn := range ping {
		go cn.rttPing()
	}
	return true
}

// rttPing sends a round-trip ping; a ping still waiting for its pong is
// replaced, its round trip being no less than the interval.
func (cn *conn) rttPing() {
	n := cn.rttSeq.Add(1)
	var b [rttPayload]byte
	binary.BigEndian.PutUint64(b[:], n)
	cn.rttSent.Store(time.Now().UnixNano())
	cn.rttWait.Store(n)
	cn.writeControl(ws.OpPing, b[:])
}

// rttPong takes note of a pong: when it echoes the ping waiting for its
// answer, its round trip.
func (cn *conn) rttPong(payload []byte, at time.Time) {
	if len(payload) != rttPayload {
		return
	}
	n := binary.BigEndian.Uint64(payload)
	if n == 0 || !cn.rttWait.CompareAndSwap(n, 0) {
		return
	}
	ping := at.Sub(time.Unix(0, cn.rttSent.Load()))
	tcp, ok := tcpRTT(cn.nc)
	if !cn.s.o.TCPCheck {
		ok = false
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
