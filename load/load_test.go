package load

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	prom "github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/protocol"
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
	store       store.Store
	handler     http.Handler
}

func startServer(t *testing.T) *server {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := prom.NewRegistry()
	reg.MustRegister(prom.NewGoCollector(), prom.NewProcessCollector())
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(room.Config{Countdown: 5 * time.Millisecond, BotPick: 5 * time.Millisecond, Rate: 1000, Burst: 1000}, st, decks, metrics, "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.Handler(web.Options{Manager: m, Store: st, Decks: decks, Registry: reg, Metrics: metrics, MaxConns: 1000, PingEvery: time.Second})
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
	return &server{ws: "ws://" + ln.Addr().String() + "/ws", metrics: "http://" + ln.Addr().String() + "/metrics", store: st, handler: h}
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
	if got := int64(m.Sum("dobble_claims_total")); got != rep.Claims {
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
	// The load's rooms are private, so their games are left out of the
	// history's list: they are counted by id.
	stored := int64(0)
	for ; stored < min(rep.Games, 100); stored++ {
		if _, err := srv.store.Get(context.Background(), stored+1); err != nil {
			break
		}
	}
	if stored < min(rep.Games, 100) {
		t.Errorf("%d games stored; %d played", stored, rep.Games)
	}
	if len(lines) != 3 || !strings.Contains(lines[0], "12 of 12 clients connected") || !strings.Contains(lines[1], "3 of 3 rooms filled") {
		t.Errorf("progress lines: %q", lines)
	}
}

// TestRunEveryGame plays every game of claims in one room for a short
// while: the clients find a correct action in every game's views (a wrong
// claim would be refused and counted as an error).
func TestRunEveryGame(t *testing.T) {
	srv := startServer(t)
	for _, g := range rules.Games() {
		info := g.Info()
		if _, extra := shortExtras[info.Name]; extra {
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

// shortExtras are the extra mini-games with the decks, options and times
// that let a test play them to the end a few times in a short while: the
// shortest phases of Reflection, to 4 points (one round of perfect
// answers); Guess's cards turned every 200 ms from a deck of three symbols
// a card, so that few cards tell the secret; Collect the Symbols on that
// deck of seven cards too, whose piles run out often, so that seats take
// each other's discards.
var shortExtras = map[string]struct {
	deck     string
	options  map[string]string
	duration time.Duration
}{
	"reflection":      {"", map[string]string{"look": "1000", "study": "1000", "answer": "5000", "target": "4"}, 3500 * time.Millisecond},
	"guess":           {"order-2", map[string]string{"interval": "200"}, 5 * time.Second},
	"memory":          {"", nil, time.Second},
	"false-poker":     {"", nil, time.Second},
	"collect-symbols": {"order-2", nil, 2 * time.Second},
}

// TestRunExtraGames plays each extra mini-game, whose seats flip, lay,
// stop, write, guess, discard or take, in two rooms of three on a server
// of its own: every action the clients choose from their views is
// accepted or too late (a seat following the turn is never refused as
// out of turn), every kind of action the game takes is sent and accepted,
// the counts equal the server's metrics, and games end and rematches
// start while the run lasts.
func TestRunExtraGames(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		short, ok := shortExtras[info.Name]
		if !ok {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			srv := startServer(t)
			cfg := Config{URL: srv.ws, Rooms: 2, PlayersPerRoom: 3, Game: info.Name, Deck: short.deck, Options: short.options,
				Duration: short.duration, ReactionMin: time.Millisecond, ReactionMax: 3 * time.Millisecond}
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, srv, cfg, rep)
			t.Logf("%d games, %d actions (%d late):%s", rep.Games, rep.Claims, rep.Late, actionsText(rep))
			for _, k := range info.Acts {
				if a := rep.Actions[k.String()]; a == nil || a.Accepted == 0 {
					t.Errorf("no %s accepted: %+v", k, a)
				}
			}
			for k, a := range rep.Actions {
				// Claims are also made in tie-breaks, which are games of
				// claims.
				if kind := mustKind(t, k); kind != rules.ActionClaim && !slices.Contains(info.Acts, kind) {
					t.Errorf("%d actions of kind %s, which %s does not take", a.Sent, k, info.Name)
				}
				if a.Accepted+a.Late != a.Sent || a.MaxMs <= 0 {
					t.Errorf("%s: %+v: not every action settled", k, a)
				}
			}
			if rep.Games < int64(cfg.Rooms) {
				t.Errorf("%d games ended in %d rooms", rep.Games, cfg.Rooms)
			}
		})
	}
}

// actionsText lists a report's actions by kind.
func actionsText(rep *Report) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(rep.Actions)) {
		a := rep.Actions[k]
		fmt.Fprintf(&b, " %s %d/%d/%d", k, a.Sent, a.Accepted, a.Late)
	}
	return b.String()
}

// mustKind returns the action kind named name.
func mustKind(t *testing.T, name string) rules.ActionKind {
	t.Helper()
	var k rules.ActionKind
	if err := k.UnmarshalText([]byte(name)); err != nil {
		t.Fatal(err)
	}
	return k
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
		{func(c *Config) { c.Options = map[string]string{"study": "1000"} }, "--option study: tower has no such option; it takes none"},
		{func(c *Config) { c.Game, c.Options = "reflection", map[string]string{"speed": "1"} }, "--option speed: reflection has no such option; it takes look, study, answer, target"},
		{func(c *Config) { c.Rooms, c.PlayersPerRoom = 100_000, 4 }, "at most 200000"},
		{func(c *Config) { c.Duration = 0 }, "--duration 0s"},
		{func(c *Config) { c.ReactionMin = 2 * time.Second }, "--reaction 2s-1s"},
		{func(c *Config) { c.Name = "a name much too long, really" }, "use at most 17 characters"},
		{func(c *Config) { c.Name = "tab\there" }, "no control characters"},
		{func(c *Config) { c.Name = "bot:easy" }, `not beginning with "bot:"`},
		{func(c *Config) { c.URL = "ws://127.0.0.1:1/ws,ws://10.0.0.1:2/ws" }, "10.0.0.1 is not a loopback address"},
		{func(c *Config) { c.URL = "ws://127.0.0.1:1/ws,,ws://127.0.0.1:2/ws" }, "an empty URL"},
		{func(c *Config) { c.URL = "ws://127.0.0.1:1/ws,ws://localhost:1" }, "ws://127.0.0.1:1/ws: named twice"},
		{func(c *Config) { c.Spread = "tables" }, `--spread "tables": use rooms`},
		{func(c *Config) { c.FirstRoom = -1 }, "first room -1"},
	} {
		c := good
		tc.change(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%+v: error %v, want one saying %q", c, err, tc.says)
		}
	}
	// Every game the server offers is one the clients play.
	var all []string
	for _, g := range rules.Games() {
		all = append(all, g.Info().Name)
	}
	if got := Games(); !slices.Equal(got, all) {
		t.Errorf("the clients play %v; the server offers %v", got, all)
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
// server writes them (protocol.Encode): the views of real games, the extra
// mini-games' at several points of play, their events, a refusal, a state.
// The views are checked against the rules.View they were written from.
func TestDecode(t *testing.T) {
	d, err := room.NewDecks().Get("classic", false)
	if err != nil {
		t.Fatal(err)
	}
	type sample struct {
		msg  protocol.Message
		view *rules.View // the view msg holds, or nil
	}
	samples := []sample{{&protocol.Refused{ID: "17", Table: 2, Code: rules.CodeTooLate, Reason: `too "late"`, Version: 3}, nil}}
	events := []rules.Event{{Kind: rules.EventClaim, Seat: 2, Symbol: 5, Target: rules.To(1, 2)}, {Kind: rules.EventMove, Seat: 2, From: 3, To: 4}}
	add := func(st *rules.State, table int) {
		for seat := -1; seat < st.Players(); seat++ {
			v := st.View(seat)
			samples = append(samples, sample{&protocol.Update{Table: table, Version: st.Version(), At: 12, Events: events, View: v}, &v})
		}
	}
	newState := func(name string, players int) *rules.State {
		g, _ := rules.Lookup(name)
		st, err := rules.New(g, d.Cards, rules.Config{Players: players, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	add(newState("hot-potato", 3), 1)
	// A smaller table, then a larger one again: each view is read into
	// the lists of the one before, as the clients read them, and nothing
	// of the last may show through.
	add(newState("tower", 2), 4)
	add(newState("hot-potato", 3), 1)
	// The extra mini-games, played by their seats' first moves and the
	// clock, at their start and after 1, 5 and 40 steps.
	for _, name := range []string{"memory", "reflection", "guess", "false-poker", "collect-symbols"} {
		st := newState(name, 3)
		for step := 0; step <= 40 && !st.Over(); step++ {
			if step == 0 || step == 1 || step == 5 || step == 40 {
				add(st, 2)
			}
			moved := false
			for seat := range st.Players() {
				if ms := st.Moves(seat, nil); len(ms) > 0 {
					if _, err := st.Apply(ms[step%len(ms)], nil); err == nil {
						moved = true
						break
					}
				}
			}
			if a, ok := st.Tick(); !moved && ok {
				a.At, _ = st.Deadline()
				if _, err := st.Apply(a, nil); err != nil {
					t.Fatalf("%s: tick: %v", name, err)
				}
			}
		}
		v := st.View(1)
		samples = append(samples, sample{&protocol.State{Table: 3, Game: name, Elapsed: 4321, Seat: 1, View: v}, &v})
	}
	var spare *rules.View
	for _, sm := range samples {
		b := protocol.Encode(sm.msg)
		var got, want message
		err := decode(b, &got, spare)
		if got.View != nil && got.Type == "update" {
			spare = got.View
		}
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		// The other fields as encoding/json reads them, and the view as
		// it was written.
		wantView := fromRules(sm.view)
		gotView := ""
		if got.View != nil {
			gotView = normal(got.View)
		}
		got.View = nil
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		want.View = nil
		// The scanner leaves out what the clients do not use, and [] and
		// null are the same to them.
		want.Reason = ""
		for _, m := range []*message{&got, &want} {
			if len(m.Events) == 0 {
				m.Events = nil
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.300s:\n got %+v\nwant %+v", b, got, want)
		}
		if gotView != wantView {
			t.Errorf("%.300s:\n got view %+v\nwant view %+v", b, gotView, wantView)
		}
	}
	for _, bad := range []string{`{"type":"update","table":`, `{"type":"update","view":{"zones":[{]}}`, `{"type":"refused","table":x}`,
		`{"type":"state","view":{"extra":{"tokens":[1,}}}`} {
		var m message
		if err := decode([]byte(bad), &m, nil); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// fromRules returns what a client should read of rv, in the form normal
// gives; "" for nil.
func fromRules(rv *rules.View) string {
	if rv == nil {
		return ""
	}
	return normal(rv)
}

// normal returns v as JSON without what the scanner leaves out (the seats
// and the result, which the clients do not use), with every zone's empty
// list of cards as null, since [] and null are the same to the clients,
// and the type of its extra.
func normal(v *rules.View) string {
	n := *v
	n.Seats, n.Result, n.Zones = nil, nil, nil
	for _, z := range v.Zones {
		zc := z
		zc.Cards = nil
		for _, c := range z.Cards {
			zc.Cards = append(zc.Cards, rules.CardView{Card: c.Card, Symbols: slices.Clone(c.Symbols)})
		}
		n.Zones = append(n.Zones, zc)
	}
	b, _ := json.Marshal(n)
	return fmt.Sprintf("%s (extra %T)", b, v.Extra)
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
	frame := protocol.Encode(&protocol.Update{Table: 0, Version: st.Version(), At: 1200,
		Events: []rules.Event{{Kind: rules.EventClaim, Seat: 2, Symbol: 5}, {Kind: rules.EventMove, Seat: 2, From: 0, To: 3, Card: 9, Count: 1}}, View: st.View(1)})
	b.ReportAllocs()
	var spare rules.View
	var events []event
	for b.Loop() {
		m := message{Events: events}
		if err := decode(frame, &m, &spare); err != nil {
			b.Fatal(err)
		}
		events = m.Events[:0]
	}
}
