package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPancakes plays Anarchy Pancakes to one butter pat between two
// people in two browsers (one a phone), taking the tables in turn (see
// turns): Pia presses the Draw button once, then each moves a stack onto a
// card with the same topping whenever there is one (picking the stack or
// the card where the page asks) and draws when there is none, to the end.
func TestBrowserPancakes(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 500*time.Millisecond)
	shots := screenshotDir(t)
	b := newBrowser(t, "pancakes-desktop", shots, 1280, 900)
	phone := newBrowser(t, "pancakes-phone", shots, 375, 667)
	code := b.createRoom(base, "Pia", roomSpec{game: "anarchy-pancakes", seats: 2, bots: []string{""}, options: map[string]string{"pats": "1"}})
	phone.run(chromedp.Navigate(base + "/r/" + code))
	phone.typeInto("#nickname", "Paco")
	phone.click("#join-room")
	b.waitFor(`document.querySelector('#seats').textContent.includes('Paco')`, 15*time.Second)
	b.click("#start")
	for _, x := range []*browser{b, phone} {
		x.waitFor(`document.querySelector('.table[data-version] svg.face') && document.querySelector('#draw')`, 30*time.Second)
	}
	var stock int
	b.eval(`Number(document.querySelector('[data-kind="stock"]').dataset.count)`, &stock)
	// Pancakes has a draw, and a claim may ask which stack or card is meant.
	b.checkKeys("move act number choose cancel draw sound",
		"Keys: Tab/←→ move between symbols · Enter/Space claim the symbol · 1–9 name a symbol of your card · 1–9 choose a card · Esc cancel · D draw a card · M sound on/off")
	b.shotBoth("1-deal")
	p := newPlayer(b)
	p.drawNext = true
	q := newPlayer(phone)
	drew := false
	inTurn(t, []mover{p, q}).play(3*time.Minute, func() {
		if !drew && p.modes["draw"] > 0 {
			drew = true
			// The card drawn lands in one of the person's places.
			b.waitFor(fmt.Sprintf(`Number(document.querySelector('[data-kind="stock"]')?.dataset.count) < %d || document.querySelector('#grand')`, stock), 15*time.Second)
			b.shotBoth("2-drew")
		}
	})
	t.Logf("moves by mode: Pia %v, Paco %v", p.modes, q.modes)
	// Pia's first move is the draw, and a claim always follows it: any two
	// six-topping cards share a topping, and Paco cannot empty his seven
	// places in the moves he has meanwhile.
	if p.modes["draw"] == 0 || p.modes["direct"]+p.modes["chose"]+p.modes["auto"] == 0 {
		t.Errorf("Pia should have drawn and claimed: %v", p.modes)
	}
	for _, pl := range []*player{p, q} {
		pl.waitFor(`document.querySelector('#winner')?.textContent.length > 0`, 15*time.Second)
		if res := pl.text("#result tbody"); !strings.Contains(res, "butter pat") {
			t.Errorf("%s: the results do not count butter pats: %q", pl.name, res)
		}
		// Every move was made on a table nobody else moved on, with the
		// symbol the cards share.
		if right, wrong, late, shown := pl.claimStats(); !shown || wrong != 0 || late != 0 || right != pl.claims["anarchy-pancakes"] {
			t.Errorf("%s: the page counts %d claims right, %d wrong and %d too late; the person made %d claims (moves %v)", pl.name, right, wrong, late, pl.claims["anarchy-pancakes"], pl.modes)
		}
	}
	p.shotBoth("3-results")
	for seat, pl := range []*player{p, q} {
		claims, targeted := storedClaims(t, base, "anarchy-pancakes", seat)
		if want := pl.claims["anarchy-pancakes"]; claims != want || targeted != claims {
			t.Errorf("the stored game holds %d accepted claims of seat %d, %d of them with a target; the page made %d", claims, seat, targeted, want)
		}
	}
}

// currentTable reads the table a page shows: its key (title and version),
// every zone's number, count and face-up cards, and the page's own seat.
const currentTable = `(() => {
  const t = document.querySelector('.table[data-version]');
  if (!t) return null;
  const mine = t.querySelector('.seat.mine');
  return {
    key: (document.querySelector('.playhead h1')?.textContent ?? '') + '#' + t.dataset.version,
    sig: [...t.querySelectorAll('[data-zone]')].map((z) => Number(z.dataset.zone)).sort((a, b) => a - b)
      .map((n) => { const z = t.querySelector('[data-zone="' + n + '"]');
        return n + ':' + z.dataset.count + ':' + [...z.querySelectorAll('svg.face')].map((f) => f.dataset.card).join(','); }).join(' '),
    seat: mine ? Number(mine.dataset.seat) : -1,
    name: mine?.querySelector('.name')?.textContent ?? '',
    score: mine?.querySelector('.score')?.dataset.score ?? '',
  };
})()`

// shownTable is what currentTable answers.
type shownTable struct {
	Key   string `json:"key"`
	Sig   string `json:"sig"`
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Score string `json:"score"`
}

func (b *browser) table() shownTable {
	b.t.Helper()
	var s *shownTable
	b.eval(currentTable, &s)
	if s == nil {
		return shownTable{Seat: -1}
	}
	return *s
}

// TestBrowserResume: two people play a Tower, taking the tables in turn
// (see turns); one reloads the page mid-game. The page takes its seat back
// with the token it kept and shows the same table as before the reload,
// the same as the other person's; then both play on to the end.
func TestBrowserResume(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 500*time.Millisecond)
	shots := screenshotDir(t)
	alice := newBrowser(t, "resume-alice-desktop", shots, 1280, 900)
	bob := newBrowser(t, "resume-bob-phone", shots, 375, 667)
	code := alice.createRoom(base, "Alice", roomSpec{game: "tower", deck: "order-3", seats: 2, bots: []string{""}})
	bob.run(chromedp.Navigate(base + "/r/" + code))
	bob.typeInto("#nickname", "Bob")
	bob.click("#join-room")
	alice.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 15*time.Second)
	alice.click("#start")
	players := []*player{newPlayer(alice), newPlayer(bob)}
	game := inTurn(t, []mover{players[0], players[1]})
	game.until(60*time.Second, "Alice made two moves and Bob one", func() bool { return players[0].moves >= 2 && players[1].moves >= 1 })
	// Nobody moves now: the table stays as it is once both pages show
	// the version after the last claim.
	game.settled(30 * time.Second)
	before := alice.table()
	if other := bob.table(); other.Key != before.Key || other.Sig != before.Sig {
		t.Fatalf("before the reload Alice's page shows %s: %s\nand Bob's %s: %s", before.Key, before.Sig, other.Key, other.Sig)
	}
	if before.Seat != 0 || before.Name != "Alice" {
		t.Fatalf("before the reload Alice's page shows seat %d named %q as hers", before.Seat, before.Name)
	}
	alice.shot("1-before-reload")

	alice.run(chromedp.Reload())
	alice.waitFor(`document.querySelector('.table[data-version] .seat.mine svg.face')`, 30*time.Second)
	game.settled(30 * time.Second)
	after := alice.table()
	if after != before {
		t.Errorf("after the reload Alice's page shows\n  %+v\nbefore it\n  %+v", after, before)
	}
	if other := bob.table(); other.Key != after.Key || other.Sig != after.Sig {
		t.Errorf("after the reload Alice's page shows %s: %s\nand Bob's %s: %s", after.Key, after.Sig, other.Key, other.Sig)
	}
	var url string
	alice.eval(`location.pathname`, &url)
	if url != "/r/"+code {
		t.Errorf("after the reload the page is at %s, not the room's /r/%s", url, code)
	}
	alice.shotBoth("2-after-reload")

	players[0].last = ""
	reloadedAt := players[0].moves
	game.play(2*time.Minute, nil)
	for _, p := range players {
		p.waitFor(`document.querySelectorAll('#standings tbody tr').length === 2`, 15*time.Second)
		if rows := p.text("#standings tbody"); !strings.Contains(rows, "Alice") || !strings.Contains(rows, "Bob") {
			t.Errorf("%s: the standings do not name both people: %q", p.name, rows)
		}
	}
	// The reloaded page counts the claims made since the reload; every
	// claim, made on a table nobody else moved on, was accepted.
	for i, p := range players {
		made := p.moves
		if i == 0 {
			made -= reloadedAt
		}
		if right, wrong, late, shown := p.claimStats(); !shown || right != made || wrong != 0 || late != 0 {
			t.Errorf("%s: the page counts %d claims right, %d wrong and %d too late; the person made %d", p.name, right, wrong, late, made)
		}
	}
	if players[0].moves <= reloadedAt {
		t.Errorf("Alice made %d moves, none after the reload", players[0].moves)
	}
}

// TestBrowserSessionPick plays a session of two mini-games scored by
// tournament points between two people and a bot. Alice makes no claim in
// the first game, so she comes last and the page asks her to pick the next
// mini-game, while Bob's page says she is picking; she picks one through
// the form, it is played, the session standings count both games, and the
// host's rematch starts the session again. Nothing checked depends on how
// many claims Bob wins against the bot: should the bot win every card,
// Alice shares the last place with Bob and, the lower seat, still picks.
func TestBrowserSessionPick(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 500*time.Millisecond)
	shots := screenshotDir(t)
	alice := newBrowser(t, "pick-alice-desktop", shots, 1280, 900)
	bob := newBrowser(t, "pick-bob-phone", shots, 375, 667)
	code := alice.createRoom(base, "Alice", roomSpec{game: "tower", deck: "order-3", seats: 3, bots: []string{"", "expert"}, games: 2, scoring: "points"})
	bob.run(chromedp.Navigate(base + "/r/" + code))
	bob.typeInto("#nickname", "Bob")
	bob.click("#join-room")
	alice.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 15*time.Second)
	alice.click("#start")

	// Bob claims on every other version; the bot takes the others.
	pb := newPlayer(bob)
	pb.mod, pb.rem = 2, 0
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var picking bool
		alice.eval(`!!document.querySelector('#pick-game')`, &picking)
		if picking {
			break
		}
		if time.Now().After(deadline) {
			alice.shot("timeout")
			t.Fatal("Alice's page did not ask her to pick within 2 minutes")
		}
		pb.move()
		time.Sleep(20 * time.Millisecond)
	}
	bob.waitFor(`document.querySelector('.results .wait')?.textContent.includes('Alice came last and picks')`, 15*time.Second)
	for _, b := range []*browser{alice, bob} {
		if got := b.text("#after-game"); got != "After mini-game 1 of 2" {
			t.Errorf("%s: the standings say %q", b.name, got)
		}
		b.waitFor(`document.querySelectorAll('#standings tbody tr').length === 3`, 15*time.Second)
		if rows := b.text("#standings tbody"); !strings.Contains(rows, "Alice") || !strings.Contains(rows, "Bob") || !strings.Contains(rows, "bot") {
			t.Errorf("%s: the standings do not name both people and the bot: %q", b.name, rows)
		}
	}
	var choices []string
	alice.eval(`[...document.querySelectorAll('#pick-game option')].map((o) => o.value)`, &choices)
	if len(choices) < 2 {
		t.Fatalf("the pick offers %v", choices)
	}
	const next = "well"
	alice.choose("#pick-game", next)
	alice.waitFor(`document.querySelector('.pick .how')?.textContent.includes('Empty your pile first')`, 15*time.Second)
	alice.shotBoth("1-pick")
	bob.shotBoth("1-waiting")
	alice.click("#pick")

	for _, b := range []*browser{alice, bob} {
		b.waitFor(`document.querySelector('.playhead h1')?.textContent.startsWith('The Well')`, 20*time.Second)
	}
	pa := newPlayer(alice)
	pa.mod, pa.rem = 2, 1
	playUntil(t, 2*time.Minute, []*player{pa, pb})
	for _, b := range []*browser{alice, bob} {
		b.waitFor(`document.querySelector('#after-game')?.textContent === 'After mini-game 2 of 2'`, 15*time.Second)
		var played []int
		b.eval(`[...document.querySelectorAll('#standings tbody tr')].map((tr) => Number(tr.children[2].textContent))`, &played)
		if len(played) != 3 || played[0] < 1 {
			t.Errorf("%s: mini-games won by place: %v", b.name, played)
		}
		var points []int
		b.eval(`[...document.querySelectorAll('#standings tbody tr')].map((tr) => Number(tr.children[3].textContent))`, &points)
		for i := 1; i < len(points); i++ {
			if points[i] > points[i-1] {
				t.Errorf("%s: tournament points by place %v are not in order", b.name, points)
			}
		}
	}
	alice.shotBoth("2-session-over")
	if got := bob.text(".results .wait"); got != "The host may start a rematch." {
		t.Errorf("Bob's page says %q after the session", got)
	}
	alice.click("#rematch")
	for _, b := range []*browser{alice, bob} {
		b.waitFor(`document.querySelector('.playhead h1')?.textContent.startsWith('The Tower') && document.querySelector('.table[data-version] svg.face')`, 20*time.Second)
	}
	bob.shot("3-rematch")
}
