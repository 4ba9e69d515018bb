package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
)

// sendLog makes the page keep every message it sends on its WebSocket in
// window.sent (parsed), so that a test can see what a click asked of the
// server.
const sendLog = `(() => {
  if (window.sent) return true;
  window.sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.sent.push(JSON.parse(data)); } catch (e) {}
    return send.call(this, data);
  };
  return true;
})()`

// TestBrowserGuessRounds: in Guess, a symbol picked in one round is not
// picked any more once the next round begins, and a guess aimed at a round
// that has ended (a tap on the Guess button of the round before, drawn
// just before the new round replaced it) is refused as too late, not
// scored as a wrong guess in the new round. The rounds change by the
// game's clock: the other seats never guess.
func TestBrowserGuessRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	b := newBrowser(t, "guess-rounds-desktop", screenshotDir(t), 1280, 900)
	code := b.createRoom(base, "Gil", roomSpec{game: "guess", deck: "order-2", seats: 3, bots: []string{"", ""}, games: 1,
		options: map[string]string{"interval": "800", "host": "server"}})
	b.seatSitters(base, code, 2)
	b.click("#start")
	b.waitFor(`document.querySelector('.x-guess #candidates button.chip') && /Round 1\b/.test(document.querySelector('.playhead h1')?.textContent)`, 30*time.Second)
	b.eval(sendLog, nil)
	// All through round 1 a candidate is picked, and the Guess button
	// last drawn with it kept.
	b.eval(`(() => {
  window.keep = setInterval(() => {
    if (!/Round 1\b/.test(document.querySelector('.playhead h1')?.textContent)) return;
    if (!document.querySelector('#candidates .chip.sel')) document.querySelector('#candidates button.chip')?.click();
    const g = document.querySelector('#guess');
    if (g && !g.disabled) window.oldGuess = g;
  }, 10);
  return true;
})()`, nil)
	b.waitFor(`/Round 2\b/.test(document.querySelector('.playhead h1')?.textContent)`, 30*time.Second)
	b.eval(`clearInterval(window.keep)`, nil)
	var got struct {
		Sel      int  `json:"sel"`
		Disabled bool `json:"disabled"`
		Old      bool `json:"old"`
	}
	b.eval(`({sel: document.querySelectorAll('#candidates .chip.sel').length, disabled: !!document.querySelector('#guess')?.disabled, old: !!window.oldGuess})`, &got)
	if got.Sel != 0 || !got.Disabled {
		b.shot("carried")
		t.Errorf("in round 2 the page still has %d symbols picked and the Guess button enabled (%v): the pick of round 1 was carried over", got.Sel, !got.Disabled)
	}
	if !got.Old {
		t.Fatal("no Guess button of round 1 was drawn with a symbol picked")
	}
	// The tap on round 1's button reaches the page after round 2 began.
	b.eval(`window.oldGuess.click(), true`, nil)
	b.waitFor(`document.querySelector('#toast.late')`, 10*time.Second)
	var sent []struct {
		Type    string `json:"type"`
		Version int    `json:"version"`
	}
	b.eval(`window.sent.filter((m) => m.type === 'guess')`, &sent)
	if len(sent) != 1 {
		t.Fatalf("the page sent %d guesses, want 1: %+v", len(sent), sent)
	}
	var state struct {
		Score string `json:"score"`
		Hint  string `json:"hint"`
	}
	b.eval(`({score: document.querySelector('.xseat.mine .score')?.dataset.score, hint: document.querySelector('#guess-hint')?.textContent})`, &state)
	if state.Score != "0" || strings.Contains(state.Hint, "wrong") {
		b.shot("scored")
		t.Errorf("the guess aimed at round 1 was scored in round 2: score %s, hint %q", state.Score, state.Hint)
	}
}

// TestBrowserCollectOptimistic: in Collect the Symbols, the token of a
// symbol the person claims leaves the centre the moment it is clicked,
// before the server answers, and a second click on it at once sends no
// second claim (which the server would refuse, locking the person out).
// The claim is then accepted and nobody is locked out.
func TestBrowserCollectOptimistic(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	b := newBrowser(t, "collect-optimistic-phone", screenshotDir(t), 375, 667)
	code := b.createRoom(base, "Col", roomSpec{game: "collect-symbols", deck: "order-3", seats: 2, bots: []string{""}, games: 1})
	b.seatSitters(base, code, 1)
	b.click("#start")
	b.waitFor(`document.querySelector('.table[data-version] .seat.mine svg.face g[data-symbol]') && document.querySelector('#tokens .chip') && !document.querySelector('.loading')`, 30*time.Second)
	b.eval(sendLog, nil)
	var got struct {
		Symbol    int  `json:"symbol"`
		Gone      bool `json:"gone"`
		GoneAgain bool `json:"goneAgain"`
	}
	// Both clicks and the look at the tokens run in one task of the page:
	// no answer of the server can come in between.
	b.eval(`(() => {
  const tokens = new Set([...document.querySelectorAll('#tokens .chip')].map((c) => Number(c.dataset.symbol)));
  const g = [...document.querySelectorAll('.seat.mine svg.face g[data-symbol]')].find((g) => tokens.has(Number(g.dataset.symbol)));
  if (!g) return {symbol: -1};
  const s = Number(g.dataset.symbol);
  const tap = () => document.querySelector('.seat.mine svg.face g[data-symbol="' + s + '"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));
  tap();
  const gone = !document.querySelector('#tokens .chip[data-symbol="' + s + '"]');
  tap();
  return {symbol: s, gone, goneAgain: !document.querySelector('#tokens .chip[data-symbol="' + s + '"]')};
})()`, &got)
	if got.Symbol < 0 {
		t.Fatal("no symbol of the person's card has its token in the centre")
	}
	if !got.Gone || !got.GoneAgain {
		b.shot("token-stays")
		t.Errorf("the token of symbol %d stays in the centre after the click (after the first: %v, the second: %v)", got.Symbol, !got.Gone, !got.GoneAgain)
	}
	// The claim is accepted: the page hears of it and says so.
	b.waitFor(`document.querySelector('#toast.hit')`, 10*time.Second)
	var claims int
	b.eval(fmt.Sprintf(`window.sent.filter((m) => m.type === 'claim' && m.symbol === %d).length`, got.Symbol), &claims)
	if claims != 1 {
		t.Errorf("the page sent %d claims of symbol %d, want 1", claims, got.Symbol)
	}
	var locked bool
	b.eval(fmt.Sprintf(`document.body.classList.contains('locked') || !!document.querySelector('#tokens .chip[data-symbol="%d"]')`, got.Symbol), &locked)
	if locked {
		b.shot("locked")
		t.Errorf("after the claim of symbol %d the person is locked out or its token is back", got.Symbol)
	}
}

// TestBrowserSeatElsewhere: the share link of a game in progress, opened
// in another tab of the browser that holds a seat there, offers that seat
// back (and to watch) instead of a join the server refuses; taking it
// there closes the game in the first tab, which says why. A person
// without a seat who asks to join that game is offered to watch it, and
// watches.
func TestBrowserSeatElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	shots := screenshotDir(t)
	a := newBrowser(t, "seat-tab1-phone", shots, 375, 667)
	code := a.createRoom(base, "Ada", roomSpec{game: "tower", deck: "order-3", seats: 2, bots: []string{""}, games: 1})
	a.seatSitters(base, code, 1)
	a.click("#start")
	a.waitFor(`document.querySelector('.table[data-version] .seat.mine svg.face')`, 30*time.Second)

	// A second tab of the same browser: it shares the first's storage.
	ctx, cancel := chromedp.NewContext(a.ctx)
	defer cancel()
	tab := &browser{t: t, name: "seat-tab2-phone", ctx: ctx, dir: shots, width: 375}
	// The first action opens the tab, so it runs without a timeout (one
	// would close the tab when it ends).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 667, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatalf("opening a second tab: %v", err)
	}
	tab.run(chromedp.Navigate(base + "/r/" + code))
	tab.waitFor(`document.querySelector('#resume-room') && document.querySelector('#watch-room')`, 15*time.Second)
	if held := tab.text("#held-seat"); held != "You hold seat 1 in this game." {
		t.Errorf("the second tab says %q of the seat held", held)
	}
	var join bool
	tab.eval(`!!document.querySelector('#join-room')`, &join)
	if join {
		t.Error("the second tab offers to join a game where this browser holds a seat")
	}
	tab.shot("1-offer")
	tab.click("#resume-room")
	tab.waitFor(`document.querySelector('.table[data-version] .seat.mine svg.face')`, 15*time.Second)
	if name := tab.text(".seat.mine .name"); name != "Ada" {
		t.Errorf("the resumed seat is named %q, want Ada", name)
	}
	a.waitFor(`document.querySelector('.notice')?.textContent.includes('resumed by another connection')`, 15*time.Second)
	// The first tab reloaded does not take the seat back by itself: the
	// second holds it now.
	a.run(chromedp.Navigate(base + "/r/" + code))
	a.waitFor(`document.querySelector('#resume-room')`, 15*time.Second)
	tab.shot("2-resumed")

	// Someone else opens the link and asks to join.
	c := newBrowser(t, "seat-other-phone", shots, 375, 667)
	c.run(chromedp.Navigate(base + "/r/" + code))
	c.typeInto("#nickname", "Cy")
	c.click("#join-room")
	c.waitFor(`document.querySelector('.notice')?.textContent.includes('you can watch it') && document.querySelector('#watch-room.primary')`, 15*time.Second)
	c.shot("3-offer-watch")
	c.click("#watch-room")
	c.waitFor(`document.querySelector('.table[data-version] svg.face') && !document.querySelector('.seat.mine')`, 15*time.Second)
}

// TestBrowserNumberKeys: on the table of claims the number keys name the
// symbols of the person's own card in reading order, and once a key is
// pressed each symbol shows its number. Pressing the number of the symbol
// the card shares with the centre claims it, and the claim is accepted.
func TestBrowserNumberKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	b := newBrowser(t, "number-keys-desktop", screenshotDir(t), 1280, 900)
	code := b.createRoom(base, "Nia", roomSpec{game: "tower", deck: "order-7", seats: 2, bots: []string{""}, games: 1})
	b.seatSitters(base, code, 1)
	b.click("#start")
	b.waitFor(`document.querySelector('.table[data-version] .seat.mine svg.face') && document.querySelector('.shared svg.face') && !document.querySelector('.loading')`, 30*time.Second)
	b.eval(sendLog, nil)
	b.checkKeys("move act number sound", "Keys: Tab/←→ move between symbols · Enter/Space claim the symbol · 1–9 name a symbol of your card · M sound on/off")
	var none int
	b.eval(`document.querySelectorAll('.knum').length`, &none)
	if none != 0 {
		t.Errorf("the numbers show on the card before the keyboard is used (%d)", none)
	}
	// Escape does nothing on the table but tells the page the keyboard is
	// in use.
	b.run(chromedp.KeyEvent("\x1b"))
	b.waitFor(`document.querySelectorAll('.seat.mine .knum').length === 8`, 10*time.Second)
	var labels struct {
		Keys    string `json:"keys"`
		Reading bool   `json:"reading"`
		Key     string `json:"key"`
		Symbol  int    `json:"symbol"`
		At      string `json:"at"`
	}
	// Each label sits on its symbol; the labels run in reading order, by
	// rows from the top (a label within a sixth of the card's height below
	// the topmost of its row is on that row), each row from the left. The
	// label of the symbol shared with the centre is the key to press.
	b.eval(`(() => {
  const card = document.querySelector('.seat.mine svg.face');
  const size = card.getBoundingClientRect().height;
  const ls = [...document.querySelectorAll('.seat.mine .knum')].map((l) => { const r = l.getBoundingClientRect(); return {key: l.dataset.key, x: r.left + r.width / 2, y: r.top + r.height / 2}; });
  const rows = [];
  for (const l of [...ls].sort((a, b) => a.y - b.y)) {
    const row = rows[rows.length - 1];
    if (row && l.y - row[0].y < size / 6) row.push(l);
    else rows.push([l]);
  }
  const reading = rows.flatMap((row) => row.sort((a, b) => a.x - b.x)).map((l) => l.key).join('') === ls.map((l) => l.key).join('');
  const centre = new Set([...document.querySelector('.shared svg.face').querySelectorAll('g[data-symbol]')].map((g) => g.dataset.symbol));
  const g = [...card.querySelectorAll('g[data-symbol]')].find((g) => centre.has(g.dataset.symbol));
  const r = g.getBoundingClientRect();
  const near = ls.map((l) => ({key: l.key, d: Math.hypot(l.x - (r.left + r.width / 2), l.y - (r.top + r.height / 2))})).sort((a, b) => a.d - b.d)[0];
  return {keys: ls.map((l) => l.key).join(''), reading, key: near.key, symbol: Number(g.dataset.symbol), at: JSON.stringify(ls.map((l) => [Math.round(l.x), Math.round(l.y)])) + ' size ' + Math.round(size)};
})()`, &labels)
	if labels.Keys != "12345678" || !labels.Reading {
		b.shot("labels")
		t.Errorf("the card's labels are %q, in reading order: %v (at %s); want 12345678 in reading order", labels.Keys, labels.Reading, labels.At)
	}
	b.shot("numbers")
	b.run(chromedp.KeyEvent(labels.Key))
	b.waitFor(`document.querySelector('#toast.hit')`, 10*time.Second)
	var claimed []int
	b.eval(`window.sent.filter((m) => m.type === 'claim').map((m) => m.symbol)`, &claimed)
	if len(claimed) != 1 || claimed[0] != labels.Symbol {
		t.Errorf("key %s claimed %v, want symbol %d", labels.Key, claimed, labels.Symbol)
	}
}

// sit joins room code as a person named name on a WebSocket of its own
// and never acts: a seat that stays still, where a bot would move at its
// own speed. The connection reads (and drops) what the server sends until
// the test ends.
func sit(t *testing.T, base, code, name string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		cancel()
		t.Fatalf("%s: %v", name, err)
	}
	c.SetReadLimit(-1)
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		c.CloseNow()
		<-done
	})
	for _, m := range []map[string]any{{"type": "hello", "v": 1, "name": name, "lang": "en"}, {"type": "join", "room": code}} {
		b, _ := json.Marshal(m)
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	go func() {
		defer close(done)
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
}

// seatSitters fills the free seats of the room b's page is the host of
// with people who never act (sit), named Sam1, Sam2…, and waits until the
// lobby shows them.
func (b *browser) seatSitters(base, code string, n int) {
	b.t.Helper()
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("Sam%d", i)
		sit(b.t, base, code, name)
		b.waitFor(fmt.Sprintf(`document.querySelector('#seats').textContent.includes(%q)`, name), 15*time.Second)
	}
}

// TestBrowserCollectTokensSlowDeck: the pictures of Collect the Symbols'
// tokens come even when the deck's description (which says which card
// shows a symbol alone) comes after the game's module: here the browser
// holds every request for a deck's description 2 s, and nobody plays, so
// that no update would load them later.
func TestBrowserCollectTokensSlowDeck(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 200*time.Millisecond)
	b := newBrowser(t, "collect-slowdeck", screenshotDir(t), 1280, 900)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			go func() {
				// The description's network delay.
				select {
				case <-time.After(2 * time.Second):
				case <-b.ctx.Done():
					return
				}
				chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
			}()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/decks/*"}}}); err != nil {
		t.Fatal(err)
	}
	code := b.createRoom(base, "Col", roomSpec{game: "collect-symbols", deck: "order-3", seats: 2, bots: []string{""}, games: 1})
	b.seatSitters(base, code, 1)
	b.click("#start")
	b.waitFor(`document.querySelector('.table[data-version] .seat.mine svg.face g[data-symbol]') && document.querySelectorAll('#tokens .chip svg').length > 0 && !document.querySelector('#tokens .loading')`, 30*time.Second)
}
