package session

import (
	"errors"
	"reflect"
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

// Input is one thing fed to a session, as a record keeps it: a pick, or an
// action at a table. Exactly one of Pick and Action is set.
type Input struct {
	// Pick is a pick of the next mini-game.
	Pick *Pick `json:"pick,omitempty"`
	// Table is the table an action was made at (see Session.Apply).
	Table int `json:"table,omitzero"`
	// Action is an action, its Seat a session seat.
	Action *rules.Action `json:"action,omitempty"`
}

// Pick is a seat's pick of the next mini-game.
type Pick struct {
	// Seat is the seat picking.
	Seat int `json:"seat"`
	// Game is the game picked, by any name Lookup accepts.
	Game string `json:"game"`
}

// ErrBadInput is returned by Feed for an Input with neither or both of a
// pick and an action.
var ErrBadInput = errors.New("session: an input holds exactly one of a pick and an action")

// Feed applies one input: Pick for a pick, Apply for an action (appending
// the events to ev). It returns what they return.
func (s *Session) Feed(in Input, ev []rules.Event) ([]rules.Event, error) {
	switch {
	case (in.Pick == nil) == (in.Action == nil):
		return ev, ErrBadInput
	case in.Pick != nil:
		return ev, s.Pick(in.Pick.Seat, in.Pick.Game)
	}
	return s.Apply(in.Table, *in.Action, ev)
}

// Replay starts a session with cfg and decks and feeds it inputs in order,
// as a record lists them. Refused inputs are refused again exactly as the
// first time (wrong claims set the same lock-outs); they are counted, not
// returned as errors. It returns the session and the number of refused
// inputs; the error is New's.
func Replay(cfg Config, decks Decks, inputs []Input) (*Session, int, error) {
	s, err := New(cfg, decks)
	if err != nil {
		return nil, 0, err
	}
	refused := 0
	var ev []rules.Event
	for _, in := range inputs {
		if ev, err = s.Feed(in, ev[:0]); err != nil {
			refused++
		}
	}
	return s, refused, nil
}

// Equal reports whether s and o are the same session at the same point:
// same configuration and decks, same history and standings, same phase and
// picker, and Equal states at the same table.
func (s *Session) Equal(o *Session) bool {
	return reflect.DeepEqual(s.cfg, o.cfg) && s.cards == o.cards && reflect.DeepEqual(s.gameCards, o.gameCards) &&
		s.phase == o.phase && s.picker == o.picker && s.table == o.table &&
		slices.Equal(s.seats, o.seats) && slices.Equal(s.won, o.won) && slices.Equal(s.points, o.points) &&
		reflect.DeepEqual(s.history, o.history) && reflect.DeepEqual(s.pending, o.pending) &&
		reflect.DeepEqual(s.tie, o.tie) && s.state.Equal(o.state)
}
