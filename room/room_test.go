package room

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// testConfig is the Manager configuration of the room tests; its bots
// may act from a game's start (TestRoomBotStart checks the hold-back).
func testConfig() Config {
	return Config{Countdown: 3 * time.Second, PickTime: 20 * time.Second, BotPick: 2 * time.Second, SeatHold: 30 * time.Second,
		BotStart: time.Millisecond, Rate: 1000, Burst: 1000, FairCap: NoFair}
}

// startRoom has a host create a room of spec (a JSON object), fills its
// free seats with the guests named, starts it and lets the countdown run
// out; it returns the host first, then the guests.
func startRoom(h *harness, spec string, guests ...string) []*client {
	h.t.Helper()
	host := h.connect("host")
	host.send(`{"type": "create", "room": %s}`, spec)
	joined := host.take("joined")
	clients := []*client{host}
	for _, name := range guests {
		c := h.connect(name)
		c.send(`{"type": "join", "room": %q}`, joined.str("room"))
		c.take("joined")
		clients = append(clients, c)
	}
	host.send(`{"type": "start"}`)
	for _, c := range clients {
		if cd := c.take("countdown"); cd.num("ms") != testConfig().Countdown.Milliseconds() {
			h.t.Fatalf("countdown %v", cd)
		}
	}
	h.advance(testConfig().Countdown)
	for _, c := range clients {
		if st := c.take("state"); st.num("elapsed") != 0 {
			h.t.Fatalf("%s: state %v", c.name, st)
		}
	}
	return clients
}

// TestRoomClaims plays the first claims of a Tower between two people:
// each claim is answered at the time it arrives, a late one and a wrong one
// are refused, and a wrong one locks its seat out for the lock-out.
func TestRoomClaims(t *testing.T) {
	h := newHarness(t, testConfig())
	c := startRoom(h, `{"game": "tower", "seats": 2, "lockout": 1000}`, "guest")
	host, guest := c[0], c[1]
	r := h.room()
	st := r.tab.State()

	// The host claims 1.5 s into the game; both see the update, at 1500.
	h.advance(1500 * time.Millisecond)
	first := st.Moves(0, nil)[0]
	host.act(first, 0)
	for _, c := range c {
		if u := c.take("update"); u.num("at") != 1500 || u.num("version") != 1 || u.num("table") != 0 {
			t.Fatalf("%s: update %v", c.name, u)
		}
	}
	// The guest's claim against version 0 is too late.
	late := first
	late.Seat = 1
	guest.act(late, 0)
	if f := guest.take("refused"); f.str("code") != "tooLate" || f.num("current") != 1 {
		t.Fatalf("late claim: %v", f)
	}
	// A wrong claim at 2000 locks the guest out until 3000.
	h.advance(500 * time.Millisecond)
	right := st.Moves(1, nil)[0]
	wrong := right
	for st.Check(wrong) == nil {
		wrong.Symbol = (wrong.Symbol + 1) % st.Cards().Symbols()
	}
	guest.act(wrong, 0)
	if f := guest.take("refused"); f.str("code") != "notAMatch" || f.num("lockedUntil") != 3000 {
		t.Fatalf("wrong claim: %v", f)
	}
	h.advance(999 * time.Millisecond)
	guest.act(right, 0)
	if f := guest.take("refused"); f.str("code") != "lockedOut" {
		t.Fatalf("claim during the lock-out: %v", f)
	}
	h.advance(time.Millisecond)
	guest.act(right, 0)
	if u := host.take("update"); u.num("at") != 3000 || u.num("version") != 2 {
		t.Fatalf("claim after the lock-out: %v", u)
	}
	// A claim for a table that does not exist is an error; a spectator
	// cannot claim.
	guest.act(right, 5)
	guest.take("error")
	spectator := h.connect("spectator")
	spectator.send(`{"type": "watch", "room": %q}`, r.code)
	if st := spectator.take("state"); st.num("seat") != -1 || st.num("elapsed") != 3000 {
		t.Fatalf("the spectator's state: %v", st)
	}
	spectator.act(st.Moves(0, nil)[0], 0)
	spectator.take("error")
}

// TestUpdatesPooled checks which updates go back to protocol's frame pool
// once written: a seat's, which no one else is sent, and the spectators'
// while one watches; not the one two spectators are both sent.
func TestUpdatesPooled(t *testing.T) {
	h := newHarness(t, testConfig())
	c := startRoom(h, `{"game": "tower", "seats": 2}`, "guest")
	r := h.room()
	watch := func(name string) *client {
		s := h.connect(name)
		s.send(`{"type": "watch", "room": %q}`, r.code)
		s.take("state")
		return s
	}
	claim := func(want map[*client]bool) {
		t.Helper()
		st := r.tab.State()
		c[0].act(st.Moves(0, nil)[0], 0)
		for who, pooled := range want {
			if u := who.take("update"); u[pooledKey] == true != pooled {
				t.Errorf("%s's update: pooled %v, want %v", who.name, u[pooledKey] == true, pooled)
			}
		}
	}
	one := watch("spectator")
	claim(map[*client]bool{c[0]: true, c[1]: true, one: true})
	two := watch("another spectator")
	claim(map[*client]bool{c[0]: true, c[1]: true, one: false, two: false})
}

// TestRoomBot seats a bot beside the host: the room wakes exactly when the
// bot's claim is due and applies it at the time the bot planned, not a
// millisecond before (a false alarm of the bot's is refused, which only
// the bot hears of).
func TestRoomBot(t *testing.T) {
	h := newHarness(t, testConfig())
	host := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "easy"]}`)[0]
	r := h.room()
	wrong := 0
	for claims := 0; claims < 5; {
		p, ok := r.tab.Plan(1)
		if !ok {
			t.Fatal("the bot has no plan")
		}
		due := r.start.Add(time.Duration(p.Action.At) * time.Millisecond)
		if !r.wake.Equal(due) {
			t.Fatalf("the room wakes at %v; the bot's claim is due at %v", r.wake.Sub(r.start), due.Sub(r.start))
		}
		h.advance(due.Sub(h.now) - time.Millisecond)
		host.none("update")
		h.advance(time.Millisecond)
		if p.Wrong {
			host.none("update")
			wrong++
			continue
		}
		claims++
		u := host.take("update")
		if u.num("at") != p.Action.At || u.num("version") != int64(claims) {
			t.Fatalf("the bot's claim %v; it was planned at %d ms", u, p.Action.At)
		}
	}
	if r.tab.Stats().Wrong != wrong {
		t.Fatalf("%d false alarms, the table counted %d", wrong, r.tab.Stats().Wrong)
	}
}

// TestRoomTick plays a timed game between two people who do nothing: the
// room wakes at the game's deadline and its clock ticks then.
func TestRoomTick(t *testing.T) {
	h := newHarness(t, testConfig())
	c := startRoom(h, `{"game": "reflection", "seats": 2}`, "guest")
	r := h.room()
	dl, ok := r.tab.State().Deadline()
	if !ok {
		t.Fatal("reflection has no deadline at its start")
	}
	if want := r.start.Add(time.Duration(dl) * time.Millisecond); !r.wake.Equal(want) {
		t.Fatalf("the room wakes %v into the game; the deadline is %d ms", r.wake.Sub(r.start), dl)
	}
	h.advance(time.Duration(dl-1) * time.Millisecond)
	c[0].none("update")
	h.advance(time.Millisecond)
	if u := c[1].take("update"); u.num("at") != dl || u.num("version") != 1 {
		t.Fatalf("the tick: %v", u)
	}
}

// TestRoomSession plays a session of two mini-games between the host, who
// never claims, and an instant bot, which wins each, claiming every 250 ms
// (the rooms' floor under the bots' times): the first game ends, the host
// picks the next, the session ends, each game is saved with a record that
// replays, and a rematch numbers its tables on.
func TestRoomSession(t *testing.T) {
	h := newHarness(t, testConfig())
	host := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "instant"], "games": 2}`)[0]
	r := h.room()
	h.advanceUntil("the first game's end", 250*time.Millisecond, time.Minute, func() bool { return r.phase != PhasePlay })
	over := host.take("over")
	if over.num("table") != 0 || over.str("game") != "tower" {
		t.Fatalf("over %v", over)
	}
	pick := host.take("pick")
	if pick.num("picker") != 0 || pick.num("ms") != testConfig().PickTime.Milliseconds() || r.phase != PhasePick {
		t.Fatalf("pick %v in phase %s", pick, r.phase)
	}
	// A spectator cannot pick, nor can the picker pick a game that is not
	// among the choices.
	choices := pick["choices"].([]any)
	spectator := h.connect("spectator")
	spectator.send(`{"type": "watch", "room": %q}`, r.code)
	spectator.take("pick")
	spectator.send(`{"type": "pick", "game": %q}`, choices[0])
	spectator.take("error")
	host.send(`{"type": "pick", "game": "no-such-game"}`)
	host.take("error")
	host.send(`{"type": "pick", "game": %q}`, choices[0])
	if cd := host.take("countdown"); cd.num("table") != 1 || cd.str("game") != choices[0] {
		t.Fatalf("countdown %v", cd)
	}
	h.advance(testConfig().Countdown)
	host.take("state")
	h.advanceUntil("the second game's end", 250*time.Millisecond, time.Minute, func() bool { return r.phase != PhasePlay })
	if over := host.take("over"); over.num("table") != 1 {
		t.Fatalf("second over %v", over)
	}
	if lobby := host.take("lobby"); r.phase != PhaseOver || lobby["room"].(map[string]any)["phase"] != PhaseOver {
		t.Fatalf("after the session, phase %s, lobby %v", r.phase, lobby)
	}
	// A claim for the first table now is too late.
	host.act(rules.Action{Symbol: 1}, 0)
	if f := host.take("refused"); f.str("code") != "tooLate" {
		t.Fatalf("a claim at an old table: %v", f)
	}

	// Both games were saved, and their records replay to their ends.
	h.m.saves.Wait()
	games, err := h.store.List(context.Background(), 0, 10)
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games saved, %v", len(games), err)
	}
	for _, sum := range games {
		g, err := h.store.Get(context.Background(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := record.ReadAll(bytesReader(g.Record))
		if err != nil || len(recs) != 1 || recs[0].End == nil || !recs[0].End.Over {
			t.Fatalf("the record of %s: %v", sum.Game, err)
		}
		if _, _, err := recs[0].Replay(nil); err != nil {
			t.Fatalf("the record of %s does not replay: %v", sum.Game, err)
		}
		if sum.Winners[0] != 1 || sum.Room != r.code {
			t.Fatalf("saved %+v", sum)
		}
	}

	// A rematch numbers its tables on from the last.
	host.send(`{"type": "start"}`)
	if cd := host.take("countdown"); cd.num("table") != 2 {
		t.Fatalf("the rematch's countdown %v", cd)
	}
}

// TestRoomSeatHold disconnects a person during a game: the seat is held
// for SeatHold, the others are told, the token resumes it on another
// connection with the table as it is; once a hold has expired, the token
// is lost.
func TestRoomSeatHold(t *testing.T) {
	h := newHarness(t, testConfig())
	host := h.connect("host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2}}`)
	code := host.take("joined").str("room")
	guest := h.connect("guest")
	guest.send(`{"type": "join", "room": %q}`, code)
	token := guest.take("joined").str("token")
	host.send(`{"type": "start"}`)
	h.advance(testConfig().Countdown)

	guest.gone()
	if p := host.take("presence"); p.num("seat") != 1 || p["connected"] != false {
		t.Fatalf("presence %v", p)
	}
	h.advance(testConfig().SeatHold - time.Second)
	again := h.connect("guest")
	again.send(`{"type": "resume", "room": %q, "token": %q}`, code, token)
	if j := again.take("joined"); j.num("seat") != 1 {
		t.Fatalf("resumed %v", j)
	}
	if st := again.take("state"); st.num("seat") != 1 || st.num("elapsed") != (testConfig().SeatHold-time.Second).Milliseconds() {
		t.Fatalf("the state on resuming: %v", st)
	}
	if p := host.take("presence"); p["connected"] != true {
		t.Fatalf("presence %v", p)
	}
	// Gone again, past the hold: the token is lost, the seat stays at the
	// table, and the room lives on with its host.
	again.gone()
	h.advance(testConfig().SeatHold)
	third := h.connect("guest")
	third.send(`{"type": "resume", "room": %q, "token": %q}`, code, token)
	third.take("error")
	if h.room().closed {
		t.Fatal("the room closed with its host in it")
	}
	// The host leaves too; once the host's hold ends, nobody is left and
	// the room closes.
	host.gone()
	h.advance(testConfig().SeatHold)
	if !h.room().closed || h.m.Get(code) != nil {
		t.Fatal("an empty room stayed open")
	}
}

// TestRoomLobby checks the lobby's seats: a person who leaves frees the
// seat and the host's role passes on; only the host seats bots and starts;
// a full room refuses one more.
func TestRoomLobby(t *testing.T) {
	h := newHarness(t, testConfig())
	host := h.connect("host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 3}}`)
	code := host.take("joined").str("room")
	a, b := h.connect("a"), h.connect("b")
	a.send(`{"type": "join", "room": %q}`, code)
	a.take("joined")
	a.send(`{"type": "seat", "seat": 2, "bot": "easy"}`)
	a.take("error")
	a.send(`{"type": "start"}`)
	a.take("error")
	host.send(`{"type": "start"}`)
	if e := host.take("error"); e.str("code") != protocol.CodeNotAllowed {
		t.Fatalf("starting with a free seat: %v", e)
	}
	host.send(`{"type": "seat", "seat": 2, "bot": "easy"}`)
	b.send(`{"type": "join", "room": %q}`, code)
	if e := b.take("error"); e.str("code") != protocol.CodeRoomFull {
		t.Fatalf("joining a full room: %v", e)
	}
	host.send(`{"type": "leave"}`)
	host.take("closed")
	lobby := a.frames[len(a.frames)-1]
	if lobby.str("type") != "lobby" || lobby["room"].(map[string]any)["host"] != float64(1) {
		t.Fatalf("after the host left: %v", lobby)
	}
	b.send(`{"type": "join", "room": %q}`, code)
	if j := b.take("joined"); j.num("seat") != 0 {
		t.Fatalf("joined %v", j)
	}
}

// TestRoomBotNames seats bots of one level beside others in a lobby: two
// or more of a level are numbered in the order of their seats, one alone
// keeps its level's name, and the names follow every change of seats.
func TestRoomBotNames(t *testing.T) {
	h := newHarness(t, testConfig())
	host := h.connect("host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 4, "bots": [null, "easy", "hard", "easy"]}}`)
	host.take("joined")
	names := func(what string, want ...string) {
		t.Helper()
		lobby := host.await("lobby")
		var got []string
		for _, s := range lobby["room"].(map[string]any)["seats"].([]any) {
			got = append(got, s.(map[string]any)["name"].(string))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: the seats are named %q; want %q", what, got, want)
		}
	}
	names("as created", "host", "bot:easy 1", "bot:hard", "bot:easy 2")
	host.send(`{"type": "seat", "seat": 2, "bot": "easy"}`)
	names("a third easy bot", "host", "bot:easy 1", "bot:easy 2", "bot:easy 3")
	host.send(`{"type": "seat", "seat": 1, "bot": null}`)
	host.send(`{"type": "seat", "seat": 3, "bot": "expert"}`)
	host.await("lobby")
	names("one easy bot left", "host", "", "bot:easy", "bot:expert")
}

// TestRoomBotStart seats an instant bot beside a person at a Tower: with
// Config.BotStart at 1.5 s, the bot takes no card before then, so that
// the person sees the first cards, and plays at its floor afterwards.
func TestRoomBotStart(t *testing.T) {
	cfg := testConfig()
	cfg.BotStart = 1500 * time.Millisecond
	h := newHarness(t, cfg)
	host := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "instant"]}`)[0]
	h.advance(1499 * time.Millisecond)
	host.none("update")
	h.advance(time.Millisecond)
	if u := host.take("update"); u.num("at") != 1500 {
		t.Fatalf("the bot's first claim: %v, want it at 1500 ms", u)
	}
}
