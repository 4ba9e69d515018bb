package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// simFields are the fields of a sim output line, in order.
var simFields = []string{"game", "seed", "players", "deck", "scores", "unit", "winners", "actions", "wrong", "late", "virtualMs", "ms"}

// parseSim decodes the output of dobble sim, checking that every line is
// one JSON object with exactly the documented fields in order.
func parseSim(t *testing.T, out string) []simLine {
	t.Helper()
	var lines []simLine
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		d := json.NewDecoder(strings.NewReader(l))
		var keys []string
		if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
			t.Fatalf("line %q is not a JSON object", l)
		}
		for d.More() {
			k, _ := d.Token()
			keys = append(keys, k.(string))
			var skip json.RawMessage
			if err := d.Decode(&skip); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
		}
		if !slices.Equal(keys, simFields) {
			t.Fatalf("line %q has fields %v, want %v", l, keys, simFields)
		}
		var v simLine
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		lines = append(lines, v)
	}
	return lines
}

// TestSimOutput checks the output contract on a Tower between instant
// bots: one line a game, seeds S+i, the classic deck, scores adding up to
// the deck, the winners the highest scores.
func TestSimOutput(t *testing.T) {
	code, out, errOut := runCLI(t, "", "sim", "--game", "bank-heist", "--players", "4", "--games", "3", "--seed", "41")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := parseSim(t, out)
	if len(lines) != 3 {
		t.Fatalf("%d lines for 3 games", len(lines))
	}
	for i, l := range lines {
		sum, best := 0, 0
		for _, s := range l.Scores {
			sum += s
			best = max(best, s)
		}
		var winners []int
		for seat, s := range l.Scores {
			if s == best {
				winners = append(winners, seat)
			}
		}
		if l.Game != "tower" || l.Seed != uint64(41+i) || l.Players != 4 || l.Deck != 55 || len(l.Scores) != 4 || sum != 55 ||
			l.Unit != "cards" || !slices.Equal(l.Winners, winners) || l.Actions != 51 || l.Wrong != 0 || l.Late != 150 ||
			l.VirtualMs != 0 || l.Ms < 0 {
			t.Errorf("game %d: %+v", i, l)
		}
	}
	// Another deck and slower bots: time passes, wrong claims happen.
	code, out, _ = runCLI(t, "", "sim", "--game", "tower", "--players", "3", "--order", "5", "--cards", "25", "--bots", "easy", "--games", "5")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	wrong := 0
	for _, l := range parseSim(t, out) {
		if l.Deck != 25 || l.VirtualMs <= 0 || l.Actions != 25-3 {
			t.Errorf("%+v", l)
		}
		wrong += l.Wrong
	}
	if wrong == 0 {
		t.Error("easy bots made no wrong claim in five games")
	}
}

// TestSimOptions plays Anarchy Pancakes to three butter pats, on its
// default deck with its one-topping cards and on a larger plane.
func TestSimOptions(t *testing.T) {
	code, out, errOut := runCLI(t, "", "sim", "--game", "pancakes", "--players", "2", "--games", "3", "--option", "pats=3", "--option", "round-end=all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, l := range parseSim(t, out) {
		if l.Game != "anarchy-pancakes" || l.Deck != 31+31 || l.Unit != "butter pats" || len(l.Winners) != 1 || l.Scores[l.Winners[0]] != 3 {
			t.Errorf("%+v", l)
		}
	}
	code, out, errOut = runCLI(t, "", "sim", "--game", "pancakes", "--players", "3", "--order", "7", "--bots", "hard")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if l := parseSim(t, out)[0]; l.Deck != 57+57 || l.Scores[l.Winners[0]] != 2 || l.VirtualMs <= 0 {
		t.Errorf("%+v", l)
	}
}

// withoutMs drops the wall time, the only field that differs between runs.
func withoutMs(t *testing.T, out string) []simLine {
	lines := parseSim(t, out)
	for i := range lines {
		lines[i].Ms = 0
	}
	return lines
}

// TestSimDeterministic runs the same command twice: identical output but
// for the wall time; another seed gives other games.
func TestSimDeterministic(t *testing.T) {
	args := []string{"sim", "--game", "tower", "--players", "5", "--games", "4", "--seed", "9", "--bots", "hard,easy,expert,medium,instant"}
	_, a, _ := runCLI(t, "", args...)
	_, b, _ := runCLI(t, "", args...)
	if !reflect.DeepEqual(withoutMs(t, a), withoutMs(t, b)) {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
	_, c, _ := runCLI(t, "", append(args[:len(args)-4:len(args)-4], "--seed", "10", "--bots", "hard,easy,expert,medium,instant")...)
	if reflect.DeepEqual(withoutMs(t, a)[0], withoutMs(t, c)[0]) || !reflect.DeepEqual(withoutMs(t, a)[1:], withoutMs(t, c)[:3]) {
		t.Fatalf("seed 10 does not start one game later than seed 9:\n%s\n%s", a, c)
	}
}

// TestSimEveryGame runs every registered game with its fewest and most
// players and every bot level through the command line.
func TestSimEveryGame(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		for _, p := range []int{info.MinPlayers, info.MaxPlayers} {
			for _, l := range bot.LevelNames() {
				code, out, errOut := runCLI(t, "", "sim", "--game", info.Name, "--players", strconv.Itoa(p), "--bots", l)
				if code != 0 {
					t.Fatalf("%s, %d %s bots: exit %d, %s", info.Name, p, l, code, errOut)
				}
				line := parseSim(t, out)[0]
				if line.Game != info.Name || line.Players != p || len(line.Scores) != p || line.Unit != info.Unit || len(line.Winners) == 0 {
					t.Fatalf("%s: %+v", info.Name, line)
				}
			}
		}
	}
}

// TestSimRecord writes records and replays them; the file appears only
// once complete, with no temporary file left beside it.
func TestSimRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.jsonl")
	code, out, errOut := runCLI(t, "", "sim", "--game", "tower", "--players", "3", "--games", "4", "--seed", "100", "--bots", "medium", "--record", path)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := parseSim(t, out)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for i, rec := range recs {
		s, _, err := rec.Replay(nil)
		if err != nil {
			t.Fatal(err)
		}
		r := s.Result()
		if rec.Header.Config.Seed != lines[i].Seed || !slices.Equal(r.Scores, lines[i].Scores) || int(s.Version()) != lines[i].Actions ||
			rec.End.Refused != lines[i].Wrong || rec.Header.Seats[0] != "bot:medium" {
			t.Fatalf("record %d (%+v) does not match the output %+v", i, rec.Header, lines[i])
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("record file: %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the directory holds %d files, want only the record", len(entries))
	}
}

// failWriter fails every write, like a closed pipe.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestSimRecordFailures checks that no record file, partial or temporary,
// is left behind when the command fails after opening it.
func TestSimRecordFailures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.jsonl")
	// Refused after the record was opened: the deck is too small.
	code, _, errOut := runCLI(t, "", "sim", "--game", "tower", "--players", "4", "--order", "2", "--cards", "4", "--record", path)
	if code != 2 || !strings.Contains(errOut, "the deck does not fit") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	// Standard output fails in the middle of the run.
	var errb bytes.Buffer
	if code := run([]string{"sim", "--game", "tower", "--players", "2", "--games", "5000", "--record", path}, nil, failWriter{}, &errb); code != 1 ||
		errb.String() != "dobble: sim: writing the results: broken pipe\n" {
		t.Fatalf("failing stdout: exit %d, %q", code, errb.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files left behind: %v", entries)
	}
}

// TestSimBadRequests checks every refusal of dobble sim: exit 2, nothing on
// stdout, one line on stderr naming what would work.
func TestSimBadRequests(t *testing.T) {
	dir := t.TempDir()
	games := strings.Join(gameNames(), ", ")
	tests := []struct {
		args []string
		msg  string // the whole line, or a substring when it starts with "~"
	}{
		{[]string{"sim"}, "dobble: sim: say which game: --game NAME; games: " + games},
		{[]string{"sim", "--game", "chess", "--players", "2"}, `dobble: sim: unknown game "chess"; games: ` + games},
		{[]string{"sim", "--game", "tower"}, "dobble: sim: say how many players: --players P (tower takes 2 to 8)"},
		{[]string{"sim", "--game", "tower", "--players", "9"}, "dobble: sim: --players 9: tower takes 2 to 8 players"},
		{[]string{"sim", "--game", "tower", "--players", "1"}, "dobble: sim: --players 1: tower takes 2 to 8 players"},
		{[]string{"sim", "--game", "tower", "--players", "four"}, "dobble: sim: --players four: tower takes 2 to 8 players"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--games", "0"}, "dobble: sim: --games 0: not a number of games; use a whole number from 1"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--seed", "x"}, "dobble: sim: --seed x: not a seed; use a whole number from 0 to 18446744073709551615"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--order", "6"}, "dobble: sim: --order 6: no projective plane exists; nearest: 5 (31 cards × 6 symbols) or 7 (57 cards × 8)"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--order", "1"}, "dobble: sim: --order 1: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--order", "x"}, "~--order x: not a whole number; use a prime power"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--order", "256"}, "dobble: sim: --order 256: too large to play; the largest order sim plays is 128 (16513 cards × 129 symbols)"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--order", "7", "--cards", "58"}, "dobble: sim: --cards 58: a deck of order 7 has 2 to 57 cards"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--cards", "20"}, "dobble: sim: --cards goes with --order; an edition has a fixed set of cards"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--order", "7", "--edition", "kids"}, "dobble: sim: give --edition or --order, not both"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--edition", "space"}, `dobble: sim: unknown edition "space"; known editions: classic, beach, kids, pancakes`},
		{[]string{"sim", "--game", "tower", "--players", "8", "--order", "2"}, "dobble: sim: the deck does not fit: 7 cards for 8 players; the Tower needs one card per player plus at least one for the centre (9 or more)"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--bots", "godlike"}, `dobble: sim: --bots godlike: unknown bot level "godlike"; levels: easy, medium, hard, expert, instant`},
		{[]string{"sim", "--game", "tower", "--players", "3", "--bots", "easy,hard"}, "dobble: sim: --bots easy,hard: 2 levels for 3 players; give one level for all or one per seat"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--option", "speed=fast"}, `dobble: sim: unknown option "speed"; tower takes no options`},
		{[]string{"sim", "--game", "tower", "--players", "2", "--option", "speed"}, "dobble: sim: --option speed: use NAME=VALUE"},
		{[]string{"sim", "--game", "pancakes", "--players", "2", "--option", "pats=10"}, `dobble: sim: --option pats: "10" is not a whole number from 1 to 9`},
		{[]string{"sim", "--game", "pancakes", "--players", "2", "--option", "round-end=none"}, `dobble: sim: --option round-end: "none" is not one of first, all`},
		{[]string{"sim", "--game", "pancakes", "--players", "2", "--option", "colour=red"}, `dobble: sim: unknown option "colour"; anarchy-pancakes takes round-end, pats`},
		{[]string{"sim", "--game", "pancakes", "--players", "3", "--order", "3"}, "~dobble: sim: the deck does not fit: 13 six-topping cards for 3 players"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--option", "a=1", "--option", "a=2"}, "dobble: sim: --option a is given twice"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--record", "/nonexistent/dir/x.jsonl"}, "dobble: sim: --record /nonexistent/dir/x.jsonl: cannot write there: no such file or directory"},
		{[]string{"sim", "--game", "tower", "--players", "2", "--record", dir}, fmt.Sprintf("dobble: sim: --record %s: is a directory; name a file", dir)},
		{[]string{"sim", "--game", "tower", "--players", "2", "extra"}, `dobble: sim: unexpected argument "extra" (see dobble sim --help)`},
		{[]string{"sim", "--players"}, "dobble: sim: flag needs an argument: -players (see dobble sim --help)"},
		{[]string{"sim", "--speed", "3"}, "dobble: sim: flag provided but not defined: -speed (see dobble sim --help)"},
	}
	for _, tt := range tests {
		checkBadRequest(t, tt.args, tt.msg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files left behind: %v", entries)
	}
}

func TestSimHelp(t *testing.T) {
	code, out, errOut := runCLI(t, "", "sim", "--help")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "Usage: dobble sim --game NAME") || !strings.Contains(out, "-record") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, out, _ := runCLI(t, "", "help"); !strings.Contains(out, "sim ") {
		t.Fatalf("dobble help does not list sim:\n%s", out)
	}
}

// TestSimSession plays a session of two mini-games among three bots whose
// first game ties (seed 1: a Tower won by seats 0 and 1 together), so that
// a duel breaks the tie: three tables, each printed with its number, then
// the final standings; the record holds the three tables, each followed by
// its session line, and checks as a session (record.CheckSession): the
// mini-games settled, their places, points and losers, the picks and the
// standings follow from the tables' results.
func TestSimSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	code, out, errOut := runCLI(t, "", "sim", "--session", "--game", "tower", "--players", "3", "--games", "2", "--order", "2",
		"--bots", "easy", "--seed", "1", "--record", path)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[3], `{"standings":`) {
		t.Fatalf("want three tables and the standings, got:\n%s", out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if err := record.CheckSession(recs); err != nil {
		t.Fatal(err)
	}
	tb := recs[1].Session
	if recs[0].Session.Settled != nil || tb.TieBreak == nil || *tb.TieBreak != 0 || recs[1].Header.Game != "duel" ||
		tb.Settled == nil || len(tb.Settled.TieBreaks) != 1 || !recs[2].Session.Over || recs[2].Session.Picker != tb.Settled.Loser {
		t.Fatalf("the session lines do not tell a tie broken by a duel, then the loser's pick: %+v", tb)
	}
	for i, l := range lines[:3] {
		var v simLine
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.Table == nil || *v.Table != i || v.Game != recs[i].Header.Game {
			t.Fatalf("line %d: %s (%v)", i, l, err)
		}
	}
}
