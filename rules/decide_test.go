package rules

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestDecidersSeeOnlyTheirViews plays random games of every game with
// Deciders and gives every seat two of them, with Minds that draw the
// same: one reads the State as the seat sees it (State.SeenBy), as a bot
// does, the other the seat's view encoded as JSON and decoded again
// (View.Seen), as a program over the protocol does. After every action
// both must decide the same action with the same effort, or both nothing:
// a bot decides from nothing its view does not show. The games move on
// by the Deciders' actions, now and then by a random move of the rules',
// and by the clock when no seat acts; the rules accept every action a
// Decider chooses.
func TestDecidersSeeOnlyTheirViews(t *testing.T) {
	for _, g := range Games() {
		dm, ok := g.(DeciderMaker)
		if !ok {
			continue
		}
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			compared, acted := 0, 0
			for seed := range uint64(6) {
				for _, td := range decksFor(t, info.Name) {
					players := info.MinPlayers + int(seed)%(min(info.MaxPlayers, 6)-info.MinPlayers+1)
					st, err := New(g, td.x, Config{Players: players, Seed: seed})
					if err != nil {
						continue
					}
					c, a := compareDeciders(t, dm, st, seed)
					compared, acted = compared+c, acted+a
				}
			}
			if compared == 0 || acted == 0 {
				t.Fatalf("%d decisions compared, %d actions of the Deciders", compared, acted)
			}
		})
	}
}

// compareDeciders plays st as TestDecidersSeeOnlyTheirViews does and
// returns how many decisions it compared and how many actions of the
// Deciders it applied.
func compareDeciders(t *testing.T, dm DeciderMaker, st *State, seed uint64) (compared, acted int) {
	t.Helper()
	players := st.Players()
	r := rand.New(rand.NewPCG(seed, 99))
	fromState, fromView := make([]Decider, players), make([]Decider, players)
	stateMinds, viewMinds := make([]Mind, players), make([]Mind, players)
	for i := range players {
		fromState[i], fromView[i] = dm.NewDecider(), dm.NewDecider()
		// Forgetful, misreading, bluffing and daring in turns, with
		// the same draws for both.
		m := Mind{Recall: []float64{1, 0.7, 0.4}[(int(seed)+i)%3], Misread: 0.1 * float64(seed%3), Bluff: 0.3, Risk: 1 + int(seed+uint64(i))%3}
		stateMinds[i], viewMinds[i] = m, m
		stateMinds[i].Rand = rand.New(rand.NewPCG(seed, uint64(i)))
		viewMinds[i].Rand = rand.New(rand.NewPCG(seed, uint64(i)))
	}
	actions := make([]Action, players)
	decided := make([]bool, players)
	views := make([]View, players)
	now := int64(0)
	for step := 0; !st.Over() && step < 3000; step++ {
		for seat := range players {
			b, err := json.Marshal(st.View(seat))
			if err != nil {
				t.Fatal(err)
			}
			views[seat] = View{}
			if err := json.Unmarshal(b, &views[seat]); err != nil {
				t.Fatal(err)
			}
			var va Action
			ea, oka := fromState[seat].Decide(st.SeenBy(seat), &stateMinds[seat], &actions[seat])
			eb, okb := fromView[seat].Decide(views[seat].Seen(), &viewMinds[seat], &va)
			if oka != okb || oka && (actions[seat] != va || ea != eb) {
				t.Fatalf("seed %d, version %d, seat %d: from the state %v %+v (effort %g), from the view %v %+v (effort %g)",
					seed, st.Version(), seat, oka, actions[seat], ea, okb, va, eb)
			}
			decided[seat] = oka
			compared++
		}
		// Now and then a move of the rules' own, to reach tables the
		// Deciders would not.
		if r.IntN(5) == 0 {
			seat := r.IntN(players)
			if moves := st.Moves(seat, nil); len(moves) > 0 {
				a := moves[r.IntN(len(moves))]
				a.At = now
				if _, err := st.Apply(a, nil); err != nil {
					t.Fatalf("seed %d: move %+v: %v", seed, a, err)
				}
				continue
			}
		}
		moved := false
		for i := range players {
			seat := (step + i) % players
			if !decided[seat] {
				continue
			}
			a := actions[seat]
			if a.Seat != seat {
				t.Fatalf("seed %d: seat %d decided an action of seat %d", seed, seat, a.Seat)
			}
			a.Version, a.At = st.Version(), now
			// Told before the table changes, as it is the table the
			// action was decided from.
			fromState[seat].Sent(st.SeenBy(seat), &a)
			fromView[seat].Sent(views[seat].Seen(), &a)
			if _, err := st.Apply(a, nil); err != nil {
				t.Fatalf("seed %d, step %d: seat %d decided %+v: %v", seed, step, seat, a, err)
			}
			moved, acted = true, acted+1
			break
		}
		if moved {
			continue
		}
		tick, ok := st.Tick()
		if !ok {
			t.Fatalf("seed %d, step %d: no seat acts and the game has no clock to move it on", seed, step)
		}
		if _, err := st.Apply(tick, nil); err != nil {
			t.Fatalf("seed %d, step %d: tick: %v", seed, step, err)
		}
		now = tick.At
	}
	return compared, acted
}

// TestMindShapesFalsePoker checks, at every turn of random games of False
// Poker, what the Mind decides: a player who never bluffs lays only a card
// whose shared symbol with the end of the row is new; one who always
// bluffs says STOP only on a repeat or with nothing to lay; one who
// notices no repeat lays a safe card whenever it has one.
func TestMindShapesFalsePoker(t *testing.T) {
	g, err := Lookup("false-poker")
	if err != nil {
		t.Fatal(err)
	}
	minds := map[string]Mind{
		"safe":      {Recall: 1, Risk: 1},
		"bluffer":   {Recall: 1, Bluff: 1, Risk: 1, Rand: rand.New(rand.NewPCG(1, 2))},
		"oblivious": {Risk: 1},
	}
	turns := 0
	for seed := range uint64(20) {
		var st *State
		for _, td := range decksFor(t, "false-poker") {
			if st, err = New(g, td.x, Config{Players: 3, Seed: seed}); err == nil {
				break
			}
		}
		if st == nil {
			t.Fatal("no test deck deals False Poker for 3")
		}
		r := rand.New(rand.NewPCG(seed, 5))
		for step := 0; !st.Over() && step < 500; step++ {
			seat, e := st.Turn(), st.ext.(*fpExt)
			last := st.top(fpRow)
			free, held, safe := fpFree(st, e, seat), 0, 0
			for j := range fpHand {
				if c := st.top(fpSlot(seat, j)); c >= 0 {
					held++
					if sym := st.cards.Common(last, c); !hasBit(e.shared, sym) {
						safe++
					}
				}
			}
			for name, m := range minds {
				var a Action
				if _, ok := g.(DeciderMaker).NewDecider().Decide(st.SeenBy(seat), &m, &a); !ok {
					t.Fatalf("%s: no decision on the turn of seat %d", name, seat)
				}
				laySafe := a.Kind == ActionLay && !hasBit(e.shared, st.cards.Common(last, st.top(int(a.Target.z[0]))))
				var bad bool
				switch name {
				case "safe":
					bad = (a.Kind == ActionLay) != (e.repeats == 0 && free > 0 && safe > 0) || a.Kind == ActionLay && !laySafe
				case "bluffer":
					bad = (a.Kind == ActionStop) != (e.repeats > 0 || free == 0 || held == 0) || safe > 0 && a.Kind == ActionLay && !laySafe
				case "oblivious":
					bad = free > 0 && safe > 0 && !laySafe
				}
				if bad {
					t.Fatalf("seed %d, seat %d, %s: %+v with %d repeats, %d markers free, %d cards held, %d safe",
						seed, seat, name, a, e.repeats, free, held, safe)
				}
			}
			turns++
			// Mostly lays, to make long rows.
			moves := st.Moves(seat, nil)
			a := moves[r.IntN(len(moves))]
			for _, m := range moves {
				if m.Kind == ActionLay && r.IntN(10) > 0 {
					a = m
				}
			}
			a.At = 0
			if _, err := st.Apply(a, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if turns < 100 {
		t.Fatalf("only %d turns", turns)
	}
}
