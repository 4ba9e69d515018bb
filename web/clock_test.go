package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// events returns the events of an update message.
func events(m msg) []msg {
	var out []msg
	for _, e := range m["events"].([]any) {
		out = append(out, msg(e.(map[string]any)))
	}
	return out
}

// TestTimedGameClock leaves every turn of a game of Memory unplayed: the
// room's clock passes the turn when the turn time runs out, at the
// deadline the view announced, to one seat then the other, and tells
// everyone.
func TestTimedGameClock(t *testing.T) {
	ts := start(t, fastConfig())
	a, b, sa, _ := twoPlayers(t, ts, msg{"game": "memory", "seats": 2, "games": 1, "options": map[string]string{"turn-time": "1000"}})
	view := sa["view"].(map[string]any)
	if msg(view).num("turn") != 0 || msg(view).num("deadline") != 1000 {
		t.Fatalf("the first view's turn and deadline: %v %v, want seat 0 until 1000 ms", view["turn"], view["deadline"])
	}
	deadline := 1000
	for _, want := range []int{1, 0} {
		for _, c := range []*client{a, b} {
			u := c.expect("update")
			ev := events(u)
			if len(ev) != 1 || ev[0].str("kind") != "turn" || ev[0].num("seat") != want {
				t.Fatalf("%s: the clock's update %v, want the turn passing to seat %d", c.name, ev, want)
			}
			if u.num("at") < deadline {
				t.Fatalf("%s: the turn passed at %d ms, before its deadline %d ms", c.name, u.num("at"), deadline)
			}
			v := msg(u["view"].(map[string]any))
			if v.num("turn") != want || v.num("deadline") < deadline+1000 {
				t.Fatalf("%s: after the tick the view has turn %d and deadline %d", c.name, v.num("turn"), v.num("deadline"))
			}
		}
		deadline += 1000
	}
}

// TestSeatActionMessages sends the action messages of False Poker, right
// and wrong: a field missing is badMessage, an action the rules refuse is
// refused with their code (not your turn, a card not in one's hand, an
// action the game does not have) and, in a room with lock-outs, locks
// nobody out (only claims and draws do), the clock's tick is no client
// message, and a card laid at once reaches everyone face up, while the
// cards in hand stay hidden from the other seat.
func TestSeatActionMessages(t *testing.T) {
	ts := start(t, fastConfig())
	a, b, sa, _ := twoPlayers(t, ts, msg{"game": "false-poker", "seats": 2, "games": 1, "lockout": 2000, "options": map[string]string{"turn-time": "60000"}})
	va := decodeView(t, sa)
	handOf := func(v rules.View, seat int) []int {
		var hand []int
		for i, z := range v.Zones {
			if z.Kind == rules.ZoneHand && z.Seat == seat {
				hand = append(hand, i)
			}
		}
		return hand
	}
	mine, hers := handOf(va, 0), handOf(va, 1)
	for _, z := range hers {
		if len(va.Zones[z].Cards) != 0 {
			t.Fatalf("seat 0 sees a card in seat 1's hand: zone %d %v", z, va.Zones[z].Cards)
		}
	}
	for _, tc := range []struct {
		frame, code, says string
	}{
		{`{"type": "lay", "table": 0, "version": 0}`, protocol.CodeBadMessage, `"target"`},
		{`{"type": "flip", "table": 0, "version": 0, "target": [2]}`, protocol.CodeBadMessage, `"symbol"`},
		{`{"type": "stop", "table": 0}`, protocol.CodeBadMessage, `"version"`},
		{`{"type": "tick", "table": 0, "version": 0}`, protocol.CodeBadMessage, `unknown type "tick"`},
		{`{"type": "take", "table": 0, "version": 0, "target": [1, 2, 3, 4]}`, protocol.CodeBadMessage, "at most 3"},
	} {
		a.sendRaw([]byte(tc.frame))
		e := a.expectError(tc.code)
		if !strings.Contains(e.str("message"), tc.says) {
			t.Errorf("%s: message %q does not say %q", tc.frame, e.str("message"), tc.says)
		}
	}
	for _, tc := range []struct {
		c    *client
		m    msg
		code string
	}{
		{b, msg{"type": "stop"}, "notYourTurn"},
		{a, msg{"type": "lay", "target": []int{hers[0]}}, "badTarget"},
		{a, msg{"type": "write", "symbol": 1}, "malformed"},
		{a, msg{"type": "guess", "symbol": 1}, "malformed"},
	} {
		tc.m["table"], tc.m["version"] = 0, 0
		tc.c.send(tc.m)
		r := tc.c.expect("refused")
		if r.str("code") != tc.code || r.str("reason") == "" || r["lockedUntil"] != nil || strings.Contains(r.str("reason"), "locked") {
			t.Errorf("%v: refused %v, want code %s with a reason and no lock-out", tc.m, r, tc.code)
		}
	}
	card := va.Zones[mine[2]].Cards[0]
	a.send(msg{"type": "lay", "table": 0, "version": 0, "target": []int{mine[2]}})
	for _, c := range []*client{a, b} {
		u := c.expect("update")
		ev := events(u)
		if len(ev) != 2 || ev[0].str("kind") != "move" || ev[0].num("card") != card.Card || ev[0].num("to") != 1 ||
			ev[1].str("kind") != "turn" || ev[1].num("seat") != 1 {
			t.Fatalf("%s: the lay's events %v, want card %d moved to the row and the turn to seat 1", c.name, ev, card.Card)
		}
		v := decodeView(t, u)
		if row := v.Zones[1].Cards; len(row) != 2 || row[1].Card != card.Card {
			t.Fatalf("%s: the row after the lay: %v", c.name, row)
		}
	}
}

// TestGamesTheRoomCannotSeat checks that a room is not made for a game that
// cannot seat it, and that the loser's pick offers only the games its
// table can play, refusing another with a clear error.
func TestGamesTheRoomCannotSeat(t *testing.T) {
	ts := start(t, fastConfig())
	a := ts.connect("alice")
	a.send(msg{"type": "create", "room": msg{"game": "guess", "seats": 2}})
	if e := a.expectError(protocol.CodeBadRequest); !strings.Contains(e.str("message"), "guess takes 3 to 8") {
		t.Fatalf("a room of two for Guess: %v", e)
	}
	// Alice makes no claim: the instant bot wins, and she picks next.
	a.create(msg{"game": "tower", "seats": 2, "games": 2, "bots": []any{nil, "instant"}})
	a.send(msg{"type": "start"})
	p := a.expect("pick")
	var choices []string
	for _, c := range p["choices"].([]any) {
		choices = append(choices, c.(string))
	}
	if p.num("picker") != 0 || slices.Contains(choices, "guess") || !slices.Contains(choices, "memory") || !slices.Contains(choices, "false-poker") {
		t.Fatalf("the pick of a table of two: picker %d, choices %v; want seat 0 offered the extra games but Guess", p.num("picker"), choices)
	}
	a.send(msg{"type": "pick", "game": "guess"})
	if e := a.expectError(protocol.CodeBadRequest); !strings.Contains(e.str("message"), "guess takes 3 to 8") || !strings.Contains(e.str("message"), "memory") {
		t.Fatalf("picking Guess for two: %v", e)
	}
	a.send(msg{"type": "pick", "game": "memory"})
	if c := a.expect("countdown"); c.str("game") != "memory" {
		t.Fatalf("after picking Memory: %v", c)
	}
}
