package room

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/internal/metrics"
)

// counted returns the value of the counter called name in reg, with the
// label cache set to cache when it is not empty.
func counted(t *testing.T, reg *metrics.Registry, name, cache string) float64 {
	t.Helper()
	for _, f := range reg.Gather() {
		if f.Name != name {
			continue
		}
		for _, m := range f.Series {
			match := cache == ""
			for _, l := range m.Labels {
				match = match || l.Name == "cache" && l.Value == cache
			}
			if match {
				return m.Value
			}
		}
	}
	return 0
}

// TestDeckNames checks that each deck has one name: the canonical names
// are read, every other spelling of a deck is refused with a short reason
// naming the accepted forms or the deck's own name.
func TestDeckNames(t *testing.T) {
	for _, name := range []string{"classic", "beach", "kids", "pancakes", "order-2", "order-13", "order-7-30", "order-13-182", "order-2-2"} {
		if _, err := parseDeck(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	long := "order-" + strings.Repeat("0", 900_000) + "7"
	for name, want := range map[string]string{
		"order-07":       "write it order-7",
		"order-+7":       "write it order-7",
		"order-0013":     "write it order-13",
		"order-7-030":    "write it order-7-30",
		"order-7-+30":    "write it order-7-30",
		"order-7-57":     "are the deck order-7",
		"order-7-1":      "2 to 56",
		"order-14":       "from 2 to 13",
		"order- 7":       "order-Q-M",
		"order-":         "order-Q-M",
		"order-7-":       "2 to 56",
		"Classic":        "write it classic",
		"":               "an edition (classic, beach, kids, pancakes)",
		"order-7-30-1":   "2 to 56",
		"order-7\x00":    "order-Q-M",
		"order-1000000":  "at most 12",
		long:             "at most 12",
		"order-2-6+junk": "at most 12",
	} {
		_, err := parseDeck(name)
		var de *DeckError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: %v; want a DeckError saying %q", name, err, want)
			continue
		}
		if len(err.Error()) > 300 {
			t.Errorf("%.40q: a reason of %d bytes", name, len(err.Error()))
		}
	}
}

// TestDeckCachesBounded asks a Manager's decks, bounded to 3 decks and
// 64 KiB of pictures, for 15,000 spellings of decks and for 40 cards of
// each of nine decks: the misspelt names are refused and counted, the
// caches never hold more than their bounds, count what they drop, and
// keep the deck used last.
func TestDeckCachesBounded(t *testing.T) {
	cfg := testConfig()
	cfg.DeckCache, cfg.CardCache = 3, 1<<20
	reg := metrics.NewRegistry()
	metrics := NewMetrics(reg)
	decks := NewDecks()
	if _, err := NewManager(cfg, nil, decks, metrics, "test"); err != nil {
		t.Fatal(err)
	}
	decks.limit(3, 64<<10, metrics) // below what Validate accepts, to fill it quickly
	check := func() {
		t.Helper()
		decks.mu.Lock()
		defer decks.mu.Unlock()
		if decks.decks.len() > 3 || decks.svgs.weight() > 64<<10 {
			t.Fatalf("the caches hold %d decks and %d bytes of pictures; the bounds are 3 and %d", decks.decks.len(), decks.svgs.weight(), 64<<10)
		}
	}
	refused := 0
	for i := range 5_000 {
		for _, name := range []string{fmt.Sprintf("order-+%d", 2+i%12), "order-" + strings.Repeat("0", 1+i) + "5", fmt.Sprintf("order-7-%05d", 2+i%55)} {
			if _, err := decks.CardSVG(name, 0); err == nil {
				t.Fatalf("%.40q was drawn", name)
			}
			refused++
		}
	}
	if got := counted(t, reg, "dobble_deck_names_refused_total", ""); got != float64(refused) {
		t.Fatalf("%v names counted as refused; %d were", got, refused)
	}
	decks.mu.Lock()
	if decks.decks.len() != 0 || decks.svgs.len() != 0 {
		t.Fatalf("refused names left %d decks and %d pictures in the caches", decks.decks.len(), decks.svgs.len())
	}
	decks.mu.Unlock()
	for _, name := range []string{"order-2", "order-3", "kids", "order-4", "order-5", "order-2-5", "order-3-7", "order-4-9", "order-5-11"} {
		d, err := decks.Get(name, false)
		if err != nil {
			t.Fatal(err)
		}
		for card := range min(40, d.Plane.Len()+d.Plane.Symbols()) {
			if _, err := decks.CardSVG(name, card); err != nil {
				t.Fatalf("%s card %d: %v", name, card, err)
			}
		}
		check()
		if again, _ := decks.Get(name, false); again != d {
			t.Fatalf("%s was dropped although it was used last", name)
		}
	}
	if n := counted(t, reg, "dobble_deck_cache_drops_total", "decks"); n < 6 {
		t.Fatalf("%v decks dropped; 9 were built for a bound of 3", n)
	}
	if n := counted(t, reg, "dobble_deck_cache_drops_total", "cards"); n == 0 {
		t.Fatal("no card picture dropped")
	}
}

// TestDeckCacheConfig checks the bounds' defaults and ranges.
func TestDeckCacheConfig(t *testing.T) {
	if d := (Config{}).withDefaults(); d.DeckCache != 32 || d.CardCache != 32<<20 {
		t.Fatalf("defaults: %d decks, %d bytes", d.DeckCache, d.CardCache)
	}
	for _, c := range []Config{{DeckCache: -1}, {DeckCache: 10_001}, {CardCache: 1<<20 - 1}, {CardCache: -5}, {CardCache: 1<<40 + 1}} {
		if err := c.Validate(); err == nil {
			t.Errorf("%d decks, %d bytes of pictures accepted", c.DeckCache, c.CardCache)
		}
	}
}
