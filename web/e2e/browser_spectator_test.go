package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSpectator: two people (one on a phone) play a Tower on the
// order-3 deck; a third browser opens the share link once the game is
// under way and watches it to the end. Every page logs the table it draws
// at each version; the spectator's table must be the players' at every
// version, and its results theirs.
//
// The people take the tables in turn (see turns), each move waiting until
// every page, the spectator's too, has drawn the table: nothing moves while
// the spectator comes in, and no page can skip a version, however slow the
// machine. (A page draws a view only once the pictures of its cards are
// loaded, and then the newest view: with moves that did not wait, a page
// still loading one table's new card would go straight to the next.)
func TestBrowserSpectator(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, time.Second)
	shots := screenshotDir(t)
	alice := newBrowser(t, "watch-alice-desktop", shots, 1280, 900)
	bob := newBrowser(t, "watch-bob-phone", shots, 375, 667)
	sam := newBrowser(t, "watch-sam-desktop", shots, 1280, 900)

	code := alice.createRoom(base, "Alice", roomSpec{game: "tower", deck: "order-3", seats: 2, bots: []string{""}})
	bob.run(chromedp.Navigate(base + "/r/" + code))
	bob.typeInto("#nickname", "Bob")
	bob.click("#join-room")
	alice.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 15*time.Second)
	alice.record()
	bob.record()
	alice.click("#start")

	// Two claims of the eleven are made before the spectator comes.
	players := []*player{newPlayer(alice), newPlayer(bob)}
	for _, p := range players {
		p.waitFor(`document.querySelector('.seat.mine svg.face')`, 30*time.Second)
	}
	game := inTurn(t, []mover{players[0], players[1]})
	game.until(60*time.Second, "the people made two moves", func() bool { return players[0].moves+players[1].moves >= 2 })

	// The spectator comes in through the share link, mid-game.
	sam.run(chromedp.Navigate(base + "/r/" + code))
	sam.typeInto("#nickname", "Sam")
	sam.click("#watch-room")
	sam.waitFor(`document.querySelector('.table[data-version] svg.face')`, 30*time.Second)
	sam.record()
	var acts bool
	sam.eval(`!!document.querySelector('.seat.mine, #draw, .table g[tabindex]')`, &acts)
	if acts {
		t.Error("the spectator's page has a seat of its own or symbols to claim")
	}
	// A spectator's keys only switch the sound.
	sam.checkKeys("sound", "Keys: M sound on/off")
	game.watch(sam)
	shot := false
	game.play(2*time.Minute, func() {
		if !shot && players[0].moves+players[1].moves >= 4 {
			shot = true
			sam.shotBoth("1-watching")
		}
	})
	sam.waitFor(`document.querySelector('#grand')`, 15*time.Second)

	// The spectator drew every table from its coming in, nine claims
	// before the end, and so did the players; the last table may give
	// way to the results before a page draws it.
	want := sam.tables()
	if len(want.Conflicts) > 0 {
		t.Errorf("the spectator drew one version two ways: %v", want.Conflicts)
	}
	if len(want.Order) < 9 {
		t.Fatalf("the spectator drew only %d versions: %v", len(want.Order), want.Order)
	}
	for _, p := range players {
		got := p.tables()
		if len(got.Conflicts) > 0 {
			t.Errorf("%s drew one version two ways: %v", p.name, got.Conflicts)
		}
		for _, key := range want.Order[:len(want.Order)-1] {
			sig, ok := got.Drawn[key]
			if !ok {
				t.Errorf("%s did not draw %s, which the spectator drew (the player drew %v)", p.name, key, got.Order)
				continue
			}
			if sig != want.Drawn[key] {
				t.Errorf("%s: at %s the spectator's table is\n  %s\nand the player's\n  %s", p.name, key, want.Drawn[key], sig)
			}
		}
		if last := want.Order[len(want.Order)-1]; got.Drawn[last] != "" && got.Drawn[last] != want.Drawn[last] {
			t.Errorf("%s: at %s the spectator's table is\n  %s\nand the player's\n  %s", p.name, last, want.Drawn[last], got.Drawn[last])
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
	// Nobody claimed on another's tables: every claim was accepted.
	for _, p := range players {
		if right, wrong, late, shown := p.claimStats(); !shown || right != p.moves || wrong != 0 || late != 0 {
			t.Errorf("%s: the page counts %d claims right, %d wrong and %d too late; the player made %d", p.name, right, wrong, late, p.moves)
		}
	}
	var mine bool
	sam.eval(`!!document.querySelector('#my-claims, #rematch')`, &mine)
	if mine {
		t.Error("the spectator's results show claims of its own or the host's rematch button")
	}
	sam.shotBoth("2-results")
}
