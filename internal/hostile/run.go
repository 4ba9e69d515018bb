package hostile

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/load"
)

// Options are what Run does. The zero value of a field means its default
// (DefaultOptions).
type Options struct {
	// Dobble is the path of the dobble binary to serve with (Build makes
	// one).
	Dobble string
	// ServeArgs are flags added to dobble serve, such as --countdown 1s;
	// none means the server's defaults.
	ServeArgs []string
	// Kinds are the kinds of attack to run, as ParseKinds reads them
	// (names, letters, all); none means all.
	Kinds []string
	// Span is how long each attack runs, beside the normal room playing.
	Span time.Duration
	// MemCap is the server memory at which the server is killed, in
	// bytes, so that an attack cannot take the machine.
	MemCap int64
	// Grow is the most the server's memory may grow during a span for its
	// memory to count as bounded, in bytes.
	Grow int64
	// Players is the number of people in the normal room, Game the game
	// it plays, ReactionMin and ReactionMax their reaction times (package
	// load).
	Players                  int
	Game                     string
	ReactionMin, ReactionMax time.Duration
	// Attacker is the source address of the attacks, Newcomer that of the
	// newcomer who opens a room every ProbeEvery; the normal room plays
	// from 127.0.0.1.
	Attacker, Newcomer netip.Addr
	ProbeEvery         time.Duration
	// Runaway is the number of runaway rooms of attack a, RunawaySeats
	// their seats (2 to 8: a person and instant bots); Workers the
	// connections (or HTTP clients) of attacks b, d (look-ups) and f
	// working at once; Hoard and KeepAlive the connections held by
	// attacks c and e; Lookups the room look-ups of each connection in
	// attack d.
	Runaway, RunawaySeats, Workers, Hoard, KeepAlive, Lookups int
	// Progress, when set, is told what happens, a line at a time.
	Progress func(line string)
}

// Limits of a run: the machines it runs on allow a process 20,000 files.
const (
	MaxHeld    = 15_000
	MaxWorkers = 256
	MaxSpan    = 10 * time.Minute
)

// DefaultOptions returns the defaults: every kind for 15 s, a memory cap
// of 1.5 GiB and a growth of 100 MiB at most, four people playing the
// Tower with reactions of 300 ms to 1 s, attacks from 127.0.0.2, a
// newcomer from 127.0.0.3 every second, four runaway rooms of three
// seats, 8 workers,
// 2,000 connections hoarded and 2,000 kept alive, 39 look-ups a
// connection (with its hello, the protocol's burst of 40).
func DefaultOptions() Options {
	return Options{
		Span: 15 * time.Second, MemCap: 1536 << 20, Grow: 100 << 20,
		Players: 4, Game: "tower", ReactionMin: 300 * time.Millisecond, ReactionMax: time.Second,
		Attacker: netip.MustParseAddr("127.0.0.2"), Newcomer: netip.MustParseAddr("127.0.0.3"), ProbeEvery: time.Second,
		Runaway: 4, RunawaySeats: 3, Workers: 8, Hoard: 2000, KeepAlive: 2000, Lookups: 39,
	}
}

// withDefaults fills the zero fields of o from DefaultOptions.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	or := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	if o.Span == 0 {
		o.Span = d.Span
	}
	if o.MemCap == 0 {
		o.MemCap = d.MemCap
	}
	if o.Grow == 0 {
		o.Grow = d.Grow
	}
	if o.Game == "" {
		o.Game = d.Game
	}
	if o.ReactionMin == 0 && o.ReactionMax == 0 {
		o.ReactionMin, o.ReactionMax = d.ReactionMin, d.ReactionMax
	}
	if !o.Attacker.IsValid() {
		o.Attacker = d.Attacker
	}
	if !o.Newcomer.IsValid() {
		o.Newcomer = d.Newcomer
	}
	if o.ProbeEvery == 0 {
		o.ProbeEvery = d.ProbeEvery
	}
	or(&o.Players, d.Players)
	or(&o.Runaway, d.Runaway)
	or(&o.RunawaySeats, d.RunawaySeats)
	or(&o.Workers, d.Workers)
	or(&o.Hoard, d.Hoard)
	or(&o.KeepAlive, d.KeepAlive)
	or(&o.Lookups, d.Lookups)
	return o
}

// validate reports the first option out of range, saying what is
// accepted.
func (o *Options) validate() error {
	switch {
	case o.Dobble == "":
		return errors.New("no dobble binary: build one with Build, or give its path")
	case o.Span <= 0 || o.Span > MaxSpan:
		return fmt.Errorf("span %v: use 1s to %v", o.Span, MaxSpan)
	case o.MemCap < 0 || o.Grow < 0:
		return errors.New("the memory cap and growth are sizes: 0 or more bytes")
	case o.Hoard < 1 || o.Hoard > MaxHeld || o.KeepAlive < 1 || o.KeepAlive > MaxHeld:
		return fmt.Errorf("hoard %d, keep-alive %d: hold 1 to %d connections (this machine allows a process 20,000 files, and the server needs one for each)", o.Hoard, o.KeepAlive, MaxHeld)
	case o.Workers < 1 || o.Workers > MaxWorkers || o.Runaway < 1 || o.Runaway > MaxWorkers:
		return fmt.Errorf("workers %d, runaway rooms %d: use 1 to %d", o.Workers, o.Runaway, MaxWorkers)
	case o.RunawaySeats < 2 || o.RunawaySeats > 8:
		return fmt.Errorf("runaway seats %d: use 2 to 8 (a person and instant bots)", o.RunawaySeats)
	case o.Lookups < 1 || o.Lookups > 1000:
		return fmt.Errorf("look-ups %d: use 1 to 1000 a connection", o.Lookups)
	case o.ProbeEvery <= 0:
		return fmt.Errorf("probe every %v: use a positive duration", o.ProbeEvery)
	case !o.Attacker.IsLoopback() || !o.Newcomer.IsLoopback():
		return fmt.Errorf("attacker %s, newcomer %s: use loopback addresses; the attacks run only against this machine", o.Attacker, o.Newcomer)
	}
	return nil
}

// kind is one kind of attack: its name, what it does (with the sizes of
// Options in braces, filled in by describe), the attack itself
// (which runs until its context is done, then lets go of what it holds)
// and how its result is judged: whether the server bounded what the
// attack took, and the figures that say so.
type kind struct {
	name  string
	what  string
	run   func(ctx context.Context, e *env)
	judge func(r *Result, o *Options) (bounded bool, summary string)
}

// kinds are the attacks of docs/SECURITY.md, a to g.
var kinds = []kind{
	{"a-runaway", "{Runaway} rooms of Collect the Symbols on order-2, the attacker and {RunawaySeats-1} instant bots, started and left idle, a rematch when a game ends", runaway, judgeRunaway},
	{"b-ghosts", "dial, hello, create, close at once, in a loop, {Workers} at a time", ghosts, judgeGhosts},
	{"c-hoard", "{Hoard} WebSocket connections from one address that never say hello", hoard, judgeHoard},
	{"d-ping", "WebSocket pings as fast as one connection takes them", pingFlood, judgePing},
	{"d-lookups", "reconnect loops, {Workers} at a time: hello, {Lookups} look-ups (join, watch) of random room codes, close", lookups, judgeLookups},
	{"e-keepalive", "{KeepAlive} HTTP keep-alive connections held open, idle, after one request", keepAlive, judgeKeepAlive},
	{"f-spellings", "GET /api/cards and /api/decks under endless spellings of order 7 and long names, {Workers} at a time", spellings, judgeSpellings},
	{"g-flood", "message floods and 64 KB frames on one connection at a time (the control)", flood, judgeFlood},
}

// describe says what k does with the sizes of o.
func (k *kind) describe(o *Options) string {
	return strings.NewReplacer("{Runaway}", strconv.Itoa(o.Runaway), "{RunawaySeats-1}", strconv.Itoa(o.RunawaySeats-1),
		"{Workers}", strconv.Itoa(o.Workers), "{Hoard}", strconv.Itoa(o.Hoard), "{KeepAlive}", strconv.Itoa(o.KeepAlive),
		"{Lookups}", strconv.Itoa(o.Lookups)).Replace(k.what)
}

// Kinds lists the names of the kinds of attack, in order.
func Kinds() []string {
	var names []string
	for _, k := range kinds {
		names = append(names, k.name)
	}
	return names
}

// ParseKinds reads a comma-separated list of kinds: their names
// ("c-hoard"), their letters ("c"; "d" is both d-ping and d-lookups),
// their names without the letter ("hoard"), or "all". It returns the
// names in the order of Kinds.
func ParseKinds(s string) ([]string, error) {
	want := map[string]bool{}
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		found := false
		for _, k := range kinds {
			letter, rest, _ := strings.Cut(k.name, "-")
			if f == "all" || f == k.name || f == letter || f == rest {
				want[k.name], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("kind %q: use all, a letter a to g, or names among %s", f, strings.Join(Kinds(), ", "))
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("no kinds in %q: use all, a letter a to g, or names among %s", s, strings.Join(Kinds(), ", "))
	}
	var names []string
	for _, k := range kinds {
		if want[k.name] {
			names = append(names, k.name)
		}
	}
	return names, nil
}

// Result is what one kind of attack did, and how the server and the
// normal room beside it fared.
type Result struct {
	Kind string `json:"kind"`
	What string `json:"what"`
	// Failed says why the run could not be made; the other fields hold
	// what was measured before.
	Failed string `json:"failed,omitempty"`
	// Seconds is how long the attack ran; Source where it came from.
	Seconds float64 `json:"seconds"`
	Source  string  `json:"source"`
	// Attack counts what the attack did, and what of it the server
	// still held at the end ("held at the end"); Summary says it in one
	// line, and Bounded whether the server bounded what the attack took
	// (and its own memory: a growth under Options.Grow, not killed).
	Attack  []Counter `json:"attack"`
	Summary string    `json:"summary"`
	Bounded bool      `json:"bounded"`
	// Normal is how the normal room played during the attack.
	Normal Normal `json:"normal"`
	// Newcomer counts the rooms a newcomer tried to open during the
	// attack and those it could.
	Newcomer Newcomer `json:"newcomer"`
	// RSS is the server's resident memory at the start of the span, its
	// peak and at the end; KilledAtCap tells that it passed
	// Options.MemCap and was killed.
	RSS         Memory `json:"rss"`
	KilledAtCap bool   `json:"killed_at_cap"`
	// Up tells that the server ran and answered /healthz after the span;
	// Exit how it ended otherwise.
	Up   bool   `json:"up"`
	Exit string `json:"exit,omitempty"`
	// ServerCPU is the processor time the server used during the span
	// (its metrics), ClientCPU this process's (the attack, the normal
	// room and the newcomer).
	ServerCPU float64 `json:"server_cpu_s"`
	ClientCPU float64 `json:"client_cpu_s"`
	// ServerActions is the server's count of the seats' actions during
	// the span, the bots' included (dobble_claims_total).
	ServerActions int64 `json:"server_actions"`
	// Rooms and Connections are the server's gauges (dobble_rooms,
	// dobble_connections) at the start of the span, their peak and at
	// the end; MetricsUnanswered the scrapes of /metrics, one every
	// half second, that got no answer within 2 s.
	Rooms             Gauge `json:"rooms"`
	Connections       Gauge `json:"connections"`
	MetricsUnanswered int   `json:"metrics_unanswered"`
	// Pass tells that the server kept its promise (docs/SECURITY.md) for this kind: the attack bounded,
	// the server up, the newcomer served every time, and the normal room
	// playing with action → update p99 under 100 ms.
	Pass bool `json:"pass"`
}

// Normal is how the normal room played (package load's report).
type Normal struct {
	Players  int              `json:"players"`
	Actions  int64            `json:"actions"`
	Accepted int64            `json:"accepted"`
	Late     int64            `json:"late"`
	Games    int64            `json:"games"`
	P50Ms    float64          `json:"p50_ms"`
	P99Ms    float64          `json:"p99_ms"`
	MaxMs    float64          `json:"max_ms"`
	Errors   map[string]int64 `json:"errors,omitempty"`
	// Failed says why the room could not be seated or measured.
	Failed string `json:"failed,omitempty"`
}

// Newcomer counts a newcomer's tries to open a room, and why those that
// failed did.
type Newcomer struct {
	Tried    int            `json:"tried"`
	OK       int            `json:"ok"`
	Failures map[string]int `json:"failures,omitempty"`
}

// Memory is a memory at the start of a span, half way, its peak and at
// the end, in bytes.
type Memory struct {
	Start int64 `json:"start"`
	Mid   int64 `json:"mid"`
	Peak  int64 `json:"peak"`
	End   int64 `json:"end"`
}

// Gauge is a gauge at the start of a span, its peak and at the end.
type Gauge struct {
	Start float64 `json:"start"`
	Peak  float64 `json:"peak"`
	End   float64 `json:"end"`
}

// P99Target is the normal room's action → update p99 docs/SECURITY.md asks
// to keep under every attack.
const P99Target = 100.0 // ms

// Run runs each kind of attack of o against a server of its own beside a
// normal room, and returns what each did. It returns an error only when
// the options are wrong; a kind that could not be run says why in its
// Result.
func Run(ctx context.Context, o Options) ([]*Result, error) {
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	names := Kinds()
	if len(o.Kinds) > 0 {
		var err error
		if names, err = ParseKinds(strings.Join(o.Kinds, ",")); err != nil {
			return nil, err
		}
	}
	var todo []*kind
	for _, n := range names {
		todo = append(todo, &kinds[slices.IndexFunc(kinds, func(k kind) bool { return k.name == n })])
	}
	var results []*Result
	for _, k := range todo {
		if ctx.Err() != nil {
			break
		}
		o.progress("%s: %s", k.name, k.describe(&o))
		r := runKind(ctx, &o, k)
		results = append(results, r)
		o.progress("%s: %s", k.name, r.Summary)
	}
	return results, nil
}

// progress tells o.Progress a line.
func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// runKind runs one kind: its own server, the normal room, then the
// attack and the newcomer for the span.
func runKind(ctx context.Context, o *Options, k *kind) *Result {
	r := &Result{Kind: k.name, What: k.describe(o), Normal: Normal{Players: o.Players}}
	e := &env{o: o, counts: newCounters(), dialer: sourceDialer(o.Attacker)}
	r.Source = o.Attacker.String()
	if !usableSource(o.Attacker) {
		e.dialer = sourceDialer(netip.Addr{})
		r.Source = "any (" + o.Attacker.String() + " cannot be bound here)"
	}
	newcomer := sourceDialer(o.Newcomer)
	if !usableSource(o.Newcomer) {
		newcomer = sourceDialer(netip.Addr{})
	}

	dir, err := os.MkdirTemp("", "dobble-hostile-")
	if err != nil {
		r.Failed = err.Error()
		return r
	}
	defer os.RemoveAll(dir)
	srv, err := startServer(ctx, o.Dobble, dir, o.ServeArgs)
	if err != nil {
		r.Failed = err.Error()
		return r
	}
	defer srv.stop()
	e.addr = srv.addr
	smp := watch(srv, o.MemCap)
	defer smp.close()

	// The normal room: seated, then playing for the span; the attack
	// runs from the moment it plays until its measured phase ends.
	filled, played := make(chan struct{}), make(chan struct{})
	var fillOnce, playOnce sync.Once
	cfg := load.Config{URL: "ws://" + srv.addr + "/ws", Rooms: 1, PlayersPerRoom: o.Players, Game: o.Game,
		Duration: o.Span, ReactionMin: o.ReactionMin, ReactionMax: o.ReactionMax,
		Progress: func(line string) {
			switch {
			case strings.Contains(line, "rooms filled"):
				fillOnce.Do(func() { close(filled) })
			case strings.HasPrefix(line, "played"):
				playOnce.Do(func() { close(played) })
			}
		}}
	type loadResult struct {
		rep *load.Report
		err error
	}
	lc := make(chan loadResult, 1)
	go func() {
		rep, err := load.Run(ctx, cfg)
		lc <- loadResult{rep, err}
	}()
	var lr loadResult
	loadDone := false
	select {
	case <-filled:
	case lr = <-lc:
		loadDone = true
	}
	if loadDone {
		r.Failed = "the normal room could not be seated"
		r.Normal.Failed = fmt.Sprint(lr.err)
		r.KilledAtCap, r.Exit = smp.killed, srv.exit()
		r.Summary = r.Failed
		return r
	}

	// The span.
	m0, err0 := srv.scrape(ctx, stepTimeout)
	smp.mark()
	r.RSS.Start = smp.last
	start, cpu0 := time.Now(), cpuTime()
	actx, stop := context.WithCancel(ctx)
	attacked := make(chan struct{})
	go func() {
		defer close(attacked)
		k.run(actx, e)
	}()
	probed := make(chan struct{})
	go func() {
		defer close(probed)
		probe(actx, o, newcomer, srv.addr, &r.Newcomer)
	}()
	half := time.AfterFunc(o.Span/2, smp.markMid)
	select {
	case <-played:
	case lr = <-lc:
		loadDone = true
	}
	half.Stop()
	r.Seconds = time.Since(start).Seconds()
	m1, err1 := srv.scrape(ctx, stepTimeout)
	smp.sampleMemory()
	stop()
	<-attacked
	<-probed
	r.ClientCPU = (cpuTime() - cpu0).Seconds()
	if !loadDone {
		lr = <-lc
	}

	smp.mu.Lock()
	r.RSS.Mid, r.RSS.Peak, r.RSS.End, r.KilledAtCap = smp.mid, smp.peak, smp.last, smp.killed
	r.Rooms.Peak, r.Connections.Peak, r.MetricsUnanswered = smp.rooms, smp.conns, smp.metricsFailed
	smp.mu.Unlock()
	if err0 == nil {
		r.Rooms.Start, r.Connections.Start = m0["dobble_rooms"], m0["dobble_connections"]
	}
	if err1 == nil {
		r.Rooms.End, r.Connections.End = m1["dobble_rooms"], m1["dobble_connections"]
	}
	if err0 == nil && err1 == nil {
		r.ServerCPU = m1["process_cpu_seconds_total"] - m0["process_cpu_seconds_total"]
		r.ServerActions = int64(m1.Sum("dobble_claims_total") - m0.Sum("dobble_claims_total"))
	}
	r.Rooms.Peak = max(r.Rooms.Peak, r.Rooms.Start, r.Rooms.End)
	r.Connections.Peak = max(r.Connections.Peak, r.Connections.Start, r.Connections.End)
	if lr.err != nil {
		r.Normal.Failed = lr.err.Error()
	} else {
		rep := lr.rep
		r.Normal.Actions, r.Normal.Accepted, r.Normal.Late, r.Normal.Games = rep.Claims, rep.Accepted, rep.Late, rep.Games
		r.Normal.P50Ms, r.Normal.P99Ms, r.Normal.MaxMs = rep.P50Ms, rep.P99Ms, rep.MaxMs
		if len(rep.ErrorKinds) > 0 {
			r.Normal.Errors = rep.ErrorKinds
		}
	}
	r.Up = srv.healthy(ctx)
	if !r.Up {
		r.Exit = srv.exit()
		if r.Exit == "" {
			r.Exit = "running, but /healthz unanswered"
		}
	}
	r.Attack = e.counts.list()
	bounded, summary := k.judge(r, o)
	r.Bounded = bounded && r.memoryBounded(o)
	r.Summary = summary
	r.Pass = r.Bounded && r.Up && r.Normal.Failed == "" && r.Normal.Actions > 0 && r.Normal.P99Ms < P99Target &&
		r.Newcomer.Tried > 0 && r.Newcomer.OK == r.Newcomer.Tried
	return r
}

// memoryBounded reports whether the server's memory stayed bounded
// during the span: not killed at the cap, grown by less than o.Grow, and
// by less than a quarter of that in the second half of the span (a
// memory still growing at the end would grow on with a longer attack).
func (r *Result) memoryBounded(o *Options) bool {
	mid := r.RSS.Mid
	if mid == 0 {
		mid = r.RSS.Start
	}
	return !r.KilledAtCap && r.RSS.Peak-r.RSS.Start < o.Grow && r.RSS.End-mid < o.Grow/4
}

// probe has a newcomer open a room every o.ProbeEvery until ctx is done:
// dial, hello, create a private room of two, leave; it counts the tries
// and why those that failed did.
func probe(ctx context.Context, o *Options, d *net.Dialer, addr string, n *Newcomer) {
	for i := 0; ; i++ {
		t := time.Now()
		failure := openRoom(ctx, d, "ws://"+addr+"/ws", i)
		if ctx.Err() != nil {
			return
		}
		n.Tried++
		if failure == "" {
			n.OK++
		} else {
			if n.Failures == nil {
				n.Failures = map[string]int{}
			}
			n.Failures[failure]++
		}
		sleep(ctx, o.ProbeEvery-time.Since(t))
		if ctx.Err() != nil {
			return
		}
	}
}

// openRoom is one try of the newcomer; it returns what failed, or "".
func openRoom(ctx context.Context, d *net.Dialer, url string, i int) string {
	c, err := dialWS(ctx, d, url)
	if err != nil {
		return "connect: " + errKind(err)
	}
	defer c.close()
	if err := c.greet(fmt.Sprintf("newcomer %d", i)); err != nil {
		return "hello: " + answerKind(err)
	}
	c.send([]byte(`{"type":"create","room":{"game":"tower","seats":2,"private":true}}`))
	if _, err := c.await("joined"); err != nil {
		return "create: " + answerKind(err)
	}
	c.send([]byte(`{"type":"leave"}`))
	c.await("closed")
	return ""
}
