package clientplay

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
)

// newState deals game for players on the deck a room deals it.
func newState(t testing.TB, game string, players int) *rules.State {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	d, err := room.NewDecks().Get("classic", false)
	if own := g.Info().Deck; own != nil {
		d, err = room.NewDecks().Get(own.Edition, own.Singles)
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.New(g, d.Cards, rules.Config{Players: players, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDecideEndsEveryGame plays every registered game to its end on the
// rules alone, each seat shown its view as JSON after every action and
// acting on what it decides, the first seat to act moving round the
// table, the clock ticking when no seat acts: the rules accept every
// action chosen, and every game ends.
func TestDecideEndsEveryGame(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		if !Plays(info.Name) {
			t.Errorf("%s is registered, but Decide does not play it", info.Name)
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			players := max(2, info.MinPlayers)
			if info.MaxPlayers < players {
				players = info.MaxPlayers
			}
			st := newState(t, info.Name, players)
			minds := make([]Mind, players)
			views := make([]View, players)
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
					minds[seat].Observe(&views[seat])
				}
				moved := false
				for i := range players {
					seat := (step + i) % players
					a, ok := minds[seat].Decide(&views[seat])
					if !ok {
						continue
					}
					ra := rules.Action{Kind: a.Kind, Seat: seat, Symbol: a.Symbol, Target: rules.To(a.Target...), Version: st.Version(), At: now}
					if _, err := st.Apply(ra, nil); err != nil {
						t.Fatalf("step %d: seat %d chose %+v from %+v: %v", step, seat, a, views[seat], err)
					}
					minds[seat].Sent(&views[seat], a)
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
		})
	}
}

// TestViewKeysInAnyOrder reads a view of Memory, after a card was flipped,
// as the server writes it (the game before the extra) and with its keys
// in alphabetical order, as encoding/json writes a map: both read the
// same, the card flipped last included.
func TestViewKeysInAnyOrder(t *testing.T) {
	st := newState(t, "memory", 2)
	var m Mind
	var v View
	b, _ := json.Marshal(st.View(0))
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	a, ok := m.Decide(&v)
	if !ok || a.Kind != rules.ActionFlip {
		t.Fatalf("seat 0 does not flip at the start of Memory: %+v", a)
	}
	if _, err := st.Apply(rules.Action{Kind: a.Kind, Seat: 0, Symbol: a.Symbol, Target: rules.To(a.Target...)}, nil); err != nil {
		t.Fatal(err)
	}
	server, _ := json.Marshal(st.View(1))
	var loose map[string]any
	if err := json.Unmarshal(server, &loose); err != nil {
		t.Fatal(err)
	}
	sorted, _ := json.Marshal(loose)
	var got, want View
	if err := json.Unmarshal(server, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sorted, &got); err != nil {
		t.Fatal(err)
	}
	if want.Extra.LastZone != a.Target[0] || len(want.Extra.Symbols) == 0 {
		t.Fatalf("the view after the flip of zone %d shows the last card at zone %d with symbols %v", a.Target[0], want.Extra.LastZone, want.Extra.Symbols)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s\nreads as %+v;\n%s\nreads as %+v", sorted, got, server, want)
	}
}

// TestSentAnswersAreNotWrittenAgain shows a seat of Reflection the four
// cards to study, then the fifth card: it writes the symbol the fifth
// shares with the first card studied, and, told that answer was sent,
// the next one, even before a view shows the first answer written.
func TestSentAnswersAreNotWrittenAgain(t *testing.T) {
	card := func(s ...int) []Card { return []Card{{Symbols: s}} }
	study := View{Game: "reflection", Round: 1, Turn: -1, Extra: Extra{Phase: "study", LastZone: -1, Host: -1}, Zones: []Zone{
		{Kind: rules.ZoneStudy, Seat: -1, Count: 1, Cards: card(1, 10, 11)},
		{Kind: rules.ZoneStudy, Seat: -1, Count: 1, Cards: card(2, 10, 12)},
		{Kind: rules.ZoneStudy, Seat: -1, Count: 1, Cards: card(3, 11, 12)},
		{Kind: rules.ZoneStudy, Seat: -1, Count: 1, Cards: card(4, 13, 14)},
	}}
	answer := View{Game: "reflection", Round: 1, Version: 1, Turn: -1, Extra: Extra{Phase: "answer", LastZone: -1, Host: -1}, Zones: []Zone{
		{Kind: rules.ZoneCentre, Seat: -1, Count: 1, Cards: card(1, 2, 3, 4)},
	}}
	var m Mind
	m.Observe(&study)
	if a, ok := m.Decide(&study); ok {
		t.Fatalf("an action in the study phase: %+v", a)
	}
	m.Observe(&answer)
	for i, want := range []int{1, 2, 3, 4} {
		a, ok := m.Decide(&answer)
		if !ok || a.Kind != rules.ActionWrite || a.Symbol != want {
			t.Fatalf("answer %d: %+v %v, want a write of %d", i, a, ok, want)
		}
		m.Sent(&answer, a)
	}
	if a, ok := m.Decide(&answer); ok {
		t.Fatalf("a fifth answer: %+v", a)
	}
	// A new table forgets the answers of the one before.
	m.Reset()
	m.Observe(&study)
	m.Observe(&answer)
	if a, ok := m.Decide(&answer); !ok || a.Symbol != 1 {
		t.Fatalf("the first answer at a new table: %+v %v", a, ok)
	}
}

// BenchmarkDecideClaim measures what a client spends taking in a view of
// a Tower of four and choosing its claim from it, as it does for every
// update of the game the load plays most.
func BenchmarkDecideClaim(b *testing.B) {
	raw, _ := json.Marshal(newState(b, "tower", 4).View(1))
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		b.Fatal(err)
	}
	var m Mind
	b.ReportAllocs()
	for b.Loop() {
		m.Observe(&v)
		if _, ok := m.Decide(&v); !ok {
			b.Fatal("no claim")
		}
	}
}
