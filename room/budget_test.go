package room

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// budgetPeer returns a Peer of h's Manager drawing on budget, and the
// codes of the errors it receives.
func budgetPeer(h *harness, budget *Budget) (*Peer, *[]string) {
	p := h.m.NewPeer()
	p.ShareBudget(budget)
	var codes []string
	var buf [][]byte
	p.SetWriter(func() {
		for {
			buf, _ = p.Take(buf)
			if len(buf) == 0 {
				return
			}
			for _, b := range buf {
				var f frame
				json.Unmarshal(b, &f)
				if f.str("type") == "error" {
					codes = append(codes, f.str("code"))
				}
			}
		}
	})
	return p, &codes
}

// TestAddressBudgetSurvivesReconnects spends the budget of an address
// (5 messages, refilled at 1 a second) from one connection, then from a
// new one of the same address: the new connection finds it spent, while
// its own bucket is full. Control frames draw on it like messages.
func TestAddressBudgetSurvivesReconnects(t *testing.T) {
	h := newHarness(t, testConfig())
	budget := NewBudget(1, 5)
	const look = `{"type": "join", "room": "NOSUCHRM"}`
	first, codes := budgetPeer(h, budget)
	h.m.Handle(first, []byte(`{"type": "hello", "v": 1, "name": "a"}`), h.now)
	for range 4 {
		h.m.Handle(first, []byte(look), h.now)
	}
	if want := []string{"noRoom", "noRoom", "noRoom", "noRoom"}; !slices.Equal(*codes, want) {
		t.Fatalf("within the budget: errors %v; want %v", *codes, want)
	}
	h.m.Gone(first)

	second, codes := budgetPeer(h, budget)
	h.m.Handle(second, []byte(`{"type": "hello", "v": 1, "name": "a"}`), h.now)
	if want := []string{"rateLimited"}; !slices.Equal(*codes, want) {
		t.Fatalf("the hello of a new connection from the same address, the budget spent: errors %v; want %v", *codes, want)
	}
	if second.Hello() {
		t.Fatal("a hello refused for the budget was taken")
	}
	// A second later the budget holds one message more: the hello.
	h.now = h.now.Add(time.Second)
	h.m.Handle(second, []byte(`{"type": "hello", "v": 1, "name": "a"}`), h.now)
	if !second.Hello() {
		t.Fatalf("hello a second later was not taken; errors %v", *codes)
	}
	// Control frames draw on the budget too: one more a second later,
	// then none.
	h.now = h.now.Add(time.Second)
	if !h.m.Control(second, h.now) {
		t.Fatal("a ping with a message in the budget was refused")
	}
	if h.m.Control(second, h.now) {
		t.Fatal("a ping with the budget spent was answered")
	}
}

// TestControlFramesAreRateLimited sends pings without end on a connection
// with its own bucket only: once the bucket is empty they are refused,
// and after FloodLimit refused in a row the connection is closed.
func TestControlFramesAreRateLimited(t *testing.T) {
	cfg := testConfig()
	cfg.Rate, cfg.Burst, cfg.FloodLimit = 10, 20, 50
	h := newHarness(t, cfg)
	p, _ := budgetPeer(h, nil)
	answered := 0
	for range 1000 {
		if h.m.Control(p, h.now) {
			answered++
		}
	}
	if answered != cfg.Burst {
		t.Fatalf("%d pings at once answered; want the burst, %d", answered, cfg.Burst)
	}
	select {
	case <-p.Done():
	default:
		t.Fatal("a connection whose pings were refused 980 times in a row is still open")
	}
	if code, reason := p.CloseStatus(); code != StatusPolicy || reason[:5] != "flood" {
		t.Fatalf("closed with %d %q; want 1008 and a flood", code, reason)
	}
}
