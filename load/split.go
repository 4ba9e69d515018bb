package load

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"
)

// A run split over several processes. One process holds at most as many
// sockets as its open-file limit allows (20,000 on the machines this is
// measured on, a hard limit), so a run of more players than that is split:
// RunSplit starts the processes, each with its share of the rooms, and
// each runs RunPart. They talk over the child's standard input and output,
// one line at a time: the child writes {"phase":"connected"} when its
// clients are connected, {"phase":"seated"} when its rooms are filled and
// {"phase":"measured"} when it has played (Config.Barrier), and waits for
// a line on its input before it goes on; RunSplit answers once every child
// has come to that phase, having read the servers' metrics, so that the
// ramp-up, the measured phase and the readings are those of one run. The
// child ends with {"part":{…}}: its report with the histograms of its
// latencies, which RunSplit merges exactly.

// MaxProcs is the most processes a run is split over.
const MaxProcs = 64

// phases are the moments at which the processes of a split run wait for
// each other, in order.
var phases = []string{"connected", "seated", "measured"}

// partLine is one line a child writes.
type partLine struct {
	Phase string `json:"phase,omitempty"`
	Part  *part  `json:"part,omitempty"`
}

// RunPart runs cfg as one process of a run split over several (RunSplit):
// it tells the phases of the run on out and waits at each for a line on
// in, then writes its part of the report on out. cfg.Barrier is set here.
func RunPart(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	lines := bufio.NewReader(in)
	enc := json.NewEncoder(out)
	var failed error
	cfg.Barrier = func(phase string) {
		if failed != nil {
			return
		}
		if failed = enc.Encode(partLine{Phase: phase}); failed != nil {
			return
		}
		if _, err := lines.ReadString('\n'); err != nil {
			failed = fmt.Errorf("the process merging the run went away: %w", err)
		}
	}
	p, err := run(ctx, cfg)
	if err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	return enc.Encode(partLine{Part: p})
}

// RunSplit runs the load of cfg as procs processes, each made by command
// for its share of the rooms (Config.Rooms and Config.FirstRoom set, the
// rest as in cfg) and running RunPart, and merges what they measured into
// one report: counts added up, latency histograms merged, the servers'
// metrics read by this process at the moments the processes wait for each
// other. command returns the process not yet started; RunSplit sets its
// standard input and output. A process that fails ends the run with its
// error, the others stopped. Cancelling ctx interrupts the processes,
// which end their measured phase early, as Run does.
func RunSplit(ctx context.Context, cfg Config, procs int, command func(share Config) *exec.Cmd) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if procs < 1 || procs > MaxProcs || procs > cfg.Rooms {
		return nil, fmt.Errorf("--procs %d: use 1 to %d, and no more than --rooms (%d)", procs, MaxProcs, cfg.Rooms)
	}
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, args...))
		}
	}
	targets, _ := parseTargets(cfg.URL)
	tr := &http.Transport{MaxIdleConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	base, err := scrapeAll(ctx, hc, targets)
	if err != nil {
		return nil, err
	}

	type child struct {
		cmd   *exec.Cmd
		in    io.WriteCloser
		lines chan partLine
		err   chan error // what ended its output
	}
	children := make([]*child, procs)
	stopAll := func() {
		for _, c := range children {
			if c != nil && c.cmd.Process != nil {
				c.cmd.Process.Kill()
			}
		}
	}
	waitAll := func() error {
		var errs []error
		for i, c := range children {
			if c == nil || c.cmd.Process == nil {
				continue
			}
			c.in.Close()
			if err := c.cmd.Wait(); err != nil {
				errs = append(errs, fmt.Errorf("process %d of %d: %w", i+1, procs, err))
			}
		}
		return errors.Join(errs...)
	}
	fail := func(err error) (*Report, error) {
		stopAll()
		waitAll()
		return nil, err
	}

	rampStart := time.Now()
	first := 0
	for i := range procs {
		share := cfg
		share.Rooms = cfg.Rooms / procs
		if i < cfg.Rooms%procs {
			share.Rooms++
		}
		share.FirstRoom = cfg.FirstRoom + first
		first += share.Rooms
		cmd := command(share)
		in, err := cmd.StdinPipe()
		if err != nil {
			return fail(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return fail(err)
		}
		if err := cmd.Start(); err != nil {
			return fail(fmt.Errorf("process %d of %d: %w", i+1, procs, err))
		}
		// A child writes a line for each phase and its part: room for
		// all of them, so that its reader never waits on a run that
		// has failed.
		c := &child{cmd: cmd, in: in, lines: make(chan partLine, len(phases)+1), err: make(chan error, 1)}
		children[i] = c
		go func() {
			dec := json.NewDecoder(out)
			for {
				var l partLine
				if err := dec.Decode(&l); err != nil {
					if errors.Is(err, io.EOF) {
						err = errors.New("it ended without its report")
					}
					c.err <- err
					close(c.lines)
					return
				}
				c.lines <- l
			}
		}()
	}
	// Interrupted, every process ends its measured phase early.
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case <-ctx.Done():
			for _, c := range children {
				c.cmd.Process.Signal(os.Interrupt)
			}
		case <-stopped:
		}
	}()
	// next reads the next line of child i.
	next := func(i int) (partLine, error) {
		l, ok := <-children[i].lines
		if !ok {
			return l, fmt.Errorf("process %d of %d: %w", i+1, procs, <-children[i].err)
		}
		return l, nil
	}

	scrapes := map[string]metrics{}
	endErrors := map[string]int64{}
	var ramp time.Duration
	for _, phase := range phases {
		for i := range children {
			l, err := next(i)
			if err != nil {
				return fail(err)
			}
			if l.Phase != phase {
				return fail(fmt.Errorf("process %d of %d: at %q, want %q", i+1, procs, l.Phase, phase))
			}
		}
		var m metrics
		if phase == "measured" && cfg.Resume {
			m = scrapeLenient(context.WithoutCancel(ctx), hc, targets, func(kind string) { endErrors[kind]++ })
		} else if m, err = scrapeAll(context.WithoutCancel(ctx), hc, targets); err != nil {
			return fail(err)
		}
		scrapes[phase] = m
		if phase == "seated" {
			ramp = time.Since(rampStart)
			progress("the rooms of all %d processes filled in %.1f s", procs, ramp.Seconds())
		}
		for i, c := range children {
			if _, err := io.WriteString(c.in, "\n"); err != nil {
				return fail(fmt.Errorf("process %d of %d: %w", i+1, procs, err))
			}
		}
	}
	parts := make([]*part, procs)
	for i := range children {
		l, err := next(i)
		if err != nil {
			return fail(err)
		}
		if l.Part == nil || l.Part.Report == nil {
			return fail(fmt.Errorf("process %d of %d: no report", i+1, procs))
		}
		parts[i] = l.Part
	}
	if err := waitAll(); err != nil {
		return nil, err
	}
	p := merge(parts)
	p.Report.RampSeconds = ramp.Seconds()
	for k, n := range endErrors {
		p.Report.ErrorKinds[k] += n
		p.Report.Errors += n
	}
	p.server(base, scrapes["connected"], scrapes["seated"], scrapes["measured"])
	return p.Report, nil
}

// merge adds up the parts of a split run: counts, errors by kind and
// histograms; the measured time is the longest of the parts'. The
// servers' figures are left to part.server.
func merge(parts []*part) *part {
	all := &part{Report: &Report{Actions: map[string]*ActionReport{}, ErrorKinds: map[string]int64{}}, Hists: map[string]*histogram{}}
	rep := all.Report
	var back *histogram
	for _, p := range parts {
		r := p.Report
		rep.Rooms += r.Rooms
		rep.PlayersPerRoom, rep.Game = r.PlayersPerRoom, r.Game
		rep.Seconds = max(rep.Seconds, r.Seconds)
		rep.Connections += r.Connections
		rep.Games += r.Games
		rep.ClientCPU += r.ClientCPU
		rep.Errors += r.Errors
		addKinds(rep.ErrorKinds, r.ErrorKinds)
		all.Connected += p.Connected
		all.Filled += p.Filled
		for _, name := range slices.Sorted(maps.Keys(r.Actions)) {
			a, h := r.Actions[name], p.Hists[name]
			if h == nil {
				h = &histogram{}
			}
			if rep.Actions[name] == nil {
				rep.Actions[name] = &ActionReport{}
				all.Hists[name] = &histogram{}
			}
			sum := rep.Actions[name]
			sum.Sent += a.Sent
			sum.Accepted += a.Accepted
			sum.Late += a.Late
			all.Hists[name].merge(h)
		}
		if res := r.Resume; res != nil {
			if rep.Resume == nil {
				rep.Resume = &ResumeReport{DropKinds: map[string]int64{}, FailKinds: map[string]int64{}}
				back = &histogram{}
			}
			sum := rep.Resume
			sum.Drops += res.Drops
			addKinds(sum.DropKinds, res.DropKinds)
			sum.Reconnects += res.Reconnects
			sum.Attempts += res.Attempts
			sum.Resumed += res.Resumed
			sum.Failed += res.Failed
			addKinds(sum.FailKinds, res.FailKinds)
			sum.Unsettled += res.Unsettled
			sum.Behind += res.Behind
			if p.Back != nil {
				back.merge(p.Back)
			}
		}
	}
	for _, p := range parts {
		if p.Same != nil && p.Other != nil {
			if all.Same == nil {
				all.Same, all.Other = &histogram{}, &histogram{}
			}
			all.Same.merge(p.Same)
			all.Other.merge(p.Other)
		}
	}
	all.Back = back
	all.fill()
	return all
}

// addKinds adds the counts by kind of from to to.
func addKinds(to, from map[string]int64) {
	for k, n := range from {
		to[k] += n
	}
}

// scrapeLenient reads the metrics of the servers ts and adds them up,
// trying each again for stepTimeout: a server still away then (restarting,
// or a node of a cluster gone for good) is left out of the sums and told
// to fail.
func scrapeLenient(ctx context.Context, hc *http.Client, ts []*target, fail func(kind string)) metrics {
	ms := make([]metrics, len(ts))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() {
			m, err := scrape(ctx, hc, t.metrics)
			deadline := time.Now().Add(stepTimeout)
			for err != nil && time.Now().Before(deadline) && ctx.Err() == nil {
				time.Sleep(100 * time.Millisecond)
				m, err = scrape(ctx, hc, t.metrics)
			}
			if err != nil {
				mu.Lock()
				fail(err.Error())
				mu.Unlock()
				return
			}
			ms[i] = m
		})
	}
	wg.Wait()
	return sumMetrics(ms...)
}
