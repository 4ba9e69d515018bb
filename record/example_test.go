package record_test

import (
	"bytes"
	"fmt"

	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/sim"
)

// Example records a simulated Tower and replays the record: the replay
// ends in the very state the game did.
func Example() {
	g, err := rules.Lookup("tower")
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	m, err := sim.New(sim.Config{Game: g, Rules: rules.Config{Players: 3}, Record: record.NewWriter(&buf)})
	if err != nil {
		panic(err)
	}
	o, err := m.Play(42)
	if err != nil {
		panic(err)
	}
	recs, err := record.ReadAll(&buf)
	if err != nil {
		panic(err)
	}
	rec := recs[0]
	fmt.Printf("%s, seed %d, deck %s (%s): %d lines\n", rec.Header.Game, rec.Header.Config.Seed,
		rec.Header.Deck.Edition, rec.Header.Deck.Fingerprint, len(rec.Entries)+2)
	s, events, err := rec.Replay(m.Cards())
	if err != nil {
		panic(err)
	}
	fmt.Println("same final state:", s.Equal(o.State), "| events:", len(events), "| scores:", s.Result().Scores)
	// Output:
	// tower, seed 42, deck classic (fnv1a64:6c38fcde3f7a74f2): 54 lines
	// same final state: true | events: 105 | scores: [21 14 20]
}
