package web

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/rules"
)

// session returns the "session" object of a state or over message.
func sessionOf(m msg) msg {
	s, _ := m["session"].(map[string]any)
	return msg(s)
}

// play runs cl as a client bot: it chooses its actions from the views it
// receives and what it remembers of them (the game's rules.Player), one action per
// table version, answers picks, and returns the over message that ends
// the session. Every over message is passed to onOver.
func (cl *client) play(onOver func(msg)) msg {
	cl.t.Helper()
	table, claimed := -1, ""
	var v rules.View
	var mind rules.Player
	have := false
	for {
		m := cl.next()
		switch m.str("type") {
		case "state":
			table, v, have = m.num("table"), decodeView(cl.t, m), true
			g, err := rules.Lookup(v.Game)
			if err != nil {
				cl.t.Fatalf("%s: %v", cl.name, err)
			}
			mind = rules.NewPlayer(g)
			mind.Observe(&v)
		case "update":
			if m.num("table") == table {
				v = decodeView(cl.t, m)
				mind.Observe(&v)
			}
		case "refused":
			switch m.str("code") {
			case "tooLate", "gameOver", "lockedOut", "timeUp":
				// Slower than another seat or than the game's clock, or
				// still locked out after a wrong claim the test made on
				// purpose: try again on the next version.
			default:
				cl.t.Fatalf("%s: a claim chosen from the view was refused: %v", cl.name, m)
			}
		case "over":
			have = false
			if onOver != nil {
				onOver(m)
			}
			if sessionOf(m).str("phase") == "over" {
				return m
			}
		case "pick":
			if m.num("picker") == cl.seat && !cl.silent {
				choices, _ := m["choices"].([]any)
				cl.send(msg{"type": "pick", "game": choices[len(choices)-1]})
			}
		case "error":
			if m.str("code") != "busy" {
				cl.t.Fatalf("%s: error %v", cl.name, m)
			}
			// The room's queue was full and dropped the claim: make it
			// again, as the error says.
			claimed = ""
		}
		if !have || v.Over || v.Seat < 0 {
			continue
		}
		key := fmt.Sprintf("%d/%d", table, v.Version)
		if key == claimed {
			continue
		}
		var a rules.Action
		if !mind.Decide(&v, &a) {
			continue
		}
		claimed = key
		out := msg{"type": a.Kind.String(), "table": table, "version": v.Version}
		if a.Kind.HasSymbol() {
			out["symbol"] = a.Symbol
		}
		if a.Kind == rules.ActionClaim || a.Target.Len() > 0 {
			out["target"] = a.Target
		}
		cl.send(out)
		mind.Sent(&v, &a)
	}
}

// playAsync runs cl.play in a goroutine; the channel yields its final
// message, or nil when the goroutine failed the test.
func (cl *client) playAsync() <-chan msg {
	done := make(chan msg, 1)
	go func() {
		var final msg
		defer func() { done <- final }()
		final = cl.play(nil)
	}()
	return done
}

// wait returns what a playAsync channel yields, failing after a deadline.
func wait(t *testing.T, done <-chan msg) msg {
	t.Helper()
	select {
	case m := <-done:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("a client bot did not finish within 30 s")
	}
	return nil
}

// shortGames are the options and decks that keep the timed games short in
// tests: the shortest phases and turns, and a small deck where the game
// turns cards one by one.
var shortGames = map[string]msg{
	"reflection": {"options": map[string]string{"look": "1000", "study": "1000", "answer": "5000", "target": "5"}},
	"guess":      {"options": map[string]string{"interval": "200"}, "deck": "order-3"},
}

// TestEveryGamePlayedByClientBots plays every registered game to the end
// between WebSocket clients that choose their actions from the views they
// receive (the fewest seats the game takes, two at least), the timed games
// moved on by the room's clock; then checks the game was stored and
// replays step by step.
func TestEveryGamePlayedByClientBots(t *testing.T) {
	for _, g := range rules.Games() {
		name := g.Info().Name
		t.Run(name, func(t *testing.T) {
			ts := start(t, fastConfig())
			seats := max(2, g.Info().MinPlayers)
			if name == "learning" {
				seats = 1
			}
			host := ts.connect("host")
			spec := msg{"game": name, "seats": seats, "games": 1}
			maps.Copy(spec, shortGames[name])
			code := host.create(spec)
			players := []*client{host}
			for i := 1; i < seats; i++ {
				c := ts.connect("player" + strconv.Itoa(i))
				c.join(code)
				players = append(players, c)
			}
			host.send(msg{"type": "start"})
			finals := make([]msg, len(players))
			var chans []<-chan msg
			for _, c := range players {
				chans = append(chans, c.playAsync())
			}
			for i, ch := range chans {
				finals[i] = wait(t, ch)
			}
			if t.Failed() {
				return
			}
			res, _ := finals[0]["result"].(map[string]any)
			if res == nil || len(res["winners"].([]any)) == 0 {
				t.Fatalf("over without a result: %v", finals[0])
			}
			st := sessionOf(finals[0])
			if st.num("played") != 1 || st["standings"] == nil {
				t.Fatalf("session after the game: %v", st)
			}
			var list struct {
				Games []struct {
					ID   int64  `json:"id"`
					Game string `json:"game"`
				} `json:"games"`
			}
			eventually(t, "the game is in the history", func() bool {
				_, b := ts.get("/api/history")
				json.Unmarshal(b, &list)
				return len(list.Games) > 0
			})
			last := list.Games[len(list.Games)-1]
			if last.Game != name && len(list.Games) == 1 {
				t.Fatalf("history lists %v, want %s", list.Games, name)
			}
			code2, body := ts.get(fmt.Sprintf("/api/history/%d/steps", list.Games[0].ID))
			if code2 != 200 {
				t.Fatalf("steps: %d %s", code2, body)
			}
			var rep struct {
				Steps []struct {
					View struct {
						Over bool `json:"over"`
					} `json:"view"`
				} `json:"steps"`
			}
			if err := json.Unmarshal(body, &rep); err != nil || len(rep.Steps) < 2 || !rep.Steps[len(rep.Steps)-1].View.Over {
				t.Fatalf("steps do not end with the game over: %v %.300s", err, body)
			}
		})
	}
}
