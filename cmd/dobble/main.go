// Command dobble is the referee, the table and the printer of the Dobble /
// Spot it! game system: it builds and verifies decks, prints them, plays
// games between bots, serves games in the browser, and measures how many
// players the server holds.
//
// Usage:
//
//	dobble serve [--addr HOST:PORT] [--db FILE] [--seat-hold D] [--max-rooms N] [--max-conns N] ...
//	dobble deck --order Q | --symbols-per-card K | --edition NAME [--cards M] [--format json|text]
//	dobble deck verify FILE | - | --order Q [--cards M] | --edition NAME
//	dobble print --edition NAME | --order Q | --words FILE | --images DIR --out FILE.pdf [flags]
//	dobble sim --game NAME --players P [--games G] [--seed S] [--edition E | --order Q [--cards M]]
//	           [--bots LEVEL[,LEVEL…]] [--record FILE] [--option NAME=VALUE …]
//	dobble load --url ws://127.0.0.1:PORT/ws [--rooms R] [--players-per-room P] [--game NAME]
//	            [--duration D] [--reaction MIN-MAX] [--format text|json]
//
// Every command explains itself with --help. Bad requests exit with status 2
// and one line on standard error saying what was wrong and what would work.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// usageError is a bad request: exit status 2 and one line on stderr.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// exitError ends the command with a status and a message on stdout, for
// results that are answers rather than failures (e.g. "invalid: …").
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"serve", "run the multiplayer server with the browser client", runServe},
		{"deck", "generate a deck, or verify one (dobble deck verify)", runDeck},
		{"print", "write a printable deck as a PDF (editions, planes, your words or pictures)", runPrint},
		{"sim", "play games between bots, headless, and print the results", runSim},
		{"load", "measure a server on this machine under many players", runLoad},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		topUsage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return report(c.run(args[1:], stdin, stdout, stderr), stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "dobble: unknown command %q; commands: %s (dobble help)\n", args[0], commandNames())
	return 2
}

// report turns a command's error into its exit status and message.
func report(err error, stdout, stderr io.Writer) int {
	var ue *usageError
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "dobble: "+ue.msg)
		return 2
	case errors.As(err, &ee):
		fmt.Fprintln(stdout, ee.msg)
		return ee.code
	default:
		fmt.Fprintln(stderr, "dobble: "+err.Error())
		return 1
	}
}

func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

func topUsage(w io.Writer) {
	fmt.Fprintln(w, "dobble: the Dobble / Spot it! game system.")
	fmt.Fprintln(w, "\nUsage: dobble COMMAND [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'dobble COMMAND --help' for the flags of a command.")
}

// flagSet is a command's flag set. Parse errors become one-line usage
// errors instead of printing and exiting; --help prints the usage to stdout.
type flagSet struct {
	*flag.FlagSet
	synopsis string
	stdout   io.Writer
}

func newFlags(name, synopsis string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// The flag package calls Usage on every parse error; parse prints the
	// usage only for --help.
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, synopsis: synopsis, stdout: stdout}
}

// parse parses args, turning flag errors into one-line usage errors. It
// returns flag.ErrHelp after printing the usage for -h/--help.
func (fs *flagSet) parse(args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(fs.stdout, "Usage: %s\n\nFlags:\n", fs.synopsis)
		fs.SetOutput(fs.stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		return err
	default:
		return usagef("%s: %v (see dobble %s --help)", fs.Name(), err, fs.Name())
	}
}
