package rules

import (
	"slices"
	"testing"
)

// untilShuffle applies each seat's first move, seat by seat, until an
// action shuffles, and returns that action's events.
func untilShuffle(t *testing.T, s *State) []Event {
	t.Helper()
	var moves []Action
	for !s.Over() {
		for seat := range s.Players() {
			if moves = s.Moves(seat, moves[:0]); len(moves) == 0 {
				continue
			}
			ev, err := s.Apply(moves[0], nil)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(ev, func(e Event) bool { return e.Kind == EventShuffle }) {
				return ev
			}
			break
		}
	}
	t.Fatal("the game ended without a shuffle")
	return nil
}

// TestKeepShuffles checks State.KeepShuffles and State.Shuffled on Subway
// Rescue, where every seat shuffles its pile when a new pile is laid out:
// off, nothing is kept; on, Shuffled gives one order per shuffle event,
// the zone's cards as the shuffle left them, until the next action; Reset
// keeps the setting and Clone does not.
func TestKeepShuffles(t *testing.T) {
	x, err := NewIndex(mustDeck(t, 3, 13))
	if err != nil {
		t.Fatal(err)
	}
	g := mustGame(t, "subway-rescue")
	s, err := New(g, x, Config{Players: 2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	off := s.Clone()
	s.KeepShuffles(true)
	if s.Shuffled() != nil {
		t.Fatal("orders kept before any action")
	}
	ev := untilShuffle(t, s)
	if untilShuffle(t, off); off.Shuffled() != nil {
		t.Fatal("orders kept with KeepShuffles off")
	}
	orders := s.Shuffled()
	var shuffles []Event
	for _, e := range ev {
		if e.Kind == EventShuffle {
			shuffles = append(shuffles, e)
		}
	}
	if len(orders) != len(shuffles) || len(orders) != 2 {
		t.Fatalf("%d orders for %d shuffles", len(orders), len(shuffles))
	}
	for i, e := range shuffles {
		// Nothing moves out of a seat's pile after its shuffle.
		if got := s.Zone(e.From).AppendCards(nil); !slices.Equal(orders[i], got) {
			t.Fatalf("zone %d: kept %v, holds %v", e.From, orders[i], got)
		}
	}
	orders[0][0] = -7 // the caller's own copy
	if s.Shuffled()[0][0] == -7 {
		t.Fatal("Shuffled returns the state's own memory")
	}
	if c := s.Clone(); c.Shuffled() != nil || c.kept != nil {
		t.Fatal("a clone keeps shuffles")
	}
	// The next action, which shuffles nothing, has no orders.
	var moves []Action
	for seat := range s.Players() {
		if moves = s.Moves(seat, moves[:0]); len(moves) > 0 {
			break
		}
	}
	if ev, err := s.Apply(moves[0], nil); err != nil || slices.ContainsFunc(ev, func(e Event) bool { return e.Kind == EventShuffle }) {
		t.Fatalf("%v, %v", ev, err)
	}
	if s.Shuffled() != nil {
		t.Fatal("orders of an earlier action")
	}
	// Reset keeps the setting, with nothing kept of the game before.
	if err := s.Reset(5); err != nil {
		t.Fatal(err)
	}
	if s.Shuffled() != nil || s.kept == nil {
		t.Fatalf("after Reset: kept %v", s.kept)
	}
	untilShuffle(t, s)
	if len(s.Shuffled()) != 2 {
		t.Fatal("no orders kept after Reset")
	}
	s.KeepShuffles(false)
	if s.Shuffled() != nil {
		t.Fatal("orders after KeepShuffles(false)")
	}
}
