package table_test

import (
	"fmt"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/table"
)

// printer is an Observer that prints what the table does.
type printer struct{}

func (printer) Accepted(a *rules.Action, ev []rules.Event) {
	fmt.Printf("%5d ms  seat %d: %s %d, accepted\n", a.At, a.Seat, a.Kind, a.Symbol)
}

func (printer) Refused(a *rules.Action, r *rules.Refusal) {
	fmt.Printf("%5d ms  seat %d: %s %d, refused: %s\n", a.At, a.Seat, a.Kind, a.Symbol, r.Code)
}

// Example drives a two-seat Tower as a room does: seat 0 is a person, whose
// claims arrive through Submit, and seat 1 a bot, which plays when the
// caller's clock, told by Next when the table needs time, advances the
// table there.
func Example() {
	cards, err := deck.New(7, 55)
	if err != nil {
		panic(err)
	}
	g, _ := rules.Lookup("tower")
	s, err := rules.New(g, cards, rules.Config{Players: 2, Seed: 7})
	if err != nil {
		panic(err)
	}
	medium, _ := bot.LookupLevel("medium")
	d := table.New(table.Config{Bots: []*bot.Bot{nil, bot.New(medium, 1, 0)}, Observer: printer{}})
	if err := d.Reset(s, 7); err != nil {
		panic(err)
	}
	next, _ := d.Next()
	fmt.Printf("the bot means to claim at %d ms\n", next)

	// The person names a symbol that is not a match, and is locked out
	// for a second; a right claim during the lock-out is refused, one
	// after it is accepted. The bot, which had not decided yet, plans
	// again against the new table.
	right := s.Moves(0, nil)[0]
	for _, claim := range []struct {
		symbol int
		at     int64
	}{{(right.Symbol + 1) % cards.Symbols(), 700}, {right.Symbol, 1200}, {right.Symbol, 2000}} {
		a := right
		a.Symbol, a.At = claim.symbol, claim.at
		d.Submit(a)
	}
	next, _ = d.Next()
	fmt.Printf("the bot means to claim at %d ms\n", next)

	// The caller's clock reaches that time.
	d.Advance(next)
	fmt.Printf("version %d at %d ms; %+v\n", s.Version(), d.Now(), d.Stats())
	// Output:
	// the bot means to claim at 3796 ms
	//   700 ms  seat 0: claim 30, refused: notAMatch
	//  1200 ms  seat 0: claim 29, refused: lockedOut
	//  2000 ms  seat 0: claim 29, accepted
	// the bot means to claim at 8103 ms
	//  8103 ms  seat 1: claim 0, accepted
	// version 2 at 8103 ms; {Actions:2 Wrong:1 Late:0 Time:8103 Steps:4 Deferred:0}
}

// Example_simulate plays a whole game in virtual time, as package sim does:
// four instant bots, advanced to Forever.
func Example_simulate() {
	cards, err := deck.New(7, 55)
	if err != nil {
		panic(err)
	}
	g, _ := rules.Lookup("tower")
	s, err := rules.New(g, cards, rules.Config{Players: 4, Seed: 1})
	if err != nil {
		panic(err)
	}
	instant, _ := bot.LookupLevel("instant")
	bots := make([]*bot.Bot, 4)
	for i := range bots {
		bots[i] = bot.New(instant, i, 0)
	}
	d := table.New(table.Config{Bots: bots})
	if err := d.Reset(s, 1); err != nil {
		panic(err)
	}
	if err := d.Advance(table.Forever); err != nil {
		panic(err)
	}
	r := d.Result()
	fmt.Printf("over: %v, %d actions, %d claims too late; %v %s, winners %v\n", d.Over(), d.Stats().Actions, d.Stats().Late, r.Scores, r.Unit, r.Winners)
	// Output:
	// over: true, 51 actions, 150 claims too late; [18 12 14 11] cards, winners [0]
}
