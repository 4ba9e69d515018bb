package storetest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// Proxy is a TCP proxy on a loopback port that passes every connection to
// a server, and that can be stopped, so that the server cannot be reached
// (its connections cut, new ones refused), and started again on the same
// port: a database server that goes away and comes back, for the tests.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener // nil while stopped
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

// NewProxy starts a proxy to the server at target (HOST:PORT); it stops
// when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	t.Cleanup(func() {
		p.Stop()
		p.wg.Wait()
	})
	return p
}

// ProxyTo starts a proxy to the PostgreSQL server of the URL db and
// returns it with the URL that reaches the same database through it.
func ProxyTo(t testing.TB, db string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	p := NewProxy(t, target)
	u.Host = p.addr
	return p, u.String()
}

// serve accepts connections on ln until it is closed.
func (p *Proxy) serve(ln net.Listener) {
	p.ln = ln
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			if p.ln != ln {
				p.mu.Unlock()
				c.Close()
				return
			}
			p.conns[c] = struct{}{}
			p.mu.Unlock()
			p.wg.Go(func() { p.pass(c) })
		}
	})
}

// pass copies between the client c and a connection of its own to the
// server until either ends or the proxy stops.
func (p *Proxy) pass(c net.Conn) {
	defer p.drop(c)
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	p.mu.Lock()
	if _, ok := p.conns[c]; !ok {
		p.mu.Unlock()
		s.Close()
		return
	}
	p.conns[s] = struct{}{}
	p.mu.Unlock()
	defer p.drop(s)
	done := make(chan struct{}, 2)
	go func() { io.Copy(s, c); done <- struct{}{} }()
	go func() { io.Copy(c, s); done <- struct{}{} }()
	<-done
}

// drop closes c and forgets it.
func (p *Proxy) drop(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// Stop closes the port and cuts every connection through the proxy: the
// server cannot be reached until Start.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Start opens the port again, after Stop.
func (p *Proxy) Start() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("the proxy cannot listen on %s again: %v", p.addr, err)
	}
	p.serve(ln)
}
