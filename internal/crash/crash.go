package crash

import (
	"context"
	"errors"
	"fmt"
	"github.com/dobble-dev/dobble/internal/serveproc"
	"math/rand/v2"
	"path/filepath"
	"slices"
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
	db := filepath.Join(opts.Dir, "dobble.db")
	log := &serveproc.Tail{}
	srv, err := startServer(ctx, opts.Dobble, "127.0.0.1:0", db, opts.ServeArgs, log)
	if err != nil {
		return nil, err
	}
	alive := srv
	defer func() {
		if alive != nil {
			alive.kill()
		}
	}()
	addr := srv.addr

	t := newTracker(opts.Plays)
	res := &Result{Seed: opts.Seed, FailKinds: map[string]int{}}
	for _, p := range opts.Plays {
		res.Rooms += p.Rooms
		res.Players += p.Rooms * p.Players
	}

	// The load: one run a play, until loadCtx ends.
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	reports := make([]*load.Report, len(opts.Plays))
	errs := make([]error, len(opts.Plays))
	var loads sync.WaitGroup
	loadsDone := make(chan struct{})
	for i, p := range opts.Plays {
		url := "ws://" + addr + "/ws"
		if opts.front != nil {
			url = "ws://" + opts.front(addr) + "/ws"
		}
		cfg := load.Config{URL: url, Rooms: p.Rooms, PlayersPerRoom: p.Players, Game: p.Game, Deck: p.Deck,
			Options: p.Options, Duration: load.MaxDuration, ReactionMin: opts.ReactionMin, ReactionMax: opts.ReactionMax,
			Resume: true, Name: p.Name, Watch: func(s load.Seen) { t.see(i, s) }}
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
	progress("%d rooms playing, %d players", res.Rooms, res.Players)

	// restart starts the server again after it ended at t0 (unless the
	// connections were only dropped), and waits for the players.
	restart := func(what string, t0 time.Time) error {
		if opts.drop == nil {
			srv, err = startServer(ctx, opts.Dobble, addr, db, opts.ServeArgs, log)
			if err != nil {
				alive = nil
				return fmt.Errorf("%s: %w", what, err)
			}
			alive = srv
		}
		started := time.Since(t0)
		restored := -1
		if m, err := srv.scrape(ctx); err == nil {
			restored = int(m["dobble_rooms"])
			if v, ok := m["dobble_rooms_restored_total"]; ok {
				restored = int(v)
			}
		}
		b := t.awaitBack(ctx, t0)
		res.addRestart(restored, b)
		progress("%s: serving again in %v, %d rooms restored; %d players back (%d rooms whole), %d failed%s",
			what, started.Round(time.Millisecond), restored, b.back, b.rooms, len(b.failed), b.allBackText())
		return ctx.Err()
	}
	// down ends the server, killed or stopped gracefully, or only drops
	// the connections.
	down := func(graceful bool) {
		switch {
		case opts.drop != nil:
			opts.drop(graceful)
		case graceful:
			if err := srv.stop(); err != nil {
				res.StopErrors = append(res.StopErrors, err.Error())
			}
			alive = nil
		default:
			srv.kill()
			alive = nil
		}
	}

	// final is when the server went down for the last time before the
	// end: what the clients saw from then on no restart put to the test.
	var final time.Time
	for k := 1; k <= opts.Kills; k++ {
		wait := opts.KillMin
		if opts.KillMax > opts.KillMin {
			wait += time.Duration(rng.Int64N(int64(opts.KillMax - opts.KillMin + 1)))
		}
		if err := sleep(ctx, wait); err != nil {
			endLoad()
			return nil, err
		}
		down(false)
		res.Kills++
		final = time.Now()
		if err := restart(fmt.Sprintf("kill %d of %d", k, opts.Kills), final); err != nil {
			endLoad()
			return res, err
		}
	}

	// Let every room still played finish the game it plays, then restart
	// the server gracefully, as a deploy would: the tables still in play
	// are checked against what their players saw when they resume.
	res.Unfinished = t.awaitOver(ctx, time.Now())
	progress("games finished: %d rooms still in play", res.Unfinished)
	for g := 1; g <= opts.Graceful; g++ {
		down(true)
		final = time.Now()
		if err := restart(fmt.Sprintf("graceful restart %d of %d (SIGTERM)", g, opts.Graceful), final); err != nil {
			endLoad()
			return res, err
		}
		res.Graceful++
	}
	loadErr := endLoad()
	if err := srv.stop(); err != nil {
		res.StopErrors = append(res.StopErrors, err.Error())
	}
	alive = nil
	if loadErr != nil {
		return res, loadErr
	}

	games, err := readGames(ctx, db)
	if err != nil {
		return res, err
	}
	t.check(res, games, final)
	res.Seconds = time.Since(began).Seconds()
	if !res.Passed() {
		res.ServerLog = log.String()
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
	back   time.Time // when it was last back in play
	failed time.Time // when it gave up, or zero
	code   string    // why
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
	case load.SeenUpdate:
		t.updates[i][s.Room]++
	case load.SeenOver:
		t.over[i][s.Room] = s.At
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
func (t *tracker) awaitBack(ctx context.Context, t0 time.Time) backCount {
	deadline := time.Now().Add(backWithin)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		t.mu.Lock()
		waiting := false
		for _, cs := range t.clients {
			for _, c := range cs {
				waiting = waiting || (c.failed.IsZero() && c.back.Before(t0))
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
	var last time.Time
	for i, cs := range t.clients {
		players := t.plays[i].Players
		for room := range len(cs) / players {
			whole := true
			for _, c := range cs[room*players : (room+1)*players] {
				switch {
				case !c.back.Before(t0):
					b.back++
					if c.back.After(last) {
						last = c.back
					}
				case !c.failed.IsZero() && !c.failed.Before(t0):
					b.failed = append(b.failed, c.code)
					whole = false
				case c.failed.IsZero():
					b.failed = append(b.failed, "not back within "+backWithin.String())
					whole = false
				default:
					whole = false // it gave up after an earlier restart
				}
			}
			if whole {
				b.rooms++
			}
			b.whole = b.whole && whole
		}
	}
	if b.whole {
		b.allBack = last.Sub(t0)
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
