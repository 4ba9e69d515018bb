package record_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/sim"
)

// moreVariants are option settings a check plays beside each choice, to
// reach what the defaults rarely do: Reflection's used cards shuffled back
// into the stock (a long game), Triplets' slots opened for extra cards (a
// grid too small to always hold a triple).
var moreVariants = map[string][]map[string]string{
	"reflection": {{"target": "40"}},
	"triplets":   {{"grid": "4"}},
}

// variants returns the configurations of g's options a check plays: the
// defaults, each choice of each option with choices set alone, and
// moreVariants.
func variants(g rules.Game) []map[string]string {
	out := append([]map[string]string{nil}, moreVariants[g.Info().Name]...)
	for _, o := range g.Info().Options {
		for _, ch := range o.Choices {
			if ch != o.Default {
				out = append(out, map[string]string{o.Name: ch})
			}
		}
	}
	return out
}

// simulated plays n games of g, spread over its player counts (up to 5),
// its option variants and the bot levels (one level per seat, rotating),
// and returns their records, each written by dobble sim's writer.
func simulated(t *testing.T, g rules.Game, n int) []string {
	t.Helper()
	info := g.Info()
	levels := bot.Levels()
	vars := variants(g)
	var recs []string
	for i := 0; len(recs) < n; i++ {
		if i > 4*n {
			t.Fatalf("%s: only %d of %d games could be set up", info.Name, len(recs), n)
		}
		p := info.MinPlayers + i%(min(info.MaxPlayers, 5)-info.MinPlayers+1)
		bots := make([]bot.Level, p)
		for s := range bots {
			bots[s] = levels[(i+s)%len(levels)]
		}
		cfg := rules.Config{Players: p, Options: vars[i%len(vars)]}
		if i%7 == 3 {
			cfg.Lockout = rules.NoLockout
		}
		var buf bytes.Buffer
		m, err := sim.New(sim.Config{Game: g, Rules: cfg, Bots: bots, Record: record.NewWriter(&buf)})
		if err != nil {
			continue // a table this deck or these options cannot deal
		}
		if _, err := m.Play(uint64(1000 + i)); err != nil {
			t.Fatalf("%s, %d players, %v: %v", info.Name, p, cfg.Options, err)
		}
		recs = append(recs, buf.String())
	}
	return recs
}

// TestCheckSimulated checks the records of simulated games of every game,
// 100 each with -short and 1000 otherwise, with Check: every one is
// consistent with itself without the rules. Every fifth is replayed with
// the rules too.
func TestCheckSimulated(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	total := 0
	shuffled, opened := map[string]int{}, map[string]int{}
	for _, g := range rules.Games() {
		name := g.Info().Name
		shuffles, opens := 0, 0
		for k, text := range simulated(t, g, n) {
			recs, err := record.ReadAll(strings.NewReader(text))
			if err != nil || len(recs) != 1 {
				t.Fatalf("%s: %d records, %v", name, len(recs), err)
			}
			rec := recs[0]
			if err := rec.Check(); err != nil {
				t.Fatalf("%s, game %d (%d players, %v): %v\n%s", name, k, rec.Header.Config.Players, rec.Header.Config.Options, err, text)
			}
			if k%5 == 0 {
				if _, _, err := rec.Replay(nil); err != nil {
					t.Fatalf("%s, game %d: %v", name, k, err)
				}
			}
			for _, e := range rec.Entries {
				shuffles += len(e.Shuffled)
				opens += len(e.Opened)
			}
			total++
		}
		shuffled[name], opened[name] = shuffles, opens
		t.Logf("%s: %d records checked (its own rules too: %v), %d shuffle outcomes, %d zones opened", name, n, record.Knows(name), shuffles, opens)
	}
	t.Logf("%d records checked", total)
	// Every game that shuffles or opens zones during play did so.
	for _, name := range []string{"subway-rescue", "anarchy-pancakes", "guess", "false-poker", "reflection"} {
		if shuffled[name] == 0 {
			t.Errorf("%s: no shuffle outcome was checked", name)
		}
	}
	for _, name := range []string{"anarchy-pancakes", "triplets"} {
		if opened[name] == 0 {
			t.Errorf("%s: no zone opened was checked", name)
		}
	}
}

// edit returns text with line i (from 0) decoded, changed by f and
// encoded again.
func edit(t *testing.T, text string, i int, f func(map[string]any)) string {
	t.Helper()
	ls := strings.Split(strings.TrimSpace(text), "\n")
	var v map[string]any
	if err := json.Unmarshal([]byte(ls[i]), &v); err != nil {
		t.Fatal(err)
	}
	f(v)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	ls[i] = string(b)
	return strings.Join(ls, "\n") + "\n"
}

// firstLine returns the index of the first line of text for which f
// holds, decoded, and fails when there is none.
func firstLine(t *testing.T, text string, f func(map[string]any) bool) int {
	t.Helper()
	for i, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		if f(v) {
			return i
		}
	}
	t.Fatal("no such line")
	return -1
}

// checkFails reads text and checks it, and fails unless Check (or Replay,
// with replay set) reports an error holding want.
func checkFails(t *testing.T, what, text, want string, replay bool) {
	t.Helper()
	recs, err := record.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	err = recs[0].Check()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: Check says %v, want %q", what, err, want)
	}
	if replay {
		if _, _, err := recs[0].Replay(nil); err == nil {
			t.Errorf("%s: Replay accepts it", what)
		}
	}
}

// TestCheckTampered changes a record's start line, a shuffle outcome, an
// event and its result, one at a time, and checks that Check finds each.
func TestCheckTampered(t *testing.T) {
	g, _ := rules.Lookup("subway-rescue")
	var text string
	for seed := uint64(1); ; seed++ {
		var buf bytes.Buffer
		easy, _ := bot.LookupLevel("easy")
		if _, err := sim.Run(sim.Config{Game: g, Rules: rules.Config{Players: 3, Seed: seed}, Bots: []bot.Level{easy},
			Record: record.NewWriter(&buf)}); err != nil {
			t.Fatal(err)
		}
		text = buf.String()
		if strings.Contains(text, `"shuffled"`) {
			break
		}
	}
	recs, err := record.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if err := recs[0].Check(); err != nil {
		t.Fatalf("the record as written: %v", err)
	}
	shuffledAt := firstLine(t, text, func(v map[string]any) bool { return v["shuffled"] != nil })
	var line map[string]any
	json.Unmarshal([]byte(strings.Split(text, "\n")[shuffledAt]), &line)
	orders := line["shuffled"].([]any)
	first := orders[0].([]any)
	other := orders[1].([]any)
	where := fmt.Sprintf("line %d:", shuffledAt+1)

	// A card of another zone in a shuffle outcome.
	checkFails(t, "a card swapped with another zone's", edit(t, text, shuffledAt, func(v map[string]any) {
		o := v["shuffled"].([]any)
		o[0].([]any)[0], o[1].([]any)[0] = other[0], first[0]
	}), where+" the shuffle of zone", true)

	// Two cards of the outcome swapped: the order differs, the cards are
	// the same; the seat's new top card, which its next claim or the
	// next move out of the pile reads, gives it away.
	top := len(first) - 1
	swapped := edit(t, text, shuffledAt, func(v map[string]any) {
		o := v["shuffled"].([]any)[0].([]any)
		o[0], o[top] = o[top], o[0]
	})
	checkFails(t, "two cards of an outcome swapped", swapped, "", true)

	// An outcome dropped, or one too many.
	checkFails(t, "an outcome dropped", edit(t, text, shuffledAt, func(v map[string]any) {
		v["shuffled"] = v["shuffled"].([]any)[1:]
	}), "", false)
	checkFails(t, "an outcome too many", edit(t, text, shuffledAt, func(v map[string]any) {
		v["shuffled"] = append(v["shuffled"].([]any), first)
	}), "shuffle outcomes more than", false)

	// Two cards of the start swapped between zones.
	checkFails(t, "the start", edit(t, text, 1, func(v map[string]any) {
		z := v["zones"].([]any)
		a, b := z[1].(map[string]any)["cards"].([]any), z[4].(map[string]any)["cards"].([]any)
		a[0], b[0] = b[0], a[0]
	}), "", true)

	// A claim of a symbol not on the cards (and the events to match).
	claimAt := firstLine(t, text, func(v map[string]any) bool { return v["type"] == "action" })
	checkFails(t, "a claim of another symbol", edit(t, text, claimAt, func(v map[string]any) {
		sym := v["action"].(map[string]any)["symbol"].(float64)
		v["action"].(map[string]any)["symbol"] = float64((int(sym) + 1) % 13)
		v["events"].([]any)[0].(map[string]any)["symbol"] = float64((int(sym) + 1) % 13)
	}), "is not on the", true)

	// A score changed in the result line, and in the over event.
	last := strings.Count(strings.TrimSpace(text), "\n")
	checkFails(t, "the result line", edit(t, text, last, func(v map[string]any) {
		v["result"].(map[string]any)["scores"].([]any)[0] = 99.0
	}), "the result line", true)
	checkFails(t, "the over event", edit(t, text, last-1, func(v map[string]any) {
		ev := v["events"].([]any)
		ev[len(ev)-1].(map[string]any)["result"].(map[string]any)["winners"] = []any{}
	}), "the over event ranks", true)
	// A lock-out that does not add up.
	if i := strings.Index(text, `"type":"refused"`); i >= 0 {
		at := strings.Count(text[:i], "\n")
		checkFails(t, "a lock-out", edit(t, text, at, func(v map[string]any) {
			v["refusal"].(map[string]any)["lockedUntil"] = 1.0
		}), "locked out until 1 ms", true)
	}
}

// TestCheckFormat1 reads and replays the format 1 records of
// testdata/format1.jsonl, written before records stated the table as set
// up: they still replay to their ends, and Check says it cannot check
// them.
func TestCheckFormat1(t *testing.T) {
	f, err := os.Open("testdata/format1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, rec := range recs {
		if rec.Header.Format != 1 || rec.Start != nil {
			t.Fatalf("%s: format %d", rec.Header.Game, rec.Header.Format)
		}
		s, _, err := rec.Replay(nil)
		if err != nil || !s.Over() || rec.End == nil || !rec.End.Over {
			t.Fatalf("%s: %v", rec.Header.Game, err)
		}
		if err := rec.Check(); err == nil || !strings.Contains(err.Error(), "format 1 record states no table") {
			t.Fatalf("%s: Check: %v", rec.Header.Game, err)
		}
		games = append(games, rec.Header.Game)
	}
	if want := []string{"tower", "subway-rescue", "anarchy-pancakes", "guess", "reflection", "false-poker", "memory", "hot-potato", "triplets"}; !slices.Equal(games, want) {
		t.Fatalf("games %v, want %v", games, want)
	}
}

// recordOf returns the record of one game of name, seed seed, between
// easy bots (which err), with options.
func recordOf(t *testing.T, name string, players int, seed uint64, options map[string]string) string {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	easy, _ := bot.LookupLevel("easy")
	var buf bytes.Buffer
	if _, err := sim.Run(sim.Config{Game: g, Rules: rules.Config{Players: players, Seed: seed, Options: options},
		Bots: []bot.Level{easy}, Record: record.NewWriter(&buf)}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// eventAt returns the first line of text holding an event for which f
// holds, and the event's index in the line.
func eventAt(t *testing.T, text string, f func(a, e map[string]any) bool) (int, int) {
	t.Helper()
	for i, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		ev, _ := v["events"].([]any)
		for j, e := range ev {
			if f(v["action"].(map[string]any), e.(map[string]any)) {
				return i, j
			}
		}
	}
	t.Fatal("no such event")
	return -1, -1
}

// TestCheckGames changes, game by game, what the checker knows of each
// game's own rules, and checks that it finds each change: Memory's flips
// and turns, Guess's flips and scores, Reflection's answers and scores,
// False Poker's row check, Anarchy Pancakes' draws and butter pats, the
// Well's order of emptying, the clock's deadlines and lenient versions.
func TestCheckGames(t *testing.T) {
	kind := func(k string) func(a, e map[string]any) bool {
		return func(_, e map[string]any) bool { return e["kind"] == k }
	}
	type mutation struct {
		name, game string
		players    int
		options    map[string]string
		find       func(a, e map[string]any) bool
		change     func(a, e map[string]any)
		want       string
	}
	for _, m := range []mutation{
		{"memory flip card", "memory", 2, nil, kind("flip"),
			func(_, e map[string]any) { e["card"] = e["card"].(float64) + 1 }, "a flip of card"},
		{"memory flip out of turn", "memory", 3, nil, kind("flip"), nil, "in the turn of seat 0"},
		{"memory symbol off the face-up card", "memory", 2, nil, kind("flip"),
			func(a, e map[string]any) { a["symbol"], e["symbol"] = -5.0, -5.0 }, "not on the face-up card"},
		{"guess flip said to show the secret", "guess", 3, nil, kind("flip"),
			func(_, e map[string]any) { e["count"] = 1 - e["count"].(float64) }, "was said to show the secret"},
		{"guess score", "guess", 3, map[string]string{"wrong": "wait"}, kind("score"),
			func(_, e map[string]any) { e["count"] = e["count"].(float64) - 1 }, "the rules give"},
		{"guess right said wrong", "guess", 4, nil, kind("guess"),
			func(_, e map[string]any) { e["count"] = 1 - e["count"].(float64) }, ""},
		{"reflection score", "reflection", 2, nil, kind("score"),
			func(_, e map[string]any) { e["count"] = e["count"].(float64) + 1 }, "the rules give"},
		{"reflection write off the fifth card", "reflection", 2, nil, kind("write"),
			func(a, e map[string]any) { a["symbol"], e["symbol"] = 56.0, 56.0 }, ""},
		{"false poker loss", "false-poker", 3, nil, kind("score"),
			func(_, e map[string]any) { e["count"] = e["count"].(float64) + 1 }, "the rules give"},
		{"false poker loser", "false-poker", 3, nil, kind("score"),
			func(_, e map[string]any) { e["seat"] = float64((int(e["seat"].(float64)) + 1) % 3) }, "the rules give"},
		{"pancakes draw elsewhere", "anarchy-pancakes", 3, nil,
			func(a, e map[string]any) bool { return a["kind"] == "draw" && e["kind"] == "move" },
			func(_, e map[string]any) { e["to"] = e["to"].(float64) + 1 }, ""},
		{"pancakes pat", "anarchy-pancakes", 2, nil, kind("over"),
			func(_, e map[string]any) {
				sc := e["result"].(map[string]any)["scores"].([]any)
				sc[0], sc[1] = sc[1], sc[0]
			}, "the table and the events give"},
		{"well places", "well", 3, map[string]string{"end": "last-loses"}, kind("over"),
			func(_, e map[string]any) {
				sc := e["result"].(map[string]any)["scores"].([]any)
				sc[0], sc[1], sc[2] = sc[1], sc[2], sc[0]
			}, "the table and the events give"},
		{"tick before the deadline", "guess", 3, nil,
			func(a, _ map[string]any) bool { return a["kind"] == "tick" },
			func(a, _ map[string]any) { a["at"] = a["at"].(float64) - 1 }, "before the deadline"},
		{"tick naming a seat", "guess", 3, nil,
			func(a, _ map[string]any) bool { return a["kind"] == "tick" },
			func(a, _ map[string]any) { a["seat"] = 0.0 }, "a tick of seat 0"},
		{"write from before the phase", "reflection", 2, nil, kind("write"),
			func(a, _ map[string]any) { a["version"] = 0.0 }, "against version 0"},
		{"collect token taken twice", "collect-symbols", 2, nil, kind("claim"), nil, ""},
	} {
		t.Run(m.name, func(t *testing.T) {
			text := recordOf(t, m.game, m.players, 5, m.options)
			if err := mustRead(t, text).Check(); err != nil {
				t.Fatalf("as written: %v", err)
			}
			if m.name == "collect token taken twice" {
				// The second claim names the first's symbol again.
				i, _ := eventAt(t, text, kind("claim"))
				var sym any
				edit(t, text, i, func(v map[string]any) { sym = v["action"].(map[string]any)["symbol"] })
				j := firstLine(t, text, func(v map[string]any) bool {
					ev, _ := v["events"].([]any)
					return len(ev) > 0 && ev[0].(map[string]any)["kind"] == "claim" && v["action"].(map[string]any)["symbol"] != sym
				})
				text = edit(t, text, j, func(v map[string]any) {
					v["action"].(map[string]any)["symbol"] = sym
					v["events"].([]any)[0].(map[string]any)["symbol"] = sym
				})
				checkFails(t, m.name, text, "", true)
				return
			}
			i, j := eventAt(t, text, m.find)
			text = edit(t, text, i, func(v map[string]any) {
				if m.change != nil {
					m.change(v["action"].(map[string]any), v["events"].([]any)[j].(map[string]any))
					return
				}
				// Seat 2 flips in seat 0's turn, with every event to match.
				v["action"].(map[string]any)["seat"] = 2.0
				for _, e := range v["events"].([]any) {
					if e := e.(map[string]any); e["seat"] == 0.0 {
						e["seat"] = 2.0
					}
				}
			})
			checkFails(t, m.name, text, m.want, true)
		})
	}
}

// mustRead reads the one record of text.
func mustRead(t *testing.T, text string) *record.Record {
	t.Helper()
	recs, err := record.ReadAll(strings.NewReader(text))
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	return recs[0]
}

// TestCheckMutated changes numbers at random in records of every game, a
// thousand times, and checks that Check never fails other than with a
// *CheckError (no panic, whatever the input), and that it finds nine in
// ten at least: a record is mostly made of facts the checker cross-checks.
// (Some changes leave a record consistent: the symbol of an action that
// names none, which the rules ignore, or the symbol Guess's host
// eliminates, drawn at random among several.)
func TestCheckMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	found, changed := 0, 0
	for _, g := range rules.Games() {
		text := simulated(t, g, 1)[0]
		ls := strings.Split(strings.TrimSpace(text), "\n")
		for range 1000 / len(rules.Games()) {
			i := 1 + r.IntN(len(ls)-1)
			var v any
			if err := json.Unmarshal([]byte(ls[i]), &v); err != nil {
				t.Fatal(err)
			}
			// Every number of the line, as a function that changes it.
			var nums []func(float64) float64
			var walk func(x any)
			walk = func(x any) {
				switch x := x.(type) {
				case []any:
					for k := range x {
						if n, ok := x[k].(float64); ok {
							nums = append(nums, func(f float64) float64 { x[k] = f; return n })
						} else {
							walk(x[k])
						}
					}
				case map[string]any:
					for k := range x {
						if n, ok := x[k].(float64); ok {
							nums = append(nums, func(f float64) float64 { x[k] = f; return n })
						} else {
							walk(x[k])
						}
					}
				}
			}
			walk(v)
			if len(nums) == 0 {
				continue
			}
			f := float64(r.IntN(64) - 2)
			if old := nums[r.IntN(len(nums))](f); old == f {
				continue
			}
			b, _ := json.Marshal(v)
			out := slices.Clone(ls)
			out[i] = string(b)
			recs, err := record.ReadAll(strings.NewReader(strings.Join(out, "\n")))
			if err != nil || len(recs) != 1 {
				continue
			}
			changed++
			err = recs[0].Check()
			var ce *record.CheckError
			if err != nil && !errors.As(err, &ce) {
				t.Fatalf("%s, line %d changed: %v is not a *CheckError", g.Info().Name, i+1, err)
			}
			if err != nil {
				found++
			}
		}
	}
	t.Logf("%d of %d changed records found inconsistent", found, changed)
	if found < changed*9/10 {
		t.Fatalf("only %d of %d changed records found inconsistent", found, changed)
	}
}

// TestEveryGameDeclaresItsRecordRules checks that Check knows the own
// rules of every game of this repository, as each declares them in its
// file (rules.Info.Record): its scores, its clock and its own events.
func TestEveryGameDeclaresItsRecordRules(t *testing.T) {
	for _, g := range rules.Games() {
		if info := g.Info(); !record.Knows(info.Name) {
			t.Errorf("%s declares no record rules (rules.Info.Record): its records are checked for what every game shares only", info.Name)
		}
	}
}
