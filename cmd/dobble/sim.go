package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/sim"
)

const simSynopsis = `dobble sim --game NAME --players P [--games G] [--seed S]
          [--edition E | --order Q [--cards M]] [--bots LEVEL[,LEVEL…]]
          [--record FILE] [--option NAME=VALUE …]
          [--session [--scoring wins|points]]

Plays G games of NAME between P bots in virtual time, as fast as the
processor allows, and prints one JSON object a game on standard output:
{"game":"tower","seed":1,"players":4,"deck":55,"scores":[14,13,15,13],
"unit":"cards","winners":[2],"actions":51,"wrong":0,"late":150,
"virtualMs":0,"ms":0.02}
scores are in the game's unit; wrong counts wrong claims, late claims
refused as too late; virtualMs is how long the game lasted at the table,
ms the wall time the simulation took. Game i uses seed S+i.

The deck is the game's default (classic; pancakes for Anarchy Pancakes)
unless --edition or --order says otherwise. --bots gives one level for
every seat or one per seat: easy, medium, hard, expert, instant (the
default). --record writes every game's record (JSON lines, docs/RECORD.md).

With --session, the bots play one session of G mini-games (package
session, RULES.md §2 and §5) with seed S, NAME first (its options given by
--option), ties broken by tie-break games, and each next game picked by the
loser as the server picks for a bot; --scoring names the grand winner by
mini-games won (the default) or tournament points. A line is printed for
each table, tie-breaks included, with its "table" number, then one with the
final "standings"; --record writes each table's record followed by its
session line.`

// simMaxOrder is the largest plane order sim plays: the rules flatten the
// deck into bitsets of cards × symbols bits, 34 MB at order 128.
const simMaxOrder = 128

// simLine is the JSON object printed for each game.
type simLine struct {
	Game      string  `json:"game"`
	Seed      uint64  `json:"seed"`
	Players   int     `json:"players"`
	Deck      int     `json:"deck"`
	Scores    []int   `json:"scores"`
	Unit      string  `json:"unit"`
	Winners   []int   `json:"winners"`
	Actions   int     `json:"actions"`
	Wrong     int     `json:"wrong"`
	Late      int     `json:"late"`
	VirtualMs int64   `json:"virtualMs"`
	Ms        float64 `json:"ms"`
	// Table is the table's number in a session (--session).
	Table *int `json:"table,omitempty"`
}

// optionFlags collects repeated --option flags as given.
type optionFlags []string

// String returns the options given, for the flag package.
func (o *optionFlags) String() string { return strings.Join(*o, " ") }

// Set adds one --option.
func (o *optionFlags) Set(v string) error {
	*o = append(*o, v)
	return nil
}

// parse returns the options as the rules take them, refusing one that is
// not NAME=VALUE or is given twice; command names the command in the
// message.
func (o optionFlags) parse(command string) (map[string]string, error) {
	if len(o) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, v := range o {
		name, value, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, usagef("%s: --option %s: use NAME=VALUE", command, v)
		}
		if _, dup := m[name]; dup {
			return nil, usagef("%s: --option %s is given twice", command, name)
		}
		m[name] = value
	}
	return m, nil
}

// runSim is dobble sim: it checks the whole request, then plays the games
// one after the other, printing a line as each ends.
func runSim(args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := newFlags("sim", simSynopsis, stdout)
	gameName := fs.String("game", "", "the game: "+strings.Join(gameNames(), ", "))
	players := fs.String("players", "", "the number of players (bots)")
	games := fs.String("games", "1", "the number of games to play")
	seed := fs.String("seed", "1", "the seed of the first game; game i uses seed+i")
	edition := fs.String("edition", "", "a published edition: "+strings.Join(deck.EditionNames(), ", "))
	order := fs.String("order", "", fmt.Sprintf("play the plane of order Q instead (a prime power up to %d)", simMaxOrder))
	cards := fs.String("cards", "", "with --order, keep only the first M cards")
	bots := fs.String("bots", "instant", "bot level for every seat, or one per seat separated by commas: "+strings.Join(bot.LevelNames(), ", "))
	recordPath := fs.String("record", "", "write the games' records to FILE (JSON lines)")
	var options optionFlags
	fs.Var(&options, "option", "set a game option, NAME=VALUE (repeatable)")
	asSession := fs.Bool("session", false, "play one session of --games mini-games, NAME first")
	scoring := fs.String("scoring", "wins", "with --session, how the grand winner is named: wins or points")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("sim: unexpected argument %q (see dobble sim --help)", fs.Arg(0))
	}
	cfg, err := simConfig(*gameName, *players, *edition, *order, *cards, *bots, options)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(*games)
	if err != nil || n < 1 {
		return usagef("sim: --games %s: not a number of games; use a whole number from 1", *games)
	}
	first, err := strconv.ParseUint(*seed, 10, 64)
	if err != nil {
		return usagef("sim: --seed %s: not a seed; use a whole number from 0 to %d", *seed, uint64(math.MaxUint64))
	}
	cfg.Rules.Seed = first
	if *asSession {
		return runSimSession(cfg, n, *scoring, *recordPath, stdout)
	}
	if *scoring != "wins" {
		return usagef("sim: --scoring goes with --session")
	}
	cfg.ReuseState = true // each game's line is written before the next is played
	var out *recordFile
	if *recordPath != "" {
		if out, err = createRecord(*recordPath); err != nil {
			return err
		}
		defer out.discard()
		cfg.Record = out.w
	}
	m, err := sim.New(cfg)
	if err != nil {
		return simConfigError(err)
	}
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	for i := range uint64(n) {
		o, err := m.Play(first + i)
		if err != nil {
			w.Flush()
			return err
		}
		r := o.Result
		line := simLine{Game: o.Game, Seed: o.Seed, Players: o.Players, Deck: m.Deck().Size,
			Scores: r.Scores, Unit: r.Unit, Winners: r.Winners, Actions: o.Actions, Wrong: o.Wrong, Late: o.Late,
			VirtualMs: o.Time, Ms: math.Round(o.Wall.Seconds()*1e6) / 1e3}
		if err := enc.Encode(line); err != nil {
			return fmt.Errorf("sim: writing the results: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("sim: writing the results: %w", err)
	}
	if out != nil {
		return out.commit()
	}
	return nil
}

// runSimSession plays one session of games mini-games of cfg's game first,
// printing a line as each table ends and the final standings.
func runSimSession(cfg sim.Config, games int, scoring, recordPath string, stdout io.Writer) error {
	sc := session.ByWins
	if err := sc.UnmarshalText([]byte(scoring)); err != nil {
		return usagef("sim: --scoring %s: use wins or points", scoring)
	}
	if games > session.MaxGames {
		return usagef("sim: --games %d: a session plays 1 to %d mini-games", games, session.MaxGames)
	}
	name := cfg.Game.Info().Name
	scfg := sim.SessionConfig{Session: session.Config{Players: cfg.Rules.Players, Seed: cfg.Rules.Seed, Games: games, First: name, Scoring: sc},
		Deck: cfg.Deck, Bots: cfg.Bots}
	if cfg.Rules.Options != nil {
		scfg.Session.Options = map[string]map[string]string{name: cfg.Rules.Options}
	}
	var out *recordFile
	if recordPath != "" {
		var err error
		if out, err = createRecord(recordPath); err != nil {
			return err
		}
		defer out.discard()
		scfg.Record = out.w
	}
	o, err := sim.PlaySession(scfg)
	var ce *session.ConfigError
	if errors.As(err, &ce) {
		return usagef("sim: --session: %s", ce.Reason)
	}
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	for i, t := range o.Tables {
		if t.Result == nil {
			break
		}
		line := simLine{Game: t.Game, Seed: t.Seed, Players: t.Players, Deck: t.State.Cards().Len(),
			Scores: t.Result.Scores, Unit: t.Result.Unit, Winners: t.Result.Winners, Actions: t.Actions, Wrong: t.Wrong, Late: t.Late,
			VirtualMs: t.Time, Table: &i}
		if err := enc.Encode(line); err != nil {
			return fmt.Errorf("sim: writing the results: %w", err)
		}
	}
	if err != nil {
		w.Flush()
		return err
	}
	if err := enc.Encode(map[string]any{"standings": o.Standings}); err != nil {
		return fmt.Errorf("sim: writing the results: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("sim: writing the results: %w", err)
	}
	if out != nil {
		return out.commit()
	}
	return nil
}

// gameNames lists every game as "name (alias, alias)".
func gameNames() []string {
	var names []string
	for _, g := range rules.Games() {
		info := g.Info()
		n := info.Name
		if len(info.Aliases) > 0 {
			n += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		names = append(names, n)
	}
	return names
}

// simConfig checks the request and turns it into a simulation config,
// every refusal a usage error naming what would work.
func simConfig(gameName, players, edition, order, cards, bots string, options optionFlags) (sim.Config, error) {
	var cfg sim.Config
	if gameName == "" {
		return cfg, usagef("sim: say which game: --game NAME; games: %s", strings.Join(gameNames(), ", "))
	}
	g, err := rules.Lookup(gameName)
	if err != nil {
		return cfg, usagef("sim: unknown game %q; games: %s", gameName, strings.Join(gameNames(), ", "))
	}
	info := g.Info()
	cfg.Game = g
	if players == "" {
		return cfg, usagef("sim: say how many players: --players P (%s takes %d to %d)", info.Name, info.MinPlayers, info.MaxPlayers)
	}
	p, err := parseWhole(players)
	if err != nil || p < info.MinPlayers || p > info.MaxPlayers {
		return cfg, usagef("sim: --players %s: %s takes %d to %d players", players, info.Name, info.MinPlayers, info.MaxPlayers)
	}
	cfg.Rules.Players = p
	switch {
	case edition != "" && order != "":
		return cfg, usagef("sim: give --edition or --order, not both")
	case cards != "" && order == "":
		return cfg, usagef("sim: --cards goes with --order; an edition has a fixed set of cards")
	case edition != "":
		if _, err := deck.LookupEdition(edition); err != nil {
			return cfg, usagef("sim: %v", err)
		}
		cfg.Deck = sim.DeckFor(g, edition, 0, 0)
	case order != "":
		q, err := simOrder(order)
		if err != nil {
			return cfg, err
		}
		m := 0
		if cards != "" {
			max := q*q + q + 1
			if m, err = parseWhole(cards); err != nil || m < 2 || m > max {
				return cfg, usagef("sim: --cards %s: a deck of order %d has 2 to %d cards", cards, q, max)
			}
		}
		cfg.Deck = sim.DeckFor(g, "", q, m)
	default:
		cfg.Deck = sim.DefaultDeck(g)
	}
	for _, name := range strings.Split(bots, ",") {
		l, err := bot.LookupLevel(name)
		if err != nil {
			return cfg, usagef("sim: --bots %s: %v", bots, err)
		}
		cfg.Bots = append(cfg.Bots, l)
	}
	if len(cfg.Bots) != 1 && len(cfg.Bots) != p {
		return cfg, usagef("sim: --bots %s: %d levels for %d players; give one level for all or one per seat", bots, len(cfg.Bots), p)
	}
	if cfg.Rules.Options, err = options.parse("sim"); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// simOrder parses --order: a prime power from 2 to simMaxOrder.
func simOrder(s string) (int, error) {
	q, err := parseWhole(s)
	if err != nil {
		return 0, usagef("sim: --order %s: not a whole number; use a prime power such as 2, 3, 4, 5, 7, 8, 9, 11, 13, 16", s)
	}
	if q > simMaxOrder {
		return 0, usagef("sim: --order %s: too large to play; the largest order sim plays is %d (%d cards × %d symbols)",
			s, simMaxOrder, simMaxOrder*simMaxOrder+simMaxOrder+1, simMaxOrder+1)
	}
	var oe *deck.OrderError
	if err := deck.CheckOrder(q); errors.As(err, &oe) {
		return 0, usagef("sim: --order %s: %s; %s", s, oe.Reason(), oe.Suggestion())
	}
	return q, nil
}

// simConfigError turns a configuration the game refuses into a usage error.
func simConfigError(err error) error {
	var ce *rules.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Field {
	case "options", "players", "lockout":
		return usagef("sim: %s", ce.Reason)
	case "cards":
		return usagef("sim: the deck does not fit: %s", ce.Reason)
	}
	return usagef("sim: --option %s: %s", ce.Field, ce.Reason)
}

// recordFile is a record being written to a temporary file beside its
// destination, renamed into place only when every game is written, so that
// a failed run leaves no partial file behind.
type recordFile struct {
	path string
	f    *os.File
	buf  *bufio.Writer
	w    *record.Writer
	done bool
}

// createRecord opens the temporary file for path, refusing at once a path
// that cannot be written.
func createRecord(path string) (*recordFile, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, usagef("sim: --record %s: is a directory; name a file", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, usagef("sim: --record %s: cannot write there: %v", path, unwrapPath(err))
	}
	r := &recordFile{path: path, f: f, buf: bufio.NewWriterSize(f, 1<<16)}
	r.w = record.NewWriter(r.buf)
	return r, nil
}

// commit flushes the records and moves the file into place.
func (r *recordFile) commit() error {
	err := r.buf.Flush()
	if err == nil {
		err = r.f.Chmod(0o644)
	}
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(r.f.Name(), r.path)
	}
	if err != nil {
		os.Remove(r.f.Name())
		return fmt.Errorf("sim: --record %s: %v", r.path, unwrapPath(err))
	}
	r.done = true
	return nil
}

// discard removes the temporary file unless commit moved it into place.
func (r *recordFile) discard() {
	if !r.done {
		r.f.Close()
		os.Remove(r.f.Name())
	}
}
