package e2e

// Helpers for the browser tests of every kind of move: a person's move in
// any game, made by the page in one task; people taking the tables in
// turn (turns); a log of the tables a page draws; rooms created through
// the home page's form; screenshots in both layouts.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// personMove is one move of a person in any game, run by the page in a
// single task so that no update can be drawn between reading the table
// and the clicks. It reads the table on screen (the version it shows is
// the table's data-version), finds a claim the cards allow and makes it
// with the clicks a person makes: the shared symbol on one card and,
// where the page then asks which card is meant (the cards offered are
// outlined), the card meant. In Anarchy Pancakes, with no claim on the
// table, it presses the Draw button. Clicks go where the browser's hit
// testing puts a point of the element, as pointer and click events
// (a touch on a phone).
//
// Arguments: the key of the table last moved on (the title and version:
// one move per version), whether the page is a phone's, the number of
// moves made so far (which card of a pair is clicked alternates with it),
// a modulus and remainder: the move is made only on versions v with
// v % mod == rem, so that several players can share the versions; and
// whether to draw now (Anarchy Pancakes), claim or not.
//
// The answer: key, game, version, mode ("direct": the click on the
// target's card named it; "chose": the page offered a choice and the
// target was picked from it; "auto": the page worked the target out;
// "plain": a game without targets; "draw"; "none": nothing to do), the
// symbol and its name, the target intended and the zones offered; focused,
// when the first tap brought the card up large (a crowded table on a
// phone) and the symbol was tapped there; why, when a click could not be
// made.
const personMove = `(last, touch, n, mod, rem, drawNow, shape) => {
  const play = document.querySelector('.play');
  const tbl = document.querySelector('.table[data-version]');
  if (!play || !tbl || document.querySelector('.zone.choice')) return null;
  const version = Number(tbl.dataset.version);
  const key = (document.querySelector('.playhead h1')?.textContent ?? '') + '#' + version;
  if (key === last) return null;
  const game = ([...play.classList].find((c) => c.startsWith('game-')) || 'game-').slice(5);
  const out = {key, game, version, mode: 'none', symbol: -1, target: [], offered: [], why: ''};
  if (version % mod !== rem) return out;
  const zones = [...tbl.querySelectorAll('[data-zone]')].filter((el) => !el.hidden).map((el) => {
    const seat = el.closest('.seat');
    const faces = el.querySelectorAll('svg.face');
    const top = faces.length ? faces[faces.length - 1] : null;
    return {el, zone: Number(el.dataset.zone), kind: el.dataset.kind, count: Number(el.dataset.count),
      mine: !!seat && seat.classList.contains('mine'), seat: seat ? Number(seat.dataset.seat) : -1, top,
      syms: top ? [...top.querySelectorAll('g[data-symbol]')].map((g) => Number(g.getAttribute('data-symbol'))) : []};
  });
  const withTop = zones.filter((z) => z.top);
  const own = withTop.filter((z) => z.mine && z.kind === 'pile');
  const others = withTop.filter((z) => !z.mine && z.seat >= 0 && z.kind === 'pile');
  const centre = withTop.filter((z) => z.kind === 'centre');
  const kind = (k) => withTop.filter((z) => z.kind === k);
  const common = (a, b) => a.syms.find((s) => b.syms.includes(s));
  // Moves: click symbol on card "on"; "target" is the claim's target;
  // "rivals" the cards the page may offer for the same symbol.
  const moves = [];
  const pairs = (from, tos, single) => {
    for (const a of from) for (const b of tos) {
      const s = common(a, b);
      if (s === undefined) continue;
      const rivals = tos.filter((z) => z.syms.includes(s));
      moves.push({symbol: s, src: a, dst: b, rivals, single});
    }
  };
  switch (game) {
  case 'hot-potato': case 'subway-rescue': pairs(own, game === 'hot-potato' ? others : kind('layout'), true); break;
  case 'poisoned-gift': pairs(centre, others, true); break;
  case 'catch-them-all': pairs(centre, kind('ring'), true); break;
  case 'anarchy-pancakes': pairs(own, [...centre, ...others], false); break;
  case 'tower-7': pairs(own, others, false); break;
  case 'tower': case 'well': pairs(own, centre, null); break;
  case 'duel': pairs(own, others, null); break;
  case 'learning': {
    const c = centre[0] ? [...centre[0].el.querySelectorAll('svg.face')] : [];
    if (c.length === 2) {
      const syms = (f) => [...f.querySelectorAll('g[data-symbol]')].map((g) => Number(g.getAttribute('data-symbol')));
      const s = syms(c[0]).find((x) => syms(c[1]).includes(x));
      if (s !== undefined) moves.push({symbol: s, src: centre[0], dst: null, rivals: [], single: null});
    }
    break;
  }
  default: {
    // A game this model does not name: a claim without targets, read
    // from the game's declared shape (the two places whose top cards
    // must show the symbol).
    const whose = {mine: (z) => z.mine, others: (z) => !z.mine && z.seat >= 0, shared: (z) => z.seat < 0,
      notMine: (z) => !z.mine, any: () => true};
    const place = (p) => withTop.filter((z) => p.kinds.includes(z.kind) && whose[p.whose](z));
    if (shape && !(shape.targets || []).length && (shape.match || []).length === 2) pairs(place(shape.match[0]), place(shape.match[1]), null);
    break;
  }
  case 'triplets': {
    const slots = kind('slot');
    const count = new Map();
    for (const z of slots) for (const s of z.syms) count.set(s, (count.get(s) || 0) + 1);
    for (const [s, c] of count) if (c >= 3) {
      const on = slots.filter((z) => z.syms.includes(s));
      moves.push({symbol: s, src: on[n % on.length], dst: null, rivals: on, single: null, three: true});
    }
    break;
  }
  }
` + pointerJS + `
  const stock = zones.find((z) => z.kind === 'stock');
  if (!moves.length || drawNow) {
    const btn = document.querySelector('#draw');
    if (game === 'anarchy-pancakes' && btn && stock && stock.count > 0) {
      const p = point(btn, (e) => e.closest('#draw') === btn);
      if (!p) { out.why = 'the Draw button cannot be pressed'; return out; }
      press(p);
      out.mode = 'draw';
    }
    return out;
  }
  // A move whose first click leaves a choice is taken when there is one,
  // so that the page's choice is used; else the clicked card alternates.
  const choice = moves.find((m) => m.single !== null && !m.three && m.rivals.length > 1);
  const m = choice || moves[n % moves.length];
  out.symbol = m.symbol;
  let on = m.src;
  if (m.dst) {
    out.target = m.single === false ? [m.src.zone, m.dst.zone] : m.single ? [m.dst.zone] : [];
    if (m.single !== null && !choice && n % 2 === 1) on = m.dst;
  }
  out.on = on.zone;
  const g = on.top.querySelector('g[data-symbol="' + m.symbol + '"]');
  const p = point(g, (e) => e.closest('g[data-symbol]') === g);
  if (!p) { out.why = 'no point of symbol ' + m.symbol + ' in zone ' + on.zone + ' is under the pointer'; return out; }
  press(p);
  out.name = g.getAttribute('aria-label') || '';
  // On a crowded table (a phone's, with cards too small for a finger's
  // tap on a symbol) the tap brought the card up large: the symbol is
  // tapped there.
  const focus = document.querySelector('.table .focus');
  if (focus) {
    out.focused = true;
    const fg = focus.querySelector('svg.face[data-card="' + on.top.dataset.card + '"] g[data-symbol="' + m.symbol + '"]');
    const fp = fg && point(fg, (e) => e.closest('g[data-symbol]') === fg);
    if (!fp) { out.why = 'symbol ' + m.symbol + ' cannot be tapped in the focus view of zone ' + on.zone; return out; }
    press(fp);
    if (document.querySelector('.table .focus')) { out.why = 'the focus view of zone ' + on.zone + ' stays up after a tap on symbol ' + m.symbol; return out; }
  }
  out.mode = m.three ? 'auto' : m.single === null ? 'plain' : on === m.src && m.rivals.length > 1 ? 'chose' : on === m.dst ? 'direct' : 'auto';
  const offered = [...document.querySelectorAll('.zone.choice')].map((z) => Number(z.dataset.zone));
  out.offered = offered;
  if (!offered.length) {
    if (out.mode === 'chose') { out.why = 'the page offered no choice for a symbol on ' + m.rivals.length + ' cards'; }
    return out;
  }
  // The page asks which card: a stack of one's own when the click was on
  // the card to cover in Anarchy Pancakes, else the target.
  const want = offered.includes(m.dst.zone) ? m.dst.zone : m.src.zone;
  if (!offered.includes(want)) { out.why = 'the page offered ' + offered + ', not ' + want; return out; }
  const zel = document.querySelector('.table [data-zone="' + want + '"]');
  const q = point(zel, (e) => e.closest('[data-zone]') === zel);
  if (!q) { out.why = 'the offered card ' + want + ' cannot be clicked'; return out; }
  press(q);
  out.mode = 'chose';
  if (document.querySelector('.zone.choice')) out.why = 'the choice is still offered after clicking card ' + want;
  return out;
}`

// pointerJS defines, inside a move script that has touch (whether the page
// is a phone's), point(el, inside), a point of el whose topmost element
// satisfies inside (scrolled into view; null when none), and press(p),
// which taps or clicks at point p as a person's finger or mouse does.
const pointerJS = `
  const point = (el, inside) => {
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) {
      const x = r.left + r.width * (0.5 + (i & 1 ? 1 : -1) * Math.ceil(i / 2) / 10);
      const y = r.top + r.height * (0.5 + (j & 1 ? 1 : -1) * Math.ceil(j / 2) / 10);
      const e = document.elementFromPoint(x, y);
      if (e && inside(e)) return {x, y, e};
    }
    return null;
  };
  const press = (p) => {
    const at = {bubbles: true, cancelable: true, composed: true, view: window, clientX: p.x, clientY: p.y, button: 0};
    const pointer = {...at, pointerId: 1, isPrimary: true, pointerType: touch ? 'touch' : 'mouse'};
    p.e.dispatchEvent(new PointerEvent('pointerdown', {...pointer, buttons: 1}));
    p.e.dispatchEvent(new PointerEvent('pointerup', pointer));
    p.e.dispatchEvent(new MouseEvent('click', {...at, detail: 1}));
  };
`

// pmove is what personMove answers.
type pmove struct {
	Key     string `json:"key"`
	Game    string `json:"game"`
	Version int    `json:"version"`
	Mode    string `json:"mode"`
	Symbol  int    `json:"symbol"`
	Target  []int  `json:"target"`
	Offered []int  `json:"offered"`
	Name    string `json:"name"`
	Focused bool   `json:"focused"`
	Why     string `json:"why"`
}

// player is a browser playing with personMove.
type player struct {
	*browser
	last  string
	moves int
	// mod and rem make the player move only on the versions v with
	// v % mod == rem, so that people at a table with a bot never claim
	// on the same version (people alone take the tables in turn).
	mod, rem int
	// modes counts the moves made by mode.
	modes map[string]int
	// drawNext makes the next move a draw, where the game has one.
	drawNext bool
	// shape is the JSON of the game's claim shape (rules.ClaimShape), for
	// a game the model of a person does not name.
	shape string
	// claims counts the moves other than draws by game: its name, or
	// "tie-break NAME" in a tie-break (English pages say so in the title).
	claims map[string]int
	// made is the last move made.
	made pmove
}

func newPlayer(b *browser) *player {
	return &player{browser: b, mod: 1, modes: map[string]int{}, claims: map[string]int{}}
}

// move makes one move when the table on screen is new to the player, and
// reports whether it made one.
func (p *player) move() bool {
	p.t.Helper()
	lastJS, _ := json.Marshal(p.last)
	var m *pmove
	shape := p.shape
	if shape == "" {
		shape = "null"
	}
	p.eval(fmt.Sprintf("(%s)(%s, %t, %d, %d, %d, %t, %s)", personMove, lastJS, p.width < 600, p.moves, p.mod, p.rem, p.drawNext, shape), &m)
	if m == nil {
		return false
	}
	p.last = m.Key
	if m.Why != "" {
		p.shot("bad-move")
		p.t.Fatalf("%s: %s: version %d: %s (move %+v)", p.name, m.Game, m.Version, m.Why, m)
	}
	if m.Mode == "none" {
		return false
	}
	p.moves++
	p.modes[m.Mode]++
	p.made = *m
	if m.Mode == "draw" {
		p.drawNext = false
	} else if title, _, _ := strings.Cut(m.Key, "#"); strings.Contains(title, "Tie-break") {
		p.claims["tie-break "+m.Game]++
	} else {
		p.claims[m.Game]++
	}
	return true
}

// playUntil makes the players' moves, each on every version new to it
// (see player.mod), until every page shows the session over (#grand) or
// the deadline passes.
func playUntil(t *testing.T, within time.Duration, players []*player) {
	t.Helper()
	deadline := time.Now().Add(within)
	over := make([]bool, len(players))
	for {
		all := true
		for i, p := range players {
			if !over[i] {
				p.eval(`!!document.querySelector('#grand')`, &over[i])
			}
			if !over[i] {
				all = false
				p.move()
			}
		}
		if all {
			return
		}
		if time.Now().After(deadline) {
			for _, p := range players {
				p.shot("timeout")
			}
			t.Fatalf("the session did not end within %v", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// drawnTable reads what a page shows of the game: over when the session
// is over (#grand); else the key (title and version) and the version of
// the table on screen once every picture of it is drawn, or no key while
// a picture loads or no table is shown.
const drawnTable = `(() => {
  if (document.querySelector('#grand')) return {over: true, key: '', version: -1};
  const t = document.querySelector('.xgame[data-version], .table[data-version]');
  if (!t || t.querySelector('.loading')) return {over: false, key: '', version: -1};
  return {over: false, key: (document.querySelector('.playhead h1')?.textContent ?? '') + '#' + t.dataset.version, version: Number(t.dataset.version)};
})()`

// drawn is what drawnTable answers.
type drawn struct {
	Over    bool   `json:"over"`
	Key     string `json:"key"`
	Version int    `json:"version"`
}

func (b *browser) drawn() drawn {
	b.t.Helper()
	var s drawn
	b.eval(drawnTable, &s)
	return s
}

// mover is a seat played through a page: move makes one move when the page
// shows something new to it, and reports whether it made one.
type mover interface {
	move() bool
	page() *browser
}

func (p *player) page() *browser { return p.browser }

// turns plays a table of people only, in lock step, so that nothing about
// the game depends on how fast a page, the server or the machine is: once
// every page (the players' and any spectator's) shows the same table with
// every picture drawn, one player moves on it. Version v is offered first
// to player v mod n, then to the next, until one has a move. So no two
// claims race, none arrives too late, and no page can skip a table: the
// next one comes only after every page has drawn this one.
type turns struct {
	t       *testing.T
	players []mover
	pages   []*browser
	// moved is the key of the table last moved on, and version its
	// version (-1 before any move).
	moved   string
	version int
}

// inTurn returns the lock step of players, whose pages it waits for, and
// of the spectators' pages watchers.
func inTurn(t *testing.T, players []mover, watchers ...*browser) *turns {
	l := &turns{t: t, players: players, pages: watchers, version: -1}
	for _, p := range players {
		l.pages = append(l.pages, p.page())
	}
	return l
}

// watch adds a spectator's page to those every move waits for.
func (l *turns) watch(b *browser) { l.pages = append(l.pages, b) }

// table returns the table every page shows, once they all show the same
// one with every picture drawn; ok is false while they do not, and over
// is true once every page shows the session over.
func (l *turns) table() (s drawn, ok, over bool) {
	l.t.Helper()
	first := true
	over = true
	ok = true
	for _, b := range l.pages {
		got := b.drawn()
		over = over && got.Over
		if got.Key == "" || !first && got.Key != s.Key {
			ok = false
		}
		if first {
			s, first = got, false
		}
	}
	return s, ok && !over, over
}

// step makes at most one move, on the table every page shows (see turns),
// and reports whether one was made and whether the session is over. A
// table moved on is offered to nobody else: the move makes the next.
func (l *turns) step() (moved, over bool) {
	l.t.Helper()
	s, ok, over := l.table()
	if !ok || s.Key == l.moved {
		return false, over
	}
	n := len(l.players)
	for i := range n {
		if l.players[(s.Version+i)%n].move() {
			l.moved, l.version = s.Key, s.Version
			return true, false
		}
	}
	return false, false
}

// settled waits until every page shows the same table, all drawn, newer
// than the one last moved on, and returns it.
func (l *turns) settled(within time.Duration) drawn {
	l.t.Helper()
	deadline := time.Now().Add(within)
	for {
		s, ok, _ := l.table()
		if ok && s.Key != l.moved && s.Version > l.version {
			return s
		}
		if time.Now().After(deadline) {
			l.timeout("the pages did not come to show the same table within %v", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// until makes the moves until done holds, failing the test when the
// session ends first or the deadline passes.
func (l *turns) until(within time.Duration, what string, done func() bool) {
	l.t.Helper()
	deadline := time.Now().Add(within)
	for !done() {
		moved, over := l.step()
		if over {
			l.t.Fatalf("the session ended before %s", what)
		}
		if time.Now().After(deadline) {
			l.timeout("not %s within %v", what, within)
		}
		if !moved {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// play makes the moves until every page shows the session over or the
// deadline passes; each, when not nil, is called after every step.
func (l *turns) play(within time.Duration, each func()) {
	l.t.Helper()
	deadline := time.Now().Add(within)
	for {
		moved, over := l.step()
		if over {
			return
		}
		if each != nil {
			each()
		}
		if time.Now().After(deadline) {
			l.timeout("the session did not end within %v", within)
		}
		if !moved {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// timeout shoots every page and fails the test, saying what each shows.
func (l *turns) timeout(format string, args ...any) {
	l.t.Helper()
	var seen []string
	for _, b := range l.pages {
		b.shot("timeout")
		s := b.drawn()
		seen = append(seen, fmt.Sprintf("%s: %+v", b.name, s))
	}
	l.t.Fatalf(format+"; the pages show %v", append(args, seen)...)
}

// roomSpec is what createRoom fills in on the home page's form.
type roomSpec struct {
	game    string
	deck    string
	seats   int
	bots    []string // seats 1…: a level, or "" for a person
	options map[string]string
	games   int
	scoring string
}

// createRoom opens the home page, fills in the form as a person does and
// creates the room; it returns the room's code.
func (b *browser) createRoom(base, name string, s roomSpec) string {
	b.t.Helper()
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#create')`, 15*time.Second)
	b.typeInto("#nickname", name)
	b.choose("#game", s.game)
	if s.deck != "" {
		b.choose("#deck", s.deck)
	}
	for k, v := range s.options {
		b.choose("#opt-"+k, v)
	}
	b.choose("#seats", fmt.Sprint(s.seats))
	for i, l := range s.bots {
		b.choose(fmt.Sprintf("#seat-%d", i+1), l)
	}
	if s.scoring != "" {
		b.choose("#scoring", s.scoring)
	}
	b.choose("#games", fmt.Sprint(max(1, s.games)))
	b.click("#create")
	b.waitFor(`document.querySelector('#room-code')?.textContent.length === 8`, 15*time.Second)
	return b.text("#room-code")
}

// checkKeys checks the play screen's footer of keys: the names of the
// parts it lists (its data-keys, e.g. "move act sound") and its text. The
// footer says what the keyboard does in the game shown, so it is the same
// all through a game; the page must be showing the play screen.
func (b *browser) checkKeys(parts, text string) {
	b.t.Helper()
	var got struct{ Keys, Text string }
	b.eval(`(() => { const k = document.querySelector('.play #keys'); return k ? {keys: k.dataset.keys, text: k.textContent} : {keys: 'no footer', text: ''}; })()`, &got)
	if got.Keys != parts || got.Text != text {
		b.shot("bad-keys")
		b.t.Errorf("%s: the footer lists keys %q: %q\nwant %q: %q", b.name, got.Keys, got.Text, parts, text)
	}
}

// shotBoth saves a screenshot of the page as it is and one at the other
// layout's size (a 375×667 touch phone for a desktop browser, 1280×900
// for a phone), checking that the phone's page does not scroll sideways,
// then puts the browser's own size back.
func (b *browser) shotBoth(stage string) {
	b.t.Helper()
	b.shot(stage)
	// The mouse leaves the page's symbols, or the new layout would put one
	// under it and show its name.
	b.run(chromedp.MouseEvent(chromedp.MouseMoved, 1, 1))
	phone := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch}
	if b.width < 600 {
		b.noHorizontalScroll(stage)
		b.run(chromedp.EmulateViewport(1280, 900))
		b.settle()
		b.shotAs("desktop", stage)
		b.run(chromedp.EmulateViewport(b.width, 667, phone...))
		b.settle()
		return
	}
	b.run(chromedp.EmulateViewport(375, 667, phone...))
	b.settle()
	w := b.width
	b.width = 375
	b.noHorizontalScroll(stage)
	b.width = w
	b.shotAs("phone", stage)
	b.run(chromedp.EmulateViewport(b.width, 900))
	b.settle()
}

// settle waits until the page has drawn two frames, so that the events of
// a change of the viewport (resize) have been handled.
func (b *browser) settle() {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: waiting for the page to draw: %v", b.name, err)
	}
}

// shotAs saves a screenshot named for another layout of the same page.
func (b *browser) shotAs(layout, stage string) {
	b.t.Helper()
	name := b.name
	for _, l := range []string{"-desktop", "-phone"} {
		name = strings.TrimSuffix(name, l)
	}
	saved := b.name
	b.name = name + "-" + layout
	b.shot(stage)
	b.name = saved
}

// tableRecorder makes the page log the table it draws at each version: for
// each version drawn (the table's data-version, with the table's title),
// every zone's number, card count and face-up cards, once every picture
// is drawn. A version drawn twice with different cards is logged as a
// conflict.
const tableRecorder = `(() => {
  if (window.tableLog) return true;
  window.tableLog = {drawn: {}, order: [], conflicts: []};
  const snap = () => {
    const t = document.querySelector('.table[data-version]');
    // A table drawn while a card's picture is loading is not finished.
    if (!t || t.querySelector('.loading')) return;
    const key = (document.querySelector('.playhead h1')?.textContent ?? '') + '#' + t.dataset.version;
    const sig = [...t.querySelectorAll('[data-zone]')].map((z) => Number(z.dataset.zone))
      .sort((a, b) => a - b).map((n) => { const z = t.querySelector('[data-zone="' + n + '"]');
        return n + ':' + z.dataset.count + ':' + [...z.querySelectorAll('svg.face')].map((f) => f.dataset.card).join(','); }).join(' ');
    const log = window.tableLog;
    if (!(key in log.drawn)) { log.drawn[key] = sig; log.order.push(key); }
    else if (log.drawn[key] !== sig) log.conflicts.push(key + ': ' + log.drawn[key] + ' then ' + sig);
  };
  new MutationObserver(snap).observe(document.getElementById('app'), {subtree: true, childList: true, attributes: true});
  snap();
  return true;
})()`

// tableLog is what tableRecorder logged.
type tableLog struct {
	Drawn     map[string]string `json:"drawn"`
	Order     []string          `json:"order"`
	Conflicts []string          `json:"conflicts"`
}

func (b *browser) record() {
	b.t.Helper()
	b.eval(tableRecorder, nil)
}

func (b *browser) tables() tableLog {
	b.t.Helper()
	var l tableLog
	b.eval(`window.tableLog`, &l)
	return l
}
