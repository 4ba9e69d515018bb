package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestBusyWhenTheRoomQueueIsFull floods a room whose input queue holds one
// request from eight spectators at once, over real WebSockets, until some
// requests find the queue full. Each of those is answered with the error
// busy (echoing its id) and dropped: every request gets exactly one
// answer, busy or the room's own. Then the room is as healthy as before:
// /metrics counts every busy answer, and its players play their game to
// the end (a claim answered busy is made again), the spectators still
// connected and watching.
func TestBusyWhenTheRoomQueueIsFull(t *testing.T) {
	cfg := fastConfig()
	cfg.RoomQueue = 1
	cfg.PeerQueue = 4096
	cfg.Rate, cfg.Burst = 10000, 10000
	ts := start(t, cfg)
	a := ts.connect("alice")
	code := a.create(msg{"game": "tower", "seats": 2, "games": 1})
	b := ts.connect("bob")
	b.join(code)
	watchers := make([]*client, 8)
	for i := range watchers {
		w := ts.connect(fmt.Sprintf("watcher%d", i))
		w.send(msg{"type": "watch", "room": code})
		w.expect("joined")
		w.expect("lobby")
		watchers[i] = w
	}

	// A spectator's claim always reaches the room, which refuses it
	// (spectators cannot claim) without changing anything.
	const burst = 150
	busy, round := 0, 0
	deadline := time.Now().Add(30 * time.Second)
	for busy == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no request was answered busy in %d rounds of %d requests from %d spectators at once", round, burst, len(watchers))
		}
		round++
		errs := make([]error, len(watchers))
		var wg sync.WaitGroup
		for i, w := range watchers {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				for j := range burst {
					frame := fmt.Sprintf(`{"type":"claim","id":"r%d-%d","table":0,"version":0,"symbol":1}`, round, j)
					if err := w.c.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
						errs[i] = err
						return
					}
				}
			})
		}
		wg.Wait()
		for i, w := range watchers {
			if errs[i] != nil {
				t.Fatalf("%s: write: %v", w.name, errs[i])
			}
			seen := map[string]bool{}
			for range burst {
				m := w.next()
				if m.str("type") != "error" {
					t.Fatalf("%s: a claim was answered with %v", w.name, m)
				}
				id := m.str("id")
				if !strings.HasPrefix(id, "r"+strconv.Itoa(round)+"-") || seen[id] {
					t.Fatalf("%s: an answer with id %q (round %d, answers so far %d)", w.name, id, round, len(seen))
				}
				seen[id] = true
				switch m.str("code") {
				case "busy":
					busy++
					if msg := m.str("message"); !strings.Contains(msg, code) || !strings.Contains(msg, "try again") {
						t.Errorf("%s: busy says %q; it should name the room and say to try again", w.name, msg)
					}
				case "notAllowed":
				default:
					t.Fatalf("%s: a spectator's claim was answered %v", w.name, m)
				}
			}
		}
	}
	t.Logf("%d busy answers in %d rounds", busy, round)
	_, body := ts.get("/metrics")
	if want := fmt.Sprintf("dobble_busy_total %d\n", busy); !strings.Contains(string(body), want) {
		t.Errorf("/metrics does not say %q:\n%s", want, body)
	}

	// The room is healthy: the game starts and is played to the end, and
	// every spectator sees it end.
	a.send(msg{"type": "start"})
	done := b.playAsync()
	final := a.play(nil)
	wait(t, done)
	if sessionOf(final).str("phase") != "over" {
		t.Fatalf("the session did not end: %v", final)
	}
	for _, w := range watchers {
		w.expect("over")
		select {
		case <-w.closed:
			t.Fatalf("%s was disconnected: %v", w.name, w.err)
		default:
		}
	}
}
