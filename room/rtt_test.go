package room

import (
	"testing"
	"time"
)

func TestEstimateRTT(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name  string
		pings []time.Duration
		tcp   time.Duration
		tcpOK bool
		want  time.Duration
	}{
		{"no ping yet", nil, 0, false, 0},
		{"the lowest of the window", []time.Duration{180 * ms, 152 * ms, 400 * ms, 160 * ms}, 0, false, 152 * ms},
		{"agrees with TCP", []time.Duration{150 * ms, 170 * ms}, 148 * ms, true, 150 * ms},
		{"within the slack of TCP", []time.Duration{80 * ms}, 40 * ms, true, 80 * ms},
		{"pongs held back: TCP alone", []time.Duration{320 * ms, 330 * ms}, 20 * ms, true, 20 * ms},
		{"TCP slower than pings (delayed ACKs)", []time.Duration{20 * ms}, 60 * ms, true, 20 * ms},
	}
	for _, c := range cases {
		if got := EstimateRTT(c.pings, c.tcp, c.tcpOK); got != c.want {
			t.Errorf("%s: EstimateRTT(%v, %v, %v) = %v; want %v", c.name, c.pings, c.tcp, c.tcpOK, got, c.want)
		}
	}
}

func TestPeerRTTWindowForgetsOldPings(t *testing.T) {
	p := NewPeer(1)
	ms := time.Millisecond
	if got := p.AddRTT(20*ms, 0, false); got != 20*ms {
		t.Fatalf("first ping 20ms: estimate %v", got)
	}
	// A route change: every later ping takes 150 ms; once the window has
	// moved past the 20 ms ping, the estimate follows.
	var got time.Duration
	for range RTTWindow - 1 {
		got = p.AddRTT(150*ms, 0, false)
	}
	if got != 20*ms {
		t.Fatalf("with the 20ms ping still in the window: %v", got)
	}
	if got = p.AddRTT(150*ms, 0, false); got != 150*ms || p.RTT() != 150*ms {
		t.Fatalf("after the window moved on: %v (RTT %v); want 150ms", got, p.RTT())
	}
}

// TestPongTellsTheRoundTrip has a client ask for its round trip: none
// before the server measured one, then the estimate in milliseconds,
// rounded up so that a round trip under a millisecond is not taken for
// none.
func TestPongTellsTheRoundTrip(t *testing.T) {
	h := newHarness(t, testConfig())
	c := h.connect("pinger")
	c.send(`{"type": "ping", "nonce": 1}`)
	if p := c.take("pong"); p["rtt"] != nil {
		t.Fatalf("a pong before any measure: %v", p)
	}
	for _, tc := range []struct {
		rtt  time.Duration
		want int64
	}{{42 * time.Millisecond, 42}, {300 * time.Microsecond, 1}} {
		c.p.rtt = rttState{}
		c.p.AddRTT(tc.rtt, 0, false)
		c.send(`{"type": "ping", "nonce": 2}`)
		if p := c.take("pong"); p.num("rtt") != tc.want {
			t.Fatalf("round trip %v: pong %v; want rtt %d", tc.rtt, p, tc.want)
		}
	}
}
