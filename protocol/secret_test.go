package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/table"
)

// framer is a table's Observer that encodes, as a room does, the update
// of every accepted action for every seat and a spectator.
type framer struct {
	st     *rules.State
	u      Updates
	frames map[int][][]byte // by viewer
}

// Accepted encodes the action's update for every viewer.
func (f *framer) Accepted(a *rules.Action, ev []rules.Event) {
	f.u.Reset(f.st, 1, a.At, ev)
	for gs := rules.Spectator; gs < f.st.Players(); gs++ {
		f.frames[gs] = append(f.frames[gs], f.u.Frame(gs))
	}
}

// Refused ignores refusals.
func (f *framer) Refused(*rules.Action, *rules.Refusal) {}

// TestFramesKeepTheRecordsSecrets plays games whose records state hidden
// cards (the start line's face-down zones, the outcome of every shuffle)
// with a record written and every update encoded for every seat and a
// spectator, as a room does, and checks that no frame tells any of it: a
// seat's first view shows exactly the cards of the start line that seat
// may see, every frame's view shows no card of a face-down zone and only
// the top card of a pile, no frame holds a shuffle outcome's order of
// cards, and no event of a frame carries more than an event's fields.
func TestFramesKeepTheRecordsSecrets(t *testing.T) {
	medium, _ := bot.LookupLevel("medium")
	orders := 0
	for _, name := range []string{"subway-rescue", "anarchy-pancakes", "guess", "false-poker", "reflection", "memory", "collect-symbols", "hot-potato"} {
		g, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			p := max(3, g.Info().MinPlayers)
			st, err := newGame(t, g, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Reset(seed); err != nil {
				t.Fatal(err)
			}
			first := make(map[int][]byte)
			for gs := rules.Spectator; gs < p; gs++ {
				first[gs], _ = json.Marshal(st.View(gs))
			}
			bots := make([]*bot.Bot, p)
			for i := range bots {
				bots[i] = bot.New(medium, i, seed)
			}
			var buf bytes.Buffer
			f := &framer{st: st, frames: map[int][][]byte{}}
			d := table.New(table.Config{Bots: bots, Record: record.NewWriter(&buf), Observer: f})
			if err := d.Reset(st, seed); err != nil {
				t.Fatal(err)
			}
			if err := d.Advance(table.Forever); err != nil {
				t.Fatal(err)
			}
			recs, err := record.ReadAll(&buf)
			if err != nil || len(recs) != 1 || recs[0].Start == nil {
				t.Fatalf("%s: %d records, %v", name, len(recs), err)
			}
			rec := recs[0]
			for gs := rules.Spectator; gs < p; gs++ {
				checkFirstView(t, name, gs, rec.Start, first[gs])
				for _, frame := range f.frames[gs] {
					checkFrame(t, name, gs, frame, rec)
				}
			}
			for _, e := range rec.Entries {
				orders += len(e.Shuffled)
			}
		}
	}
	if orders == 0 {
		t.Fatal("no game shuffled: the test checked no order")
	}
	t.Logf("%d shuffle outcomes kept out of every frame", orders)
}

// checkFirstView checks that view, seat gs's view of the table as set up,
// shows of each zone of the record's start line the cards gs may see, and
// no other.
func checkFirstView(t *testing.T, game string, gs int, start *record.Start, view []byte) {
	t.Helper()
	var v struct {
		Zones []struct {
			Count int `json:"count"`
			Cards []struct {
				Card int `json:"card"`
			} `json:"cards"`
		} `json:"zones"`
	}
	if err := json.Unmarshal(view, &v); err != nil || len(v.Zones) != len(start.Zones) {
		t.Fatalf("%s: seat %d's first view has %d zones, the start line %d: %v", game, gs, len(v.Zones), len(start.Zones), err)
	}
	for i, z := range start.Zones {
		var want []int
		switch {
		case len(z.Cards) == 0:
		case z.Show == rules.ShowAll:
			want = z.Cards
		case z.Show == rules.ShowTop || (z.Show == rules.ShowOwnerTop && gs >= 0 && z.Seat == gs):
			want = z.Cards[len(z.Cards)-1:]
		}
		var got []int
		for _, c := range v.Zones[i].Cards {
			got = append(got, c.Card)
		}
		if !slices.Equal(got, want) || v.Zones[i].Count != len(z.Cards) {
			t.Fatalf("%s: seat %d sees zone %d (%s, %s) as %v of %d cards; it may see %v of %v",
				game, gs, i, z.Kind, z.Show, got, v.Zones[i].Count, want, z.Cards)
		}
	}
}

// checkFrame checks that an update frame tells nothing of the record's
// shuffle outcomes: its shuffle events carry no card and no field beyond
// an event's, and no order of three cards or more appears in it.
func checkFrame(t *testing.T, game string, gs int, frame []byte, rec *record.Record) {
	t.Helper()
	var u struct {
		Events []map[string]any `json:"events"`
		View   struct {
			Zones []struct {
				Seat  int        `json:"seat"`
				Show  rules.Show `json:"show"`
				Count int        `json:"count"`
				Cards []struct {
					Card int `json:"card"`
				} `json:"cards"`
			} `json:"zones"`
		} `json:"view"`
	}
	if err := json.Unmarshal(frame, &u); err != nil {
		t.Fatal(err)
	}
	// Of a face-down zone (a shuffled stock among them) a frame shows no
	// card, of a pile its top card alone.
	for i, z := range u.View.Zones {
		shown := 0
		switch {
		case z.Show == rules.ShowAll:
			shown = z.Count
		case z.Show == rules.ShowTop || (z.Show == rules.ShowOwnerTop && gs >= 0 && z.Seat == gs):
			shown = min(1, z.Count)
		}
		if len(z.Cards) != shown {
			t.Fatalf("%s: seat %d's frame shows %d cards of zone %d (%s, seat %d, %d cards): %s", game, gs, len(z.Cards), i, z.Show, z.Seat, z.Count, frame)
		}
	}
	known := []string{"kind", "version", "seat", "symbol", "target", "card", "count", "from", "to", "under", "round", "result"}
	for _, e := range u.Events {
		for k := range e {
			if !slices.Contains(known, k) {
				t.Fatalf("%s: seat %d's frame has an event with field %q: %s", game, gs, k, frame)
			}
		}
		if e["kind"] == "shuffle" && e["card"] != -1.0 {
			t.Fatalf("%s: seat %d is told a card of a shuffle: %s", game, gs, frame)
		}
	}
	for _, k := range []string{`"shuffled"`, `"opened"`, `"start"`} {
		if bytes.Contains(frame, []byte(k)) {
			t.Fatalf("%s: seat %d's frame holds %s: %s", game, gs, k, frame)
		}
	}
	for _, e := range rec.Entries {
		for _, o := range e.Shuffled {
			if len(o) < 3 {
				continue
			}
			s := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(o)), ","), "[]")
			if bytes.Contains(frame, []byte(s)) {
				t.Fatalf("%s: seat %d's frame holds the shuffle outcome %v: %s", game, gs, o, frame)
			}
		}
	}
}
