package rules

import (
	"strings"
	"testing"
)

// refusedFree applies a, which s must refuse with want and detail and no
// lock-out (a wrong action of a kind that does not lock out): the reason
// names what was wrong, LockedUntil is 0 in the refusal and the seat, and
// the seat may act again at the same time.
func refusedFree(t *testing.T, s *State, a Action, want error, detail string) {
	t.Helper()
	a.Version = s.Version()
	r := mustRefuse(t, s, a, want)
	if r.Detail != detail || !strings.Contains(r.Reason(), detail) {
		t.Fatalf("%+v: refused with %q (%s), want %q", a, r.Detail, r.Reason(), detail)
	}
	if r.LockedUntil != 0 || r.LocksOut() || s.Seat(a.Seat).LockedUntil != 0 || s.Locked(a.Seat, a.At) ||
		strings.Contains(r.Reason(), "locked out") {
		t.Fatalf("%+v: a wrong %v locked the seat out: %v, seat locked until %d", a, a.Kind, r, s.Seat(a.Seat).LockedUntil)
	}
}

// acceptNow applies a, which s must accept, made against the current
// version.
func acceptNow(t *testing.T, s *State, a Action) []Event {
	t.Helper()
	a.Version = s.Version()
	ev, err := s.Apply(a, nil)
	if err != nil {
		t.Fatalf("%+v after a refusal without lock-out: %v", a, err)
	}
	return ev
}

// TestLocksOut checks which action kinds lock a seat out when wrong: only
// the racing ones, claims and draws (RULES.md §7).
func TestLocksOut(t *testing.T) {
	for k := range ActionKind(len(actionKindNames)) {
		want := k == ActionClaim || k == ActionDraw
		if k.LocksOut() != want {
			t.Errorf("%v.LocksOut() = %v, want %v", k, k.LocksOut(), want)
		}
	}
}

// TestMemoryWrongFlipNoLockout plays Memory with the default lock-out: a
// flip naming a symbol not on the face-up card, or of a card that is not
// face down, is refused with its reason but locks nobody out, so the seat
// flips at once and its turn goes on.
func TestMemoryWrongFlipNoLockout(t *testing.T) {
	s, err := New(mustGame(t, "memory"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Card 0 = {0,1,3} face up; cards 1..4 face down in zones 2..5.
	setTable(t, s, []int{5, 6}, []int{0}, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil)
	refusedFree(t, s, Action{Kind: ActionFlip, Seat: 0, Symbol: 2, Target: To(2), At: 10}, ErrNotAMatch, memoryNotFaceUp)
	refusedFree(t, s, Action{Kind: ActionFlip, Seat: 0, Symbol: 1, Target: To(1), At: 10}, ErrBadTarget, memoryNotFaceDown)
	if s.Turn() != 0 {
		t.Fatalf("the refused flips passed the turn to seat %d", s.Turn())
	}
	// Card 2 = {2,3,5} shares 3: taken, and seat 0 plays again.
	acceptNow(t, s, Action{Kind: ActionFlip, Seat: 0, Symbol: 3, Target: To(3), At: 10})
	if s.Turn() != 0 || s.Seat(0).Tally == 0 {
		t.Fatalf("after the match: turn %d, seat 0 %+v", s.Turn(), s.Seat(0))
	}
}

// TestFalsePokerWrongLayNoLockout plays False Poker with the default
// lock-out: a lay of a card not in the seat's hand is refused with its
// reason but locks nobody out, so the seat lays at once on the same turn.
func TestFalsePokerWrongLayNoLockout(t *testing.T) {
	s := falsePokerTable(t, 0) // the default lock-out
	refusedFree(t, s, Action{Kind: ActionLay, Seat: 0, Target: To(fpSlot(1, 0)), At: 10}, ErrBadTarget, fpNotYours)
	refusedFree(t, s, Action{Kind: ActionLay, Seat: 0, Target: To(fpRow), At: 10}, ErrBadTarget, fpNotYours)
	if s.Turn() != 0 {
		t.Fatalf("the refused lays passed the turn to seat %d", s.Turn())
	}
	ev := acceptNow(t, s, Action{Kind: ActionLay, Seat: 0, Target: To(fpSlot(0, 0)), At: 10})
	if ev[0].To != fpRow || s.Turn() != 1 {
		t.Fatalf("lay after the refusals: %+v, turn %d", ev, s.Turn())
	}
}

// TestReflectionWrongWriteNoLockout plays Reflection with the default
// lock-out: writing a symbol not on the visible fifth card is refused with
// its reason but locks nobody out, so the seat writes at once.
func TestReflectionWrongWriteNoLockout(t *testing.T) {
	s, err := New(mustGame(t, "reflection"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The fifth card is 0 = {0,1,3}; the look and the study phases end.
	setTable(t, s, []int{5, 6}, nil, []int{1}, []int{2}, []int{3}, []int{4}, nil, nil, nil, nil, nil, []int{0})
	for range 2 {
		tick, ok := s.Tick()
		if !ok {
			t.Fatal("no deadline")
		}
		if _, err := s.Apply(tick, nil); err != nil {
			t.Fatal(err)
		}
	}
	refusedFree(t, s, Action{Kind: ActionWrite, Seat: 0, Symbol: 2, At: 25100}, ErrNotAMatch, reflNotOn)
	acceptNow(t, s, Action{Kind: ActionWrite, Seat: 0, Symbol: 3, At: 25100})
	if w := s.View(1).Extra.(ReflectionView).Written[0]; w != 1 {
		t.Fatalf("seat 0 has written %d symbols, want 1", w)
	}
}

// TestCollectLockouts plays Collect the Symbols with the default lock-out:
// a wrong take is refused without a lock-out, a wrong claim (a race for a
// token) locks the seat out for the configured time.
func TestCollectLockouts(t *testing.T) {
	s, err := New(mustGame(t, "collect"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0's pile is empty, its discard pile holds 6, 2; seat 1 holds 5,
	// 4, 3 (3 = {3,4,6} on top), its discard pile 0, 1.
	setTable(t, s, nil, []int{6, 2}, []int{5, 4, 3}, []int{0, 1})
	refusedFree(t, s, Action{Kind: ActionTake, Seat: 0, Target: To(collectDiscard(0)), At: 10}, ErrBadTarget, collectNotPile)
	acceptNow(t, s, Action{Kind: ActionTake, Seat: 0, Target: To(collectDiscard(1)), At: 10})

	a := Action{Seat: 1, Symbol: 0, Version: s.Version(), At: 100}
	r := mustRefuse(t, s, a, ErrNotAMatch)
	if !r.LocksOut() || r.LockedUntil != 100+DefaultLockout || s.Seat(1).LockedUntil != r.LockedUntil ||
		!strings.Contains(r.Reason(), "locked out until 1100 ms") {
		t.Fatalf("wrong claim: %v, seat 1 locked until %d", r, s.Seat(1).LockedUntil)
	}
	r = mustRefuse(t, s, Action{Seat: 1, Symbol: 3, Version: s.Version(), At: 1099}, ErrLockedOut)
	if r.LockedUntil != 1100 || r.LocksOut() {
		t.Fatalf("claim while locked out: %v", r)
	}
	acceptNow(t, s, Action{Seat: 1, Symbol: 3, At: 1100})
}
