package room

import (
	"testing"
)

// TestRoomWhoseCreatorIsGoneCloses creates rooms whose creator cannot be
// seated, in the orders of events a connection that closes at once, or
// that sends two creates in a row, brings about: every such room closes
// as soon as it has served the create, and frees its place under
// MaxRooms.
func TestRoomWhoseCreatorIsGoneCloses(t *testing.T) {
	cfg := testConfig()
	cfg.MaxRooms = 2
	h := newHarness(t, cfg)
	const create = `{"type": "create", "room": {"game": "tower", "seats": 2}}`

	// The connection ends between the create and the room's serving it:
	// the room never seats anyone, and no departure reaches it.
	for i := range 3 {
		c := h.connect("ghost")
		h.m.Handle(c.p, []byte(create), h.now)
		h.m.Gone(c.p)
		h.pump()
		if n := h.m.Rooms(); n != 0 {
			t.Fatalf("after %d creates whose connection ended before the room served them: %d rooms open, want 0", i+1, n)
		}
	}

	// Two creates before the room of the first has seated its creator:
	// the second room cannot seat them, and closes.
	c := h.connect("twice")
	h.m.Handle(c.p, []byte(create), h.now)
	h.m.Handle(c.p, []byte(create), h.now)
	h.pump()
	c.take("joined")
	if e := c.take("error"); e.str("code") != "notAllowed" {
		t.Fatalf("the second create: %v; want notAllowed", e)
	}
	if n := h.m.Rooms(); n != 1 {
		t.Fatalf("after two creates in a row: %d rooms open, want the first one only", n)
	}

	// The creator seated, then gone: the seat is held for SeatHold, then
	// the room closes.
	c.gone()
	h.advance(cfg.SeatHold / 2)
	if n := h.m.Rooms(); n != 1 {
		t.Fatalf("within the seat hold: %d rooms open, want 1", n)
	}
	h.advance(cfg.SeatHold)
	if n := h.m.Rooms(); n != 0 {
		t.Fatalf("after the seat hold: %d rooms open, want 0", n)
	}
	// Nothing is left over: the rooms a server may open are all free.
	for range cfg.MaxRooms {
		c := h.connect("host")
		c.send(create)
		c.take("joined")
	}
}
