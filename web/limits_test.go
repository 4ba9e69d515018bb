package web

import (
	"net/http"
	"net/netip"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/room"
)

func TestAddrKeyIsTheAddressOrItsSlash64(t *testing.T) {
	for _, tc := range []struct{ addr, key string }{
		{"192.0.2.7", "192.0.2.7/32"},
		{"::ffff:192.0.2.7", "192.0.2.7/32"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::ffff", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
	} {
		if got := addrKey(netip.MustParseAddr(tc.addr)).String(); got != tc.key {
			t.Errorf("addrKey(%s) = %s; want %s", tc.addr, got, tc.key)
		}
	}
}

func TestParseNets(t *testing.T) {
	nets, err := ParseNets(" 10.1.2.3/8, ::1 ,192.0.2.1,fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatNets(nets); got != "10.0.0.0/8,::1/128,192.0.2.1/32,fd00::/8" {
		t.Fatalf("ParseNets: %s", got)
	}
	for _, s := range []string{"", "none"} {
		if nets, err := ParseNets(s); err != nil || nets != nil {
			t.Errorf("ParseNets(%q) = %v, %v; want none", s, nets, err)
		}
	}
	if _, err := ParseNets("10.0.0.0/8,localhost"); err == nil {
		t.Error("a host name was taken for a network")
	}
	if got := FormatNets(DefaultLimits().Exempt); got != "127.0.0.0/8,::1/128" {
		t.Errorf("the default exempt networks: %s", got)
	}
}

// TestClientAddrBelievesOnlyTrustedProxies reads the client's address of
// requests from a trusted proxy and from others: X-Forwarded-For is read
// from the right, past the trusted proxies, and only when the peer is one.
func TestClientAddrBelievesOnlyTrustedProxies(t *testing.T) {
	trusted, _ := ParseNets("10.0.0.0/8")
	for _, tc := range []struct {
		peer string
		xff  []string
		want string
	}{
		{"192.0.2.1:5000", nil, "192.0.2.1"},
		{"192.0.2.1:5000", []string{"203.0.113.9"}, "192.0.2.1"}, // not a proxy: its header is ignored
		{"10.0.0.1:5000", nil, "10.0.0.1"},
		{"10.0.0.1:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"10.0.0.1:5000", []string{"198.51.100.1, 203.0.113.9"}, "203.0.113.9"},           // the left one may be forged
		{"10.0.0.1:5000", []string{"198.51.100.1, 203.0.113.9, 10.0.0.2"}, "203.0.113.9"}, // past a second proxy
		{"10.0.0.1:5000", []string{"198.51.100.1", "203.0.113.9"}, "203.0.113.9"},         // in two headers
		{"10.0.0.1:5000", []string{"[2001:db8::1]:443"}, "2001:db8::1"},
		{"[::ffff:10.0.0.1]:5000", []string{"2001:db8::1"}, "2001:db8::1"},
		{"10.0.0.1:5000", []string{"unknown"}, "10.0.0.1"},
		{"10.0.0.1:5000", []string{"203.0.113.9, garbage"}, "10.0.0.1"},
	} {
		r := &http.Request{RemoteAddr: tc.peer, Header: http.Header{}}
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		a, ok := clientAddr(r, trusted)
		if !ok || a.String() != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %v %v; want %s", tc.peer, tc.xff, a, ok, tc.want)
		}
	}
}

// TestAddressTableKeepsToItsSize fills a table of 3 addresses: with
// every address holding a connection a fourth is refused; once one has
// none, it is forgotten for the fourth, and counted; an address whose
// budgets have refilled is forgotten as soon as another comes.
func TestAddressTableKeepsToItsSize(t *testing.T) {
	reg := metrics.NewRegistry()
	metrics := room.NewMetrics(reg)
	tab := newAddrTable(Limits{MaxAddrs: 3, HandshakeRate: 1, HandshakeBurst: 2, AddrRate: 10, AddrBurst: 10}, metrics)
	now := time.Unix(1e9, 0)
	key := func(i int) netip.Prefix { return addrKey(netip.AddrFrom4([4]byte{192, 0, 2, byte(i)})) }
	var held []*addrEntry
	for i := range 3 {
		e, why := tab.acquire(key(i), now)
		if e == nil {
			t.Fatalf("address %d: refused, %s", i, why)
		}
		held = append(held, e)
	}
	if e, why := tab.acquire(key(3), now); e != nil || why != refusedAddrs {
		t.Fatalf("a fourth address with three holding connections: %v %q; want refused, %s", e, why, refusedAddrs)
	}
	tab.release(held[1])
	if e, _ := tab.acquire(key(3), now); e == nil {
		t.Fatal("a fourth address once one had no connection: refused")
	}
	if n := gathered(t, reg, "dobble_addresses_evicted_total"); n != 1 {
		t.Fatalf("addresses evicted: %v; want 1", n)
	}
	if _, ok := tab.m[key(1)]; ok {
		t.Fatal("the address without connections was kept")
	}
	// An address whose budgets have refilled holds nothing: it goes
	// first, without counting as evicted.
	tab.release(held[0])
	later := now.Add(10 * time.Second)
	if e, _ := tab.acquire(key(5), later); e == nil {
		t.Fatal("an address after one had refilled: refused")
	}
	if n := gathered(t, reg, "dobble_addresses_evicted_total"); n != 1 || tab.size() != 3 {
		t.Fatalf("addresses evicted: %v, kept %d; want 1 and 3", n, tab.size())
	}
}

// gathered returns the value of the counter or gauge called name in reg.
func gathered(t *testing.T, reg *metrics.Registry, name string) float64 {
	t.Helper()
	for _, mf := range reg.Gather() {
		if mf.Name == name {
			return mf.Series[0].Value
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// TestAddressTableMemory measures the memory of a full table of the
// default size, and logs it.
func TestAddressTableMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("measures a table of 100,000 addresses")
	}
	l := DefaultLimits()
	tab := newAddrTable(l, room.NewMetrics(metrics.NewRegistry()))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	now := time.Now()
	for i := range l.MaxAddrs {
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		e, _ := tab.acquire(addrKey(a), now)
		tab.release(e)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / float64(tab.size())
	t.Logf("%d addresses: %.0f bytes each, %.1f MB in all", tab.size(), per, per*float64(tab.size())/1e6)
	runtime.KeepAlive(tab)
}

// TestForwardedClientsBehindATrustedProxy connects through a proxy the
// server trusts (the test, from 127.0.0.1), whose clients may hold one
// connection each: two clients of one IPv6 /64 share that one, a client
// of another /64 has its own, and a client that forges X-Forwarded-For
// without being trusted is counted by its own address.
func TestForwardedClientsBehindATrustedProxy(t *testing.T) {
	trusted, _ := ParseNets("127.0.0.1")
	ts := startLimited(t, fastConfig(), 100, Limits{MaxConnsPerAddr: 1, TrustedProxies: trusted})
	from := func(client string) int {
		rc, status := hostile(t, ts.url, "127.0.0.1", helloFrame, "X-Forwarded-For: 198.51.100.7, "+client)
		if rc != nil {
			t.Cleanup(func() { rc.c.Close() })
		}
		return status
	}
	for i, tc := range []struct {
		client string
		want   int
	}{
		{"2001:db8:0:1::1", 101},
		{"2001:db8:0:1::2", 429},
		{"2001:db8:0:2::1", 101},
		{"192.0.2.1", 101},
		{"192.0.2.1", 429},
	} {
		if got := from(tc.client); got != tc.want {
			t.Fatalf("%d: client %s behind the proxy: HTTP %d; want %d", i, tc.client, got, tc.want)
		}
	}

	untrusting := startLimited(t, fastConfig(), 100, Limits{MaxConnsPerAddr: 1})
	for i := range 2 {
		rc, status := hostile(t, untrusting.url, "127.0.0.1", helloFrame, "X-Forwarded-For: 192.0.2."+strconv.Itoa(i))
		if want := []int{101, 429}[i]; status != want {
			t.Fatalf("forged X-Forwarded-For %d: HTTP %d; want %d", i, status, want)
		}
		if rc != nil {
			t.Cleanup(func() { rc.c.Close() })
		}
	}
}
