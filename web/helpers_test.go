package web

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store"
)

// testServer is a real server on 127.0.0.1 port 0 with a real SQLite file.
type testServer struct {
	t     *testing.T
	url   string
	ws    string
	m     *room.Manager
	store *store.Store
	srv   *http.Server
}

// fastConfig is a room configuration for tests: short countdowns.
func fastConfig() room.Config {
	return room.Config{Countdown: 5 * time.Millisecond, BotPick: 5 * time.Millisecond, PickTime: time.Second, Rate: 1000, Burst: 1000}
}

// start runs a server with cfg until the test ends.
func start(t *testing.T, cfg room.Config) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "dobble.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	m, err := room.NewManager(cfg, st, decks, metrics, "dobble-test")
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(Options{Manager: m, Store: st, Decks: decks, Gatherer: reg, Metrics: metrics, MaxConns: 100, PingEvery: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	ts := &testServer{t: t, url: "http://" + ln.Addr().String(), ws: "ws://" + ln.Addr().String() + "/ws", m: m, store: st, srv: srv}
	t.Cleanup(func() {
		m.Close()
		srv.Close()
		st.Close()
	})
	return ts
}

// get fetches path and returns the status and body.
func (ts *testServer) get(path string) (int, []byte) {
	ts.t.Helper()
	resp, err := http.Get(ts.url + path)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// msg is a server message, decoded loosely.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) int    { f, _ := m[k].(float64); return int(f) }

// client is a real WebSocket client.
type client struct {
	t      *testing.T
	c      *websocket.Conn
	in     chan msg
	closed chan struct{}
	err    error // the read error that ended the connection
	name   string
	token  string
	room   string
	seat   int
	// silent makes play leave picks unanswered, for the room to pick.
	silent bool
}

// dial connects to ts without saying hello.
func (ts *testServer) dial() *client {
	ts.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ts.ws, nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	c.SetReadLimit(1 << 22)
	cl := &client{t: ts.t, c: c, in: make(chan msg, 4096), closed: make(chan struct{}), seat: -1}
	go func() {
		defer close(cl.closed)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				cl.err = err
				return
			}
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				cl.err = err
				return
			}
			cl.in <- m
		}
	}()
	ts.t.Cleanup(func() { c.CloseNow() })
	return cl
}

// connect dials and says hello as name.
func (ts *testServer) connect(name string) *client {
	ts.t.Helper()
	cl := ts.dial()
	cl.name = name
	cl.send(msg{"type": "hello", "v": 1, "name": name, "lang": "en"})
	cl.expect("welcome")
	return cl
}

// send sends one JSON message.
func (cl *client) send(m msg) {
	cl.t.Helper()
	b, _ := json.Marshal(m)
	cl.sendRaw(b)
}

// sendRaw sends one text frame.
func (cl *client) sendRaw(b []byte) {
	cl.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cl.c.Write(ctx, websocket.MessageText, b); err != nil {
		cl.t.Fatalf("%s: write: %v", cl.name, err)
	}
}

// next returns the next message, failing the test after a deadline.
func (cl *client) next() msg {
	cl.t.Helper()
	select {
	case m := <-cl.in:
		return m
	case <-cl.closed:
		select {
		case m := <-cl.in:
			return m
		default:
		}
		cl.t.Fatalf("%s: connection closed: %v", cl.name, cl.err)
	case <-time.After(15 * time.Second):
		cl.t.Fatalf("%s: no message for 15 s", cl.name)
	}
	return nil
}

// expect skips messages until one of type typ arrives; an error message
// fails the test unless typ is "error".
func (cl *client) expect(typ string) msg {
	cl.t.Helper()
	for {
		m := cl.next()
		if m.str("type") == typ {
			return m
		}
		if m.str("type") == "error" {
			cl.t.Fatalf("%s: waiting for %s, got error %v", cl.name, typ, m)
		}
	}
}

// expectError waits for an error message and checks its code.
func (cl *client) expectError(code string) msg {
	cl.t.Helper()
	for {
		m := cl.next()
		if m.str("type") == "error" {
			if m.str("code") != code {
				cl.t.Fatalf("%s: error %v, want code %s", cl.name, m, code)
			}
			return m
		}
	}
}

// waitClosed waits until the server closes the connection and returns the
// close status.
func (cl *client) waitClosed() (websocket.StatusCode, string) {
	cl.t.Helper()
	select {
	case <-cl.closed:
	case <-time.After(15 * time.Second):
		cl.t.Fatalf("%s: still open after 15 s", cl.name)
	}
	var ce websocket.CloseError
	if asClose(cl.err, &ce) {
		return ce.Code, ce.Reason
	}
	return -1, ""
}

func asClose(err error, ce *websocket.CloseError) bool {
	code := websocket.CloseStatus(err)
	if code == -1 {
		return false
	}
	ce.Code = code
	if s := err.Error(); strings.Contains(s, "reason = ") {
		ce.Reason = s[strings.Index(s, "reason = ")+len("reason = "):]
	}
	return true
}

// create creates a room with spec and returns its code.
func (cl *client) create(spec msg) string {
	cl.t.Helper()
	cl.send(msg{"type": "create", "room": spec})
	j := cl.expect("joined")
	cl.room, cl.token, cl.seat = j.str("room"), j.str("token"), j.num("seat")
	return cl.room
}

// join joins room code.
func (cl *client) join(code string) {
	cl.t.Helper()
	cl.send(msg{"type": "join", "room": code})
	j := cl.expect("joined")
	cl.room, cl.token, cl.seat = j.str("room"), j.str("token"), j.num("seat")
}

// view is a rules.View with the fields a client bot needs.
type view struct {
	Game    string          `json:"game"`
	Seat    int             `json:"seat"`
	Version uint64          `json:"version"`
	Round   int             `json:"round"`
	Over    bool            `json:"over"`
	Turn    int             `json:"turn"`
	Extra   json.RawMessage `json:"extra"`
	Zones   []struct {
		Zone  int              `json:"zone"`
		Kind  rules.ZoneKind   `json:"kind"`
		Seat  int              `json:"seat"`
		Count int              `json:"count"`
		Cards []rules.CardView `json:"cards"`
	} `json:"zones"`
}

// decodeView reads the "view" of a state or update message.
func decodeView(t *testing.T, m msg) view {
	t.Helper()
	b, _ := json.Marshal(m["view"])
	var v view
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// top returns the symbols of zone z's top visible card, or nil.
func (v *view) top(z int) []int {
	if z < 0 || z >= len(v.Zones) || len(v.Zones[z].Cards) == 0 {
		return nil
	}
	c := v.Zones[z].Cards
	return c[len(c)-1].Symbols
}

// common returns a symbol on every one of the given cards, or -1.
func common(cards ...[]int) int {
	if len(cards) == 0 || cards[0] == nil {
		return -1
	}
	for _, s := range cards[0] {
		ok := true
		for _, c := range cards[1:] {
			if !slices.Contains(c, s) {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	return -1
}

// zonesWhere lists the zones satisfying f.
func (v *view) zonesWhere(f func(kind rules.ZoneKind, seat int) bool) []int {
	var out []int
	for i, z := range v.Zones {
		if f(z.Kind, z.Seat) {
			out = append(out, i)
		}
	}
	return out
}

// choose picks a correct claim from a view, knowing only what the view
// shows: the symbol, its targets, or a draw. ok is false when the seat has
// nothing to do.
func choose(v *view) (symbol int, target []int, draw, ok bool) {
	me := v.Seat
	own := v.zonesWhere(func(k rules.ZoneKind, s int) bool { return k == rules.ZonePile && s == me })
	others := v.zonesWhere(func(k rules.ZoneKind, s int) bool { return k == rules.ZonePile && s != me && s >= 0 })
	centre := v.zonesWhere(func(k rules.ZoneKind, s int) bool { return k == rules.ZoneCentre })
	switch v.Game {
	case "learning":
		cs := v.Zones[centre[0]].Cards
		if len(cs) == 2 {
			if s := common(cs[0].Symbols, cs[1].Symbols); s >= 0 {
				return s, []int{}, false, true
			}
		}
	case "tower", "well":
		if s := common(v.top(own[0]), v.top(centre[0])); s >= 0 {
			return s, []int{}, false, true
		}
	case "duel":
		if s := common(v.top(own[0]), v.top(others[0])); s >= 0 {
			return s, []int{}, false, true
		}
	case "hot-potato":
		for _, z := range others {
			if s := common(v.top(own[0]), v.top(z)); s >= 0 {
				return s, []int{z}, false, true
			}
		}
	case "poisoned-gift":
		for _, z := range others {
			if s := common(v.top(centre[0]), v.top(z)); s >= 0 {
				return s, []int{z}, false, true
			}
		}
	case "catch-them-all":
		for _, z := range v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == "ring" }) {
			if s := common(v.top(centre[0]), v.top(z)); s >= 0 {
				return s, []int{z}, false, true
			}
		}
	case "subway-rescue":
		for _, z := range v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == "layout" }) {
			if s := common(v.top(own[0]), v.top(z)); s >= 0 {
				return s, []int{z}, false, true
			}
		}
	case "triplets":
		slots := v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == "slot" })
		for i := range slots {
			for j := i + 1; j < len(slots); j++ {
				for k := j + 1; k < len(slots); k++ {
					if s := common(v.top(slots[i]), v.top(slots[j]), v.top(slots[k])); s >= 0 {
						return s, []int{slots[i], slots[j], slots[k]}, false, true
					}
				}
			}
		}
	case "tower-7":
		for _, a := range own {
			for _, b := range others {
				if s := common(v.top(a), v.top(b)); s >= 0 {
					return s, []int{a, b}, false, true
				}
			}
		}
	case "anarchy-pancakes":
		onto := append(slices.Clone(centre), others...)
		for _, a := range own {
			for _, b := range onto {
				if s := common(v.top(a), v.top(b)); s >= 0 {
					return s, []int{a, b}, false, true
				}
			}
		}
		if v.Zones[0].Count > 0 {
			return 0, nil, true, true
		}
	}
	return 0, nil, false, false
}

// act is one action a client bot sends: the message's type, and its
// symbol and target where the type takes them.
type act struct {
	typ    string
	symbol int
	target []int
}

// mind is what a client bot remembers of the table it plays, from the
// views it was shown: the cards seen face up in Memory, the four cards
// studied in Reflection.
type mind struct {
	table int
	seen  map[int][]int // Memory: face-down place -> the symbols of the card flipped there
	round int           // Reflection: the round studied
	study [][]int       // Reflection: the four cards studied, in place order
	wrote int           // Reflection: the answers sent this round, some perhaps not yet in a view
}

// observe takes in the view of table: a new table starts a fresh memory.
func (m *mind) observe(table int, v *view) {
	if m.seen == nil || m.table != table {
		*m = mind{table: table, seen: map[int][]int{}}
	}
	switch v.Game {
	case "memory":
		var x rules.MemoryView
		json.Unmarshal(v.Extra, &x)
		if l := x.Last; l != nil {
			if l.Taken {
				delete(m.seen, l.Zone)
			} else {
				m.seen[l.Zone] = x.Symbols
			}
		}
	case "reflection":
		var x rules.ReflectionView
		json.Unmarshal(v.Extra, &x)
		if x.Phase == "study" && m.round != v.Round {
			m.round, m.study, m.wrote = v.Round, nil, 0
			for _, z := range v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == rules.ZoneStudy }) {
				m.study = append(m.study, v.top(z))
			}
		}
	}
}

// decide picks the client bot's next action from the view and what it
// remembers, knowing only what the view shows: a correct claim (choose),
// or in the games with other moves a sensible one (the card remembered in
// Memory, the answers studied in Reflection, a guess once one symbol is
// left in Guess, a card that keeps the row honest or STOP in False Poker,
// a token, a discard or a take in Collect the Symbols). ok is false when
// the seat has nothing to do.
func decide(v *view, m *mind) (a act, ok bool) {
	me := v.Seat
	switch v.Game {
	case "memory":
		if v.Turn != me {
			return a, false
		}
		var x rules.MemoryView
		json.Unmarshal(v.Extra, &x)
		up := v.top(v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == rules.ZoneCentre })[0])
		var free, all []int
		for _, z := range v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == rules.ZoneFaceDown }) {
			if v.Zones[z].Count > 0 {
				all = append(all, z)
				if !slices.Contains(x.Marked, z) {
					free = append(free, z)
				}
			}
		}
		if len(free) == 0 {
			free = all
		}
		for _, z := range free {
			if syms, known := m.seen[z]; known {
				return act{typ: "flip", symbol: common(up, syms), target: []int{z}}, true
			}
		}
		if len(free) > 0 {
			return act{typ: "flip", symbol: up[0], target: []int{free[0]}}, true
		}
	case "reflection":
		var x rules.ReflectionView
		json.Unmarshal(v.Extra, &x)
		n := max(len(x.Answers), m.wrote)
		if x.Phase != "answer" || n >= 4 || m.round != v.Round || len(m.study) != 4 {
			return a, false
		}
		fifth := v.top(v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == rules.ZoneCentre })[0])
		m.wrote = n + 1
		return act{typ: "write", symbol: common(fifth, m.study[n])}, true
	case "guess":
		var x rules.GuessView
		json.Unmarshal(v.Extra, &x)
		if x.Host == me || slices.Contains(x.Out, me) {
			return a, false
		}
		turned := v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == rules.ZoneTurned })[0]
		var cands []int
		have := false
		for i, f := range x.Flips {
			if !f.Secret {
				continue
			}
			syms := v.Zones[turned].Cards[i].Symbols
			if !have {
				cands, have = slices.Clone(syms), true
				continue
			}
			cands = slices.DeleteFunc(cands, func(s int) bool { return !slices.Contains(syms, s) })
		}
		cands = slices.DeleteFunc(cands, func(s int) bool {
			if slices.Contains(x.Eliminated, s) {
				return true
			}
			for i, f := range x.Flips {
				if !f.Secret && slices.Contains(v.Zones[turned].Cards[i].Symbols, s) {
					return true
				}
			}
			return false
		})
		if len(cands) == 1 {
			return act{typ: "guess", symbol: cands[0]}, true
		}
	case "false-poker":
		if v.Turn != me {
			return a, false
		}
		var x rules.FalsePokerView
		json.Unmarshal(v.Extra, &x)
		row := v.Zones[v.zonesWhere(func(k rules.ZoneKind, _ int) bool { return k == rules.ZoneRow })[0]].Cards
		var shared []int
		for i := 1; i < len(row); i++ {
			s := common(row[i-1].Symbols, row[i].Symbols)
			if slices.Contains(shared, s) {
				return act{typ: "stop"}, true // somebody laid a repeat: it costs them
			}
			shared = append(shared, s)
		}
		if x.Free[me] > 0 {
			for _, z := range v.zonesWhere(func(k rules.ZoneKind, s int) bool { return k == rules.ZoneHand && s == me }) {
				if c := v.top(z); c != nil && !slices.Contains(shared, common(row[len(row)-1].Symbols, c)) {
					return act{typ: "lay", target: []int{z}}, true
				}
			}
		}
		return act{typ: "stop"}, true
	case "collect-symbols":
		var x rules.CollectView
		json.Unmarshal(v.Extra, &x)
		pile := v.zonesWhere(func(k rules.ZoneKind, s int) bool { return k == rules.ZonePile && s == me })[0]
		if top := v.top(pile); top != nil {
			for _, s := range top {
				if slices.Contains(x.Tokens, s) {
					return act{typ: "claim", symbol: s, target: []int{}}, true
				}
			}
			return act{typ: "discard"}, true
		}
		for _, z := range v.zonesWhere(func(k rules.ZoneKind, s int) bool { return k == rules.ZoneDiscard && s != me }) {
			if v.Zones[z].Count > 0 {
				return act{typ: "take", target: []int{z}}, true
			}
		}
	default:
		sym, target, draw, ok := choose(v)
		if draw {
			return act{typ: "draw"}, ok
		}
		return act{typ: "claim", symbol: sym, target: target}, ok
	}
	return a, false
}
