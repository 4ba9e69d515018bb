package hostile

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/serveproc"
)

// dobble is the dobble binary, built once for the tests of this package
// by its first test that needs it, and removed by TestMain.
var dobble = serveproc.Binary{Prefix: "dobble-hostile-test-"}

func TestMain(m *testing.M) { os.Exit(dobble.Run(m)) }

// TestHarness runs the control attack (g) for two seconds against a real
// dobble serve beside a normal room, and checks that every part of the
// harness reported: the room played, the attack connected and wrote,
// the newcomer tried, the memory was read, the server stayed up.
func TestHarness(t *testing.T) {
	bin := dobble.Path(t)
	var lines []string
	results, err := Run(context.Background(), Options{
		Dobble: bin, Kinds: []string{"g-flood"}, Span: 2 * time.Second,
		ServeArgs:   []string{"--countdown", "50ms"},
		ReactionMin: 50 * time.Millisecond, ReactionMax: 200 * time.Millisecond,
		Progress: func(line string) { lines = append(lines, line) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	r := results[0]
	var text strings.Builder
	WriteText(&text, results)
	t.Log("\n" + text.String())
	if r.Failed != "" {
		t.Fatalf("failed: %s", r.Failed)
	}
	if r.Normal.Failed != "" || r.Normal.Actions == 0 {
		t.Errorf("the normal room played %d actions (failed: %q), want some", r.Normal.Actions, r.Normal.Failed)
	}
	if r.count(cConnections) == 0 || r.count(cSent)+r.count("oversized frames sent") == 0 {
		t.Errorf("the attack counted %v, want connections and messages written", r.Attack)
	}
	if r.Newcomer.Tried == 0 {
		t.Error("the newcomer never tried to open a room")
	}
	if runtime.GOOS == "linux" && (r.RSS.Start == 0 || r.RSS.Peak < r.RSS.Start) {
		t.Errorf("memory %+v: want the server's resident set read", r.RSS)
	}
	if !r.Up || r.KilledAtCap {
		t.Errorf("server up %v, killed at the cap %v (%s); want it up", r.Up, r.KilledAtCap, r.Exit)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "g-flood:") {
		t.Errorf("progress %q: want the kind's two lines", lines)
	}
}

// TestHarnessCap checks the guard of the machine: a server over the
// memory cap is killed and reported so.
func TestHarnessCap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the server's memory is read from /proc")
	}
	bin := dobble.Path(t)
	results, err := Run(context.Background(), Options{Dobble: bin, Kinds: []string{"g"}, Span: time.Second, MemCap: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if !r.KilledAtCap || r.Up || r.Pass {
		t.Errorf("killed at the cap %v, up %v, pass %v: want a server over a 1 MiB cap killed", r.KilledAtCap, r.Up, r.Pass)
	}
}

func TestParseKinds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"all", Kinds()},
		{"d", []string{"d-ping", "d-lookups"}},
		{"hoard, a", []string{"a-runaway", "c-hoard"}},
		{"G-FLOOD,g", []string{"g-flood"}},
	} {
		got, err := ParseKinds(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseKinds(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "h", "a,nope", " , "} {
		if _, err := ParseKinds(in); err == nil || !strings.Contains(err.Error(), "a-runaway") {
			t.Errorf("ParseKinds(%q): error %v, want one naming the kinds", in, err)
		}
	}
}

// TestSpellings checks that attack f never asks twice for the same path,
// and asks only for the two endpoints it attacks.
func TestSpellings(t *testing.T) {
	seen := map[string]bool{}
	for i := range int64(40_000) {
		p := spelling(i)
		if seen[p] {
			t.Fatalf("spelling(%d) = %q again", i, p)
		}
		seen[p] = true
		if !strings.HasPrefix(p, "/api/cards/") && !strings.HasPrefix(p, "/api/decks/") {
			t.Fatalf("spelling(%d) = %q: not a card or a deck", i, p)
		}
	}
}

func TestOptions(t *testing.T) {
	bad := []Options{
		{},
		{Dobble: "x", Hoard: MaxHeld + 1},
		{Dobble: "x", Span: -time.Second},
		{Dobble: "x", RunawaySeats: 9},
	}
	for _, o := range bad {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("Run(%+v): no error", o)
		}
	}
	if _, err := Run(context.Background(), Options{Dobble: "x", Kinds: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), "g-flood") {
		t.Errorf("an unknown kind: error %v, want one naming the kinds", err)
	}
}
