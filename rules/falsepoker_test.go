package rules

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

func init() { viewChecks["false-poker"] = checkFalsePokerView }

// checkFalsePokerView checks False Poker's extra view: the layers match the
// row, the free markers the seats' markers, the turn a seat in the round.
func checkFalsePokerView(s *State, seat int, v View) error {
	f, ok := v.Extra.(FalsePokerView)
	if !ok || len(f.Layers) != s.Zone(fpRow).Len() || len(f.Free) != s.Players() {
		return fmt.Errorf("extra %+v", v.Extra)
	}
	for i, n := range f.Free {
		laid := 0
		for _, l := range f.Layers {
			if l == i {
				laid++
			}
		}
		if n != s.Seat(i).Tally-laid {
			return fmt.Errorf("seat %d: %d free markers, %d in all, %d on the row", i, n, s.Seat(i).Tally, laid)
		}
	}
	if !s.Over() && slices.Contains(f.Out, v.Turn) {
		return fmt.Errorf("the turn of seat %d, which is out", v.Turn)
	}
	return nil
}

// verifyFalsePoker checks an accepted False Poker action against RULES.md
// §4.5 with the real deck: only the seat whose turn it is lays or stops; a
// lay puts a card of its hand at the end of the row; on STOP the layer of
// the first card repeating a shared symbol loses 2 markers, or, with no
// repeat, the caller loses 1.
func verifyFalsePoker(before *State, d *deck.Deck, a Action, ev []Event) error {
	e := before.ext.(*fpExt)
	if a.Kind != ActionTick && a.Seat != e.turn {
		return fmt.Errorf("seat %d acted in seat %d's turn", a.Seat, e.turn)
	}
	switch a.Kind {
	case ActionLay:
		z := before.Zone(a.Target.At(0))
		if z.Seat != a.Seat || ev[0].Kind != EventMove || ev[0].To != fpRow || ev[0].Card != z.Top() {
			return fmt.Errorf("lay: %+v", ev)
		}
	case ActionStop:
		row := before.Zone(fpRow).AppendCards(nil)
		loser, loss := a.Seat, 1
		var seen []int
		for i := 1; i < len(row); i++ {
			sym := d.Common(row[i-1], row[i])
			if slices.Contains(seen, sym) {
				loser, loss = e.layers[i], 2
				break
			}
			seen = append(seen, sym)
		}
		loss = min(loss, before.Seat(loser).Tally)
		if ev[0].Kind != EventStop || ev[1].Kind != EventScore || ev[1].Seat != loser || ev[1].Count != -loss {
			return fmt.Errorf("STOP: %+v, want seat %d to lose %d", ev[:2], loser, loss)
		}
	}
	return nil
}

// falsePokerTable sets up a two-player game of False Poker on the order-3
// deck (13 cards of 4 symbols) with lock-out lockout: the row starts with
// card 12, seat 0 holds cards 0..5 and seat 1 cards 6..11.
func falsePokerTable(t *testing.T, lockout int64) *State {
	t.Helper()
	s, err := New(mustGame(t, "false-poker"), mustDeck(t, 3, 0), Config{Players: 2, Seed: 1, Lockout: lockout})
	if err != nil {
		t.Fatal(err)
	}
	zones := [][]int{nil, {12}}
	for c := range 12 {
		zones = append(zones, []int{c})
	}
	setTable(t, s, zones...)
	return s
}

// TestFalsePokerScenario plays RULES.md §4.5 on the table of
// falsePokerTable.
func TestFalsePokerScenario(t *testing.T) {
	s := falsePokerTable(t, NoLockout)
	d := s.Cards()
	do := func(a Action) []Event {
		t.Helper()
		a.Version = s.Version()
		ev, err := s.Apply(a, nil)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		return ev
	}
	last := func() int { return s.Zone(fpRow).Top() }
	used := func() []int {
		row := s.Zone(fpRow).AppendCards(nil)
		var syms []int
		for i := 1; i < len(row); i++ {
			syms = append(syms, d.Common(row[i-1], row[i]))
		}
		return syms
	}
	// pick returns the place of a card of seat's hand whose shared symbol
	// with the end of the row is new (fresh) or repeated (!fresh).
	pick := func(seat int, fresh bool) int {
		t.Helper()
		for j := range fpHand {
			z := fpSlot(seat, j)
			if c := s.Zone(z).Top(); c >= 0 && slices.Contains(used(), d.Common(last(), c)) != fresh {
				return z
			}
		}
		t.Fatalf("seat %d has no card that is %v", seat, map[bool]string{true: "fresh", false: "a repeat"}[fresh])
		return -1
	}
	if s.Turn() != 0 {
		t.Fatal("seat 0 starts the first round")
	}
	// The first turn of a round lasts first-turn, 10 s: the newcomer who
	// starts right after the countdown has time to look.
	if d, _ := s.Deadline(); d != 10000 {
		t.Fatalf("the game's first turn ends at %d, want 10000", d)
	}
	mustRefuse(t, s, Action{Kind: ActionStop, Seat: 1, At: 10}, ErrNotYourTurn)
	mustRefuse(t, s, Action{Kind: ActionLay, Seat: 0, Target: To(fpSlot(1, 0)), At: 10}, ErrBadTarget)
	mustRefuse(t, s, Action{Kind: ActionLay, Seat: 0, Target: To(fpRow), At: 10}, ErrBadTarget)
	// Seat 0 lays a card, its marker on it; seat 1's turn, 5 s to play.
	ev := do(Action{Kind: ActionLay, Seat: 0, Target: To(pick(0, true)), At: 100})
	if ev[0].To != fpRow || ev[1].Kind != EventTurn || ev[1].Seat != 1 {
		t.Fatalf("lay: %+v", ev)
	}
	if d, _ := s.Deadline(); d != 5100 {
		t.Fatalf("seat 1's turn ends at %d", d)
	}
	// The seats lay on until one of them holds a card repeating a shared
	// symbol and lays it: a bluff.
	bluffer := -1
	for at := int64(200); bluffer < 0; at += 100 {
		seat := s.Turn()
		for j := range fpHand {
			z := fpSlot(seat, j)
			if c := s.Zone(z).Top(); c >= 0 && slices.Contains(used(), d.Common(last(), c)) {
				do(Action{Kind: ActionLay, Seat: seat, Target: To(z), At: at})
				bluffer = seat
				break
			}
		}
		if bluffer < 0 {
			do(Action{Kind: ActionLay, Seat: seat, Target: To(pick(seat, true)), At: at})
		}
	}
	// Nothing in the view tells the row holds a repeat; the next seat says
	// STOP and the bluffer, who laid the first repeating card, loses 2
	// markers.
	ev = do(Action{Kind: ActionStop, Seat: s.Turn(), At: 1000})
	if ev[0].Kind != EventStop || ev[1].Kind != EventScore || ev[1].Seat != bluffer || ev[1].Count != -2 || s.Seat(bluffer).Tally != 4 {
		t.Fatalf("STOP on a repeat: %+v", ev[:2])
	}
	other := 1 - bluffer
	// A new round: markers back, six cards each, a new row card; the
	// bluffer, with the fewest markers, starts.
	if s.Round() != 2 || s.Turn() != bluffer || s.Zone(fpRow).Len() != 1 || s.Zone(fpSlot(1, 5)).Len() != 1 {
		t.Fatalf("round %d, turn %d, row %d", s.Round(), s.Turn(), s.Zone(fpRow).Len())
	}
	if d, _ := s.Deadline(); d != 11000 {
		t.Fatalf("the second round's first turn ends at %d, want 11000", d)
	}
	// A STOP with no repeat costs the caller one marker.
	ev = do(Action{Kind: ActionStop, Seat: bluffer, At: 1100})
	if ev[1].Seat != bluffer || ev[1].Count != -1 || s.Seat(bluffer).Tally != 3 || s.Turn() != bluffer {
		t.Fatalf("STOP without a repeat: %+v", ev[:2])
	}
	// Out of time: the bluffer's turn, the third round's first, ends at
	// 11.1 s; a STOP then is too late; the tick puts it out, and with one player left the row is
	// checked, the seat out of time counting as the caller: no repeat, it
	// loses 1.
	mustRefuse(t, s, Action{Kind: ActionStop, Seat: bluffer, Version: s.Version(), At: 11100}, ErrTimeUp)
	tick, _ := s.Tick()
	ev = do(tick)
	if ev[0].Kind != EventOut || ev[0].Seat != bluffer || ev[1].Kind != EventScore || ev[1].Seat != bluffer ||
		s.Seat(bluffer).Tally != 2 || s.Seat(other).Tally != 6 {
		t.Fatalf("timeout: %+v", ev[:2])
	}
	// The bluffer says STOP on a bare row twice: out of markers, the game
	// ends.
	for s.Seat(bluffer).Tally > 0 {
		if s.Turn() != bluffer {
			do(Action{Kind: ActionLay, Seat: other, Target: To(pick(other, true)), At: 11200})
		}
		ev = do(Action{Kind: ActionStop, Seat: bluffer, At: 11300})
	}
	if l := ev[len(ev)-1]; !s.Over() || l.Kind != EventOver || !slices.Equal(l.Result.Winners, []int{other}) {
		t.Fatalf("end: %+v", l)
	}
}

func TestFalsePokerProperties(t *testing.T) { runProperties(t, "false-poker", verifyFalsePoker) }

func FuzzFalsePoker(f *testing.F) { fuzzGame(f, "false-poker", verifyFalsePoker) }

// TestFalsePokerFirstTurn checks the time of a round's first turn: option
// first-turn, never less than turn-time, and turn-time for the turns
// after it.
func TestFalsePokerFirstTurn(t *testing.T) {
	for _, tc := range []struct {
		opts        map[string]string
		first, next int64
	}{
		{nil, 10000, 5000},
		{map[string]string{"first-turn": "3000"}, 5000, 5000},
		{map[string]string{"first-turn": "30000", "turn-time": "2000"}, 30000, 2000},
	} {
		s, err := New(mustGame(t, "false-poker"), mustDeck(t, 3, 0), Config{Players: 2, Seed: 1, Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := s.Deadline(); d != tc.first {
			t.Errorf("%v: the first turn ends at %d, want %d", tc.opts, d, tc.first)
		}
		if _, err := s.Apply(Action{Kind: ActionLay, Seat: 0, Target: To(fpSlot(0, 0)), Version: s.Version(), At: 100}, nil); err != nil {
			t.Fatal(err)
		}
		if d, _ := s.Deadline(); d != 100+tc.next {
			t.Errorf("%v: the second turn ends at %d, want %d", tc.opts, d, 100+tc.next)
		}
	}
}
