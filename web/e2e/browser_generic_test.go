package e2e

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dobble-dev/dobble/rules"
)

// genericGameEnv names the game TestBrowserGenericTable plays; the test
// that adds a throwaway game (internal/newgame) sets it to that game.
const genericGameEnv = "DOBBLE_E2E_GAME"

// TestBrowserGenericTable: two people, one on a phone, play a whole
// session of one mini-game of claims for which the browser has no module
// of its own (the Well, or the game named by $DOBBLE_E2E_GAME), on the
// table every such game shares: it is drawn from the views and the claim
// shape the game declares, and each person's claims, made by clicking the
// shared symbol as a person would, are accepted and stored. The people
// move in lock step (turns), so neither races the other.
func TestBrowserGenericTable(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	name := os.Getenv(genericGameEnv)
	if name == "" {
		name = "well"
	}
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	info := g.Info()
	if _, own := g.(rules.PlayerMaker); own || info.Claim == nil || len(info.Claim.Targets) > 0 || info.MinPlayers > 2 || info.MaxPlayers < 2 {
		t.Fatalf("%s is not a game of claims without targets for two: this test plays only those", info.Name)
	}
	shape, err := json.Marshal(info.Claim)
	if err != nil {
		t.Fatal(err)
	}

	base := browserServer(t, 0)
	shots := screenshotDir(t)
	alice := newBrowser(t, "generic-alice-desktop", shots, 1280, 900)
	bob := newBrowser(t, "generic-bob-phone", shots, 375, 667)
	code := alice.createRoom(base, "Alice", roomSpec{game: info.Name, deck: "order-3", seats: 2, bots: []string{""}, games: 1})
	bob.run(chromedp.Navigate(base + "/r/" + code))
	bob.typeInto("#nickname", "Bob")
	bob.click("#join-room")
	alice.waitFor(`document.querySelector('#seats').textContent.includes('Bob')`, 15*time.Second)
	alice.click("#start")

	players := []*player{newPlayer(alice), newPlayer(bob)}
	for _, p := range players {
		p.shape = string(shape)
		p.waitFor(`document.querySelector('.seat.mine svg.face g[data-symbol]')`, 30*time.Second)
	}
	shot := false
	inTurn(t, []mover{players[0], players[1]}).play(2*time.Minute, func() {
		if !shot && players[0].moves+players[1].moves >= 2 {
			shot = true
			alice.shot("1-playing")
			bob.shot("1-playing")
		}
	})
	for i, p := range players {
		if p.modes["plain"] == 0 {
			t.Errorf("%s made no claim on the generic table (moves by mode: %v)", p.name, p.modes)
		}
		if claims, _ := storedClaims(t, base, info.Name, i); claims == 0 {
			t.Errorf("the stored %s holds no accepted claim of seat %d", info.Name, i)
		}
	}
	alice.shot("2-results")
}
