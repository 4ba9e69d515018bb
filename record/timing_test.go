package record_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// TestTimingIsKept records a Tower whose first card two seats claim: the
// faster reaction's claim, accepted, and the other's, refused as too late,
// each with the timing a server ranked it by. The timings read back as
// written, play no part in the replay, and the check takes the too-late
// claim, which changed nothing.
func TestTimingIsKept(t *testing.T) {
	g, _ := rules.Lookup("tower")
	d, x, err := record.Deck{Order: 7}.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.New(g, x, rules.Config{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	if err := w.Begin(record.Header{Game: "tower", Config: s.Config(), Deck: d}, s); err != nil {
		t.Fatal(err)
	}
	fast, slow := s.Moves(1, nil)[0], s.Moves(0, nil)[0]
	fast.At, slow.At = 850, 880
	fastT := &record.Timing{Arrival: 1000, Shown: 0, RTT: 150, Credit: 150, Reaction: 850}
	slowT := &record.Timing{Arrival: 900, Shown: 0, RTT: 20, Credit: 20, Reaction: 880}
	ev, err := s.Apply(fast, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Time(fastT)
	if err := w.Accepted(fast, ev); err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply(slow, nil)
	ref, ok := err.(*rules.Refusal)
	if !ok || ref.Code != rules.CodeTooLate {
		t.Fatalf("the slower claim: %v; want too late", err)
	}
	w.Time(slowT)
	if w.Refused(slow, ref) != nil || w.Timed() {
		t.Fatal("the timing was not taken by the refusal")
	}
	if err := w.End(s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"timing":{"arrival":1000,"shown":0,"rtt":150,"credit":150,"reaction":850}`) {
		t.Fatalf("the record lacks the timing: %s", buf.String())
	}
	rec, err := record.NewReader(&buf).Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Entries; len(got) != 2 || *got[0].Timing != *fastT || *got[1].Timing != *slowT {
		t.Fatalf("read back %+v", got)
	}
	if _, _, err := rec.Replay(x); err != nil {
		t.Fatal(err)
	}
	if err := rec.Check(); err != nil {
		t.Fatal(err)
	}
}
