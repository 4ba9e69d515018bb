package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTargetGames plays each game whose claims name a target (an
// opponent's pile, a card around the centre or laid out, three cards of
// the grid) between three people in three browsers (one a phone), on a
// small deck, to the end, taking the tables in turn (see turns). Each
// clicks the shared symbol on a card and, where the page asks which card
// is meant, clicks that card: every claim is made through the page as a
// person makes it. The page must offer exactly the cards that carry the
// symbol, the session must end with its results shown, every claim must
// be accepted (nobody else moves on a person's table), and the stored
// record must hold each person's claims with their targets.
func TestBrowserTargetGames(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 500*time.Millisecond)
	shots := screenshotDir(t)
	browsers := []*browser{
		newBrowser(t, "targets-desktop", shots, 1280, 900),
		newBrowser(t, "targets-phone", shots, 375, 667),
		newBrowser(t, "targets-third-desktop", shots, 1280, 900),
	}
	names := []string{"Tess", "Theo", "Tia"}
	chose := 0
	for i, g := range []struct {
		game    string
		options map[string]string
	}{
		{"hot-potato", map[string]string{"rounds": "2"}},
		{"poisoned-gift", nil},
		{"triplets", nil},
		{"catch-them-all", nil},
		{"subway-rescue", nil},
	} {
		t.Run(g.game, func(t *testing.T) {
			for _, b := range browsers {
				defer b.subtest(t, "targets", g.game)()
			}
			host := browsers[0]
			code := host.createRoom(base, names[0], roomSpec{game: g.game, deck: "order-3", seats: 3, bots: []string{"", ""}, options: g.options})
			for k, b := range browsers[1:] {
				b.run(chromedp.Navigate(base + "/r/" + code))
				b.typeInto("#nickname", names[k+1])
				b.click("#join-room")
				host.waitFor(fmt.Sprintf(`document.querySelector('#seats').textContent.includes(%q)`, names[k+1]), 15*time.Second)
			}
			host.click("#start")
			players := make([]*player, len(browsers))
			movers := make([]mover, len(browsers))
			for k, b := range browsers {
				b.waitFor(`document.querySelector('.table[data-version] svg.face')`, 30*time.Second)
				players[k] = newPlayer(b)
				movers[k] = players[k]
			}
			// The desktop and the phone take the screenshots in turn.
			shooter := players[i%2]
			shot := false
			inTurn(t, movers).play(2*time.Minute, func() {
				if !shot && shooter.moves >= 2 {
					shot = true
					shooter.shotBoth("1-play")
					if g.game == "hot-potato" {
						// The header's number is the penalty cards of the
						// rounds lost, and says so.
						var scores []string
						shooter.eval(`[...document.querySelectorAll('.seat .score')].map((s) => s.textContent)`, &scores)
						for _, sc := range scores {
							if !strings.HasPrefix(sc, "Penalty: ") {
								t.Errorf("a Hot Potato seat's score reads %q; it counts penalty cards and should say so", sc)
							}
						}
					}
				}
			})
			for seat, p := range players {
				t.Logf("%s: moves by mode: %v, by game: %v", p.name, p.modes, p.claims)
				chose += p.modes["chose"]
				claims := p.claims[g.game]
				if claims == 0 {
					t.Errorf("%s made no claim with a target: %v", p.name, p.modes)
				}
				p.waitFor(`document.querySelector('#winner')?.textContent.length > 0`, 15*time.Second)
				var rows int
				p.eval(`document.querySelectorAll('#result tbody tr').length`, &rows)
				if rows < 2 {
					t.Errorf("%s: the results list %d seats", p.name, rows)
				}
				// The page counts the claims of the last table the person
				// had a seat at, the game's or a tie-break's: each was made
				// on the shared symbol of a table nobody else moved on.
				if _, wrong, late, shown := p.claimStats(); shown && (wrong != 0 || late != 0) {
					t.Errorf("%s: the page counts %d claims wrong and %d too late", p.name, wrong, late)
				}
				stored, targeted := storedClaims(t, base, g.game, seat)
				if stored != claims || targeted != stored {
					t.Errorf("the stored %s holds %d accepted claims of seat %d, %d of them with a target; its page made %d", g.game, stored, seat, targeted, claims)
				}
			}
			shooter.shotBoth("2-results")
		})
	}
	for _, b := range browsers {
		b.t = t
	}
	if chose == 0 {
		t.Error("in no game did the page ask which card was meant; the person's moves prefer a symbol found on two cards or more")
	}
}

// storedAction is one accepted action of a stored game record.
type storedAction struct {
	Kind   string `json:"kind"`
	Seat   int    `json:"seat"`
	Target []int  `json:"target"`
}

// storedRecord waits until the server has stored the first table of a
// game called name (not a tie-break) and returns the accepted actions of
// its record, in order, the clock's ticks among them.
func storedRecord(t *testing.T, base, name string) []storedAction {
	t.Helper()
	get := func(path string) []byte {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return b
	}
	var id int64
	deadline := time.Now().Add(10 * time.Second)
	for id == 0 {
		var list struct {
			Games []struct {
				ID       int64  `json:"id"`
				Game     string `json:"game"`
				TieBreak bool   `json:"tieBreak"`
			} `json:"games"`
		}
		if err := json.Unmarshal(get("/api/history?limit=100"), &list); err != nil {
			t.Fatal(err)
		}
		for _, g := range list.Games {
			if g.Game == name && !g.TieBreak {
				id = g.ID
				break
			}
		}
		if id == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("no %s was stored within 10 s", name)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	var actions []storedAction
	sc := bufio.NewScanner(bytes.NewReader(get(fmt.Sprintf("/api/history/%d", id))))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type   string       `json:"type"`
			Action storedAction `json:"action"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("record of game %d: %v", id, err)
		}
		if line.Type == "action" {
			actions = append(actions, line.Action)
		}
	}
	return actions
}

// storedClaims counts the accepted claims of game seat in the stored
// record of the first table of name (see storedRecord), and those that
// name a target.
func storedClaims(t *testing.T, base, name string, seat int) (claims, targeted int) {
	t.Helper()
	for _, a := range storedRecord(t, base, name) {
		if a.Kind == "claim" && a.Seat == seat {
			claims++
			if len(a.Target) > 0 {
				targeted++
			}
		}
	}
	return claims, targeted
}
