// Command hostile runs the hostile clients of docs/SECURITY.md against dobble
// serve, one kind of attack at a time, each beside a normal room, and
// prints what each did to the server and to the room (package
// internal/hostile). scripts/bench-hostile runs it and writes its
// figures into docs/BENCHMARKS.md.
//
//	go run ./internal/hostile/cmd/hostile [--kinds all] [--span 15s] [--format text|markdown|json]
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
	"net/netip"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/dobble-dev/dobble/internal/hostile"
	"github.com/dobble-dev/dobble/load"
)

func main() {
	err := run(os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errFailed):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

// errFailed is the end of a run with --check where a kind did not pass.
var errFailed = errors.New("a kind did not pass")

func run(args []string) error {
	d := hostile.DefaultOptions()
	fs := flag.NewFlagSet("hostile", flag.ContinueOnError)
	bin := fs.String("dobble", "", "the dobble binary to serve with (default: build ./cmd/dobble)")
	serve := fs.String("serve", "", "flags added to dobble serve, separated by spaces, such as \"--countdown 1s\"")
	kinds := fs.String("kinds", "all", "the kinds of attack, comma-separated: all, letters a to g, or names among "+strings.Join(hostile.Kinds(), ", "))
	span := fs.Duration("span", d.Span, "how long each attack runs beside the normal room")
	memCap := fs.Int64("cap", d.MemCap>>20, "server memory, in MiB, at which the server is killed")
	grow := fs.Int64("grow", d.Grow>>20, "most growth of the server's memory in a span, in MiB, that counts as bounded")
	players := fs.Int("players", d.Players, "people in the normal room")
	game := fs.String("game", d.Game, "the game the normal room plays")
	reaction := fs.String("reaction", d.ReactionMin.String()+"-"+d.ReactionMax.String(), "the normal room's reaction time after each view, MIN-MAX")
	attacker := fs.String("attacker", d.Attacker.String(), "loopback source address of the attacks")
	newcomer := fs.String("newcomer", d.Newcomer.String(), "loopback source address of the newcomer who opens a room every second")
	runaway := fs.Int("runaway", d.Runaway, "runaway rooms of attack a")
	runawaySeats := fs.Int("runaway-seats", d.RunawaySeats, "seats of each runaway room: the attacker and instant bots (4 is the spelling of docs/SECURITY.md)")
	workers := fs.Int("workers", d.Workers, "connections or HTTP clients at work at once in attacks b, d (look-ups) and f")
	hoard := fs.Int("hoard", d.Hoard, fmt.Sprintf("connections hoarded by attack c (at most %d)", hostile.MaxHeld))
	keepAlive := fs.Int("keepalive", d.KeepAlive, fmt.Sprintf("keep-alive connections held by attack e (at most %d)", hostile.MaxHeld))
	lookups := fs.Int("lookups", d.Lookups, "room look-ups of each connection in attack d")
	format := fs.String("format", "text", "output: text, markdown or json")
	check := fs.Bool("check", false, "exit with status 2 when a kind does not pass (attack bounded, server up, newcomer served, normal room's p99 under 100 ms)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if !slices.Contains([]string{"text", "markdown", "json"}, *format) {
		return fmt.Errorf("--format %q: use text, markdown or json", *format)
	}
	names, err := hostile.ParseKinds(*kinds)
	if err != nil {
		return fmt.Errorf("--kinds: %v", err)
	}
	lo, hi, err := load.ParseReaction(*reaction)
	if err != nil {
		return err
	}
	att, err := netip.ParseAddr(*attacker)
	if err != nil {
		return fmt.Errorf("--attacker %q: not an address; use a loopback address such as 127.0.0.2", *attacker)
	}
	nc, err := netip.ParseAddr(*newcomer)
	if err != nil {
		return fmt.Errorf("--newcomer %q: not an address; use a loopback address such as 127.0.0.3", *newcomer)
	}
	if *memCap < 1 || *grow < 1 {
		return fmt.Errorf("--cap %d, --grow %d: use sizes of 1 MiB or more", *memCap, *grow)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := func(line string) { fmt.Fprintln(os.Stderr, "hostile: "+line) }
	if *bin == "" {
		dir, err := os.MkdirTemp("", "dobble-hostile-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		progress("building cmd/dobble")
		if *bin, err = hostile.Build(ctx, dir); err != nil {
			return err
		}
	}
	o := hostile.Options{Dobble: *bin, ServeArgs: strings.Fields(*serve), Kinds: names, Span: *span,
		MemCap: *memCap << 20, Grow: *grow << 20, Players: *players, Game: *game, ReactionMin: lo, ReactionMax: hi,
		Attacker: att, Newcomer: nc, Runaway: *runaway, RunawaySeats: *runawaySeats, Workers: *workers, Hoard: *hoard, KeepAlive: *keepAlive,
		Lookups: *lookups, Progress: progress}
	results, err := hostile.Run(ctx, o)
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		b, _ := json.MarshalIndent(results, "", "  ")
		fmt.Printf("%s\n", b)
	case "markdown":
		hostile.WriteMarkdown(os.Stdout, o, results)
	default:
		hostile.WriteText(os.Stdout, results)
	}
	if *check {
		for _, r := range results {
			if !r.Pass {
				return errFailed
			}
		}
	}
	return nil
}
