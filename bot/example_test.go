package bot_test

import (
	"fmt"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// Example plays the first claims of a Tower between a hard and an easy bot
// the way a server would: ask both for a plan, let the earliest arrive,
// then ask again against the new version. A false alarm locks its seat out
// for a second; a plan already committed when the table changed still
// arrives and is refused as too late.
func Example() {
	const seed = 2
	d, err := deck.New(7, 55)
	if err != nil {
		panic(err)
	}
	g, err := rules.Lookup("tower")
	if err != nil {
		panic(err)
	}
	s, err := rules.New(g, d, rules.Config{Players: 2, Seed: seed})
	if err != nil {
		panic(err)
	}
	hard, _ := bot.LookupLevel("hard")
	easy, _ := bot.LookupLevel("easy")
	bots := []*bot.Bot{bot.New(hard, 0, seed), bot.New(easy, 1, seed)}
	plans := make([]bot.Plan, 2)
	for i, b := range bots {
		plans[i], _ = b.Plan(s, 0)
	}
	for range 6 {
		i := 0
		if plans[1].Action.At < plans[0].Action.At {
			i = 1
		}
		p := plans[i]
		now := p.Action.At
		_, err := s.Apply(p.Action, nil)
		fmt.Printf("%d ms: seat %d claims %2d against v%d: %v\n", now, i, p.Action.Symbol, p.Action.Version, verdict(err))
		plans[i], _ = bots[i].Plan(s, now)
		if err == nil {
			// The other bot starts again on the new table, unless its
			// claim is already on its way.
			if o := 1 - i; !plans[o].Committed(now) {
				plans[o], _ = bots[o].Plan(s, now)
			}
		}
	}
	// Output:
	// 2287 ms: seat 1 claims 13 against v0: accepted
	// 3020 ms: seat 0 claims 31 against v1: refused: rules: seat 0: not a match: symbol 31 is not on both cards; locked out until 4020 ms
	// 5884 ms: seat 0 claims  4 against v1: accepted
	// 5991 ms: seat 1 claims 13 against v1: refused: rules: seat 1: too late: the claim was made against version 1, the table is at version 2
	// 7403 ms: seat 1 claims 28 against v2: accepted
	// 8552 ms: seat 0 claims 21 against v3: accepted
}

// verdict says whether an action was accepted, or why not.
func verdict(err error) string {
	if err != nil {
		return "refused: " + err.Error()
	}
	return "accepted"
}
