package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSpectator: two people (one on a phone) and a bot play a Tower
// on the order-3 deck;
// a third browser opens the share link once the game is under way and
// watches it to the end. Every page logs the table it draws at each
// version; the spectator's table must be the players' at every version
// both drew, and its results theirs.
//
// A page draws a view only once the pictures of its cards are loaded, and
// draws the newest view then: when two updates come close together (a
// person's claim just after a bot's) a page still loading the first one's
// new card goes straight to the second. So a page need not draw every
// version, and a card that one page showed for a moment another may never
// show; the pages are compared version by version (the version drawn is
// the table's data-version), never by waiting for one page to show what
// another showed.
func TestBrowserSpectator(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, time.Second)
	shots := screenshotDir(t)
	alice := newBrowser(t, "watch-alice-desktop", shots, 1280, 900)
	bob := newBrowser(t, "watch-bob-phone", shots, 375, 667)
	sam := newBrowser(t, "watch-sam-desktop", shots, 1280, 900)

	code := alice.createRoom(base, "Alice", roomSpec{game: "tower", deck: "order-3", seats: 3, bots: []string{"", "expert"}})
	bob.run(chromedp.Navigate(base + "/r/" + code))
	bob.typeInto("#nickname", "Bob")
	bob.click("#join-room")
	alice.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 10*time.Second)
	alice.record()
	bob.record()
	alice.click("#start")

	// The people claim on two versions of three; the bot takes the rest.
	players := []*player{newPlayer(alice), newPlayer(bob)}
	players[0].mod, players[0].rem = 3, 0
	players[1].mod, players[1].rem = 3, 1
	for _, p := range players {
		p.waitFor(`document.querySelector('.seat.mine svg.face')`, 20*time.Second)
	}
	deadline := time.Now().Add(30 * time.Second)
	for players[0].moves+players[1].moves < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the people made %d and %d moves in 30 s", players[0].moves, players[1].moves)
		}
		for _, p := range players {
			p.move()
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The spectator comes in through the share link, mid-game.
	sam.run(chromedp.Navigate(base + "/r/" + code))
	sam.typeInto("#nickname", "Sam")
	sam.click("#watch-room")
	sam.waitFor(`document.querySelector('.table[data-version] svg.face')`, 15*time.Second)
	sam.record()
	var acts bool
	sam.eval(`!!document.querySelector('.seat.mine, #draw, .table g[tabindex]')`, &acts)
	if acts {
		t.Error("the spectator's page has a seat of its own or symbols to claim")
	}
	// A spectator's keys only switch the sound.
	sam.checkKeys("sound", "Keys: M sound on/off")
	shot := false
	playUntil(t, 90*time.Second, players, func() {
		if !shot && players[0].moves+players[1].moves >= 4 {
			shot = true
			sam.shotBoth("1-watching")
		}
	})
	sam.waitFor(`document.querySelector('#grand')`, 15*time.Second)

	want := sam.tables()
	if len(want.Conflicts) > 0 {
		t.Errorf("the spectator drew one version two ways: %v", want.Conflicts)
	}
	if len(want.Order) < 5 {
		t.Fatalf("the spectator drew only %d versions: %v", len(want.Order), want.Order)
	}
	for _, p := range players {
		got := p.tables()
		if len(got.Conflicts) > 0 {
			t.Errorf("%s drew one version two ways: %v", p.name, got.Conflicts)
		}
		same := 0
		for _, key := range want.Order {
			sig, ok := got.Drawn[key]
			if !ok {
				continue
			}
			same++
			if sig != want.Drawn[key] {
				t.Errorf("%s: at %s the spectator's table is\n  %s\nand the player's\n  %s", p.name, key, want.Drawn[key], sig)
			}
		}
		t.Logf("%s drew %d of the %d versions the spectator drew", p.name, same, len(want.Order))
		// A version may be skipped now and then, never most of them.
		if same*2 < len(want.Order) {
			t.Errorf("%s drew only %d of the %d versions the spectator drew: %v; spectator %v", p.name, same, len(want.Order), got.Order, want.Order)
		}
	}

	// The results are the same for everyone.
	for _, sel := range []string{"#winner", "#result tbody", "#standings tbody"} {
		w := sam.text(sel)
		if w == "" {
			t.Errorf("the spectator's results show no %s", sel)
		}
		for _, p := range players {
			if got := p.text(sel); got != w {
				t.Errorf("%s: %s says %q, the spectator's %q", p.name, sel, got, w)
			}
		}
	}
	if rows := sam.text("#result tbody"); !strings.Contains(rows, "Alice") || !strings.Contains(rows, "Bob") {
		t.Errorf("the spectator's results do not name the players: %q", rows)
	}
	var mine bool
	sam.eval(`!!document.querySelector('#my-claims, #rematch')`, &mine)
	if mine {
		t.Error("the spectator's results show claims of its own or the host's rematch button")
	}
	sam.shotBoth("2-results")
}
