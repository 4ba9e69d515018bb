package tcpproxy

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// backend starts a server named name: on /ws it upgrades to WebSocket,
// sends its name, then echoes every message; elsewhere it answers
// "plain " and its name. It returns its HOST:PORT.
func backend(t *testing.T, name string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws" {
			io.WriteString(w, "plain "+name)
			return
		}
		conn, _, _, err := ws.UpgradeHTTP(r, w)
		if err != nil {
			return
		}
		defer conn.Close()
		if wsutil.WriteServerText(conn, []byte(name)) != nil {
			return
		}
		for {
			msg, op, err := wsutil.ReadClientData(conn)
			if err != nil || wsutil.WriteServerMessage(conn, op, msg) != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// client is a WebSocket connection through the proxy.
type client struct {
	net.Conn
	r io.Reader
}

func (c *client) Read(b []byte) (int, error) { return c.r.Read(b) }

// dial connects to the proxy's /ws and returns the connection and the
// first message, the name of the backend it reached.
func dial(t *testing.T, p *Proxy) (*client, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, br, _, err := ws.Dial(ctx, "ws://"+p.Addr()+"/ws")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &client{Conn: conn, r: conn}
	if br != nil {
		c.r = io.MultiReader(br, conn)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	name, err := wsutil.ReadServerText(c)
	if err != nil {
		t.Fatal(err)
	}
	return c, string(name)
}

// TestProxy passes a plain HTTP answer and a WebSocket conversation
// through the proxy, switches its backend, and ends the connections: Cut
// without a close frame, CloseAll with its own.
func TestProxy(t *testing.T) {
	first, second := backend(t, "first"), backend(t, "second")
	p, err := New(first)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	resp, err := http.Get("http://" + p.Addr() + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(body) != "plain first" {
		t.Fatalf("plain HTTP through the proxy: %q, %v; want %q", body, err, "plain first")
	}

	c, name := dial(t, p)
	if name != "first" {
		t.Fatalf("reached %q; want first", name)
	}
	if err := wsutil.WriteClientText(c, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if msg, err := wsutil.ReadServerText(c); err != nil || string(msg) != "hello" {
		t.Fatalf("echo %q, %v; want hello", msg, err)
	}

	// A new backend serves the connections made from now on; the one made
	// stays with the first until it is cut, and is dropped without a
	// close frame.
	p.SetBackend(second)
	c2, name := dial(t, p)
	if name != "second" {
		t.Fatalf("after SetBackend reached %q; want second", name)
	}
	if err := wsutil.WriteClientText(c, []byte("again")); err != nil {
		t.Fatal(err)
	}
	if msg, err := wsutil.ReadServerText(c); err != nil || string(msg) != "again" {
		t.Fatalf("echo on the first backend after SetBackend: %q, %v", msg, err)
	}
	p.Cut()
	for i, c := range []*client{c, c2} {
		f, err := ws.ReadFrame(c)
		switch {
		case err == nil:
			t.Errorf("connection %d after Cut: a frame %v %q; want it dropped without a close frame", i, f.Header.OpCode, f.Payload)
		case errors.Is(err, os.ErrDeadlineExceeded):
			t.Errorf("connection %d still open after Cut", i)
		}
	}

	// CloseAll sends each client a close frame of its own.
	c3, _ := dial(t, p)
	p.CloseAll(ws.StatusCode(1012), "service restart")
	f, err := ws.ReadFrame(c3)
	if err != nil {
		t.Fatalf("after CloseAll: %v; want a close frame", err)
	}
	if code, reason := ws.ParseCloseFrameData(f.Payload); f.Header.OpCode != ws.OpClose || code != 1012 || reason != "service restart" {
		t.Errorf("after CloseAll: a frame %v, %d %q; want a close frame 1012 service restart", f.Header.OpCode, code, reason)
	}
	if _, err := ws.ReadFrame(c3); err == nil {
		t.Error("a frame after the close frame of CloseAll")
	}

	// Close stops listening.
	p.Close()
	if c, err := net.DialTimeout("tcp", p.Addr(), time.Second); err == nil {
		c.Close()
		t.Error("the proxy still listens after Close")
	}
}
