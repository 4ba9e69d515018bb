package record_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/sim"
)

// sessionText plays a session of three bots on the order-2 deck whose
// first mini-game, a Tower, ties between seats 0 and 1 (seed 1), a duel
// breaking the tie, then a second mini-game, and returns its records.
func sessionText(t *testing.T, scoring session.Scoring) string {
	t.Helper()
	easy, _ := bot.LookupLevel("easy")
	var buf bytes.Buffer
	o, err := sim.PlaySession(sim.SessionConfig{Session: session.Config{Players: 3, Seed: 1, Games: 2, Scoring: scoring},
		Deck: record.Deck{Order: 2}, Bots: []bot.Level{easy}, Record: record.NewWriter(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Tables) != 3 || o.Tables[1].Game != "duel" {
		t.Fatalf("the session played %d tables, the second %s; the test wants a tie broken by a duel", len(o.Tables), o.Tables[1].Game)
	}
	return buf.String()
}

// sessionLine returns the index of the session line of table k of text.
func sessionLine(t *testing.T, text string, k int) int {
	t.Helper()
	return firstLine(t, text, func(v map[string]any) bool { return v["type"] == "session" && v["table"] == float64(k) })
}

// TestCheckSession checks the session lines of a session's records, by
// wins and by points, then changes them one fact at a time, and finds
// each change: the points, the places, the winners and the loser of a
// mini-game settled, a tie-break's winners, the standings, the picker of
// the next game, the tables' order and count.
func TestCheckSession(t *testing.T) {
	for _, sc := range []session.Scoring{session.ByWins, session.ByPoints} {
		text := sessionText(t, sc)
		recs, err := record.ReadAll(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if err := record.CheckSession(recs); err != nil {
			t.Fatalf("%s: as written: %v", sc, err)
		}
	}
	text := sessionText(t, session.ByWins)
	settled := func(f func(p map[string]any)) func(v map[string]any) {
		return func(v map[string]any) { f(v["settled"].(map[string]any)) }
	}
	bump := func(v []any, i int) { v[i] = v[i].(float64) + 1 }
	for _, m := range []struct {
		name  string
		table int
		edit  func(v map[string]any)
		want  string
	}{
		{"points", 1, settled(func(p map[string]any) { bump(p["points"].([]any), 0) }), "tournament points"},
		{"places", 1, settled(func(p map[string]any) { pl := p["places"].([]any); pl[0], pl[1] = pl[1], pl[0] }), "places"},
		{"winners", 1, settled(func(p map[string]any) { p["winners"] = []any{0.0} }), "winners"},
		{"loser", 1, settled(func(p map[string]any) { p["loser"] = 0.0 }), "loser"},
		{"tie-break winners", 1, settled(func(p map[string]any) {
			tb := p["tieBreaks"].([]any)[0].(map[string]any)
			tb["winners"] = []any{1 - tb["winners"].([]any)[0].(float64)}
		}), "tie-break 0 names winners"},
		{"tie-break result", 1, settled(func(p map[string]any) {
			tb := p["tieBreaks"].([]any)[0].(map[string]any)
			bump(tb["result"].(map[string]any)["scores"].([]any), 0)
		}), "does not end with this table's tie-break"},
		{"standings points", 2, func(v map[string]any) {
			s := v["standings"].(map[string]any)["seats"].([]any)[0].(map[string]any)
			s["points"] = s["points"].(float64) + 1
		}, "points"},
		{"standings won", 2, func(v map[string]any) {
			s := v["standings"].(map[string]any)["seats"].([]any)[0].(map[string]any)
			s["won"] = s["won"].(float64) + 1
		}, "mini-games won"},
		{"standings winners", 2, func(v map[string]any) { v["standings"].(map[string]any)["winners"] = []any{0.0} }, "standings after"},
		{"before", 2, func(v map[string]any) {
			s := v["before"].(map[string]any)["seats"].([]any)[2].(map[string]any)
			s["points"] = s["points"].(float64) + 1
		}, ""},
		{"picker", 2, func(v map[string]any) { v["picker"] = 1.0 }, "picked by seat 1"},
		{"picker of the game", 2, func(v map[string]any) {
			v["picker"] = 1.0
			v["settled"].(map[string]any)["picker"] = 1.0
		}, "its loser, seat 2, picks"},
		{"table", 2, func(v map[string]any) { v["table"] = 3.0 }, "this table, 3"},
		{"played", 2, func(v map[string]any) { v["played"] = 1.0 }, ""},
		{"over", 1, func(v map[string]any) { v["over"] = true }, "over"},
		{"no tie-break", 0, func(v map[string]any) {
			v["settled"] = map[string]any{"game": "tower", "table": 0.0, "picker": -1.0, "result": map[string]any{}, "tallies": []any{0.0, 0.0, 0.0}}
		}, ""},
	} {
		i := sessionLine(t, text, m.table)
		changed := edit(t, text, i, m.edit)
		recs, err := record.ReadAll(strings.NewReader(changed))
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		err = record.CheckSession(recs)
		if err == nil || !strings.Contains(err.Error(), m.want) {
			t.Errorf("%s: CheckSession says %v, want %q", m.name, err, m.want)
		}
	}
	// A table left out, or the session's tables in another order.
	recs, _ := record.ReadAll(strings.NewReader(text))
	if err := record.CheckSession([]*record.Record{recs[0], recs[2]}); err == nil {
		t.Error("a session without its tie-break checks")
	}
	if err := record.CheckSession([]*record.Record{recs[1], recs[0], recs[2]}); err == nil {
		t.Error("a session's tables out of order check")
	}
	// Each table's record, its session line included, checks on its own;
	// a reader that knows nothing of sessions reads the same games.
	for _, rec := range recs {
		if err := rec.Check(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSessionLineRead refuses a session line anywhere but after a result
// line, saying where it goes, and reads its format.
func TestSessionLineRead(t *testing.T) {
	text := sessionText(t, session.ByWins)
	i := sessionLine(t, text, 0)
	ls := strings.Split(strings.TrimSpace(text), "\n")
	moved := strings.Join(append(append([]string{ls[0], ls[1], ls[i]}, ls[2:i]...), ls[i+1:]...), "\n")
	if _, err := record.ReadAll(strings.NewReader(moved)); err == nil || !strings.Contains(err.Error(), `a "session" line follows a record's "result" line`) {
		t.Fatalf("a session line among a record's actions: %v", err)
	}
	var v struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal([]byte(ls[i]), &v); err != nil || v.Format != record.SessionFormat {
		t.Fatalf("the session line's format: %d (%v)", v.Format, err)
	}
}

// TestCheckSessionMutated changes one number of a session line at random,
// five hundred times, and checks that CheckSession never fails other than
// with an error (no panic, whatever the line holds), and finds nine
// changes in ten at least.
func TestCheckSessionMutated(t *testing.T) {
	text := sessionText(t, session.ByPoints)
	ls := strings.Split(strings.TrimSpace(text), "\n")
	var lines []int
	for i, l := range ls {
		if strings.HasPrefix(l, `{"type":"session"`) {
			lines = append(lines, i)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	found, tries := 0, 500
	for range tries {
		i := lines[rng.IntN(len(lines))]
		var v any
		if err := json.Unmarshal([]byte(ls[i]), &v); err != nil {
			t.Fatal(err)
		}
		// Every number of the line, as a place to change it.
		var places []func(float64) float64
		var walk func(x any)
		walk = func(x any) {
			switch x := x.(type) {
			case map[string]any:
				for k, y := range x {
					if f, ok := y.(float64); ok && k != "format" {
						places = append(places, func(d float64) float64 { x[k] = f + d; return f })
					}
					walk(y)
				}
			case []any:
				for k, y := range x {
					if f, ok := y.(float64); ok {
						places = append(places, func(d float64) float64 { x[k] = f + d; return f })
					}
					walk(y)
				}
			}
		}
		walk(v)
		places[rng.IntN(len(places))](float64(rng.IntN(4) + 1))
		b, _ := json.Marshal(v)
		changed := slices.Clone(ls)
		changed[i] = string(b)
		recs, err := record.ReadAll(strings.NewReader(strings.Join(changed, "\n")))
		if err != nil {
			found++
			continue
		}
		if record.CheckSession(recs) != nil {
			found++
		}
	}
	if found < tries*9/10 {
		t.Fatalf("CheckSession found %d changes of %d", found, tries)
	}
	t.Logf("CheckSession found %d changes of %d", found, tries)
}
