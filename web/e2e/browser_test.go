package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/server"
)

// browserServer starts the server as dobble serve runs it (server.Serve
// with its defaults), on 127.0.0.1 port 0 with a fresh SQLite file and the
// given countdown before each game (the default when 0), and returns its
// base URL, without the trailing slash. A person has ten minutes to pick
// the next mini-game, so that no test depends on how soon its page picks;
// edits change the rooms' configuration further. The server stops when
// the test ends.
func browserServer(t *testing.T, countdown time.Duration, edits ...func(*room.Config)) string {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "dobble.db")
	if countdown > 0 {
		cfg.Rooms.Countdown = countdown
	}
	cfg.Rooms.PickTime = 10 * time.Minute
	for _, edit := range edits {
		edit(&cfg.Rooms)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	urlc := make(chan string, 1)
	go func() { done <- server.Serve(ctx, ln, cfg, func(u string) { urlc <- u }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	})
	select {
	case u := <-urlc:
		return strings.TrimSuffix(u, "/")
	case err := <-done:
		t.Fatalf("server: %v", err)
	}
	return ""
}

// screenshotDir is where the screenshots go.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("DOBBLE_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "dobble-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// browser is one headless Chromium with one tab.
type browser struct {
	t     *testing.T
	name  string
	ctx   context.Context
	dir   string
	width int64
}

// subtest lends b, whose name holds word, to subtest t playing game: its
// failures go to t and its screenshots are named after the game, with
// game in place of word. Calling the function it returns gives b its name
// back.
func (b *browser) subtest(t *testing.T, word, game string) (restore func()) {
	saved := b.name
	b.t, b.name = t, strings.Replace(saved, word, game, 1)
	return func() { b.name = saved }
}

// newBrowser launches Chromium with a fresh profile; width and height set
// the viewport (a phone's 375×667 emulates a touch phone).
func newBrowser(t *testing.T, name, shots string, width, height int64) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("the browser tests need Debian's chromium (scripts/test installs it): %v", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(int(width), int(height)),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	b := &browser{t: t, name: name, ctx: ctx, dir: shots, width: width}
	// The first action starts the browser, so it runs without a timeout.
	vp := []chromedp.EmulateViewportOption{}
	if width < 600 {
		vp = append(vp, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, vp...)); err != nil {
		t.Fatalf("%s: starting Chromium: %v", name, err)
	}
	return b
}

func (b *browser) run(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", b.name, err)
	}
}

// eval evaluates a JavaScript expression and decodes its value into out.
func (b *browser) eval(js string, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
	if err != nil {
		b.t.Fatalf("%s: %s: %v", b.name, js, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			b.t.Fatalf("%s: %s: %v", b.name, js, err)
		}
	}
}

// waitFor polls the expression until it is true or the deadline passes.
func (b *browser) waitFor(js string, within time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(within)
	for {
		var ok bool
		b.eval("!!("+js+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			b.shot("timeout")
			b.t.Fatalf("%s: %s was not true within %v", b.name, js, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	var s string
	b.eval(fmt.Sprintf("document.querySelector(%q)?.textContent ?? ''", sel), &s)
	return s
}

// shot saves a screenshot of the whole page as NAME-STAGE.png.
func (b *browser) shot(stage string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("%s: screenshot %s: %v", b.name, stage, err)
		return
	}
	p := filepath.Join(b.dir, fmt.Sprintf("%s-%s.png", b.name, stage))
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Error(err)
	}
}

// noHorizontalScroll fails when the page is wider than the device (a
// phone browser then zooms out or scrolls sideways), naming the elements
// that stick out.
func (b *browser) noHorizontalScroll(stage string) {
	b.t.Helper()
	var r struct {
		Scroll float64  `json:"scroll"`
		Wide   []string `json:"wide"`
	}
	b.eval(fmt.Sprintf(`(() => {
  const w = %d;
  // A drawing's parts may reach past its svg, which clips them: the svg
  // itself is what takes room on the page.
  const wide = [...document.querySelectorAll('body *')].filter(e => !(e.ownerSVGElement) && e.getBoundingClientRect().right > w + 0.5)
    .slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + ' ' + Math.round(e.getBoundingClientRect().right));
  return {scroll: document.documentElement.scrollWidth, wide};
})()`, b.width), &r)
	if r.Scroll > float64(b.width) || len(r.Wide) > 0 {
		b.shot("wide-" + stage)
		b.t.Errorf("%s: %s: the page is %v px wide on a %d px screen; sticking out: %v", b.name, stage, r.Scroll, b.width, r.Wide)
	}
}

// click clicks the element sel as a person would (a tap on a phone, else
// a mouse click), in a single task of the page: a point of the element is
// found with the browser's hit testing (elementFromPoint) and the pointer
// and click events go to what is there. The page cannot be drawn again
// between finding the element and clicking it (its list of rooms loading,
// say, which moves the buttons), so the click lands on what was aimed at.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("document.querySelector(%q)", sel), 15*time.Second)
	js := fmt.Sprintf(`(() => {
  const touch = %t;
%s
  const el = document.querySelector(%q);
  if (!el) return 'gone';
  const p = point(el, (e) => el.contains(e));
  if (!p) return 'covered';
  press(p);
  return 'clicked';
})()`, b.width < 600, pointerJS, sel)
	deadline := time.Now().Add(15 * time.Second)
	for {
		var got string
		b.eval(js, &got)
		if got == "clicked" {
			return
		}
		if time.Now().After(deadline) {
			b.shot("click")
			b.t.Fatalf("%s: %s cannot be clicked: %s", b.name, sel, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// typeInto types text into an input as a person does, after emptying it.
// A page drawn again while the keys arrive (its list of rooms loading, say)
// keeps the value it had in its state, so the text is typed again until
// the field holds exactly it.
func (b *browser) typeInto(sel, text string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("document.querySelector(%q)", sel), 15*time.Second)
	deadline := time.Now().Add(30 * time.Second)
	for try := 1; ; try++ {
		b.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true})); e.focus(); })()`, sel), nil)
		b.run(chromedp.KeyEvent(text))
		// The field holds the text once the keys are handled; a page drawn
		// again meanwhile may have put its old value back.
		for wait := time.Now().Add(time.Second); ; {
			var ok bool
			b.eval(fmt.Sprintf(`document.querySelector(%q)?.value === %q`, sel, text), &ok)
			if ok {
				return
			}
			if time.Now().After(wait) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			b.shot("typing")
			b.t.Fatalf("%s: %s does not hold %q after typing it %d times in 30 s", b.name, sel, text, try)
		}
	}
}

// choose sets a select's or a number field's value, as picking it does.
func (b *browser) choose(sel, value string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("document.querySelector(%q)", sel), 15*time.Second)
	var ok bool
	b.eval(fmt.Sprintf(`(() => {
  const e = document.querySelector(%q);
  e.value = %q;
  e.dispatchEvent(new Event('change', {bubbles: true}));
  return e.value === %q;
})()`, sel, value, value), &ok)
	if !ok {
		b.t.Fatalf("%s: %s has no choice %q", b.name, sel, value)
	}
}

// claimMove is one move of a player, run by the page in a single task so
// that no update can be drawn between reading the cards and clicking: it
// reads the player's own top card and the card it is compared with (the
// centre card, or in a duel the other pile), finds the symbol they share
// and, when that pair differs from the one last claimed (its first
// argument), clicks the shared symbol on the player's own card. The click
// goes where the browser's hit testing puts a point of the symbol's
// picture: the point is chosen with elementFromPoint and the pointer and
// click events are dispatched to the element found there: a touch when
// its second argument says the browser is a phone, else a mouse click. A click made this way is always
// aimed at the cards on screen, so the server may find it too late but
// never wrong.
//
// The answer names the pair ("key"), the symbol clicked (-1 when the
// cards share none), whether it clicked, why not when it could not, the
// table's title and where the two cards are on the page.
const claimMove = `((last, touch) => {
  const mine = document.querySelector('.seat.mine [data-kind="pile"] svg.face');
  if (!mine) return null;
  const centre = document.querySelector('.shared [data-kind="centre"]');
  const other = centre ? centre.querySelector('svg.face') : document.querySelector('.seat:not(.mine) [data-kind="pile"] svg.face');
  if (!other) return null;
  const key = mine.dataset.card + '/' + other.dataset.card;
  if (key === last) return null;
  const theirs = new Set([...other.querySelectorAll('g[data-symbol]')].map(g => g.getAttribute('data-symbol')));
  const g = [...mine.querySelectorAll('g[data-symbol]')].find(g => theirs.has(g.getAttribute('data-symbol')));
  const out = {key, symbol: -1, clicked: false, why: '', table: document.querySelector('.playhead h1')?.textContent ?? ''};
  if (!g) return out;
  out.symbol = Number(g.getAttribute('data-symbol'));
  g.scrollIntoView({block: 'nearest'});
  const zoneTop = (svg) => svg.closest('[data-zone]').getBoundingClientRect().top + window.scrollY;
  out.mineTop = zoneTop(mine);
  out.otherTop = zoneTop(other);
  // tap taps symbol g where it is under the pointer, and says whether
  // it could.
  const tap = (g) => {
    const r = g.getBoundingClientRect();
    let x = 0, y = 0, target = null;
    search: for (let i = 0; i <= 8; i++) {
      for (let j = 0; j <= 8; j++) {
        const px = r.left + r.width * (0.5 + (i & 1 ? 1 : -1) * Math.ceil(i / 2) / 10);
        const py = r.top + r.height * (0.5 + (j & 1 ? 1 : -1) * Math.ceil(j / 2) / 10);
        const e = document.elementFromPoint(px, py);
        if (e && e.closest('g[data-symbol]') === g) { x = px; y = py; target = e; break search; }
      }
    }
    if (!target) {
      out.why = 'no point of the symbol is under the pointer: ' + (document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.outerHTML ?? 'nothing').slice(0, 120);
      return false;
    }
    const at = {bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, button: 0};
    const pointer = {...at, pointerId: 1, isPrimary: true, pointerType: touch ? 'touch' : 'mouse'};
    target.dispatchEvent(new PointerEvent('pointerdown', {...pointer, buttons: 1}));
    target.dispatchEvent(new PointerEvent('pointerup', pointer));
    target.dispatchEvent(new MouseEvent('click', {...at, detail: 1}));
    return true;
  };
  if (!tap(g)) return out;
  // On a crowded table (a phone's, with a symbol too small for a
  // finger) the tap brought the card up large: the symbol is tapped
  // there.
  const focus = document.querySelector('.table .focus');
  if (focus) {
    const fg = focus.querySelector('svg.face[data-card="' + mine.dataset.card + '"] g[data-symbol="' + out.symbol + '"]');
    if (!fg) { out.why = 'the focus view does not show symbol ' + out.symbol + ' of card ' + mine.dataset.card; return out; }
    if (!tap(fg)) return out;
  }
  out.clicked = true;
  return out;
})(%s, %t)`

// move is what claimMove answers.
type move struct {
	Key      string  `json:"key"`
	Symbol   int     `json:"symbol"`
	Clicked  bool    `json:"clicked"`
	Why      string  `json:"why"`
	Table    string  `json:"table"`
	MineTop  float64 `json:"mineTop"`
	OtherTop float64 `json:"otherTop"`
}

// claimIfNew makes one move (claimMove) when the pair of cards differs
// from the one last claimed; it reports whether it clicked. Each table's
// first move notes where the two cards are on the page, and every later
// move checks that they are still there: a card that an update moves
// would put a person's tap on another card.
func (b *browser) claimIfNew(last *string, tops map[string][2]float64) bool {
	b.t.Helper()
	lastJS, _ := json.Marshal(*last)
	var m *move
	b.eval(fmt.Sprintf(claimMove, lastJS, b.width < 600), &m)
	if m == nil {
		return false
	}
	*last = m.Key
	if m.Symbol < 0 {
		b.shot("no-match")
		b.t.Fatalf("%s: the player's card and the card it is compared with share no symbol (%s)", b.name, m.Key)
	}
	if !m.Clicked {
		b.shot("no-click")
		b.t.Fatalf("%s: symbol %d of the player's card cannot be clicked: %s", b.name, m.Symbol, m.Why)
	}
	at := [2]float64{m.MineTop, m.OtherTop}
	if first, ok := tops[m.Table]; !ok {
		tops[m.Table] = at
	} else if math.Abs(first[0]-at[0]) > 1 || math.Abs(first[1]-at[1]) > 1 {
		b.shot("moved")
		b.t.Fatalf("%s: %s: the cards moved during the game: the player's card and the card it is compared with were %v px from the top of the page, now %v", b.name, m.Table, first, at)
	}
	return true
}

// towerPlayer is a person playing the Tower (or a duel) with claimMove.
type towerPlayer struct {
	*browser
	last string
	tops map[string][2]float64
	// claims counts the clicks made.
	claims int
}

func newTowerPlayer(b *browser) *towerPlayer {
	return &towerPlayer{browser: b, tops: map[string][2]float64{}}
}

func (p *towerPlayer) page() *browser { return p.browser }

func (p *towerPlayer) move() bool {
	p.t.Helper()
	if !p.claimIfNew(&p.last, p.tops) {
		return false
	}
	p.claims++
	return true
}

// claimStats reads the page's count of the player's claims in the last
// table, on the results screen: right, wrong and too late; shown is false
// when the page shows no count (the player had no seat at that table).
func (b *browser) claimStats() (right, wrong, late int, shown bool) {
	b.t.Helper()
	var s struct {
		Right, Wrong, Late int
		Shown              bool
	}
	b.eval(`(() => { const p = document.querySelector('#my-claims'); return p ? {shown: true, right: Number(p.dataset.right), wrong: Number(p.dataset.wrong), late: Number(p.dataset.late)} : {shown: false}; })()`, &s)
	return s.Right, s.Wrong, s.Late, s.Shown
}

// TestBrowserTower: two people in two browsers (one a phone) create and
// join a room and play the Tower on the classic deck to the end, each
// clicking the symbol their card shares with the centre card, taking the
// tables in turn (see turns): every click is a claim the server accepts,
// and both see the results, with each person's cards won.
func TestBrowserTower(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	shots := screenshotDir(t)
	alice := newBrowser(t, "alice-desktop", shots, 1280, 900)
	bob := newBrowser(t, "bob-phone", shots, 375, 667)

	const aliceName = `<b>Alice</b>`
	alice.run(chromedp.Navigate(base + "/"))
	alice.waitFor(`document.querySelector('#create')`, 15*time.Second)
	alice.shot("1-home")
	alice.typeInto("#nickname", aliceName)
	alice.choose("#game", "tower")
	alice.choose("#seats", "2")
	alice.choose("#seat-1", "")
	alice.choose("#games", "1")
	alice.click("#create")
	alice.waitFor(`document.querySelector('#room-code')?.textContent.length === 8`, 15*time.Second)
	code := alice.text("#room-code")
	alice.shot("2-lobby")

	bob.run(chromedp.Navigate(base + "/r/" + code))
	bob.waitFor(`document.querySelector('#join-room')`, 15*time.Second)
	bob.noHorizontalScroll("home")
	bob.shot("1-share-link")
	bob.typeInto("#nickname", "Bob")
	bob.click("#join-room")
	bob.waitFor(`document.querySelectorAll('#seats li').length === 2`, 15*time.Second)
	bob.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 15*time.Second)
	bob.noHorizontalScroll("lobby")
	bob.shot("2-lobby")

	// The host sees Bob arrive; Alice's markup is shown as text everywhere.
	alice.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 15*time.Second)
	for _, b := range []*browser{alice, bob} {
		var asText bool
		b.eval(`document.querySelector('#seats').textContent.includes('<b>Alice</b>') && !document.querySelector('#seats b')`, &asText)
		if !asText {
			t.Errorf("%s: the nickname %q is not shown as text in the lobby", b.name, aliceName)
		}
	}

	alice.click("#start")
	for _, b := range []*browser{alice, bob} {
		b.waitFor(`document.querySelector('.seat.mine svg.face g[data-symbol]')`, 30*time.Second)
	}

	// The two take the tables in turn until the session is over: 53
	// claims, an odd number, so that nobody ties and no duel follows.
	players := []*towerPlayer{newTowerPlayer(alice), newTowerPlayer(bob)}
	checked := make([]bool, len(players))
	inTurn(t, []mover{players[0], players[1]}).play(4*time.Minute, func() {
		for i, p := range players {
			if p.claims == 4 && !checked[i] {
				checked[i] = true
				// The Tower has no draw and no choice of card.
				p.checkKeys("move act number sound", "Keys: Tab/←→ move between symbols · Enter/Space claim the symbol · 1–9 name a symbol of your card · M sound on/off")
				// The round trip the server measured with its pings,
				// which it credits to the claims, is shown on the table.
				p.waitFor(`/^Round trip \d+ ms$/.test(document.querySelector('#latency')?.textContent)`, 15*time.Second)
				p.shot("3-play")
				p.noHorizontalScroll("play")
			}
		}
	})

	for _, p := range players {
		b := p.browser
		b.waitFor(`document.querySelector('#winner')?.textContent.length > 0`, 15*time.Second)
		b.waitFor(`document.querySelectorAll('#standings tbody tr').length === 2`, 15*time.Second)
		rows := b.text("#standings tbody")
		for _, who := range []string{aliceName, "Bob"} {
			if !strings.Contains(rows, who) {
				t.Errorf("%s: the session standings do not name %q: %q", b.name, who, rows)
			}
		}
		var asText bool
		b.eval(`!document.querySelector('.results b')`, &asText)
		if !asText {
			t.Errorf("%s: a nickname's markup became an element on the results screen", b.name)
		}
		// Nobody else claimed on the player's tables, and every click was
		// on the shared symbol: each was a claim the server accepted.
		right, wrong, late, shown := b.claimStats()
		if !shown || right != p.claims || wrong != 0 || late != 0 {
			t.Errorf("%s: the page counts %d claims right, %d wrong and %d too late; the player made %d, on tables nobody else claimed on", b.name, right, wrong, late, p.claims)
		}
		b.shot("4-results")
	}
	bob.noHorizontalScroll("results")
	var rows int
	alice.eval(`document.querySelectorAll('#result tbody tr').length`, &rows)
	if rows != 2 {
		t.Fatalf("the results list %d seats, want the 2 of the Tower (a tie-break cannot follow 53 claims taken in turn)", rows)
	}
	// Each holds the card dealt and every card claimed, and together the
	// whole classic deck.
	var scores map[string]int
	alice.eval(`Object.fromEntries([...document.querySelectorAll('#result tbody tr')].map(tr => [tr.children[1].textContent, parseInt(tr.children[2].textContent, 10)]))`, &scores)
	if total := scores[aliceName] + scores["Bob"]; total != 55 {
		t.Errorf("the results' scores %v add up to %d cards, want 55", scores, total)
	}
	for i, who := range []string{aliceName, "Bob"} {
		if scores[who] != players[i].claims+1 {
			t.Errorf("%s holds %d cards (results %v); they were dealt 1 and claimed %d", who, scores[who], scores, players[i].claims)
		}
	}
}

// TestBrowserLanguage switches the interface language on the home page
// and checks that the text changes (the game options' names, descriptions
// and choices too), that the choice is remembered across a reload, and
// that a phone-size home page does not scroll sideways.
func TestBrowserLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	shots := screenshotDir(t)
	b := newBrowser(t, "lang-phone", shots, 375, 667)
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#create')`, 15*time.Second)
	if got := b.text("#create"); got != "Create the room" {
		t.Errorf("English create button says %q", got)
	}
	// A game with options: their names, descriptions and choices come
	// from the client's dictionaries in every language.
	b.choose("#game", "well")
	b.waitFor(`document.querySelector('#opt-end-doc')`, 15*time.Second)
	optionTexts := `[document.querySelector('#opt-end').closest('label').querySelector('span').textContent, document.querySelector('#opt-end-doc').textContent, ...[...document.querySelectorAll('#opt-end option')].map((o) => o.textContent)]`
	var english []string
	b.eval(optionTexts, &english)
	if want := []string{"End", "At the first empty pile: the first to empty their pile wins and the others are ranked by the cards they have left. The last one loses: play on until one player is left holding cards, who loses.", "at the first empty pile", "the last one loses"}; !slices.Equal(english, want) {
		t.Errorf("the Well's option reads %q, want %q", english, want)
	}
	b.noHorizontalScroll("home-en")
	b.shot("home-en")
	want := map[string]string{
		"pl": "Załóż pokój", "da": "Opret rummet", "ru": "Создать комнату",
		"zh": "创建房间", "it": "Crea la stanza", "en": "Create the room",
	}
	for _, l := range []string{"pl", "da", "ru", "zh", "it"} {
		b.choose("#lang", l)
		b.waitFor(fmt.Sprintf(`document.documentElement.lang === %q`, l), 15*time.Second)
		if got := b.text("#create"); got != want[l] {
			t.Errorf("%s: the create button says %q, want %q", l, got, want[l])
		}
		var texts []string
		b.eval(optionTexts, &texts)
		for i, s := range texts {
			if s == "" || i < len(english) && s == english[i] {
				t.Errorf("%s: the Well's option reads %q, as in English %q", l, texts, english)
				break
			}
		}
		b.noHorizontalScroll("home-" + l)
		b.shot("home-" + l)
	}
	b.run(chromedp.Reload())
	b.waitFor(`document.querySelector('#create')`, 15*time.Second)
	if got := b.text("#create"); got != want["it"] {
		t.Errorf("after a reload the create button says %q, want the remembered Italian %q", got, want["it"])
	}
}

// clickCentrePair is a move of learning mode, run by the page in a single
// task: it reads the two face-up cards of the centre, finds the symbol
// they share and, when that pair differs from the one last claimed (its
// argument), clicks the shared symbol on the first card with a mouse
// click at a point that the browser's hit testing puts on the symbol. The
// answer names the pair ("key"), the symbol and whether it clicked.
const clickCentrePair = `((last) => {
  const faces = [...document.querySelectorAll('.shared [data-kind="centre"] svg.face')];
  if (faces.length !== 2) return null;
  const key = faces[0].dataset.card + '/' + faces[1].dataset.card;
  if (key === last) return null;
  const theirs = new Set([...faces[1].querySelectorAll('g[data-symbol]')].map(g => g.getAttribute('data-symbol')));
  const g = [...faces[0].querySelectorAll('g[data-symbol]')].find(g => theirs.has(g.getAttribute('data-symbol')));
  const out = {key, symbol: -1, clicked: false};
  if (!g) return out;
  out.symbol = Number(g.getAttribute('data-symbol'));
  g.scrollIntoView({block: 'nearest'});
  const r = g.getBoundingClientRect();
  for (let i = 0; i <= 8; i++) {
    for (let j = 0; j <= 8; j++) {
      const x = r.left + r.width * (0.5 + (i & 1 ? 1 : -1) * Math.ceil(i / 2) / 10);
      const y = r.top + r.height * (0.5 + (j & 1 ? 1 : -1) * Math.ceil(j / 2) / 10);
      const e = document.elementFromPoint(x, y);
      if (!e || e.closest('g[data-symbol]') !== g) continue;
      const at = {bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, button: 0};
      const pointer = {...at, pointerId: 1, isPrimary: true, pointerType: 'mouse'};
      e.dispatchEvent(new PointerEvent('pointerdown', {...pointer, buttons: 1}));
      e.dispatchEvent(new PointerEvent('pointerup', pointer));
      e.dispatchEvent(new MouseEvent('click', {...at, detail: 1}));
      out.clicked = true;
      return out;
    }
  }
  return out;
})(%s)`

// claimCentre makes one learning-mode move (clickCentrePair) when the
// centre pair differs from the one last claimed; it reports whether it
// clicked and fails the test when the pair shares no symbol or the symbol
// cannot be clicked.
func (b *browser) claimCentre(last *string) bool {
	b.t.Helper()
	lastJS, _ := json.Marshal(*last)
	var m *struct {
		Key     string `json:"key"`
		Symbol  int    `json:"symbol"`
		Clicked bool   `json:"clicked"`
	}
	b.eval(fmt.Sprintf(clickCentrePair, lastJS), &m)
	if m == nil {
		return false
	}
	*last = m.Key
	if m.Symbol < 0 {
		b.shot("no-match")
		b.t.Fatalf("%s: the two centre cards %s share no symbol", b.name, m.Key)
	}
	if !m.Clicked {
		b.shot("no-click")
		b.t.Fatalf("%s: symbol %d of the centre pair %s cannot be clicked", b.name, m.Symbol, m.Key)
	}
	return true
}

// myScore is the score shown on the player's own seat, or -1 when none is.
func (b *browser) myScore() int {
	b.t.Helper()
	var n int
	b.eval(`(() => { const s = document.querySelector('.seat.mine .score'); return s ? Number(s.dataset.score) : -1; })()`, &n)
	return n
}

// TestBrowserLearning starts learning mode alone from the home page with
// one click and finds three pairs: each time the page shows two new cards
// and the count of pairs found goes up by one.
func TestBrowserLearning(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	shots := screenshotDir(t)
	b := newBrowser(t, "learn-desktop", shots, 1280, 900)
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#learn-alone')`, 15*time.Second)
	b.typeInto("#nickname", "Lea")
	b.click("#learn-alone")
	const pair = `document.querySelectorAll('.shared [data-kind="centre"] svg.face g[data-symbol]').length === 16`
	b.waitFor(pair, 30*time.Second)
	b.waitFor(`document.querySelector('.seat.mine .score')`, 15*time.Second)
	b.shot("1-pair")
	if n := b.myScore(); n != 0 {
		t.Fatalf("before any claim the page counts %d pairs found, want 0", n)
	}
	seen := map[string]bool{}
	last := ""
	for i := 1; i <= 3; i++ {
		if !b.claimCentre(&last) {
			b.shot("no-pair")
			t.Fatalf("claim %d: the page shows no new pair of cards (last %s)", i, last)
		}
		seen[last] = true
		b.waitFor(fmt.Sprintf(`Number(document.querySelector('.seat.mine .score')?.dataset.score) === %d`, i), 15*time.Second)
		b.waitFor(pair+fmt.Sprintf(` && (() => { const f = document.querySelectorAll('.shared [data-kind="centre"] svg.face'); return f[0].dataset.card + '/' + f[1].dataset.card !== %q; })()`, last), 15*time.Second)
		var key string
		b.eval(`[...document.querySelectorAll('.shared [data-kind="centre"] svg.face')].map(f => f.dataset.card).join('/')`, &key)
		for _, c := range strings.Split(key, "/") {
			for k := range seen {
				if slices.Contains(strings.Split(k, "/"), c) {
					t.Errorf("after claim %d the centre shows card %s again (pairs claimed: %v)", i, c, seen)
				}
			}
		}
		b.shot(fmt.Sprintf("%d-found", i+1))
	}
}

// TestBrowserHistory plays a short game of learning mode (two pairs) to
// the end, then finds it on the history page and replays it: the next
// step changes the table shown, and the last step shows the pairs won.
func TestBrowserHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	shots := screenshotDir(t)
	b := newBrowser(t, "history-desktop", shots, 1280, 900)
	b.run(chromedp.Navigate(base + "/"))
	b.typeInto("#nickname", "Hana")
	b.choose("#game", "learning")
	b.choose("#seats", "1")
	b.choose("#opt-pairs", "2")
	b.choose("#games", "1")
	b.click("#create")
	b.click("#start")
	b.waitFor(`document.querySelectorAll('.shared [data-kind="centre"] svg.face').length === 2`, 30*time.Second)
	last := ""
	claims := 0
	deadline := time.Now().Add(60 * time.Second)
	for {
		var over bool
		b.eval(`!!document.querySelector('#grand')`, &over)
		if over {
			break
		}
		if time.Now().After(deadline) {
			b.shot("timeout")
			t.Fatalf("the game of two pairs did not end within 60 s (claims made: %d)", claims)
		}
		if b.claimCentre(&last) {
			claims++
		}
		time.Sleep(30 * time.Millisecond)
	}
	b.shot("1-results")

	b.click("#nav-history")
	b.waitFor(`document.querySelectorAll('#history li[data-id]').length === 1`, 15*time.Second)
	line := b.text("#history li[data-id]")
	for _, want := range []string{"Learning mode", "Winner: Hana", "Hana: 2 pairs"} {
		if !strings.Contains(line, want) {
			t.Errorf("the history's line does not say %q: %q", want, line)
		}
	}
	b.shot("2-history")

	b.click("#history li[data-id] a")
	b.waitFor(`document.querySelector('#r-step') && document.querySelector('#replay-table svg.face')`, 15*time.Second)
	const shown = `[...document.querySelectorAll('#replay-table [data-zone]')].map(z => z.dataset.zone + ':' + z.dataset.count + ':' + [...z.querySelectorAll('svg.face')].map(f => f.dataset.card).join(',')).join(' ')`
	var first, step string
	b.eval(shown, &first)
	step = b.text("#r-step")
	if !strings.HasPrefix(step, "Step 1 of ") {
		t.Errorf("the replay opens at %q, want step 1", step)
	}
	var early bool
	b.eval(`!!document.querySelector('#r-outcome')`, &early)
	if early {
		t.Errorf("the replay's first step already names a winner: %q", b.text("#r-outcome"))
	}
	b.shot("3-replay-first")
	b.click("#r-next")
	b.waitFor(`document.querySelector('#r-step').textContent.startsWith('Step 2 of ')`, 15*time.Second)
	b.waitFor(shown+fmt.Sprintf(` !== %q`, first), 15*time.Second)
	b.shot("4-replay-next")

	b.click("#r-last")
	b.waitFor(`(() => { const m = /Step (\d+) of (\d+)/.exec(document.querySelector('#r-step').textContent); return m && m[1] === m[2]; })()`, 15*time.Second)
	b.waitFor(`document.querySelector('#replay-table .seat .score')?.dataset.score === '2'`, 15*time.Second)
	// The last step says how the game ended.
	b.waitFor(`document.querySelector('#r-outcome')`, 15*time.Second)
	if got, want := b.text("#r-outcome"), "Winner: Hana — Hana: 2 pairs"; got != want {
		t.Errorf("the replay's last step says %q, want %q", got, want)
	}
	b.shot("5-replay-last")

	// The keys step through the replay as the page says: ← back a step,
	// → on a step, from the last step's button still in focus or from
	// the page.
	stepIs := func(back int) string {
		return fmt.Sprintf(`(() => { const m = /Step (\d+) of (\d+)/.exec(document.querySelector('#r-step').textContent); return m && Number(m[2]) - Number(m[1]) === %d; })()`, back)
	}
	b.run(chromedp.KeyEvent(kb.ArrowLeft))
	b.waitFor(stepIs(1), 15*time.Second)
	b.run(chromedp.KeyEvent(kb.ArrowLeft))
	b.waitFor(stepIs(2), 15*time.Second)
	b.eval(`document.activeElement?.blur(), true`, nil)
	b.run(chromedp.KeyEvent(kb.ArrowRight))
	b.waitFor(stepIs(1), 15*time.Second)
}
