package rules_test

import (
	"fmt"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// Example_anarchyPancakes builds the Anarchy Pancakes card source from the
// "pancakes" edition (the six-topping deck plus its one-topping cards),
// deals a three-player game, shows what seat 0 sees, puts one of its cards
// on the Common card and lets the first seat with a claim play each time
// until someone has two butter pats.
func Example_anarchyPancakes() {
	e, err := deck.LookupEdition("pancakes")
	if err != nil {
		panic(err)
	}
	d, err := e.Deck()
	if err != nil {
		panic(err)
	}
	var cards rules.Cards = d
	if e.Singles {
		cards = rules.WithSingles(d)
	}
	g, err := rules.Lookup("pancakes") // an alias of "anarchy-pancakes"
	if err != nil {
		panic(err)
	}
	s, err := rules.New(g, cards, rules.Config{Players: 3, Seed: 4})
	if err != nil {
		panic(err)
	}

	v := s.View(0)
	fmt.Printf("%d cards; draw pile %d face down, %d one-topping cards set aside; the Common card shows %v\n",
		cards.Len(), v.Zones[0].Count, v.Zones[2].Count, v.Zones[1].Cards[0].Symbols)
	for _, z := range v.Zones[3:10] {
		fmt.Print(z.Cards[0].Symbols, " ")
	}
	fmt.Println("in front of seat 0")

	// Seat 0's first claim: which stack, which card to put it on, which
	// topping.
	moves := s.Moves(0, nil)
	events, err := s.Apply(moves[0], nil)
	if err != nil {
		panic(err)
	}
	for _, e := range events {
		switch e.Kind {
		case rules.EventClaim:
			fmt.Printf("v%d claim: seat %d names topping %d to put its stack in zone %d on zone %d\n",
				e.Version, e.Seat, e.Symbol, e.Target.At(0), e.Target.At(1))
		case rules.EventMove:
			fmt.Printf("v%d move: %d card(s), card %d on top, zone %d -> %d\n", e.Version, e.Count, e.Card, e.From, e.To)
		}
	}

	// Play on: the lowest seat with a claim makes its first; when nobody
	// has one, the lowest seat draws.
	for !s.Over() {
		var next []rules.Action
		for seat := range s.Players() {
			if m := s.Moves(seat, nil); len(m) > 0 && m[0].Kind == rules.ActionClaim {
				next = m[:1]
				break
			} else if len(m) > 0 && next == nil {
				next = m[len(m)-1:]
			}
		}
		if _, err := s.Apply(next[0], nil); err != nil {
			panic(err)
		}
	}
	r := s.Result()
	fmt.Printf("over after round %d: %v %s, winners %v\n", s.Round(), r.Scores, r.Unit, r.Winners)
	// Output:
	// 62 cards; draw pile 15 face down, 25 one-topping cards set aside; the Common card shows [5 6 8 13 17 23]
	// [19] [26] [3 4 6 11 15 21] [0 1 3 8 12 18] [1 5 11 24 25 27] [3 16 17 19 24 28] [2 15 16 18 23 27] in front of seat 0
	// v1 claim: seat 0 names topping 19 to put its stack in zone 3 on zone 20
	// v1 move: 1 card(s), card 50 on top, zone 3 -> 20
	// over after round 2: [2 0 0] butter pats, winners [0]
}
