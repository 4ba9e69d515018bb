package web

// The attacks of a hostile client on a server, each over real loopback
// sockets with the server's bounds set low: the server must hold.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/room"
)

// hostile dials the server at url (http://HOST:PORT) from the local
// address from ("" for any) and makes a WebSocket handshake, sending
// early in the same write as the request, and headers besides. It returns
// the connection, once upgraded, and the status of the answer.
func hostile(t *testing.T, url, from string, early []byte, headers ...string) (*rawConn, int) {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := d.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
	for _, h := range headers {
		req += h + "\r\n"
	}
	if _, err := c.Write(append([]byte(req+"\r\n"), early...)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("the handshake's answer: %v", err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		io.Copy(io.Discard, resp.Body)
		c.Close()
		return nil, resp.StatusCode
	}
	return &rawConn{t: t, c: c, r: r}, resp.StatusCode
}

// secondAddr returns a second loopback address the test can dial from
// (Linux routes all of 127.0.0.0/8 to the loopback interface), or skips
// the test.
func secondAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no second loopback address to dial from: %v", err)
	}
	ln.Close()
	return "127.0.0.2"
}

// metric returns the value of the sample line of /metrics that starts
// with name (labels included), or -1 when there is none.
func (ts *testServer) metric(name string) float64 {
	ts.t.Helper()
	_, body := ts.get("/metrics")
	for line := range strings.SplitSeq(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				ts.t.Fatalf("metric %s: %v", name, err)
			}
			return f
		}
	}
	return -1
}

var (
	helloFrame  = clientFrame(finText, []byte(`{"type":"hello","v":1,"name":"mallory"}`))
	createFrame = clientFrame(finText, []byte(`{"type":"create","room":{"game":"tower","seats":2}}`))
)

// TestGhostRoomsAreFreed dials, says hello and create and closes the
// socket at once, 40 times, against a server of 3 rooms: every room
// closes (at once, or when its seat's hold of 20 ms ends), and 3 people
// can then open a room each.
func TestGhostRoomsAreFreed(t *testing.T) {
	cfg := fastConfig()
	cfg.MaxRooms, cfg.SeatHold = 3, 20*time.Millisecond
	ts := startLimited(t, cfg, 100, Limits{})
	for range 40 {
		rc, _ := hostile(t, ts.url, "", append(append([]byte{}, helloFrame...), createFrame...))
		rc.c.Close()
	}
	eventually(t, "every room of a connection that closed at once is closed", func() bool { return ts.m.Rooms() == 0 })
	for i := range cfg.MaxRooms {
		ts.connect("host" + strconv.Itoa(i)).create(msg{"game": "tower", "seats": 2})
	}
}

// TestConnectionsThatNeverSayHelloAreClosed opens 50 WebSocket
// connections that never say hello, all a server of 50 connections holds:
// after the hello timeout (100 ms) each is closed with 1008, and another
// client connects.
func TestConnectionsThatNeverSayHelloAreClosed(t *testing.T) {
	ts := startLimited(t, fastConfig(), 50, Limits{HelloTimeout: 100 * time.Millisecond})
	silent := make([]*rawConn, 50)
	for i := range silent {
		rc, status := hostile(t, ts.url, "", nil)
		if rc == nil {
			t.Fatalf("handshake %d: HTTP %d; want 101", i, status)
		}
		silent[i] = rc
	}
	for i, rc := range silent {
		if code, reason := rc.readToClose(); code != room.StatusPolicy || !strings.Contains(reason, "no hello within 100ms") {
			t.Fatalf("connection %d: closed with %d %q; want 1008 and no hello", i, code, reason)
		}
		rc.c.Close()
	}
	eventually(t, "the silent connections are gone", func() bool { return ts.metric("dobble_connections") == 0 })
	if n := ts.metric("dobble_hello_timeouts_total"); n != 50 {
		t.Fatalf("dobble_hello_timeouts_total %v; want 50", n)
	}
	ts.connect("alice")
}

// TestOneAddressCannotTakeEveryConnection opens 20 connections from one
// address, which may hold 5, against a server of 20: the address gets 5
// and HTTP 429 for the rest, and another address connects.
func TestOneAddressCannotTakeEveryConnection(t *testing.T) {
	other := secondAddr(t)
	ts := startLimited(t, fastConfig(), 20, Limits{MaxConnsPerAddr: 5})
	got := 0
	for range 20 {
		rc, status := hostile(t, ts.url, "127.0.0.1", helloFrame)
		switch {
		case rc != nil:
			got++
		case status != http.StatusTooManyRequests:
			t.Fatalf("a connection over the address's bound: HTTP %d; want 429", status)
		}
	}
	if got != 5 {
		t.Fatalf("one address opened %d connections; want 5", got)
	}
	if rc, status := hostile(t, ts.url, other, helloFrame); rc == nil {
		t.Fatalf("another address: HTTP %d; want 101", status)
	}
	if n := ts.metric(`dobble_connections_refused_total{reason="max_conns_per_addr"}`); n != 15 {
		t.Fatalf("refused for max_conns_per_addr: %v; want 15", n)
	}
}

// TestHandshakeRatePerAddress makes 12 handshakes from one address, which
// may make 5 at once and then one every 1000 s: the sixth on are answered
// HTTP 429, while another address still connects.
func TestHandshakeRatePerAddress(t *testing.T) {
	other := secondAddr(t)
	ts := startLimited(t, fastConfig(), 100, Limits{HandshakeRate: 0.001, HandshakeBurst: 5})
	got := 0
	for range 12 {
		rc, status := hostile(t, ts.url, "127.0.0.1", helloFrame)
		if rc == nil && status != http.StatusTooManyRequests {
			t.Fatalf("a handshake over the rate: HTTP %d; want 429", status)
		}
		if rc != nil {
			got++
			rc.c.Close()
		}
	}
	if got != 5 {
		t.Fatalf("%d handshakes of 12 accepted; want the burst, 5", got)
	}
	if rc, status := hostile(t, ts.url, other, helloFrame); rc == nil {
		t.Fatalf("another address: HTTP %d; want 101", status)
	}
}

// TestControlFramesDrawOnTheBudget sends 200 pings in one write on a
// connection whose budget is 20 messages (refilled at one every 1000 s),
// then the same with pongs: the server answers the pings its budget
// holds, 19 after the hello, and closes each connection for a flood once
// 51 frames in a row were refused, counting each.
func TestControlFramesDrawOnTheBudget(t *testing.T) {
	cfg := fastConfig()
	cfg.Rate, cfg.Burst, cfg.FloodLimit = 0.001, 20, 50
	ts := startLimited(t, cfg, 100, Limits{})
	for _, op := range []byte{finPing, finPong} {
		rc, _ := hostile(t, ts.url, "", helloFrame)
		var flood []byte
		for i := range 200 {
			flood = append(flood, clientFrame(op, []byte(strconv.Itoa(i)))...)
		}
		rc.send(flood)
		pongs := 0
		for {
			b0, payload := rc.read()
			if b0 == finPong {
				pongs++
				continue
			}
			if b0 != finClose {
				continue
			}
			if code := int(payload[0])<<8 | int(payload[1]); code != room.StatusPolicy || !strings.Contains(string(payload[2:]), "flood") {
				t.Fatalf("closed with %d %q; want 1008 and a flood", code, payload[2:])
			}
			break
		}
		if want := map[byte]int{finPing: cfg.Burst - 1, finPong: 0}[op]; pongs != want {
			t.Fatalf("%d pongs for 200 frames %#x; want %d", pongs, op, want)
		}
	}
	// Each connection had FloodLimit + 1 frames refused in a row.
	if n, want := ts.metric(`dobble_rate_limited_total{scope="connection"}`), float64(2*(cfg.FloodLimit+1)); n != want {
		t.Fatalf("frames refused for the connection's rate: %v; want %v", n, want)
	}
}

// TestReconnectingDoesNotRefillTheBudget looks up rooms from one address
// that may send 10 messages (refilled at one every 1000 s), 5 a
// connection, reconnecting 10 times: 10 messages are answered in all
// (hello and look-ups), the rest refused as rateLimited.
func TestReconnectingDoesNotRefillTheBudget(t *testing.T) {
	ts := startLimited(t, fastConfig(), 100, Limits{AddrRate: 0.001, AddrBurst: 10})
	look := clientFrame(finText, []byte(`{"type":"join","room":"NOSUCHRM"}`))
	answered, limited := 0, 0
	for range 10 {
		frames := append([]byte{}, helloFrame...)
		for range 4 {
			frames = append(frames, look...)
		}
		rc, _ := hostile(t, ts.url, "", frames)
		for range 5 {
			_, payload := rc.read()
			switch {
			case strings.Contains(string(payload), `"rateLimited"`):
				limited++
			default:
				answered++
			}
		}
		rc.c.Close()
	}
	if answered != 10 || limited != 40 {
		t.Fatalf("%d messages answered and %d refused over 10 connections; want 10 and 40", answered, limited)
	}
	if n := ts.metric(`dobble_rate_limited_total{scope="address"}`); n != 40 {
		t.Fatalf(`dobble_rate_limited_total{scope="address"} %v; want 40`, n)
	}
}

// TestSocketsAreBounded holds 10 idle TCP connections, all a server of 10
// sockets allows: an eleventh is closed unanswered, and counted, and once
// one of the ten closes a request is answered again.
func TestSocketsAreBounded(t *testing.T) {
	ts := startLimited(t, fastConfig(), 5, Limits{MaxSockets: 10})
	var held []net.Conn
	for range 10 {
		c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	// The ten are ahead of the eleventh in the listener's queue.
	if status, err := rawGet(ts.url, "/healthz"); err == nil {
		t.Fatalf("an eleventh connection was answered HTTP %d; want it closed unanswered", status)
	}
	held[0].Close()
	eventually(t, "a request is answered once a socket is free", func() bool {
		status, err := rawGet(ts.url, "/healthz")
		return err == nil && status == http.StatusOK
	})
	for _, c := range held {
		c.Close()
	}
	// The metrics are read on a connection of their own, which a server
	// slow to see the others closed may refuse.
	refused := -1.0
	eventually(t, "the metrics are read", func() bool {
		resp, err := http.Get(ts.url + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), `dobble_connections_refused_total{reason="max_sockets"} `); ok {
				refused, _ = strconv.ParseFloat(v, 64)
			}
		}
		return true
	})
	if refused < 1 {
		t.Fatalf(`refused for max_sockets: %v; want 1 or more`, refused)
	}
}

// rawGet makes one request for path on a connection of its own, which it
// then closes, and returns the status.
func rawGet(url, path string) (int, error) {
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestSocketsPerAddress opens 10 TCP connections from one address that
// may hold 6, each asking for /healthz and holding on: 4 are closed
// unanswered, and another address is answered.
func TestSocketsPerAddress(t *testing.T) {
	other := secondAddr(t)
	ts := startLimited(t, fastConfig(), 100, Limits{MaxSocketsPerAddr: 6})
	var mu sync.Mutex
	answered := 0
	var wg sync.WaitGroup
	for range 10 {
		c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		wg.Go(func() {
			c.SetDeadline(time.Now().Add(10 * time.Second))
			fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
			if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				resp.Body.Close()
				mu.Lock()
				answered++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if answered != 6 {
		t.Fatalf("%d of 10 connections from one address answered; want 6", answered)
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(other)}}
	c, err := d.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("another address: %v, %v", resp, err)
	}
}

// TestLoopbackIsExemptByDefault opens more connections from each of two
// loopback addresses than one address may hold, with the default exempt
// networks, as dobble load does over many loopback sources: every one is
// accepted.
func TestLoopbackIsExemptByDefault(t *testing.T) {
	other := secondAddr(t)
	l := DefaultLimits()
	l.MaxConnsPerAddr, l.MaxSocketsPerAddr, l.HandshakeRate, l.HandshakeBurst = 2, 2, 0.001, 1
	ts := startLimited(t, fastConfig(), 100, l)
	for _, from := range []string{"127.0.0.1", other} {
		for i := range 6 {
			if rc, status := hostile(t, ts.url, from, helloFrame); rc == nil {
				t.Fatalf("connection %d from %s: HTTP %d; want 101", i, from, status)
			}
		}
	}
}
