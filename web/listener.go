package web

import (
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"

	"github.com/dobble-dev/dobble/room"
)

// Listen returns ln bounded by l.MaxSockets and l.MaxSocketsPerAddr: it
// counts every connection it accepts, HTTP or WebSocket, until the
// connection is closed, and closes at once, logging it to log (nil: no
// log) and counting it in metrics, every connection beyond the bounds. So
// the process never runs out of files however many clients come, and one
// address cannot take them all. The peers in l.Exempt and
// l.TrustedProxies are bound by the total only.
func Listen(ln net.Listener, l Limits, metrics *room.Metrics, log *slog.Logger) net.Listener {
	return &limitListener{Listener: ln, l: l, metrics: metrics, notes: newNotes(log), per: map[netip.Prefix]int{}}
}

// limitListener is the listener Listen returns.
type limitListener struct {
	net.Listener
	l       Limits
	metrics *room.Metrics
	notes   *notes

	mu   sync.Mutex
	open int
	per  map[netip.Prefix]int // connections open by peer address, for those counted
}

// Accept returns the next connection within the bounds.
func (ll *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			return nil, err
		}
		var key netip.Prefix
		a, ok := peerAddr(c.RemoteAddr())
		counted := ok && ll.l.MaxSocketsPerAddr > 0 && !within(ll.l.Exempt, a) && !within(ll.l.TrustedProxies, a)
		if counted {
			key = addrKey(a)
		}
		why := ""
		ll.mu.Lock()
		switch {
		case ll.l.MaxSockets > 0 && ll.open >= ll.l.MaxSockets:
			why = refusedSockets
		case counted && ll.per[key] >= ll.l.MaxSocketsPerAddr:
			why = refusedSocketsPerAddr
		default:
			ll.open++
			if counted {
				ll.per[key]++
			}
		}
		ll.mu.Unlock()
		if why != "" {
			c.Close()
			ll.metrics.Refused.WithLabelValues(why).Inc()
			if why == refusedSockets {
				ll.notes.note(why, "refused a connection: the server has its most sockets open (--max-sockets "+strconv.Itoa(ll.l.MaxSockets)+")", "addr", c.RemoteAddr().String())
			} else {
				ll.notes.note(why, "refused a connection: its address has its most sockets open (--max-sockets-per-addr "+strconv.Itoa(ll.l.MaxSocketsPerAddr)+")", "addr", key.String())
			}
			continue
		}
		ll.metrics.Sockets.Inc()
		return &countedConn{Conn: c, ll: ll, key: key, counted: counted}, nil
	}
}

// countedConn is a connection the listener counts until it is closed.
type countedConn struct {
	net.Conn
	ll      *limitListener
	key     netip.Prefix
	counted bool
	once    sync.Once
}

// Close closes the connection and stops counting it.
func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		ll := c.ll
		ll.mu.Lock()
		ll.open--
		if c.counted {
			if ll.per[c.key]--; ll.per[c.key] == 0 {
				delete(ll.per, c.key)
			}
		}
		ll.mu.Unlock()
		ll.metrics.Sockets.Dec()
	})
	return err
}

// CloseWrite shuts down the writing side of the connection, when it can
// (a TCP connection), as net/http does before closing after an error.
func (c *countedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
