package rules

import "testing"

// TestReserve checks that zones added after reserve fit in the room it
// made: neither the zone list nor the card space is reallocated, and every
// new zone has room for the whole deck without overlapping another.
func TestReserve(t *testing.T) {
	s, err := New(mustGame(t, "tower"), mustDeck(t, 3, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	const extra = 20
	n := s.cards.Len()
	s.reserve(extra)
	zones, arena := &s.zones[:cap(s.zones)][0], &s.arena[:cap(s.arena)][0]
	if cap(s.zones)-len(s.zones) < extra || cap(s.arena)-len(s.arena) < extra*n {
		t.Fatalf("room for %d zones and %d cards, want %d and %d",
			cap(s.zones)-len(s.zones), cap(s.arena)-len(s.arena), extra, extra*n)
	}
	first := s.Zones()
	for range extra {
		s.addZone(ZoneAside, NoSeat, ShowHidden)
	}
	if &s.zones[0] != zones || &s.arena[:1][0] != arena {
		t.Fatal("adding the reserved zones reallocated")
	}
	for z := first; z < s.Zones(); z++ {
		for range n {
			s.zones[z].cards = append(s.zones[z].cards, int32(z))
		}
	}
	for z := first; z < s.Zones(); z++ {
		for _, c := range s.zones[z].cards {
			if c != int32(z) || len(s.zones[z].cards) != n {
				t.Fatalf("zone %d holds %v: zones overlap", z, s.zones[z].cards)
			}
		}
	}
}
