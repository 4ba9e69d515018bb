package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dobble-dev/dobble/room"
)

// deckNames fetches the names of a deck's symbols in every language.
func deckNames(t *testing.T, base, deck string) map[int]map[string]string {
	t.Helper()
	resp, err := http.Get(base + "/api/decks/" + deck)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		Symbols []struct {
			ID    int               `json:"id"`
			Names map[string]string `json:"names"`
		} `json:"symbols"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
		t.Fatal(err)
	}
	out := map[int]map[string]string{}
	for _, s := range d.Symbols {
		out[s.ID] = s.Names
	}
	return out
}

// symbolAt finds a symbol of the first centre card of learning mode, the
// one the two cards share or one they do not, and a point of it that the
// browser's hit testing puts on it, in the viewport's coordinates.
const symbolAt = `((shared) => {
  const faces = [...document.querySelectorAll('.shared [data-kind="centre"] svg.face')];
  if (faces.length !== 2) return null;
  const other = new Set([...faces[1].querySelectorAll('g[data-symbol]')].map((g) => g.getAttribute('data-symbol')));
  const g = [...faces[0].querySelectorAll('g[data-symbol]')].find((g) => other.has(g.getAttribute('data-symbol')) === shared);
  g.scrollIntoView({block: 'nearest'});
  const r = g.getBoundingClientRect();
  for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) {
    const x = r.left + r.width * (0.5 + (i & 1 ? 1 : -1) * Math.ceil(i / 2) / 10);
    const y = r.top + r.height * (0.5 + (j & 1 ? 1 : -1) * Math.ceil(j / 2) / 10);
    const e = document.elementFromPoint(x, y);
    if (e && e.closest('g[data-symbol]') === g) return {symbol: Number(g.getAttribute('data-symbol')), x, y};
  }
  return null;
})(%t)`

type symbolPoint struct {
	Symbol int     `json:"symbol"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
}

func (b *browser) symbolPoint(shared bool) symbolPoint {
	b.t.Helper()
	var p *symbolPoint
	b.eval(fmt.Sprintf(symbolAt, shared), &p)
	if p == nil {
		b.shot("no-symbol")
		b.t.Fatalf("%s: no symbol of the centre card can be pointed at", b.name)
	}
	return *p
}

// tapSymbol taps symbol %d of the first centre card as a finger does, in
// one task of the page: the pointer events of the press and the lift at a
// point the browser's hit testing puts on the symbol, and the click they
// make. When the deal left a symbol of the table smaller than a finger,
// the table is crowded and that tap brings the card up in the focus view
// (fit.js, table.js): the symbol is then tapped there, as a person does.
// It answers why it could not, or "".
const tapSymbol = `((sym) => {
  const touch = true;
` + pointerJS + `
  const tap = (g) => {
    const p = point(g, (e) => e.closest('g[data-symbol]') === g);
    if (!p) return 'no point of the symbol is under the pointer';
    press(p);
    return '';
  };
  const g = document.querySelector('.shared [data-kind="centre"] svg.face g[data-symbol="' + sym + '"]');
  if (!g) return 'the centre card has no symbol ' + sym;
  const why = tap(g);
  const focus = document.querySelector('.table .focus svg.face');
  if (why || !focus) return why;
  const f = focus.querySelector('g[data-symbol="' + sym + '"]');
  return f ? tap(f) : 'the focus view has no symbol ' + sym;
})(%d)`

// longPress holds a finger down on symbol %d of the first centre card
// (down true: the pointer's press, at a point the browser's hit testing
// puts on the symbol) or lifts it there (down false: the lift and the
// click it makes), each in one task of the page, so that the page's timer
// for a long press runs between them and nothing else of the browser's
// can (a click the browser itself makes of a touch comes when it
// chooses). It answers why it could not, or "".
const longPress = `((sym, down) => {
  const touch = true;
` + pointerJS + `
  const g = document.querySelector('.shared [data-kind="centre"] svg.face g[data-symbol="' + sym + '"]');
  if (!g) return 'the centre card has no symbol ' + sym;
  const p = point(g, (e) => e.closest('g[data-symbol]') === g);
  if (!p) return 'no point of the symbol is under the pointer';
  const at = {bubbles: true, cancelable: true, composed: true, view: window, clientX: p.x, clientY: p.y, button: 0, pointerId: 1, isPrimary: true, pointerType: 'touch'};
  if (down) {
    p.e.dispatchEvent(new PointerEvent('pointerdown', {...at, buttons: 1}));
  } else {
    p.e.dispatchEvent(new PointerEvent('pointerup', at));
    p.e.dispatchEvent(new MouseEvent('click', {...at, detail: 1}));
  }
  return '';
})(%d, %t)`

// TestBrowserSymbolNames: a symbol's name shows in the chosen language
// when a finger rests on it on a phone (without claiming it) and when the
// mouse is over it on a desktop.
func TestBrowserSymbolNames(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	// A wrong claim locks the player out for as long as a room may.
	base := browserServer(t, 500*time.Millisecond, func(c *room.Config) { c.Lockout = room.MaxLockout })
	shots := screenshotDir(t)
	names := deckNames(t, base, "classic")
	const pair = `document.querySelectorAll('.shared [data-kind="centre"] svg.face g[data-symbol]').length === 16`

	phone := newBrowser(t, "names-phone", shots, 375, 667)
	phone.run(chromedp.Navigate(base + "/"))
	phone.choose("#lang", "pl")
	phone.typeInto("#nickname", "Ola")
	phone.click("#learn-alone")
	phone.waitFor(pair, 30*time.Second)
	phone.waitFor(`document.querySelector('.seat.mine .score')`, 15*time.Second)
	// A long press on a symbol the two cards do not share: a claim would
	// be refused and lock the player out. The focus rests on no symbol,
	// so the only name shown is the finger's.
	phone.eval(`document.activeElement?.blur(); document.querySelector('#tip').hidden = true`, nil)
	p := phone.symbolPoint(false)
	var why string
	if phone.eval(fmt.Sprintf(longPress, p.Symbol, true), &why); why != "" {
		t.Fatalf("pressing symbol %d of the centre card: %s", p.Symbol, why)
	}
	phone.waitFor(fmt.Sprintf(`!!document.querySelector('g[data-symbol="%d"][data-longpress="1"]') && !document.querySelector('#tip').hidden`, p.Symbol), 15*time.Second)
	if got, want := phone.text("#tip"), names[p.Symbol]["pl"]; got != want || want == "" {
		t.Errorf("a long press on symbol %d shows %q, want its Polish name %q", p.Symbol, got, want)
	}
	phone.shot("1-long-press")
	if phone.eval(fmt.Sprintf(longPress, p.Symbol, false), &why); why != "" {
		t.Fatalf("lifting the finger from symbol %d: %s", p.Symbol, why)
	}
	var kept bool
	if phone.eval(`!!document.querySelector('g[data-longpress]')`, &kept); kept {
		t.Error("the click that ends a long press was not taken as the end of it")
	}
	// The long press claimed nothing: a tap on the shared symbol right
	// after it is a claim the server accepts (a wrong claim before it
	// would have locked the player out for the server's 5 s). The tap's
	// press and lift are one task of the page, so that the press's timer
	// for a long press cannot run between them, however busy the machine.
	q := phone.symbolPoint(true)
	var crowded bool
	phone.eval(`!!document.querySelector('.table.crowded')`, &crowded)
	t.Logf("the deal's table is crowded: %v (a tap then claims through the focus view)", crowded)
	phone.eval(fmt.Sprintf(tapSymbol, q.Symbol), &why)
	if why != "" {
		phone.shot("no-tap")
		t.Fatalf("tapping symbol %d of the centre card: %s", q.Symbol, why)
	}
	phone.waitFor(`Number(document.querySelector('.seat.mine .score')?.dataset.score) === 1`, 15*time.Second)
	var wrong bool
	phone.eval(`document.body.classList.contains('locked')`, &wrong)
	if wrong {
		t.Error("the page is locked out after a long press and a right tap")
	}

	desk := newBrowser(t, "names-desktop", shots, 1280, 900)
	desk.run(chromedp.Navigate(base + "/"))
	desk.choose("#lang", "it")
	desk.typeInto("#nickname", "Gio")
	desk.click("#learn-alone")
	desk.waitFor(pair, 30*time.Second)
	desk.waitFor(`document.querySelector('.seat.mine .score')`, 15*time.Second)
	// The focus rests on no symbol, so the only name shown is the
	// pointer's.
	desk.eval(`document.activeElement?.blur(); document.querySelector('#tip').hidden = true`, nil)
	h := desk.symbolPoint(false)
	desk.run(chromedp.MouseEvent(chromedp.MouseMoved, h.X, h.Y))
	desk.waitFor(`!document.querySelector('#tip').hidden`, 15*time.Second)
	if got, want := desk.text("#tip"), names[h.Symbol]["it"]; got != want || want == "" {
		t.Errorf("the mouse over symbol %d shows %q, want its Italian name %q", h.Symbol, got, want)
	}
	var title string
	desk.eval(fmt.Sprintf(`document.querySelector('.shared svg.face g[data-symbol="%d"] > title')?.textContent ?? ''`, h.Symbol), &title)
	if title != names[h.Symbol]["it"] {
		t.Errorf("symbol %d's title is %q, want %q", h.Symbol, title, names[h.Symbol]["it"])
	}
	desk.shot("2-hover")
	if n := desk.myScore(); n != 0 {
		t.Errorf("pointing at a symbol claimed it: the page counts %d pairs", n)
	}
}
