package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserBotNames seats a person and two easy bots at a Tower: the
// lobby, the table and the results name the bots apart ("bot: easy 1",
// "bot: easy 2"), never "bot: easy" twice.
func TestBrowserBotNames(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	b := newBrowser(t, "botnames-desktop", screenshotDir(t), 1280, 900)
	b.createRoom(base, "Ada", roomSpec{game: "tower", deck: "order-2", seats: 3, bots: []string{"easy", "easy"}})
	want := []string{"Ada", "bot: easy 1", "bot: easy 2"}
	names := func(where, sel string) {
		t.Helper()
		var got []string
		b.eval(fmt.Sprintf(`[...document.querySelectorAll(%q)].map((e) => e.textContent)`, sel), &got)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s names the seats %q, want %q", where, got, want)
		}
	}
	names("the lobby", "#seats .name")
	b.click("#start")
	b.waitFor(`document.querySelectorAll('.seat .name').length === 3`, 30*time.Second)
	names("the table", ".seat .name")
	b.shot("table")
	b.waitFor(`document.querySelectorAll('#result tbody tr').length === 3`, 120*time.Second)
	names("the results", "#result tbody td:nth-child(2)")
	b.shot("results")
}

// TestBrowserPlurals asks the page's own texts for counts in every
// language: each count takes its language's plural form, as
// Intl.PluralRules selects it (Polish "2 karty" and "5 kart", Russian
// "2 карты" and "5 карт", English "1 token"), in the units of the scores
// and in a text with a count in it.
func TestBrowserPlurals(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	b := newBrowser(t, "plurals-desktop", screenshotDir(t), 1280, 900)
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#create')`, 15*time.Second)
	want := map[string][]string{
		"en": {"1 card", "2 cards", "5 cards", "22 cards", "1 token", "1 marker", "1 pair", "A gave 2 cards to B"},
		"pl": {"1 karta", "2 karty", "5 kart", "22 karty", "1 żeton", "1 znacznik", "1 para", "A oddaje 2 karty graczowi B"},
		"ru": {"1 карта", "2 карты", "5 карт", "22 карты", "1 жетон", "1 фишка", "1 пара", "A отдаёт 2 карты игроку B"},
		"da": {"1 kort", "2 kort", "5 kort", "22 kort", "1 brik", "1 markør", "1 par", "A gav 2 kort til B"},
		"it": {"1 carta", "2 carte", "5 carte", "22 carte", "1 gettone", "1 segnalino", "1 coppia", "A dà 2 carte a B"},
		"zh": {"1 张牌", "2 张牌", "5 张牌", "22 张牌", "1 个筹码", "1 个标记", "1 对", "A 把 2 张牌给了 B"},
	}
	for _, l := range []string{"pl", "ru", "da", "it", "zh", "en"} {
		b.choose("#lang", l)
		b.waitFor(fmt.Sprintf(`document.documentElement.lang === %q`, l), 15*time.Second)
		b.eval(`window.plurals = null; import("/i18n.js").then((m) => { window.plurals = [
			m.amount(1, "cards"), m.amount(2, "cards"), m.amount(5, "cards"), m.amount(22, "cards"),
			m.amount(1, "tokens"), m.amount(1, "markers"), m.amount(1, "pairs"),
			m.t("play.gaveCards", { name: "A", n: 2, to: "B" })]; }); true`, nil)
		b.waitFor(`window.plurals !== null`, 15*time.Second)
		var got []string
		b.eval(`window.plurals`, &got)
		if !slices.Equal(got, want[l]) {
			t.Errorf("%s: the counts read %q, want %q", l, got, want[l])
		}
	}
}

// TestBrowserFalsePoker plays the first turns of False Poker against an
// instant bot: the first turn lasts first-turn, not a turn's 5 s; the
// row's cards, which a person compares, are as large as the hand's; each
// seat's count of free markers says what it counts; and a STOP on a row
// without a repeat says why the caller lost a marker.
func TestBrowserFalsePoker(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 300*time.Millisecond)
	for _, size := range [][2]int64{{1280, 900}, {375, 667}} {
		b := newBrowser(t, fmt.Sprintf("falsepoker-%d", size[0]), screenshotDir(t), size[0], size[1])
		b.createRoom(base, "Fay", roomSpec{game: "false-poker", seats: 2, bots: []string{"instant"}, options: map[string]string{"first-turn": "60000"}})
		b.click("#start")
		b.waitFor(`document.querySelectorAll('#hand .xcard svg').length === 6 && document.querySelector('#row .xcard svg') && document.querySelector('#stop')`, 30*time.Second)
		var got struct {
			Deadline  string
			Row, Hand float64
			Badges    []string
		}
		b.eval(`({
			deadline: document.querySelector('#turn .clock')?.dataset.deadline ?? '',
			row: document.querySelector('#row .xcard').getBoundingClientRect().width,
			hand: document.querySelector('#hand .xcard').getBoundingClientRect().width,
			badges: [...document.querySelectorAll('.xseats .badge')].map((e) => e.textContent),
		})`, &got)
		if got.Deadline != "60000" {
			t.Errorf("%d px: the first turn ends at %q ms, want first-turn's 60000", size[0], got.Deadline)
		}
		if got.Row < got.Hand {
			t.Errorf("%d px: the row's cards are %.0f px wide, the hand's %.0f px", size[0], got.Row, got.Hand)
		}
		if !slices.Equal(got.Badges, []string{"Free markers: 6", "Free markers: 6"}) {
			t.Errorf("%d px: the seats' badges read %q", size[0], got.Badges)
		}
		b.shot("first-turn")
		b.click("#stop")
		const said = "You lose 1 marker: the row has no repeat"
		var feed string
		for deadline := time.Now().Add(15 * time.Second); feed != said && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			b.eval(`document.querySelector('#feed')?.textContent ?? ''`, &feed)
		}
		if feed != said {
			t.Errorf("%d px: after a STOP on the first card, the feed says %q, want %q", size[0], feed, said)
		}
		b.shot("stopped")
	}

	// The module's check of a row with a repeat, fed a row whose cards'
	// symbols are given: the fourth card's shared symbol, 3, repeats the
	// second's, and the loser's line names it.
	b := newBrowser(t, "falsepoker-module", screenshotDir(t), 1280, 900)
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#create')`, 15*time.Second)
	b.eval(`window.lines = null; import("/games/false-poker.js").then((m) => {
		const syms = [[1, 2], [2, 3], [3, 4], [3, 5]];
		const check = (cards) => {
			const out = [];
			const view = { zones: [{ kind: "stock", cards: [] }, { kind: "row", cards: cards.map((c) => ({ card: c })) }], extra: { layers: [-1, 0, 1, 0] } };
			const evs = [{ kind: "stop", seat: 1 }, { kind: "score", seat: 0, count: -2 }];
			m.feed(evs[1], { evs, view, line: (key, seat, more) => out.push([key, seat, more]), note: () => {}, sessionSeat: (s) => s, symbolsOf: (c) => syms[c] });
			return out;
		};
		window.lines = [check([0, 1, 2, 3]), check([0, 1, 2])];
	}); true`, nil)
	b.waitFor(`window.lines !== null`, 15*time.Second)
	var lines string
	b.eval(`JSON.stringify(window.lines)`, &lines)
	if want := `[[["false-poker.feed.repeat",0,{"n":2,"symbol":3}]],[["false-poker.feed.noRepeat",0,{"n":2}]]]`; lines != want {
		t.Errorf("the check's lines: %s, want %s", lines, want)
	}
}

// TestBrowserDropped has one of two people at a Tower lose their page:
// the other's table marks that seat as dropped, its seat held.
func TestBrowserDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 300*time.Millisecond)
	shots := screenshotDir(t)
	ann := newBrowser(t, "dropped-ann-desktop", shots, 1280, 900)
	ben := newBrowser(t, "dropped-ben-phone", shots, 375, 667)
	code := ann.createRoom(base, "Ann", roomSpec{game: "tower", deck: "order-3", seats: 2, bots: []string{""}})
	ben.run(chromedp.Navigate(base + "/r/" + code))
	ben.typeInto("#nickname", "Ben")
	ben.click("#join-room")
	ann.waitFor(`document.querySelector('#seats').textContent.includes('Ben')`, 15*time.Second)
	ann.click("#start")
	const away = `[...document.querySelectorAll('.seat .away')].map((e) => e.closest('.seat').querySelector('.name').textContent + ': ' + e.textContent).join(' | ')`
	ann.waitFor(`document.querySelectorAll('.table[data-version] .seat').length === 2`, 30*time.Second)
	var shown string
	if ann.eval(away, &shown); shown != "" {
		t.Fatalf("with both people there, the table marks %q", shown)
	}
	// Ben's page goes (a page in the back-forward cache would keep its
	// connection open); his seat is held for him.
	if _, err := chromedp.Call(ben.ctx, page.Close, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); shown != "Ben: dropped out: seat held"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			var table string
			ann.eval(`document.querySelector('.table')?.innerText ?? document.body.innerText`, &table)
			ann.shot("timeout")
			t.Fatalf("with Ben's page gone, the table marks %q; it reads %q", shown, table)
		}
		ann.eval(away, &shown)
	}
	ann.shot("ben-away")
}

// TestBrowserSeatOption sets up the Well, whose option says which seat is
// dealt first: the form offers the table's seats as the table counts
// them, from "Seat 1", and only as many as the table has.
func TestBrowserSeatOption(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	b := newBrowser(t, "seatoption-desktop", screenshotDir(t), 1280, 900)
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#create')`, 15*time.Second)
	b.choose("#game", "well")
	const offered = `[...document.querySelectorAll('#opt-first-seat option')].map((o) => o.value + '=' + o.textContent)`
	for _, tc := range []struct {
		seats string
		want  []string
	}{
		{"3", []string{"0=Seat 1", "1=Seat 2", "2=Seat 3"}},
		{"2", []string{"0=Seat 1", "1=Seat 2"}},
	} {
		b.choose("#seats", tc.seats)
		var got []string
		b.eval(offered, &got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("with %s seats the Well's first seat offers %q, want %q", tc.seats, got, tc.want)
		}
	}
}

// TestBrowserReplaySteps replays a game of Memory in which a person let
// every turn pass and a bot named symbols: every step of the replay says
// what it did (a Memory step had no text), in the game's own words, and a
// step that names a symbol highlights it on the cards.
func TestBrowserReplaySteps(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 300*time.Millisecond)
	b := newBrowser(t, "replaysteps-desktop", screenshotDir(t), 1280, 900)
	b.createRoom(base, "Rui", roomSpec{game: "memory", deck: "order-2", seats: 2, bots: []string{"instant"}, options: map[string]string{"turn-time": "1000"}})
	b.click("#start")
	b.waitFor(`document.querySelector('#grand')`, 3*time.Minute)
	b.click("#nav-history")
	b.waitFor(`document.querySelectorAll('#history li[data-id]').length === 1`, 15*time.Second)
	b.click("#history li[data-id] a")
	b.waitFor(`document.querySelector('#r-step') && document.querySelector('#replay-table svg.face')`, 15*time.Second)
	var n int
	b.eval(`Number(/of (\d+)/.exec(document.querySelector('#r-step').textContent)[1])`, &n)
	named, lit := 0, 0
	for i := 2; i <= n; i++ {
		b.click("#r-next")
		b.waitFor(fmt.Sprintf(`document.querySelector('#r-step').textContent.startsWith('Step %d of ')`, i), 15*time.Second)
		var got struct {
			Text string
			Lit  int
		}
		// The step's text, once the game's words are there, and the
		// symbols lit on its cards.
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			var done bool
			b.eval(`!/ — $/.test(document.querySelector('#r-step').textContent) && !!document.querySelector('#replay-table .xgame, #replay-table .table')`, &done)
			if done {
				break
			}
			if time.Now().After(deadline) {
				var steps string
				b.eval(`document.querySelector('#r-step').textContent`, &steps)
				t.Fatalf("step %d of %d says nothing: %q", i, n, steps)
			}
		}
		b.eval(`({text: document.querySelector('#r-step').textContent, lit: document.querySelectorAll('#replay-table g.hit').length})`, &got)
		if strings.Contains(got.Text, " named ") {
			named++
			if got.Lit > 0 {
				lit++
			}
		}
	}
	if named == 0 || lit == 0 {
		t.Errorf("of %d steps, %d say a symbol was named, %d light it on a card", n, named, lit)
	}
	b.shot("replay")
}

// TestBrowserChipNames shows Collect the Symbols' tokens, a chip for each
// of the classic deck's 57 symbols, in Russian, whose names run long, on
// a narrow screen (a phone's palette shows the tokens' pictures alone, to
// keep the cards on screen): every name is shown whole inside its chip,
// none cut off.
func TestBrowserChipNames(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 300*time.Millisecond)
	b := newBrowser(t, "chipnames-narrow", screenshotDir(t), 640, 900)
	b.run(chromedp.Navigate(base + "/"))
	b.choose("#lang", "ru")
	b.waitFor(`document.documentElement.lang === 'ru'`, 15*time.Second)
	b.createRoom(base, "Юля", roomSpec{game: "collect-symbols", seats: 2, bots: []string{"easy"}})
	b.click("#start")
	b.waitFor(`document.querySelectorAll('#tokens .chip .sname').length >= 50 && [...document.querySelectorAll('#tokens .chip .sname')].every((e) => e.textContent && !e.textContent.startsWith('#'))`, 30*time.Second)
	var cut []string
	b.eval(`[...document.querySelectorAll('#tokens .chip .sname')].filter((e) => {
		const r = e.getBoundingClientRect(), c = e.closest('.chip').getBoundingClientRect();
		return e.scrollWidth > e.clientWidth + 1 || r.left < c.left - 1 || r.right > c.right + 1 || r.bottom > c.bottom + 1;
	}).map((e) => e.textContent)`, &cut)
	if len(cut) > 0 {
		t.Errorf("%d symbol names are cut off in their chips: %q", len(cut), cut)
	}
	b.shot("tokens")
}

// TestBrowserHotPotatoTally plays Hot Potato between a person who does
// nothing and two instant bots: once a round is lost, the loser's seat
// says how many rounds it lost in words beside its penalty, never "★1".
func TestBrowserHotPotatoTally(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 300*time.Millisecond)
	b := newBrowser(t, "hotpotato-desktop", screenshotDir(t), 1280, 900)
	b.createRoom(base, "Hal", roomSpec{game: "hot-potato", deck: "order-3", seats: 3, bots: []string{"instant", "instant"}, options: map[string]string{"rounds": "3"}})
	// Every table the page draws is looked at as it is drawn, whether or
	// not the screen shows it before the next: the bots may play the
	// three rounds before a busy machine's browser paints one of them.
	b.eval(`(() => {
		window.tallies = [];
		window.star = false;
		new MutationObserver(() => {
			const t = document.querySelector('.table[data-version]');
			if (!t) return;
			for (const e of t.querySelectorAll('.seat .tally')) window.tallies.push(e.textContent);
			window.star = window.star || t.textContent.includes('★');
		}).observe(document.body, {childList: true, subtree: true, characterData: true});
		return true;
	})()`, nil)
	b.click("#start")
	b.waitFor(`window.tallies.length > 0 || !!document.querySelector('.results')`, 2*time.Minute)
	var got struct {
		Tallies []string
		Star    bool
	}
	b.eval(`({tallies: window.tallies, star: window.star})`, &got)
	if len(got.Tallies) == 0 {
		b.shot("no-tally")
		t.Fatal("the game ended and no table drawn during it showed a seat's tally of rounds lost")
	}
	for _, s := range got.Tallies {
		if !strings.HasPrefix(s, "Rounds lost: ") {
			t.Errorf("a seat's tally reads %q, want \"Rounds lost: N\"", s)
		}
	}
	if got.Star {
		t.Error("the table still shows a ★")
	}
	b.shot("tally")
}
