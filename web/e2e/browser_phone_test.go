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
// and high. On a crowded table (.table.crowded: more cards than the screen
// shows with targets that large) a tap on a card brings it up large (the
// focus view, .table .focus): there each of the card's symbols is
// measured, the card brought up by a tap on it and put away by a tap
// beside it. It answers the problems found, how many cards and targets it
// checked, the least target's width or height, whether the table is
// crowded and how many cards it brought up.
const phoneCheck = `((claim, game) => {
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
    if (b.width < 44 || b.height < 44) bad.push(what + ' ' + where(el) + ' is ' + Math.round(b.width) + '×' + Math.round(b.height) + ' px');
  };
  const crowded = !!document.querySelector('.table.crowded');
  let focused = 0;
  const tap = (el) => el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window, detail: 1}));
  const symbolsOf = (f) => {
    if (!crowded) {
      for (const g of f.querySelectorAll('g[data-symbol]')) bigEnough(f.querySelector('path.hit[data-hit="' + g.dataset.symbol + '"]') || g, 'a symbol of');
      return;
    }
    tap(f);
    const big = document.querySelector('.table .focus svg.face[data-card]');
    if (!big || big.dataset.card !== f.dataset.card) {
      bad.push('a tap on card ' + where(f) + ' of the crowded table brings ' + (big ? 'card ' + big.dataset.card : 'nothing') + ' up');
      return;
    }
    focused++;
    onScreen(big, 'the focus view of');
    for (const g of big.querySelectorAll('g[data-symbol]')) bigEnough(big.querySelector('path.hit[data-hit="' + g.dataset.symbol + '"]') || g, 'in the focus view, a symbol of card ' + f.dataset.card + ' of');
    tap(document.querySelector('.table .focus'));
    if (document.querySelector('.table .focus')) bad.push('a tap beside the focus view of card ' + where(f) + ' leaves it up');
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
          if (p.whose === 'mine' || (p.whose === 'shared' && !places.some((q) => q.whose === 'mine'))) symbolsOf(f);
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
  return {bad, cards, targets, least: Math.round(least), crowded, focused};
})`

// TestBrowserPhoneTable opens every game on a phone, at 375×667 upright
// and 667×375 turned, and checks that the cards the person plays with are
// wholly on screen together, without scrolling, with targets a finger can
// hit (phoneCheck): a symbol's target is its region of the card (fit.js,
// hitAreas: path.hit), measured by its bounding box, on the table or, on a
// crowded one, in the focus view of each card. The other seats are
// people who never act (sit), so that what is measured is the table as
// dealt, whatever the machine's speed; the games moved on by a clock move
// on, and each layout holds at any of their steps. A screenshot of each
// game at both sizes is saved, and of a crowded table's focus view
// ($DOBBLE_PHONE_SHOTS names a folder for them).
func TestBrowserPhoneTable(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	shots := phoneShots(t)
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
	for _, g := range list.Games {
		if only != "" && g.Name != only {
			continue
		}
		t.Run(g.Name, func(t *testing.T) {
			defer b.subtest(t, "phone", "phone-"+g.Name)()
			b.run(chromedp.EmulateViewport(375, 667, phoneSizes[0].opts...))
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
			for _, size := range phoneSizes {
				b.run(chromedp.EmulateViewport(size.w, size.h, size.opts...))
				b.settle()
				b.settle()
				var got struct {
					Bad     []string `json:"bad"`
					Cards   int      `json:"cards"`
					Targets int      `json:"targets"`
					Least   int      `json:"least"`
					Crowded bool     `json:"crowded"`
					Focused int      `json:"focused"`
				}
				b.eval(fmt.Sprintf(`%s(%s, %q)`, phoneCheck, claim, g.Name), &got)
				b.shot(size.name)
				t.Logf("%s at %s: %d cards and %d targets checked, the least %d px, crowded %t", g.Name, size.name, got.Cards, got.Targets, got.Least, got.Crowded)
				if got.Crowded {
					t.Logf("%s at %s: a crowded table, its symbols measured in the focus views of %d cards", g.Name, size.name, got.Focused)
					b.focusShot(size.name + "-focus")
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

// phoneOptions are the options TestBrowserPhoneTable plays a game with:
// turns long enough that the person's first turn lasts the test.
var phoneOptions = map[string]map[string]string{
	"memory":      {"turn-time": "60000"},
	"false-poker": {"turn-time": "60000"},
}

// phoneSizes are the sizes of a phone the phone tests play at: upright
// and turned.
var phoneSizes = []struct {
	name string
	w, h int64
	opts []chromedp.EmulateViewportOption
}{
	{"375x667", 375, 667, []chromedp.EmulateViewportOption{chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch}},
	{"667x375", 667, 375, []chromedp.EmulateViewportOption{chromedp.EmulateLandscape, chromedp.EmulateMobile, chromedp.EmulateTouch}},
}

// focusShot brings up the first card whose symbols the seat taps on a
// crowded table (its own, else a shared one), saves a screenshot of the
// focus view and puts it away.
func (b *browser) focusShot(stage string) {
	b.t.Helper()
	var up bool
	b.eval(`(() => {
  const f = document.querySelector('.table .seat.mine [data-zone]:not([hidden]) svg.face[data-card]') || document.querySelector('.table .shared [data-zone] svg.face[data-card]');
  f?.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window, detail: 1}));
  return !!document.querySelector('.table .focus');
})()`, &up)
	if !up {
		b.t.Errorf("%s: %s: a tap on a card of the crowded table brings up no focus view", b.name, stage)
		return
	}
	b.settle()
	b.shot(stage)
	b.eval(`(() => { document.querySelector('.table .focus')?.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window, detail: 1})); return true; })()`, &up)
}

// TestBrowserPhoneFocus plays a claim through the focus view in each game
// whose table is crowded on a phone (seven stacks a seat, a grid of
// twelve, a ring of cards), upright and turned: the table is marked
// crowded, a tap on a symbol of a card brings the card up large instead of
// claiming, the tap on the symbol there makes the claim (with, where the
// page asks, a tap on the card meant), and the server accepts it: the
// table moves on and the feed says the person found the symbol. Two taps
// make a claim. Where the seat has cards of its own, the number keys still
// claim at once (numberKeyClaim). The other seats are people who never
// act, so nothing depends on a bot's speed.
func TestBrowserPhoneFocus(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	shots := phoneShots(t)
	b := newBrowser(t, "focus", shots, 375, 667)
	keyed := map[string]bool{}
	for _, game := range []string{"anarchy-pancakes", "tower-7", "triplets", "catch-them-all"} {
		t.Run(game, func(t *testing.T) {
			defer b.subtest(t, "focus", "focus-"+game)()
			b.run(chromedp.EmulateViewport(375, 667, phoneSizes[0].opts...))
			b.width = 375
			code := b.createRoom(base, "Pia", roomSpec{game: game, seats: 3, bots: make([]string, 2), games: 1})
			b.seatSitters(base, code, 2)
			b.click("#start")
			b.waitFor(`document.querySelector('.table[data-version] svg.face') && document.querySelector('#countdown')?.hidden && !document.querySelector('.table .loading')`, 30*time.Second)
			p := newPlayer(b)
			for _, size := range phoneSizes {
				b.run(chromedp.EmulateViewport(size.w, size.h, size.opts...))
				b.width = size.w
				b.settle()
				b.settle()
				// Turned, every one of these tables is crowded; upright,
				// Catch Them All's four cards are large enough for most
				// deals' symbols, a little more room making it roomy.
				var crowded bool
				b.eval(`!!document.querySelector('.table.crowded')`, &crowded)
				if !crowded && (size.w > size.h || game != "catch-them-all") {
					b.shot(size.name + "-not-crowded")
					t.Fatalf("%s at %s: the table is not marked crowded; a tap on a card claims at once", game, size.name)
				}
				var before int
				b.eval(`Number(document.querySelector('.table[data-version]').dataset.version)`, &before)
				claims := p.claims[game]
				deadline := time.Now().Add(30 * time.Second)
				for p.claims[game] == claims {
					if time.Now().After(deadline) {
						b.shot(size.name + "-no-claim")
						t.Fatalf("%s at %s: no claim made in 30 s (moves %v)", game, size.name, p.modes)
					}
					if !p.move() {
						b.settle()
					}
				}
				m := p.made
				if m.Focused != crowded {
					t.Errorf("%s at %s: the table is crowded: %t, but the claim of symbol %d was made through the focus view: %t (move %+v)", game, size.name, crowded, m.Symbol, m.Focused, m)
				}
				b.waitFor(fmt.Sprintf(`Number(document.querySelector('.table[data-version]')?.dataset.version) > %d && document.querySelector('#feed')?.textContent === %q`, before, "You found "+m.Name), 15*time.Second)
				b.shot(size.name + "-claimed")
				t.Logf("%s at %s: symbol %d (%s) claimed, through the focus view: %t, mode %s, target %v", game, size.name, m.Symbol, m.Name, m.Focused, m.Mode, m.Target)
			}
			if b.numberKeyClaim() {
				keyed[game] = true
			}
		})
	}
	if !keyed["tower-7"] {
		t.Error("no claim was made with a number key on the crowded table of Tower of Seven")
	}
}

// numberKeyClaim makes a claim with the number keys on a crowded table
// where the seat has a card of its own: the number of a symbol of its
// first stack (the card the keys name) that a card of another seat, or
// the centre, shows; then, where the page asks which card is meant, 1.
// The keys claim at once: no focus view comes up, and the server accepts
// the claim. It reports whether the card the keys name shares a symbol
// with another card (in Anarchy Pancakes a card of a single topping may
// not).
func (b *browser) numberKeyClaim() bool {
	b.t.Helper()
	var keyed bool
	b.eval(`!!document.querySelector('.table .seat.mine svg.face[data-card] g[data-symbol][tabindex]')`, &keyed)
	if !keyed {
		return false
	}
	b.eval(sendLog, nil)
	// Escape tells the page the keyboard is in use: the numbers show.
	b.run(chromedp.KeyEvent("\x1b"))
	b.waitFor(`document.querySelectorAll('.seat.mine .knum').length > 0`, 10*time.Second)
	var k struct {
		Key     string `json:"key"`
		Symbol  int    `json:"symbol"`
		Name    string `json:"name"`
		Version int    `json:"version"`
	}
	b.eval(`(() => {
  const card = document.querySelector('.table .seat.mine svg.face[data-card]');
  const shown = new Set([...document.querySelectorAll('.table [data-zone]')]
    .filter((z) => !z.closest('.seat.mine') && !z.hidden && (z.dataset.kind === 'pile' || z.dataset.kind === 'centre'))
    .flatMap((z) => [...z.querySelectorAll('svg.face')].slice(-1))
    .flatMap((f) => [...f.querySelectorAll('g[data-symbol]')].map((g) => g.dataset.symbol)));
  const version = Number(document.querySelector('.table[data-version]').dataset.version);
  const g = [...card.querySelectorAll('g[data-symbol]')].find((g) => shown.has(g.dataset.symbol));
  if (!g) return {key: '', symbol: -1, name: '', version};
  const r = g.getBoundingClientRect();
  const near = [...card.parentElement.querySelectorAll('.knum')].map((l) => {
    const b = l.getBoundingClientRect();
    return {key: l.dataset.key, d: Math.hypot(b.left + b.width / 2 - (r.left + r.width / 2), b.top + b.height / 2 - (r.top + r.height / 2))};
  }).sort((a, b) => a.d - b.d)[0];
  return {key: near ? near.key : '', symbol: Number(g.dataset.symbol), name: g.getAttribute('aria-label'), version};
})()`, &k)
	if k.Symbol < 0 {
		b.t.Logf("%s: the card the number keys name shares no symbol with another card", b.name)
		return false
	}
	if k.Key == "" {
		b.shot("no-number")
		b.t.Fatalf("%s: symbol %d of the card the number keys name shows no number", b.name, k.Symbol)
	}
	b.run(chromedp.KeyEvent(k.Key))
	var after struct {
		Focus  bool  `json:"focus"`
		Choice bool  `json:"choice"`
		Sent   []int `json:"sent"`
	}
	b.eval(`({focus: !!document.querySelector('.table .focus'), choice: !!document.querySelector('.zone.choice'), sent: window.sent.filter((m) => m.type === 'claim').map((m) => m.symbol)})`, &after)
	if after.Focus {
		b.t.Errorf("%s: number key %s brought a focus view up; it claims at once", b.name, k.Key)
	}
	if after.Choice {
		b.run(chromedp.KeyEvent("1"))
		b.eval(`({sent: window.sent.filter((m) => m.type === 'claim').map((m) => m.symbol)})`, &after)
	}
	if len(after.Sent) != 1 || after.Sent[0] != k.Symbol {
		b.shot("number-key")
		b.t.Fatalf("%s: number key %s claimed %v, want symbol %d", b.name, k.Key, after.Sent, k.Symbol)
	}
	b.waitFor(fmt.Sprintf(`Number(document.querySelector('.table[data-version]')?.dataset.version) > %d && document.querySelector('#feed')?.textContent === %q`, k.Version, "You found "+k.Name), 15*time.Second)
	b.t.Logf("%s: number key %s claimed symbol %d (%s)", b.name, k.Key, k.Symbol, k.Name)
	return true
}

// phoneShots is the folder the phone tests save their screenshots in:
// $DOBBLE_PHONE_SHOTS where it is set, else the tests' own.
func phoneShots(t *testing.T) string {
	d := os.Getenv("DOBBLE_PHONE_SHOTS")
	if d == "" {
		return screenshotDir(t)
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}
