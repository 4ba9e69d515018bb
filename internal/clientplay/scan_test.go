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

// scan reads b with the Scanner into a view.
func scan(t *testing.T, b []byte) rules.View {
	t.Helper()
	var v rules.View
	s := NewScanner(b)
	s.View(&v)
	if err := s.Err(); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// TestScannerReadsWhatJSONReads reads a view of every game, after a few
// actions, with the scanner and with encoding/json: both read the same,
// the game's own extra included, but for the seats and the result, which
// the scanner leaves out. It reads Memory's view after a flip also with
// its keys in alphabetical order, as encoding/json writes a map, where
// the extra comes before the game.
func TestScannerReadsWhatJSONReads(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		st := newState(t, info.Name, min(max(3, info.MinPlayers), info.MaxPlayers))
		p := rules.NewPlayer(g)
		for step := range 8 {
			for seat := range st.Players() {
				b, _ := json.Marshal(st.View(seat))
				var want rules.View
				if err := json.Unmarshal(b, &want); err != nil {
					t.Fatal(err)
				}
				want.Seats, want.Result = nil, nil
				got := scan(t, b)
				got.Seats, got.Result = nil, nil
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %s\nscans as %+v\nnot %+v", info.Name, b, got, want)
				}
				var loose map[string]any
				json.Unmarshal(b, &loose)
				sorted, _ := json.Marshal(loose)
				if got := scan(t, sorted); !reflect.DeepEqual(got.Extra, want.Extra) {
					t.Fatalf("%s: %s\nscans its extra as %+v\nnot %+v", info.Name, sorted, got.Extra, want.Extra)
				}
			}
			v := st.View(step % st.Players())
			var a rules.Action
			if p.Decide(&v, &a) {
				a.Version = st.Version()
				st.Apply(a, nil)
			} else if tick, ok := st.Tick(); ok {
				st.Apply(tick, nil)
			}
		}
	}
}

// TestScannerRefusesBadJSON gives the scanner views it cannot read.
func TestScannerRefusesBadJSON(t *testing.T) {
	for _, bad := range []string{`{"zones":[{]}`, `{"game":"memory","extra":{"marked":[1,}}`, `{"game":"memory","extra":{"marked":"x"}}`,
		`{"zones":[{"show":"sideways"}]}`, `{"seat":}`} {
		var v rules.View
		s := NewScanner([]byte(bad))
		s.View(&v)
		if s.Err() == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
