package load

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestHistogramMerge checks that merging is exact: durations spread at
// random over several histograms, each sent through its JSON form, merge
// into the histogram of all of them, bucket for bucket, with the same
// count, largest duration and quantiles.
func TestHistogramMerge(t *testing.T) {
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 15))
		parts := make([]histogram, 1+rng.IntN(5))
		var whole, merged histogram
		for range rng.IntN(5000) {
			// From 0 to about 2⁴² µs, evenly over the orders of
			// magnitude, past the last bucket.
			d := time.Duration(rng.Int64N(int64(1)<<rng.IntN(43))) * time.Microsecond
			whole.add(d)
			parts[rng.IntN(len(parts))].add(d)
		}
		for i := range parts {
			b, err := json.Marshal(&parts[i])
			if err != nil {
				t.Fatal(err)
			}
			var back histogram
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("seed %d: %v: %s", seed, err, b)
			}
			merged.merge(&back)
		}
		if merged.n.Load() != whole.n.Load() || merged.max.Load() != whole.max.Load() {
			t.Fatalf("seed %d: merged %d durations, largest %d µs; whole %d, largest %d µs", seed,
				merged.n.Load(), merged.max.Load(), whole.n.Load(), whole.max.Load())
		}
		for i := range whole.counts {
			if merged.counts[i].Load() != whole.counts[i].Load() {
				t.Fatalf("seed %d: bucket %d: merged %d, whole %d", seed, i, merged.counts[i].Load(), whole.counts[i].Load())
			}
		}
		for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
			if m, w := merged.quantile(q), whole.quantile(q); m != w {
				t.Fatalf("seed %d: quantile %v: merged %v, whole %v", seed, q, m, w)
			}
		}
	}
	for _, bad := range []string{`{"n":1,"max_us":5,"buckets":[[-1,1]]}`, `{"n":1,"max_us":5,"buckets":[[99999,1]]}`,
		`{"n":2,"max_us":5,"buckets":[[5,1]]}`, `{"n":-1,"max_us":5,"buckets":[[5,-1]]}`, `[1]`} {
		var h histogram
		if err := json.Unmarshal([]byte(bad), &h); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}

// listen serves h on another port of 127.0.0.1 and returns its WebSocket
// URL and the count of WebSocket connections it takes.
func listen(t *testing.T, h http.Handler) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var upgrades atomic.Int64
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ws" {
			upgrades.Add(1)
		}
		h.ServeHTTP(w, r)
	})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "ws://" + ln.Addr().String() + "/ws", &upgrades
}

// TestRunSpreadRooms plays rooms on two real servers, given as two URLs:
// the rooms are created on them in turn, each server holds the players
// of its rooms and counts their claims, and the report's server figures
// are the sums of both.
func TestRunSpreadRooms(t *testing.T) {
	a, b := startServer(t), startServer(t)
	urlA, upA := listen(t, a.handler)
	urlB, upB := listen(t, b.handler)
	cfg := Config{URL: urlA + "," + urlB, Rooms: 4, PlayersPerRoom: 3, Game: "tower", Deck: "order-2", Duration: time.Second,
		ReactionMin: time.Millisecond, ReactionMax: 5 * time.Millisecond}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Spread != nil {
		t.Errorf("every player on its room's server, yet the latencies are split: %+v", rep.Spread)
	}
	if rep.Errors != 0 || rep.Connections != 12 || rep.ServerConnections != 12 {
		t.Errorf("errors %v, connections %d, the servers count %d; want none, 12 and 12", rep.ErrorKinds, rep.Connections, rep.ServerConnections)
	}
	if rep.Claims == 0 || rep.Accepted+rep.Late != rep.Claims || rep.ServerClaims != rep.Claims || rep.ServerGames != rep.Games {
		t.Errorf("claims %d (%d accepted, %d late), the servers count %d; games %d, the servers count %d",
			rep.Claims, rep.Accepted, rep.Late, rep.ServerClaims, rep.Games, rep.ServerGames)
	}
	// Rooms 0 and 2 on the first server, 1 and 3 on the second: six
	// players on each.
	if a, b := upA.Load(), upB.Load(); a != 6 || b != 6 {
		t.Errorf("connections to the servers: %d and %d, want 6 and 6", a, b)
	}
	var claims int64
	for _, s := range []*server{a, b} {
		m, err := scrape(context.Background(), http.DefaultClient, s.metrics)
		if err != nil {
			t.Fatal(err)
		}
		if m.Sum("dobble_claims_total") == 0 {
			t.Errorf("%s: no claim", s.ws)
		}
		claims += int64(m.Sum("dobble_claims_total"))
	}
	if claims != rep.Claims {
		t.Errorf("the servers count %d claims between them; the report %d", claims, rep.Claims)
	}
}

// TestRunSpreadPlayers seats the players of each room through different
// URLs with SpreadPlayers: two listeners of one server, each counting the
// WebSocket connections it takes. Every room is filled and plays.
func TestRunSpreadPlayers(t *testing.T) {
	srv := startServer(t)
	url0, up0 := listen(t, srv.handler)
	url1, up1 := listen(t, srv.handler)
	// Three rooms of three: rooms 0 and 2 put two players on the first
	// URL, room 1 one; five connections on the first, four on the second.
	cfg := Config{URL: url0 + "," + url1, Spread: SpreadPlayers, Rooms: 3, PlayersPerRoom: 3, Game: "tower", Deck: "order-2",
		Duration: 500 * time.Millisecond, ReactionMin: time.Millisecond, ReactionMax: 5 * time.Millisecond}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Connections != 9 || rep.Claims == 0 || rep.Accepted+rep.Late != rep.Claims {
		t.Errorf("errors %v, connections %d, claims %d (%d accepted, %d late)", rep.ErrorKinds, rep.Connections, rep.Claims, rep.Accepted, rep.Late)
	}
	if a, b := up0.Load(), up1.Load(); a != 5 || b != 4 {
		t.Errorf("connections through the URLs: %d and %d, want 5 and 4", a, b)
	}
	// Six players joined through the URL their room was created on, three
	// through the other: the latencies are split between them.
	if s := rep.Spread; s == nil || s.Same.Actions+s.Other.Actions != rep.Claims || s.Same.Actions == 0 || s.Other.Actions == 0 ||
		s.Same.P99Ms > s.Same.MaxMs || s.Other.P50Ms > s.Other.P99Ms {
		t.Errorf("spread %+v of %d claims", rep.Spread, rep.Claims)
	}
}

// TestResumeNextServer runs rooms on two URLs of one server, each through
// a proxy, and takes the first away for good, as a node of a cluster
// killed: its clients cannot dial it again, move on to the second URL,
// resume their seats there and play on; no acknowledged action is lost.
func TestResumeNextServer(t *testing.T) {
	srv := startServer(t)
	host := srv.ws[len("ws://") : len(srv.ws)-len("/ws")]
	pxA, pxB := newProxy(t, host), newProxy(t, host)
	var seen sights
	cfg := Config{URL: proxyURL(pxA) + "," + proxyURL(pxB), Rooms: 2, PlayersPerRoom: 2, Game: "tower", Deck: "order-3", Duration: time.Hour,
		ReactionMin: 2 * time.Millisecond, ReactionMax: 10 * time.Millisecond, Resume: true, Watch: seen.watch}
	run := start(cfg)
	defer run.cancel()
	run.waitFor(t, "play", seen.playing.Load)
	run.waitFor(t, "updates", func() bool { return seen.updates.Load() >= 20 })
	// Room 0's two players came through the first proxy.
	addrA := pxA.Addr()
	pxA.Close()
	run.waitFor(t, "two clients back", func() bool { return seen.backs.Load()+seen.failures.Load() >= 2 })
	from := seen.updates.Load()
	run.waitFor(t, "updates after the move", func() bool { return seen.updates.Load() >= from+20 })
	// The first URL answers again, for the metrics read at the end.
	ln, err := net.Listen("tcp", addrA)
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.handler}
	go hs.Serve(ln)
	defer hs.Close()
	rep := run.stop(t)
	res := rep.Resume
	if res.Drops != 2 || res.Resumed != 2 || res.Failed != 0 || res.Behind != 0 {
		t.Errorf("%d drops, %d resumed, %d failed (%v), %d behind; want 2 drops, both resumed", res.Drops, res.Resumed, res.Failed, res.FailKinds, res.Behind)
	}
	if rep.Errors != 0 || rep.Connections != 4 {
		t.Errorf("%d errors %v, %d connections held; want none and 4", rep.Errors, rep.ErrorKinds, rep.Connections)
	}
	checkSights(t, seen.list, 4)
}

// TestErrorSummary lists the first kinds of error and counts the rest.
func TestErrorSummary(t *testing.T) {
	r := &runner{errors: map[string]int64{}}
	for i := range 8 {
		r.fail(fmt.Sprintf("joined: error noRoom (no open room has the code \"R%d\")", i))
	}
	r.fail(`joined: error noRoom (no open room has the code "R0")`)
	got := r.errorSummary()
	want := `2× joined: error noRoom (no open room has the code "R0"), 1× joined: error noRoom (no open room has the code "R1"), ` +
		`1× joined: error noRoom (no open room has the code "R2"), 1× joined: error noRoom (no open room has the code "R3"), ` +
		`1× joined: error noRoom (no open room has the code "R4"), and 3 kinds more`
	if got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
}

// TestMerge adds up the parts of a split run: every count is the sum of
// the parts', every latency that of the histograms merged, the measured
// time the longest.
func TestMerge(t *testing.T) {
	mk := func(seconds float64, claims []time.Duration, flips []time.Duration, backs []time.Duration) *part {
		p := &part{Connected: 8, Filled: 2, Hists: map[string]*histogram{}, Back: &histogram{},
			Report: &Report{Rooms: 2, PlayersPerRoom: 4, Game: "tower", Seconds: seconds, Connections: 7, Games: 3, ClientCPU: 1.5,
				Errors: 2, ErrorKinds: map[string]int64{"unsettled": 1, "write": 1}, Actions: map[string]*ActionReport{},
				Resume: &ResumeReport{Drops: 2, DropKinds: map[string]int64{"connection lost": 2}, Reconnects: 3, Attempts: 4, Resumed: 2,
					FailKinds: map[string]int64{}}}}
		for name, ds := range map[string][]time.Duration{"claim": claims, "flip": flips} {
			if len(ds) == 0 {
				continue
			}
			h := &histogram{}
			for _, d := range ds {
				h.add(d)
			}
			p.Hists[name] = h
			p.Report.Actions[name] = &ActionReport{Sent: int64(len(ds)), Accepted: int64(len(ds)) - 1, Late: 1}
		}
		for _, d := range backs {
			p.Back.add(d)
		}
		return p
	}
	const ms = time.Millisecond
	a := mk(10, []time.Duration{1 * ms, 2 * ms, 90 * ms}, nil, []time.Duration{300 * ms})
	b := mk(10.5, []time.Duration{3 * ms, 4 * ms}, []time.Duration{5 * ms, 7 * ms}, []time.Duration{900 * ms, 100 * ms})
	m := merge([]*part{a, b}).Report
	if m.Rooms != 4 || m.Connections != 14 || m.Games != 6 || m.ClientCPU != 3 || m.Seconds != 10.5 || m.Errors != 4 ||
		m.ErrorKinds["unsettled"] != 2 || m.ErrorKinds["write"] != 2 {
		t.Errorf("merged %+v", m)
	}
	if c, f := m.Actions["claim"], m.Actions["flip"]; c.Sent != 5 || c.Accepted != 3 || c.Late != 2 || f.Sent != 2 || m.Claims != 7 || m.Accepted != 4 || m.Late != 3 {
		t.Errorf("actions %+v %+v, claims %d (%d accepted, %d late)", c, f, m.Claims, m.Accepted, m.Late)
	}
	// The quantiles are those of one histogram of every duration.
	toMs := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	var whole, back histogram
	for _, d := range []time.Duration{1 * ms, 2 * ms, 90 * ms, 3 * ms, 4 * ms, 5 * ms, 7 * ms} {
		whole.add(d)
	}
	for _, d := range []time.Duration{300 * ms, 900 * ms, 100 * ms} {
		back.add(d)
	}
	if m.MaxMs != 90 || m.Actions["claim"].MaxMs != 90 || m.Actions["flip"].MaxMs != 7 || m.P50Ms != toMs(whole.quantile(0.5)) || m.P99Ms != 90 {
		t.Errorf("latencies: max %v (claims %v, flips %v), p50 %v, p99 %v", m.MaxMs, m.Actions["claim"].MaxMs, m.Actions["flip"].MaxMs, m.P50Ms, m.P99Ms)
	}
	if res := m.Resume; res.Drops != 4 || res.DropKinds["connection lost"] != 4 || res.Reconnects != 6 || res.Attempts != 8 || res.Resumed != 4 ||
		res.BackMaxMs != 900 || res.BackP50Ms != toMs(back.quantile(0.5)) {
		t.Errorf("resume %+v", res)
	}
}

// TestSeatBusy seats the players of a room on a server that answers the
// first create and the first join with busy, as a node of a cluster does
// while it takes a room over: each is asked again, and the room is
// filled without an error.
func TestSeatBusy(t *testing.T) {
	var mu sync.Mutex
	busy := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := context.Background()
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			var req struct{ Type string }
			json.Unmarshal(b, &req)
			answer := `{"type":"welcome"}`
			switch req.Type {
			case "create", "join":
				mu.Lock()
				first := !busy[req.Type]
				busy[req.Type] = true
				mu.Unlock()
				answer = `{"type":"joined","room":"ABCD2345","seat":0,"token":"t"}`
				if first {
					answer = `{"type":"error","code":"busy","message":"room ABCD2345 is not ready on this server yet; try again in a moment"}`
				}
			case "start":
				continue
			}
			if err := c.Write(ctx, websocket.MessageText, []byte(answer)); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	cfg := Config{URL: "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws", Rooms: 1, PlayersPerRoom: 2, Game: "tower",
		Duration: 10 * time.Millisecond}
	var lines []string
	cfg.Progress = func(l string) { lines = append(lines, l) }
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || len(lines) < 2 || !strings.Contains(lines[1], "1 of 1 rooms filled") {
		t.Errorf("errors %v, progress %q", rep.ErrorKinds, lines)
	}
}
