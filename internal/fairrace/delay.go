package fairrace

import (
	"io"
	"net"
	"sync"
	"time"
)

// delayConn is a connection whose bytes take half a round trip each way:
// what is written reaches the socket half later, what arrives is read half
// later, in order. It stands for a network farther away than the loopback,
// for the connection's messages and its pongs alike; the kernel, which
// acknowledges the bytes at once, sees the loopback's round trip.
type delayConn struct {
	net.Conn
	half time.Duration

	in  chan chunk // what arrived, with when it may be read
	cur []byte
	err error // why the reads ended, once in is closed

	mu     sync.Mutex
	out    chan chunk
	closed bool
}

// chunk is bytes due at a time.
type chunk struct {
	at time.Time
	b  []byte
}

// delay wraps c in a delayConn of round trip rtt; rtt 0 returns c.
func delay(c net.Conn, rtt time.Duration) net.Conn {
	if rtt <= 0 {
		return c
	}
	d := &delayConn{Conn: c, half: rtt / 2, in: make(chan chunk, 1024), out: make(chan chunk, 1024)}
	go d.reads()
	go d.writes()
	return d
}

// reads reads the socket, stamping each chunk with when it may be read.
func (d *delayConn) reads() {
	defer close(d.in)
	for {
		b := make([]byte, 4096)
		n, err := d.Conn.Read(b)
		if n > 0 {
			d.in <- chunk{time.Now().Add(d.half), b[:n]}
		}
		if err != nil {
			d.err = err
			return
		}
	}
}

// writes writes each chunk to the socket once it is due.
func (d *delayConn) writes() {
	for c := range d.out {
		time.Sleep(time.Until(c.at))
		if _, err := d.Conn.Write(c.b); err != nil {
			d.Conn.Close()
		}
	}
}

// Read reads what has arrived half a round trip ago.
func (d *delayConn) Read(p []byte) (int, error) {
	if len(d.cur) == 0 {
		c, ok := <-d.in
		if !ok {
			if d.err == nil {
				return 0, io.EOF
			}
			return 0, d.err
		}
		time.Sleep(time.Until(c.at))
		d.cur = c.b
	}
	n := copy(p, d.cur)
	d.cur = d.cur[n:]
	return n, nil
}

// Write sends p half a round trip from now.
func (d *delayConn) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return 0, net.ErrClosed
	}
	d.out <- chunk{time.Now().Add(d.half), append([]byte(nil), p...)}
	return len(p), nil
}

// Close closes the connection and stops the writes.
func (d *delayConn) Close() error {
	d.mu.Lock()
	if !d.closed {
		d.closed = true
		close(d.out)
	}
	d.mu.Unlock()
	return d.Conn.Close()
}
