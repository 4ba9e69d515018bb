package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
)

// TestTakeOver plays a Tower on node a of three, then crashes a: its room
// moves to one of the two others, which replays it from the stream; the
// players resume there with their tokens at the version they last saw,
// every accepted move there, and play on.
func TestTakeOver(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a")
	nodes := map[string]*testNode{"b": startNode(t, ns.URL(), "b"), "c": startNode(t, ns.URL(), "c")}
	host, guest := game(t, a)
	if o := owner(t, ns.URL(), host.code, "a"); o.Journal == "" {
		t.Fatalf("the directory's value for room %s names no journal: %+v", host.code, o)
	}
	v := play(t, 6, host, guest)

	crashed := time.Now()
	a.crash()
	o := owner(t, ns.URL(), host.code, "")
	for o.Node == "a" {
		o = owner(t, ns.URL(), host.code, "")
	}
	to := nodes[o.Node]
	poll(t, "the room to open on "+o.Node, func() bool { return to.m.Get(host.code) != nil })
	t.Logf("room %s moved from a to %s %v after a crashed", host.code, o.Node, time.Since(crashed).Round(time.Millisecond))
	if got := to.counter("dobble_cluster_takeovers_total", ""); got != 1 {
		t.Errorf("%s counts %v takeovers, want 1", o.Node, got)
	}
	for _, pl := range []*player{host, guest} {
		seen := pl.acked
		st := pl.resume(connect(t, to.m, pl.name))
		if st.View == nil || st.View.Version < seen {
			t.Fatalf("%s resumed on %s at version %v; it had seen %d", pl.name, o.Node, st.View.Version, seen)
		}
		if st.View.Version != v {
			t.Fatalf("%s resumed at version %d, the table was at %d", pl.name, st.View.Version, v)
		}
	}
	if v2 := play(t, 4, host, guest); v2 <= v {
		t.Fatalf("after the takeover the table went from %d to %d", v, v2)
	}
}

// TestCodeTaken checks that a room's code is claimed once in the
// cluster: a second claim of it fails with room.ErrCodeTaken, and the
// code is free again once the room ends.
func TestCodeTaken(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a")
	b := startNode(t, ns.URL(), "b")
	host := connect(t, a.m, "host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	host.take(protocol.MsgJoined)
	o := owner(t, ns.URL(), host.code, "a")
	if err := b.n.Claim(host.code, host.code+"/x"); err == nil || !errorsIs(err, room.ErrCodeTaken) {
		t.Fatalf("claiming room %s on b: %v, want ErrCodeTaken", host.code, err)
	}
	if got := a.counter("dobble_cluster_leases", ""); got != 1 {
		t.Fatalf("a holds %v leases, want 1", got)
	}
	// The host leaves: the room ends, its journal is dropped and its key
	// deleted.
	host.send(`{"type": "leave"}`)
	poll(t, "the room's lease to be given back", func() bool { return a.counter("dobble_cluster_leases", "") == 0 })
	if err := b.n.Claim(host.code, o.Journal+"-2"); err != nil {
		t.Fatalf("claiming room %s on b once it ended: %v", host.code, err)
	}
}

// TestCutOff cuts node a off from NATS in the middle of a game: a stops
// acting for its room once its own key lapses, not renewed (its players' connections
// close with 1012, and no move it could not journal is answered), and b
// takes the room over; the players resume there with every move they saw
// accepted.
func TestCutOff(t *testing.T) {
	ns := startNATS(t)
	px := newProxy(t, strings.TrimPrefix(ns.URL(), "nats://"))
	a := startNode(t, px.url(), "a")
	b := startNode(t, ns.URL(), "b")
	host, guest := game(t, a)
	owner(t, ns.URL(), host.code, "a")
	v := play(t, 4, host, guest)

	px.partition()
	// A move made while a is cut off cannot be journaled: it is never
	// answered, and the room stops on a.
	var mv rules.Action
	if !host.mind.Decide(host.view, &mv) {
		t.Fatal("the host has no move to make")
	}
	req := protocol.Action(mv, host.table, "cut")
	req.Action.Version = host.view.Version
	host.write(protocol.AppendRequest(nil, req))
	for _, pl := range []*player{host, guest} {
		select {
		case <-pl.closed:
		case <-time.After(wait):
			t.Fatalf("%s's connection to a is still open %v after a was cut off", pl.name, wait)
		}
		if code, _ := pl.p.CloseStatus(); code != room.StatusRestart {
			t.Fatalf("%s's connection closed with %d, want %d", pl.name, code, room.StatusRestart)
		}
		for len(pl.frames) > 0 {
			if m := pl.next(); m.Type == protocol.MsgUpdate || m.Type == protocol.MsgRefused {
				t.Fatalf("%s was sent %s once a was cut off: %+v", pl.name, m.Type, m)
			}
		}
	}
	// The room's players are told to reconnect as it stops; it is gone
	// from a's rooms a moment later.
	poll(t, "the room to close on a", func() bool { return a.m.Get(host.code) == nil })
	if got := a.counter("dobble_cluster_lease_losses_total", "reason=lapsed"); got != 1 {
		t.Errorf("a counts %v leases lapsed, want 1", got)
	}
	poll(t, "a to count its key's renewals failed", func() bool { return a.counter("dobble_cluster_node_renew_failures_total", "") > 0 })
	if h, err := a.n.Health(); err == nil {
		t.Errorf("a's health while cut off: %v, no error", h)
	}
	o := owner(t, ns.URL(), host.code, "b")
	poll(t, "the room to open on b", func() bool { return b.m.Get(host.code) != nil })
	// Once a is back in touch, it forgets the journal it gave up.
	px.heal()
	poll(t, "a to forget the room's journal", func() bool {
		a.n.jmu.Lock()
		defer a.n.jmu.Unlock()
		return a.n.logs[o.Journal] == nil
	})
	for _, pl := range []*player{host, guest} {
		seen := pl.acked
		if st := pl.resume(connect(t, b.m, pl.name)); st.View.Version < seen || st.View.Version < v {
			t.Fatalf("%s resumed on b at version %d; it had seen %d", pl.name, st.View.Version, seen)
		}
	}
	play(t, 2, host, guest)
}

// TestNATSRestart restarts NATS in the middle of a game, a move made
// while it is down: the move's answer waits for NATS, and the room goes
// on once NATS is back, on whichever node then holds its lease, with
// every move its players saw accepted.
func TestNATSRestart(t *testing.T) {
	ns := startNATS(t)
	nodes := map[string]*testNode{"a": startNode(t, ns.URL(), "a"), "b": startNode(t, ns.URL(), "b")}
	host, guest := game(t, nodes["a"])
	owner(t, ns.URL(), host.code, "a")
	play(t, 4, host, guest)

	ns.Stop()
	var mv rules.Action
	if !host.mind.Decide(host.view, &mv) {
		t.Fatal("the host has no move to make")
	}
	req := protocol.Action(mv, host.table, "down")
	req.Action.Version = host.view.Version
	host.write(protocol.AppendRequest(nil, req))
	ns.Restart()

	o := owner(t, ns.URL(), host.code, "")
	if o.Node != "a" {
		// The outage outlasted a's lease: the room moved.
		t.Logf("the room moved to %s", o.Node)
	}
	to := nodes[o.Node]
	poll(t, "the room to be open on "+o.Node, func() bool { return to.m.Get(host.code) != nil })
	for _, pl := range []*player{host, guest} {
		// The player reads on until its connection closes (the room
		// moved) or it has the answer to the move made meanwhile.
		moved := false
	read:
		for {
			select {
			case <-pl.closed:
				for len(pl.frames) > 0 {
					pl.next()
				}
				moved = true
				break read
			case b := <-pl.frames:
				// The answer to the move made while NATS was down, held
				// until NATS was back, not lost.
				m := pl.decode(b)
				if m.Type == protocol.MsgRefused && m.ID == "down" {
					t.Fatalf("the move made while NATS was down was refused: %+v", m)
				}
				if m.Type == protocol.MsgUpdate && len(m.Events) > 0 && m.Events[0].Seat == host.seat {
					break read
				}
			case <-time.After(wait):
				t.Fatalf("%s heard nothing of the room %v after NATS came back", pl.name, wait)
			}
		}
		if moved || to != nodes["a"] {
			seen := pl.acked
			if st := pl.resume(connect(t, to.m, pl.name)); st.View.Version < seen {
				t.Fatalf("%s resumed on %s at version %d; it had seen %d", pl.name, o.Node, st.View.Version, seen)
			}
		}
	}
	play(t, 2, host, guest)
}

// TestNATSOutage keeps NATS stopped longer than a lease in the middle of
// a game: the node gives its room up (its players are closed with 1012),
// and once NATS is back a node takes the room over from the stream; the
// players resume there with every move they saw accepted.
func TestNATSOutage(t *testing.T) {
	ns := startNATS(t)
	nodes := map[string]*testNode{"a": startNode(t, ns.URL(), "a"), "b": startNode(t, ns.URL(), "b")}
	host, guest := game(t, nodes["a"])
	owner(t, ns.URL(), host.code, "a")
	v := play(t, 4, host, guest)

	ns.Stop()
	poll(t, "a to give its room up", func() bool { return nodes["a"].m.Get(host.code) == nil })
	for _, pl := range []*player{host, guest} {
		select {
		case <-pl.closed:
		case <-time.After(wait):
			t.Fatalf("%s's connection is still open %v after its room was given up", pl.name, wait)
		}
	}
	if got := nodes["a"].counter("dobble_cluster_lease_losses_total", "reason=lapsed"); got != 1 {
		t.Errorf("a counts %v leases lapsed, want 1", got)
	}
	ns.Restart()
	// The key may still be a's last renewal: wait for the takeover, on
	// whichever node the key then names.
	var o Owner
	poll(t, "a node to take the room over", func() bool {
		o = owner(t, ns.URL(), host.code, "")
		return nodes[o.Node].m.Get(host.code) != nil
	})
	to := nodes[o.Node]
	for _, pl := range []*player{host, guest} {
		seen := pl.acked
		if st := pl.resume(connect(t, to.m, pl.name)); st.View.Version < seen || st.View.Version != v {
			t.Fatalf("%s resumed on %s at version %d; it had seen %d, the table was at %d", pl.name, o.Node, st.View.Version, seen, v)
		}
	}
	play(t, 2, host, guest)
}

// TestFenced writes to the journal of a room of node a as another node
// would: a's next write for the room is refused by the expected sequence,
// so the move it was for is never answered, a gives the room up (its
// players are closed with 1012), counts a fenced lease, and writes the
// room's key again without its boot id, for a later takeover.
func TestFenced(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a")
	host, guest := game(t, a)
	o := owner(t, ns.URL(), host.code, "a")
	play(t, 2, host, guest)

	nc, err := nats.Connect(ns.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	msg := nats.NewMsg(subject(o.Journal))
	msg.Header.Set(seqHeader, "1000")
	msg.Data = []byte(`{"now":1}`)
	if _, err := js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	var mv rules.Action
	if !host.mind.Decide(host.view, &mv) {
		t.Fatal("the host has no move to make")
	}
	req := protocol.Action(mv, host.table, "fenced")
	req.Action.Version = host.view.Version
	host.write(protocol.AppendRequest(nil, req))
	for _, pl := range []*player{host, guest} {
		select {
		case <-pl.closed:
		case <-time.After(wait):
			t.Fatalf("%s's connection is still open %v after another node wrote the room's journal", pl.name, wait)
		}
		if code, _ := pl.p.CloseStatus(); code != room.StatusRestart {
			t.Fatalf("%s's connection closed with %d, want %d", pl.name, code, room.StatusRestart)
		}
		for len(pl.frames) > 0 {
			if m := pl.next(); m.Type == protocol.MsgUpdate || m.Type == protocol.MsgRefused {
				t.Fatalf("%s was sent %s after the journal was fenced: %+v", pl.name, m.Type, m)
			}
		}
	}
	if got := a.counter("dobble_cluster_lease_losses_total", "reason=fenced"); got != 1 {
		t.Errorf("a counts %v fenced leases, want 1", got)
	}
	// The room's players are told to reconnect as it stops; it is gone
	// from a's rooms a moment later.
	poll(t, "the room to close on a", func() bool { return a.m.Get(host.code) == nil })
	poll(t, "a to write the key of the room it gave up without its boot id", func() bool {
		return owner(t, ns.URL(), host.code, "a").Boot == ""
	})
}

// TestHandOver stops node a as a deploy does (its Manager, then its
// node): a tells the other nodes it gives its rooms up and deletes its
// key, and b takes the room over at once, not when a's key lapses (the
// leases here last a minute, longer than the test waits); the players,
// closed with 1012, resume there at the version they saw.
func TestHandOver(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a", time.Minute)
	b := startNode(t, ns.URL(), "b", time.Minute)
	host, guest := game(t, a)
	owner(t, ns.URL(), host.code, "a")
	v := play(t, 4, host, guest)

	stopped := time.Now()
	a.m.Close()
	a.n.Close()
	a.dead = true
	for _, pl := range []*player{host, guest} {
		if code, _ := pl.p.CloseStatus(); code != room.StatusRestart {
			t.Fatalf("%s's connection closed with %d, want %d", pl.name, code, room.StatusRestart)
		}
	}
	poll(t, "the room to open on b", func() bool { return b.m.Get(host.code) != nil })
	t.Logf("room %s handed over from a to b %v after a stopped", host.code, time.Since(stopped).Round(time.Millisecond))
	for _, pl := range []*player{host, guest} {
		for len(pl.frames) > 0 {
			pl.next()
		}
		seen := pl.acked
		if st := pl.resume(connect(t, b.m, pl.name)); st.View.Version < seen || st.View.Version != v {
			t.Fatalf("%s resumed on b at version %d; it had seen %d, the table was at %d", pl.name, st.View.Version, seen, v)
		}
	}
	play(t, 2, host, guest)
}

// TestReadSupersedes checks that reading a room's journal keeps, of the
// entries numbered alike, the last written: a room truncated (Truncate)
// numbers its next entry after the last it kept, and the entries cut
// stay in the stream before it.
func TestReadSupersedes(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a")
	jid := "TRUNCATE/1"
	nc, err := nats.Connect(ns.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	for _, m := range []struct {
		first string
		data  string
	}{{"1", "e1\ne2\ne3"}, {"4", "bad4\nbad5"}, {"4", "e4"}, {"5", "e5"}} {
		msg := nats.NewMsg(subject(jid))
		msg.Header.Set(seqHeader, m.first)
		msg.Data = []byte(m.data)
		if _, err := js.PublishMsg(t.Context(), msg); err != nil {
			t.Fatal(err)
		}
	}
	es, last, err := a.n.read(t.Context(), jid)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Fatalf("entry %d is numbered %d", i+1, e.Seq)
		}
		got = append(got, string(e.Data))
	}
	if strings.Join(got, " ") != "e1 e2 e3 e4 e5" || last == 0 {
		t.Fatalf("read %q up to message %d, want e1 to e5", got, last)
	}
}

// TestHealthHidesCredentials checks that what /healthz shows of a node
// names its NATS server without the user and password of its URL: the
// page is public.
func TestHealthHidesCredentials(t *testing.T) {
	ns := startNATS(t)
	url := strings.Replace(ns.URL(), "nats://", "nats://dobble:s3cret@", 1)
	a := startNode(t, url, "a")
	info, err := a.n.Health()
	if err != nil {
		t.Fatal(err)
	}
	shown, _ := info["nats"].(string)
	if strings.Contains(shown, "s3cret") || strings.Contains(shown, "dobble@") || !strings.Contains(shown, "127.0.0.1") {
		t.Errorf("the health shows the NATS server as %q; want its address without its credentials", shown)
	}
	for in, want := range map[string]string{
		"nats://127.0.0.1:4222":                "nats://127.0.0.1:4222",
		"nats://tok3n@a:4222,tls://u:p@b:4222": "nats://xxxxx@a:4222,tls://xxxxx@b:4222",
		"nats://u:p@[::1]:4222":                "nats://xxxxx@[::1]:4222",
		"nats://u:p@a:4222/%zz":                "the NATS URL given (it cannot be parsed)",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestManyRooms claims 2,000 rooms on node a, without players: the rooms'
// keys are not written again while they are open, and the nodes' keys
// take one write a node and renewal period, however many the rooms;
// once a crashes, b takes every room over (a room with an empty journal
// is taken, then deleted: there is nothing to replay).
func TestManyRooms(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a")
	b := startNode(t, ns.URL(), "b")
	const rooms = 2000
	codes := make(chan string)
	errs := make(chan error, rooms)
	for range 16 {
		go func() {
			for code := range codes {
				errs <- a.n.Claim(code, code+"/1")
			}
		}()
	}
	for i := range rooms {
		codes <- fmt.Sprintf("M%04d", i)
	}
	close(codes)
	for range rooms {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := a.counter("dobble_cluster_leases", ""); got != rooms {
		t.Fatalf("a holds %v rooms, want %d", got, rooms)
	}

	nc, err := nats.Connect(ns.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	lastSeq := func(bucket string) uint64 {
		t.Helper()
		s, err := js.Stream(t.Context(), "KV_"+bucket)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return info.State.LastSeq
	}
	renewals := func() float64 {
		return a.counter("dobble_cluster_node_renewals_total", "") + b.counter("dobble_cluster_node_renewals_total", "")
	}
	const periods = 3
	r0, rooms0, nodes0 := renewals(), lastSeq(Bucket), lastSeq(NodeBucket)
	at := a.counter("dobble_cluster_node_renewals_total", "")
	poll(t, fmt.Sprintf("a to renew its key %d times", periods), func() bool {
		return a.counter("dobble_cluster_node_renewals_total", "") >= at+periods
	})
	rooms1, nodes1, r1 := lastSeq(Bucket), lastSeq(NodeBucket), renewals()
	t.Logf("over %d renewal periods of a with %d rooms: %d writes to %s, %d to %s, %v renewals of the two nodes' keys",
		periods, rooms, rooms1-rooms0, Bucket, nodes1-nodes0, NodeBucket, r1-r0)
	if rooms1 != rooms0 {
		t.Errorf("the rooms' keys were written %d times while the rooms went on; want none", rooms1-rooms0)
	}
	// A renewal under way as the counts were read may be in one count
	// and not the other: one a node.
	if w := float64(nodes1 - nodes0); w > r1-r0+2 || w > 2*(periods+2) {
		t.Errorf("the nodes' keys were written %v times over %d periods of two nodes (%v renewals counted); want one a node and period", w, periods, r1-r0)
	}
	if got := a.counter("dobble_cluster_lease_losses_total", ""); got != 0 {
		t.Errorf("a lost %v rooms while its key was renewed", got)
	}

	a.crash()
	kv, err := js.KeyValue(t.Context(), Bucket)
	if err != nil {
		t.Fatal(err)
	}
	left := func() int {
		lister, err := kv.ListKeys(t.Context())
		if err != nil {
			return -1
		}
		count := 0
		for range lister.Keys() {
			count++
		}
		return count
	}
	crashed := time.Now()
	poll(t, "b to take every room of a over", func() bool { return left() == 0 })
	t.Logf("b took %d rooms over %v after a crashed; %d writes to %s", rooms, time.Since(crashed).Round(time.Millisecond), lastSeq(Bucket)-rooms1, Bucket)
	if w := lastSeq(Bucket) - rooms1; w < 2*rooms {
		t.Errorf("%d writes to the rooms' keys after a crashed; want at least %d, a takeover and a delete a room", w, 2*rooms)
	}
}

// TestRestartedUnderSameName crashes node a in the middle of a game and
// starts it again at once under the same name: the new run renews the
// key of a, but the room's key names the run that crashed, so the room
// is taken over (by b or the new a) and its players resume there.
func TestRestartedUnderSameName(t *testing.T) {
	ns := startNATS(t)
	a := startNode(t, ns.URL(), "a")
	b := startNode(t, ns.URL(), "b")
	host, guest := game(t, a)
	old := owner(t, ns.URL(), host.code, "a")
	if old.Boot == "" {
		t.Fatalf("the directory's value for room %s names no boot id: %+v", host.code, old)
	}
	v := play(t, 4, host, guest)

	a.crash()
	a2 := startNode(t, ns.URL(), "a")
	nodes := map[string]*testNode{"a": a2, "b": b}
	var o Owner
	poll(t, "the room to be taken from the run that crashed", func() bool {
		o = owner(t, ns.URL(), host.code, "")
		return o.Boot != old.Boot
	})
	to := nodes[o.Node]
	poll(t, "the room to open on "+o.Node, func() bool { return to.m.Get(host.code) != nil })
	for _, pl := range []*player{host, guest} {
		seen := pl.acked
		if st := pl.resume(connect(t, to.m, pl.name)); st.View.Version < seen || st.View.Version != v {
			t.Fatalf("%s resumed on %s at version %d; it had seen %d, the table was at %d", pl.name, o.Node, st.View.Version, seen, v)
		}
	}
	play(t, 2, host, guest)
}
