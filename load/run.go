package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// stepTimeout bounds each step of the ramp-up (a dial, an answer to hello,
// create or join), and the wait for the claims in flight at the end.
const stepTimeout = 30 * time.Second

// runner is one run: its clients and its counters.
type runner struct {
	cfg     Config
	targets []*target // the servers of Config.URL
	http    *http.Client
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)

	playing  atomic.Bool // the rooms have started: messages go to play
	stopping atomic.Bool // the measured phase is over: no new actions
	closing  atomic.Bool // the clients are being closed: no errors

	kinds [kindCount]kindStats // by rules.ActionKind
	// With the players of a room on several servers (spread), the
	// latencies of the players on the server their room was created on,
	// and on another.
	spread      bool
	same, other histogram
	games       atomic.Int64
	inFlight    atomic.Int64
	// ended holds, by room, one more than the number of the last table
	// whose end a client of the room saw (0 before any): the first to see
	// it counts the game.
	ended []atomic.Int64

	errMu  sync.Mutex
	errors map[string]int64

	// The goroutines Run waits for before it returns: the clients'
	// readers and reconnections. Once bgClosed is set no more start.
	bg       sync.WaitGroup
	bgMu     sync.Mutex
	bgClosed bool
	// ctx ends, and quit is closed, when the run closes, ending the
	// reconnections under way.
	ctx  context.Context
	quit chan struct{}
	res  resumeStats // with Config.Resume
}

// kindCount is the number of action kinds, the clock's tick included.
const kindCount = int(rules.ActionTake) + 1

// kindStats counts the actions of one kind: those sent, those accepted
// and those too late, and the latency of each from its sending to the
// message that settled it.
type kindStats struct {
	sent, accepted, late atomic.Int64
	hist                 histogram
}

// fail counts one error of a kind.
func (r *runner) fail(kind string) {
	r.errMu.Lock()
	r.errors[kind]++
	r.errMu.Unlock()
}

// Run runs the load described by cfg and reports what it measured. It
// returns an error only when the run could not be made (a bad
// configuration, a server that does not answer its metrics); what goes
// wrong during the run is counted in Report.Errors. Cancelling ctx during
// the measured phase ends it early, with a report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	p, err := run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return p.Report, nil
}

// part is what one process of a run measured: its report, what a run
// split over several processes (RunSplit) needs to merge the reports
// exactly — the latency histograms by kind of action, and of the
// resumes' time back in play — and the clients connected and rooms
// filled during the ramp-up.
type part struct {
	Report    *Report               `json:"report"`
	Connected int                   `json:"connected"`
	Filled    int                   `json:"filled"`
	Hists     map[string]*histogram `json:"hists"`
	Back      *histogram            `json:"back,omitempty"`
	// With the players of a room spread over the servers: the latencies
	// of those on the server their room was created on, and on another.
	Same  *histogram `json:"same,omitempty"`
	Other *histogram `json:"other,omitempty"`
}

// run is Run, which returns the part.
func run(ctx context.Context, cfg Config) (*part, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Dials == 0 {
		cfg.Dials = DefaultDials
	}
	if cfg.ResumeGrace == 0 {
		cfg.ResumeGrace = DefaultResumeGrace
	}
	targets, _ := parseTargets(cfg.URL)
	n := cfg.Rooms * cfg.PlayersPerRoom
	dial := sourceDialer(targets, n)
	tr := &http.Transport{DialContext: dial, MaxIdleConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	r := &runner{
		cfg: cfg, targets: targets, spread: cfg.Spread == SpreadPlayers && len(targets) > 1, http: &http.Client{Transport: tr}, dial: dial,
		errors: map[string]int64{}, ctx: runCtx, quit: make(chan struct{}),
		ended: make([]atomic.Int64, cfg.Rooms),
		res:   resumeStats{drops: map[string]int64{}, failed: map[string]int64{}},
	}
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, args...))
		}
	}

	base, err := r.scrape(ctx)
	if err != nil {
		return nil, err
	}
	rampStart := time.Now()
	clients := make([]*client, n)
	defer func() {
		r.closing.Store(true)
		r.bgMu.Lock()
		r.bgClosed = true
		r.bgMu.Unlock()
		close(r.quit)
		stopRun()
		for _, c := range clients {
			if c != nil {
				c.conn.Load().close()
			}
		}
		r.bg.Wait()
	}()

	// Connect every client and say hello, at most Dials at a time.
	pool(ctx, n, cfg.Dials, func(i int) {
		c, kind := r.connect(ctx, i)
		if kind != "" {
			r.fail(kind)
			return
		}
		clients[i] = c
	})
	if ctx.Err() != nil {
		return nil, errStopped
	}
	connected := 0
	for _, c := range clients {
		if c != nil {
			connected++
		}
	}
	progress("%d of %d clients connected in %.1f s", connected, n, time.Since(rampStart).Seconds())
	if cfg.Barrier != nil {
		cfg.Barrier("connected")
	}
	idle, err := r.scrape(ctx)
	if err != nil {
		return nil, err
	}

	// Create and fill every room.
	seated := make([]bool, cfg.Rooms)
	pool(ctx, cfg.Rooms, cfg.Dials, func(i int) {
		seated[i] = r.seat(clients[i*cfg.PlayersPerRoom : (i+1)*cfg.PlayersPerRoom])
	})
	if ctx.Err() != nil {
		return nil, errStopped
	}
	rooms := 0
	for _, ok := range seated {
		if ok {
			rooms++
		}
	}
	progress("%d of %d rooms filled in %.1f s", rooms, cfg.Rooms, time.Since(rampStart).Seconds())
	if rooms == 0 {
		return nil, fmt.Errorf("no room could be filled: %s", r.errorSummary())
	}
	if cfg.Barrier != nil {
		cfg.Barrier("seated")
	}
	lobby, err := r.scrape(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	ramp := time.Since(rampStart)

	// Play: every host starts, and starts again when its session ends.
	r.playing.Store(true)
	if cfg.Watch != nil {
		cfg.Watch(Seen{Kind: SeenPlay, Client: -1, Room: -1, At: time.Now()})
	}
	start, cpuStart := time.Now(), cpuTime()
	for i, ok := range seated {
		if ok {
			clients[i*cfg.PlayersPerRoom].send(startFrame)
		}
	}
	timer := time.NewTimer(cfg.Duration)
	select {
	case <-timer.C:
	case <-ctx.Done():
		timer.Stop()
	}
	r.stopping.Store(true)
	elapsed, cpu := time.Since(start), cpuTime()-cpuStart
	for _, c := range clients {
		if c != nil {
			c.cancel()
		}
	}
	progress("played %.1f s; waiting for %d actions in flight", elapsed.Seconds(), r.inFlight.Load())
	deadline := time.Now().Add(stepTimeout)
	for r.inFlight.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if u := r.inFlight.Load(); u > 0 {
		r.errMu.Lock()
		r.errors["unsettled"] += u
		r.errMu.Unlock()
	}
	if cfg.Barrier != nil {
		cfg.Barrier("measured")
	}
	end, err := r.scrapeEnd(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}

	p := &part{Connected: connected, Filled: rooms, Hists: map[string]*histogram{}}
	rep := &Report{
		Rooms: cfg.Rooms, PlayersPerRoom: cfg.PlayersPerRoom, Game: cfg.Game,
		Seconds: elapsed.Seconds(), RampSeconds: ramp.Seconds(),
		Games:      r.games.Load(),
		Actions:    map[string]*ActionReport{},
		ClientCPU:  cpu.Seconds(),
		ErrorKinds: map[string]int64{},
	}
	for k := range r.kinds {
		ks := &r.kinds[k]
		if ks.sent.Load() == 0 {
			continue
		}
		name := rules.ActionKind(k).String()
		p.Hists[name] = &ks.hist
		rep.Actions[name] = &ActionReport{Sent: ks.sent.Load(), Accepted: ks.accepted.Load(), Late: ks.late.Load()}
	}
	for _, c := range clients {
		if c != nil && !c.lost.Load() {
			rep.Connections++
		}
	}
	if cfg.Resume {
		rep.Resume = r.res.report()
		p.Back = &r.res.back
	}
	if r.spread {
		p.Same, p.Other = &r.same, &r.other
	}
	r.errMu.Lock()
	for k, v := range r.errors {
		rep.ErrorKinds[k] = v
		rep.Errors += v
	}
	r.errMu.Unlock()
	p.Report = rep
	p.fill()
	p.server(base, idle, lobby, end)
	return p, nil
}

// fill sets the report's totals and latencies from its counts by kind of
// action and the histograms of their latencies, and the times back in
// play of its resumes (with Config.Resume).
func (p *part) fill() {
	rep := p.Report
	rep.Claims, rep.Accepted, rep.Late = 0, 0, 0
	var all histogram
	for name, a := range rep.Actions {
		h := p.Hists[name]
		all.merge(h)
		a.P50Ms, a.P99Ms, a.MaxMs = ms(h.quantile(0.50)), ms(h.quantile(0.99)), ms(time.Duration(h.max.Load())*time.Microsecond)
		rep.Claims += a.Sent
		rep.Accepted += a.Accepted
		rep.Late += a.Late
	}
	rep.P50Ms, rep.P90Ms, rep.P99Ms = ms(all.quantile(0.50)), ms(all.quantile(0.90)), ms(all.quantile(0.99))
	rep.MaxMs = ms(time.Duration(all.max.Load()) * time.Microsecond)
	rep.ClaimsPerS = float64(rep.Claims) / rep.Seconds
	rep.GamesPerS = float64(rep.Games) / rep.Seconds
	if p.Same != nil && p.Other != nil {
		rep.Spread = &SpreadReport{Same: latencyOf(p.Same), Other: latencyOf(p.Other)}
	}
	if res, back := rep.Resume, p.Back; res != nil && back != nil {
		res.BackP50Ms, res.BackP99Ms = ms(back.quantile(0.50)), ms(back.quantile(0.99))
		res.BackMaxMs = ms(time.Duration(back.max.Load()) * time.Microsecond)
	}
}

// server sets the report's figures of the servers from their metrics read
// before the clients connected (base), once they had (idle), once the
// rooms were filled (lobby) and at the end of the measured phase (end).
func (p *part) server(base, idle, lobby, end metrics) {
	rep := p.Report
	rep.ServerConnections = int(end["dobble_connections"])
	rep.ServerClaims = int64(max(0, end.Sum("dobble_claims_total")-base.Sum("dobble_claims_total")))
	rep.ServerGames = int64(max(0, end.Sum("dobble_games_total")-base.Sum("dobble_games_total")))
	rep.ServerMemory = int64(end.memory())
	rep.ServerCPU = max(0, end["process_cpu_seconds_total"]-lobby["process_cpu_seconds_total"])
	if p.Connected > 0 {
		rep.ConnBytes = int64((idle.memory() - base.memory()) / float64(p.Connected))
	}
	if p.Filled > 0 {
		rep.RoomBytes = int64((lobby.memory() - idle.memory()) / float64(p.Filled))
	}
}

// scrape reads the metrics of every server and adds them up. A process
// of a split run (Config.Barrier set) leaves them to the process merging
// the run, which reads them while the processes wait.
func (r *runner) scrape(ctx context.Context) (metrics, error) {
	if r.cfg.Barrier != nil {
		return metrics{}, nil
	}
	return scrapeAll(ctx, r.http, r.targets)
}

// scrapeAll reads the metrics of the servers ts, at once, and adds them
// up, series by series.
func scrapeAll(ctx context.Context, client *http.Client, ts []*target) (metrics, error) {
	ms := make([]metrics, len(ts))
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() {
			if ms[i], errs[i] = scrape(ctx, client, t.metrics); errs[i] != nil {
				errs[i] = fmt.Errorf("%w (is %s a dobble server?)", errs[i], t.ws)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return sumMetrics(ms...), nil
}

// sumMetrics adds up the samples of several servers, series by series.
func sumMetrics(ms ...metrics) metrics {
	sum := metrics{}
	for _, m := range ms {
		for k, v := range m {
			sum[k] += v
		}
	}
	return sum
}

// scrapeEnd reads the servers' metrics at the end of the measured phase.
// With Config.Resume a server may be restarting, or gone for good (a node
// of a cluster killed, its rooms taken over by the others): see
// scrapeLenient; a server still away is counted as the error "metrics: …".
func (r *runner) scrapeEnd(ctx context.Context) (metrics, error) {
	if !r.cfg.Resume || r.cfg.Barrier != nil {
		return r.scrape(ctx)
	}
	return scrapeLenient(ctx, r.http, r.targets, r.fail), nil
}

// errorSummary lists the errors counted so far, by kind: the first
// summaryKinds kinds in order, and how many more.
func (r *runner) errorSummary() string {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(r.errors)) {
		if len(kinds) == summaryKinds {
			kinds = append(kinds, fmt.Sprintf("and %d kinds more", len(r.errors)-summaryKinds))
			break
		}
		kinds = append(kinds, fmt.Sprintf("%d× %s", r.errors[k], k))
	}
	return strings.Join(kinds, ", ")
}

// summaryKinds is the most kinds of error errorSummary lists: the errors
// of a room name its code, and a run of thousands of rooms makes as many
// kinds.
const summaryKinds = 5

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// pool calls f(i) for every i below n, at most k at a time, and returns
// when all have returned or ctx is done (the calls under way finish).
func pool(ctx context.Context, n, k int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(k, n) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}

// sourceDialer returns the dial function of the clients' transport. Each
// source address has its own ephemeral ports for a destination, so against
// IPv4 loopback servers the clients spread over one source address of
// 127.0.0.0/8 for every 10,000 connections, when the system allows it.
func sourceDialer(ts []*target, n int) func(ctx context.Context, network, addr string) (net.Conn, error) {
	var dialers []*net.Dialer
	if spreadSources && !slices.ContainsFunc(ts, func(t *target) bool { return !t.addr.Is4() }) && n > 10_000 {
		for i := range (n + 9_999) / 10_000 {
			ip := net.IPv4(127, 0, byte((i+1)>>8), byte(i+1))
			if ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0")); err == nil {
				ln.Close()
				dialers = append(dialers, &net.Dialer{Timeout: stepTimeout, LocalAddr: &net.TCPAddr{IP: ip}, Control: bindNoPort})
			}
		}
	}
	if len(dialers) == 0 {
		dialers = []*net.Dialer{{Timeout: stepTimeout}}
	}
	var turn atomic.Uint64
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialers[turn.Add(1)%uint64(len(dialers))].DialContext(ctx, network, addr)
	}
}

// connect dials client i on its server and says hello; it returns the
// client, or the kind of error that stopped it.
func (r *runner) connect(ctx context.Context, i int) (*client, string) {
	dctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	room, seat := r.cfg.FirstRoom+i/r.cfg.PlayersPerRoom, i%r.cfg.PlayersPerRoom
	t := room
	if r.cfg.Spread == SpreadPlayers {
		t += seat
	}
	t %= len(r.targets)
	conn, err := dialWS(dctx, r.dial, r.targets[t].ws)
	if err != nil {
		if s, ok := errors.AsType[ws.StatusError](err); ok {
			return nil, "connect: HTTP " + strconv.Itoa(int(s))
		}
		msg := err.Error()
		return nil, "connect:" + msg[strings.LastIndex(msg, ": ")+1:]
	}
	c := &client{r: r, n: r.cfg.FirstRoom*r.cfg.PlayersPerRoom + i, target: t, other: t != room%len(r.targets), ctl: make(chan *message, 8), seat: -1, table: -1}
	c.conn.Store(conn)
	if !r.background() {
		conn.close()
		return nil, "connect: the run is closing"
	}
	go c.read(conn, true)
	c.send(protocol.AppendRequest(nil, &protocol.Request{Type: protocol.TypeHello, V: protocol.Version, Name: c.name(), Lang: "en"}))
	if _, kind := c.await("welcome"); kind != "" {
		c.lost.Store(true)
		conn.close()
		return nil, kind
	}
	return c, ""
}

// seat creates a room with its first client as the host and joins the
// others to it; it reports whether every seat was taken.
func (r *runner) seat(cs []*client) bool {
	for _, c := range cs {
		if c == nil {
			return false // its connection failed, and was counted
		}
	}
	spec := &protocol.RoomSpec{Game: r.cfg.Game, Seats: len(cs), Games: 1, Private: true, Deck: r.cfg.Deck, Options: r.cfg.Options}
	m, kind := cs[0].ask(protocol.AppendRequest(nil, &protocol.Request{Type: protocol.TypeCreate, Spec: spec}))
	if kind != "" {
		r.fail(kind)
		return false
	}
	var code string
	json.Unmarshal(m.Room, &code)
	join := protocol.AppendRequest(nil, &protocol.Request{Type: protocol.TypeJoin, Code: code})
	for _, c := range cs[1:] {
		if _, kind := c.ask(join); kind != "" {
			r.fail(kind)
			return false
		}
	}
	return true
}

// ask sends a create or join and waits for the client to be seated. A
// server that answers busy (its room's queue full, or a node of a
// cluster still taking the room over) is asked again, after a wait of
// 50 ms doubling to a second, for stepTimeout; any other answer is
// final. kind names what went wrong.
func (c *client) ask(req []byte) (*message, string) {
	deadline := time.Now().Add(stepTimeout)
	wait := 50 * time.Millisecond
	for {
		c.send(req)
		m, kind := c.await("joined")
		if kind == "" || m == nil || m.Code != protocol.CodeBusy || time.Now().Add(wait).After(deadline) {
			return m, kind
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Second)
	}
}

// startFrame is what a host sends to start, or to start a rematch.
var startFrame = protocol.AppendRequest(nil, &protocol.Request{Type: protocol.TypeStart})
