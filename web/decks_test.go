package web

import (
	"strings"
	"testing"
)

// TestDeckSpellings asks for cards and decks by spellings other than
// their one name: each is refused with 404 and a reason that names what
// is accepted, or the deck's own name, in a short answer; the deck's own
// name is served.
func TestDeckSpellings(t *testing.T) {
	ts := start(t, fastConfig())
	long := "order-" + strings.Repeat("0", 100_000) + "7"
	for path, want := range map[string]string{
		"/api/cards/order-07/0.svg":      "order-7",
		"/api/cards/order-+7/0.svg":      "order-7",
		"/api/cards/order-0013/0.svg":    "order-13",
		"/api/cards/order-7-57/0.svg":    "order-7",
		"/api/cards/order-7-030/0.svg":   "order-7-30",
		"/api/cards/Classic/0.svg":       "classic",
		"/api/cards/" + long + "/0.svg":  "order-Q-M",
		"/api/cards/order-7/00.svg":      "without sign or leading zeros",
		"/api/cards/order-7/+1.svg":      "without sign or leading zeros",
		"/api/decks/order-07":            "order-7",
		"/api/decks/order-3-013":         "order-3",
		"/api/decks/" + long:             "order-Q-M",
		"/api/decks/classic%20":          "an edition (classic, beach, kids, pancakes)",
		"/api/cards/order-7-%2B30/0.svg": "order-7-30",
	} {
		code, body := ts.get(path)
		if code != 404 || !strings.Contains(string(body), want) || len(body) > 400 {
			t.Errorf("%.60s: %d %.300s; want 404 naming %q", path, code, body, want)
		}
	}
	for _, path := range []string{"/api/cards/order-7/0.svg", "/api/cards/order-7-30/29.svg", "/api/decks/order-3-12", "/api/decks/classic"} {
		if code, body := ts.get(path); code != 200 {
			t.Errorf("%s: %d %.200s", path, code, body)
		}
	}
	if _, body := ts.get("/metrics"); !strings.Contains(string(body), "dobble_deck_names_refused_total 12") {
		t.Errorf("/metrics does not count 12 refused deck names:\n%s", body)
	}
}
