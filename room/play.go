package room

import (
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// play is what a room plays: a session.Session, or for a one-seat room a
// single game through solo, which answers the same questions.
type play interface {
	State() *rules.State
	Table() int
	Seats() []int
	Play(a rules.Action, ev []rules.Event) ([]rules.Event, error)
	Phase() session.Phase
	Picker() int
	Choices() []string
	AutoPick() string
	Pick(seat int, game string) error
	Standings() session.Standings
	History() []session.Played
	Config() session.Config
}

var _ play = (*session.Session)(nil)

// solo is one game for one seat, played as a session of one mini-game:
// learning mode alone, which a session (two seats or more) cannot hold.
type solo struct {
	st   *rules.State
	seed uint64
}

func (s *solo) State() *rules.State { return s.st }
func (s *solo) Table() int          { return 0 }
func (s *solo) Seats() []int        { return []int{0} }

func (s *solo) Play(a rules.Action, ev []rules.Event) ([]rules.Event, error) {
	return s.st.Apply(a, ev)
}

func (s *solo) Phase() session.Phase {
	if s.st.Over() {
		return session.PhaseOver
	}
	return session.PhasePlay
}

func (s *solo) Picker() int       { return rules.NoSeat }
func (s *solo) Choices() []string { return nil }
func (s *solo) AutoPick() string  { return "" }

func (s *solo) Pick(seat int, game string) error {
	return &session.PickError{Seat: seat, Game: game, Reason: "a one-seat room plays one game"}
}

func (s *solo) Standings() session.Standings {
	won := 0
	if s.st.Over() {
		won = 1
	}
	return session.Standings{Seats: []session.Standing{{Seat: 0, Won: won, Place: 1}}, Ranking: []int{0}, Winners: []int{0}}
}

func (s *solo) History() []session.Played {
	if !s.st.Over() {
		return []session.Played{}
	}
	r := s.st.Result()
	return []session.Played{{Game: s.st.Info().Name, Picker: rules.NoSeat, Result: r,
		Tallies: []int{s.st.Seat(0).Tally}, Places: []int{1}, Winners: []int{0}, Points: []int{0}, Loser: 0}}
}

func (s *solo) Config() session.Config {
	return session.Config{Players: 1, Seed: s.seed, Games: 1, First: s.st.Info().Name}
}
