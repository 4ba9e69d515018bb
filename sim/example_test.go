package sim_test

import (
	"fmt"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/sim"
)

// Example plays three Towers between four bots, one of each human-like
// level, on the classic deck: the outcome of each, in virtual time.
func Example() {
	g, err := rules.Lookup("tower")
	if err != nil {
		panic(err)
	}
	var levels []bot.Level
	for _, name := range []string{"easy", "medium", "hard", "expert"} {
		l, _ := bot.LookupLevel(name)
		levels = append(levels, l)
	}
	m, err := sim.New(sim.Config{Game: g, Rules: rules.Config{Players: 4}, Bots: levels})
	if err != nil {
		panic(err)
	}
	fmt.Println("deck:", m.Deck().Edition, m.Deck().Size, "cards")
	for seed := uint64(1); seed <= 3; seed++ {
		o, err := m.Play(seed)
		if err != nil {
			panic(err)
		}
		fmt.Printf("seed %d: %v %s, winners %v, %d claims, %d wrong, %d too late, %.1f s at the table\n",
			o.Seed, o.Result.Scores, o.Result.Unit, o.Result.Winners, o.Actions, o.Wrong, o.Late, float64(o.Time)/1000)
	}
	// Output:
	// deck: classic 55 cards
	// seed 1: [2 8 8 37] cards, winners [3], 51 claims, 4 wrong, 16 too late, 55.1 s at the table
	// seed 2: [4 8 9 34] cards, winners [3], 51 claims, 1 wrong, 19 too late, 60.4 s at the table
	// seed 3: [1 6 15 33] cards, winners [3], 51 claims, 1 wrong, 19 too late, 57.7 s at the table
}
