package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// extraMove is one move of a person in an extra mini-game, made by the
// page in a single task as personMove is: it reads what the page shows and
// clicks what a person clicks. What the person remembers (Memory's cards
// seen, Reflection's four cards studied) it keeps in window.memo, taking
// it in at every call, whether it moves or not.
//
//   - Memory, on its turn: a symbol of the face-up card, then the
//     face-down card it remembers holding that symbol (or any card, with
//     the first symbol, when it remembers none);
//   - Reflection, in the answer phase: the symbol the fifth card shares
//     with the next of the four studied, from the palette;
//   - Guess: once one symbol is left among the candidates, that symbol,
//     then the Guess button;
//   - False Poker, on its turn: STOP when the row holds a repeat or five
//     cards, else a card of its hand that adds no repeat, else STOP; STOP
//     is said with the S key, which the caller presses (press: "s");
//   - Collect the Symbols: a symbol of its own top card whose token is in
//     the centre, else Discard, else the first discard pile it may take.
//
// Arguments: the key of the table last moved on (title and version) and
// whether the page is a phone's. The answer: null when the page shows no
// extra game's table or nothing new; else key, game, version, mode (the
// action made: "flip", "write", "guess", "lay", "stop", "claim",
// "discard", "take", or "none"), the key the caller must press to make it
// (press), what the page showed (host: hosting a round of Guess; phase:
// Reflection's) and why, when a click could not be made.
const extraMove = `(last, touch) => {
  const play = document.querySelector('.play');
  if (!play) return null;
  const game = ([...play.classList].find((c) => c.startsWith('game-')) || 'game-').slice(5);
  const root = document.querySelector('.xgame[data-version]') || document.querySelector('.table[data-version]');
  if (!root || !['memory', 'reflection', 'guess', 'false-poker', 'collect-symbols'].includes(game)) return null;
  const memo = window.memo || (window.memo = {seen: {}, study: null, round: ''});
  const syms = (svg) => svg ? [...svg.querySelectorAll('g[data-symbol]')].map((g) => Number(g.getAttribute('data-symbol'))) : [];
  const common = (a, b) => a.find((s) => b.includes(s));
  const title = document.querySelector('.playhead h1')?.textContent ?? '';
  // What a person takes in at every glance.
  if (game === 'memory') {
    const lastPlace = document.querySelector('.xplace.last');
    const lastFace = document.querySelector('#last-flip svg.face');
    if (lastPlace && lastFace) {
      const z = lastPlace.dataset.zone;
      if (lastPlace.dataset.count === '0') delete memo.seen[z];
      else memo.seen[z] = syms(lastFace);
    }
  }
  const phase = document.querySelector('#phase')?.dataset.phase ?? '';
  if (game === 'reflection' && phase === 'study' && memo.round !== title) {
    const four = [...document.querySelectorAll('.xfour svg.face')];
    if (four.length === 4) { memo.study = four.map(syms); memo.round = title; }
  }
  const version = Number(root.dataset.version);
  const key = title + '#' + version;
  const out = {key, game, version, mode: 'none', press: '', host: !!document.querySelector('#host.mine'), phase, why: ''};
  if (key === last || document.querySelector('.choice[data-zone]:not(.xplace)')) return out.host ? out : null;
` + pointerJS + `
  const pressEl = (el, what) => {
    const p = point(el, (e) => e === el || el.contains(e));
    if (!p) { out.why = what + ' cannot be clicked'; return false; }
    press(p);
    return true;
  };
  const symbolOn = (svg, s) => svg.querySelector('g[data-symbol="' + s + '"]');
  switch (game) {
  case 'memory': {
    if (!document.querySelector('#turn.mine')) return out;
    const up = document.querySelector('.xup svg.face');
    const places = [...document.querySelectorAll('.xplace')].filter((p) => p.dataset.count !== '0');
    let free = places.filter((p) => !p.classList.contains('marked'));
    if (!free.length) free = places;
    if (!up || !free.length) return out;
    const known = free.find((p) => memo.seen[p.dataset.zone] && common(syms(up), memo.seen[p.dataset.zone]) !== undefined);
    const sym = known ? common(syms(up), memo.seen[known.dataset.zone]) : syms(up)[0];
    const want = known || free[0];
    if (!pressEl(symbolOn(up, sym), 'symbol ' + sym + ' of the face-up card')) return out;
    const offered = [...document.querySelectorAll('.xplace.choice')];
    if (offered.length) {
      const el = offered.find((p) => p.dataset.zone === want.dataset.zone);
      if (!el) { out.why = 'the page did not offer card ' + want.dataset.zone; return out; }
      if (!pressEl(el, 'face-down card ' + want.dataset.zone)) return out;
    }
    out.mode = 'flip';
    return out;
  }
  case 'reflection': {
    // The palette is there while the person may write: not once the
    // game is over, which the last answer can make it, the phase still
    // reading "answer".
    if (phase !== 'answer' || memo.round !== title || !memo.study || !document.querySelector('#palette')) return out;
    const n = document.querySelectorAll('#answers .chip.answer').length;
    const fifth = document.querySelector('.xfifth svg.face');
    if (n >= 4 || !fifth) return out;
    const s = common(syms(fifth), memo.study[n]);
    const btn = document.querySelector('#write-' + s);
    if (!btn) { out.why = 'no palette button for symbol ' + s; return out; }
    if (pressEl(btn, 'the palette button of symbol ' + s)) out.mode = 'write';
    return out;
  }
  case 'guess': {
    const cands = [...document.querySelectorAll('#candidates button.chip.cand')];
    if (cands.length !== 1) return out;
    if (!pressEl(cands[0], 'the only candidate')) return out;
    const btn = document.querySelector('#guess');
    if (!btn || btn.disabled) { out.why = 'the Guess button is not enabled after picking the candidate'; return out; }
    if (pressEl(btn, 'the Guess button')) out.mode = 'guess';
    return out;
  }
  case 'false-poker': {
    const stop = document.querySelector('#stop');
    if (!stop) return out;
    const row = [...document.querySelectorAll('#row svg.face')].map(syms);
    const shared = [];
    let repeat = false;
    for (let i = 1; i < row.length; i++) {
      const s = common(row[i - 1], row[i]);
      if (shared.includes(s)) repeat = true;
      shared.push(s);
    }
    // A cautious player: STOP once the row is five cards long.
    const card = repeat || row.length >= 5 ? null : [...document.querySelectorAll('button.handcard')]
      .find((b) => !shared.includes(common(row[row.length - 1], syms(b.querySelector('svg.face')))));
    if (card) { if (pressEl(card, 'a card of the hand')) out.mode = 'lay'; return out; }
    if (point(stop, (e) => e === stop || stop.contains(e))) { out.mode = 'stop'; out.press = 's'; } else out.why = 'STOP is not shown';
    return out;
  }
  case 'collect-symbols': {
    const mine = document.querySelector('.seat.mine [data-kind="pile"] svg.face');
    const tokens = [...document.querySelectorAll('#tokens .chip')].map((c) => Number(c.dataset.symbol));
    const s = mine ? syms(mine).find((x) => tokens.includes(x)) : undefined;
    if (s !== undefined) { if (pressEl(symbolOn(mine, s), 'symbol ' + s + ' of the own card')) out.mode = 'claim'; return out; }
    const discard = document.querySelector('#discard');
    if (discard) { if (pressEl(discard, 'Discard')) out.mode = 'discard'; return out; }
    const take = document.querySelector('[id^="take-"]');
    if (take) { if (pressEl(take, 'Take')) out.mode = 'take'; }
    return out;
  }
  }
  return out;
}`

// xmove is what extraMove answers.
type xmove struct {
	Key     string `json:"key"`
	Game    string `json:"game"`
	Version int    `json:"version"`
	Mode    string `json:"mode"`
	Press   string `json:"press"`
	Host    bool   `json:"host"`
	Phase   string `json:"phase"`
	Why     string `json:"why"`
}

// guessMarks reads what a Guess page shows of the secret: null when the
// page shows no Guess table or no candidates; else whether the page hosts
// the round (host), the secret its host line names (-1 if none), the
// candidates marked as the secret (symbol, accessible label, visible tag,
// symbol name, whether it is still a candidate), whether a Guess button is
// offered and the hint under the candidates.
const guessMarks = `(() => {
  const x = document.querySelector('.xgame.x-guess');
  if (!x || document.querySelector('#winner') || !x.querySelectorAll('#candidates .chip').length) return null;
  const line = x.querySelector('#host.mine .chip.secret');
  return {
    host: !!x.querySelector('#host.mine'),
    secret: line ? Number(line.dataset.symbol) : -1,
    marks: [...document.querySelectorAll('.chip.secret')].filter((c) => c.closest('#candidates')).map((c) => ({
      symbol: Number(c.dataset.symbol), label: c.getAttribute('aria-label') || '', tag: c.querySelector('.stag')?.textContent ?? '',
      name: c.querySelector('.sname')?.textContent ?? '', cand: c.classList.contains('cand'),
      shown: c.getBoundingClientRect().width > 0 && getComputedStyle(c.querySelector('.stag') || c).display !== 'none'})),
    others: document.querySelectorAll('.chip.secret').length,
    button: !!x.querySelector('#guess'),
    hint: x.querySelector('#guess-hint')?.textContent ?? '',
  };
})()`

// guessRecorder has the page keep the first Guess table it draws hosting
// the round and the first guessing (guessMarks's answers, in
// window.guessSeen), as it draws them: a busy machine may draw a round
// that the game's clock ends before the test looks.
const guessRecorder = `(() => {
  if (window.guessSeen) return true;
  window.guessSeen = {host: null, guess: null};
  const snap = () => {
    const g = ` + guessMarks + `;
    if (!g) return;
    if (g.host && !window.guessSeen.host) window.guessSeen.host = g;
    if (!g.host && !window.guessSeen.guess) window.guessSeen.guess = g;
  };
  new MutationObserver(snap).observe(document.getElementById('app'), {subtree: true, childList: true, attributes: true, characterData: true});
  snap();
  return true;
})()`

// guessPage is what guessMarks answers.
type guessPage struct {
	Host   bool `json:"host"`
	Secret int  `json:"secret"`
	Marks  []struct {
		Symbol int    `json:"symbol"`
		Label  string `json:"label"`
		Tag    string `json:"tag"`
		Name   string `json:"name"`
		Cand   bool   `json:"cand"`
		Shown  bool   `json:"shown"`
	} `json:"marks"`
	Others int    `json:"others"`
	Button bool   `json:"button"`
	Hint   string `json:"hint"`
}

// checkGuessPage checks the secret on a Guess page: the host's page marks
// the secret its host line names, and only it, among the candidates, with
// a visible tag and a label naming it, tells the host not to guess and
// offers no Guess button; a page that does not host shows the secret
// nowhere. It reports whether the page hosts, or false for a page without
// a Guess table.
func checkGuessPage(b *browser) (page, host bool) {
	b.t.Helper()
	var g *guessPage
	b.eval(guessMarks, &g)
	return checkGuessMarks(b, g)
}

// checkGuessSeen checks the first Guess tables the page drew hosting and
// guessing (guessRecorder), and reports which it drew.
func checkGuessSeen(b *browser) (hosted, guessed bool) {
	b.t.Helper()
	var seen struct{ Host, Guess *guessPage }
	b.eval(`window.guessSeen`, &seen)
	_, hosted = checkGuessMarks(b, seen.Host)
	guessed, _ = checkGuessMarks(b, seen.Guess)
	return hosted, guessed
}

// checkGuessMarks checks what a Guess page showed (nil: no Guess table)
// and reports whether it was one, and hosting the round.
func checkGuessMarks(b *browser, g *guessPage) (page, host bool) {
	b.t.Helper()
	if g == nil {
		return false, false
	}
	if !g.Host {
		if len(g.Marks) != 0 || g.Others != 0 {
			b.shot("bad-secret")
			b.t.Fatalf("a page that does not host the round marks a secret: %+v", g)
		}
		return true, false
	}
	if g.Secret < 0 || len(g.Marks) != 1 {
		b.shot("bad-secret")
		b.t.Fatalf("the host's page marks %d candidates as the secret, want 1 (its host line names %d): %+v", len(g.Marks), g.Secret, g)
	}
	m := g.Marks[0]
	if m.Symbol != g.Secret || !m.Cand || !m.Shown || m.Tag != "secret" || m.Name == "" ||
		m.Label != m.Name+": the secret, which only you see" {
		b.shot("bad-secret")
		b.t.Fatalf("the host's page marks the secret %d as %+v", g.Secret, m)
	}
	if g.Button || !strings.Contains(g.Hint, "you don't guess this round") {
		b.shot("bad-secret")
		b.t.Fatalf("the host's page offers a Guess button (%v) or does not say the host does not guess: %q", g.Button, g.Hint)
	}
	return true, true
}

// xplayer plays the extra mini-games with extraMove, and any other game
// (Tower-7, a tie-break) with personMove.
type xplayer struct {
	*player
	xlast  string
	xmodes map[string]int
	hosted bool
}

// move makes one move when the page shows something new; it reports
// whether it made one.
func (p *xplayer) move() bool {
	p.t.Helper()
	lastJS, _ := json.Marshal(p.xlast)
	var m *xmove
	p.eval(fmt.Sprintf("(%s)(%s, %t)", extraMove, lastJS, p.width < 600), &m)
	if m == nil {
		return p.player.move()
	}
	p.hosted = p.hosted || m.Host
	if m.Key == p.xlast {
		return false
	}
	p.xlast = m.Key
	if m.Why != "" {
		p.shot("bad-move")
		p.t.Fatalf("%s: %s: version %d: %s (move %+v)", p.name, m.Game, m.Version, m.Why, m)
	}
	if m.Mode == "none" {
		return false
	}
	if m.Press != "" {
		p.run(chromedp.KeyEvent(m.Press))
	}
	p.xmodes[m.Mode]++
	return true
}

// TestBrowserExtraGames plays each of the six extra mini-games in a
// browser, with short times and small decks, to the end of the session:
// every move is a click on the page but False Poker's STOP, said with the
// S key, the timed games move on by the room's clock while the page counts
// down, and the results are shown. Each game is shot mid-play and at the
// results on a phone and a desktop; mid-play its footer lists exactly the
// keys that work in it, in its own words; its stored record must hold the
// person's actions of the game's kinds (and the clock's ticks in a timed
// game; False Poker's stops show that S works). In Guess, with a player
// hosting, the person hosts the first round: its page marks the secret
// among the candidates, while its page in the rounds it guesses marks
// none.
//
// Nothing checked depends on how fast a bot or the machine is. The games
// of turns (Memory, False Poker) face a bot, which cannot move in the
// person's turn, with turns long enough never to run out; in Reflection
// every seat writes its own answers, with a study phase long enough to
// watch and an answer phase that ends once everyone has written; Guess is
// played by three people, who guess only once one candidate is left, so
// that a round lasts several cards; and the games of claims (Collect the
// Symbols, Tower-7) by two people taking the tables in turn (see turns).
// The mid-play moment is looked for before each move, so that a state that
// lasts until the person moves is always seen.
func TestBrowserExtraGames(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 300*time.Millisecond)
	shots := screenshotDir(t)
	desktop := newBrowser(t, "extra-desktop", shots, 1280, 900)
	phone := newBrowser(t, "extra-phone", shots, 375, 667)
	names := []string{"Xena", "Xavi", "Xiu"}
	for i, g := range []struct {
		game    string
		deck    string
		people  int      // people at the table, taking the first seats
		bots    []string // the other seats' bots
		options map[string]string
		kinds   []string // the person's actions the record must hold, one at least of each
		timed   bool     // the game moves on by the clock whatever the seats do: the record holds ticks
		shotAt  string   // an extra condition for the mid-play screenshot
		keys    string   // the parts of the footer of keys, then its text
		footer  string
	}{
		{"memory", "", 1, []string{"medium"}, map[string]string{"turn-time": "60000"}, []string{"flip"}, false, `document.querySelector('#last-flip')`,
			"move act choose cancel sound", "Keys: Tab/←→ move between symbols · Enter/Space name the symbol · 1–9 choose a card · Esc cancel · M sound on/off"},
		{"reflection", "", 1, []string{"hard"}, map[string]string{"look": "1000", "study": "6000", "answer": "60000", "target": "4"}, []string{"write"}, true, `document.querySelector('#phase')?.dataset.phase === 'answer' && document.querySelectorAll('#answers .chip.answer').length >= 2`,
			"move act sound", "Keys: Tab/←→ move between symbols · Enter/Space write the symbol · M sound on/off"},
		{"guess", "order-3", 3, nil, map[string]string{"interval": "500", "host": "player"}, nil, true, `document.querySelector('#flip-says')`,
			"move act sound", "Keys: Tab/←→ move between symbols · Enter/Space pick the symbol · M sound on/off"},
		{"false-poker", "", 1, []string{"instant"}, map[string]string{"turn-time": "60000"}, []string{"lay", "stop"}, false, `document.querySelectorAll('#row li').length >= 3`,
			"move act stop sound", "Keys: Tab move between your cards · Enter/Space lay the card · S say STOP · M sound on/off"},
		{"collect-symbols", "order-3", 2, nil, nil, []string{"claim", "discard"}, false, `document.querySelectorAll('#tokens .chip').length < 10`,
			"move act number sound", "Keys: Tab/←→ move between symbols · Enter/Space claim the symbol · 1–9 name a symbol of your card · M sound on/off"},
		{"tower-7", "order-4", 2, nil, nil, []string{"claim"}, false, "",
			"move act number choose cancel sound", "Keys: Tab/←→ move between symbols · Enter/Space claim the symbol · 1–9 name a symbol of your card · 1–9 choose a card · Esc cancel · M sound on/off"},
	} {
		// The person whose page is shot and whose actions are checked
		// sits in seat 0, on the desktop and the phone in turn.
		b := []*browser{desktop, phone}[i%2]
		t.Run(g.game, func(t *testing.T) {
			pages := []*browser{b, []*browser{desktop, phone}[(i+1)%2]}[:min(g.people, 2)]
			if g.people > 2 {
				pages = append(pages, newBrowser(t, "extra-third-desktop", shots, 1280, 900))
			}
			for _, x := range pages {
				defer x.subtest(t, "extra", g.game)()
			}
			seats := make([]string, g.people-1, g.people-1+len(g.bots))
			code := b.createRoom(base, names[0], roomSpec{game: g.game, deck: g.deck, seats: g.people + len(g.bots), bots: append(seats, g.bots...), options: g.options})
			if g.game == "guess" {
				b.eval(guessRecorder, nil)
			}
			for k, x := range pages[1:] {
				x.run(chromedp.Navigate(base + "/r/" + code))
				x.typeInto("#nickname", names[k+1])
				x.click("#join-room")
				b.waitFor(fmt.Sprintf(`document.querySelector('#seats').textContent.includes(%q)`, names[k+1]), 15*time.Second)
			}
			b.click("#start")
			people := make([]*xplayer, len(pages))
			for k, x := range pages {
				x.waitFor(`document.querySelector('.xgame[data-version], .table[data-version]')`, 30*time.Second)
				people[k] = &xplayer{player: newPlayer(x), xmodes: map[string]int{}}
			}
			p := people[0]
			shot, hosted, hostShot, guessed, guessShot := false, false, false, false, false
			cond := "true"
			if g.shotAt != "" {
				cond = g.shotAt
			}
			// look takes in what the person's page shows, before a move.
			look := func() {
				if g.game == "guess" {
					page, host := checkGuessPage(b)
					hosted, guessed = checkGuessSeen(b)
					// Each page is shot once a card has turned and every
					// symbol is drawn: hosting, and guessing.
					if page && ((host && !hostShot) || (!host && !guessShot)) {
						var drawn bool
						b.eval(`!!document.querySelector('#flip-says') && !document.querySelector('.x-guess .loading')`, &drawn)
						if drawn && host {
							hostShot = true
							b.shotBoth("0-host")
						} else if drawn {
							guessShot = true
							b.shotBoth("0-guessing")
						}
					}
				}
				if !shot {
					var ready bool
					b.eval(`!!(document.querySelector('.play') && (`+cond+`))`, &ready)
					if ready {
						shot = true
						b.checkKeys(g.keys, g.footer)
						b.shotBoth("1-play")
					}
				}
			}
			if g.people == 2 {
				movers := []mover{people[0], people[1]}
				inTurn(t, movers).play(2*time.Minute, look)
			} else {
				deadline := time.Now().Add(2 * time.Minute)
				for {
					var over bool
					b.eval(`!!document.querySelector('#grand')`, &over)
					if over {
						break
					}
					if time.Now().After(deadline) {
						b.shot("timeout")
						t.Fatalf("the session did not end within 2 minutes (moves %v)", p.xmodes)
					}
					look()
					for k, x := range people {
						// In Guess the person hosts the first round, which
						// ends only once the others guess: they wait until
						// its page has been seen hosting, so that a slow
						// machine cannot let the round pass unseen.
						if g.game == "guess" && k > 0 && !hosted {
							continue
						}
						x.move()
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			if g.game == "guess" {
				// The last round may end, and the session with it, before
				// look has read what the page drew of it: the recorder
				// kept it.
				hosted, guessed = checkGuessSeen(b)
			}
			t.Logf("moves: %v, claims and draws: %v, hosted: %v", p.xmodes, p.modes, p.hosted)
			if !shot {
				t.Errorf("the page never showed the moment to shoot (%s)", cond)
			}
			for _, x := range pages {
				x.waitFor(`document.querySelector('#winner')?.textContent.length > 0`, 15*time.Second)
				var rows int
				x.eval(`document.querySelectorAll('#result tbody tr').length`, &rows)
				if rows < 2 {
					t.Errorf("%s: the results list %d seats", x.name, rows)
				}
				// People taking the tables in turn claim only what the
				// page shows, on tables nobody else moves on.
				if _, wrong, late, shown := x.claimStats(); g.people == 2 && shown && (wrong != 0 || late != 0) {
					t.Errorf("%s: the page counts %d claims wrong and %d too late", x.name, wrong, late)
				}
			}
			b.shotBoth("2-results")
			kinds, ticks := storedActions(t, base, g.game, 0)
			for _, k := range g.kinds {
				if kinds[k] == 0 {
					t.Errorf("the stored %s holds no %s of the person: %v", g.game, k, kinds)
				}
			}
			// The person's page drew a round it hosted and one it guessed
			// in (guessRecorder). Whether its own guess counted is not
			// checked: on a slow enough machine its click may come after
			// the round's last card, or after another person's right guess.
			if g.game == "guess" && (!hosted || !guessed) {
				t.Errorf("in Guess the page was seen hosting: %v, guessing: %v; want both", hosted, guessed)
			}
			if g.game == "guess" && (!hostShot || !guessShot) {
				t.Logf("a Guess page was not shot, as no card turned while it was shown: hosting %v, guessing %v", hostShot, guessShot)
			}
			if g.timed && ticks == 0 {
				t.Errorf("the stored %s holds no tick of the clock", g.game)
			}
		})
	}
	desktop.t, phone.t = t, t
}

// storedActions counts the accepted actions of game seat by kind in the
// stored record of the first table of name (see storedRecord), and the
// clock's ticks.
func storedActions(t *testing.T, base, name string, seat int) (kinds map[string]int, ticks int) {
	t.Helper()
	kinds = map[string]int{}
	for _, a := range storedRecord(t, base, name) {
		switch {
		case a.Kind == "tick":
			ticks++
		case a.Seat == seat:
			kinds[a.Kind]++
		}
	}
	return kinds, ticks
}
