package crash

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/serveproc"
	"github.com/dobble-dev/dobble/internal/tcpproxy"
	"github.com/dobble-dev/dobble/load"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/store/storetest"
)

// dobble is the dobble binary, built once for the tests of this package
// by its first test that needs it, and removed by TestMain.
var dobble = serveproc.Binary{Prefix: "dobble-crash-test-"}

func TestMain(m *testing.M) { os.Exit(dobble.Run(m)) }

// TestCrash is the crash test of docs/RELIABILITY.md: rooms of the Tower and of
// Guess (a timed game) play against dobble serve, which is killed with
// SIGKILL at random moments, 100 times (10 with -short), and started
// again on the same file and port, then restarted once with SIGTERM.
// Every player must resume its seat after every restart, and every
// action any player saw acknowledged must be in the table it resumed at
// and in the record of its finished game. DOBBLE_CRASH_SEED sets the
// seed of the kills' moments (1 by default); DOBBLE_CRASH_KILLS their
// number. Nothing here depends on how fast the machine is: the kills come
// at random moments, and the checks hold whatever the moment.
func TestCrash(t *testing.T) {
	opts := DefaultOptions()
	opts.Dobble, opts.Dir = dobble.Path(t), t.TempDir()
	if testing.Short() {
		opts.Kills = 10
	}
	runCrash(t, opts)
}

// runCrash runs the crash test of opts, with the seed and number of kills
// of DOBBLE_CRASH_SEED and DOBBLE_CRASH_KILLS when they are set, and
// fails the test where the server broke its promise.
func runCrash(t *testing.T, opts Options) {
	for _, e := range []struct {
		name string
		set  func(n uint64)
	}{
		{"DOBBLE_CRASH_SEED", func(n uint64) { opts.Seed = n }},
		{"DOBBLE_CRASH_KILLS", func(n uint64) { opts.Kills = int(n) }},
	} {
		if v := os.Getenv(e.name); v != "" {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatalf("%s=%q: not a whole number", e.name, v)
			}
			e.set(n)
		}
	}
	opts.Progress = func(line string) { t.Log(line) }
	res, err := Run(context.Background(), opts)
	if res != nil {
		var b strings.Builder
		res.WriteText(&b)
		t.Logf("seed %d:\n%s", opts.Seed, b.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Kills != opts.Kills {
		t.Errorf("%d kills; want %d", res.Kills, opts.Kills)
	}
	if p := res.Problems(); len(p) > 0 {
		log := ""
		if res.ServerLog != "" {
			log = "\nthe end of its log:\n" + res.ServerLog
		}
		t.Errorf("the server broke its promise, seed %d:\n%s%s", opts.Seed, strings.Join(p, "\n"), log)
	}
}

// TestCrashCluster is the crash test of a cluster (docs/RELIABILITY.md):
// the rooms of TestCrash play on three nodes of dobble serve on one NATS
// server with JetStream and one PostgreSQL database, the players of each
// room joined through different nodes. One node drawn at random is
// killed with SIGKILL at random moments, 30 times (10 with -short), and
// started again at once; then one node is restarted with SIGTERM, and
// at the end every node is killed at once and started again. After each,
// every player must be back in play, its room taken over from the
// journal by another node; every action any player saw acknowledged must
// be in the table it resumed at and in the record of its finished game,
// each game stored once. DOBBLE_CRASH_SEED and DOBBLE_CRASH_KILLS are
// read as TestCrash reads them.
func TestCrashCluster(t *testing.T) {
	opts := DefaultOptions()
	opts.Dobble, opts.Dir = dobble.Path(t), t.TempDir()
	opts.Nodes, opts.Kills = 3, 30
	opts.Postgres = storetest.DefaultPostgres
	if v := os.Getenv("DOBBLE_TEST_POSTGRES"); v != "" {
		opts.Postgres = v
	}
	if testing.Short() {
		opts.Kills = 10
	}
	runCrash(t, opts)
}

// TestNoCrash plays the crash test's rooms against dobble serve without
// killing or restarting it, until every room has finished a game: every
// action the players saw is found in the records of the finished games,
// each update the very frame the server writes for the record's action,
// and every table sent the record's at its version. A loss the crash
// test reports is then the server's, not the check's.
func TestNoCrash(t *testing.T) {
	opts := DefaultOptions()
	opts.Dobble, opts.Dir = dobble.Path(t), t.TempDir()
	opts.Kills, opts.Graceful = 0, 0
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.WriteText(&b)
	t.Log(b.String())
	if res.Lost != 0 || res.Verified == 0 || res.Own == 0 || res.StatesDiffer != 0 || res.BadRecords != 0 || res.Duplicates != 0 ||
		res.ResumeFailures != 0 || res.Unfinished != 0 || len(res.StopErrors) != 0 {
		t.Errorf("without a crash: %s", b.String())
	}
	// Every room finished a game, each in the records.
	if res.Tables < res.Rooms {
		t.Errorf("%d finished tables in the records of %d rooms", res.Tables, res.Rooms)
	}
	for _, rep := range res.Loads {
		if rep.Errors != 0 || rep.Resume == nil || rep.Resume.Drops != 0 {
			t.Errorf("%s load: %d errors %v, resume %+v", rep.Game, rep.Errors, rep.ErrorKinds, rep.Resume)
		}
	}
}

// TestDrops runs the crash test with the server kept up: in place of each
// kill every player's connection is dropped through a proxy, and in place
// of the graceful restart closed with status 1012, so that every room
// lives on as a server that keeps its promise would restore it. The
// harness must find every player back after every drop and no action
// lost, every table a player resumed at the one it had seen or further.
func TestDrops(t *testing.T) {
	opts := DefaultOptions()
	opts.Dobble, opts.Dir = dobble.Path(t), t.TempDir()
	opts.Kills = 5
	px, err := tcpproxy.New("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { px.Close() })
	opts.front = func(server string) string {
		px.SetBackend(server)
		return px.Addr()
	}
	opts.drop = func(graceful bool) {
		if graceful {
			px.CloseAll(1012, "service restart")
		} else {
			px.Cut()
		}
	}
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.WriteText(&b)
	t.Log(b.String())
	if p := res.Problems(); len(p) > 0 {
		t.Errorf("with every room kept: %s", strings.Join(p, "\n"))
	}
	restarts := res.Kills + res.Graceful
	// The server never restarts here, so it restores nothing
	// (dobble_rooms_restored_total stays 0): every room lives on.
	if res.Kills != 5 || res.Graceful != 1 || res.Resumed != restarts*res.Players || res.RoomsBack != restarts*res.Rooms ||
		res.RoomsRestored != 0 || len(res.AllBack) != restarts || res.InPlay+res.Verified == 0 {
		t.Errorf("%d kills, %d graceful; %d players back of %d, %d rooms whole of %d and %d restored; %d restarts timed",
			res.Kills, res.Graceful, res.Resumed, restarts*res.Players, res.RoomsBack, restarts*res.Rooms, res.RoomsRestored, len(res.AllBack))
	}
	for _, rep := range res.Loads {
		if r := rep.Resume; r == nil || r.Drops != int64(restarts*rep.Rooms*rep.PlayersPerRoom) || r.Failed != 0 || r.Behind != 0 {
			t.Errorf("%s load: resume %+v", rep.Game, r)
		}
	}
}

// game is a Tower between two seats on the order-2 deck, played to its
// end, as a server would have played it at table 0 of a room: its record,
// and what each seat was sent (the state at its start, then every
// update), as the load's clients tell the harness.
type game struct {
	record []byte
	// The sights of each seat, client 0 and client 1 of play 0.
	sights [2][]load.Seen
	// The record with its last action left out, as a server that lost it
	// would have stored it.
	short []byte
}

func playGame(t *testing.T) *game {
	t.Helper()
	g, _ := rules.Lookup("tower")
	deck, cards, err := record.Deck{Order: 2}.Build()
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Config{Players: 2, Seed: 3}
	st, err := rules.New(g, cards, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var full, short bytes.Buffer
	w := record.NewWriter(&full)
	h := record.Header{Game: "tower", Config: cfg, Deck: deck, Seats: []string{"t 0", "t 1"}}
	w.Begin(h, st)
	out := &game{}
	for seat := range 2 {
		view, _, err := load.Fingerprint(protocol.Encode(&protocol.State{Table: 0, Game: "tower", View: st.View(seat)}))
		if err != nil {
			t.Fatal(err)
		}
		out.sights[seat] = append(out.sights[seat], load.Seen{Kind: load.SeenState, Client: seat, Seat: seat, View: view})
	}
	players := [2]rules.Player{rules.NewPlayer(g), rules.NewPlayer(g)}
	var u protocol.Updates
	type accepted struct {
		a  rules.Action
		ev []rules.Event
	}
	var played []accepted
	for at := int64(1000); !st.Over(); at += 500 {
		seat := int(at/500) % 2
		v := st.View(seat)
		var a rules.Action
		if !players[seat].Decide(&v, &a) {
			t.Fatalf("seat %d has no claim at version %d", seat, st.Version())
		}
		a.Seat, a.Version, a.At = seat, st.Version(), at
		ev, err := st.Apply(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Accepted(a, ev)
		played = append(played, accepted{a, ev})
		u.Reset(st, 0, at, ev)
		for s := range 2 {
			view, frame, err := load.Fingerprint(u.Frame(s))
			if err != nil {
				t.Fatal(err)
			}
			out.sights[s] = append(out.sights[s], load.Seen{Kind: load.SeenUpdate, Client: s, Table: 0, Version: st.Version(),
				Seat: s, View: view, Frame: frame, Own: s == seat})
		}
	}
	w.End(st)
	// The short record stops before its last action, without a result
	// line, as the record of a game cut short does.
	ws := record.NewWriter(&short)
	again, err := rules.New(g, cards, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ws.Begin(h, again)
	for _, p := range played[:len(played)-1] {
		ev, err := again.Apply(p.a, nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.Accepted(p.a, ev)
	}
	out.record, out.short = full.Bytes(), short.Bytes()
	return out
}

// check runs the harness's check on sights and the stored games, one
// play of one room of two, the last restart at final.
func check(sights [2][]load.Seen, games []storedGame, final time.Time) *Result {
	tr := newTracker([]Play{{Name: "t", Game: "tower", Rooms: 1, Players: 2}})
	for _, s := range sights {
		for _, x := range s {
			tr.see(0, x)
		}
	}
	res := &Result{FailKinds: map[string]int{}}
	tr.check(res, games, final)
	return res
}

// TestCheck gives the check a game played to its end, what its players
// were sent, and a record: the record as played holds every action; a
// record short of its last action, none, or a player that saw another
// update at a version, or resumed behind what it saw, loses actions.
func TestCheck(t *testing.T) {
	g := playGame(t)
	versions := len(g.sights[0]) - 1
	later := time.Now().Add(time.Hour) // every sight came before the last restart
	stored := func(rec []byte) []storedGame {
		return []storedGame{{id: 1, table: 0, seats: []string{"t 0", "t 1"}, record: rec}}
	}

	res := check(g.sights, stored(g.record), later)
	if res.Lost != 0 || res.Acknowledged != versions || res.Verified != versions || res.Own != versions || res.StatesDiffer != 0 || res.BadRecords != 0 || res.Tables != 1 {
		t.Fatalf("the game as played: %+v; want %d actions acknowledged and verified, none lost", res, versions)
	}

	res = check(g.sights, stored(g.short), later)
	if res.Lost != 1 || res.Verified != versions-1 {
		t.Errorf("a record short of its last action: %d lost, %d verified; want 1 and %d", res.Lost, res.Verified, versions-1)
	}

	res = check(g.sights, nil, later)
	if res.Lost != versions {
		t.Errorf("no record, and the room not in play at the end: %d lost; want %d", res.Lost, versions)
	}

	// Seat 1 saw version 2 otherwise.
	other := g.sights
	other[1] = append([]load.Seen(nil), g.sights[1]...)
	other[1][2].Frame++
	res = check(other, stored(g.record), later)
	if res.Lost != 1 || !strings.Contains(strings.Join(res.LostExamples, ";"), "version 2 otherwise") {
		t.Errorf("an update seen otherwise: %d lost (%q); want 1", res.Lost, res.LostExamples)
	}

	// Seat 0 dropped after version 3 and resumed at version 1, which it
	// then saw again up to the end, the record being the game played.
	behind := g.sights
	behind[0] = append(append(append([]load.Seen(nil), g.sights[0][:4]...),
		load.Seen{Kind: load.SeenDrop}, load.Seen{Kind: load.SeenState, Table: 0, Version: 1, View: g.sights[0][1].View, Resumed: true}, load.Seen{Kind: load.SeenBack}),
		g.sights[0][2:]...)
	res = check(behind, stored(g.record), later)
	if res.Lost != 2 {
		t.Errorf("resumed at version 1 after seeing version 3: %d lost (%q); want 2", res.Lost, res.LostExamples)
	}

	// The room still plays at the end, where its players resumed at
	// version 3 after the last restart: versions 1 to 3 are in play, 4
	// and on were lost.
	final := time.Now()
	inPlay := g.sights
	for s := range 2 {
		inPlay[s] = append(append([]load.Seen(nil), g.sights[s]...),
			load.Seen{Kind: load.SeenDrop, Client: s, At: final},
			load.Seen{Kind: load.SeenState, Client: s, At: final.Add(time.Millisecond), Table: 0, Version: 3, Seat: s, View: g.sights[s][3].View, Resumed: true})
	}
	res = check(inPlay, nil, final)
	if res.InPlay != 3 || res.Lost != versions-3 {
		t.Errorf("in play at the end at version 3 of %d: %d in play, %d lost (%q); want 3 and %d", versions, res.InPlay, res.Lost, res.LostExamples, versions-3)
	}
}
