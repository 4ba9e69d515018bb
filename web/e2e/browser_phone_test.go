package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// phoneGame is what TestBrowserPhoneTable reads of a game in GET
// /api/games.
type phoneGame struct {
	Name       string          `json:"name"`
	MinPlayers int             `json:"minPlayers"`
	MaxPlayers int             `json:"maxPlayers"`
	Claim      json.RawMessage `json:"claim"`
}

// phoneCheck measures the play screen as it is on screen, scrolled to the
// top: each card the seat plays with (its own top card and the cards its
// claims are compared with, by the game's declared claim; for the games
// that draw their own table, the cards and controls a turn acts on) must
// lie wholly within the viewport, and each target a finger taps there (a
// symbol of the seat's own card, or of the shared cards where the seat has
// none; a card to flip or to lay; a candidate) must be at least 44 px wide
// and high, unless the game is crowded (phoneCrowded). It answers the
// problems found, how many cards and targets it checked and the least
// target's width or height.
const phoneCheck = `((claim, game, crowded) => {
  window.scrollTo(0, 0);
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const bad = [];
  let cards = 0, targets = 0;
  const where = (el) => (el.closest('[data-zone]')?.dataset.kind || el.closest('[id]')?.id || el.tagName) + (el.dataset.card ? '#' + el.dataset.card : '');
  const onScreen = (el, what) => {
    const b = el.getBoundingClientRect();
    cards++;
    if (b.width === 0 || b.left < -0.5 || b.top < -0.5 || b.right > vw + 0.5 || b.bottom > vh + 0.5) {
      bad.push(what + ' ' + where(el) + ' is not wholly on screen: ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(','));
    }
  };
  let least = Infinity;
  const bigEnough = (el, what) => {
    const b = el.getBoundingClientRect();
    targets++;
    least = Math.min(least, b.width, b.height);
    if (!crowded && (b.width < 44 || b.height < 44)) bad.push(what + ' ' + where(el) + ' is ' + Math.round(b.width) + '×' + Math.round(b.height) + ' px');
  };
  if (claim) {
    const places = [...(claim.match || []), ...(claim.targets || [])];
    for (const p of places) {
      for (const z of document.querySelectorAll('.table [data-zone]')) {
        if (!p.kinds.includes(z.dataset.kind) || z.hidden || Number(z.dataset.count) === 0) continue;
        const mine = !!z.closest('.seat.mine'), shared = !!z.closest('.shared');
        const ok = p.whose === 'mine' ? mine : p.whose === 'others' ? !mine && !shared : p.whose === 'shared' ? shared : !mine;
        if (!ok) continue;
        const faces = z.querySelectorAll('svg.face[data-card]');
        if (!faces.length) bad.push('zone ' + z.dataset.zone + ' (' + z.dataset.kind + ') shows no face');
        for (const f of faces) {
          onScreen(f, p.whose);
          if (p.whose === 'mine' || (p.whose === 'shared' && !places.some((q) => q.whose === 'mine'))) {
            for (const g of f.querySelectorAll('g[data-symbol]')) bigEnough(f.querySelector('path.hit[data-hit="' + g.dataset.symbol + '"]') || g, 'a symbol of');
          }
        }
      }
    }
    if (places.some((p) => p.whose === 'mine') && !document.querySelector('.seat.mine svg.face[data-card]')) bad.push('no own card (.seat.mine svg.face[data-card])');
    if (game === 'collect-symbols') onScreen(document.querySelector('#tokens'), 'the tokens');
  } else {
    const x = document.querySelector('.xgame');
    for (const f of x.querySelectorAll('svg.face[data-card]')) {
      if (!f.querySelector('g[data-symbol][tabindex]')) continue;
      onScreen(f, 'the card');
      for (const g of f.querySelectorAll('g[data-symbol]')) bigEnough(f.querySelector('path.hit[data-hit="' + g.dataset.symbol + '"]') || g, 'a symbol of');
    }
    for (const el of x.querySelectorAll('.xgrid .xplace, #row li, .xhand .handcard, .xturned, .xfour .xcard, .xfifth .xcard')) onScreen(el, 'the place');
    for (const el of x.querySelectorAll('.xplace.choice, button.handcard, #candidates button.chip, #guess')) bigEnough(el, 'the target');
  }
  if (document.documentElement.scrollWidth > vw) bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px wide');
  return {bad, cards, targets, least: Math.round(least)};
})`

// TestBrowserPhoneTable opens every game on a phone, at 375×667 upright
// and 667×375 turned, and checks that the cards the person plays with are
// wholly on screen together, without scrolling, with targets a finger can
// hit (phoneCheck): a symbol's target is its region of the card (fit.js,
// hitAreas: path.hit), measured by its bounding box. The other seats are
// people who never act (sit), so that what is measured is the table as
// dealt, whatever the machine's speed; the games moved on by a clock move
// on, and each layout holds at any of their steps. A screenshot of each
// game at both sizes is saved ($DOBBLE_PHONE_SHOTS names a folder for
// them).
func TestBrowserPhoneTable(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	shots := screenshotDir(t)
	if d := os.Getenv("DOBBLE_PHONE_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		shots = d
	}
	resp, err := http.Get(base + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Games []phoneGame `json:"games"`
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list.Games) == 0 {
		t.Fatalf("GET /api/games: %v (%d games)", err, len(list.Games))
	}
	only := os.Getenv("DOBBLE_PHONE_GAME")
	b := newBrowser(t, "phone", shots, 375, 667)
	upright := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch}
	turned := []chromedp.EmulateViewportOption{chromedp.EmulateLandscape, chromedp.EmulateMobile, chromedp.EmulateTouch}
	for _, g := range list.Games {
		if only != "" && g.Name != only {
			continue
		}
		t.Run(g.Name, func(t *testing.T) {
			defer b.subtest(t, "phone", "phone-"+g.Name)()
			b.run(chromedp.EmulateViewport(375, 667, upright...))
			b.width = 375
			seats := min(max(3, g.MinPlayers), g.MaxPlayers)
			code := b.createRoom(base, "Pia", roomSpec{game: g.Name, seats: seats, bots: make([]string, seats-1), games: 1, options: phoneOptions[g.Name]})
			b.seatSitters(base, code, seats-1)
			b.click("#start")
			b.waitFor(`document.querySelector('.xgame[data-version], .table[data-version] svg.face') && document.querySelector('#countdown')?.hidden && !document.querySelector('.table .loading, .xgame .loading')`, 30*time.Second)
			claim := string(g.Claim)
			if claim == "" {
				claim = "null"
			}
			for _, size := range []struct {
				name string
				w, h int64
				opts []chromedp.EmulateViewportOption
			}{{"375x667", 375, 667, upright}, {"667x375", 667, 375, turned}} {
				b.run(chromedp.EmulateViewport(size.w, size.h, size.opts...))
				b.settle()
				b.settle()
				var got struct {
					Bad     []string `json:"bad"`
					Cards   int      `json:"cards"`
					Targets int      `json:"targets"`
					Least   int      `json:"least"`
				}
				why, crowded := phoneCrowded[g.Name]
				b.eval(fmt.Sprintf(`%s(%s, %q, %t)`, phoneCheck, claim, g.Name, crowded), &got)
				b.shot(size.name)
				t.Logf("%s at %s: %d cards and %d targets checked, the least %d px", g.Name, size.name, got.Cards, got.Targets, got.Least)
				if crowded {
					t.Logf("%s: targets under 44 px allowed: %s", g.Name, why)
				}
				if got.Cards == 0 {
					t.Errorf("%s at %s: no card checked", g.Name, size.name)
				}
				if len(got.Bad) > 0 {
					t.Errorf("%s at %s (%s):\n  %s", g.Name, size.name, filepath.Join(shots, b.name+"-"+size.name+".png"), strings.Join(got.Bad, "\n  "))
				}
			}
		})
	}
}

// phoneCrowded are the games whose tables hold more cards to tap than a
// phone shows with 44 px targets on each: their cards must still be
// wholly on screen together, and their least target is logged.
var phoneCrowded = map[string]string{
	"anarchy-pancakes": "seven stacks a seat, matched against the others' seven",
	"tower-7":          "seven piles a seat, matched against the others' seven",
	"triplets":         "a grid of twelve cards, each tapped",
	"catch-them-all":   "a centre card and a ring of cards, each tapped",
}

// phoneOptions are the options TestBrowserPhoneTable plays a game with:
// turns long enough that the person's first turn lasts the test.
var phoneOptions = map[string]map[string]string{
	"memory":      {"turn-time": "60000"},
	"false-poker": {"turn-time": "60000"},
}
