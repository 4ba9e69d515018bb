package room

import (
	"bytes"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

const ms = time.Millisecond

// firstMoves holds each client's first match at its table's first card
// (fairStart).
var firstMoves = map[*client]rules.Action{}

// fairConfig is testConfig with claims ranked by reaction, at most
// 150 ms credited.
func fairConfig() Config {
	c := testConfig()
	c.FairCap = 150 * ms
	return c
}

// fairStart opens a Tower between two people, whose connections' round
// trips are rtts (as the server would have measured them before the
// table began), and lets its countdown run out: the table is shown at
// the harness's time when it returns.
func fairStart(h *harness, rtts ...time.Duration) []*client {
	h.t.Helper()
	host := h.connect("host")
	host.p.AddRTT(rtts[0], 0, false)
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	code := host.take("joined").str("room")
	guest := h.connect("guest")
	guest.p.AddRTT(rtts[1], 0, false)
	guest.send(`{"type": "join", "room": %q}`, code)
	guest.take("joined")
	host.send(`{"type": "start"}`)
	h.advance(testConfig().Countdown)
	for seat, c := range []*client{host, guest} {
		c.take("state")
		firstMoves[c] = h.room().tab.State().Moves(seat, nil)[0]
	}
	return []*client{host, guest}
}

// claimAt has c claim, for its seat, the first match it had at the
// table's first card, at ms milliseconds into the table.
func claimAt(h *harness, c *client, seat int, at int64) {
	h.t.Helper()
	r := h.room()
	h.advance(r.start.Add(time.Duration(at) * ms).Sub(h.now))
	c.act(firstMoves[c], 0)
}

// entries returns the entries of the record of the table being played.
func entries(h *harness) []record.Entry {
	h.t.Helper()
	rec, err := record.NewReader(bytes.NewReader(h.room().rec.buf.Bytes())).Next()
	if err != nil {
		h.t.Fatal(err)
	}
	return rec.Entries
}

// firstCard returns the seat whose claim took the table's first card and
// the timings of the claims recorded so far, by seat; the seat is -1
// while no claim took it.
func firstCard(h *harness) (int, map[int]record.Timing) {
	h.t.Helper()
	won := -1
	timings := map[int]record.Timing{}
	for _, e := range entries(h) {
		if e.Refusal == nil && won < 0 {
			won = e.Action.Seat
		}
		if e.Timing != nil {
			timings[e.Action.Seat] = *e.Timing
		}
	}
	return won, timings
}

// TestFairRanksByReaction races a person 20 ms from the server against
// one 150 ms away, on the clock of the harness. The near one's claim
// arrives first and is held 130 ms (150 − 20) for claims that reacted
// earlier: the far one's, arriving within that window having reacted
// faster, wins at once; when none comes, the near one's wins when the
// window closes, and the far one's, later and slower, is too late.
func TestFairRanksByReaction(t *testing.T) {
	t.Run("the far person reacted faster", func(t *testing.T) {
		h := newHarness(t, fairConfig())
		c := fairStart(h, 20*ms, 150*ms)
		claimAt(h, c[0], 0, 900) // reacted in 880 ms
		if won, _ := firstCard(h); won != -1 {
			t.Fatalf("the first claim was decided at once, for seat %d", won)
		}
		claimAt(h, c[1], 1, 1000) // reacted in 850 ms: nobody else can claim
		checkRace(t, h, c, 1, record.Timing{Arrival: 1000, RTT: 150, Credit: 150, Reaction: 850})
	})
	t.Run("the near person reacted faster", func(t *testing.T) {
		h := newHarness(t, fairConfig())
		c := fairStart(h, 20*ms, 150*ms)
		claimAt(h, c[0], 0, 900)
		h.advance(129 * ms)
		if won, _ := firstCard(h); won != -1 {
			t.Fatalf("decided for seat %d 1 ms before the window closed", won)
		}
		h.advance(ms)
		if won, _ := firstCard(h); won != 0 {
			t.Fatalf("at the window's end seat %d took the card; want seat 0", won)
		}
		// The claim's latency in /metrics is the time it was held.
		if n, sum := h.histogram("dobble_claim_latency_seconds"); n != 1 || math.Abs(sum-0.130) > 1e-9 {
			t.Errorf("dobble_claim_latency_seconds: %d claims, %.6f s in all; want 1 claim of 0.130 s", n, sum)
		}
		claimAt(h, c[1], 1, 1050) // reacted in 900 ms
		checkRace(t, h, c, 0, record.Timing{Arrival: 1050, RTT: 150, Credit: 150, Reaction: 900})
	})
}

// checkRace checks the race for the first card: seat want took it, the
// near seat's claim (arrived at 900 ms) and the far seat's (farTiming)
// are recorded with their timings, the loser was told it was too late,
// and the record, which keeps the too-late claim, replays and checks.
func checkRace(t *testing.T, h *harness, c []*client, want int, farTiming record.Timing) {
	t.Helper()
	won, timings := firstCard(h)
	if won != want {
		t.Fatalf("seat %d took the card; want seat %d (timings %+v)", won, want, timings)
	}
	if got := timings[0]; got != (record.Timing{Arrival: 900, RTT: 20, Credit: 20, Reaction: 880}) {
		t.Errorf("the near claim's timing: %+v", got)
	}
	if got := timings[1]; got != farTiming {
		t.Errorf("the far claim's timing: %+v; want %+v", got, farTiming)
	}
	if ref := c[1-want].take("refused"); ref.str("code") != "tooLate" {
		t.Errorf("the slower reaction's answer: %v", ref)
	}
	rec, err := record.NewReader(bytes.NewReader(h.room().rec.buf.Bytes())).Next()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rec.Replay(nil); err != nil {
		t.Errorf("replay: %v", err)
	}
	if err := rec.Check(); err != nil {
		t.Errorf("check: %v", err)
	}
}

// TestFairCreditBounds checks what a claim is credited with: no more than
// the cap of a longer round trip, nothing for a reaction under the human
// floor, and no more than the seat's quota holds.
func TestFairCreditBounds(t *testing.T) {
	h := newHarness(t, fairConfig())
	c := fairStart(h, 20*ms, 400*ms)
	claimAt(h, c[1], 1, 700)
	h.advance(time.Second)
	if _, timings := firstCard(h); timings[1] != (record.Timing{Arrival: 700, RTT: 400, Credit: 150, Reaction: 550}) {
		t.Fatalf("a 400 ms round trip: %+v; want 150 ms credited", timings[1])
	}

	h = newHarness(t, fairConfig())
	c = fairStart(h, 20*ms, 150*ms)
	claimAt(h, c[1], 1, 200) // 200 ms after the card: 50 ms of reaction with the credit
	h.advance(time.Second)
	if _, timings := firstCard(h); timings[1] != (record.Timing{Arrival: 200, RTT: 150, Credit: 0, Reaction: 200}) {
		t.Fatalf("a reaction under the human floor: %+v; want no credit", timings[1])
	}

	// The quota: three times the cap at most, refilled by the cap at each
	// change of the table, drawn by every claim. Claims against a card
	// already taken draw on it too: after the claim that takes a card
	// (the quota refilled to 450 ms), three stale claims draw it all,
	// and the next is credited nothing.
	h = newHarness(t, fairConfig())
	c = fairStart(h, 20*ms, 150*ms)
	r := h.room()
	v := &r.fair.seen[1]
	if v.quota != 450 {
		t.Fatalf("the quota at the first card: %d ms; want 450", v.quota)
	}
	claimAt(h, c[1], 1, 1000)
	h.advance(time.Second)
	if v.quota != 450 { // 450 − 150 + 150 for the change its claim made
		t.Fatalf("the quota after a credited claim: %d ms; want 450", v.quota)
	}
	st := r.tab.State()
	stale := st.Moves(1, nil)[0]
	h.advance(500 * ms)
	credits := []int64{}
	for range 5 {
		c[1].act(stale, 0)
		h.advance(500 * ms)
		es := entries(h)
		credits = append(credits, es[len(es)-1].Timing.Credit)
	}
	if want := []int64{150, 150, 150, 150, 0}; !slices.Equal(credits, want) {
		t.Fatalf("five claims of one version credited %v; want %v", credits, want)
	}
}

// TestFairDecisionReplays crashes a room just after the far person's
// claim won by reaction, and restores it from the journal: the replay,
// whose connections are ghosts with no round trip of their own, reads
// the round trips from the journal and decides the same.
func TestFairDecisionReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dobble.db")
	h := newHarness(t, fairConfig())
	h.useJournal(openJournal(t, path))
	c := fairStart(h, 20*ms, 150*ms)
	claimAt(h, c[0], 0, 900)
	claimAt(h, c[1], 1, 1000)
	h.advance(100 * ms)
	won, _ := firstCard(h)
	if won != 1 {
		t.Fatalf("seat %d took the card; want the far person's seat 1", won)
	}
	version := h.room().tab.State().Version()

	h2 := newHarness(t, fairConfig())
	h2.now = h.now.Add(time.Minute)
	h2.useJournal(openJournal(t, path))
	if n, err := h2.m.Restore(); n != 1 || err != nil {
		t.Fatalf("restored %d rooms (%v), want 1", n, err)
	}
	if got := h2.room().tab.State().Version(); got != version {
		t.Fatalf("the replay is at version %d; the room was at %d", got, version)
	}
	if won2, _ := firstCard(h2); won2 != won {
		t.Fatalf("the replay gave the card to seat %d; the room gave it to %d", won2, won)
	}
}

// TestFairOffRanksByArrival turns the ranking off: the first claim to
// arrive wins at once, whatever the round trips.
func TestFairOffRanksByArrival(t *testing.T) {
	h := newHarness(t, testConfig())
	c := fairStart(h, 20*ms, 150*ms)
	claimAt(h, c[0], 0, 900)
	if won, timings := firstCard(h); won != 0 || len(timings) != 0 {
		t.Fatalf("seat %d took the card (timings %v); want seat 0 at once, untimed", won, timings)
	}
}

// TestFairBotsRaceThroughTheirNetwork seats a bot beside a person next to
// the server: the bot races as a player whose round trip is the bots'
// network delay (40 ms). Its claim, ranked at the time it planned, reaches
// the table 40 ms later; the person's claim, which could have been beaten
// by the bot's until then, is held those 40 ms.
func TestFairBotsRaceThroughTheirNetwork(t *testing.T) {
	cfg := fairConfig()
	cfg.BotNetDelay = 40 * ms
	h := newHarness(t, cfg)
	host := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "easy"]}`)[0]
	r := h.room()
	p, ok := r.tab.Plan(1)
	if !ok {
		t.Fatal("the bot has no plan")
	}
	due := r.start.Add(time.Duration(p.Action.At+40) * ms)
	if !r.wake.Equal(due) {
		t.Fatalf("the room wakes at %v; the bot's claim, planned for %d ms, is due 40 ms later", r.wake.Sub(r.start), p.Action.At)
	}

	// The person claims before the bot's plan: held 40 ms.
	h2 := newHarness(t, cfg)
	host = startRoom(h2, `{"game": "tower", "seats": 2, "bots": [null, "easy"]}`)[0]
	r = h2.room()
	st := r.tab.State()
	host.act(st.Moves(0, nil)[0], 0)
	if st.Version() != 0 {
		t.Fatal("the person's claim was decided at once")
	}
	h2.advance(39 * ms)
	if st.Version() != 0 {
		t.Fatal("the person's claim was decided before the bots' network delay passed")
	}
	h2.advance(ms)
	if st.Version() != 1 {
		t.Fatalf("40 ms after the person's claim the table is at version %d; want 1", st.Version())
	}
}
