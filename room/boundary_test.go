package room

import (
	"fmt"
	"reflect"
	"testing"
)

// TestTieBreakSeats plays a learning game to a tie between room seats 1
// and 2 (13 pairs each, seat 3 the last one), and checks the boundary at
// the duel that settles it, where room seats 1 and 2 are the duel's seats
// 0 and 1: what each seat is told it plays, whose claims reach the table
// and as which seat, and what comes too late.
func TestTieBreakSeats(t *testing.T) {
	h := newHandRoom(t, "learning", 4, true, nil)
	for step := 0; h.r.phase == PhasePlay; step++ {
		seat := 1 + step%2
		if step >= 26 {
			seat = 3
		}
		if !h.claim(seat, seat) {
			t.Fatalf("step %d: seat %d has no claim", step, seat)
		}
	}
	if h.r.phase != PhaseCountdown || h.r.play.State().Info().Name != "duel" || h.r.table() != 1 {
		t.Fatalf("after the game: phase %s, %s at table %d; want the duel's countdown at table 1", h.r.phase, h.r.play.State().Info().Name, h.r.table())
	}
	h.frames = make([][][]byte, 4)
	h.countdown()
	for seat, want := range []float64{-1, 0, 1, -1} {
		m := h.received(seat, "state")
		if m["seat"] != want || m["view"].(map[string]any)["seat"] != want ||
			!reflect.DeepEqual(m["players"], []any{1.0, 2.0}) || m["table"] != 1.0 {
			t.Fatalf("room seat %d: %v; want the duel's state as its seat %v", seat, m, want)
		}
	}

	// Room seat 0 sits the duel out; a claim at the finished table is
	// too late; nobody acts for another seat.
	v := h.r.play.State().Version()
	h.send(0, fmt.Sprintf(`{"type":"claim","symbol":1,"table":1,"version":%d,"id":"a"}`, v))
	if m := h.received(0, "refused"); m["code"] != "noSeat" || m["table"] != 1.0 || m["id"] != "a" {
		t.Fatalf("room seat 0 claims in the duel: %v", m)
	}
	h.send(1, fmt.Sprintf(`{"type":"claim","symbol":1,"table":0,"version":%d,"id":"b"}`, v))
	if m := h.received(1, "refused"); m["code"] != "tooLate" || m["table"] != 1.0 || m["version"] != float64(v) {
		t.Fatalf("a claim at table 0 during the duel: %v", m)
	}
	h.send(1, fmt.Sprintf(`{"type":"claim","symbol":1,"table":1,"version":%d,"seat":2}`, v))
	if m := h.received(1, "error"); m["code"] != "notAllowed" {
		t.Fatalf("room seat 1 acts for seat 2: %v", m)
	}

	// Room seat 2's right claim is the duel's seat 1's.
	h.frames = make([][][]byte, 4)
	if !h.claim(2, 1) {
		t.Fatal("the duel's seat 1 has no claim")
	}
	for seat, want := range []float64{-1, 0, 1, -1} {
		m := h.received(seat, "update")
		ev := m["events"].([]any)[0].(map[string]any)
		if m["view"].(map[string]any)["seat"] != want || ev["kind"] != "claim" || ev["seat"] != 1.0 {
			t.Fatalf("room seat %d after room seat 2's claim: %v", seat, m)
		}
	}
}
