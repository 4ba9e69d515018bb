package load

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/internal/wsframe"
)

// The clients speak WebSocket (RFC 6455) through the small implementation
// below rather than a general library: a client's whole life is one
// message in, the odd message out, and at twenty thousand of them the
// locks, contexts and per-frame random numbers of a general library cost
// the load more than the server it measures. It reads and writes single
// frames and fragmented messages, answers pings, and reports the status
// and reason of the server's close.

// The opcodes of RFC 6455 §5.2.
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xa
)

// maxMessage is the largest message a client reads.
const maxMessage = 1 << 22

// wsConn is a client's WebSocket connection. Its reads belong to one
// goroutine; its writes may come from any.
type wsConn struct {
	c net.Conn
	r *bufio.Reader

	wmu  sync.Mutex
	wbuf []byte // the frame being written, kept from write to write
}

// closeError is the close frame that ended a connection.
type closeError struct {
	code   int // -1 when the frame had no status
	reason string
}

func (e *closeError) Error() string {
	return fmt.Sprintf("closed by the server: %d %s", e.code, e.reason)
}

// errStatus is a handshake that the server answered with another HTTP
// status than 101.
type errStatus int

func (e errStatus) Error() string { return fmt.Sprintf("HTTP %d", int(e)) }

// dialWS connects to the WebSocket endpoint path of the server at
// host:port through dial, and makes the opening handshake, within ctx.
func dialWS(ctx context.Context, dial func(ctx context.Context, network, addr string) (net.Conn, error), hostport, path string) (*wsConn, error) {
	c, err := dial(ctx, "tcp", hostport)
	if err != nil {
		return nil, err
	}
	if d, ok := ctx.Deadline(); ok {
		c.SetDeadline(d)
	}
	var key [16]byte
	for i := range key {
		key[i] = byte(rand.Uint32())
	}
	k := base64.StdEncoding.EncodeToString(key[:])
	req := "GET " + path + " HTTP/1.1\r\nHost: " + hostport + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + k + "\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		c.Close()
		return nil, err
	}
	r := bufio.NewReaderSize(c, 4096)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return nil, errStatus(resp.StatusCode)
	}
	sum := sha1.Sum([]byte(k + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		c.Close()
		return nil, errors.New("the server's Sec-WebSocket-Accept does not match the key")
	}
	c.SetDeadline(time.Time{})
	return &wsConn{c: c, r: r}, nil
}

// close closes the connection at once.
func (w *wsConn) close() { w.c.Close() }

// write sends one frame of opcode op holding p, masked as a client's
// frames are.
func (w *wsConn) write(op byte, p []byte) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	f := wsframe.AppendHeader(w.wbuf[:0], op, len(p), true)
	mask := rand.Uint32()
	f = binary.LittleEndian.AppendUint32(f, mask)
	start := len(f)
	f = append(f, p...)
	var m [4]byte
	binary.LittleEndian.PutUint32(m[:], mask)
	for i := range p {
		f[start+i] ^= m[i&3]
	}
	w.wbuf = f
	_, err := w.c.Write(f)
	return err
}

// read reads the next message, appending its payload to b; it answers the
// pings on the way, and returns a *closeError when the server closes.
func (w *wsConn) read(b []byte) ([]byte, error) {
	start := len(b)
	var head [14]byte
	inMessage := false
	for {
		if _, err := io.ReadFull(w.r, head[:2]); err != nil {
			return b, err
		}
		fin, op := head[0]&0x80 != 0, head[0]&0x0f
		if head[0]&0x70 != 0 || head[1]&0x80 != 0 {
			return b, errors.New("websocket: reserved bits or a mask on a server's frame")
		}
		n := uint64(head[1] & 0x7f)
		switch n {
		case 126:
			if _, err := io.ReadFull(w.r, head[2:4]); err != nil {
				return b, err
			}
			n = uint64(binary.BigEndian.Uint16(head[2:4]))
		case 127:
			if _, err := io.ReadFull(w.r, head[2:10]); err != nil {
				return b, err
			}
			n = binary.BigEndian.Uint64(head[2:10])
		}
		if op >= opClose {
			if n > 125 || !fin {
				return b, errors.New("websocket: a control frame longer than 125 bytes or fragmented")
			}
			var p [125]byte
			if _, err := io.ReadFull(w.r, p[:n]); err != nil {
				return b, err
			}
			switch op {
			case opPing:
				if err := w.write(opPong, p[:n]); err != nil {
					return b, err
				}
			case opClose:
				e := &closeError{code: -1}
				if n >= 2 {
					e.code, e.reason = int(binary.BigEndian.Uint16(p[:2])), string(p[2:n])
				}
				w.write(opClose, p[:min(n, 2)])
				return b, e
			}
			continue
		}
		if (op == opContinuation) != inMessage || (op != opContinuation && op != opText && op != opBinary) {
			return b, fmt.Errorf("websocket: unexpected frame of opcode %d", op)
		}
		inMessage = true
		if uint64(len(b)-start)+n > maxMessage {
			return b, fmt.Errorf("websocket: a message over %d bytes", maxMessage)
		}
		l := len(b)
		b = append(b, make([]byte, n)...)
		if _, err := io.ReadFull(w.r, b[l:]); err != nil {
			return b, err
		}
		if fin {
			return b, nil
		}
	}
}
