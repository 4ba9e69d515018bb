package web

import (
	"container/list"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/room"
)

// Limits are the bounds a server puts on its clients, so that no client
// can take what the others need. A zero field sets no bound.
//
// The per-address bounds count a client by its address: an IPv4 address,
// or the /64 network of an IPv6 address (what one home or one host is
// given). The address is the TCP peer's, or, when the peer is one of
// TrustedProxies, the one it forwards in X-Forwarded-For. The addresses
// in Exempt are bound only by the totals.
type Limits struct {
	// MaxSockets is the most TCP connections open at once, HTTP and
	// WebSocket together: each holds a file of the process.
	MaxSockets int
	// MaxSocketsPerAddr is the most TCP connections open at once from one
	// peer address (trusted proxies are not bound by it).
	MaxSocketsPerAddr int
	// MaxConnsPerAddr is the most WebSocket connections open at once from
	// one client address.
	MaxConnsPerAddr int
	// HelloTimeout is how long a new WebSocket connection has to say
	// hello before it is closed.
	HelloTimeout time.Duration
	// HandshakeRate is how many WebSocket handshakes a second one client
	// address may make, in bursts of HandshakeBurst.
	HandshakeRate  float64
	HandshakeBurst int
	// AddrRate is how many messages (and control frames) a second one
	// client address may send, all its connections together, in bursts of
	// AddrBurst; unlike a connection's own budget (room.Config.Rate), a
	// new connection does not refill it.
	AddrRate  float64
	AddrBurst int
	// MaxAddrs is the most client addresses remembered at once for the
	// per-address bounds; the one unused longest is forgotten first.
	MaxAddrs int
	// Exempt are the networks whose clients the per-address bounds skip.
	Exempt []netip.Prefix
	// TrustedProxies are the networks of the reverse proxies whose
	// X-Forwarded-For names the client.
	TrustedProxies []netip.Prefix
}

// DefaultLimits returns the bounds of dobble serve: 500 sockets from one
// address (the total follows --max-conns, see server.Config), 100
// WebSocket connections from one client address, hello within 10 s, 5
// handshakes a second in bursts of 50 and 200 messages a second in bursts
// of 400 from one address, 100,000 addresses remembered, loopback exempt
// (dobble load runs there) and no trusted proxy.
func DefaultLimits() Limits {
	return Limits{
		MaxSocketsPerAddr: 500, MaxConnsPerAddr: 100, HelloTimeout: 10 * time.Second,
		HandshakeRate: 5, HandshakeBurst: 50, AddrRate: 200, AddrBurst: 400, MaxAddrs: 100_000,
		Exempt: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")},
	}
}

// Validate reports the first bound out of range, naming what is accepted.
func (l Limits) Validate() error {
	switch {
	case l.MaxSockets < 0 || l.MaxSocketsPerAddr < 0 || l.MaxConnsPerAddr < 0 || l.MaxAddrs < 0:
		return fmt.Errorf("web: sockets %d, sockets per address %d, connections per address %d, addresses %d: use 0 (no bound) or more",
			l.MaxSockets, l.MaxSocketsPerAddr, l.MaxConnsPerAddr, l.MaxAddrs)
	case l.HelloTimeout < 0:
		return fmt.Errorf("web: hello timeout %v: use a positive duration, or 0 for none", l.HelloTimeout)
	case l.HandshakeRate < 0 || (l.HandshakeRate > 0 && l.HandshakeBurst < 1):
		return fmt.Errorf("web: %v handshakes a second in bursts of %d: use a rate of 0 (no bound), or a positive rate and a burst of 1 or more", l.HandshakeRate, l.HandshakeBurst)
	case l.AddrRate < 0 || (l.AddrRate > 0 && l.AddrBurst < 1):
		return fmt.Errorf("web: %v messages a second from an address in bursts of %d: use a rate of 0 (no bound), or a positive rate and a burst of 1 or more", l.AddrRate, l.AddrBurst)
	}
	return nil
}

// ParseNets reads a list of networks separated by commas, each a CIDR
// prefix (10.0.0.0/8, fd00::/8) or one address; "none" or nothing is the
// empty list.
func ParseNets(s string) ([]netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return nil, nil
	}
	var nets []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if p, err := netip.ParsePrefix(f); err == nil {
			nets = append(nets, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a network such as 10.0.0.0/8 or fd00::/8 nor an address such as 192.0.2.1 or ::1", f)
		}
		a = a.Unmap().WithZone("")
		nets = append(nets, netip.PrefixFrom(a, a.BitLen()))
	}
	return nets, nil
}

// FormatNets writes nets as ParseNets reads them.
func FormatNets(nets []netip.Prefix) string {
	if len(nets) == 0 {
		return "none"
	}
	s := make([]string, len(nets))
	for i, n := range nets {
		s[i] = n.String()
	}
	return strings.Join(s, ",")
}

// within reports whether a is in one of nets.
func within(nets []netip.Prefix, a netip.Addr) bool {
	for _, n := range nets {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// addrKey returns what the per-address bounds count a under: the IPv4
// address, or the /64 of an IPv6 address.
func addrKey(a netip.Addr) netip.Prefix {
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

// peerAddr returns the address of a connection's peer, unmapped.
func peerAddr(addr net.Addr) (netip.Addr, bool) {
	if ta, ok := addr.(*net.TCPAddr); ok {
		a, ok := netip.AddrFromSlice(ta.IP)
		return a.Unmap(), ok
	}
	ap, err := netip.ParseAddrPort(addr.String())
	return ap.Addr().Unmap(), err == nil
}

// clientAddr returns the address of r's client: the peer's, or, when the
// peer is a trusted proxy, the last address of X-Forwarded-For that is not
// a trusted proxy's (the proxies append the address they hear from,
// so what lies left of the first untrusted one may be forged). ok is false
// when r has no usable peer address.
func clientAddr(r *http.Request, trusted []netip.Prefix) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	a := ap.Addr().Unmap().WithZone("")
	if !within(trusted, a) {
		return a, true
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h := strings.TrimSpace(hops[i])
		if h == "" {
			continue
		}
		next, err := netip.ParseAddr(h)
		if err != nil {
			hp, err2 := netip.ParseAddrPort(h)
			if err2 != nil {
				break // not an address: the last trusted hop's address stands
			}
			next = hp.Addr()
		}
		a = next.Unmap().WithZone("")
		if !within(trusted, a) {
			break
		}
	}
	return a, true
}

// The reasons a connection is refused, as dobble_connections_refused_total
// counts them.
const (
	refusedSockets        = "max_sockets"
	refusedSocketsPerAddr = "max_sockets_per_addr"
	refusedConns          = "max_conns"
	refusedConnsPerAddr   = "max_conns_per_addr"
	refusedHandshakes     = "handshake_rate"
	refusedAddrs          = "max_addrs"
)

// addrEntry is what the server remembers of one client address.
type addrEntry struct {
	key    netip.Prefix
	conns  int          // WebSocket connections open
	shakes *room.Budget // handshakes
	msgs   *room.Budget // messages and control frames, all connections together
	idle   *list.Element
}

// addrTable holds the entries of the client addresses, at most max of
// them. An entry with connections open stays; the others wait in a list,
// the one used last in front, and are dropped from the back: as soon as
// their budgets have refilled (they hold nothing then), or, when the table
// is full, before.
type addrTable struct {
	l       Limits
	metrics *room.Metrics

	mu   sync.Mutex
	m    map[netip.Prefix]*addrEntry
	idle list.List // of *addrEntry, with no connection open
}

func newAddrTable(l Limits, metrics *room.Metrics) *addrTable {
	return &addrTable{l: l, metrics: metrics, m: map[netip.Prefix]*addrEntry{}}
}

// pruneSteps is how many idle entries acquire looks at for one it adds.
const pruneSteps = 2

// acquire counts a handshake from the address key at time at and, unless
// a bound refuses it (the reason is returned), a connection open from it.
// release ends the connection.
func (t *addrTable) acquire(key netip.Prefix, at time.Time) (*addrEntry, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.m[key]
	if e == nil {
		t.prune(at)
		if t.l.MaxAddrs > 0 && len(t.m) >= t.l.MaxAddrs {
			back := t.idle.Back()
			if back == nil {
				return nil, refusedAddrs
			}
			t.drop(back.Value.(*addrEntry))
			t.metrics.AddressesEvicted.Inc()
		}
		e = &addrEntry{key: key, shakes: room.NewBudget(t.l.HandshakeRate, t.l.HandshakeBurst)}
		if t.l.AddrRate > 0 {
			e.msgs = room.NewBudget(t.l.AddrRate, t.l.AddrBurst)
		}
		t.m[key] = e
		e.idle = t.idle.PushFront(e)
		t.metrics.Addresses.Set(float64(len(t.m)))
	}
	if e.idle != nil {
		t.idle.MoveToFront(e.idle)
	}
	switch {
	case t.l.HandshakeRate > 0 && !e.shakes.Take(at):
		return nil, refusedHandshakes
	case t.l.MaxConnsPerAddr > 0 && e.conns >= t.l.MaxConnsPerAddr:
		return nil, refusedConnsPerAddr
	}
	if e.idle != nil {
		t.idle.Remove(e.idle)
		e.idle = nil
	}
	e.conns++
	return e, ""
}

// release ends a connection that acquire counted.
func (t *addrTable) release(e *addrEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e.conns--
	if e.conns == 0 {
		e.idle = t.idle.PushFront(e)
	}
}

// prune drops up to pruneSteps entries from the back of the idle list
// whose budgets have refilled by at; t.mu is held.
func (t *addrTable) prune(at time.Time) {
	for range pruneSteps {
		back := t.idle.Back()
		if back == nil {
			return
		}
		e := back.Value.(*addrEntry)
		if !e.shakes.Full(at) || (e.msgs != nil && !e.msgs.Full(at)) {
			return
		}
		t.drop(e)
	}
}

// drop forgets e, which has no connection open; t.mu is held.
func (t *addrTable) drop(e *addrEntry) {
	t.idle.Remove(e.idle)
	delete(t.m, e.key)
	t.metrics.Addresses.Set(float64(len(t.m)))
}

// size returns the number of addresses remembered.
func (t *addrTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// noteEvery is the least time between two log lines of one kind of event
// that may come in floods.
const noteEvery = 10 * time.Second

// notes logs events that may come in floods (connections refused or
// closed by a bound): the first of a kind at once, then at most one line
// of that kind every noteEvery, which says how many were not logged since
// the last one. The metrics count every one.
type notes struct {
	log   *slog.Logger
	mu    sync.Mutex
	kinds map[string]*noteKind
}

// noteKind is the state of one kind of note.
type noteKind struct {
	last    time.Time
	skipped int
}

// newNotes returns notes logged to log, or to nowhere when log is nil.
func newNotes(log *slog.Logger) *notes {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &notes{log: log, kinds: map[string]*noteKind{}}
}

// note logs msg with args as a warning, unless a note of the same kind was
// logged within noteEvery.
func (n *notes) note(kind, msg string, args ...any) {
	now := time.Now()
	n.mu.Lock()
	k := n.kinds[kind]
	if k == nil {
		k = &noteKind{}
		n.kinds[kind] = k
	}
	if !k.last.IsZero() && now.Sub(k.last) < noteEvery {
		k.skipped++
		n.mu.Unlock()
		return
	}
	skipped := k.skipped
	k.last, k.skipped = now, 0
	n.mu.Unlock()
	if skipped > 0 {
		args = append(args, "more_since_last_line", skipped)
	}
	n.log.Warn(msg, args...)
}
