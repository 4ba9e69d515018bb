package rules_test

import (
	"errors"
	"fmt"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// Example_tower sets up a four-player Tower on the classic 55-card deck, shows
// what seat 0 sees, makes one right and one late claim, then lets instant
// perfect players finish the game.
func Example_tower() {
	d, err := deck.New(7, 55)
	if err != nil {
		panic(err)
	}
	g, err := rules.Lookup("bank-heist") // an alias of "tower"
	if err != nil {
		panic(err)
	}
	s, err := rules.New(g, d, rules.Config{Players: 4, Seed: 1})
	if err != nil {
		panic(err)
	}

	v := s.View(0)
	centre, mine := v.Zones[0], v.Zones[1]
	fmt.Printf("%s, version %d: centre %d cards, top %v; my top %v\n",
		v.Game, v.Version, centre.Count, centre.Cards[0].Symbols, mine.Cards[0].Symbols)

	// Seat 2 finds the match of its own top card and the centre's first.
	right := s.Moves(2, nil)[0]
	right.At = 1830 // milliseconds since the game began
	events, err := s.Apply(right, nil)
	if err != nil {
		panic(err)
	}
	for _, e := range events {
		fmt.Printf("v%d %s: seat %d, symbol %d, card %d, zone %d -> %d\n", e.Version, e.Kind, e.Seat, e.Symbol, e.Card, e.From, e.To)
	}

	// Seat 1 saw version 0 too, and names its own match a moment later.
	late := rules.Action{Seat: 1, Symbol: d.Common(v.Zones[2].Cards[0].Card, centre.Cards[0].Card), Version: 0, At: 1835}
	_, err = s.Apply(late, nil)
	fmt.Println(errors.Is(err, rules.ErrTooLate), err)

	// Instant perfect players: each step, the first correct claim.
	var moves []rules.Action
	for !s.Over() {
		for seat := range s.Players() {
			if moves = s.Moves(seat, moves[:0]); len(moves) > 0 {
				events, _ = s.Apply(moves[0], events[:0])
				break
			}
		}
	}
	r := s.Result()
	fmt.Printf("over at version %d: %v %s, winners %v\n", s.Version(), r.Scores, r.Unit, r.Winners)
	// Output:
	// tower, version 0: centre 51 cards, top [10 14 21 30 35 36 38 48]; my top [7 26 30 37 46 51 52 54]
	// v1 claim: seat 2, symbol 48, card -1, zone -1 -> -1
	// v1 move: seat 2, symbol -1, card 35, zone 0 -> 3
	// true rules: seat 1: too late: the claim was made against version 0, the table is at version 1
	// over at version 51: [51 1 2 1] cards, winners [0]
}
