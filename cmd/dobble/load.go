package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/dobble-dev/dobble/load"
)

const loadSynopsis = `dobble load --url ws://127.0.0.1:PORT/ws[,URL…] [--spread rooms|players]
           [--procs N] [--rooms R] [--players-per-room P]
           [--game NAME] [--option NAME=VALUE]… [--deck DECK] [--duration D]
           [--reaction MIN-MAX] [--dials N] [--resume] [--resume-grace D]
           [--format text|json]
           [--cpuprofile FILE]

Measures a dobble server on this machine under R×P players: opens R×P
WebSocket clients (at most --dials connecting at once), creates R private
rooms of P seats, starts them, and plays for D. Every client chooses its
action from the view it receives and sends it after a reaction time drawn
between MIN and MAX: the correct match to claim, and in the extra
mini-games a flip, a lay or STOP on its turn, an answer, a guess, a
discard or a take, with what it remembers of the views before; it waits
for the server's clock in the timed games, and acts before a turn or an
answer phase runs out. The host starts a rematch when a session ends. The
ramp-up (connecting, filling the rooms) is not measured.

Prints the connections held at the end, actions and games per second, the
latency from sending an action to receiving the update (or refusal) that
settles it (p50, p90, p99, max; and p50, p99, max by kind of action), the
errors and refusals by kind, and the server's memory from its /metrics:
under load, and what an idle connection and a room cost. --format json
prints one object: {"connections":…,"claims_per_s":…,"games_per_s":…,
"p50_ms":…,"p90_ms":…,"p99_ms":…,"max_ms":…,"actions":{"claim":{"sent":…,
"accepted":…,"late":…,"p50_ms":…,"p99_ms":…,"max_ms":…},…},"errors":…,
"error_kinds":{…},…}, where claims counts the actions of every kind.

With --resume the clients survive a restart of the server: a client whose
connection drops while the rooms play (or is closed with 1012 or 1001)
dials again with a back-off (50 ms doubling to 2 s, with jitter), says
hello and resumes its seat with its room's code and token, for up to a
minute (or until the server has answered noRoom or badToken three times
in a row, over --resume-grace, 2 s by default), and plays on. The report
then adds the connections dropped, the reconnections, the resumes that worked and failed (by error code), the
resumes at a table behind what the client had seen acknowledged, and
the time from a drop to being back in play (p50, p99, max); in JSON
"resume":{"drops":…,"reconnects":…,"resumed":…,"failed":…,"fail_kinds":{…},
"behind":…,"back_p50_ms":…,"back_p99_ms":…,…}. Without it a dropped
connection is an error and its client plays no more.

Several servers, the nodes of a cluster: give --url several URLs,
comma-separated or the flag repeated. The rooms are created on them in
turn (room k on server k modulo their number), and with --spread players
player s of room k joins through server k+s, so that the players of one
room reach it through different nodes, and the report splits the
latencies between the players on the server their room was created on
and those on another (in JSON "spread":{"same":{"actions":…,"p50_ms":…,
"p99_ms":…,"max_ms":…},"other":{…}}). A client that comes back with
--resume tries the next server when its own does not answer or does not
know its room. The
servers' figures are the sums over all of them.

One process holds no more sockets than its open-file limit (ulimit -n;
20,000 on many machines, a hard limit). --procs N splits the run over N
processes of this program, each with its share of the rooms (and of
--dials), each within its own limit: they connect, fill their rooms,
start and stop together, and this process reads the servers' metrics,
merges their counts and latency histograms exactly, and prints one
report. With --cpuprofile each writes FILE.K, K from 1.

Only loopback URLs are accepted. The server must allow the connections
and rooms: dobble serve --max-conns and --max-rooms. Ctrl-C ends the
measured phase early and still prints the report.`

// loadPartEnv, in the environment of a process started by dobble load
// --procs, makes it one part of the split run: its value is the number of
// its first room. The process talks to the one that started it on its
// standard input and output (load.RunPart).
const loadPartEnv = "DOBBLE_LOAD_PART"

// runLoad is dobble load.
func runLoad(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("load", loadSynopsis, stdout)
	var urls optionFlags
	fs.Var(&urls, "url", "the server's WebSocket URL, ws://127.0.0.1:PORT/ws (loopback only); several, comma-separated or repeated, spread the rooms over them")
	spread := fs.String("spread", load.SpreadRooms, "with several --url: rooms (a room's players all on the server it was created on) or players (on different servers)")
	procs := fs.Int("procs", 1, fmt.Sprintf("split the run over this many processes, each with its share of the rooms, for more sockets than one process's file limit (1 to %d)", load.MaxProcs))
	rooms := fs.Int("rooms", load.DefaultRooms, "number of rooms")
	players := fs.Int("players-per-room", load.DefaultPlayersPerRoom, "players (clients) in each room")
	game := fs.String("game", load.DefaultGame, "the mini-game every room plays: "+strings.Join(load.Games(), ", "))
	var options optionFlags
	fs.Var(&options, "option", "set an option of the game, NAME=VALUE (repeatable), such as study=5000 for reflection")
	deck := fs.String("deck", "", "the deck the rooms play with: an edition or order-Q[-M] (default: the server's, classic)")
	duration := fs.Duration("duration", load.DefaultDuration, fmt.Sprintf("how long the rooms play once started (at most %v)", load.MaxDuration))
	reaction := fs.String("reaction", (load.DefaultReactionMin).String()+"-"+load.DefaultReactionMax.String(), "a client's reaction time after each view, MIN-MAX (uniform)")
	dials := fs.Int("dials", load.DefaultDials, fmt.Sprintf("connections and joins in flight at once during the ramp-up (1 to %d)", load.MaxDials))
	resume := fs.Bool("resume", false, "reconnect and resume the seat when the server drops a connection (a restart), and report it")
	grace := fs.Duration("resume-grace", load.DefaultResumeGrace, "with --resume, how long the servers may answer that they know no such room or seat before a client gives up (longer for a cluster taking a dead node's rooms over)")
	format := fs.String("format", "text", "output format: text or json")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the load itself (all its clients) to this file, for go tool pprof")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("load: unexpected argument %q (see dobble load --help)", fs.Arg(0))
	}
	url := strings.Join(urls, ",")
	if url == "" {
		return usagef("load: --url is missing; give the server's WebSocket URL, such as ws://127.0.0.1:8080/ws")
	}
	if !slices.Contains([]string{"text", "json"}, *format) {
		return usagef("load: --format %q: use text or json", *format)
	}
	if *dials < 1 {
		return usagef("load: --dials %d: use 1 to %d", *dials, load.MaxDials)
	}
	lo, hi, err := load.ParseReaction(*reaction)
	if err != nil {
		return usagef("load: %v", err)
	}
	opts, err := options.parse("load")
	if err != nil {
		return err
	}
	cfg := load.Config{URL: url, Spread: *spread, Rooms: *rooms, PlayersPerRoom: *players, Game: *game, Deck: *deck, Options: opts, Duration: *duration,
		ReactionMin: lo, ReactionMax: hi, Dials: *dials, Resume: *resume, ResumeGrace: *grace,
		Progress: func(line string) { fmt.Fprintln(stderr, "dobble: load: "+line) }}
	if err := cfg.Validate(); err != nil {
		return usagef("load: %v", err)
	}
	if *procs < 1 || *procs > load.MaxProcs || *procs > cfg.Rooms {
		return usagef("load: --procs %d: use 1 to %d, and no more than --rooms (%d)", *procs, load.MaxProcs, cfg.Rooms)
	}
	part, isPart := os.LookupEnv(loadPartEnv)
	if isPart {
		if cfg.FirstRoom, err = strconv.Atoi(part); err != nil {
			return fmt.Errorf("load: %s=%q: not a room number", loadPartEnv, part)
		}
	}
	// A process of a split run names its rooms in what it says.
	whose := ""
	if isPart {
		whose = fmt.Sprintf("rooms %d-%d: ", cfg.FirstRoom, cfg.FirstRoom+cfg.Rooms-1)
		cfg.Progress = func(line string) { fmt.Fprintf(stderr, "dobble: load: %s%s\n", whose, line) }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *procs > 1 {
		// The processes' lines and this one's go to stderr at once.
		stderr = &lockedWriter{w: stderr}
		cfg.Progress = func(line string) { fmt.Fprintln(stderr, "dobble: load: "+line) }
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("load: --procs: finding this program: %w", err)
		}
		n := 0
		rep, err := load.RunSplit(ctx, cfg, *procs, func(share load.Config) *exec.Cmd {
			n++
			args := []string{"load", "--url", share.URL, "--spread", share.Spread, "--rooms", strconv.Itoa(share.Rooms),
				"--players-per-room", strconv.Itoa(share.PlayersPerRoom), "--game", share.Game, "--deck", share.Deck,
				"--duration", share.Duration.String(), "--reaction", share.ReactionMin.String() + "-" + share.ReactionMax.String(),
				"--dials", strconv.Itoa(max(1, share.Dials / *procs)), "--resume=" + strconv.FormatBool(share.Resume), "--resume-grace", share.ResumeGrace.String()}
			for _, o := range options {
				args = append(args, "--option", o)
			}
			if *profile != "" {
				args = append(args, "--cpuprofile", *profile+"."+strconv.Itoa(n))
			}
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), loadPartEnv+"="+strconv.Itoa(share.FirstRoom))
			cmd.Stderr = stderr
			return cmd
		})
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		return printLoadReport(stdout, rep, *format)
	}
	// Each client holds one file; the process itself uses a few more.
	if _, err := raiseFileLimit(uint64(cfg.Rooms*cfg.PlayersPerRoom) + 16); err != nil {
		return fmt.Errorf("load: %d connections: %w", cfg.Rooms*cfg.PlayersPerRoom, err)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return usagef("load: --cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("load: --cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if isPart {
		if err := load.RunPart(ctx, cfg, stdin, stdout); err != nil {
			return fmt.Errorf("load: %s%w", whose, err)
		}
		return nil
	}
	rep, err := load.Run(ctx, cfg)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return printLoadReport(stdout, rep, *format)
}

// printLoadReport prints a report in the format asked for.
func printLoadReport(stdout io.Writer, rep *load.Report, format string) error {
	if format == "json" {
		b, _ := json.Marshal(rep)
		fmt.Fprintf(stdout, "%s\n", b)
		return nil
	}
	writeLoadReport(stdout, rep)
	return nil
}

// writeLoadReport prints a report as text.
func writeLoadReport(w io.Writer, r *load.Report) {
	fmt.Fprintf(w, "players      %d in %d rooms of %d (%s); ramp-up %.1f s, then %.1f s measured\n",
		r.Rooms*r.PlayersPerRoom, r.Rooms, r.PlayersPerRoom, r.Game, r.RampSeconds, r.Seconds)
	fmt.Fprintf(w, "connections  %d held (the server counts %d)\n", r.Connections, r.ServerConnections)
	fmt.Fprintf(w, "actions      %d, %.1f/s: %d accepted, %d too late (the server counts %d)\n",
		r.Claims, r.ClaimsPerS, r.Accepted, r.Late, r.ServerClaims)
	fmt.Fprintf(w, "games        %d, %.2f/s (the server counts %d)\n", r.Games, r.GamesPerS, r.ServerGames)
	fmt.Fprintf(w, "latency      action → update p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n", r.P50Ms, r.P90Ms, r.P99Ms, r.MaxMs)
	for _, k := range slices.Sorted(maps.Keys(r.Actions)) {
		a := r.Actions[k]
		fmt.Fprintf(w, "  %-10s %d: %d accepted, %d too late; p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
			k, a.Sent, a.Accepted, a.Late, a.P50Ms, a.P99Ms, a.MaxMs)
	}
	fmt.Fprintf(w, "errors       %d", r.Errors)
	kinds := make([]string, 0, len(r.ErrorKinds))
	for k := range r.ErrorKinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for i, k := range kinds {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(w, "%s%d %s", sep, r.ErrorKinds[k], k)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "server       %.1f MB under load; %.1f KB per idle connection, %.1f KB per room\n",
		float64(r.ServerMemory)/(1<<20), float64(r.ConnBytes)/1024, float64(r.RoomBytes)/1024)
	perAction := func(s float64) float64 { return s * 1e6 / float64(max(r.Claims, 1)) }
	fmt.Fprintf(w, "cpu          server %.1f s (%.0f µs an action), clients %.1f s (%.0f µs an action) while measuring\n",
		r.ServerCPU, perAction(r.ServerCPU), r.ClientCPU, perAction(r.ClientCPU))
	if res := r.Resume; res != nil {
		fmt.Fprintf(w, "resume       %d connections dropped%s; %d reconnected (%d tries)\n", res.Drops, kindList(res.DropKinds), res.Reconnects, res.Attempts)
		fmt.Fprintf(w, "             %d back in play, %d failed%s; %d behind what they had seen; %d actions unsettled at a drop\n",
			res.Resumed, res.Failed, kindList(res.FailKinds), res.Behind, res.Unsettled)
		fmt.Fprintf(w, "             drop → back in play p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", res.BackP50Ms, res.BackP99Ms, res.BackMaxMs)
	}
	if s := r.Spread; s != nil {
		fmt.Fprintf(w, "spread       on the room's server: %d actions, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", s.Same.Actions, s.Same.P50Ms, s.Same.P99Ms, s.Same.MaxMs)
		fmt.Fprintf(w, "             on another server:    %d actions, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", s.Other.Actions, s.Other.P50Ms, s.Other.P99Ms, s.Other.MaxMs)
	}
}

// kindList writes counts by kind as " (N kind, M kind)", or nothing for
// none.
func kindList(kinds map[string]int64) string {
	if len(kinds) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		parts = append(parts, fmt.Sprintf("%d %s", kinds[k], k))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// lockedWriter writes to w one write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p to w, alone.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
