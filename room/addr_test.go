package room

import (
	"testing"
)

// TestRoomsPerAddress has the connections of one client address create
// rooms up to MaxRoomsPerAddr: the next create is refused, saying why,
// while another address still creates; once one of the first address's
// rooms closes, it may create again.
func TestRoomsPerAddress(t *testing.T) {
	cfg := testConfig()
	cfg.MaxRoomsPerAddr = 3
	h := newHarness(t, cfg)
	var hosts []*client
	for i := range 4 {
		c := h.connect("mallory")
		c.p.SetAddress("203.0.113.7")
		c.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
		if i < 3 {
			c.take("joined")
			hosts = append(hosts, c)
			continue
		}
		if e := c.take("error"); e.str("code") != "serverFull" || e.str("message") != "your address has 3 rooms open, the most one address may; leave or finish one first" {
			t.Fatalf("the fourth room of one address: %v", e)
		}
	}
	if got := h.metric(`dobble_connections_refused_total`); got != 1 {
		t.Fatalf("refusals counted: %v, want 1", got)
	}
	other := h.connect("ann")
	other.p.SetAddress("198.51.100.1")
	other.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	other.take("joined")
	// A host leaves its lobby: its room closes, and its address may open
	// one again.
	hosts[0].send(`{"type": "leave"}`)
	again := h.connect("mallory")
	again.p.SetAddress("203.0.113.7")
	again.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	again.take("joined")
}
