package load

import (
	"bufio"
	"context"
	"io"
	"net"
	"strconv"
	"sync"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// The clients speak WebSocket (RFC 6455) through github.com/gobwas/ws, the
// library the server is built on, at its lower level: a client's whole
// life is one message in, the odd message out, and at twenty thousand of
// them a connection that holds a context, a message writer and their locks
// would cost the load more than the server it measures. A client reads
// through one buffer and writes each frame, masked, in one write from a
// buffer it keeps; it reads fragmented messages, answers pings, and
// reports the status and reason of the server's close.

// maxMessage is the largest message a client reads.
const maxMessage = 1 << 22

// readBuffer is the size of a client's read buffer.
const readBuffer = 4096

// wsConn is a client's WebSocket connection. Its reads belong to one
// goroutine; its writes may come from any.
type wsConn struct {
	c  net.Conn
	rd wsutil.Reader

	wmu sync.Mutex
	w   frame // the frame being written, kept from write to write
}

// closeError is the close frame that ended a connection.
type closeError struct {
	code   int // -1 when the frame had no status
	reason string
}

func (e *closeError) Error() string {
	return "closed by the server: " + strconv.Itoa(e.code) + " " + e.reason
}

// dialWS connects to the WebSocket URL url through dial and makes the
// opening handshake, within ctx. A server that answers the handshake with
// another HTTP status than 101 gives a ws.StatusError.
func dialWS(ctx context.Context, dial func(ctx context.Context, network, addr string) (net.Conn, error), url string) (*wsConn, error) {
	d := ws.Dialer{NetDial: dial}
	c, br, _, err := d.Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	if br == nil {
		br = bufio.NewReaderSize(c, readBuffer)
	}
	w := &wsConn{c: c}
	w.rd = wsutil.Reader{
		Source:         br,
		State:          ws.StateClientSide,
		MaxMessageSize: maxMessage,
		OnIntermediate: w.control,
	}
	return w, nil
}

// close closes the connection at once.
func (w *wsConn) close() { w.c.Close() }

// write sends one frame of opcode op holding p, masked as a client's
// frames are.
func (w *wsConn) write(op ws.OpCode, p []byte) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	mask := ws.NewMask()
	w.w.b = w.w.b[:0]
	ws.WriteHeaderBuffer(&w.w, ws.Header{Fin: true, OpCode: op, Masked: true, Mask: mask, Length: int64(len(p))}, w.w.hdr[:])
	start := len(w.w.b)
	w.w.b = append(w.w.b, p...)
	ws.Cipher(w.w.b[start:], mask, 0)
	_, err := w.c.Write(w.w.b)
	return err
}

// read reads the next message, appending its payload to b; it answers the
// pings on the way, and returns a *closeError when the server closes.
func (w *wsConn) read(b []byte) ([]byte, error) {
	for {
		h, err := w.rd.NextFrame()
		if err != nil {
			return b, err
		}
		if !h.OpCode.IsControl() {
			return readMessage(&w.rd, b)
		}
		if err := w.control(h, &w.rd); err != nil {
			return b, err
		}
		if err := w.rd.Discard(); err != nil {
			return b, err
		}
	}
}

// readMessage appends the rest of the message r is at to b.
func readMessage(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// control answers the control frame of header h, whose payload r holds:
// a ping with a pong, a close with a close and a *closeError.
func (w *wsConn) control(h ws.Header, r io.Reader) error {
	var p [ws.MaxControlFramePayloadSize]byte
	payload := p[:h.Length]
	if _, err := io.ReadFull(r, payload); err != nil {
		return err
	}
	switch h.OpCode {
	case ws.OpPing:
		return w.write(ws.OpPong, payload)
	case ws.OpClose:
		e := &closeError{code: -1}
		if len(payload) >= 2 {
			code, reason := ws.ParseCloseFrameData(payload)
			e.code, e.reason = int(code), reason
		}
		w.write(ws.OpClose, payload[:min(len(payload), 2)])
		return e
	}
	return nil
}

// frame is a frame being put together.
type frame struct {
	b   []byte
	hdr [ws.MaxHeaderSize]byte
}

// Write appends p to the frame.
func (f *frame) Write(p []byte) (int, error) {
	f.b = append(f.b, p...)
	return len(p), nil
}
