// Command fairrace plays rooms of two people behind networks of their own
// against a running dobble serve and prints how fair its races were, one
// row of the table of docs/BENCHMARKS.md (package internal/fairrace).
// scripts/bench-fair runs it.
//
//	go run ./internal/fairrace/cmd/fairrace --url http://127.0.0.1:8080/ --rtt 20ms,150ms [--hold-pongs 0,280ms] [--label TEXT]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/dobble-dev/dobble/internal/fairrace"
)

func main() {
	if err := run(os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "fairrace:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("fairrace", flag.ContinueOnError)
	url := fs.String("url", "", "the server's root, http://127.0.0.1:PORT/")
	rooms := fs.Int("rooms", 20, "rooms playing at once")
	span := fs.Duration("span", time.Minute, "how long they play")
	rtt := fs.String("rtt", "20ms,20ms", "the host's and the guest's round trips, HOST,GUEST")
	hold := fs.String("hold-pongs", "0,0", "how long the host and the guest hold back each pong, HOST,GUEST")
	mean := fs.Duration("mean", 1200*time.Millisecond, "mean reaction")
	sd := fs.Duration("sd", 300*time.Millisecond, "standard deviation of the reactions")
	seed := fs.Uint64("seed", 1, "seed of the reactions")
	label := fs.String("label", "", "the row's first cell")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		return errors.New("--url is needed: the root of a running dobble serve")
	}
	o := fairrace.Options{URL: *url, Rooms: *rooms, Span: *span, Mean: *mean, SD: *sd, Seed: *seed}
	for i, list := range []string{*rtt, *hold} {
		parts := strings.Split(list, ",")
		if len(parts) != 2 {
			return fmt.Errorf("%q: give two durations, HOST,GUEST", list)
		}
		for seat, p := range parts {
			d, err := time.ParseDuration(strings.TrimSpace(p))
			if err != nil || d < 0 {
				return fmt.Errorf("%q: not a duration such as 150ms", p)
			}
			if i == 0 {
				o.Players[seat].RTT = d
			} else {
				o.Players[seat].HoldPongs = d
			}
		}
	}
	res, err := fairrace.Run(context.Background(), o)
	if err != nil {
		return err
	}
	share, lo, hi := res.Share()
	f30 := "—"
	if res.Faster30 > 0 {
		f30 = fmt.Sprintf("%.1f %% of %d", 100*float64(res.Faster30Won)/float64(res.Faster30), res.Faster30)
	}
	wait := "—"
	if res.WaitN > 0 {
		wait = fmt.Sprintf("%.0f / %.0f ms", 1000*res.WaitP50, 1000*res.WaitP99)
	}
	fmt.Printf("| %s | %d | %.1f %% (%.1f–%.1f) | %s | %.1f %% | %s |\n", *label, res.Races, 100*share, 100*lo, 100*hi,
		f30, 100*float64(res.SlowerWon)/float64(max(res.Races, 1)), wait)
	return nil
}
