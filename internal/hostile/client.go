package hostile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// stepTimeout bounds one step of an attacker or a newcomer: a dial, a
// handshake, the answer to one request.
const stepTimeout = 5 * time.Second

// maxMessage is the largest message a client reads.
const maxMessage = 1 << 22

// sourceDialer returns a dialer whose connections leave from src, or from
// any address when src is not valid.
func sourceDialer(src netip.Addr) *net.Dialer {
	d := &net.Dialer{Timeout: stepTimeout}
	if src.IsValid() {
		d.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
	}
	return d
}

// usableSource reports whether this machine can send from a, an address
// of the loopback network (Linux answers all of 127.0.0.0/8; other
// systems only 127.0.0.1 unless told otherwise).
func usableSource(a netip.Addr) bool {
	ln, err := net.Listen("tcp", netip.AddrPortFrom(a, 0).String())
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// wsClient is a WebSocket connection of an attacker or a newcomer: a
// reader, for one goroutine, that answers the server's pings and counts
// its pongs, and writes of whole frames from any goroutine.
type wsClient struct {
	c  net.Conn
	rd wsutil.Reader

	wmu   sync.Mutex
	pongs atomic.Int64 // pongs received, the answers to control pings
}

// closeError is the close frame that ended a connection.
type closeError struct {
	code   int // -1 when the frame had no status
	reason string
}

func (e *closeError) Error() string {
	return "closed by the server: " + strconv.Itoa(e.code) + " " + e.reason
}

// errKind names an error the way the counters count it: the server's
// close with its status and reason, an HTTP status refusing the
// handshake, or the last words of a network error ("connection reset by
// peer", "i/o timeout").
func errKind(err error) string {
	var ce *closeError
	if errors.As(err, &ce) {
		reason := ce.reason
		if i := strings.IndexByte(reason, ':'); i > 0 {
			reason = reason[:i] // "flood: 200 refused…" counts as "flood"
		}
		return "closed by the server: " + strconv.Itoa(ce.code) + " " + reason
	}
	if s, ok := errors.AsType[ws.StatusError](err); ok {
		return "HTTP " + strconv.Itoa(int(s))
	}
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return "no source port left"
	case errors.Is(err, syscall.EMFILE):
		return "out of files (this process)"
	}
	msg := err.Error()
	return msg[strings.LastIndex(msg, ": ")+1:]
}

// dialWS opens a WebSocket to url through d and makes the handshake.
func dialWS(ctx context.Context, d *net.Dialer, url string) (*wsClient, error) {
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	dl := ws.Dialer{NetDial: d.DialContext}
	c, br, _, err := dl.Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	if br == nil {
		br = bufio.NewReaderSize(c, 4096)
	}
	w := &wsClient{c: c}
	w.rd = wsutil.Reader{Source: br, State: ws.StateClientSide, MaxMessageSize: maxMessage, OnIntermediate: w.control}
	return w, nil
}

// close closes the connection at once.
func (w *wsClient) close() { w.c.Close() }

// abort closes the connection with a reset, as a client that vanishes
// does; it leaves no socket waiting on this side.
func (w *wsClient) abort() {
	if tc, ok := w.c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	w.c.Close()
}

// send writes one text message.
func (w *wsClient) send(p []byte) error { return w.write(frame(ws.OpText, p)) }

// write writes frames already put together.
func (w *wsClient) write(b []byte) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	_, err := w.c.Write(b)
	return err
}

// frame returns a masked client frame of opcode op holding p.
func frame(op ws.OpCode, p []byte) []byte {
	var buf bytes.Buffer
	mask := ws.NewMask()
	ws.WriteHeader(&buf, ws.Header{Fin: true, OpCode: op, Masked: true, Mask: mask, Length: int64(len(p))})
	start := buf.Len()
	buf.Write(p)
	b := buf.Bytes()
	ws.Cipher(b[start:], mask, 0)
	return b
}

// frames returns n copies of the frame of opcode op holding p, to write
// at once.
func frames(op ws.OpCode, p []byte, n int) []byte {
	f := frame(op, p)
	return bytes.Repeat(f, n)
}

// next reads the next data message; it answers pings, counts pongs and
// returns a *closeError when the server closes.
func (w *wsClient) next() ([]byte, error) {
	for {
		h, err := w.rd.NextFrame()
		if err != nil {
			return nil, err
		}
		if h.OpCode.IsControl() {
			if err := w.control(h, &w.rd); err != nil {
				return nil, err
			}
			if err := w.rd.Discard(); err != nil {
				return nil, err
			}
			continue
		}
		return io.ReadAll(&w.rd)
	}
}

// control handles the control frame of header h whose payload r holds.
func (w *wsClient) control(h ws.Header, r io.Reader) error {
	var p [ws.MaxControlFramePayloadSize]byte
	payload := p[:h.Length]
	if _, err := io.ReadFull(r, payload); err != nil {
		return err
	}
	switch h.OpCode {
	case ws.OpPing:
		return w.write(frame(ws.OpPong, payload))
	case ws.OpPong:
		w.pongs.Add(1)
	case ws.OpClose:
		e := &closeError{code: -1}
		if len(payload) >= 2 {
			code, reason := ws.ParseCloseFrameData(payload)
			e.code, e.reason = int(code), reason
		}
		w.write(frame(ws.OpClose, payload[:min(len(payload), 2)]))
		return e
	}
	return nil
}

// message is the part of a server message the attackers read.
type message struct {
	Type    string          `json:"type"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Room    json.RawMessage `json:"room"`
}

// await reads messages until one of type typ, within stepTimeout; an
// error message, a close or no answer is an error that says so.
func (w *wsClient) await(typ string) (*message, error) {
	w.c.SetReadDeadline(time.Now().Add(stepTimeout))
	defer w.c.SetReadDeadline(time.Time{})
	for {
		b, err := w.next()
		if err != nil {
			return nil, err
		}
		var m message
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("not JSON: %.60s", b)
		}
		switch m.Type {
		case typ:
			return &m, nil
		case "error":
			return nil, &refusal{code: m.Code}
		}
	}
}

// refusal is an error message from the server.
type refusal struct{ code string }

func (e *refusal) Error() string { return "error " + e.code }

// answerKind names the outcome of a request the way the counters count
// it: "error CODE" for the server's error, errKind's name otherwise.
func answerKind(err error) string {
	if r, ok := errors.AsType[*refusal](err); ok {
		return r.Error()
	}
	return errKind(err)
}

// hello is what every client says first.
func hello(name string) []byte {
	return []byte(`{"type":"hello","v":1,"name":"` + name + `","lang":"en"}`)
}

// greet says hello and waits for the welcome.
func (w *wsClient) greet(name string) error {
	if err := w.send(hello(name)); err != nil {
		return err
	}
	_, err := w.await("welcome")
	return err
}
