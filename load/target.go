package load

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// target is the server under load.
type target struct {
	ws      string     // the WebSocket URL to dial
	metrics string     // the URL of its Prometheus metrics
	addr    netip.Addr // its loopback address
}

// MaxServers is the most servers one run spreads its players over.
const MaxServers = 64

// parseTargets reads Config.URL: one URL or several, comma-separated,
// each checked by parseTarget. A server named twice is refused.
func parseTargets(urls string) ([]*target, error) {
	var ts []*target
	seen := map[string]bool{}
	for _, u := range strings.Split(urls, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			return nil, fmt.Errorf("--url %q: an empty URL; give one ws://127.0.0.1:PORT/ws or several, comma-separated", urls)
		}
		t, err := parseTarget(u)
		if err != nil {
			return nil, err
		}
		if seen[t.ws] {
			return nil, fmt.Errorf("--url %s: named twice; give each server once", t.ws)
		}
		seen[t.ws] = true
		ts = append(ts, t)
	}
	if len(ts) > MaxServers {
		return nil, fmt.Errorf("--url: %d servers; at most %d", len(ts), MaxServers)
	}
	return ts, nil
}

// parseTarget checks that u is a ws:// URL of a loopback address and
// returns the server it names; a URL without a path means /ws.
func parseTarget(u string) (*target, error) {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return nil, fmt.Errorf("--url %q: not a URL; use ws://127.0.0.1:PORT/ws", u)
	}
	if p.Scheme != "ws" {
		return nil, fmt.Errorf("--url %s: the scheme is %q; use ws://127.0.0.1:PORT/ws (the load runs only against a server on this machine)", u, p.Scheme)
	}
	if p.User != nil || p.RawQuery != "" || p.Fragment != "" {
		return nil, fmt.Errorf("--url %s: use ws://HOST:PORT/ws without user, query or fragment", u)
	}
	host, port := p.Hostname(), p.Port()
	if port == "" {
		return nil, fmt.Errorf("--url %s: no port; use ws://127.0.0.1:PORT/ws", u)
	}
	var addr netip.Addr
	if host == "localhost" {
		addr = netip.MustParseAddr("127.0.0.1")
	} else if addr, err = netip.ParseAddr(host); err != nil {
		return nil, fmt.Errorf("--url %s: %q is not a loopback address; the load runs only against this machine: use 127.0.0.1, ::1 or localhost", u, host)
	}
	addr = addr.Unmap()
	if !addr.IsLoopback() {
		return nil, fmt.Errorf("--url %s: %s is not a loopback address; the load runs only against this machine: use 127.0.0.1, ::1 or localhost", u, addr)
	}
	path := p.EscapedPath()
	if path == "" || path == "/" {
		path = "/ws"
	}
	hostport := net.JoinHostPort(addr.String(), port)
	return &target{ws: "ws://" + hostport + path, metrics: "http://" + hostport + "/metrics", addr: addr}, nil
}

// Metrics are the samples of a Prometheus text exposition, such as a
// server's /metrics, by series ("name" or "name{labels}").
type Metrics map[string]float64

// metrics is Metrics, as the package's own code names it.
type metrics = Metrics

// scrape fetches and parses the server's metrics at u, within 30 s.
func scrape(ctx context.Context, client *http.Client, u string) (metrics, error) {
	return Scrape(ctx, client, u, 30*time.Second)
}

// Scrape fetches the Prometheus text exposition at u (a server's
// /metrics) with client, within timeout, and returns its samples.
func Scrape(ctx context.Context, client *http.Client, u string, timeout time.Duration) (Metrics, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metrics: %s answered %s", u, resp.Status)
	}
	m := metrics{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		m[line[:i]] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	return m, nil
}

// Sum adds up every series of the metric called name.
func (m Metrics) Sum(name string) float64 {
	var s float64
	for k, v := range m {
		if k == name || strings.HasPrefix(k, name+"{") {
			s += v
		}
	}
	return s
}

// memory returns the server's memory: its resident set when the metrics
// have it, else what the Go runtime holds for heap and stacks.
func (m metrics) memory() float64 {
	if v, ok := m["process_resident_memory_bytes"]; ok {
		return v
	}
	return m["go_memstats_heap_inuse_bytes"] + m["go_memstats_stack_inuse_bytes"]
}
