package load

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/tcpproxy"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
)

// newProxy starts a proxy to backend (HOST:PORT) for the length of the
// test.
func newProxy(t *testing.T, backend string) *tcpproxy.Proxy {
	t.Helper()
	px, err := tcpproxy.New(backend)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { px.Close() })
	return px
}

// proxyURL is the WebSocket URL of the server behind px.
func proxyURL(px *tcpproxy.Proxy) string { return "ws://" + px.Addr() + "/ws" }

// sights keeps what the clients saw, for Config.Watch.
type sights struct {
	mu       sync.Mutex
	list     []Seen
	updates  atomic.Int64
	drops    atomic.Int64
	backs    atomic.Int64
	failures atomic.Int64
	playing  atomic.Bool
}

func (s *sights) watch(x Seen) {
	s.mu.Lock()
	s.list = append(s.list, x)
	s.mu.Unlock()
	switch x.Kind {
	case SeenPlay:
		s.playing.Store(true)
	case SeenUpdate:
		s.updates.Add(1)
	case SeenDrop:
		s.drops.Add(1)
	case SeenBack:
		s.backs.Add(1)
	case SeenFailed:
		s.failures.Add(1)
	}
}

// background is a run on its own goroutine.
type background struct {
	cancel context.CancelFunc
	done   chan struct{}
	rep    *Report
	err    error
}

// start starts a run of cfg.
func start(cfg Config) *background {
	ctx, cancel := context.WithCancel(context.Background())
	b := &background{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(b.done)
		b.rep, b.err = Run(ctx, cfg)
	}()
	return b
}

// stop ends the run and returns its report.
func (b *background) stop(t *testing.T) *Report {
	t.Helper()
	b.cancel()
	<-b.done
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.rep
}

// waitFor polls cond until it holds, failing the test after a minute or
// when the run b ends first.
func (b *background) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		select {
		case <-b.done:
			t.Fatalf("the run ended before %s: %v", what, b.err)
		default:
		}
		if time.Now().After(deadline) {
			b.cancel()
			t.Fatalf("no %s within a minute", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestResume drops every client's connection through a proxy, three
// times without a word and once with a close 1012 (service restart), while
// Towers are played on a server that stays up: every client comes back
// to its seat every time and plays on, nothing counts as an error, and
// what each client saw holds together: between two drops the updates of
// a table follow each other one version at a time, from the state it was
// sent; a resumed table is never behind the last update seen before the
// drop, and at the same version shows the same view.
func TestResume(t *testing.T) {
	srv := startServer(t)
	host := srv.ws[len("ws://") : len(srv.ws)-len("/ws")]
	px := newProxy(t, host)
	var seen sights
	cfg := Config{URL: proxyURL(px), Rooms: 2, PlayersPerRoom: 3, Game: "tower", Deck: "order-3", Duration: time.Hour,
		ReactionMin: 2 * time.Millisecond, ReactionMax: 10 * time.Millisecond, Resume: true, Name: "resume", Watch: seen.watch}
	n := int64(cfg.Rooms * cfg.PlayersPerRoom)
	run := start(cfg)
	defer run.cancel()
	waitFor := run.waitFor
	waitFor(t, "play", seen.playing.Load)
	const drops = 4
	for i := range drops {
		// Some play between drops.
		from := seen.updates.Load()
		waitFor(t, "updates", func() bool { return seen.updates.Load() >= from+20 })
		if i == drops-1 {
			px.CloseAll(1012, "service restart")
		} else {
			px.Cut()
		}
		want := n * int64(i+1)
		waitFor(t, fmt.Sprintf("%d drops", want), func() bool { return seen.drops.Load() >= want })
		waitFor(t, fmt.Sprintf("%d clients back", want), func() bool { return seen.backs.Load()+seen.failures.Load() >= want })
	}
	from := seen.updates.Load()
	waitFor(t, "updates after the last drop", func() bool { return seen.updates.Load() >= from+20 })
	rep := run.stop(t)
	res := rep.Resume
	if res == nil {
		t.Fatal("no resume report")
	}
	t.Logf("resume: %+v", *res)
	if res.Drops != drops*n || res.Resumed != drops*n || res.Failed != 0 || res.Behind != 0 || res.Reconnects < drops*n {
		t.Errorf("%d drops (%v), %d reconnects, %d resumed, %d failed (%v), %d behind; want %d drops, each resumed",
			res.Drops, res.DropKinds, res.Reconnects, res.Resumed, res.Failed, res.FailKinds, res.Behind, drops*n)
	}
	if got := res.DropKinds["closed by the server: 1012 service restart"]; got != n {
		t.Errorf("%d drops by a close 1012; want %d: %v", got, n, res.DropKinds)
	}
	if !(res.BackP50Ms > 0 && res.BackP50Ms <= res.BackP99Ms && res.BackP99Ms <= res.BackMaxMs) {
		t.Errorf("drop to back in play: p50 %v p99 %v max %v ms", res.BackP50Ms, res.BackP99Ms, res.BackMaxMs)
	}
	if rep.Errors != 0 || rep.Connections != int(n) {
		t.Errorf("%d errors %v, %d connections held; want none and %d", rep.Errors, rep.ErrorKinds, rep.Connections, n)
	}
	checkSights(t, seen.list, int(n))
}

// checkSights checks what each of n clients saw: the order of its
// sights, its updates one version after the other between drops, and
// every resumed table at or after what it had seen.
func checkSights(t *testing.T, list []Seen, n int) {
	t.Helper()
	type last struct {
		ok      bool
		table   int
		version uint64
		view    uint64
		dropped bool
	}
	at := make([]last, n)
	own, resumed := 0, 0
	for _, s := range list {
		if s.Kind == SeenPlay {
			continue
		}
		l := &at[s.Client]
		switch s.Kind {
		case SeenDrop:
			l.dropped = true
		case SeenBack:
			if !l.dropped {
				t.Errorf("client %d back without a drop", s.Client)
			}
			l.dropped = false
		case SeenState:
			if s.Resumed {
				resumed++
				switch {
				case !l.ok:
				case s.Table < l.table || s.Table == l.table && s.Version < l.version:
					t.Errorf("client %d resumed at table %d version %d, behind table %d version %d it had seen", s.Client, s.Table, s.Version, l.table, l.version)
				case s.Table == l.table && s.Version == l.version && s.View != l.view:
					t.Errorf("client %d resumed at table %d version %d with another view than it had seen", s.Client, s.Table, s.Version)
				}
			}
			l.ok, l.table, l.version, l.view = true, s.Table, s.Version, s.View
		case SeenUpdate:
			if l.dropped {
				t.Errorf("client %d: an update between its drop and its return", s.Client)
			}
			if !l.ok || s.Table != l.table || s.Version != l.version+1 {
				t.Errorf("client %d: update of table %d version %d after table %d version %d", s.Client, s.Table, s.Version, l.table, l.version)
			}
			if len(s.Events) == 0 || s.Frame == 0 || s.View == 0 {
				t.Errorf("client %d: update %+v without events or fingerprints", s.Client, s)
			}
			if s.Own {
				own++
				if s.Events[0].Seat != s.Seat {
					t.Errorf("client %d: its own update's first event is seat %d's, not its seat %d", s.Client, s.Events[0].Seat, s.Seat)
				}
			}
			l.table, l.version, l.view = s.Table, s.Version, s.View
		}
	}
	if own == 0 || resumed == 0 {
		t.Errorf("%d updates of the clients' own actions, %d tables resumed", own, resumed)
	}
}

// TestResumeNoRoom moves the proxy to another server, which knows none of
// the rooms, and drops every connection: every client reconnects, is
// answered noRoom, and gives up once it has been three times in a row,
// over two seconds.
func TestResumeNoRoom(t *testing.T) {
	first, second := startServer(t), startServer(t)
	hostOf := func(s *server) string { return s.ws[len("ws://") : len(s.ws)-len("/ws")] }
	px := newProxy(t, hostOf(first))
	var seen sights
	cfg := Config{URL: proxyURL(px), Rooms: 1, PlayersPerRoom: 2, Game: "tower", Deck: "order-3", Duration: time.Hour,
		ReactionMin: 2 * time.Millisecond, ReactionMax: 10 * time.Millisecond, Resume: true, Watch: seen.watch}
	run := start(cfg)
	defer run.cancel()
	run.waitFor(t, "play", func() bool { return seen.updates.Load() > 0 })
	px.SetBackend(hostOf(second))
	px.Cut()
	run.waitFor(t, "two failures", func() bool { return seen.failures.Load() >= 2 })
	rep := run.stop(t)
	res := rep.Resume
	if res.Drops != 2 || res.Failed != 2 || res.FailKinds[protocol.CodeNoRoom] != 2 || res.Resumed != 0 || res.Reconnects < 2*refusalsFinal {
		t.Errorf("resume report %+v: want 2 drops, each failed after %d answers noRoom", *res, refusalsFinal)
	}
	if rep.Connections != 0 {
		t.Errorf("%d connections held after every resume failed", rep.Connections)
	}
}

// TestResumeOff drops the connections of a run without Config.Resume:
// each drop is an error, and no client comes back.
func TestResumeOff(t *testing.T) {
	srv := startServer(t)
	px := newProxy(t, srv.ws[len("ws://"):len(srv.ws)-len("/ws")])
	var seen sights
	cfg := Config{URL: proxyURL(px), Rooms: 1, PlayersPerRoom: 2, Game: "tower", Deck: "order-3", Duration: time.Hour,
		ReactionMin: 2 * time.Millisecond, ReactionMax: 10 * time.Millisecond, Watch: seen.watch}
	run := start(cfg)
	defer run.cancel()
	run.waitFor(t, "play", func() bool { return seen.updates.Load() > 0 })
	px.Cut()
	run.waitFor(t, "the drops", func() bool { return seen.drops.Load() == 2 })
	rep := run.stop(t)
	if rep.Resume != nil || rep.ErrorKinds["connection lost"] != 2 || rep.Connections != 0 || seen.backs.Load()+seen.failures.Load() != 0 {
		t.Fatalf("report %+v, %d clients back: want 2 connections lost as errors, no resume", rep, seen.backs.Load())
	}
}

// TestFingerprint checks that a view has the same fingerprint in a state
// and in an update, as the server writes them, and that the frame's
// fingerprint tells apart updates that differ in their time or events.
func TestFingerprint(t *testing.T) {
	g, _ := rules.Lookup("tower")
	d, err := room.NewDecks().Get("order-3", false)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.New(g, d.Cards, rules.Config{Players: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	v := st.View(0)
	var a rules.Action
	if !rules.NewPlayer(g).Decide(&v, &a) {
		t.Fatal("no claim to make")
	}
	a.Version = st.Version()
	ev, err := st.Apply(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	var u protocol.Updates
	u.Reset(st, 3, 1200, ev)
	upd := u.Frame(0)
	state := protocol.Encode(&protocol.State{Table: 3, Game: "tower", View: st.View(0)})
	uv, uf, err := Fingerprint(upd)
	if err != nil {
		t.Fatal(err)
	}
	sv, _, err := Fingerprint(state)
	if err != nil {
		t.Fatal(err)
	}
	if uv != sv {
		t.Errorf("the view's fingerprint differs between the update %s and the state %s", upd, state)
	}
	u.Reset(st, 3, 1201, ev)
	if _, f, _ := Fingerprint(u.Frame(0)); f == uf {
		t.Errorf("updates at 1200 and 1201 ms have the same fingerprint")
	}
	if ov, _, _ := Fingerprint(u.Frame(1)); ov == uv {
		t.Errorf("seats 0 and 1 see the same view")
	}
	if _, _, err := Fingerprint([]byte(`{"type":"lobby","room":{}}`)); err == nil {
		t.Errorf("a lobby has a fingerprint")
	}
}
