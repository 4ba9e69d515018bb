package room

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/rules"
)

// counter is a connection that says hello and then only counts what it
// receives, keeping the times of the updates: a room that runs away sends
// it millions of frames, which a client keeping them all could not hold.
type counter struct {
	p       *Peer
	frames  int
	updates []update
	overs   int    // over frames: tables ended
	closed  string // the reason of a closed frame
}

// update is the table and time of an update frame.
type update struct{ table, at int64 }

// quiet connects a counter that says hello as name.
func (h *harness) quiet(name string) *counter {
	h.t.Helper()
	c := &counter{p: h.m.NewPeer()}
	var buf [][]byte
	c.p.SetWriter(func() {
		for {
			buf, _ = c.p.Take(buf)
			if len(buf) == 0 {
				return
			}
			for _, b := range buf {
				c.frames++
				var f struct {
					Type   string `json:"type"`
					Table  int64  `json:"table"`
					At     int64  `json:"at"`
					Reason string `json:"reason"`
				}
				if err := json.Unmarshal(b, &f); err != nil {
					h.t.Fatalf("%s got a frame that is not JSON: %s", name, b)
				}
				switch f.Type {
				case "update":
					c.updates = append(c.updates, update{f.Table, f.At})
				case "over":
					c.overs++
				case "closed":
					c.closed = f.Reason
				}
			}
		}
	})
	c.send(h, `{"type": "hello", "v": 1, "name": %q}`, name)
	return c
}

// send sends a frame now, formatted, and lets the rooms handle it.
func (c *counter) send(h *harness, format string, args ...any) {
	h.m.Handle(c.p, []byte(fmt.Sprintf(format, args...)), h.now)
	h.pump()
}

// outOfReach returns the symbols whose tokens are in the centre of Collect
// the Symbols state st but on no card in the piles of the given seats.
func outOfReach(st *rules.State, seats []int) []int {
	seen := map[int]bool{}
	for _, seat := range seats {
		for _, c := range st.Zone(2 * seat).AppendCards(nil) {
			for _, sym := range st.Cards().AppendCard(nil, c) {
				seen[sym] = true
			}
		}
	}
	var out []int
	for _, sym := range st.View(rules.Spectator).Extra.(rules.CollectView).Tokens {
		if !seen[sym] {
			out = append(out, sym)
		}
	}
	return out
}

// heapMB returns the live heap in MiB, after a collection.
func heapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// TestRunawayBots plays rooms of Collect the Symbols on the order-2 deck
// where instant bots sit beside people who do nothing, for ten seconds of
// the room's clock. Instant bots used to play there at 0 ms: the game of
// three bots and one person ended the moment it began, and with two
// people holding the only cards of a token, two bots discarded and took
// each other's piles at 0 ms without end, millions of actions a minute,
// until the room had eaten gigabytes. In a room a bot now answers a
// change of the table 250 ms after it at the soonest, so no update comes
// sooner than 250 ms after the one before, and the stalled game ends by
// the rules (rules/collect.go).
func TestRunawayBots(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bots   string
		people int
		seed   uint64 // the session's, chosen for the deal it makes
		reach  bool   // whether a token is on the people's cards only
	}{
		{"three bots beside one person", `[null, "instant", "instant", "instant"]`, 1, 1, false},
		{"two bots beside two people holding a token", `[null, "instant", null, "instant"]`, 2, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			h.m.seed = func() uint64 { return tc.seed }
			before := heapMB()
			people := []*counter{h.quiet("host")}
			people[0].send(h, `{"type": "create", "room": {"game": "collect-symbols", "seats": 4, "bots": %s, "deck": "order-2", "games": 1}}`, tc.bots)
			r := h.room()
			for i := 1; i < tc.people; i++ {
				c := h.quiet(fmt.Sprintf("guest%d", i))
				c.send(h, `{"type": "join", "room": %q}`, r.code)
				people = append(people, c)
			}
			people[0].send(h, `{"type": "start"}`)
			if tc.reach {
				// The deal of the game about to start: a token on the
				// people's cards only.
				if got := outOfReach(r.play.State(), []int{1, 3}); len(got) == 0 {
					t.Fatalf("seed %d deals every token within the bots' reach", tc.seed)
				}
			}
			start := time.Now()
			h.advance(testConfig().Countdown)
			const span = 10 * time.Second
			h.advance(span)
			wall := time.Since(start)
			after := heapMB()
			c := people[0]
			t.Logf("%v of the room's clock (%v of the machine's): %v actions processed (dobble_claims_total), %d updates and %d frames to the host, heap %.1f MiB → %.1f MiB",
				span, wall.Round(time.Millisecond), h.metric("dobble_claims_total"), len(c.updates), c.frames, before, after)
			if c.closed != "" || r.closed {
				t.Fatalf("the room was closed: %q", c.closed)
			}
			last := update{}
			for i, u := range c.updates {
				if u.table != last.table {
					last = update{table: u.table}
				}
				if u.at-last.at < 250 {
					t.Fatalf("update %d at %d ms of table %d, %d ms after the change before it; a bot answers 250 ms after a change at the soonest",
						i, u.at, u.table, u.at-last.at)
				}
				last = u
			}
			if len(c.updates) > int(span/(250*time.Millisecond)) {
				t.Fatalf("%d updates in %v", len(c.updates), span)
			}
			// The first game ended: the tokens gone, or the game stalled
			// with the people's token left (the session may have gone
			// on to a tie-break between the bots).
			if c.overs == 0 {
				t.Fatalf("after %v the first game goes on (phase %s)", span, r.phase)
			}
		})
	}
}

// TestBotRateBound lowers the floor under the bots' times to 1 ms and
// bounds them to 20 actions a second in bursts of 10: two instant bots
// beside two people who do nothing, who would play a whole Tower in some
// 60 ms, make 10 actions at once and 20 more in the second after, their
// plans refused as too late included. The delays are counted in
// dobble_bot_actions_deferred_total and logged once at the first and once
// at the table's end; the game still ends.
func TestBotRateBound(t *testing.T) {
	var logs bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(old)

	cfg := testConfig()
	cfg.BotDelay, cfg.BotRate, cfg.BotBurst = time.Millisecond, 20, 10
	h := newHarness(t, cfg)
	c := startRoom(h, `{"game": "tower", "seats": 4, "bots": [null, "instant", null, "instant"]}`, "guest")
	r := h.room()
	if steps := r.tab.Stats().Steps; steps != 0 {
		t.Fatalf("%d steps at the start", steps)
	}
	h.advance(time.Second)
	st := r.tab.Stats()
	if st.Steps <= 10 || st.Steps > 10+20 || st.Deferred == 0 {
		t.Fatalf("after a second: %+v, want 10 steps at once, 20 more at most, and actions deferred", st)
	}
	if got := h.metric("dobble_bot_actions_deferred_total"); got != float64(st.Deferred) {
		t.Fatalf("dobble_bot_actions_deferred_total %v, the table deferred %d", got, st.Deferred)
	}
	if n := strings.Count(logs.String(), "reached the room's bound"); n != 1 {
		t.Fatalf("%d log lines of the bound reached, want 1:\n%s", n, logs.String())
	}
	h.advanceUntil("the end of the game", 100*time.Millisecond, time.Minute, func() bool { return r.phase != PhasePlay })
	c[0].take("over")
	if !strings.Contains(logs.String(), "held back by the room's bound") || !strings.Contains(logs.String(), "room="+r.code) {
		t.Fatalf("the end of the table was not logged:\n%s", logs.String())
	}
	if got := h.metric("dobble_bot_actions_deferred_total"); got != float64(r.tab.Stats().Deferred) {
		t.Fatalf("dobble_bot_actions_deferred_total %v, the table deferred %d", got, r.tab.Stats().Deferred)
	}
}
