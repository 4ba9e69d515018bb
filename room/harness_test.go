package room

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
)

// harness runs a Manager's rooms in the test's goroutine, on a clock of
// its own, with sessions seeded 1, 2, 3…: no room goroutine, no timer, no
// socket. A request is handled
// when it is sent; time passes only in advance, which fires each room's
// timer at the moment the room set it for, in order.
type harness struct {
	t     *testing.T
	m     *Manager
	store store.Store
	reg   *metrics.Registry // the Manager's metrics
	now   time.Time
	rooms []*Room
	// journal, when set, keeps the rooms (useJournal); the harness waits
	// for it after each step, so that the frames it holds back are out.
	journal *journal.Journal
}

// useJournal has the Manager keep its rooms in j.
func (h *harness) useJournal(j *journal.Journal) {
	h.journal = j
	h.m.UseJournal(j)
}

// flush waits until the journal has written what the rooms gave it, and
// their frames have gone out.
func (h *harness) flush() {
	if h.journal != nil {
		if err := h.journal.Flush(context.Background()); err != nil {
			h.t.Fatal(err)
		}
	}
}

// newHarness returns a harness for a Manager with cfg, saving to a new
// store.
func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return newHarnessOn(t, cfg, st)
}

// newHarnessOn returns a harness for a Manager with cfg, saving to st,
// which it closes when the test ends.
func newHarnessOn(t *testing.T, cfg Config, st store.Store) *harness {
	t.Helper()
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, store: st, reg: metrics.NewRegistry(), now: time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)}
	m, err := NewManager(cfg, st, NewDecks(), NewMetrics(h.reg), "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	m.now = func() time.Time { return h.now }
	seed := uint64(0)
	m.seed = func() uint64 {
		seed++
		return seed
	}
	m.spawn = func(r *Room) { h.rooms = append(h.rooms, r) }
	t.Cleanup(m.Close)
	h.m = m
	return h
}

// pump has every room handle what waits in its queues, as its goroutine
// would: each request or departure, then whatever is due now.
func (h *harness) pump() {
	for _, r := range h.rooms {
		for !r.closed && h.step(r) {
		}
	}
	h.flush()
}

// step has r handle one request or the departures waiting, then whatever
// is due now, and reports whether anything was waiting.
func (h *harness) step(r *Room) bool {
	select {
	case in := <-r.in:
		r.request(in)
	case <-r.goneSig:
		r.departures()
	default:
		return false
	}
	r.endTurn(r.now())
	return true
}

// advance moves the clock on by d, firing the rooms' timers on the way at
// the times they were set for.
func (h *harness) advance(d time.Duration) {
	h.t.Helper()
	end := h.now.Add(d)
	for fired := 0; ; fired++ {
		if fired > 100_000 {
			h.t.Fatal("the rooms' timers fire without end")
		}
		var next *Room
		for _, r := range h.rooms {
			if !r.closed && !r.wake.IsZero() && !r.wake.After(end) && (next == nil || r.wake.Before(next.wake)) {
				next = r
			}
		}
		if next == nil {
			break
		}
		if next.wake.After(h.now) {
			h.now = next.wake
		}
		next.endTurn(next.now())
	}
	h.flush()
	h.now = end
}

// advanceUntil moves the clock on in steps of step until done holds, and
// fails the test when it does not within limit.
func (h *harness) advanceUntil(what string, step, limit time.Duration, done func() bool) {
	h.t.Helper()
	for passed := time.Duration(0); !done(); passed += step {
		if passed >= limit {
			h.t.Fatalf("%s: not within %v", what, limit)
		}
		h.advance(step)
	}
}

// metric returns the value of the counter or gauge called name, summed
// over its labels, as /metrics would show it.
func (h *harness) metric(name string) float64 {
	h.t.Helper()
	sum := 0.0
	for _, f := range h.reg.Gather() {
		if f.Name != name || f.Type != metrics.CounterType && f.Type != metrics.GaugeType {
			continue
		}
		for _, m := range f.Series {
			sum += m.Value
		}
	}
	return sum
}

// histogram returns the number and the sum of the observations of the
// histogram called name, as /metrics would show them.
func (h *harness) histogram(name string) (uint64, float64) {
	h.t.Helper()
	for _, f := range h.reg.Gather() {
		if f.Name == name && f.Type == metrics.HistogramType && len(f.Series) == 1 {
			return f.Series[0].Count, f.Series[0].Sum
		}
	}
	h.t.Fatalf("no histogram %s in the registry", name)
	return 0, 0
}

// room returns the room of the last create.
func (h *harness) room() *Room {
	h.t.Helper()
	if len(h.rooms) == 0 {
		h.t.Fatal("no room was created")
	}
	return h.rooms[len(h.rooms)-1]
}

// client is a connection as a room sees it: a real Peer whose writer
// takes its frames as they are queued, and keeps them, a frame sent with
// Peer.SendPooled marked with pooledKey.
type client struct {
	h      *harness
	name   string
	p      *Peer
	frames []frame
	closed bool
}

// frame is one decoded frame a client received.
type frame map[string]any

// pooledKey marks a frame sent with Peer.SendPooled, which the writer may
// give back to protocol's frame pool.
const pooledKey = "(pooled)"

// str returns field k as a string.
func (f frame) str(k string) string { s, _ := f[k].(string); return s }

// num returns field k as a whole number.
func (f frame) num(k string) int64 { n, _ := f[k].(float64); return int64(n) }

// connect opens a client that says hello as name.
func (h *harness) connect(name string) *client {
	h.t.Helper()
	c := &client{h: h, name: name, p: h.m.NewPeer()}
	var buf [][]byte
	var pooled []bool
	c.p.SetWriter(func() {
		for {
			var last bool
			buf, pooled, last = c.p.TakePooled(buf, pooled)
			if len(buf) == 0 {
				c.closed = c.closed || last
				return
			}
			for i, b := range buf {
				var f frame
				if err := json.Unmarshal(b, &f); err != nil {
					h.t.Fatalf("%s got a frame that is not JSON: %s", name, b)
				}
				if pooled[i] {
					f[pooledKey] = true
				}
				c.frames = append(c.frames, f)
			}
		}
	})
	c.send(`{"type": "hello", "v": 1, "name": %q}`, name)
	c.take("welcome")
	return c
}

// send sends a frame now, formatted, and lets the rooms handle it.
func (c *client) send(format string, args ...any) {
	c.h.m.Handle(c.p, []byte(fmt.Sprintf(format, args...)), c.h.now)
	c.h.pump()
}

// gone ends the client's connection.
func (c *client) gone() {
	c.h.m.Gone(c.p)
	c.h.pump()
}

// take returns the first frame of type typ received and not yet taken,
// dropping the frames before it; it fails the test when there is none.
func (c *client) take(typ string) frame {
	c.h.t.Helper()
	for i, f := range c.frames {
		if f.str("type") == typ {
			c.frames = c.frames[i+1:]
			return f
		}
	}
	c.h.t.Fatalf("%s received no %s; it has %s", c.name, typ, c.pending())
	return nil
}

// await moves the clock on until a frame of type typ has arrived, as the
// bots' actions come no sooner than Config.BotDelay, then takes it; it
// fails the test when none comes within a minute on the clock.
func (c *client) await(typ string) frame {
	c.h.t.Helper()
	c.h.advanceUntil(c.name+" awaits "+typ, 50*time.Millisecond, time.Minute, func() bool {
		return slices.ContainsFunc(c.frames, func(f frame) bool { return f.str("type") == typ })
	})
	return c.take(typ)
}

// none fails the test when a frame of type typ waits to be taken.
func (c *client) none(typ string) {
	c.h.t.Helper()
	for _, f := range c.frames {
		if f.str("type") == typ {
			c.h.t.Fatalf("%s received an unexpected %s: %v", c.name, typ, f)
		}
	}
}

// pending lists the types of the frames not yet taken.
func (c *client) pending() string {
	var types []string
	for _, f := range c.frames {
		types = append(types, f.str("type"))
	}
	return "[" + strings.Join(types, " ") + "]"
}

// act sends action a of the client's seat at table as its message.
func (c *client) act(a rules.Action, table int) {
	kind, _ := protocol.ActionType(a.Kind)
	target := make([]int, a.Target.Len())
	for i := range target {
		target[i] = a.Target.At(i)
	}
	tb, _ := json.Marshal(target)
	c.send(`{"type": %q, "id": "a", "table": %d, "version": %d, "symbol": %d, "target": %s}`, kind, table, a.Version, a.Symbol, tb)
}

// bytesReader reads b.
func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
