package crash

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/load"
)

// Play is one kind of room the harness fills with people's clients: a
// load run of Rooms rooms of Players clients, playing Game on Deck.
type Play struct {
	// Name begins the clients' nicknames ("Name 12"), by which the
	// harness knows its rooms' games in the records; every Play needs its
	// own.
	Name    string
	Game    string
	Deck    string
	Options map[string]string
	Rooms   int
	Players int
}

// Options are what a crash test does.
type Options struct {
	// Dobble is the dobble binary to serve with (Build makes one).
	Dobble string
	// Dir is the folder of the server's database.
	Dir string
	// Kills is how many times the server is killed with SIGKILL.
	Kills int
	// Graceful is how many times the server is then restarted with
	// SIGTERM, as a deploy does, once every room has finished its game.
	Graceful int
	// Seed seeds the draw of the moments of the kills.
	Seed uint64
	// KillMin and KillMax bound the time from every player being back in
	// play to the next kill, drawn uniformly for each kill.
	KillMin, KillMax time.Duration
	// ReactionMin and ReactionMax bound the clients' reaction time
	// (load.Config).
	ReactionMin, ReactionMax time.Duration
	// Plays are the rooms played.
	Plays []Play
	// ServeArgs are flags added to dobble serve.
	ServeArgs []string
	// Nodes, when 2 or more, makes the server a cluster of that many
	// nodes (dobble serve --nats --node) on a NATS server with JetStream
	// that Run starts (NATSServer, in a folder of Dir) and one PostgreSQL
	// database (Postgres). Each kill then ends one node drawn at random,
	// started again at once on its port; each graceful restart one node;
	// and at the end every node is killed at once and started again, so
	// that every room is taken over from its journal before the check.
	Nodes int
	// NATSServer is the nats-server binary a cluster runs on
	// (DefaultNATSServer when empty).
	NATSServer string
	// Postgres is the URL of the PostgreSQL database a cluster stores its
	// games in (postgres://USER@HOST/DB); Run makes a schema of its own
	// there and drops it at the end. Empty runs a single server on a
	// SQLite file in Dir.
	Postgres string
	// Progress, when set, is told a line after each restart.
	Progress func(line string)

	// The harness's own tests set these to check that it finds nothing
	// lost when the server keeps every room: front, given the server's
	// address, returns the one the clients dial instead, and drop, called
	// in place of each kill and restart, drops every client's connection
	// there while the server runs on (with a close frame of status 1012
	// for a graceful restart).
	front func(server string) string
	drop  func(graceful bool)
}

// DefaultOptions are the crash test's defaults: 100 kills, every 0.5 to 2 s
// after the players are back, then one graceful restart, of a server where three rooms of four play
// the Tower on the order-3 deck (13 cards: a game is nine claims) and two
// rooms of three play Guess, a timed game whose clock turns a card every
// 300 ms, on the order-2 deck; people react in 20 to 150 ms.
func DefaultOptions() Options {
	return Options{
		Kills: 100, Graceful: 1, Seed: 1, KillMin: 500 * time.Millisecond, KillMax: 2 * time.Second,
		ReactionMin: 20 * time.Millisecond, ReactionMax: 150 * time.Millisecond,
		Plays: []Play{
			{Name: "crash tower", Game: "tower", Deck: "order-3", Rooms: 3, Players: 4},
			{Name: "crash guess", Game: "guess", Deck: "order-2", Options: map[string]string{"interval": "300"}, Rooms: 2, Players: 3},
		},
		ServeArgs: []string{"--countdown", "200ms"},
	}
}

// Limits of the waits, which only a broken server reaches.
const (
	// playWithin bounds the wait for every room to play.
	playWithin = 2 * time.Minute
	// backWithin bounds the wait, after a restart, for every player to be
	// back in play or to have given up (which load.ResumeWithin bounds).
	backWithin = load.ResumeWithin + 30*time.Second
	// overWithin bounds the wait, after the last kill, for every room's
	// game to end.
	overWithin = 2 * time.Minute
)

// Validate reports the first option out of range.
func (o *Options) Validate() error {
	switch {
	case o.Dobble == "":
		return errors.New("crash: no dobble binary")
	case o.Dir == "":
		return errors.New("crash: no folder for the database")
	case o.Nodes > 1 && o.Postgres == "":
		return fmt.Errorf("crash: a cluster of %d nodes needs a PostgreSQL database for its games", o.Nodes)
	case o.Nodes > maxNodes:
		return fmt.Errorf("crash: %d nodes: at most %d", o.Nodes, maxNodes)
	case o.Nodes > 1 && (o.front != nil || o.drop != nil):
		return errors.New("crash: the proxy of the harness's own tests fronts a single server")
	case o.Kills < 0 || o.Graceful < 0:
		return fmt.Errorf("crash: %d kills and %d graceful restarts: use 0 or more", o.Kills, o.Graceful)
	case o.KillMin < 0 || o.KillMax < o.KillMin:
		return fmt.Errorf("crash: time to a kill %v-%v: use MIN-MAX with 0 ≤ MIN ≤ MAX", o.KillMin, o.KillMax)
	case len(o.Plays) == 0:
		return errors.New("crash: no rooms to play")
	}
	for i, p := range o.Plays {
		if slices.ContainsFunc(o.Plays[:i], func(q Play) bool { return q.Name == p.Name }) {
			return fmt.Errorf("crash: two plays are named %q", p.Name)
		}
	}
	return nil
}

// Run starts dobble serve on a free loopback port with a database in
// opts.Dir, plays opts.Plays against it with load clients that resume
// their seats, kills the server with SIGKILL opts.Kills times at random
// moments and starts it again on the same file and port, waiting after
// each restart for every player to be back in play (or to give up); then
// lets every room finish its game, restarts the server once more with
// SIGTERM, as a deploy would, ends the load, stops the server, and checks
// everything the clients saw against the restored tables and the
// records of the finished games. It returns an error only when the test
// could not be made (a server that does not start, a load that cannot
// seat its rooms); what went wrong with the server's promise is in the
// Result.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	began := time.Now()
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	progress := func(format string, args ...any) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf(format, args...))
		}
	}
	f, err := startFleet(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer f.close()
	cluster := len(f.nodes) > 1

	t := newTracker(opts.Plays)
	res := &Result{Seed: opts.Seed, Nodes: len(f.nodes), FailKinds: map[string]int{}}
	for _, p := range opts.Plays {
		res.Rooms += p.Rooms
		res.Players += p.Rooms * p.Players
	}

	// The load: one run a play, until loadCtx ends. Against a cluster
	// its rooms are created on the nodes in turn and the players of each
	// room join it through different nodes.
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	reports := make([]*load.Report, len(opts.Plays))
	errs := make([]error, len(opts.Plays))
	var loads sync.WaitGroup
	loadsDone := make(chan struct{})
	var urls []string
	for _, addr := range f.addrs {
		if opts.front != nil {
			addr = opts.front(addr)
		}
		urls = append(urls, "ws://"+addr+"/ws")
	}
	for i, p := range opts.Plays {
		cfg := load.Config{URL: strings.Join(urls, ","), Rooms: p.Rooms, PlayersPerRoom: p.Players, Game: p.Game, Deck: p.Deck,
			Options: p.Options, Duration: load.MaxDuration, ReactionMin: opts.ReactionMin, ReactionMax: opts.ReactionMax,
			Resume: true, Name: p.Name, Watch: func(s load.Seen) { t.see(i, s) }}
		if cluster {
			cfg.Spread = load.SpreadPlayers
		}
		loads.Go(func() { reports[i], errs[i] = load.Run(loadCtx, cfg) })
	}
	go func() {
		loads.Wait()
		close(loadsDone)
	}()
	endLoad := func() error {
		stopLoad()
		<-loadsDone
		res.Loads = reports
		return errors.Join(errs...)
	}
	if err := t.awaitPlay(ctx, loadsDone); err != nil {
		endLoad()
		return nil, fmt.Errorf("%w (%v)", err, errors.Join(errs...))
	}
	progress("%d rooms playing, %d players, on %d nodes", res.Rooms, res.Players, len(f.nodes))

	// restart starts the nodes down again after they were brought down at t0
	// (unless the connections were only dropped), and waits for the
	// players: every one of them when every node went down, else those
	// that dropped. before is what the nodes left up had taken over.
	restart := func(what string, down []int, t0 time.Time, before int) error {
		if opts.drop == nil {
			for _, i := range down {
				if err := f.start(ctx, i); err != nil {
					return fmt.Errorf("%s: %w", what, err)
				}
			}
		}
		started := time.Since(t0)
		all := len(down) == len(f.nodes)
		restored := -1
		if !cluster {
			if m, err := f.nodes[0].scrape(ctx); err == nil {
				restored = int(m["dobble_rooms"])
				if v, ok := m["dobble_rooms_restored_total"]; ok {
					restored = int(v)
				}
			}
		}
		b := t.awaitBack(ctx, t0, all)
		if cluster {
			// The rooms the nodes took over since the kill (a node
			// started again counts from 0).
			if after := f.takeovers(ctx, nil); after >= 0 && before >= 0 {
				restored = after - before
			}
		}
		res.addRestart(restored, b)
		progress("%s: serving again in %v, %d rooms %s; %d players back (%d rooms whole), %d failed%s",
			what, started.Round(time.Millisecond), restored, map[bool]string{false: "restored", true: "taken over"}[cluster],
			b.back, b.rooms, len(b.failed), b.allBackText())
		return ctx.Err()
	}
	// down ends node i, killed or stopped gracefully, or only drops the
	// connections; it returns what the other nodes had taken over.
	down := func(i int, graceful bool) int {
		before := -1
		if cluster {
			before = f.takeovers(ctx, []int{i})
		}
		switch {
		case opts.drop != nil:
			opts.drop(graceful)
		case graceful:
			if err := f.stop(i); err != nil {
				res.StopErrors = append(res.StopErrors, err.Error())
			}
		default:
			f.kill(i)
		}
		return before
	}
	which := func() int {
		if !cluster {
			return 0
		}
		return rng.IntN(len(f.nodes))
	}

	// final is when the server went down for the last time before the
	// end: what the clients saw from then on no restart put to the test.
	var final time.Time
	for k := 1; k <= opts.Kills; k++ {
		wait := opts.KillMin
		if opts.KillMax > opts.KillMin {
			wait += time.Duration(rng.Int64N(int64(opts.KillMax - opts.KillMin + 1)))
		}
		i := which()
		if err := sleep(ctx, wait); err != nil {
			endLoad()
			return nil, err
		}
		t0 := time.Now()
		before := down(i, false)
		res.Kills++
		final = time.Now()
		what := fmt.Sprintf("kill %d of %d", k, opts.Kills)
		if cluster {
			what += " (" + f.names[i] + ")"
		}
		if err := restart(what, []int{i}, t0, before); err != nil {
			endLoad()
			return res, err
		}
	}

	// Let every room still played finish the game it plays, then restart
	// the server gracefully, as a deploy would (a cluster's nodes one at
	// a time): the tables still in play are checked against what their
	// players saw when they resume.
	res.Unfinished = t.awaitOver(ctx, time.Now())
	progress("games finished: %d rooms still in play", res.Unfinished)
	for g := 1; g <= opts.Graceful; g++ {
		i := which()
		t0 := time.Now()
		before := down(i, true)
		final = time.Now()
		what := fmt.Sprintf("graceful restart %d of %d (SIGTERM)", g, opts.Graceful)
		if cluster {
			what += " (" + f.names[i] + ")"
		}
		if err := restart(what, []int{i}, t0, before); err != nil {
			endLoad()
			return res, err
		}
		res.Graceful++
	}
	// A cluster's rooms did not all move at the last restart: every node
	// is killed at once and started again, and every room is taken over
	// from its journal, so that each table in play is checked against
	// what its players saw.
	if cluster {
		t0 := time.Now()
		every := make([]int, len(f.nodes))
		for i := range every {
			f.kill(i)
			every[i] = i
		}
		final = time.Now()
		res.AllKilled++
		if err := restart("every node killed at once", every, t0, 0); err != nil {
			endLoad()
			return res, err
		}
	}
	loadErr := endLoad()
	for i := range f.nodes {
		if err := f.stop(i); err != nil {
			res.StopErrors = append(res.StopErrors, err.Error())
		}
	}
	if loadErr != nil {
		return res, loadErr
	}

	games, err := f.readGames(ctx)
	if err != nil {
		return res, err
	}
	t.check(res, games, final)
	res.Seconds = time.Since(began).Seconds()
	if !res.Passed() {
		res.ServerLog = f.log.String()
	}
	return res, nil
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// tracker keeps what the clients of every play saw, and follows their
// comings and goings for the harness's waits.
type tracker struct {
	plays []Play

	mu      sync.Mutex
	playing []bool
	sights  [][][]load.Seen // by play and client, in the order seen
	clients [][]clientState // by play and client
	updates [][]int         // by play and room: updates seen
	over    [][]time.Time   // by play and room: when a game ended last
}

// clientState is where one client stands.
type clientState struct {
	seen    time.Time // when it was last sent a table or an update
	dropped time.Time // when its connection last dropped
	back    time.Time // when it was last back in play
	failed  time.Time // when it gave up, or zero
	code    string    // why
}

func newTracker(plays []Play) *tracker {
	t := &tracker{plays: plays, playing: make([]bool, len(plays))}
	for _, p := range plays {
		t.sights = append(t.sights, make([][]load.Seen, p.Rooms*p.Players))
		t.clients = append(t.clients, make([]clientState, p.Rooms*p.Players))
		t.updates = append(t.updates, make([]int, p.Rooms))
		t.over = append(t.over, make([]time.Time, p.Rooms))
	}
	return t
}

// see takes in what a client of play i saw.
func (t *tracker) see(i int, s load.Seen) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.Kind == load.SeenPlay {
		t.playing[i] = true
		return
	}
	t.sights[i][s.Client] = append(t.sights[i][s.Client], s)
	c := &t.clients[i][s.Client]
	switch s.Kind {
	case load.SeenState:
		c.seen = s.At
	case load.SeenUpdate:
		c.seen = s.At
		t.updates[i][s.Room]++
	case load.SeenOver:
		t.over[i][s.Room] = s.At
	case load.SeenDrop:
		c.dropped = s.At
	case load.SeenBack:
		c.back = s.At
	case load.SeenFailed:
		c.failed, c.code = s.At, s.Code
	}
}

// awaitPlay waits until every play's rooms have started and every room
// has seen an update, or the load ends, or playWithin passes.
func (t *tracker) awaitPlay(ctx context.Context, loadsDone <-chan struct{}) error {
	deadline := time.Now().Add(playWithin)
	for {
		t.mu.Lock()
		ok := !slices.Contains(t.playing, false)
		for _, rooms := range t.updates {
			ok = ok && !slices.Contains(rooms, 0)
		}
		t.mu.Unlock()
		switch {
		case ok:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("crash: the rooms were not all playing within %v", playWithin)
		}
		select {
		case <-loadsDone:
			return errors.New("crash: the load ended before the rooms played")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// backCount is what came of one restart: the players back in play, the
// rooms with every player back, the failures by why, and the time from
// the restart to the last player back when every player came back.
type backCount struct {
	back, rooms int
	failed      []string
	allBack     time.Duration
	whole       bool
	// roomsBack is the time from the restart to the last room whose
	// every player dropped (its node went down) serving again: its first
	// player back in play.
	roomsBack time.Duration
}

// allBackText says how long every player took to be back.
func (b backCount) allBackText() string {
	if !b.whole {
		return "; not every player came back"
	}
	return fmt.Sprintf("; every player back in play %v after the server went down", b.allBack.Round(time.Millisecond))
}

// awaitBack waits, after the server went down at t0, until every client
// is back in play or has given up, or backWithin passes, and counts.
// With all every node went down, and every client must come back; else
// one node of a cluster went down, and only the clients that dropped
// must: every other client must have been sent something since, which
// says its room plays on.
func (t *tracker) awaitBack(ctx context.Context, t0 time.Time, all bool) backCount {
	// inPlay says whether c is in play since t0.
	inPlay := func(c clientState) bool {
		if all {
			return !c.back.Before(t0)
		}
		return !c.seen.Before(t0) && !c.back.Before(c.dropped)
	}
	deadline := time.Now().Add(backWithin)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		t.mu.Lock()
		waiting := false
		for _, cs := range t.clients {
			for _, c := range cs {
				waiting = waiting || (c.failed.IsZero() && !inPlay(c))
			}
		}
		t.mu.Unlock()
		if !waiting {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b := backCount{whole: true}
	var served, last time.Time
	for i, cs := range t.clients {
		players := t.plays[i].Players
		for room := range len(cs) / players {
			whole, moved, every := true, all, true
			var first time.Time
			for _, c := range cs[room*players : (room+1)*players] {
				dropped := all || !c.dropped.Before(t0)
				moved, every = moved || dropped, every && dropped
				switch {
				case !c.failed.IsZero() && !c.failed.Before(t0):
					b.failed = append(b.failed, c.code)
					whole = false
				case !c.failed.IsZero():
					whole = false // it gave up after an earlier restart
				case inPlay(c):
					if dropped {
						b.back++
						if c.back.After(last) {
							last = c.back
						}
						if first.IsZero() || c.back.Before(first) {
							first = c.back
						}
					}
				case !all && !c.back.Before(c.dropped) && c.dropped.Before(t0):
					// Its connection stayed open, and brought nothing.
					b.failed = append(b.failed, "sent nothing within "+backWithin.String()+", its connection open")
					whole = false
				default:
					b.failed = append(b.failed, "not back within "+backWithin.String())
					whole = false
				}
			}
			if whole && moved {
				b.rooms++
			}
			if whole && every && first.After(served) {
				served = first
			}
			b.whole = b.whole && whole
		}
	}
	if b.whole && b.back > 0 {
		b.allBack = last.Sub(t0)
		if !served.IsZero() {
			b.roomsBack = served.Sub(t0)
		}
	}
	return b
}

// awaitOver waits until every room with a player still playing has seen
// a game end after since, or overWithin passes, and returns how many
// rooms had not.
func (t *tracker) awaitOver(ctx context.Context, since time.Time) int {
	deadline := time.Now().Add(overWithin)
	for {
		t.mu.Lock()
		left := 0
		for i, cs := range t.clients {
			players := t.plays[i].Players
			for room, over := range t.over[i] {
				playing := slices.ContainsFunc(cs[room*players:(room+1)*players], func(c clientState) bool { return c.failed.IsZero() })
				if playing && over.Before(since) {
					left++
				}
			}
		}
		t.mu.Unlock()
		if left == 0 || ctx.Err() != nil || time.Now().After(deadline) {
			return left
		}
		time.Sleep(10 * time.Millisecond)
	}
}
