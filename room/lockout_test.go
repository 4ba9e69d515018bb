package room

import (
	"fmt"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/rules"
)

// TestRoomLockout checks the lock-out convention of a room, the one the
// protocol, dobble serve's --lockout and the records share: a create
// request's lockout of 0 is none and N is N ms; without one the room takes
// the server's (Config.Lockout: 1000 ms by default, rules.NoLockout for a
// server run with --lockout 0). The lobby says which, and a wrong claim
// locks its seat out for exactly that long, or not at all.
func TestRoomLockout(t *testing.T) {
	for _, tc := range []struct {
		server int64  // Config.Lockout
		field  string // the create request's lockout member, if any
		want   int64  // the lobby's lockout, in ms; 0 for none
	}{
		{0, ``, 1000},
		{0, `, "lockout": 0`, 0},
		{0, `, "lockout": 250`, 250},
		{0, `, "lockout": 5000`, 5000},
		{rules.NoLockout, ``, 0},
		{rules.NoLockout, `, "lockout": 700`, 700},
		{3000, ``, 3000},
		{3000, `, "lockout": 0`, 0},
	} {
		name := fmt.Sprintf("server %d%s", tc.server, tc.field)
		cfg := testConfig()
		cfg.Lockout = tc.server
		h := newHarness(t, cfg)
		host := h.connect("host")
		host.send(`{"type": "create", "room": {"game": "tower", "seats": 2%s}}`, tc.field)
		code := host.take("joined").str("room")
		if lo := host.take("lobby")["room"].(map[string]any)["lockout"]; lo != float64(tc.want) {
			t.Errorf("%s: the lobby says lockout %v, want %d", name, lo, tc.want)
		}
		guest := h.connect("guest")
		guest.send(`{"type": "join", "room": %q}`, code)
		guest.take("joined")
		host.send(`{"type": "start"}`)
		h.advance(testConfig().Countdown)
		guest.take("state")
		st := h.room().tab.State()

		// A wrong claim 2 s in locks the guest out for the room's lock-out.
		h.advance(2 * time.Second)
		right := st.Moves(1, nil)[0]
		wrong := right
		for st.Check(wrong) == nil {
			wrong.Symbol = (wrong.Symbol + 1) % st.Cards().Symbols()
		}
		guest.act(wrong, 0)
		f := guest.take("refused")
		if _, has := f["lockedUntil"]; f.str("code") != "notAMatch" || has != (tc.want > 0) || (has && f.num("lockedUntil") != 2000+tc.want) {
			t.Errorf("%s: wrong claim refused with %v", name, f)
		}
		guest.act(right, 0)
		if tc.want > 0 {
			if f := guest.take("refused"); f.str("code") != "lockedOut" {
				t.Errorf("%s: claim during the lock-out: %v", name, f)
			}
			h.advance(time.Duration(tc.want) * time.Millisecond)
			guest.act(right, 0)
		}
		if u := host.take("update"); u.num("version") != 1 {
			t.Errorf("%s: right claim: %v", name, u)
		}
	}
}

// TestRoomLockoutRefused checks that a create request's lockout out of
// range is refused, saying what is accepted, and makes no room.
func TestRoomLockoutRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	host := h.connect("host")
	for _, lo := range []int64{-1, MaxLockout + 1} {
		host.send(`{"type": "create", "room": {"game": "tower", "seats": 2, "lockout": %d}}`, lo)
		e := host.take("error")
		if want := fmt.Sprintf("lockout %d ms: use 0 (none) to %d", lo, MaxLockout); e.str("code") != "badRequest" || e.str("message") != want {
			t.Errorf("lockout %d: %v, want badRequest %q", lo, e, want)
		}
		host.none("joined")
	}
	if len(h.rooms) != 0 {
		t.Errorf("%d rooms made", len(h.rooms))
	}
}
