package session_test

import (
	"fmt"
	"slices"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// Example plays a two-game tournament at a three-seat table on the classic
// deck with instant perfect players, the lowest seat always claiming first:
// the Tower, then the game the loser picks.
func Example() {
	d, err := deck.New(7, 55)
	if err != nil {
		panic(err)
	}
	s, err := session.New(session.Config{Players: 3, Seed: 1, Games: 2, Scoring: session.ByPoints}, session.Decks{Cards: d})
	if err != nil {
		panic(err)
	}
	var moves []rules.Action
	var events []rules.Event
	for !s.Over() {
		if s.Phase() == session.PhasePick {
			fmt.Printf("seat %d picks the next game; the Well is among the choices: %v\n", s.Picker(), slices.Contains(s.Choices(), "well"))
			if err := s.Pick(s.Picker(), "whoosh"); err != nil { // the Well
				panic(err)
			}
			continue
		}
		st := s.State()
		for seat := range st.Players() {
			if moves = st.Moves(seat, moves[:0]); len(moves) > 0 {
				a := moves[0]
				a.Seat = s.Seats()[seat] // the session seat
				if events, err = s.Apply(s.Table(), a, events[:0]); err != nil {
					panic(err)
				}
				break
			}
		}
	}
	for _, p := range s.History() {
		fmt.Printf("%s: %s %v, places %v, points %v\n", p.Game, p.Result.Unit, p.Result.Scores, p.Places, p.Points)
	}
	for _, st := range s.Standings().Seats {
		fmt.Printf("seat %d: %d won, %d points, place %d\n", st.Seat, st.Won, st.Points, st.Place)
	}
	fmt.Println("grand winner:", s.Winners())
	// Output:
	// seat 1 picks the next game; the Well is among the choices: true
	// tower: cards [53 1 1], places [1 2 2], points [57 0 0]
	// well: cards [0 18 18], places [1 2 2], points [10 -20 -20]
	// seat 0: 2 won, 67 points, place 1
	// seat 1: 0 won, -20 points, place 2
	// seat 2: 0 won, -20 points, place 2
	// grand winner: [0]
}
