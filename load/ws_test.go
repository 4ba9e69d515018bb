package load

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/gobwas/ws"
)

// TestWSConn talks to a server built on a general WebSocket library: the
// client's frames arrive masked and whole, it reads fragmented messages,
// answers the server's pings, and reports the status and reason of the
// server's close.
func TestWSConn(t *testing.T) {
	errc := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			errc <- err
			return
		}
		errc <- func() error {
			ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
			defer cancel()
			typ, b, err := c.Read(ctx)
			if err != nil || typ != websocket.MessageText || string(b) != `{"type":"hello"}` {
				return errors.New("the server read " + string(b))
			}
			// A message in three frames, a ping answered while the client
			// reads, then a close.
			mw, err := c.Writer(ctx, websocket.MessageText)
			if err != nil {
				return err
			}
			for _, part := range []string{`{"type":`, `"welcome"`, `}`} {
				if _, err := mw.Write([]byte(part)); err != nil {
					return err
				}
			}
			if err := mw.Close(); err != nil {
				return err
			}
			go c.Read(ctx) // reads the pong, and the client's answer to the close
			if err := c.Ping(ctx); err != nil {
				return err
			}
			return c.Close(websocket.StatusPolicyViolation, "slow consumer: testing")
		}()
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var d net.Dialer
	w, err := dialWS(ctx, d.DialContext, "ws://"+strings.TrimPrefix(srv.URL, "http://")+"/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if err := w.write(ws.OpText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	b, err := w.read(nil)
	if err != nil || string(b) != `{"type":"welcome"}` {
		t.Fatalf("read %q, %v", b, err)
	}
	_, err = w.read(b[:0])
	var ce *closeError
	if !errors.As(err, &ce) || ce.code != 1008 || ce.reason != "slow consumer: testing" {
		t.Fatalf("after the close: %v", err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}

	// A server that refuses the upgrade.
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "full", http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	_, err = dialWS(ctx, d.DialContext, "ws://"+strings.TrimPrefix(busy.URL, "http://")+"/ws")
	if s, ok := errors.AsType[ws.StatusError](err); !ok || s != http.StatusServiceUnavailable {
		t.Fatalf("dialing a server that answers 503: %v", err)
	}
}
