package rules

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// TestPlayersEndEveryGame plays every registered game to its end on the
// rules alone with its Player (NewPlayer) at every seat, each seat shown
// its view as JSON after every action and acting on what it decides, the
// first seat to act moving round the table, the clock ticking when no
// seat acts: the rules accept every action chosen, and every game ends.
func TestPlayersEndEveryGame(t *testing.T) {
	for _, g := range Games() {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) { playToTheEnd(t, g) })
	}
}

// playToTheEnd plays g as TestPlayersEndEveryGame does.
func playToTheEnd(t *testing.T, g Game) {
	info := g.Info()
	players := min(max(2, info.MinPlayers), info.MaxPlayers)
	var st *State
	for _, td := range decksFor(t, info.Name) {
		var err error
		if st, err = New(g, td.x, Config{Players: players, Seed: 7}); err == nil {
			break
		}
	}
	if st == nil {
		t.Fatalf("no test deck deals %s for %d", info.Name, players)
	}
	seats := make([]Player, players)
	views := make([]View, players)
	for i := range seats {
		seats[i] = NewPlayer(g)
	}
	now := int64(0)
	actions := 0
	for step := 0; !st.Over(); step++ {
		if step == 100000 {
			t.Fatalf("not over after %d steps", step)
		}
		for seat := range players {
			b, err := json.Marshal(st.View(seat))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &views[seat]); err != nil {
				t.Fatal(err)
			}
			seats[seat].Observe(&views[seat])
		}
		moved := false
		for i := range players {
			seat := (step + i) % players
			var a Action
			if !seats[seat].Decide(&views[seat], &a) {
				continue
			}
			if a.Seat != seat {
				t.Fatalf("step %d: seat %d decided an action of seat %d", step, seat, a.Seat)
			}
			a.Version, a.At = st.Version(), now
			if _, err := st.Apply(a, nil); err != nil {
				t.Fatalf("step %d: seat %d chose %+v from %+v: %v", step, seat, a, views[seat], err)
			}
			seats[seat].Sent(&views[seat], &a)
			moved, actions = true, actions+1
			break
		}
		if moved {
			continue
		}
		tick, ok := st.Tick()
		if !ok {
			t.Fatalf("step %d: no seat acts and the game has no clock to move it on", step)
		}
		if _, err := st.Apply(tick, nil); err != nil {
			t.Fatalf("step %d: tick: %v", step, err)
		}
		now = tick.At
	}
	if actions == 0 {
		t.Errorf("over without an action of the seats")
	}
}

// TestFindClaimMatchesMoves checks every game of claims' ClaimShape
// against its rules: after every action of random games, a seat's Player
// built from the shape finds a claim in the seat's view exactly when the
// rules list one among the seat's moves, and the rules accept the claim it
// finds; every claim the rules list fits the shape.
func TestFindClaimMatchesMoves(t *testing.T) {
	for _, g := range Games() {
		info := g.Info()
		if _, own := g.(PlayerMaker); own || info.Claim == nil {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			checked := 0
			for seed := range uint64(8) {
				for _, td := range decksFor(t, info.Name) {
					players := info.MinPlayers + int(seed)%(info.MaxPlayers-info.MinPlayers+1)
					st, err := New(g, td.x, Config{Players: players, Seed: seed, Lockout: NoLockout})
					if err != nil {
						continue
					}
					p := NewPlayer(g)
					for step := 0; !st.Over() && step < 400; step++ {
						var moved bool
						for seat := range players {
							if st.Over() {
								break
							}
							v := st.View(seat)
							moves := st.Moves(seat, nil)
							claims := 0
							for _, m := range moves {
								if m.Kind != ActionClaim {
									continue
								}
								claims++
								if err := fitsShape(info.Claim, &v, &m); err != nil {
									t.Fatalf("seed %d: seat %d may claim %+v, which does not fit the shape: %v", seed, seat, m, err)
								}
							}
							var a Action
							found := FindClaim(&v, &a)
							if found != (claims > 0) {
								t.Fatalf("seed %d: seat %d: FindClaim %v (%+v) but the rules list %d claims", seed, seat, found, a, claims)
							}
							checked++
							if !moved && p.Decide(&v, &a) {
								a.Version = st.Version()
								if _, err := st.Apply(a, nil); err != nil {
									t.Fatalf("seed %d: seat %d decided %+v: %v", seed, seat, a, err)
								}
								moved = true
							}
						}
						if !moved {
							tick, ok := st.Tick()
							if !ok {
								break
							}
							if _, err := st.Apply(tick, nil); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			}
			if checked < 50 {
				t.Fatalf("only %d positions checked", checked)
			}
		})
	}
}

// fitsShape reports how claim a of seat v.Seat does not fit shape c in
// the table of view v, or nil when it does.
func fitsShape(c *ClaimShape, v *View, a *Action) error {
	if a.Target.Len() != len(c.Targets) {
		return fmt.Errorf("%d targets, the shape names %d", a.Target.Len(), len(c.Targets))
	}
	shows := func(z int, every bool) bool {
		cards := v.Zones[z].Cards
		if len(cards) == 0 {
			return false
		}
		if !every {
			cards = cards[len(cards)-1:]
		}
		for _, card := range cards {
			if commonSymbol([]int{a.Symbol}, card.Symbols) < 0 {
				return false
			}
		}
		return true
	}
	for i := range a.Target.Len() {
		z, p := a.Target.At(i), &c.Targets[i]
		zv := &v.Zones[z]
		if !p.Holds(zv.Kind, zv.Seat, v.Seat) || !shows(z, false) {
			return fmt.Errorf("target %d, zone %d (%s of seat %d), is not a place of %+v showing %d", i, z, zv.Kind, zv.Seat, *p, a.Symbol)
		}
		if c.Ascending && i > 0 && z <= a.Target.At(i-1) {
			return fmt.Errorf("targets not in increasing order")
		}
	}
	for _, p := range c.Match {
		found := false
		for z := range v.Zones {
			if zv := &v.Zones[z]; p.Holds(zv.Kind, zv.Seat, v.Seat) && shows(z, p.Every) {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("no zone of %+v shows %d", p, a.Symbol)
		}
	}
	return nil
}

// TestViewJSONRoundTrip encodes the views of every game after a few
// actions and decodes them: the decoded view is the view, its extra of
// the game's own type included.
func TestViewJSONRoundTrip(t *testing.T) {
	for _, g := range Games() {
		info := g.Info()
		var st *State
		for _, td := range decksFor(t, info.Name) {
			var err error
			if st, err = New(g, td.x, Config{Players: min(max(3, info.MinPlayers), info.MaxPlayers), Seed: 3}); err == nil {
				break
			}
		}
		if st == nil {
			t.Fatalf("%s: no test deck deals it", info.Name)
		}
		p := NewPlayer(g)
		for step := 0; step < 6 && !st.Over(); step++ {
			for seat := range st.Players() {
				want := st.View(seat)
				b, err := json.Marshal(want)
				if err != nil {
					t.Fatal(err)
				}
				var got View
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatalf("%s: %v", info.Name, err)
				}
				if !reflect.DeepEqual(normalView(got), normalView(want)) {
					t.Fatalf("%s: %s\ndecodes as %+v\nnot %+v", info.Name, b, got, want)
				}
			}
			var a Action
			v := st.View(step % st.Players())
			if p.Decide(&v, &a) {
				a.Version = st.Version()
				st.Apply(a, nil)
			} else if tick, ok := st.Tick(); ok {
				st.Apply(tick, nil)
			}
		}
	}
}

// normalView returns v with the empty lists that JSON does not tell from
// absent ones made nil, for comparing a view with its decoded copy.
func normalView(v View) any {
	b, _ := json.Marshal(v)
	var m any
	json.Unmarshal(b, &m)
	return []any{m, reflect.TypeOf(v.Extra)}
}

// BenchmarkDecideClaim measures what a client spends choosing its claim
// from a view of a Tower of four, as it does for every update of the game
// the load tool plays most.
func BenchmarkDecideClaim(b *testing.B) {
	g, _ := Lookup("tower")
	st, err := New(g, decksFor(b, "tower")[0].x, Config{Players: 4, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	v := st.View(1)
	p := NewPlayer(g)
	var a Action
	b.ReportAllocs()
	for b.Loop() {
		p.Observe(&v)
		if !p.Decide(&v, &a) {
			b.Fatal("no claim")
		}
	}
}
