package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/room"
)

// tower is the room the tests play: a Tower between two seats, one game.
var tower = msg{"game": "tower", "seats": 2, "games": 1}

// TestTowerAcrossNodes plays a Tower to the end between a host on the
// room's node and a player on another, watched by a spectator on a third.
func TestTowerAcrossNodes(t *testing.T) {
	c := newCluster(t)
	a, b, s := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil), c.start("c", fastRooms(), nil)
	host, guest, code := c.across(a, b, tower)
	if guest.seat != 1 || guest.token == "" {
		t.Fatalf("the guest joined through another node at seat %d, token %q; want seat 1 and a token", guest.seat, guest.token)
	}
	fan := s.connect("fan")
	fan.enter(msg{"type": "watch", "room": code})
	if fan.seat != -1 {
		t.Fatalf("the spectator has seat %d", fan.seat)
	}
	if n := value(a.metrics.RemotePeers); n != 2 {
		t.Fatalf("the room's node holds %v remote peers, want 2", n)
	}
	if value(b.metrics.Routed) != 1 || value(s.metrics.Routed) != 1 {
		t.Fatalf("routed connections: %v on b, %v on c; want 1 and 1", value(b.metrics.Routed), value(s.metrics.Routed))
	}
	host.send(msg{"type": "start"})
	var chans []<-chan msg
	for _, cl := range []*client{host, guest, fan} {
		chans = append(chans, cl.playAsync())
	}
	var finals []msg
	for _, ch := range chans {
		finals = append(finals, wait(t, ch))
	}
	if t.Failed() {
		return
	}
	for i, f := range finals {
		res, _ := f["result"].(map[string]any)
		if res == nil || len(res["winners"].([]any)) == 0 {
			t.Fatalf("client %d: over without a result: %v", i, f)
		}
		if got, want := sessionOf(f).num("played"), 1; got != want {
			t.Fatalf("client %d: %d games played, want %d", i, got, want)
		}
	}
	if w0, w1 := finals[0]["result"].(map[string]any)["winners"], finals[1]["result"].(map[string]any)["winners"]; len(w0.([]any)) != len(w1.([]any)) {
		t.Fatalf("the host and the guest saw different winners: %v, %v", w0, w1)
	}
	if value(b.metrics.Frames.WithLabelValues("to_owner")) < 2 || value(a.metrics.Frames.WithLabelValues("to_entry")) < 10 {
		t.Fatalf("frames relayed: %v to the owner from b, %v to the entries from a",
			value(b.metrics.Frames.WithLabelValues("to_owner")), value(a.metrics.Frames.WithLabelValues("to_entry")))
	}
	guest.c.CloseNow()
	fan.c.CloseNow()
	eventually(t, "the room's node forgets the remote peers of closed connections", func() bool {
		return value(a.metrics.RemotePeers) == 0 && value(b.metrics.Routed) == 0 && value(s.metrics.Routed) == 0
	})
}

// TestLeaveThenCreateHere lets a routed connection go when it leaves its
// room: its next create opens the room on its own node, and its next
// join routes again.
func TestLeaveThenCreateHere(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil)
	_, guest, code := c.across(a, b, msg{"game": "tower", "seats": 3, "games": 1})
	guest.send(msg{"type": "leave"})
	guest.expect("closed")
	eventually(t, "the room's node forgets the guest", func() bool { return value(a.metrics.RemotePeers) == 0 })
	mine := guest.create(tower)
	if b.m.Get(mine) == nil || a.m.Get(mine) != nil {
		t.Fatalf("room %s, created by a connection of b after it left a room of a, is not b's", mine)
	}
	guest.send(msg{"type": "leave"})
	guest.expect("closed")
	guest.enter(msg{"type": "join", "room": code})
	if guest.room != code || value(a.metrics.RemotePeers) != 1 {
		t.Fatalf("joined %s again, with %v remote peers on its node", guest.room, value(a.metrics.RemotePeers))
	}
}

// TestResumeThroughAnotherNode takes a seat back through a third node
// after the connection that held it, through a second, dropped, and plays
// the game to the end.
func TestResumeThroughAnotherNode(t *testing.T) {
	c := newCluster(t)
	a, b, s := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil), c.start("c", fastRooms(), nil)
	host, guest, code := c.across(a, b, tower)
	guest.c.CloseNow()
	eventually(t, "the room's node takes the guest for gone", func() bool { return value(a.metrics.RemotePeers) == 0 })
	again := s.connect("guest")
	again.enter(msg{"type": "resume", "room": code, "token": guest.token})
	if again.seat != 1 {
		t.Fatalf("resumed seat %d, want 1", again.seat)
	}
	host.send(msg{"type": "start"})
	h, g := host.playAsync(), again.playAsync()
	wait(t, h)
	wait(t, g)
}

// TestEntryNodeDies: the owner takes the connections of an entry node
// that went silent for gone, holding their seats, which they resume
// through another node.
func TestEntryNodeDies(t *testing.T) {
	c := newCluster(t)
	a, b, s := c.start("a", fastRooms(), quick), c.start("b", fastRooms(), nil), c.start("c", fastRooms(), nil)
	host, guest, code := c.across(a, b, tower)
	// b dies: its NATS connection and its players' sockets drop at once,
	// and it tells the owner nothing.
	b.nc.Close()
	guest.c.CloseNow()
	eventually(t, "the owner takes the silent entry node's connection for gone", func() bool {
		return value(a.metrics.RemotePeers) == 0 && value(a.metrics.Errors.WithLabelValues(errEntryLost)) == 1
	})
	// The room holds the seat for its player, as for a dropped connection.
	waitGuestHeld(host)
	again := s.connect("guest")
	again.enter(msg{"type": "resume", "room": code, "token": guest.token})
	if again.seat != 1 {
		t.Fatalf("resumed seat %d, want 1", again.seat)
	}
}

// TestOwnerDies closes with 1012 the connections routed to a node that
// went silent, so that the browser reconnects and resumes.
func TestOwnerDies(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), quick)
	_, guest, _ := c.across(a, b, tower)
	a.nc.Close()
	ownerLost(t, b, guest, "the silent owner")
}

// ownerLost checks what the entry node b does with guest's connection
// once the room's node, owner, is lost: it closes the connection with
// 1012 and a word to resume, counts the loss once, and forgets the
// connection.
func ownerLost(t *testing.T, b *node, guest *client, owner string) {
	t.Helper()
	if code, reason := guest.waitClosed(); code != room.StatusRestart || !strings.Contains(reason, "resume") {
		t.Fatalf("closed with %d %q, want 1012 and a word to resume", code, reason)
	}
	if value(b.metrics.Errors.WithLabelValues(errOwnerLost)) != 1 {
		t.Fatalf("%s is not counted", owner)
	}
	eventually(t, "the entry node forgets the connection", func() bool { return value(b.metrics.Routed) == 0 })
}

// TestOwnerChanged closes with 1012 the connections routed to a room that
// another node took over.
func TestOwnerChanged(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil)
	_, guest, code := c.across(a, b, tower)
	c.put(code, c.prefix+"-elsewhere")
	if code, _ := guest.waitClosed(); code != room.StatusRestart {
		t.Fatalf("closed with %d, want 1012", code)
	}
	if value(b.metrics.Errors.WithLabelValues(errOwnerChanged)) != 1 {
		t.Fatal("the room's move is not counted")
	}
}

// TestNoSuchRoom answers noRoom for the codes no node holds, whatever the
// code, and closes with 1012 a connection to a room whose node does not
// answer.
func TestNoSuchRoom(t *testing.T) {
	c := newCluster(t)
	b := c.start("b", fastRooms(), nil)
	cl := b.connect("someone")
	for _, code := range []string{"ZZZZZZZZ", "a.b.>", "", strings.Repeat("A", 100)} {
		cl.send(msg{"type": "join", "room": code})
		cl.expectError("noRoom")
	}
	// The directory names b for a room it does not hold (yet, or any
	// more).
	c.put("BBBBBBBB", b.name)
	cl.send(msg{"type": "watch", "room": "BBBBBBBB"})
	cl.expectError("busy")
	back := b.connect("back")
	back.send(msg{"type": "resume", "room": "BBBBBBBB", "token": strings.Repeat("0", 32)})
	if code, _ := back.waitClosed(); code != room.StatusRestart {
		t.Fatalf("a resume of a room the directory gives this node, not restored: closed with %d, want 1012", code)
	}
	// The directory names a node that is not there (yet).
	c.put("CCCCCCCC", c.prefix+"-nowhere")
	cl.send(msg{"type": "join", "room": "CCCCCCCC"})
	if code, _ := cl.waitClosed(); code != room.StatusRestart {
		t.Fatalf("closed with %d, want 1012", code)
	}
	if value(b.metrics.Errors.WithLabelValues(errNoResponders)) != 1 {
		t.Fatal("the node that does not answer is not counted")
	}
	if value(b.metrics.Routed) != 0 {
		t.Fatal("a connection that was not routed is counted")
	}
}

// TestMaxRemotePeers refuses a connection from another node beyond the
// owner's bound, with serverFull; the connection stays open.
func TestMaxRemotePeers(t *testing.T) {
	c := newCluster(t)
	a := c.start("a", fastRooms(), func(cfg *Config) { cfg.MaxRemote = 1 })
	b := c.start("b", fastRooms(), nil)
	host := a.connect("host")
	code := host.create(msg{"game": "tower", "seats": 3, "games": 1})
	c.own(code, a)
	first := b.connect("first")
	first.enter(msg{"type": "join", "room": code})
	second := b.connect("second")
	second.send(msg{"type": "join", "room": code})
	if m := second.expectError("serverFull"); !strings.Contains(m.str("message"), "--max-remote-peers 1") {
		t.Fatalf("refusal %v does not name the bound", m)
	}
	if value(a.metrics.RemotePeers) != 1 || value(a.metrics.Errors.WithLabelValues(errRefused)) != 1 || value(b.metrics.Routed) != 1 {
		t.Fatalf("remote peers %v, refusals %v, routed %v; want 1, 1, 1", value(a.metrics.RemotePeers),
			value(a.metrics.Errors.WithLabelValues(errRefused)), value(b.metrics.Routed))
	}
	second.send(msg{"type": "ping"})
	second.expect("pong")
	first.c.CloseNow()
	eventually(t, "the bound frees a place", func() bool { return value(a.metrics.RemotePeers) == 0 })
	second.enter(msg{"type": "join", "room": code})
}

// TestOwnerBoundsRemotePeers holds a flood that another node lets through
// (its rate limit is generous) at the room's node, which refuses it for
// its own rate limit and closes the connection for a flood.
func TestOwnerBoundsRemotePeers(t *testing.T) {
	c := newCluster(t)
	strict := fastRooms()
	strict.Rate, strict.Burst, strict.FloodLimit = 1, 5, 3
	a, b := c.start("a", strict, nil), c.start("b", fastRooms(), nil)
	_, guest, _ := c.across(a, b, tower)
	// The server may close the connection before the last of them.
	for range 40 {
		if guest.try(msg{"type": "ping"}) != nil {
			break
		}
	}
	guest.expectError("rateLimited")
	if code, reason := guest.waitClosed(); code != websocket.StatusPolicyViolation || !strings.HasPrefix(reason, "flood") {
		t.Fatalf("closed with %d %q, want 1008 for a flood", code, reason)
	}
}

// TestCutOff closes with 1012 the routed connections of a node that lost
// NATS, which /healthz reports.
func TestCutOff(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil)
	if code, body := b.get("/healthz"); code != 200 {
		t.Fatalf("healthz %d %s", code, body)
	}
	_, guest, code := c.across(a, b, tower)
	b.nc.Close()
	if code, reason := guest.waitClosed(); code != room.StatusRestart || !strings.Contains(reason, "resume") {
		t.Fatalf("closed with %d %q, want 1012 and a word to resume", code, reason)
	}
	if value(b.metrics.Errors.WithLabelValues(errDisconnected)) != 1 {
		t.Fatal("the lost connection is not counted")
	}
	status, body := b.get("/healthz")
	if status != 503 || !strings.Contains(body, "NATS") {
		t.Fatalf("healthz of a node without NATS: %d %s", status, body)
	}
	// Without NATS the directory cannot be read: a join is to try again,
	// a resume to reconnect, maybe to another node.
	other := b.connect("other")
	other.send(msg{"type": "join", "room": code})
	other.expectError("busy")
	back := b.connect("guest")
	back.send(msg{"type": "resume", "room": code, "token": guest.token})
	if code, _ := back.waitClosed(); code != room.StatusRestart {
		t.Fatalf("a resume without the directory: closed with %d, want 1012", code)
	}
}

// TestOwnerShutsDown: an owner shutting down closes its remote peers
// (1012: their rooms are kept for the next server) and forgets them once
// their close has gone, without waiting for their entry nodes to answer.
func TestOwnerShutsDown(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil)
	c.across(a, b, tower)
	// b says nothing more: its answer cannot be what a waits for.
	b.r.Close()
	a.m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.m.WaitGone(ctx); err != nil {
		t.Fatalf("the owner still holds a connection of another node after shutting down: %v", err)
	}
	if value(a.metrics.RemotePeers) != 0 {
		t.Fatalf("%v remote peers after the shutdown", value(a.metrics.RemotePeers))
	}
}

// TestRemoteRTT gives a remote Peer the round trip its entry node sent
// with a message, which the owner ranks its claims by; a missing, garbled
// or absurd one leaves the last estimate.
func TestRemoteRTT(t *testing.T) {
	p := room.NewPeer(1)
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"42000", 42 * time.Millisecond},
		{"x", 42 * time.Millisecond},
		{"-5", 42 * time.Millisecond},
		{"999999999999", 42 * time.Millisecond},
		{"150", 150 * time.Microsecond},
	} {
		msg := nats.NewMsg("x")
		if tc.header != "" {
			msg.Header.Set(HeaderRTT, tc.header)
		}
		setRTT(p, msg)
		if got := p.RTT(); got != tc.want {
			t.Errorf("after %s %q the remote Peer's round trip is %v, want %v", HeaderRTT, tc.header, got, tc.want)
		}
	}
}

// TestOwnerRestarts closes with 1012 the connections routed to a node
// that died and was started again under its name before it was taken for
// dead: its new run knows nothing of them, and its heartbeat goes on, so
// only the run it names tells the entry node that they lead nowhere. The
// test nodes take a node for dead after a minute, so that only the new
// run can close the connection in time.
func TestOwnerRestarts(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil)
	_, guest, code := c.across(a, b, tower)
	a.nc.Close()
	again := c.start("a", fastRooms(), nil)
	c.own(code, again)
	ownerLost(t, b, guest, "the restarted owner")
}

// waitGuestHeld reads the lobbies the host is sent until one shows the
// room's two seats with the guest's, seat 1, held for a person whose
// connection is gone.
func waitGuestHeld(host *client) {
	host.t.Helper()
	for {
		rm, _ := host.expect("lobby")["room"].(map[string]any)
		seats, _ := rm["seats"].([]any)
		if len(seats) == 2 {
			if g := msg(seats[1].(map[string]any)); g.str("kind") == "human" && g["connected"] == false {
				return
			}
		}
	}
}

// TestEntryRestarts lets go of the remote Peers of a node that died and
// was started again under its name before it was taken for dead: their
// seats are held for their players to resume, as a dead node's are.
func TestEntryRestarts(t *testing.T) {
	c := newCluster(t)
	a, b := c.start("a", fastRooms(), nil), c.start("b", fastRooms(), nil)
	host, guest, _ := c.across(a, b, tower)
	b.nc.Close()
	guest.c.CloseNow()
	c.start("b", fastRooms(), nil)
	eventually(t, "the owner lets the restarted entry node's connection go", func() bool {
		return value(a.metrics.RemotePeers) == 0 && value(a.metrics.Errors.WithLabelValues(errEntryLost)) == 1
	})
	waitGuestHeld(host)
}

// TestDialHidesCredentials checks that the error of a NATS server that
// cannot be reached does not show the user and password of its URL.
func TestDialHidesCredentials(t *testing.T) {
	m, err := room.NewManager(room.DefaultConfig(), nil, room.NewDecks(), room.NewMetrics(metrics.NewRegistry()), "relay-test")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Node = "n1"
	_, err = Dial("nats://dobble:s3cret@127.0.0.1:1", m, cfg, NewMetrics(metrics.NewRegistry()))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("Dial to a server that does not answer: %v; want an error without the URL's credentials", err)
	}
}
