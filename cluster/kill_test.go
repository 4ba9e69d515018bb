package cluster

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dobble-dev/dobble/internal/serveproc"
	"github.com/dobble-dev/dobble/protocol"
)

// serveNode is a `dobble serve --nats` process.
type serveNode struct {
	name string
	addr string // host:port it serves on
	cmd  *exec.Cmd
	done chan struct{}
	log  *serveproc.Tail
}

// startServe starts `dobble serve` as node name of the cluster on url,
// and waits until it serves; it is killed when the test ends.
func startServe(t *testing.T, bin, url, name string) *serveNode {
	t.Helper()
	s := &serveNode{name: name, done: make(chan struct{}), log: &serveproc.Tail{}}
	serving := make(chan string, 1)
	s.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), name+".db"),
		"--nats", url, "--node", name, "--countdown", "50ms")
	s.cmd.Stdout = serveproc.Serving(serving)
	s.cmd.Stderr = s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(s.kill)
	select {
	case s.addr = <-serving:
	case <-s.done:
		t.Fatalf("node %s ended before it served: %s", name, s.log)
	case <-time.After(wait):
		t.Fatalf("node %s did not serve within %v: %s", name, wait, s.log)
	}
	return s
}

// kill ends the process with SIGKILL and waits for it.
func (s *serveNode) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// metric returns the value of the series name (as /metrics writes it,
// labels and all) of the node, or -1 when /metrics has none.
func (s *serveNode) metric(name string) float64 {
	resp, err := http.Get("http://" + s.addr + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}

// dial connects a player to the node serving on addr over a WebSocket and
// says hello.
func dial(t *testing.T, addr, name string) *player {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	t.Cleanup(func() { ws.CloseNow() })
	frames, closed := make(chan []byte, 4096), make(chan struct{})
	pl := &player{t: t, name: name, frames: frames, closed: closed}
	pl.write = func(b []byte) { ws.Write(ctx, websocket.MessageText, b) }
	go func() {
		defer close(closed)
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			frames <- b
		}
	}()
	pl.send(`{"type": "hello", "v": 1, "name": %q}`, name)
	pl.take(protocol.MsgWelcome)
	return pl
}

// TestServeKilled runs three `dobble serve --nats` processes on one NATS
// and plays a Tower over WebSockets on one of them, which is then killed
// with SIGKILL: another node takes the room over, and the players, closed
// by the kill, resume their seats there at the version they last saw,
// every accepted move there, and play on.
func TestServeKilled(t *testing.T) {
	bin, err := serveproc.Build(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ns := startNATS(t)
	nodes := map[string]*serveNode{}
	for _, name := range []string{"n1", "n2", "n3"} {
		nodes[name] = startServe(t, bin, ns.URL(), name)
	}
	host := dial(t, nodes["n1"].addr, "host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	host.take(protocol.MsgJoined)
	guest := dial(t, nodes["n1"].addr, "guest")
	guest.send(`{"type": "join", "room": %q}`, host.code)
	guest.take(protocol.MsgJoined)
	host.send(`{"type": "start"}`)
	host.take(protocol.MsgState)
	guest.take(protocol.MsgState)
	owner(t, ns.URL(), host.code, "n1")
	v := play(t, 6, host, guest)

	killed := time.Now()
	nodes["n1"].kill()
	for _, pl := range []*player{host, guest} {
		select {
		case <-pl.closed:
		case <-time.After(wait):
			t.Fatalf("%s's connection is open %v after its node was killed", pl.name, wait)
		}
	}
	o := owner(t, ns.URL(), host.code, "")
	for o.Node == "n1" {
		o = owner(t, ns.URL(), host.code, "")
	}
	to := nodes[o.Node]
	poll(t, o.Node+" to count the takeover", func() bool { return to.metric("dobble_cluster_takeovers_total") == 1 })
	for _, pl := range []*player{host, guest} {
		seen := pl.acked
		if st := pl.resume(dial(t, to.addr, pl.name)); st.View.Version < seen || st.View.Version != v {
			t.Fatalf("%s resumed on %s at version %d; it had seen %d, the table was at %d", pl.name, o.Node, st.View.Version, seen, v)
		}
	}
	t.Logf("room %s moved from n1 to %s; its players were back in play %v after the kill", host.code, o.Node, time.Since(killed).Round(time.Millisecond))
	if v2 := play(t, 4, host, guest); v2 <= v {
		t.Fatalf("after the takeover the table went from %d to %d", v, v2)
	}
}
