// Command crash runs the crash test of docs/RELIABILITY.md (package internal/crash):
// rooms of people play against dobble serve, which is killed with SIGKILL
// at random moments and started again on the same database and port,
// then restarted with SIGTERM; it prints what came of the players and of
// every action they saw acknowledged. scripts/bench-crash runs it and
// writes its figures into docs/RELIABILITY.md.
//
//	go run ./internal/crash/cmd/crash [--kills 100] [--seed 1] [--format text|markdown|json] [--check]
//	go run ./internal/crash/cmd/crash --nodes 3 [--postgres postgres://postgres@127.0.0.1:5432/test] [--kills 30]
//
// With --nodes N the server is a cluster of N nodes on a NATS server with
// JetStream that the test starts (Debian's nats-server) and a schema of
// its own in the PostgreSQL database of --postgres, dropped at the end;
// each kill ends one node.
//
// Run it from inside the repository: unless --dobble names a binary, it
// builds cmd/dobble first.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/dobble-dev/dobble/internal/crash"
	"github.com/dobble-dev/dobble/load"
)

func main() {
	err := run(os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errFailed):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "crash:", err)
		os.Exit(1)
	}
}

// errFailed ends a run with --check where the server broke its promise.
var errFailed = errors.New("the server broke its promise")

func run(args []string) error {
	d := crash.DefaultOptions()
	fs := flag.NewFlagSet("crash", flag.ContinueOnError)
	bin := fs.String("dobble", "", "the dobble binary to serve with (default: build ./cmd/dobble)")
	serve := fs.String("serve", strings.Join(d.ServeArgs, " "), "flags added to dobble serve, separated by spaces")
	kills := fs.Int("kills", d.Kills, "how many times the server is killed with SIGKILL")
	graceful := fs.Int("graceful", d.Graceful, "how many times it is then restarted with SIGTERM")
	seed := fs.Uint64("seed", d.Seed, "seed of the kills' moments")
	every := fs.String("kill-after", d.KillMin.String()+"-"+d.KillMax.String(), "time from every player back in play to the next kill, MIN-MAX (uniform)")
	reaction := fs.String("reaction", d.ReactionMin.String()+"-"+d.ReactionMax.String(), "the players' reaction time after each view, MIN-MAX")
	nodes := fs.Int("nodes", 1, "nodes of the server: 2 or more run a cluster on NATS and PostgreSQL, one node killed at a time")
	postgres := fs.String("postgres", "postgres://postgres@127.0.0.1:5432/test", "PostgreSQL database of a cluster's games (a schema of the test's own is made there and dropped)")
	natsServer := fs.String("nats-server", crash.DefaultNATSServer, "the nats-server binary a cluster runs on")
	dir := fs.String("dir", "", "folder of the server's database (default: a temporary one, removed at the end)")
	format := fs.String("format", "text", "output: text, markdown or json")
	check := fs.Bool("check", false, "exit with status 2 when the server broke its promise (an acknowledged action lost, a player that could not resume…)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if !slices.Contains([]string{"text", "markdown", "json"}, *format) {
		return fmt.Errorf("--format %q: use text, markdown or json", *format)
	}
	o := d
	var err error
	if o.KillMin, o.KillMax, err = load.ParseReaction(*every); err != nil {
		return fmt.Errorf("--kill-after %q: use MIN-MAX, two durations such as 500ms-2s (MIN ≤ MAX, at most %v)", *every, load.MaxReaction)
	}
	if o.ReactionMin, o.ReactionMax, err = load.ParseReaction(*reaction); err != nil {
		return err
	}
	o.Kills, o.Graceful, o.Seed, o.ServeArgs = *kills, *graceful, *seed, strings.Fields(*serve)
	if *nodes > 1 {
		o.Nodes, o.Postgres, o.NATSServer = *nodes, *postgres, *natsServer
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Progress = func(line string) { fmt.Fprintln(os.Stderr, "crash: "+line) }
	if o.Dir = *dir; o.Dir == "" {
		tmp, err := os.MkdirTemp("", "dobble-crash-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		o.Dir = tmp
	}
	if o.Dobble = *bin; o.Dobble == "" {
		o.Progress("building cmd/dobble")
		if o.Dobble, err = crash.Build(ctx, o.Dir); err != nil {
			return err
		}
	}
	res, err := crash.Run(ctx, o)
	if err != nil {
		if res != nil {
			res.WriteText(os.Stderr)
		}
		return err
	}
	switch *format {
	case "json":
		b, _ := json.MarshalIndent(res, "", "  ")
		fmt.Printf("%s\n", b)
	case "markdown":
		res.WriteMarkdown(os.Stdout)
	default:
		res.WriteText(os.Stdout)
	}
	if !res.Passed() {
		fmt.Fprintf(os.Stderr, "crash: FAILED: %s\n", strings.Join(res.Problems(), "\ncrash: FAILED: "))
		if *check {
			return errFailed
		}
	}
	return nil
}
