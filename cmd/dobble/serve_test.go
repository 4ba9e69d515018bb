package main

import (
	"time"

	"context"
	"github.com/coder/websocket"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
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
	cfg, err := parseServe([]string{"--db", filepath.Join(t.TempDir(), "dobble.db")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- serve(ctx, ln, cfg, nil) }()
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
	if code != 200 || !strings.Contains(body, "<title>dobble</title>") {
		t.Fatalf("/: %d\n%s", code, body)
	}
	if code, _ := get("/no-such-page"); code != 404 {
		t.Fatalf("/no-such-page: %d", code)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "dobble_rooms 0") {
		t.Fatalf("/metrics: %d\n%s", code, body)
	}
	// A connected player is told the server is going away: status 1001.
	ws, _, err := websocket.Dial(t.Context(), "ws://"+ln.Addr().String()+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(t.Context(), websocket.MessageText, []byte(`{"type":"hello","v":1,"name":"ann"}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := ws.Read(t.Context()); err != nil || !strings.Contains(string(b), `"welcome"`) {
		t.Fatalf("hello answered with %s, %v", b, err)
	}
	// Read on, as a browser does, so the close handshake completes.
	readCtx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(readCtx); err != nil {
				ended <- err
				return
			}
		}
	}()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v after shutdown", err)
	}
	err = <-ended
	if got := websocket.CloseStatus(err); got != websocket.StatusGoingAway {
		t.Fatalf("the connection ended with %v (status %d), want 1001 going away", err, got)
	}
}

func TestServeBadAddress(t *testing.T) {
	code, out, errOut := runCLI(t, "", "serve", "--addr", "not-an-address")
	if code != 2 || out != "" || !strings.HasPrefix(errOut, "dobble: serve: cannot listen on not-an-address: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestServeBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--seat-hold", "0s"}, "dobble: serve: --seat-hold 0s: use a positive duration"},
		{[]string{"--max-rooms", "0"}, "dobble: serve: --max-rooms 0: use 1 or more"},
		{[]string{"--max-rooms", "2000000"}, "dobble: serve: max rooms 2000000: use 1 to 1000000"},
		{[]string{"--lockout", "9000"}, "dobble: serve: lock-out 9000 ms: use 0 to 5000"},
		{[]string{"--db", ""}, "dobble: serve: --db is empty"},
		{[]string{"--conn-queue", "x"}, "dobble: serve: invalid value"},
		{[]string{"extra"}, `dobble: serve: unexpected argument "extra"`},
		{[]string{"--pprof", "0.0.0.0:6060"}, `dobble: serve: --pprof "0.0.0.0:6060": use a loopback address and port`},
		{[]string{"--pprof", "6060"}, `dobble: serve: --pprof "6060": use a loopback address and port`},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"serve"}, tc.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	t.Setenv("DOBBLE_SEAT_HOLD", "soon")
	code, _, errOut := runCLI(t, "", "serve")
	if code != 2 || !strings.HasPrefix(errOut, `dobble: serve: DOBBLE_SEAT_HOLD="soon": not a duration`) {
		t.Errorf("bad env: exit %d, stderr %q", code, errOut)
	}
}

func TestServeHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "serve", "--help")
	for _, want := range []string{"-addr", "DOBBLE_ADDR", "-db", "-seat-hold", "-max-rooms", "-max-conns", "-room-queue", "-conn-queue", "-lockout", "-rate"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("serve --help: exit %d, missing %q:\n%s", code, want, out)
		}
	}
}

func TestServeCorruptDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(db, []byte(strings.Repeat("this is not a database\n", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", db)
	if code != 1 || out != "" || !strings.Contains(errOut, "is not a dobble database or is corrupt") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
