package web

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
)

// Step is one step of a replay: an action the table received, what it
// caused, and the table after it as a spectator sees it. Step 0 is the
// table as dealt, with no action.
type Step struct {
	// Index counts the steps from 0.
	Index int `json:"index"`
	// Action is the action, nil for step 0.
	Action *rules.Action `json:"action,omitempty"`
	// Events are what an accepted action caused, as a spectator sees them.
	Events []rules.Event `json:"events,omitempty"`
	// Refusal is why a wrong claim was refused (it locked its seat out).
	Refusal *rules.Refusal `json:"refusal,omitempty"`
	// View is the table after the step, as a spectator sees it.
	View rules.View `json:"view"`
}

// Replay is a stored game played again step by step.
type Replay struct {
	// Game is the stored game's summary.
	Game store.Summary `json:"game"`
	// Header is the record's first line: game, configuration, deck, seats.
	Header record.Header `json:"header"`
	// Steps are the steps, from the deal to the end.
	Steps []Step `json:"steps"`
	// End is the record's result line.
	End *record.End `json:"end"`
	// Session is the record's session line, for a table of a session: the
	// mini-game it settled and the standings after it.
	Session *record.Session `json:"session,omitempty"`
}

// Steps replays a stored game's record with package record and rules and
// returns every step. A record that does not replay to itself is an error.
func Steps(g *store.Game) (*Replay, error) {
	recs, err := record.ReadAll(bytes.NewReader(g.Record))
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("web: game %d holds %d records, not 1", g.ID, len(recs))
	}
	rec := recs[0]
	_, cards, err := rec.Header.Deck.Build()
	if err != nil {
		return nil, err
	}
	if _, _, err := rec.Replay(cards); err != nil {
		return nil, err
	}
	gm, err := rules.Lookup(rec.Header.Game)
	if err != nil {
		return nil, err
	}
	st, err := rules.New(gm, cards, rec.Header.Config)
	if err != nil {
		return nil, err
	}
	out := &Replay{Game: g.Summary, Header: rec.Header, End: rec.End, Session: rec.Session}
	out.Steps = append(out.Steps, Step{Index: 0, View: st.View(rules.Spectator)})
	for i := range rec.Entries {
		e := &rec.Entries[i]
		a := e.Action
		ev, err := st.Apply(a, nil)
		step := Step{Index: i + 1, Action: &a}
		var ref *rules.Refusal
		switch {
		case err == nil:
			for _, x := range ev {
				step.Events = append(step.Events, st.EventFor(x, rules.Spectator))
			}
		case errors.As(err, &ref):
			step.Refusal = ref
		default:
			return nil, err
		}
		step.View = st.View(rules.Spectator)
		out.Steps = append(out.Steps, step)
	}
	return out, nil
}
