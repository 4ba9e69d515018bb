package web

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
)

// twoPlayers starts a two-seat Tower between two clients and returns them
// with their first state messages.
func twoPlayers(t *testing.T, ts *testServer, spec msg) (*client, *client, msg, msg) {
	t.Helper()
	a := ts.connect("alice")
	if spec == nil {
		spec = msg{"game": "tower", "seats": 2, "games": 1}
	}
	code := a.create(spec)
	b := ts.connect("bob")
	b.join(code)
	a.send(msg{"type": "start"})
	return a, b, a.expect("state"), b.expect("state")
}

func TestReconnectResumesExactly(t *testing.T) {
	ts := start(t, fastConfig())
	a, b, sa, _ := twoPlayers(t, ts, nil)
	// Alice takes a card, so the table has moved on from the deal.
	va := decodeView(t, sa)
	claim := choose(t, &va)
	a.send(msg{"type": "claim", "table": 0, "version": va.Version, "symbol": claim.Symbol, "target": []int{}})
	a.expect("update")
	b.c.CloseNow()
	p := a.expect("presence")
	if p.num("seat") != 1 || p["connected"] != false {
		t.Fatalf("presence after bob left: %v", p)
	}
	b2 := ts.connect("bob again")
	b2.send(msg{"type": "resume", "room": b.room, "token": b.token})
	j := b2.expect("joined")
	if j.num("seat") != 1 || j.str("token") != b.token {
		t.Fatalf("joined on resume: %v", j)
	}
	state := b2.expect("state")
	if p := a.expect("presence"); p.num("seat") != 1 || p["connected"] != true {
		t.Fatalf("presence after resume: %v", p)
	}
	// The resumed view is the live table: same version and same cards as
	// the other player sees.
	a.send(msg{"type": "ping", "nonce": 1})
	var last msg
	for {
		m := a.next()
		if m.str("type") == "update" {
			last = m
		}
		if m.str("type") == "pong" {
			break
		}
	}
	vb := decodeView(t, state)
	if last != nil {
		if va := decodeView(t, last); va.Version != vb.Version || !slices.Equal(va.Top(0), vb.Top(0)) {
			t.Fatalf("resumed at version %d with centre %v; the table is at %d with %v", vb.Version, vb.Top(0), va.Version, va.Top(0))
		}
	}
	if vb.Seat != 1 || len(vb.Top(2)) == 0 {
		t.Fatalf("resumed view is not seat 1's: %+v", vb)
	}
	// Both play the game out from there.
	b2.seat, b2.room, b2.token = 1, b.room, b.token
	b2.in <- state
	done := b2.playAsync()
	a.play(nil)
	wait(t, done)
}

func TestStaleAndWrongClaims(t *testing.T) {
	ts := start(t, fastConfig())
	a, b, sa, sb := twoPlayers(t, ts, msg{"game": "tower", "seats": 2, "games": 1, "lockout": 2000})
	va, vb := decodeView(t, sa), decodeView(t, sb)
	claimA := choose(t, &va)
	claimB := choose(t, &vb)
	symA, symB := claimA.Symbol, claimB.Symbol
	// Alice claims first and wins the card.
	a.send(msg{"type": "claim", "table": 0, "version": va.Version, "symbol": symA, "target": []int{}})
	u := a.expect("update")
	if u.num("version") != 1 {
		t.Fatalf("update %v", u)
	}
	b.expect("update")
	// Bob's claim against version 0 is too late, and changes nothing.
	b.send(msg{"type": "claim", "table": 0, "version": 0, "symbol": symB, "target": []int{}, "id": "late"})
	r := b.expect("refused")
	if r.str("code") != "tooLate" || r.str("id") != "late" || r.num("current") != 1 {
		t.Fatalf("stale claim: %v", r)
	}
	// A symbol not on both cards is a wrong claim: refused and locked out.
	v1 := decodeView(t, u)
	wrong := -1
	for s := 0; s < 57; s++ {
		if !slices.Contains(v1.Top(0), s) && !slices.Contains(v1.Top(2), s) {
			wrong = s
			break
		}
	}
	b.send(msg{"type": "claim", "table": 0, "version": 1, "symbol": wrong, "target": []int{}})
	r = b.expect("refused")
	if r.str("code") != "notAMatch" || r.num("lockedUntil") == 0 {
		t.Fatalf("wrong claim: %v", r)
	}
	bv := v1
	bv.Seat = 1
	rightClaim := choose(t, &bv)
	right := rightClaim.Symbol
	b.send(msg{"type": "claim", "table": 0, "version": 1, "symbol": right, "target": []int{}})
	if r = b.expect("refused"); r.str("code") != "lockedOut" {
		t.Fatalf("claim while locked out: %v", r)
	}
	// Nobody can act for another seat, nor at a table that does not exist.
	b.send(msg{"type": "claim", "table": 0, "version": 1, "symbol": right, "target": []int{}, "seat": 0})
	if e := b.expectError(protocol.CodeNotAllowed); !strings.Contains(e.str("message"), "seat 0") {
		t.Fatalf("claim for another seat: %v", e)
	}
	b.send(msg{"type": "claim", "table": 7, "version": 1, "symbol": right, "target": []int{}})
	b.expectError(protocol.CodeBadRequest)
	// A spectator cannot act.
	w := ts.connect("watcher")
	w.send(msg{"type": "watch", "room": a.room})
	w.expect("joined")
	w.expect("state")
	w.send(msg{"type": "claim", "table": 0, "version": 1, "symbol": right, "target": []int{}})
	w.expectError(protocol.CodeNotAllowed)
	// The table is intact: the game still plays to the end.
	done := b.playAsync()
	a.in <- msg{"type": "state", "table": 0.0, "view": u["view"]}
	a.play(nil)
	wait(t, done)
}

func TestBadInput(t *testing.T) {
	cfg := fastConfig()
	ts := start(t, cfg)

	// Anything before hello closes the connection.
	c := ts.dial()
	c.send(msg{"type": "join", "room": "AAAAAAAA"})
	c.expectError(protocol.CodeNotAllowed)
	if code, _ := c.waitClosed(); code != websocket.StatusPolicyViolation {
		t.Fatalf("join before hello closed with %v", code)
	}

	a := ts.connect(`<i onclick=x>Ann</i>&"co`)
	for _, tc := range []struct {
		frame, code, says string
	}{
		{`{"type": "claim",`, protocol.CodeBadMessage, "not JSON"},
		{`[1,2,3]`, protocol.CodeBadMessage, "JSON object"},
		{`{"type": "fly"}`, protocol.CodeBadMessage, `unknown type "fly"`},
		{`{"v": 1}`, protocol.CodeBadMessage, `no "type"`},
		{`{"type": "claim", "symbol": "three"}`, protocol.CodeBadMessage, `"symbol"`},
		{`{"type": "claim", "table": 0, "version": 0, "symbol": 3}`, protocol.CodeNotAllowed, "not in a room"},
		{`{"type": "start"}`, protocol.CodeNotAllowed, "not in a room"},
		{`{"type": "join", "room": "ZZZZZZZZ"}`, protocol.CodeNoRoom, "ZZZZZZZZ"},
		{`{"type": "resume", "room": "ZZZZZZZZ"}`, protocol.CodeBadMessage, "token"},
		{`{"type": "create", "room": {"game": "chess", "seats": 2}}`, protocol.CodeBadRequest, "unknown game"},
		{`{"type": "create", "room": {"game": "tower", "seats": 9}}`, protocol.CodeBadRequest, "1 to 8 seats"},
		{`{"type": "create", "room": {"game": "tower", "seats": 2, "bots": [null, "godlike"]}}`, protocol.CodeBadRequest, "godlike"},
		{`{"type": "create", "room": {"game": "tower", "seats": 2, "deck": "order-6"}}`, protocol.CodeBadRequest, "order-6"},
		{`{"type": "create", "room": {"game": "tower", "seats": 2, "lockout": 99999}}`, protocol.CodeBadRequest, "lockout"},
		{`{"type": "hello", "v": 1, "name": "again"}`, protocol.CodeNotAllowed, "already"},
	} {
		a.sendRaw([]byte(tc.frame))
		e := a.expectError(tc.code)
		if !strings.Contains(e.str("message"), tc.says) {
			t.Errorf("%s: message %q does not say %q", tc.frame, e.str("message"), tc.says)
		}
	}
	if err := a.c.Write(t.Context(), websocket.MessageBinary, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if e := a.expectError(protocol.CodeBadMessage); !strings.Contains(e.str("message"), "binary") {
		t.Fatalf("binary frame: %v", e)
	}
	// The nickname is kept as typed, as text.
	code := a.create(msg{"game": "tower", "seats": 2, "games": 1})
	lobby := a.expect("lobby")
	seats := lobby["room"].(map[string]any)["seats"].([]any)
	if got := seats[0].(map[string]any)["name"]; got != `<i onclick=x>Ann</i>&"co` {
		t.Fatalf("name in the lobby: %q", got)
	}
	// A bad name, a resume with a wrong token, a full room.
	n := ts.dial()
	n.send(msg{"type": "hello", "v": 1, "name": strings.Repeat("x", 30)})
	n.expectError(protocol.CodeBadRequest)
	n.send(msg{"type": "hello", "v": 1, "name": "nora"})
	n.expect("welcome")
	n.send(msg{"type": "resume", "room": code, "token": "0123"})
	n.expectError(protocol.CodeBadToken)
	n.join(code)
	x := ts.connect("xavier")
	x.send(msg{"type": "join", "room": code})
	x.expectError(protocol.CodeRoomFull)
	// Only the host starts; an oversized frame closes with 1009.
	n.send(msg{"type": "start"})
	n.expectError(protocol.CodeNotAllowed)
	big := ts.connect("big")
	big.sendRaw([]byte(`{"type":"ping","nonce":"` + strings.Repeat("x", protocol.MaxFrame) + `"}`))
	if code, _ := big.waitClosed(); code != websocket.StatusMessageTooBig {
		t.Fatalf("oversized frame closed with %v", code)
	}
	// After all that, the room plays a game to the end.
	a.send(msg{"type": "start"})
	done := n.playAsync()
	a.play(nil)
	wait(t, done)
}

func TestFloodIsRateLimitedThenClosed(t *testing.T) {
	cfg := fastConfig()
	cfg.Rate, cfg.Burst, cfg.FloodLimit = 1, 5, 20
	ts := start(t, cfg)
	c := ts.connect("flood")
	for i := 0; i < 100; i++ {
		b, _ := json.Marshal(msg{"type": "ping", "nonce": i})
		if c.c.Write(t.Context(), websocket.MessageText, b) != nil {
			break
		}
	}
	code, reason := c.waitClosed()
	limited, got := 0, 0
	for len(c.in) > 0 {
		m := <-c.in
		got++
		if m.str("code") == protocol.CodeRateLimited {
			limited++
		}
	}
	if limited == 0 || code != websocket.StatusPolicyViolation || !strings.Contains(reason, "flood") {
		t.Fatalf("%d messages, %d rateLimited errors, closed with %v %q", got, limited, code, reason)
	}
}

func TestSlowConsumerIsDisconnected(t *testing.T) {
	// The queue must be long enough for the players' own connections never
	// to fall that far behind on a busy machine, and the session long
	// enough (three Towers, over 150 frames) to overflow it for a peer
	// nobody reads.
	cfg := fastConfig()
	cfg.PeerQueue = 64
	ts := start(t, cfg)
	a := ts.connect("alice")
	code := a.create(msg{"game": "tower", "seats": 2, "games": 3})
	b := ts.connect("bob")
	b.join(code)
	// A spectator whose frames nobody takes off its queue.
	slow := ts.m.NewPeer()
	now := time.Now()
	ts.m.Handle(slow, []byte(`{"type":"hello","v":1,"name":"slow"}`), now)
	ts.m.Handle(slow, []byte(`{"type":"watch","room":"`+code+`"}`), now)
	a.send(msg{"type": "start"})
	done := b.playAsync()
	a.play(nil)
	wait(t, done)
	select {
	case <-slow.Done():
	default:
		t.Fatal("the slow spectator is still connected")
	}
	if code, reason := slow.CloseStatus(); code != room.StatusPolicy || !strings.Contains(reason, "slow consumer") {
		t.Fatalf("slow spectator closed with %d %q", code, reason)
	}
	_, body := ts.get("/metrics")
	if !strings.Contains(string(body), "dobble_slow_consumers_total 1") {
		t.Fatalf("metrics do not count the slow consumer:\n%s", body)
	}
}

func TestRoomFreedWhenEveryoneLeaves(t *testing.T) {
	cfg := fastConfig()
	cfg.SeatHold = 50 * time.Millisecond
	ts := start(t, cfg)
	// In the lobby: leaving frees the seat, and the last one out closes
	// the room.
	a := ts.connect("alice")
	code := a.create(msg{"game": "tower", "seats": 3, "games": 1})
	b := ts.connect("bob")
	b.join(code)
	a.send(msg{"type": "leave"})
	a.expect("closed")
	for {
		l := b.expect("lobby")
		seats := l["room"].(map[string]any)["seats"].([]any)
		if seats[0].(map[string]any)["kind"] != "free" {
			continue
		}
		if l["room"].(map[string]any)["host"].(float64) != 1 {
			t.Fatalf("the host's role did not pass to bob: %v", l)
		}
		break
	}
	b.send(msg{"type": "leave"})
	eventually(t, "the lobby room is closed", func() bool { return ts.m.Rooms() == 0 })

	// In a game: seats are held, then the room closes when the holds end,
	// its bot still playing meanwhile.
	a, b, _, _ = twoPlayers(t, ts, msg{"game": "tower", "seats": 3, "games": 1, "bots": []any{nil, nil, "easy"}})
	w := ts.connect("watcher")
	w.send(msg{"type": "watch", "room": a.room})
	w.expect("joined")
	a.c.CloseNow()
	b.c.CloseNow()
	if c := w.expect("closed"); c.str("reason") != "everyone left" {
		t.Fatalf("closed: %v", c)
	}
	eventually(t, "the game room is freed", func() bool { return ts.m.Rooms() == 0 })
	if _, body := ts.get("/metrics"); !strings.Contains(string(body), "dobble_rooms 0") {
		t.Fatalf("metrics still count rooms:\n%s", body)
	}
}

func TestHTTPEndpoints(t *testing.T) {
	ts := start(t, fastConfig())
	a := ts.connect("alice")
	pub := a.create(msg{"game": "tower", "seats": 2})
	p := ts.connect("pat")
	priv := p.create(msg{"game": "well", "seats": 2, "private": true})
	_, body := ts.get("/api/rooms")
	if !strings.Contains(string(body), pub) || strings.Contains(string(body), priv) {
		t.Fatalf("/api/rooms lists %s; want %s and not the private %s", body, pub, priv)
	}
	if code, body := ts.get("/api/games"); code != 200 || !strings.Contains(string(body), `"name":"anarchy-pancakes"`) || !strings.Contains(string(body), `"levels"`) {
		t.Fatalf("/api/games: %d %.200s", code, body)
	}
	for path, want := range map[string]int{
		"/api/cards/classic/0.svg":   200,
		"/api/cards/pancakes/40.svg": 200,
		"/api/cards/order-3/12.svg":  200,
		"/api/cards/classic/55.svg":  200, // a one-symbol card of symbol 0
		"/api/cards/classic/999.svg": 404,
		"/api/cards/nonsense/0.svg":  404,
		"/api/cards/classic/x.svg":   404,
		"/api/history/999":           404,
		"/api/history/abc":           400,
		"/api/history?limit=1000":    400,
		"/healthz":                   200,
		"/r/" + pub:                  200,
		"/api/history/999/steps":     404,
		"/api/decks/nonsense":        404,
		"/api/decks/order-6":         404,
	} {
		code, body := ts.get(path)
		if code != want {
			t.Errorf("%s: %d, want %d: %.200s", path, code, want, body)
		}
		if code == 200 && strings.HasSuffix(path, ".svg") && !strings.Contains(string(body), "data-symbol=") {
			t.Errorf("%s is not a card: %.200s", path, body)
		}
	}
	// A deck's symbols are named in every language of the interface: an
	// edition by its own set, a small order-Q deck by the classic pictures
	// it shows, a large one by number.
	for _, tc := range []struct {
		deck           string
		cards, symbols int
		id             int
		key, pl, zh    string
	}{
		{"beach", 55, 57, 0, "water-pistol", "pistolet na wodę", "水枪"},
		{"order-3", 13, 13, 0, "anchor", "kotwica", "锚"},
		{"order-8", 73, 73, 72, "73", "73", "73"},
	} {
		code, body := ts.get("/api/decks/" + tc.deck)
		var info room.DeckInfo
		if err := json.Unmarshal(body, &info); code != 200 || err != nil {
			t.Fatalf("/api/decks/%s: %d %v %.200s", tc.deck, code, err, body)
		}
		s := info.Symbols[tc.id]
		if info.Cards != tc.cards || len(info.Symbols) != tc.symbols || s.ID != tc.id || s.Key != tc.key ||
			s.Names["pl"] != tc.pl || s.Names["zh"] != tc.zh || len(s.Names) != 6 {
			t.Errorf("/api/decks/%s: %d cards, %d symbols, symbol %d = %+v", tc.deck, info.Cards, len(info.Symbols), tc.id, s)
		}
	}
	_, body = ts.get("/metrics")
	for _, want := range []string{"dobble_rooms 2", "dobble_connections 2", "dobble_claim_latency_seconds_bucket", "dobble_games_total"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestSessionPickAndStandings(t *testing.T) {
	ts := start(t, fastConfig())
	a := ts.connect("alice")
	code := a.create(msg{"game": "tower", "seats": 3, "games": 2, "scoring": "points", "bots": []any{nil, nil, "expert"}})
	b := ts.connect("bob")
	b.join(code)
	a.send(msg{"type": "start"})
	var overs []msg
	done := b.playAsync()
	final := a.play(func(m msg) { overs = append(overs, m) })
	wait(t, done)
	s := sessionOf(final)
	standings := s["standings"].(map[string]any)
	if s.num("played") != 2 || len(standings["seats"].([]any)) != 3 || standings["scoring"] != "points" {
		t.Fatalf("final session: %v", s)
	}
	// Rematch: the host starts again, at the table after the last one, so
	// that a claim made at the last session's tables is too late.
	a.send(msg{"type": "start"})
	last := overs[len(overs)-1].num("table")
	if c := a.expect("countdown"); c.num("table") != last+1 {
		t.Fatalf("rematch countdown: %v; the last game was at table %d", c, last)
	}
	b.send(msg{"type": "claim", "table": last, "version": 0, "symbol": 0, "target": []int{}, "id": "old"})
	m := b.expect("refused")
	for m.str("id") != "old" { // refusals of the claims that crossed the end of the session
		m = b.expect("refused")
	}
	if m.str("code") != "tooLate" || m.num("table") != last+1 {
		t.Fatalf("a claim at the last session's table: %v", m)
	}
}

// TestHostSeatsBotsAndServerFull covers the host's seat request (a bot on a
// free seat, a bad level, a person's seat, a non-host asking, freeing a
// seat, starting with a free seat) and the server's room limit.
func TestHostSeatsBotsAndServerFull(t *testing.T) {
	cfg := fastConfig()
	cfg.MaxRooms = 1
	ts := start(t, cfg)
	a := ts.connect("alice")
	code := a.create(msg{"game": "tower", "seats": 3, "games": 1})
	p := ts.connect("pat")
	p.send(msg{"type": "create", "room": msg{"game": "well", "seats": 2}})
	if m := p.expectError(protocol.CodeFull); !strings.Contains(m.str("message"), "most rooms open (1)") {
		t.Fatalf("serverFull: %v", m)
	}
	seatKinds := func(m msg) string {
		var kinds []string
		for _, s := range m["room"].(map[string]any)["seats"].([]any) {
			kinds = append(kinds, s.(map[string]any)["kind"].(string))
		}
		return strings.Join(kinds, ",")
	}
	// waitSeats skips lobby messages until the seats are as wanted (the
	// client's deadline fails the test otherwise).
	waitSeats := func(cl *client, want string) {
		t.Helper()
		for seatKinds(cl.expect("lobby")) != want {
			// an earlier lobby message: read on
		}
	}
	a.send(msg{"type": "seat", "seat": 1, "bot": "hard"})
	waitSeats(a, "human,bot,free")
	a.send(msg{"type": "seat", "seat": 2, "bot": "genius"})
	a.expectError(protocol.CodeBadRequest)
	a.send(msg{"type": "seat", "seat": 7, "bot": "easy"})
	a.expectError(protocol.CodeBadRequest)
	b := ts.connect("bob")
	b.join(code)
	b.send(msg{"type": "seat", "seat": 1, "bot": nil})
	b.expectError(protocol.CodeNotAllowed)
	a.send(msg{"type": "seat", "seat": 2, "bot": nil})
	a.expectError(protocol.CodeNotAllowed) // bob's seat
	a.send(msg{"type": "seat", "seat": 1, "bot": nil})
	waitSeats(a, "human,free,human")
	a.send(msg{"type": "start"})
	a.expectError(protocol.CodeNotAllowed) // seat 1 is free
	a.send(msg{"type": "seat", "seat": 1, "bot": "easy"})
	waitSeats(a, "human,bot,human")
	a.send(msg{"type": "start"})
	done := b.playAsync()
	a.play(nil)
	wait(t, done)
}

// TestPickTimesOut leaves the loser's pick unanswered: when the pick time
// runs out the room picks, and the session plays on to its end.
func TestPickTimesOut(t *testing.T) {
	cfg := fastConfig()
	cfg.PickTime = 50 * time.Millisecond
	ts := start(t, cfg)
	a := ts.connect("alice")
	code := a.create(msg{"game": "tower", "seats": 2, "games": 2})
	b := ts.connect("bob")
	b.join(code)
	a.silent, b.silent = true, true
	a.send(msg{"type": "start"})
	done := b.playAsync()
	final := a.play(nil)
	wait(t, done)
	sess := sessionOf(final)
	history, _ := sess["history"].([]any)
	if sess.num("played") != 2 || len(history) != 2 {
		t.Fatalf("the session ended after %d mini-games, want 2: %v", sess.num("played"), sess)
	}
	first, second := msg(history[0].(map[string]any)), msg(history[1].(map[string]any))
	if second.num("picker") != first.num("loser") {
		t.Fatalf("the second game is recorded as picked by seat %d; the loser of the first was seat %d", second.num("picker"), first.num("loser"))
	}
}
