package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
)

// sweptServer is a server whose sweeps the test makes, one call at a
// time: its own would come only every quarter of an hour.
type sweptServer struct {
	t    *testing.T
	s    *server
	ws   string
	seen map[*conn]bool // the connections connect returned
}

func startSwept(t *testing.T) *sweptServer {
	t.Helper()
	ts := startWith(t, fastConfig(), tempStore(t), Options{MaxConns: 10, PingEvery: time.Hour}, nil)
	return &sweptServer{t: t, s: ts.s, ws: ts.ws, seen: map[*conn]bool{}}
}

// url returns the server's URL, http://HOST:PORT.
func (ss *sweptServer) url() string {
	return "http://" + strings.TrimSuffix(strings.TrimPrefix(ss.ws, "ws://"), "/ws")
}

// connect dials the server, says hello, reads the welcome and returns the
// client's end and the server's; read says whether the client keeps
// reading (and so answers pings).
func (ss *sweptServer) connect(read bool) (*websocket.Conn, *conn) {
	ss.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ss.ws, nil)
	if err != nil {
		ss.t.Fatal(err)
	}
	ss.t.Cleanup(func() { c.CloseNow() })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","v":1,"name":"swept"}`)); err != nil {
		ss.t.Fatal(err)
	}
	// Once the welcome is read, the server has heard the hello: the sweeps
	// the test makes count from there.
	if _, b, err := c.Read(ctx); err != nil || !strings.Contains(string(b), `"type":"welcome"`) {
		ss.t.Fatalf("after hello: %s, %v; want a welcome", b, err)
	}
	var cn *conn
	eventually(ss.t, "the server has the connection", func() bool {
		ss.s.sw.mu.Lock()
		defer ss.s.sw.mu.Unlock()
		for c := range ss.s.sw.live {
			if !ss.seen[c] {
				cn = c
			}
		}
		return cn != nil
	})
	ss.seen[cn] = true
	// The welcome may be read before its write has been counted done.
	eventually(ss.t, "the welcome's write is done", func() bool { return !cn.writing.Load() })
	if read {
		go func() {
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
	}
	return c, cn
}

// sweep makes one sweep, then waits for the answer to a ping it sent to
// cn, whose client reads.
func (ss *sweptServer) sweep(cn *conn) {
	ss.s.sweep()
	if cn.pinging.Load() {
		eventually(ss.t, "the pong", func() bool { return !cn.pinging.Load() })
	}
}

// closedWith fails unless the server closed cn's Peer with 1008 and a
// reason holding want.
func closedWith(t *testing.T, cn *conn, want string) {
	t.Helper()
	select {
	case <-cn.p.Done():
	default:
		t.Fatalf("the connection is still open; want it closed for %q", want)
	}
	if code, reason := cn.p.CloseStatus(); code != room.StatusPolicy || !strings.Contains(reason, want) {
		t.Fatalf("closed with %d %q; want %d and %q", code, reason, room.StatusPolicy, want)
	}
}

// open fails if the server closed cn.
func open(t *testing.T, cn *conn, after string) {
	t.Helper()
	select {
	case <-cn.p.Done():
		code, reason := cn.p.CloseStatus()
		t.Fatalf("%s: the connection was closed with %d %q", after, code, reason)
	default:
	}
}

func TestWriteWithoutProgressClosesAfterTwoPingIntervalsOfSweeps(t *testing.T) {
	ss := startSwept(t)
	_, cn := ss.connect(true)
	// Writes that finish between sweeps, however long the sweeps are
	// apart: the client is slow, not dead.
	for range 4 * sweepsPerPing {
		cn.writing.Store(true)
		cn.writes.Add(1)
		ss.sweep(cn)
	}
	open(t, cn, "writes that progress")
	// One write under way through every sweep: the sweeps, not the clock,
	// count how long it stalls, so that a server that could not run for
	// a while does not blame its client.
	cn.writing.Store(true)
	cn.writes.Add(1)
	for range 2 * sweepsPerPing {
		ss.sweep(cn)
	}
	open(t, cn, "a write stalled for less than two ping intervals")
	ss.sweep(cn)
	closedWith(t, cn, "slow consumer")
	cn.writing.Store(false)
}

func TestQuietConnectionIsPingedAndClosedWhenItDoesNotAnswer(t *testing.T) {
	ss := startSwept(t)
	// A client that reads answers the pings of its quiet connection.
	_, alive := ss.connect(true)
	for range 4 * sweepsPerPing {
		ss.sweep(alive)
	}
	open(t, alive, "pings answered")
	if now, heard := ss.s.sweeps.Load(), alive.heard.Load(); now-heard > sweepsPerPing {
		t.Fatalf("sweep %d: the connection was last heard of at sweep %d", now, heard)
	}

	// The server answers a client's ping through the same wire as its
	// messages.
	c, _ := ss.connect(true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("the server did not answer a ping: %v", err)
	}

	// One that does not read is pinged once it has been quiet for a
	// ping interval, and closed two intervals later.
	_, deaf := ss.connect(false)
	for range sweepsPerPing {
		ss.s.sweep()
	}
	if !deaf.pinging.Load() {
		t.Fatal("a connection quiet for a ping interval was not pinged")
	}
	for range 2 * sweepsPerPing {
		ss.s.sweep()
	}
	open(t, deaf, "a ping unanswered for less than two intervals")
	ss.s.sweep()
	closedWith(t, deaf, "no answer to ping")
}

func TestFrameSentWithTheUpgradeRequestIsRead(t *testing.T) {
	ts := start(t, fastConfig())
	// The request and the first frame in one write: the frame reaches the
	// server with the request's bytes.
	rc := dialRaw(t, ts.url, clientFrame(finText, []byte(`{"type":"hello","v":1,"name":"eager"}`)))
	if b0, payload := rc.read(); b0 != finText || !strings.Contains(string(payload), `"type":"welcome"`) {
		t.Fatalf("first frame %#x %s; want a welcome", b0, payload)
	}
}

func TestFragmentedMessageWithAPingBetweenItsFrames(t *testing.T) {
	ts := start(t, fastConfig())
	rc := dialRaw(t, ts.url, nil)
	// hello in two frames, with a ping between them, which is answered
	// at once.
	rc.send(clientFrame(opText, []byte(`{"type":"hello",`)), clientFrame(finPing, []byte("p1")), clientFrame(finContinuation, []byte(`"v":1,"name":"parts"}`)))
	if b0, payload := rc.read(); b0 != finPong || string(payload) != "p1" {
		t.Fatalf("frame %#x %q; want the pong of p1", b0, payload)
	}
	if b0, payload := rc.read(); b0 != finText || !strings.Contains(string(payload), `"type":"welcome"`) {
		t.Fatalf("frame %#x %s; want a welcome", b0, payload)
	}
}

func TestCloseHandshake(t *testing.T) {
	ss := startSwept(t)
	ss.s.closeWait = time.Hour

	// The client closes first: the server answers with the client's
	// status, which the Peer is closed with.
	c, cn := ss.connect(true)
	if err := c.Close(websocket.StatusGoingAway, "bye"); err != nil {
		t.Fatalf("the server did not answer the client's close: %v", err)
	}
	if code, _ := cn.p.CloseStatus(); code != room.StatusGoingAway {
		t.Fatalf("the Peer was closed with %d; want the client's 1001", code)
	}

	// The server closes first (a binary frame before hello): its close
	// frame comes last, the server waits for the client's, and closes the
	// TCP connection once it has come.
	rc := dialRaw(t, ss.url(), clientFrame(finBinary, []byte{1}))
	if code, reason := rc.readToClose(); code != room.StatusPolicy || !strings.Contains(reason, "hello") {
		t.Fatalf("closed with %d %q; want 1008 and the hello rule", code, reason)
	}
	rc.c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if b, err := rc.r.ReadByte(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("before the client answered the close: read %#x, %v; want nothing", b, err)
	}
	rc.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	rc.send(clientFrame(finClose, []byte{0x03, 0xe8}))
	rc.expectEOF("after the client answered the close")

	// A client that does not answer is given closeWait.
	quick := startSwept(t)
	quick.s.closeWait = 100 * time.Millisecond
	rc = dialRaw(t, quick.url(), clientFrame(finBinary, []byte{1}))
	rc.readToClose()
	rc.expectEOF("when the client did not answer the close")
}

func TestFramesBreakingTheProtocolClose(t *testing.T) {
	ts := start(t, fastConfig())
	hello := []byte(`{"type":"hello","v":1,"name":"bad"}`)
	unmasked := append([]byte{finText, byte(len(hello))}, hello...)
	half := []byte(`{"type":"ping","nonce":"` + strings.Repeat("x", protocol.MaxFrame/2) + `"}`)
	for _, tc := range []struct {
		name   string
		frames [][]byte
		code   int
	}{
		{"an unmasked frame", [][]byte{unmasked}, 1002},
		{"a continuation that continues nothing", [][]byte{clientFrame(finContinuation, hello)}, 1002},
		{"a message over MaxFrame in two frames", [][]byte{clientFrame(opText, half), clientFrame(finContinuation, half)}, room.StatusTooBig},
	} {
		rc := dialRaw(t, ts.url, nil)
		rc.send(tc.frames...)
		if code, _ := rc.readToClose(); code != tc.code {
			t.Errorf("%s: closed with %d; want %d", tc.name, code, tc.code)
		}
	}
}

// The first bytes of frames: the FIN bit and the opcode.
const (
	opText          = 0x1
	finContinuation = 0x80
	finText         = 0x81
	finBinary       = 0x82
	finClose        = 0x88
	finPing         = 0x89
	finPong         = 0x8a
)

// rawConn is a client that writes and reads WebSocket frames byte by byte,
// for what a library's client would never send.
type rawConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

// dialRaw makes the handshake with the server at url (http://HOST:PORT),
// sending early in the same write as the request.
func dialRaw(t *testing.T, url string, early []byte) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := c.Write(append([]byte(req), early...)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("status %s", resp.Status)
	}
	return &rawConn{t: t, c: c, r: r}
}

// clientFrame returns a frame as a client sends it, masked, whose first
// byte is b0.
func clientFrame(b0 byte, payload []byte) []byte {
	f := []byte{b0}
	if len(payload) < 126 {
		f = append(f, 0x80|byte(len(payload)))
	} else {
		f = binary.BigEndian.AppendUint16(append(f, 0x80|126), uint16(len(payload)))
	}
	mask := [4]byte{1, 2, 3, 4}
	f = append(f, mask[:]...)
	for i, b := range payload {
		f = append(f, b^mask[i%4])
	}
	return f
}

// send writes frames in one write.
func (rc *rawConn) send(frames ...[]byte) {
	rc.t.Helper()
	if _, err := rc.c.Write(bytes.Join(frames, nil)); err != nil {
		rc.t.Fatal(err)
	}
}

// read reads a frame of the server's, unmasked, and returns its first
// byte and its payload.
func (rc *rawConn) read() (byte, []byte) {
	rc.t.Helper()
	var head [2]byte
	if _, err := io.ReadFull(rc.r, head[:]); err != nil {
		rc.t.Fatal(err)
	}
	if head[1]&0x80 != 0 {
		rc.t.Fatal("the server masked a frame")
	}
	n := int(head[1] & 0x7f)
	if n == 126 {
		var ext [2]byte
		if _, err := io.ReadFull(rc.r, ext[:]); err != nil {
			rc.t.Fatal(err)
		}
		n = int(binary.BigEndian.Uint16(ext[:]))
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(rc.r, payload); err != nil {
		rc.t.Fatal(err)
	}
	return head[0], payload
}

// readToClose skips frames until the server's close frame and returns its
// status and reason.
func (rc *rawConn) readToClose() (int, string) {
	rc.t.Helper()
	for {
		b0, payload := rc.read()
		if b0 != finClose {
			continue
		}
		if len(payload) < 2 {
			rc.t.Fatalf("a close frame without a status: %q", payload)
		}
		return int(binary.BigEndian.Uint16(payload)), string(payload[2:])
	}
}

// expectEOF fails unless the server has closed the connection, sending
// nothing more.
func (rc *rawConn) expectEOF(when string) {
	rc.t.Helper()
	if b, err := rc.r.ReadByte(); err != io.EOF {
		rc.t.Fatalf("%s: read %#x, %v; want the end of the connection", when, b, err)
	}
}

func TestHandshakeFromAnotherSiteOrNoWebSocketIsRefused(t *testing.T) {
	ts := start(t, fastConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// A page of another site may not open a connection; one of the
	// server's may.
	_, resp, err := websocket.Dial(ctx, ts.ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://elsewhere.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a handshake from another site: %v; want HTTP 403", err)
	}
	c, _, err := websocket.Dial(ctx, ts.ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {ts.url}}})
	if err != nil {
		t.Fatalf("a handshake from the server's own page: %v", err)
	}
	c.CloseNow()
	// A request that is no handshake is told what is missing.
	if code, body := ts.get("/ws"); code != http.StatusBadRequest || !strings.Contains(string(body), "Upgrade") {
		t.Fatalf("GET /ws without a handshake: %d %s", code, body)
	}
}
