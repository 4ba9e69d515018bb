package record_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/sim"
)

// played returns the records of games of the Tower between easy bots
// (which make wrong claims), the simulation and its outcomes, with a
// lock-out of 1500 ms.
func played(t *testing.T, games int) (string, *sim.Sim, []sim.Outcome) {
	t.Helper()
	return playedWith(t, games, 1500)
}

// playedWith is played with the lock-out lockout, in the convention of
// rules.Config.
func playedWith(t *testing.T, games int, lockout int64) (string, *sim.Sim, []sim.Outcome) {
	t.Helper()
	g, err := rules.Lookup("tower")
	if err != nil {
		t.Fatal(err)
	}
	easy, _ := bot.LookupLevel("easy")
	var buf bytes.Buffer
	m, err := sim.New(sim.Config{Game: g, Rules: rules.Config{Players: 3, Lockout: lockout}, Bots: []bot.Level{easy}, Record: record.NewWriter(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	var outs []sim.Outcome
	for seed := range uint64(games) {
		o, err := m.Play(seed + 7)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, o)
	}
	return buf.String(), m, outs
}

// lines splits a record file into its lines, decoded.
func lines(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// TestFormat checks the lines a record is made of, as docs/RECORD.md
// describes them: a game line, a start line, action and refused lines, a
// result line.
func TestFormat(t *testing.T) {
	text, m, outs := played(t, 1)
	ls := lines(t, text)
	o := outs[0]
	if len(ls) != 3+o.Actions+o.Wrong || o.Wrong == 0 {
		t.Fatalf("%d lines for %d actions and %d wrong claims", len(ls), o.Actions, o.Wrong)
	}
	head := ls[0]
	deck := head["deck"].(map[string]any)
	cfg := head["config"].(map[string]any)
	if head["type"] != "game" || head["format"] != float64(record.Format) || head["game"] != "tower" ||
		cfg["players"] != 3.0 || cfg["seed"] != 7.0 || cfg["lockout"] != 1500.0 ||
		deck["edition"] != "classic" || deck["order"] != 7.0 || deck["cards"] != 55.0 || deck["size"] != 55.0 ||
		deck["symbols"] != 57.0 || deck["fingerprint"] != m.Deck().Fingerprint ||
		!reflect.DeepEqual(head["seats"], []any{"bot:easy", "bot:easy", "bot:easy"}) {
		t.Fatalf("game line %v", head)
	}
	// The start line: the centre pile and a pile per seat, every card in
	// one of them, one card on each seat's pile.
	start := ls[1]
	zones, _ := start["zones"].([]any)
	if start["type"] != "start" || start["round"] != 0.0 || start["turn"] != -1.0 || len(zones) != 4 {
		t.Fatalf("start line %v", start)
	}
	seen := map[float64]bool{}
	for i, z := range zones {
		z := z.(map[string]any)
		cards := z["cards"].([]any)
		kind, seat := "pile", float64(i-1)
		if i == 0 {
			kind = "centre"
		} else if len(cards) != 1 {
			t.Fatalf("seat %v starts with %d cards", seat, len(cards))
		}
		if z["kind"] != kind || z["seat"] != seat || z["show"] != "top" {
			t.Fatalf("start zone %d: %v", i, z)
		}
		for _, c := range cards {
			seen[c.(float64)] = true
		}
	}
	if len(seen) != 55 {
		t.Fatalf("the start line holds %d different cards, not 55", len(seen))
	}
	version := 0.0
	for _, l := range ls[2 : len(ls)-1] {
		a := l["action"].(map[string]any)
		switch l["type"] {
		case "action":
			ev := l["events"].([]any)
			first := ev[0].(map[string]any)
			version++
			if a["version"] != version-1 || first["kind"] != "claim" || first["version"] != version || l["refusal"] != nil || l["shuffled"] != nil {
				t.Fatalf("action line %v at version %v", l, version)
			}
		case "refused":
			r := l["refusal"].(map[string]any)
			if r["code"] != "notAMatch" || r["lockedUntil"] != a["at"].(float64)+1500 || r["reason"] == "" || l["events"] != nil {
				t.Fatalf("refused line %v", l)
			}
		default:
			t.Fatalf("line %v", l)
		}
	}
	end := ls[len(ls)-1]
	res := end["result"].(map[string]any)
	if end["type"] != "result" || end["over"] != true || end["version"] != version || end["actions"] != float64(o.Actions) ||
		end["refused"] != float64(o.Wrong) || res["unit"] != "cards" || len(res["scores"].([]any)) != 3 {
		t.Fatalf("result line %v", end)
	}
}

// TestReplay reads several records from one stream and replays each on
// the simulation's cards to the identical final state.
func TestReplay(t *testing.T) {
	text, m, outs := played(t, 4)
	rd := record.NewReader(strings.NewReader(text))
	for i := 0; ; i++ {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if i != len(outs) {
				t.Fatalf("%d records for %d games", i, len(outs))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s, events, err := rec.Replay(m.Cards())
		if err != nil {
			t.Fatal(err)
		}
		if !s.Equal(outs[i].State) {
			t.Fatalf("record %d replays to another state", i)
		}
		var want []rules.Event
		for _, e := range rec.Entries {
			want = append(want, e.Events...)
		}
		if !reflect.DeepEqual(events, want) {
			t.Fatalf("record %d: the replay's events differ", i)
		}
	}
}

// TestWriteRead writes a record by hand and reads it back field for field.
func TestWriteRead(t *testing.T) {
	d, x, err := record.Deck{Order: 2}.Build()
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.Lookup("tower")
	cfg := rules.Config{Players: 2, Seed: 3, Options: nil}
	s, err := rules.New(g, x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	if err := w.Begin(record.Header{Game: "tower", Config: cfg, Deck: d}, s); err != nil {
		t.Fatal(err)
	}
	wrong := s.Moves(1, nil)[0]
	wrong.Symbol = (wrong.Symbol + 1) % x.Symbols()
	wrong.At = 50
	var entries []record.Entry
	_, err = s.Apply(wrong, nil)
	var r *rules.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("wrong claim: %v", err)
	}
	if err := w.Refused(wrong, r); err != nil {
		t.Fatal(err)
	}
	entries = append(entries, record.Entry{Action: wrong, Refusal: r})
	a := s.Moves(0, nil)[0]
	a.At = 70
	ev, err := s.Apply(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Accepted(a, ev); err != nil {
		t.Fatal(err)
	}
	entries = append(entries, record.Entry{Action: a, Events: ev})
	if err := w.End(s); err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadAll(&buf)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	rec := recs[0]
	if rec.Header.Format != record.Format || rec.Header.Game != "tower" || !reflect.DeepEqual(rec.Header.Config, cfg) || rec.Header.Deck != d {
		t.Fatalf("header %+v", rec.Header)
	}
	fresh, _ := rules.New(g, x, cfg)
	if st := rec.Start; st == nil || len(st.Zones) != 3 || len(st.Zones[0].Cards) != 5 || st.Zones[1].Seat != 0 ||
		!reflect.DeepEqual(st, record.StartOf(fresh)) {
		t.Fatalf("start %+v", rec.Start)
	}
	if len(rec.Entries) != 2 || rec.Entries[0].Action != wrong || rec.Entries[0].Refusal.Code != rules.CodeNotAMatch ||
		rec.Entries[0].Refusal.LockedUntil != 1050 || rec.Entries[1].Action != a || !reflect.DeepEqual(rec.Entries[1].Events, ev) {
		t.Fatalf("entries %+v", rec.Entries)
	}
	if e := rec.End; e == nil || e.Over || e.Version != 1 || e.Actions != 1 || e.Refused != 1 || !reflect.DeepEqual(e.Result, s.Result()) {
		t.Fatalf("end %+v", rec.End)
	}
	s2, _, err := rec.Replay(x)
	if err != nil || !s2.Equal(s) {
		t.Fatalf("replay: %v", err)
	}
	// A record built in memory replays too.
	mem := &record.Record{Header: rec.Header, Start: rec.Start, Entries: entries}
	if s3, _, err := mem.Replay(x); err != nil || !s3.Equal(s) {
		t.Fatalf("in-memory replay: %v", err)
	}
}

// TestWriterMisuse checks that the Writer insists on Begin … End, and
// stops at the first write error.
func TestWriterMisuse(t *testing.T) {
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	if err := w.Accepted(rules.Action{}, nil); err == nil || !strings.Contains(err.Error(), "no record begun") {
		t.Errorf("Accepted before Begin: %v", err)
	}
	g, _ := rules.Lookup("tower")
	_, x, _ := record.Deck{Order: 2}.Build()
	s, err := rules.New(g, x, rules.Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	w = record.NewWriter(&buf)
	if err := w.Begin(record.Header{Game: "tower"}, nil); err == nil || !strings.Contains(err.Error(), "needs the game's state") {
		t.Errorf("Begin without a state: %v", err)
	}
	w = record.NewWriter(&buf)
	w.Begin(record.Header{Game: "tower"}, s)
	if err := w.Begin(record.Header{Game: "tower"}, s); err == nil {
		t.Error("Begin twice without End accepted")
	}
	// An action recorded after the game moved on: its shuffles and zones
	// would be those of a later action.
	late := record.NewWriter(&buf)
	if err := late.Begin(record.Header{Game: "tower"}, s); err != nil {
		t.Fatal(err)
	}
	first, err := s.Apply(s.Moves(0, nil)[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(s.Moves(0, nil)[0], nil); err != nil {
		t.Fatal(err)
	}
	if err := late.Accepted(rules.Action{}, first); err == nil || !strings.Contains(err.Error(), "as soon as it is applied") {
		t.Errorf("an action recorded late: %v", err)
	}
	fw := record.NewWriter(failWriter{})
	err = fw.Begin(record.Header{Game: "tower"}, s)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("write error: %v", err)
	}
	if err2 := fw.End(nil); err2 != err {
		t.Errorf("after a write error: %v, want the same error", err2)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestTampered changes one thing at a time in a record and checks that
// Replay, or the reader, notices and says where.
func TestTampered(t *testing.T) {
	text, m, _ := played(t, 1)
	ls := strings.Split(strings.TrimSpace(text), "\n")
	firstAction, firstRefused := -1, -1
	for i, l := range ls {
		if firstAction < 0 && strings.HasPrefix(l, `{"type":"action"`) {
			firstAction = i
		}
		if firstRefused < 0 && strings.HasPrefix(l, `{"type":"refused"`) {
			firstRefused = i
		}
	}
	edit := func(i int, f func(map[string]any)) string {
		var v map[string]any
		if err := json.Unmarshal([]byte(ls[i]), &v); err != nil {
			t.Fatal(err)
		}
		f(v)
		b, _ := json.Marshal(v)
		out := append([]string(nil), ls...)
		out[i] = string(b)
		return strings.Join(out, "\n")
	}
	drop := func(i int) string {
		return strings.Join(append(append([]string(nil), ls[:i]...), ls[i+1:]...), "\n")
	}
	last := len(ls) - 1
	tests := []struct {
		name, text, want string
	}{
		{"event card", edit(firstAction, func(v map[string]any) {
			v["events"].([]any)[1].(map[string]any)["card"] = 54.0
		}), "line 3: the replay's events differ"},
		{"symbol", edit(firstAction, func(v map[string]any) {
			v["action"].(map[string]any)["symbol"] = 56.0
		}), "line 3: the record accepted the action, the replay refused it"},
		{"refused dropped", drop(firstRefused), "the record ends with"},
		{"refusal code", edit(firstRefused, func(v map[string]any) {
			v["refusal"].(map[string]any)["code"] = "badTarget"
		}), "the record refused the action as badTarget"},
		{"score", edit(last, func(v map[string]any) {
			v["result"].(map[string]any)["scores"].([]any)[0] = 99.0
		}), "the record ends with"},
		{"seed", edit(0, func(v map[string]any) {
			v["config"].(map[string]any)["seed"] = 8.0
		}), "line 2: the record starts with"},
		{"start card", edit(1, func(v map[string]any) {
			z := v["zones"].([]any)
			a, b := z[0].(map[string]any)["cards"].([]any), z[1].(map[string]any)["cards"].([]any)
			a[0], b[0] = b[0], a[0]
		}), "line 2: the record starts with"},
		{"start dropped", drop(1), `line 2: a format 3 record's second line is a "start" line, not "action"`},
		{"fingerprint", edit(0, func(v map[string]any) {
			v["deck"].(map[string]any)["fingerprint"] = "fnv1a64:0000000000000000"
		}), "the record's deck fnv1a64:0000000000000000"},
		{"format", edit(0, func(v map[string]any) { v["format"] = 4.0 }), "line 1: record format 4; this version reads formats 1 to 3"},
		{"format 0", edit(0, func(v map[string]any) { delete(v, "format") }), "line 1: record format 0; this version reads formats 1 to 3"},
		{"lockout", edit(0, func(v map[string]any) { v["config"].(map[string]any)["lockout"] = -1.0 }),
			"line 1: config.lockout -1: use 0 (no lock-out) or a positive number of milliseconds, or leave it out for the default (1000)"},
		{"type", edit(2, func(v map[string]any) { v["type"] = "claim" }), `line 3: unknown line type "claim"`},
		{"start again", edit(2, func(v map[string]any) { v["type"] = "start" }), `line 3: a "start" line follows the game line`},
		{"no game line", drop(0), `line 1: a record starts with a "game" line, not`},
		{"not JSON", strings.Replace(text, "{", "[", 1), "line 1: not a JSON object"},
	}
	for _, tt := range tests {
		recs, err := record.ReadAll(strings.NewReader(tt.text))
		if err == nil {
			_, _, err = recs[0].Replay(m.Cards())
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// Unchanged, it replays.
	recs, err := record.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := recs[0].Replay(m.Cards()); err != nil {
		t.Fatal(err)
	}
}

// TestUnfinished reads a record cut before its result line, followed by
// another record: the first has no End and replays as far as it goes.
func TestUnfinished(t *testing.T) {
	text, m, outs := played(t, 2)
	ls := strings.Split(strings.TrimSpace(text), "\n")
	n := 3 + outs[0].Actions + outs[0].Wrong
	cut := strings.Join(append(append([]string(nil), ls[:n-6]...), ls[n:]...), "\n\n")
	recs, err := record.ReadAll(strings.NewReader(cut))
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if recs[0].End != nil || recs[1].End == nil || len(recs[0].Entries) != n-8 {
		t.Fatalf("first record: %d entries, end %v", len(recs[0].Entries), recs[0].End)
	}
	s, _, err := recs[0].Replay(m.Cards())
	if err != nil || s.Over() {
		t.Fatalf("replay of the cut record: over %v, %v", s != nil && s.Over(), err)
	}
	s2, _, err := recs[1].Replay(nil)
	if err != nil || !s2.Over() || !reflect.DeepEqual(s2.Result(), outs[1].Result) {
		t.Fatalf("second record: %v", err)
	}
	// Cut right after its game line, before its start line.
	cut = strings.Join(append([]string{ls[0]}, ls[n:]...), "\n")
	recs, err = record.ReadAll(strings.NewReader(cut))
	if err != nil || len(recs) != 2 || recs[0].Start != nil || len(recs[0].Entries) != 0 || recs[1].Start == nil {
		t.Fatalf("a record of its game line alone: %d records, %v", len(recs), err)
	}
	if s, _, err := recs[0].Replay(nil); err != nil || s.Version() != 0 {
		t.Fatalf("the replay of a game line alone: %v", err)
	}
}

// TestDecks builds decks from descriptions: editions, orders, subsets and
// one-symbol cards, each with its own fingerprint, and refuses what does
// not exist.
func TestDecks(t *testing.T) {
	seen := map[string]record.Deck{}
	for _, in := range []record.Deck{
		{Edition: "classic"}, {Edition: "kids"}, {Edition: "pancakes"}, {Edition: "pancakes", Singles: true},
		{Order: 7}, {Order: 7, Cards: 55}, {Order: 7, Cards: 54}, {Order: 2}, {Order: 4, Singles: true},
	} {
		d, x, err := in.Build()
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		want := d.Cards
		if d.Singles {
			want += d.Symbols
		}
		if d.Size != want || x.Len() != d.Size || x.Symbols() != d.Symbols || d.Fingerprint != record.Fingerprint(x) {
			t.Fatalf("%+v built as %+v, %d cards", in, d, x.Len())
		}
		again, _, err := d.Build()
		if err != nil || again != d {
			t.Fatalf("%+v does not rebuild to itself: %+v, %v", d, again, err)
		}
		if o, dup := seen[d.Fingerprint]; dup && (o.Order != d.Order || o.Cards != d.Cards || o.Singles != d.Singles) {
			t.Fatalf("%+v and %+v share a fingerprint", o, d)
		}
		seen[d.Fingerprint] = d
	}
	if len(seen) != 8 { // classic and order 7 with 55 cards are the same cards
		t.Fatalf("%d distinct fingerprints, want 8", len(seen))
	}
	for _, bad := range []struct {
		d    record.Deck
		want string
	}{
		{record.Deck{Edition: "space"}, `unknown edition "space"`},
		{record.Deck{Edition: "classic", Order: 5}, "edition classic is order 7 with 55 cards, not order 5"},
		{record.Deck{Order: 6}, "order 6"},
		{record.Deck{Order: 3, Cards: 14}, "--cards 14"},
		{record.Deck{Order: 2, Fingerprint: "fnv1a64:0123456789abcdef"}, "has fingerprint"},
	} {
		if _, _, err := bad.d.Build(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want %q", bad.d, err, bad.want)
		}
	}
}

// docExamples are the simulations whose records docs/RECORD.md quotes, in
// the order of its jsonl blocks.
var docExamples = []struct {
	game           string
	players, order int
	seed           uint64
}{
	{"tower", 2, 2, 3},
	{"subway-rescue", 2, 2, 2},
}

// TestDocExamples replays and checks the examples of docs/RECORD.md, and
// checks that the simulations they quote still write exactly those
// records.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/RECORD.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(doc), "```jsonl\n")[1:]
	if len(blocks) != len(docExamples) {
		t.Fatalf("docs/RECORD.md has %d jsonl examples, the test knows %d", len(blocks), len(docExamples))
	}
	easy, _ := bot.LookupLevel("easy")
	var all []*record.Record
	for i, ex := range docExamples {
		example, _, ok := strings.Cut(blocks[i], "```")
		if !ok {
			t.Fatalf("example %d does not end", i)
		}
		recs, err := record.ReadAll(strings.NewReader(example))
		if err != nil || len(recs) != 1 {
			t.Fatalf("example %d: %d records, %v", i, len(recs), err)
		}
		s, _, err := recs[0].Replay(nil)
		if err != nil || !s.Over() {
			t.Fatalf("example %d does not replay to the end: %v", i, err)
		}
		if err := recs[0].Check(); err != nil {
			t.Fatalf("example %d: %v", i, err)
		}
		g, _ := rules.Lookup(ex.game)
		var buf bytes.Buffer
		_, err = sim.Run(sim.Config{Game: g, Rules: rules.Config{Players: ex.players, Seed: ex.seed}, Deck: sim.DeckFor(g, "", ex.order, 0),
			Bots: []bot.Level{easy}, Record: record.NewWriter(&buf)})
		if err != nil {
			t.Fatal(err)
		}
		if buf.String() != example {
			t.Fatalf("example %d: the simulation now writes:\n%s", i, buf.String())
		}
		all = append(all, recs[0])
	}
	// The Tower's example has its wrong claim, the Subway's its shuffles.
	if len(all[0].Entries) != 6 || all[0].Entries[1].Refusal == nil || all[1].Entries[1].Shuffled == nil {
		t.Fatal("the examples no longer show a wrong claim and a shuffle")
	}
}

// docSection returns the part of docs/RECORD.md from the heading that
// starts with heading to the next heading of its level or above.
func docSection(t *testing.T, heading string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/RECORD.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n"+heading)
	if !ok {
		t.Fatalf("docs/RECORD.md has no heading %q", heading)
	}
	level := strings.Repeat("#", strings.Count(strings.Fields(heading)[0], "#"))
	for i := 0; i < len(rest); {
		j := strings.Index(rest[i:], "\n#")
		if j < 0 {
			break
		}
		i += j + 1
		if h := strings.Fields(rest[i:])[0]; len(h) <= len(level) {
			return rest[:i]
		}
	}
	return rest
}

// TestDocOptions checks the table of options of docs/RECORD.md against
// the options every game declares: each is listed, with its values and
// its default, and nothing else is. A game Check does not know yet (one
// just added to the rules, record.Knows) need not be listed.
func TestDocOptions(t *testing.T) {
	rows := map[string][]string{}
	for _, l := range strings.Split(docSection(t, "## Options"), "\n") {
		cells := strings.Split(l, " | ")
		if len(cells) == 5 && strings.HasPrefix(cells[0], "| `") {
			rows[strings.TrimPrefix(cells[0], "| ")+" "+cells[1]] = cells
		}
	}
	n := 0
	for _, g := range rules.Games() {
		info := g.Info()
		if !record.Knows(info.Name) {
			continue
		}
		for _, o := range info.Options {
			n++
			key := fmt.Sprintf("`%s` `%s`", info.Name, o.Name)
			row, ok := rows[key]
			if !ok {
				t.Errorf("docs/RECORD.md lists no option %s", key)
				continue
			}
			values := fmt.Sprintf("%d to %d ", o.Min, o.Max)
			if len(o.Choices) > 0 {
				values = "`" + strings.Join(o.Choices, "`, `") + "`"
			}
			if !strings.HasPrefix(row[2], values) || row[3] != "`"+o.Default+"`" {
				t.Errorf("docs/RECORD.md: option %s takes %s with default %s; the game says %q, default %q", key, row[2], row[3], values, o.Default)
			}
		}
	}
	if len(rows) != n {
		t.Errorf("docs/RECORD.md lists %d options, the games declare %d", len(rows), n)
	}
}

// TestDocGames checks that docs/RECORD.md describes every game's table:
// a section per game naming every kind of zone its setup lays out (for
// the fewest players it takes, and with each option choice). A game Check
// does not know yet (record.Knows) need not have one.
func TestDocGames(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		if !record.Knows(info.Name) {
			continue
		}
		section := docSection(t, fmt.Sprintf("### `%s` ", info.Name))
		d := sim.DefaultDeck(g)
		_, x, err := d.Build()
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range variants(g) {
			s, err := rules.New(g, x, rules.Config{Players: max(info.MinPlayers, 2), Options: opts})
			if err != nil {
				t.Fatalf("%s: %v", info.Name, err)
			}
			for _, z := range record.StartOf(s).Zones {
				if !strings.Contains(section, "`"+string(z.Kind)+"`") {
					t.Errorf("docs/RECORD.md: the %s section names no zone of kind %s", info.Name, z.Kind)
				}
			}
		}
	}
}

// TestLockoutLine checks the lock-out of a game line: absent for the
// default, 0 for none, the milliseconds otherwise, as the create request
// and the server's --lockout flag give it. Each reads back as the
// configuration it was written from, and replays with the lock-outs the
// game had.
func TestLockoutLine(t *testing.T) {
	for _, tc := range []struct {
		lockout int64 // as in rules.Config
		line    any   // as in the game line; nil for absent
		until   bool  // refused lines carry a lockedUntil
	}{
		{0, nil, true},
		{rules.NoLockout, 0.0, false},
		{1500, 1500.0, true},
	} {
		text, m, outs := playedWith(t, 1, tc.lockout)
		ls := lines(t, text)
		got, ok := ls[0]["config"].(map[string]any)["lockout"]
		if (tc.line == nil && ok) || (tc.line != nil && got != tc.line) || ls[0]["format"] != 3.0 {
			t.Errorf("lock-out %d: game line %v, want lockout %v", tc.lockout, ls[0], tc.line)
		}
		refused := 0
		for _, l := range ls {
			if l["type"] != "refused" {
				continue
			}
			refused++
			if _, has := l["refusal"].(map[string]any)["lockedUntil"]; has != tc.until {
				t.Errorf("lock-out %d: refused line %v", tc.lockout, l)
			}
		}
		if refused == 0 || refused != outs[0].Wrong {
			t.Fatalf("lock-out %d: %d refused lines for %d wrong claims", tc.lockout, refused, outs[0].Wrong)
		}
		recs, err := record.ReadAll(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if c := recs[0].Header.Config; c.Lockout != tc.lockout {
			t.Errorf("lock-out %d reads back as %d", tc.lockout, c.Lockout)
		}
		if _, _, err := recs[0].Replay(m.Cards()); err != nil {
			t.Errorf("lock-out %d: %v", tc.lockout, err)
		}
		// The header alone (as the history's steps serve it) encodes the
		// same way and decodes to the same configuration.
		b, err := json.Marshal(recs[0].Header)
		if err != nil {
			t.Fatal(err)
		}
		var h record.Header
		if err := json.Unmarshal(b, &h); err != nil || !reflect.DeepEqual(h, recs[0].Header) || bytes.Contains(b, []byte(`"type"`)) {
			t.Errorf("lock-out %d: header %s reads back as %+v, %v", tc.lockout, b, h, err)
		}
	}
}

// TestReadFormat1 reads records of format 1, whose game line wrote −1 for
// no lock-out and nothing for the default, and had no start line: they
// read as they were written, keep their format, and replay.
func TestReadFormat1(t *testing.T) {
	for _, tc := range []struct {
		lockout int64  // as in rules.Config
		from    string // the lock-out as format 3 writes it, in the game line
		to      string // as format 1 wrote it
	}{
		{rules.NoLockout, `"lockout":0`, `"lockout":-1`},
		{0, `"seed":7}`, `"seed":7}`},
		{1500, `"lockout":1500`, `"lockout":1500`},
	} {
		text, m, _ := playedWith(t, 1, tc.lockout)
		head, rest, _ := strings.Cut(text, "\n")
		if !strings.Contains(head, `"format":3,`) || !strings.Contains(head, tc.from) {
			t.Fatalf("game line %s, want %s", head, tc.from)
		}
		_, rest, _ = strings.Cut(rest, "\n") // the start line, which format 1 had not
		old := strings.Replace(strings.Replace(head, `"format":3,`, `"format":1,`, 1), tc.from, tc.to, 1) + "\n" + rest
		recs, err := record.ReadAll(strings.NewReader(old))
		if err != nil {
			t.Fatal(err)
		}
		if h := recs[0].Header; h.Config.Lockout != tc.lockout || h.Format != 1 {
			t.Errorf("%s read as lock-out %d, format %d", tc.to, h.Config.Lockout, h.Format)
		}
		if _, _, err := recs[0].Replay(m.Cards()); err != nil {
			t.Errorf("%s: %v", tc.to, err)
		}
	}
	// A format-1 line with a negative lock-out other than −1 was never
	// written; it is refused, saying what is accepted.
	_, err := record.ReadAll(strings.NewReader(`{"type":"game","format":1,"game":"tower","config":{"players":2,"seed":1,"lockout":-5},"deck":{"order":2,"cards":7,"size":7,"symbols":7,"fingerprint":"fnv1a64:2c33db05303629f1"}}` + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 1: config.lockout -5: use 0 (no lock-out)") {
		t.Errorf("lock-out -5 in format 1: %v", err)
	}
}

// TestBeginBadLockout checks that a Writer refuses a lock-out no game
// accepts rather than write a line no reader could read.
func TestBeginBadLockout(t *testing.T) {
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	g, _ := rules.Lookup("tower")
	_, x, _ := record.Deck{Order: 2}.Build()
	st, err := rules.New(g, x, rules.Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Begin(record.Header{Game: "tower", Config: rules.Config{Players: 2, Lockout: -5}}, st)
	if err == nil || !strings.Contains(err.Error(), "lock-out -5 ms") || buf.Len() != 0 {
		t.Fatalf("Begin with lock-out -5: %v, wrote %q", err, buf.String())
	}
}

// TestReadFormat2Options reads False Poker's game line as format 2 wrote
// it, before the option first-turn existed: the header gives the option
// the value that played as the game did then (rules.Option.Before), so
// that the record replays as it was played; a format 3 line leaves it to
// its default, and one that states it keeps what it states.
func TestReadFormat2Options(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{`{"format":2,"game":"false-poker","config":{"players":2,"seed":6}}`, "500"},
		{`{"format":1,"game":"false-poker","config":{"players":2,"seed":6,"options":{"turn-time":"9000"}}}`, "500"},
		{`{"format":2,"game":"false-poker","config":{"players":2,"seed":6,"options":{"first-turn":"7000"}}}`, "7000"},
		{`{"format":3,"game":"false-poker","config":{"players":2,"seed":6}}`, ""},
	} {
		var h record.Header
		if err := json.Unmarshal([]byte(tc.line), &h); err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if got := h.Config.Options["first-turn"]; got != tc.want {
			t.Errorf("%s: first-turn %q, want %q", tc.line, got, tc.want)
		}
	}
}
