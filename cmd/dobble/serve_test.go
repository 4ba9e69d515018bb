package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestServe starts the server on a free loopback port, fetches the home page
// and the health check over real HTTP, then stops it and checks that it
// shut down cleanly.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()

	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get("/healthz"); code != 200 || body != "ok\n" {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	code, body := get("/")
	if code != 200 || !strings.Contains(body, "<h1>dobble</h1>") || !strings.Contains(body, "Dobble Beach: 55 cards × 8 beach symbols") {
		t.Fatalf("/: %d\n%s", code, body)
	}
	if code, _ := get("/no-such-page"); code != 404 {
		t.Fatalf("/no-such-page: %d", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v after shutdown", err)
	}
}

func TestServeBadAddress(t *testing.T) {
	code, out, errOut := runCLI(t, "", "serve", "--addr", "not-an-address")
	if code != 2 || out != "" || !strings.HasPrefix(errOut, "dobble: serve: cannot listen on not-an-address: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
