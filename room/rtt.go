package room

import (
	"slices"
	"sync/atomic"
	"time"
)

// A connection's round trip is measured by the server alone, from the
// standard WebSocket pings and their pongs (package web sends them every
// RTTEvery, and browsers answer them by themselves), and checked against
// the kernel's own measure of the TCP connection's round trip where it has
// one. The room reads the estimate in force when it shows a card, and uses
// it for the claims made on that card (fair.go).

// RTTWindow is how many of a connection's last round trips its estimate
// is drawn from: about 16 s of pings at one every 2 s.
const RTTWindow = 8

// RTTSlack is how much a round trip measured by pings may exceed the
// kernel's measure of the same connection's before the excess counts as
// held-back pongs: a quarter of the TCP round trip, and RTTSlack more
// (the kernel's delayed acknowledgements, a busy client).
const RTTSlack = 30 * time.Millisecond

// EstimateRTT returns the round trip a room credits a connection with,
// from the round trips its last pings took (pings, in any order) and,
// when tcpOK, the kernel's smoothed round trip of the TCP connection
// (tcp). The estimate is the lowest of the pings: a round trip only ever
// grows by queueing, and the lowest is the one the network gives. A
// connection whose pings take longer than its TCP round trip by more than
// the slack is held back in its pongs, not by its network: it is
// credited with the TCP round trip alone. With no ping yet it is 0.
func EstimateRTT(pings []time.Duration, tcp time.Duration, tcpOK bool) time.Duration {
	if len(pings) == 0 {
		return 0
	}
	est := slices.Min(pings)
	if tcpOK && est > tcp+tcp/4+RTTSlack {
		return tcp
	}
	return max(est, 0)
}

// rttState is a connection's round trips: the last RTTWindow pings, kept
// by the goroutine that reads the connection, and the estimate the room
// reads.
type rttState struct {
	pings []time.Duration
	next  int
	est   atomic.Int64 // nanoseconds
}

// AddRTT takes note of a ping's round trip and of the kernel's measure of
// the TCP connection's (tcpOK when it has one), and returns the new
// estimate (EstimateRTT). Only the goroutine reading the connection calls
// it.
func (p *Peer) AddRTT(ping, tcp time.Duration, tcpOK bool) time.Duration {
	s := &p.rtt
	if len(s.pings) < RTTWindow {
		s.pings = append(s.pings, ping)
	} else {
		s.pings[s.next] = ping
		s.next = (s.next + 1) % RTTWindow
	}
	est := EstimateRTT(s.pings, tcp, tcpOK)
	s.est.Store(int64(est))
	return est
}

// SetRTT sets the connection's round trip as estimated elsewhere: for a
// remote Peer, by the node its connection was made to, which pings it.
func (p *Peer) SetRTT(d time.Duration) { p.rtt.est.Store(int64(max(d, 0))) }

// RTT returns the connection's round trip as last estimated, 0 before its
// first pong. Any goroutine may ask.
func (p *Peer) RTT() time.Duration { return time.Duration(p.rtt.est.Load()) }
