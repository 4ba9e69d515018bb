// Package tcpproxy is a test-support TCP proxy on loopback that can
// switch its backend and cut every connection at once, as a server
// killed would, or close each with a WebSocket close frame of its own,
// as a server restarting would.
//
// It passes the bytes from each client to the backend as they come, and
// the backend's answer to the client: the HTTP head whole, then, after a
// WebSocket upgrade, frame by frame, so that a close frame of its own
// only ever stands between two of the backend's frames. A plain HTTP
// answer is passed on as it comes.
package tcpproxy

import (
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gobwas/ws"
)

// Proxy listens on a free port of 127.0.0.1 and connects each client it
// accepts to its backend of the moment. Its methods are safe for
// concurrent use.
type Proxy struct {
	ln      net.Listener
	backend atomic.Pointer[string] // the backend's HOST:PORT
	mu      sync.Mutex
	pairs   map[*pair]bool
}

// pair is one client's connection through the proxy.
type pair struct {
	client, server net.Conn
	wmu            sync.Mutex // a frame to the client is written whole
}

// New starts a proxy to backend (HOST:PORT; it may be empty, and set
// later with SetBackend, before the first client connects). Close stops
// it.
func New(backend string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, pairs: map[*pair]bool{}}
	p.backend.Store(&backend)
	go p.serve()
	return p, nil
}

// Addr returns the HOST:PORT the proxy listens on.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// SetBackend points the connections accepted from now on at backend
// (HOST:PORT); those already made stay where they are.
func (p *Proxy) SetBackend(backend string) { p.backend.Store(&backend) }

// Close stops listening and drops every connection.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.Cut()
	return err
}

// serve accepts clients until the listener is closed, connecting each
// to the backend; a client whose backend cannot be reached is closed.
func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", *p.backend.Load())
		if err != nil {
			c.Close()
			continue
		}
		pr := &pair{client: c, server: s}
		p.mu.Lock()
		p.pairs[pr] = true
		p.mu.Unlock()
		go func() {
			io.Copy(s, c)
			p.end(pr)
		}()
		go func() {
			pr.forward()
			p.end(pr)
		}()
	}
}

// forward copies the server's side to the client: the handshake's
// answer, then frame by frame (or the rest of a plain HTTP answer).
func (pr *pair) forward() {
	// The handshake's answer ends with an empty line.
	var head []byte
	b := make([]byte, 1)
	for len(head) < 4 || string(head[len(head)-4:]) != "\r\n\r\n" {
		if _, err := pr.server.Read(b); err != nil {
			return
		}
		head = append(head, b[0])
	}
	if _, err := pr.client.Write(head); err != nil {
		return
	}
	if !strings.HasPrefix(string(head), "HTTP/1.1 101 ") {
		io.Copy(pr.client, pr.server) // plain HTTP
		return
	}
	for {
		h, err := ws.ReadHeader(pr.server)
		if err != nil {
			return
		}
		payload := make([]byte, h.Length)
		if _, err := io.ReadFull(pr.server, payload); err != nil {
			return
		}
		pr.wmu.Lock()
		err = ws.WriteHeader(pr.client, h)
		if err == nil {
			_, err = pr.client.Write(payload)
		}
		pr.wmu.Unlock()
		if err != nil {
			return
		}
	}
}

// end closes both sides of a pair.
func (p *Proxy) end(pr *pair) {
	pr.client.Close()
	pr.server.Close()
	p.mu.Lock()
	delete(p.pairs, pr)
	p.mu.Unlock()
}

// Cut drops every connection at once, without a close frame, as a
// server killed would.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pr := range p.pairs {
		pr.client.Close()
		pr.server.Close()
		delete(p.pairs, pr)
	}
}

// CloseAll closes every connection with a WebSocket close frame of
// status code and reason, as a server shutting down would, then drops
// it.
func (p *Proxy) CloseAll(code ws.StatusCode, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pr := range p.pairs {
		pr.wmu.Lock()
		ws.WriteFrame(pr.client, ws.NewCloseFrame(ws.NewCloseFrameBody(code, reason)))
		pr.wmu.Unlock()
		pr.client.Close()
		pr.server.Close()
		delete(p.pairs, pr)
	}
}
