package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// alarm is a timed test game: each seat may say STOP before the alarm at
// 1000 ms, scoring a point; the alarm's tick ends the game. It exercises
// the engine's clock: Deadline, Tick, CodeTimeUp, CodeEarly and the tick's
// own malformed shapes, and View's Turn, Deadline and Extra.
type alarm struct{}

type alarmExt struct{ stopped []bool }

func (e *alarmExt) CloneExtension() Extension {
	return &alarmExt{append([]bool(nil), e.stopped...)}
}

func (e *alarmExt) EqualExtension(o Extension) bool {
	f := o.(*alarmExt)
	for i := range e.stopped {
		if e.stopped[i] != f.stopped[i] {
			return false
		}
	}
	return true
}

func (alarm) Info() Info {
	return Info{Name: "alarm", Title: "Alarm", MinPlayers: 2, MaxPlayers: 4, Unit: "points", HigherWins: true,
		Acts: []ActionKind{ActionStop}, Timed: true}
}

func (alarm) Setup(s *State) error {
	s.addZone(ZoneAside, NoSeat, ShowHidden)
	s.dealAll(0)
	s.SetExtension(&alarmExt{make([]bool, s.Players())})
	return nil
}

func (alarm) Check(s *State, a *Action) *Refusal {
	if a.Kind == ActionStop && s.Extension().(*alarmExt).stopped[a.Seat] {
		return refuse(CodeNotNow, a, "you have said STOP already")
	}
	return nil
}

func (alarm) Apply(s *State, a *Action, ev []Event) []Event {
	if a.Kind == ActionTick {
		return s.finish(ev)
	}
	s.Extension().(*alarmExt).stopped[a.Seat] = true
	s.seats[a.Seat].Tally++
	return appendEvent(ev, EventStop, a.Seat, -1, -1, 0, -1, -1)
}

func (alarm) Moves(s *State, seat int, dst []Action) []Action {
	if s.Extension().(*alarmExt).stopped[seat] {
		return dst
	}
	return append(dst, Action{Kind: ActionStop, Seat: seat, Version: s.version})
}

func (alarm) Result(s *State) *Result {
	scores := make([]int, s.Players())
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank("points", true, scores)
}

func (alarm) Deadline(s *State) (int64, bool) { return 1000, true }

func (alarm) Turn(s *State) int { return 1 }

func (alarm) ViewExtra(s *State, seat int) any { return s.Extension().(*alarmExt).stopped }

// TestClock plays the alarm game through the engine's clock checks.
func TestClock(t *testing.T) {
	s, err := New(alarm{}, mustDeck(t, 2, 0), Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := s.Deadline(); !ok || d != 1000 {
		t.Fatalf("deadline %d %v", d, ok)
	}
	v := s.View(0)
	if v.Turn != 1 || v.Deadline != 1000 || v.Extra == nil || s.Turn() != 1 {
		t.Fatalf("view %+v", v)
	}
	// A claim is not one of alarm's kinds.
	r := mustRefuse(t, s, Action{Seat: 0, At: 10}, ErrMalformed)
	if !strings.Contains(r.Reason(), "alarm has no claim action; it takes stop") {
		t.Fatalf("reason %q", r.Reason())
	}
	mustRefuse(t, s, Action{Kind: ActionStop, Seat: 0, Target: To(0), At: 10}, ErrMalformed)
	// Ticks: a seat's, one with a target, an early one.
	mustRefuse(t, s, Action{Kind: ActionTick, Seat: 0, At: 2000}, ErrMalformed)
	mustRefuse(t, s, Action{Kind: ActionTick, Seat: NoSeat, Target: To(0), At: 2000}, ErrMalformed)
	r = mustRefuse(t, s, Action{Kind: ActionTick, Seat: NoSeat, At: 999}, ErrEarly)
	if r.Deadline != 1000 || !strings.Contains(r.Reason(), "nothing is due before 1000 ms") {
		t.Fatalf("early tick: %+v %s", r, r.Reason())
	}
	if _, err := s.Apply(Action{Kind: ActionStop, Seat: 0, At: 999}, nil); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, s, Action{Kind: ActionStop, Seat: 0, Version: 1, At: 999}, ErrNotNow)
	// Seat 1 is a moment too late: the alarm has rung, its tick not yet
	// applied.
	r = mustRefuse(t, s, Action{Kind: ActionStop, Seat: 1, Version: 1, At: 1000}, ErrTimeUp)
	if r.Deadline != 1000 || !strings.Contains(r.Reason(), "the time ran out at 1000 ms") {
		t.Fatalf("time up: %+v %s", r, r.Reason())
	}
	tick, ok := s.Tick()
	if !ok || tick != (Action{Kind: ActionTick, Seat: NoSeat, Version: 1, At: 1000}) {
		t.Fatalf("tick %+v %v", tick, ok)
	}
	tick.At = 1500 // the driver's clock is late: still due
	ev, err := s.Apply(tick, nil)
	if err != nil || !s.Over() || ev[len(ev)-1].Kind != EventOver {
		t.Fatalf("tick: %v %+v", err, ev)
	}
	if _, ok := s.Deadline(); ok || s.Turn() != NoSeat {
		t.Fatal("a game over has no deadline and no turn")
	}
	if _, err := s.Apply(Action{Kind: ActionTick, Seat: NoSeat, Version: 2, At: 2000}, nil); !errors.Is(err, ErrGameOver) {
		t.Fatalf("tick after the end: %v", err)
	}
	// A timed game that is no Clock is refused at registration.
	defer func() {
		if recover() == nil {
			t.Fatal("Register accepted a Timed game without a Clock")
		}
	}()
	Register(unclocked{})
}

type unclocked struct{ tower }

func (unclocked) Info() Info {
	i := towerInfo
	i.Name, i.Aliases, i.Timed = "unclocked", nil, true
	return i
}

// TestEventForPrivate checks that another seat's write and a secret shown
// to one seat reach the others without their symbol.
func TestEventForPrivate(t *testing.T) {
	s, err := New(alarm{}, mustDeck(t, 2, 0), Config{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []EventKind{EventWrite, EventSecret} {
		e := Event{Kind: k, Seat: 1, Symbol: 5, Card: -1, From: -1, To: -1}
		if got := s.EventFor(e, 1); got.Symbol != 5 {
			t.Errorf("%v: the seat itself sees %d", k, got.Symbol)
		}
		for _, seat := range []int{0, 2, Spectator} {
			if got := s.EventFor(e, seat); got.Symbol != -1 {
				t.Errorf("%v: seat %d sees symbol %d", k, seat, got.Symbol)
			}
		}
	}
	if got := s.EventFor(Event{Kind: EventSecret, Seat: NoSeat, Symbol: 5}, 2); got.Symbol != 5 {
		t.Errorf("a secret revealed to all is hidden: %+v", got)
	}
}

func TestAlarmProperties(t *testing.T) { runPropertiesOf(t, alarm{}, nil, verifyNothing) }

func verifyNothing(*State, *deck.Deck, Action, []Event) error { return nil }
