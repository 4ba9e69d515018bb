package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobwas/ws"
)

// haproxyConfig is deploy/haproxy.cfg as scripts/cluster rewrites it: the
// lines marked "cluster:" set to the front port and the nodes given.
func haproxyConfig(t *testing.T, front string, nodes ...string) string {
	t.Helper()
	b, err := os.ReadFile("../../deploy/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	servers := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.Contains(line, "# cluster: servers"):
			if !servers {
				for i, n := range nodes {
					out = append(out, fmt.Sprintf("\tserver node%d %s check", i+1, n))
				}
				servers = true
			}
		case strings.Contains(line, "# cluster: bind"):
			out = append(out, "\tbind "+front)
		case strings.Contains(line, "# cluster: maxconn"):
			out = append(out, "\tmaxconn 1000")
		default:
			out = append(out, line)
		}
	}
	if !servers {
		t.Fatal("deploy/haproxy.cfg has no line marked \"# cluster: servers\"")
	}
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startHAProxy runs HAProxy with deploy/haproxy.cfg in front of nodes and
// returns its front address, once it answers /healthz through a node.
func startHAProxy(t *testing.T, nodes ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	front := ln.Addr().String()
	ln.Close()
	cfg := haproxyConfig(t, front, nodes...)
	if out, err := exec.Command("haproxy", "-c", "-q", "-f", cfg).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	cmd := exec.Command("haproxy", "-db", "-f", cfg)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + front + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return front
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("HAProxy did not answer /healthz through a node in 30 s (%v); its log:\n%s", err, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHAProxy runs deploy/haproxy.cfg in front of a real dobble server
// that trusts it (--trusted-proxies) and bounds each address to one
// WebSocket: WebSockets go through the proxy and play, and the server
// bounds the players by the address the proxy forwards, not by the
// proxy's own.
func TestHAProxy(t *testing.T) {
	url, _ := startServe(t, "--trusted-proxies", "127.0.0.1", "--exempt", "none", "--max-conns-per-addr", "1")
	node := strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/ws")
	front := startHAProxy(t, node)

	dial := func(from string) error {
		d := ws.Dialer{Header: ws.HandshakeHeaderHTTP(http.Header{"X-Forwarded-For": {from}}), Timeout: 10 * time.Second}
		conn, _, _, err := d.Dial(context.Background(), "ws://"+front+"/ws")
		if err == nil {
			t.Cleanup(func() { conn.Close() })
		}
		return err
	}
	if err := dial("203.0.113.1"); err != nil {
		t.Fatalf("a WebSocket through the proxy: %v", err)
	}
	if err := dial("203.0.113.1"); err == nil {
		t.Errorf("a second WebSocket from 203.0.113.1 was let in: the node did not count the forwarded address")
	}
	if err := dial("203.0.113.2"); err != nil {
		t.Errorf("a WebSocket from another address was refused: %v (the node counts the proxy's address)", err)
	}
}

// TestHAProxyHeaders checks what deploy/haproxy.cfg sends a node: the
// player's address appended to X-Forwarded-For, after what the player
// sent.
func TestHAProxyHeaders(t *testing.T) {
	var mu sync.Mutex
	var forwarded []string
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			w.Write([]byte("ok\n"))
			return
		}
		mu.Lock()
		forwarded = r.Header.Values("X-Forwarded-For")
		mu.Unlock()
	}))
	defer node.Close()
	front := startHAProxy(t, strings.TrimPrefix(node.URL, "http://"))
	req, _ := http.NewRequest("GET", "http://"+front+"/rooms", nil)
	req.Header.Set("X-Forwarded-For", "198.51.100.7")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(forwarded, ", "); resp.StatusCode != http.StatusOK || got != "198.51.100.7, 127.0.0.1" {
		t.Errorf("%s, X-Forwarded-For %q; want the player's own, then its address as the proxy saw it", resp.Status, got)
	}
}

// TestHAProxyHealth checks the health checks of deploy/haproxy.cfg on a
// node answering /healthz as dobble does: a node whose 503 says only that
// finished games cannot be stored (PostgreSQL away, for every node) stays
// in; one whose 503 says anything else (cut off from NATS) is taken out.
// The words matched are those web/server.go writes.
func TestHAProxyHealth(t *testing.T) {
	src, err := os.ReadFile("../../web/server.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range []string{`"finished games cannot be stored since`, `info["status"] = "ok"`, `w.Write([]byte("ok\n"))`} {
		if !strings.Contains(string(src), words) {
			t.Fatalf("web/server.go no longer writes %s in /healthz, which deploy/haproxy.cfg's health check matches", words)
		}
	}
	var mu sync.Mutex
	state, checks := "ok", 0
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/healthz" {
			return
		}
		checks++
		switch state {
		case "ok":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"connected":true,"node":"n1","status":"ok"}`))
		case "store":
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"finished games cannot be stored since 2026-01-01T00:00:00Z: connection refused (3 failed tries; 2 games waiting to be stored, 0 lost)","lost":0,"since":"2026-01-01T00:00:00Z","waiting":2}`))
		case "nats":
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"connected":false,"error":"cut off from NATS since 2026-01-01T00:00:00Z","node":"n1"}`))
		}
	}))
	defer node.Close()
	front := startHAProxy(t, strings.TrimPrefix(node.URL, "http://"))
	status := func() int {
		resp, err := http.Get("http://" + front + "/rooms")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	// waitChecks waits until n more checks have been answered.
	waitChecks := func(n int) {
		mu.Lock()
		want := checks + n
		mu.Unlock()
		deadline := time.Now().Add(30 * time.Second)
		for {
			mu.Lock()
			c := checks
			mu.Unlock()
			if c >= want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d health checks in 30 s; want %d", c, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	mu.Lock()
	state = "store"
	mu.Unlock()
	waitChecks(5)
	if got := status(); got != http.StatusOK {
		t.Fatalf("a node failing only to store games was taken out: %d", got)
	}
	mu.Lock()
	state = "nats"
	mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for status() != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("a node cut off from NATS is still in after 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
