package web

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// rttServer starts a server whose round-trip pings the test sends, one
// turn of the whole wheel at a time (sweepAll), with TCPCheck as given; it
// returns the server and its WebSocket URL.
func rttServer(t *testing.T, tcpCheck bool) (*server, string) {
	t.Helper()
	ts := startWith(t, fastConfig(), tempStore(t), Options{MaxConns: 10, PingEvery: time.Hour, TCPCheck: tcpCheck}, nil)
	return ts.s, ts.ws
}

// rawClient dials url, says hello and reads the welcome: a client that
// answers pings only when the test says so.
func rawClient(t *testing.T, url string) net.Conn {
	t.Helper()
	nc, _, _, err := ws.Dial(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	if err := wsutil.WriteClientText(nc, []byte(`{"type":"hello","v":1,"name":"rtt"}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readFrame(nc); err != nil {
		t.Fatal(err)
	}
	return nc
}

// readFrame reads one frame the server sent.
func readFrame(nc net.Conn) (ws.Header, []byte, error) {
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	h, err := ws.ReadHeader(nc)
	if err != nil {
		return h, nil, err
	}
	b := make([]byte, h.Length)
	_, err = io.ReadFull(nc, b)
	return h, b, err
}

// liveConn returns the server's only connection once it has said hello.
func liveConn(t *testing.T, s *server) *conn {
	t.Helper()
	var cn *conn
	eventually(t, "the connection has said hello", func() bool {
		s.sw.mu.Lock()
		defer s.sw.mu.Unlock()
		for c := range s.sw.live {
			if c.measured.Load() {
				cn = c
			}
		}
		return cn != nil
	})
	return cn
}

// sweepRTT sends the round-trip pings once the last ping of cn is
// written, which the sweeps wait for before they ping it again.
func sweepRTT(t *testing.T, s *server, cn *conn) {
	t.Helper()
	eventually(t, "the last ping is written", func() bool { return !cn.rttBusy.Load() })
	sweepAll(s)
}

// sweepAll sweeps every slot of the wheel of round-trip pings once,
// pinging every connection that has said hello.
func sweepAll(s *server) {
	for slot := range rttSlots {
		s.rttSweep(slot)
	}
}

// pingedPong waits for the server's round-trip ping, holds it for hold,
// then answers it with payload (the ping's own when nil).
func pingedPong(t *testing.T, nc net.Conn, hold time.Duration, payload []byte) {
	t.Helper()
	h, b, err := readFrame(nc)
	if err != nil || h.OpCode != ws.OpPing || len(b) != rttPayload {
		t.Fatalf("read %+v %x (%v); want a ping of %d bytes", h, b, err, rttPayload)
	}
	time.Sleep(hold) // the client's lag, which the server measures
	if payload == nil {
		payload = b
	}
	if err := wsutil.WriteClientMessage(nc, ws.OpPong, payload); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTripMeasuredByPings holds back a pong 80 ms: without the TCP
// check the round trip is at least that; with it, the loopback's TCP round
// trip shows that the network did not take it, and the lag is not
// credited. A pong echoing another number than the ping's measures
// nothing.
func TestRoundTripMeasuredByPings(t *testing.T) {
	const hold = 80 * time.Millisecond
	for _, check := range []bool{false, true} {
		s, url := rttServer(t, check)
		nc := rawClient(t, url)
		cn := liveConn(t, s)

		sweepRTT(t, s, cn)
		var wrong [rttPayload]byte
		binary.BigEndian.PutUint64(wrong[:], 999)
		pingedPong(t, nc, 0, wrong[:])
		sweepRTT(t, s, cn)
		pingedPong(t, nc, hold, nil)
		eventually(t, "the round trip", func() bool { return cn.p.RTT() != 0 })
		switch got := cn.p.RTT(); {
		case !check && got < hold:
			t.Errorf("without the TCP check: a round trip of %v for a pong held %v", got, hold)
		case check && got >= hold:
			t.Errorf("with the TCP check: a round trip of %v credited for a pong held %v on the loopback", got, hold)
		}
	}
}

// TestRoundTripPingsWaitForTheirWrite holds a connection's writes, as a
// client that stops reading does once its socket's buffers are full: the
// sweeps that follow start no more pings for it, each of which would wait
// for the write, until the one under way is written.
func TestRoundTripPingsWaitForTheirWrite(t *testing.T) {
	s, url := rttServer(t, false)
	rawClient(t, url)
	cn := liveConn(t, s)

	const sweeps = 50
	cn.wmu.Lock()
	before := runtime.NumGoroutine()
	for range sweeps {
		sweepAll(s)
	}
	started := runtime.NumGoroutine() - before
	cn.wmu.Unlock()
	if started > sweeps/5 {
		t.Errorf("%d sweeps with the connection's write held started %d goroutines; want one ping at a time", sweeps, started)
	}
}

// TestRoundTripPingsSpread puts 1,000 connections that say hello at one
// moment into the wheel of round-trip pings: every tenth of the interval
// holds some, so that their pings are not sent at once, and a connection
// that ends leaves the wheel.
func TestRoundTripPingsSpread(t *testing.T) {
	s := &server{}
	s.sw.live = map[*conn]struct{}{}
	for range 1000 {
		cn := &conn{s: s}
		s.sw.live[cn] = struct{}{}
		s.measure(cn)
	}
	var tenths [10]int
	for slot, m := range s.sw.rttWheel {
		tenths[slot*len(tenths)/rttSlots] += len(m)
	}
	for i, n := range tenths {
		if n < 50 {
			t.Errorf("tenth %d of the interval holds %d connections of 1,000: %v", i, n, tenths)
		}
	}
	for cn := range s.sw.live {
		s.forget(cn)
	}
	for slot, m := range s.sw.rttWheel {
		if len(m) != 0 {
			t.Errorf("slot %d holds %d connections that have ended", slot, len(m))
		}
	}
}
