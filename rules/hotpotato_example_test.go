package rules_test

import (
	"fmt"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// Example_hotPotatoTieBreak settles a three-way tie the way RULES.md §2
// says, with Hot Potato: the tied players of a session (here its seats 1,
// 4 and 6) sit at a new table as seats 0, 1 and 2. A single round (rounds=1)
// finds one loser; one series (scoring=series, rounds = players - 1) ranks
// all three.
func Example_hotPotatoTieBreak() {
	d, err := deck.New(7, 55)
	if err != nil {
		panic(err)
	}
	g, err := rules.Lookup("hot-potato")
	if err != nil {
		panic(err)
	}
	tied := []int{1, 4, 6}
	play := func(options map[string]string) *rules.Result {
		s, err := rules.New(g, d, rules.Config{Players: len(tied), Seed: 12, Options: options})
		if err != nil {
			panic(err)
		}
		var moves []rules.Action
		for !s.Over() { // instant perfect players: the lowest seat with a claim
			for seat := range s.Players() {
				if moves = s.Moves(seat, moves[:0]); len(moves) > 0 {
					if _, err := s.Apply(moves[0], nil); err != nil {
						panic(err)
					}
					break
				}
			}
		}
		return s.Result()
	}

	r := play(map[string]string{"rounds": "1"})
	loser := r.Ranking[len(r.Ranking)-1]
	fmt.Printf("one round: penalty cards %v; session seat %d loses\n", r.Scores, tied[loser])

	r = play(map[string]string{"scoring": "series", "rounds": fmt.Sprint(len(tied) - 1)})
	order := make([]int, len(r.Ranking))
	for i, seat := range r.Ranking {
		order[i] = tied[seat]
	}
	fmt.Printf("one series: penalty cards %v, places %v; session seats in order %v\n", r.Scores, r.Places, order)
	// Output:
	// one round: penalty cards [0 0 3]; session seat 6 loses
	// one series: penalty cards [0 2 3], places [1 2 3]; session seats in order [1 4 6]
}
