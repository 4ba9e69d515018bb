package load

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/web"
)

// server is a real dobble server on 127.0.0.1 port 0 with a real SQLite
// file, as dobble serve runs it (metrics with the Go and process
// collectors), with short countdowns.
type server struct {
	ws, metrics string
	store       *store.Store
}

func startServer(t *testing.T) *server {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(room.Config{Countdown: 5 * time.Millisecond, BotPick: 5 * time.Millisecond, Rate: 1000, Burst: 1000}, st, decks, metrics, "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.Handler(web.Options{Manager: m, Store: st, Decks: decks, Gatherer: reg, Metrics: metrics, MaxConns: 1000, PingEvery: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() {
		m.Close()
		srv.Close()
		st.Close()
	})
	return &server{ws: "ws://" + ln.Addr().String() + "/ws", metrics: "http://" + ln.Addr().String() + "/metrics", store: st}
}

// checkReport checks what every clean run reports: no errors, every
// client connected, every claim settled and counted as the server counted
// it, every game counted as the server counted it.
func checkReport(t *testing.T, srv *server, cfg Config, rep *Report) {
	t.Helper()
	if rep.Errors != 0 || len(rep.ErrorKinds) != 0 {
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorKinds)
	}
	if want := cfg.Rooms * cfg.PlayersPerRoom; rep.Connections != want || rep.ServerConnections != want {
		t.Errorf("connections held %d, the server counts %d; want %d", rep.Connections, rep.ServerConnections, want)
	}
	if rep.Claims == 0 {
		t.Errorf("no claim was made")
	}
	if rep.Accepted+rep.Late != rep.Claims {
		t.Errorf("%d claims but %d accepted and %d late: not every claim was settled", rep.Claims, rep.Accepted, rep.Late)
	}
	if rep.ServerClaims != rep.Claims || rep.ServerGames != rep.Games {
		t.Errorf("the server counts %d claims and %d games; the report %d and %d", rep.ServerClaims, rep.ServerGames, rep.Claims, rep.Games)
	}
	// The metrics read afresh agree with the report.
	m, err := scrape(context.Background(), http.DefaultClient, srv.metrics)
	if err != nil {
		t.Fatal(err)
	}
	if got := int64(m.sum("dobble_claims_total")); got != rep.Claims {
		t.Errorf("dobble_claims_total is %d; the report counts %d claims", got, rep.Claims)
	}
	if got := int64(m["dobble_claims_total{outcome=\"accepted\"}"]); got != rep.Accepted {
		t.Errorf("the server accepted %d claims; the report counts %d", got, rep.Accepted)
	}
	if !(rep.P50Ms <= rep.P90Ms && rep.P90Ms <= rep.P99Ms && rep.P99Ms <= rep.MaxMs && rep.MaxMs > 0) {
		t.Errorf("latencies out of order: p50 %v p90 %v p99 %v max %v", rep.P50Ms, rep.P90Ms, rep.P99Ms, rep.MaxMs)
	}
	if rep.ServerMemory <= 0 {
		t.Errorf("server memory %d", rep.ServerMemory)
	}
}

// TestRunCountsWhatTheServerCounts plays Towers on the smallest deck (five
// claims a game) in three rooms of four, with reactions of a few
// milliseconds: every claim is settled, the counts agree with the
// server's metrics, and the hosts start rematches.
func TestRunCountsWhatTheServerCounts(t *testing.T) {
	srv := startServer(t)
	cfg := Config{URL: srv.ws, Rooms: 3, PlayersPerRoom: 4, Game: "tower", Deck: "order-2", Duration: 2 * time.Second,
		ReactionMin: time.Millisecond, ReactionMax: 5 * time.Millisecond}
	var lines []string
	cfg.Progress = func(l string) { lines = append(lines, l) }
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, srv, cfg, rep)
	// A game takes about 5 claims of a few milliseconds; two seconds of
	// play leave room for dozens, so every room has had a rematch.
	if rep.Games <= int64(cfg.Rooms) {
		t.Errorf("%d games in %d rooms: no rematch", rep.Games, cfg.Rooms)
	}
	games, err := srv.store.List(context.Background(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(games)) < min(rep.Games, 100) {
		t.Errorf("%d games stored; %d played", len(games), rep.Games)
	}
	if len(lines) != 3 || !strings.Contains(lines[0], "12 of 12 clients connected") || !strings.Contains(lines[1], "3 of 3 rooms filled") {
		t.Errorf("progress lines: %q", lines)
	}
}

// TestRunEveryGame plays every game of claims in one room for a short
// while: the clients find a correct action in every game's views (a wrong
// claim would be refused and counted as an error). A game played with
// other actions is refused at once, naming the games the clients play.
func TestRunEveryGame(t *testing.T) {
	srv := startServer(t)
	for _, g := range rules.Games() {
		info := g.Info()
		if len(info.Acts) > 0 {
			cfg := Config{URL: srv.ws, Rooms: 1, PlayersPerRoom: max(2, info.MinPlayers), Game: info.Name, Duration: time.Second, ReactionMax: time.Millisecond}
			if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "tower") {
				t.Errorf("%s: a load of a game the clients cannot play: %v", info.Name, err)
			}
			continue
		}
		cfg := Config{URL: srv.ws, Rooms: 1, PlayersPerRoom: max(info.MinPlayers, min(3, info.MaxPlayers)), Game: info.Name,
			Duration: 300 * time.Millisecond, ReactionMin: time.Millisecond, ReactionMax: 3 * time.Millisecond}
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		if rep.Errors != 0 || rep.Claims == 0 || rep.Accepted+rep.Late != rep.Claims || rep.ServerClaims != rep.Claims {
			t.Errorf("%s: %d claims (%d accepted, %d late; the server counts %d), errors %v", info.Name,
				rep.Claims, rep.Accepted, rep.Late, rep.ServerClaims, rep.ErrorKinds)
		}
	}
}

// TestRunCancelled ends the measured phase early through the context:
// the report still comes, without errors.
func TestRunCancelled(t *testing.T) {
	srv := startServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{URL: srv.ws, Rooms: 2, PlayersPerRoom: 2, Game: "tower", Duration: time.Hour,
		ReactionMin: time.Millisecond, ReactionMax: 2 * time.Millisecond}
	cfg.Progress = func(l string) {
		if strings.Contains(l, "rooms filled") {
			cancel()
		}
	}
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Seconds > 60 || rep.Connections != 4 {
		t.Fatalf("cancelled run: %+v", rep)
	}
}

func TestValidate(t *testing.T) {
	good := Config{URL: "ws://127.0.0.1:8080/ws", Rooms: 1, PlayersPerRoom: 2, Game: "tower", Duration: time.Second, ReactionMax: time.Second}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		change func(c *Config)
		says   string
	}{
		{func(c *Config) { c.URL = "ws://10.1.2.3:8080/ws" }, "10.1.2.3 is not a loopback address"},
		{func(c *Config) { c.URL = "ws://example.com:8080/ws" }, `"example.com" is not a loopback address`},
		{func(c *Config) { c.URL = "wss://127.0.0.1:8080/ws" }, `the scheme is "wss"`},
		{func(c *Config) { c.URL = "http://127.0.0.1:8080/ws" }, `the scheme is "http"`},
		{func(c *Config) { c.URL = "ws://127.0.0.1/ws" }, "no port"},
		{func(c *Config) { c.URL = "127.0.0.1:8080" }, "use ws://127.0.0.1:PORT/ws"},
		{func(c *Config) { c.Rooms = 0 }, "--rooms 0: use 1 or more"},
		{func(c *Config) { c.PlayersPerRoom = 9 }, "tower takes 2 to 8 players"},
		{func(c *Config) { c.Game = "chess" }, "--game"},
		{func(c *Config) { c.Rooms, c.PlayersPerRoom = 100_000, 4 }, "at most 200000"},
		{func(c *Config) { c.Duration = 0 }, "--duration 0s"},
		{func(c *Config) { c.ReactionMin = 2 * time.Second }, "--reaction 2s-1s"},
	} {
		c := good
		tc.change(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%+v: error %v, want one saying %q", c, err, tc.says)
		}
	}
	for _, u := range []string{"ws://localhost:1/ws", "ws://[::1]:1/ws", "ws://127.9.9.9:1"} {
		c := good
		c.URL = u
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	if tg, _ := parseTarget("ws://localhost:8080"); tg.ws != "ws://127.0.0.1:8080/ws" || tg.metrics != "http://127.0.0.1:8080/metrics" {
		t.Errorf("target %+v", tg)
	}
}

func TestParseReaction(t *testing.T) {
	for s, want := range map[string][2]time.Duration{
		"700ms-2s": {700 * time.Millisecond, 2 * time.Second},
		"1s":       {time.Second, time.Second},
		"0s-0s":    {0, 0},
	} {
		lo, hi, err := ParseReaction(s)
		if err != nil || lo != want[0] || hi != want[1] {
			t.Errorf("%q: %v %v %v", s, lo, hi, err)
		}
	}
	for _, s := range []string{"", "fast", "2s-1s", "-1s-2s", "1s-", "1-2", "1s-2m"} {
		if _, _, err := ParseReaction(s); err == nil || !strings.Contains(err.Error(), "use MIN-MAX") {
			t.Errorf("%q: error %v", s, err)
		}
	}
}

func TestHistogram(t *testing.T) {
	var h histogram
	if h.quantile(0.5) != 0 {
		t.Fatal("an empty histogram has quantiles")
	}
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * 100 * time.Microsecond) // 0.1 ms to 100 ms
	}
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.9: 90 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond} {
		got := h.quantile(q)
		if got < want || float64(got) > float64(want)*1.02 {
			t.Errorf("quantile %v = %v, want %v within 2%%", q, got, want)
		}
	}
	for us := int64(0); us < 1<<30; us = us*3/2 + 1 {
		if b := bucket(us); upper(b) < us || (b > 0 && upper(b-1) >= us) {
			t.Fatalf("%d µs in bucket %d, which ends at %d (the one before at %d)", us, b, upper(b), upper(b-1))
		}
	}
}

// TestDecode checks the scanner against encoding/json on messages as the
// server writes them: the views of a real game, its events, a refusal.
func TestDecode(t *testing.T) {
	g, _ := rules.Lookup("hot-potato")
	d, err := room.NewDecks().Get("classic", false)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.New(g, d.Cards, rules.Config{Players: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	// The fields in the order the server writes them: "type" first.
	type refused struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Table   int    `json:"table"`
		Code    string `json:"code"`
		Reason  string `json:"reason"`
		Version uint64 `json:"version"`
	}
	type update struct {
		Type    string        `json:"type"`
		Table   int           `json:"table"`
		Version uint64        `json:"version"`
		At      int64         `json:"at"`
		Events  []rules.Event `json:"events"`
		View    rules.View    `json:"view"`
	}
	msgs := []any{refused{Type: "refused", ID: "17", Table: 2, Code: "tooLate", Reason: `too "late"`, Version: 3}}
	for seat := -1; seat < 3; seat++ {
		msgs = append(msgs, update{Type: "update", Table: 1, Version: st.Version(), At: 12,
			Events: []rules.Event{{Kind: rules.EventClaim, Seat: 2, Symbol: 5, Target: rules.To(1, 2)}, {Kind: rules.EventMove, Seat: 2, From: 3, To: 4}},
			View:   st.View(seat)})
	}
	// Each view is read into the lists of the one before, as the clients
	// read them: nothing of the last may show through.
	var spare *view
	// A smaller table, then the larger one again.
	tower, _ := rules.Lookup("tower")
	small, err := rules.New(tower, d.Cards, rules.Config{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, update{Type: "update", Table: 4, Version: 0, Events: []rules.Event{}, View: small.View(1)}, msgs[2])
	for _, m := range msgs {
		b, _ := json.Marshal(m)
		var got, want message
		err := decode(b, &got, spare)
		if got.View != nil {
			spare = got.View
		}
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		// The scanner leaves out what the clients do not use, and [] and
		// null are the same to them.
		want.Reason = ""
		for _, m := range []*message{&got, &want} {
			if len(m.Events) == 0 {
				m.Events = nil
			}
		}
		for _, v := range []*view{got.View, want.View} {
			for i := 0; v != nil && i < len(v.Zones); i++ { // [] and null are the same to the clients
				if len(v.Zones[i].Cards) == 0 {
					v.Zones[i].Cards = nil
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v %+v\nwant %+v %+v", b, got, got.View, want, want.View)
		}
	}
	for _, bad := range []string{`{"type":"update","table":`, `{"type":"update","view":{"zones":[{]}}`, `{"type":"refused","table":x}`} {
		var m message
		if err := decode([]byte(bad), &m, nil); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// BenchmarkDecodeUpdate measures what a client spends reading one update
// of a Tower of four, the message the load receives most.
func BenchmarkDecodeUpdate(b *testing.B) {
	g, _ := rules.Lookup("tower")
	d, err := room.NewDecks().Get("classic", false)
	if err != nil {
		b.Fatal(err)
	}
	st, err := rules.New(g, d.Cards, rules.Config{Players: 4, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	frame, _ := json.Marshal(struct {
		Type    string        `json:"type"`
		Table   int           `json:"table"`
		Version uint64        `json:"version"`
		At      int64         `json:"at"`
		Events  []rules.Event `json:"events"`
		View    rules.View    `json:"view"`
	}{"update", 0, st.Version(), 1200, []rules.Event{{Kind: rules.EventClaim, Seat: 2, Symbol: 5}, {Kind: rules.EventMove, Seat: 2, From: 0, To: 3, Card: 9, Count: 1}}, st.View(1)})
	b.ReportAllocs()
	var spare view
	var events []event
	for b.Loop() {
		m := message{Events: events}
		if err := decode(frame, &m, &spare); err != nil {
			b.Fatal(err)
		}
		events = m.Events[:0]
	}
}
