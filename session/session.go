package session

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dobble-dev/dobble/rules"
)

// Defaults and limits of a session.
const (
	// DefaultGames is the number of mini-games when Config.Games is 0: the
	// five mini-games of each boxed edition.
	DefaultGames = 5
	// MaxGames is the largest accepted Config.Games.
	MaxGames = 1000
	// DefaultFirst is the first mini-game when Config.First is empty:
	// RULES.md §5 starts a tournament with the Tower.
	DefaultFirst = "tower"
	// DefaultTieBreak is the tie-break of three or more tied seats when
	// Config.TieBreak is empty (RULES.md §2 decision).
	DefaultTieBreak = "hot-potato"
	// DuelGame is the tie-break of two tied seats.
	DuelGame = "duel"
	// TieBreakLimit is the most tie-break games played to settle one
	// mini-game; the seats still tied after that many share the win.
	TieBreakLimit = 10
)

// Scoring says how a session names its grand winner. Its JSON form is its
// name, "wins" or "points".
type Scoring uint8

// The scorings.
const (
	// ByWins names the seat with the most mini-games won (RULES.md §2,
	// sheet 001); tournament points break ties.
	ByWins Scoring = iota
	// ByPoints names the seat with the most tournament points (RULES.md
	// §5); mini-games won break ties.
	ByPoints
)

var scoringNames = []string{ByWins: "wins", ByPoints: "points"}

// String returns the name of the scoring, e.g. "wins".
func (c Scoring) String() string { return enumText(scoringNames, int(c), "Scoring") }

// MarshalText encodes the scoring as its name.
func (c Scoring) MarshalText() ([]byte, error) { return enumMarshal(scoringNames, int(c), "Scoring") }

// UnmarshalText decodes a scoring from its name.
func (c *Scoring) UnmarshalText(b []byte) error {
	v, err := enumParse(scoringNames, b, "scoring")
	*c = Scoring(v)
	return err
}

// Phase says what a session is waiting for. Its JSON form is its name.
type Phase uint8

// The phases.
const (
	// PhasePlay: a mini-game is being played.
	PhasePlay Phase = iota
	// PhaseTieBreak: a tie-break game is being played among tied seats.
	PhaseTieBreak
	// PhasePick: the Picker must pick the next mini-game.
	PhasePick
	// PhaseOver: every mini-game has been played.
	PhaseOver
)

var phaseNames = []string{PhasePlay: "play", PhaseTieBreak: "tieBreak", PhasePick: "pick", PhaseOver: "over"}

// String returns the name of the phase, e.g. "pick".
func (p Phase) String() string { return enumText(phaseNames, int(p), "Phase") }

// MarshalText encodes the phase as its name.
func (p Phase) MarshalText() ([]byte, error) { return enumMarshal(phaseNames, int(p), "Phase") }

// UnmarshalText decodes a phase from its name.
func (p *Phase) UnmarshalText(b []byte) error {
	v, err := enumParse(phaseNames, b, "phase")
	*p = Phase(v)
	return err
}

// Config is everything that, with the decks, determines a session. Zero
// values mean the defaults.
type Config struct {
	// Players is the number of seats, 2 to 8, numbered 0..Players-1.
	Players int `json:"players"`
	// Seed is the session's secret: table k (counting tie-breaks) is
	// dealt with TableSeed(Seed, k), a keyed one-way function of it, so
	// that the seed of one table, which its record shows, tells nothing
	// of another's. A server draws it from a cryptographic source and
	// never shows it; the same Seed plays the same session.
	Seed uint64 `json:"seed"`
	// Games is the number of mini-games to play; 0 means DefaultGames.
	Games int `json:"games,omitzero"`
	// First is the first mini-game (any name Lookup accepts); empty means
	// DefaultFirst, the Tower.
	First string `json:"first,omitempty"`
	// Scoring is how the grand winner is named; the zero value is ByWins.
	Scoring Scoring `json:"scoring"`
	// TieBreak is the game three or more tied seats play; empty means
	// DefaultTieBreak, Hot Potato. Two tied seats always duel.
	TieBreak string `json:"tieBreak,omitempty"`
	// TieBreakOptions are the options of the TieBreak game. When nil, Hot
	// Potato is played for one round ("rounds" set to 1), as RULES.md §2
	// says, and any other game with its defaults.
	TieBreakOptions map[string]string `json:"tieBreakOptions,omitempty"`
	// Lockout is every game's lock-out after a wrong claim, as in
	// rules.Config: 0 for the default, rules.NoLockout for none.
	Lockout int64 `json:"lockout,omitzero"`
	// Options holds each mini-game's options, by game name. A game with
	// an option named "first-seat" that is not set here is dealt first to
	// the previous mini-game's winner, when it had one.
	Options map[string]map[string]string `json:"options,omitempty"`
	// NewScoring names the mini-games (any name Lookup accepts) that are
	// scored with their new scoring of RULES.md §5 when the session
	// scores by points; each must declare one (rules.Points.NewScoring).
	NewScoring []string `json:"newScoring,omitempty"`
}

// Decks are the cards a session plays with.
type Decks struct {
	// Cards is the deck of every game, tie-breaks included, unless Games
	// names another for it. Pass a *rules.Index to share it (and to let
	// Equal compare sessions replayed from the same deck).
	Cards rules.Cards
	// Games gives a game its own cards, by game name: Anarchy Pancakes
	// plays with its six-topping and one-topping cards.
	Games map[string]rules.Cards
}

// ConfigError is the error New returns for a configuration or decks the
// session cannot use; Reason says what was given and what is accepted.
type ConfigError struct {
	// Field is what was wrong: "players", "games", "first", "tieBreak",
	// "tieBreakOptions", "options", "scoring", "cards" or "lockout".
	Field string
	// Reason says what was given and what is accepted.
	Reason string
}

// Error returns "session: FIELD: REASON".
func (e *ConfigError) Error() string { return "session: " + e.Field + ": " + e.Reason }

// PickError is the error Pick returns for a pick it refuses.
type PickError struct {
	// Seat is the seat that picked.
	Seat int
	// Game is the name it picked.
	Game string
	// Reason says why the pick is refused and what would be accepted.
	Reason string
}

// Error returns "session: seat N cannot pick GAME: REASON".
func (e *PickError) Error() string {
	return fmt.Sprintf("session: seat %d cannot pick %q: %s", e.Seat, e.Game, e.Reason)
}

// ErrNoTable is returned by Apply for an action naming a table that has not
// been set up.
var ErrNoTable = errors.New("session: no such table")

// Played is one mini-game of a session, settled: what was played, who
// picked it, how it ended, how its ties were broken and what it scored.
// Seats are session seats.
type Played struct {
	// Game is the mini-game's canonical name.
	Game string `json:"game"`
	// Table is the number of the table it was played at (see Table).
	Table int `json:"table"`
	// Picker is the seat that picked it, rules.NoSeat for the first.
	Picker int `json:"picker"`
	// Options are the options the game was played with, every option of
	// its Info with its value.
	Options map[string]string `json:"options,omitempty"`
	// Result is the game's own result.
	Result *rules.Result `json:"result"`
	// Tallies holds each seat's Seat.Tally at the end (rounds lost in Hot
	// Potato, butter pats in Anarchy Pancakes).
	Tallies []int `json:"tallies"`
	// TieBreaks lists the tie-break games played to settle it, in order.
	TieBreaks []TieBreak `json:"tieBreaks,omitempty"`
	// Places holds each seat's settled place: the result's places, with
	// the seats tied for the win ordered by the tie-breaks.
	Places []int `json:"places"`
	// Winners lists the seats that won it: one, or several when
	// TieBreakLimit tie-breaks did not separate them.
	Winners []int `json:"winners"`
	// Points holds the tournament points each seat earned (see Points).
	Points []int `json:"points"`
	// Loser is the last-placed seat, who picks the next mini-game.
	Loser int `json:"loser"`
}

// TieBreak is one tie-break game: who played it, in which seat order, and
// how it ended.
type TieBreak struct {
	// Game is the tie-break game's canonical name.
	Game string `json:"game"`
	// Table is the number of the table it was played at.
	Table int `json:"table"`
	// Seats maps the tie-break's seats to session seats: its seat i is
	// session seat Seats[i].
	Seats []int `json:"seats"`
	// Options are the options it was played with.
	Options map[string]string `json:"options,omitempty"`
	// Result is the game's own result, in its own seat numbers.
	Result *rules.Result `json:"result"`
	// Winners lists the session seats that won it.
	Winners []int `json:"winners"`
}

// Standing is one seat's standing in the session.
type Standing struct {
	// Seat is the session seat.
	Seat int `json:"seat"`
	// Won is the number of mini-games it won.
	Won int `json:"won"`
	// Points is its tournament points.
	Points int `json:"points"`
	// Place is its place, 1 for the best; seats equal on both measures
	// share a place.
	Place int `json:"place"`
}

// Standings is the state of the session's scores.
type Standings struct {
	// Scoring is how the session ranks seats.
	Scoring Scoring `json:"scoring"`
	// Seats holds each seat's standing, in seat order.
	Seats []Standing `json:"seats"`
	// Ranking lists the seats from best to worst; tied seats keep seat
	// order.
	Ranking []int `json:"ranking"`
	// Winners lists the seats in first place: the grand winners once the
	// session is over.
	Winners []int `json:"winners"`
}

// Session is a session in progress. It changes only through Pick and
// Apply and is not safe for concurrent use.
type Session struct {
	cfg        Config // defaults resolved
	cards      *rules.Index
	gameCards  map[string]*rules.Index
	tieOpts    map[string]string
	newScoring map[string]bool // the games scored with their new scoring, by canonical name

	phase   Phase
	picker  int
	table   int          // number of the current table; -1 before the first
	state   *rules.State // the current (or last finished) table
	seats   []int        // session seat of each of state's seats
	pending *Played      // the mini-game being played or settled
	tie     tieBreaking
	history []Played
	won     []int
	points  []int
}

// tieBreaking is the progress of settling a tie.
type tieBreaking struct {
	tied   []int   // session seats still tied for the win
	behind [][]int // seats put behind by tie-breaks, best group first
}

// New starts a session: it checks cfg and decks, resolves the defaults and
// sets up the first mini-game. A configuration it cannot use yields a
// *ConfigError saying what is accepted.
func New(cfg Config, decks Decks) (*Session, error) {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if cfg.Players < rules.DobbleMinPlayers || cfg.Players > rules.DobbleMaxPlayers {
		return nil, bad("players", "%d players; a session takes %d to %d", cfg.Players, rules.DobbleMinPlayers, rules.DobbleMaxPlayers)
	}
	switch {
	case cfg.Games == 0:
		cfg.Games = DefaultGames
	case cfg.Games < 0 || cfg.Games > MaxGames:
		return nil, bad("games", "%d mini-games; use 1 to %d, or 0 for the default (%d)", cfg.Games, MaxGames, DefaultGames)
	}
	if int(cfg.Scoring) >= len(scoringNames) {
		return nil, bad("scoring", "scoring %d; use %s", cfg.Scoring, strings.Join(scoringNames, " or "))
	}
	if cfg.Lockout < 0 && cfg.Lockout != rules.NoLockout {
		return nil, bad("lockout", "%d ms; use a positive number of milliseconds, 0 for the default (%d) or %d for none",
			cfg.Lockout, rules.DefaultLockout, rules.NoLockout)
	}
	if decks.Cards == nil {
		return nil, bad("cards", "no deck; Decks.Cards is the deck every game plays with")
	}
	s := &Session{table: -1, picker: rules.NoSeat, gameCards: map[string]*rules.Index{},
		won: make([]int, cfg.Players), points: make([]int, cfg.Players)}
	var err error
	if s.cards, err = rules.NewIndex(decks.Cards); err != nil {
		return nil, bad("cards", "%v", err)
	}
	for _, name := range slices.Sorted(maps.Keys(decks.Games)) {
		g, err := rules.Lookup(name)
		if err != nil {
			return nil, bad("cards", "cards given for %v", err)
		}
		if s.gameCards[g.Info().Name], err = rules.NewIndex(decks.Games[name]); err != nil {
			return nil, bad("cards", "%s: %v", g.Info().Name, err)
		}
	}
	// Options by canonical game name, each checked against its game.
	opts := map[string]map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(cfg.Options)) {
		g, err := rules.Lookup(name)
		if err != nil {
			return nil, bad("options", "options given for %v", err)
		}
		canon := g.Info().Name
		if _, dup := opts[canon]; dup {
			return nil, bad("options", "options for %s given twice (%q is one of its names)", canon, name)
		}
		opts[canon] = maps.Clone(cfg.Options[name])
		if err := s.checkOptions(g, opts[canon], cfg); err != nil {
			return nil, bad("options", "%v", err)
		}
	}
	cfg.Options = opts
	if s.newScoring, err = newScorings(cfg.NewScoring, opts); err != nil {
		return nil, err
	}

	// The tie-breaks.
	duel, err := rules.Lookup(DuelGame)
	if err != nil {
		return nil, bad("tieBreak", "%v", err)
	}
	if _, err := rules.New(duel, s.cardsOf(DuelGame), rules.Config{Players: 2, Lockout: cfg.Lockout}); err != nil {
		return nil, bad("tieBreak", "two tied seats could not duel: %v", err)
	}
	var tb rules.Game
	if cfg.TieBreak == "" {
		cfg.TieBreak = DefaultTieBreak
	} else {
		if tb, err = rules.Lookup(cfg.TieBreak); err != nil {
			return nil, bad("tieBreak", "%v", err)
		}
		cfg.TieBreak = tb.Info().Name
	}
	s.tieOpts = maps.Clone(cfg.TieBreakOptions)
	if s.tieOpts == nil && cfg.TieBreak == DefaultTieBreak {
		s.tieOpts = map[string]string{"rounds": "1"}
	}
	if cfg.Players > 2 {
		// Two seats only ever duel; a table of three or more needs the
		// tie-break game to seat every tie it may have.
		if tb == nil {
			if tb, err = rules.Lookup(cfg.TieBreak); err != nil {
				return nil, bad("tieBreak", "%v", err)
			}
		}
		for n := 3; n <= cfg.Players; n++ {
			if _, err := rules.New(tb, s.cardsOf(cfg.TieBreak), rules.Config{Players: n, Lockout: cfg.Lockout, Options: s.tieOpts}); err != nil {
				return nil, bad("tieBreak", "%s cannot settle a tie of %d seats: %v", cfg.TieBreak, n, err)
			}
		}
	}
	cfg.TieBreakOptions = maps.Clone(s.tieOpts)

	if cfg.First == "" {
		cfg.First = DefaultFirst
	}
	first, err := rules.Lookup(cfg.First)
	if err != nil {
		return nil, bad("first", "%v", err)
	}
	cfg.First = first.Info().Name
	s.cfg = cfg
	if err := s.startGame(first, rules.NoSeat); err != nil {
		return nil, bad("first", "%v", err)
	}
	return s, nil
}

// checkOptions sets up a trial game of g with options to see that the game
// knows them and accepts their values; refusals about the players or the
// cards are left for when the game is picked.
func (s *Session) checkOptions(g rules.Game, options map[string]string, cfg Config) error {
	info := g.Info()
	players := min(max(cfg.Players, info.MinPlayers), info.MaxPlayers)
	_, err := rules.New(g, s.cardsOf(info.Name), rules.Config{Players: players, Lockout: cfg.Lockout, Options: options})
	var ce *rules.ConfigError
	if errors.As(err, &ce) && (ce.Field == "players" || ce.Field == "cards") {
		return nil
	}
	return err
}

// cardsOf returns the cards game name plays with.
func (s *Session) cardsOf(name string) *rules.Index {
	if x, ok := s.gameCards[name]; ok {
		return x
	}
	return s.cards
}

// open sets up game g at the next table for the given session seats.
func (s *Session) open(g rules.Game, seats []int, options map[string]string) (*rules.State, error) {
	name := g.Info().Name
	st, err := rules.New(g, s.cardsOf(name), rules.Config{
		Players: len(seats), Seed: TableSeed(s.cfg.Seed, s.table+1), Lockout: s.cfg.Lockout, Options: options,
	})
	if err != nil {
		return nil, err
	}
	s.table++
	s.state, s.seats = st, seats
	return st, nil
}

// startGame sets up mini-game g for every seat, picked by picker.
func (s *Session) startGame(g rules.Game, picker int) error {
	info := g.Info()
	options := maps.Clone(s.cfg.Options[info.Name])
	if prev := len(s.history) - 1; prev >= 0 && len(s.history[prev].Winners) == 1 &&
		slices.ContainsFunc(info.Options, func(o rules.Option) bool { return o.Name == "first-seat" }) {
		if _, set := options["first-seat"]; !set {
			if options == nil {
				options = map[string]string{}
			}
			options["first-seat"] = strconv.Itoa(s.history[prev].Winners[0])
		}
	}
	st, err := s.open(g, allSeats(s.cfg.Players), options)
	if err != nil {
		return err
	}
	s.pending = &Played{Game: info.Name, Table: s.table, Picker: picker, Options: resolvedOptions(st), Loser: rules.NoSeat}
	s.tie = tieBreaking{}
	s.phase, s.picker = PhasePlay, rules.NoSeat
	return nil
}

// allSeats returns 0..n-1.
func allSeats(n int) []int {
	seats := make([]int, n)
	for i := range seats {
		seats[i] = i
	}
	return seats
}

// resolvedOptions returns every option of st's game with the value it is
// played with.
func resolvedOptions(st *rules.State) map[string]string {
	info := st.Info()
	if len(info.Options) == 0 {
		return nil
	}
	m := make(map[string]string, len(info.Options))
	for i, o := range info.Options {
		v := st.Option(i)
		if len(o.Choices) > 0 {
			m[o.Name] = o.Choices[v]
		} else {
			m[o.Name] = strconv.Itoa(v)
		}
	}
	return m
}

// Config returns the session's configuration with the defaults resolved
// and game names made canonical.
func (s *Session) Config() Config {
	c := s.cfg
	c.TieBreakOptions = maps.Clone(c.TieBreakOptions)
	c.Options = make(map[string]map[string]string, len(s.cfg.Options))
	for k, v := range s.cfg.Options {
		c.Options[k] = maps.Clone(v)
	}
	return c
}

// Players returns the number of seats.
func (s *Session) Players() int { return s.cfg.Players }

// Phase returns what the session is waiting for.
func (s *Session) Phase() Phase { return s.phase }

// Over reports whether every mini-game has been played.
func (s *Session) Over() bool { return s.phase == PhaseOver }

// Table returns the number of the current table, counting from 0 every
// game set up in the session, mini-games and tie-breaks alike. Actions name
// it, so that one made at an earlier table is never applied to a later one
// (each table's versions start again at 0).
func (s *Session) Table() int { return s.table }

// State returns the game at the current table: the one being played, or
// while a pick is due and once the session is over, the last one, finished.
// Its seats are numbered as Seats says. Read it; change it only through
// Apply.
func (s *Session) State() *rules.State { return s.state }

// Seats returns the session seat of each seat of State: the identity for a
// mini-game, the tied seats in seat order for a tie-break.
func (s *Session) Seats() []int { return slices.Clone(s.seats) }

// GameSeat returns the seat that session seat plays at the current table,
// or rules.NoSeat if it is not at that table (a tie-break it is not part
// of).
func (s *Session) GameSeat(seat int) int {
	if i := slices.Index(s.seats, seat); i >= 0 {
		return i
	}
	return rules.NoSeat
}

// View returns what session seat sees of the current table: its own view
// if it plays there, the spectators' view otherwise.
func (s *Session) View(seat int) rules.View {
	return s.state.View(s.GameSeat(seat))
}

// Picker returns the seat that must pick the next mini-game, or
// rules.NoSeat when no pick is due.
func (s *Session) Picker() int { return s.picker }

// Choices returns the canonical names of the mini-games the table can
// play next: every registered game that accepts this many players, the
// session's options for it and its deck. The picker may pick any of them.
func (s *Session) Choices() []string {
	var names []string
	for _, g := range rules.Games() {
		if s.canPlay(g) == nil {
			names = append(names, g.Info().Name)
		}
	}
	return names
}

// AutoPick returns the game a seat that does not pick for itself is
// given (a bot, or a person whose time to pick ran out): the first of
// Choices the session has not played yet among the games a session may
// pick by itself (rules.Info.NoAutoPick), else the first choice.
func (s *Session) AutoPick() string {
	choices := s.Choices()
	played := map[string]bool{}
	for _, h := range s.history {
		played[h.Game] = true
	}
	for _, c := range choices {
		if g, err := rules.Lookup(c); err == nil && !g.Info().NoAutoPick && !played[c] {
			return c
		}
	}
	return choices[0]
}

// canPlay sets up a trial game of g for the whole table, returning why it
// cannot be played.
func (s *Session) canPlay(g rules.Game) error {
	name := g.Info().Name
	_, err := rules.New(g, s.cardsOf(name), rules.Config{Players: s.cfg.Players, Lockout: s.cfg.Lockout, Options: s.cfg.Options[name]})
	return err
}

// Pick starts the next mini-game, game (any name Lookup accepts), picked
// by seat. It refuses with a *PickError when no pick is due, seat is not
// the Picker, the game is unknown, or the table cannot play it (too many
// players, a deck it refuses), saying what would be accepted.
func (s *Session) Pick(seat int, game string) error {
	refuse := func(format string, args ...any) error {
		return &PickError{Seat: seat, Game: game, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case s.phase == PhaseOver:
		return refuse("the session is over")
	case s.phase != PhasePick:
		return refuse("no pick is due: table %d (%s) is being played", s.table, s.state.Info().Name)
	case seat != s.picker:
		return refuse("seat %d lost the last mini-game and picks the next", s.picker)
	}
	g, err := rules.Lookup(game)
	if err != nil {
		return refuse("%v", err)
	}
	if err := s.canPlay(g); err != nil {
		return refuse("%v; the table can play %s", err, strings.Join(s.Choices(), ", "))
	}
	if err := s.startGame(g, seat); err != nil {
		return refuse("%v", err)
	}
	return nil
}

// Apply applies action a at table, the number of the current table (Table)
// as the acting seat saw it. a.Seat is the session seat; everything else
// is as the game at that table understands it (its version, its zones), and
// so are the events appended to ev, whose seats are that game's (see
// Seats). A refusal is the game's *rules.Refusal with Seat the session
// seat: rules.CodeNoSeat for a seat not at the table (a tie-break among
// others), rules.CodeTooLate for an action made at an earlier table,
// rules.CodeGameOver while a pick is due or once the session is over. An
// action naming a table not yet set up returns ErrNoTable. A tick of a
// timed game's clock (rules.ActionTick, Seat rules.NoSeat) goes to the game
// at the table as it is.
//
// When the action ends the game, Apply settles it: it starts a tie-break,
// or records the mini-game in the History and waits for the Picker, or
// ends the session; State, Seats, Table and Phase then describe what comes
// next.
func (s *Session) Apply(table int, a rules.Action, ev []rules.Event) ([]rules.Event, error) {
	seat := a.Seat
	refusal := func(code rules.Code) *rules.Refusal {
		return &rules.Refusal{Code: code, Seat: seat, Symbol: a.Symbol, Version: a.Version, Current: s.state.Version()}
	}
	switch {
	case table > s.table || table < 0:
		return ev, fmt.Errorf("%w: table %d; the current table is %d", ErrNoTable, table, s.table)
	case table < s.table:
		return ev, refusal(rules.CodeTooLate)
	}
	if a.Kind == rules.ActionTick {
		// The table's clock: a tick names no seat and goes to the game
		// as it is.
		return s.applyAt(a, seat, ev)
	}
	gs := s.GameSeat(seat)
	if gs == rules.NoSeat {
		return ev, refusal(rules.CodeNoSeat)
	}
	a.Seat = gs
	return s.applyAt(a, seat, ev)
}

// Play applies action a at the current table as its game numbers seats:
// a.Seat is a seat of State (Seats maps them to session seats), or
// rules.NoSeat for a tick of the game's clock. It is Apply for a driver of
// the table, which speaks the game's seats: the events, and a refusal's
// Seat, are in the same seats. When the action ends the game, Play settles
// it as Apply does.
func (s *Session) Play(a rules.Action, ev []rules.Event) ([]rules.Event, error) {
	return s.applyAt(a, a.Seat, ev)
}

// applyAt applies a, its seat a seat of the current table's game (or
// NoSeat for a tick), reporting a refusal with the session seat seat, and
// settles the table when its game ends.
func (s *Session) applyAt(a rules.Action, seat int, ev []rules.Event) ([]rules.Event, error) {
	ev, err := s.state.Apply(a, ev)
	if err != nil {
		var r *rules.Refusal
		if errors.As(err, &r) {
			r.Seat = seat
		}
		return ev, err
	}
	if s.state.Over() && (s.phase == PhasePlay || s.phase == PhaseTieBreak) {
		s.settle()
	}
	return ev, nil
}

// settle moves the session on after the game at the current table ended.
func (s *Session) settle() {
	r := s.state.Result()
	if s.phase == PhasePlay {
		p := s.pending
		p.Result = r
		p.Tallies = make([]int, s.state.Players())
		for i := range p.Tallies {
			p.Tallies[i] = s.state.Seat(i).Tally
		}
		if len(r.Winners) == 1 {
			s.finishGame(r.Winners)
			return
		}
		s.tie.tied = slices.Clone(r.Winners)
		s.startTieBreak()
		return
	}
	tb := &s.pending.TieBreaks[len(s.pending.TieBreaks)-1]
	tb.Result = r
	tb.Winners = make([]int, len(r.Winners))
	for i, w := range r.Winners {
		tb.Winners[i] = s.seats[w]
	}
	if len(r.Winners) < len(s.tie.tied) {
		// The seats behind, grouped by their place in the tie-break.
		var groups [][]int
		for k, gs := range r.Ranking {
			if r.Places[gs] == 1 {
				continue
			}
			if k > 0 && r.Places[gs] == r.Places[r.Ranking[k-1]] && len(groups) > 0 {
				groups[len(groups)-1] = append(groups[len(groups)-1], s.seats[gs])
			} else {
				groups = append(groups, []int{s.seats[gs]})
			}
		}
		s.tie.behind = append(groups, s.tie.behind...)
		s.tie.tied = tb.Winners
	}
	if len(s.tie.tied) == 1 || len(s.pending.TieBreaks) >= TieBreakLimit {
		s.finishGame(s.tie.tied)
		return
	}
	s.startTieBreak()
}

// startTieBreak sets up the next tie-break among the seats still tied: a
// duel for two, Config.TieBreak for more. New checked that the tie-break
// game accepts every number of seats it can be given.
func (s *Session) startTieBreak() {
	name, options := DuelGame, map[string]string(nil)
	if len(s.tie.tied) > 2 {
		name, options = s.cfg.TieBreak, s.tieOpts
	}
	g, _ := rules.Lookup(name)
	st, err := s.open(g, slices.Clone(s.tie.tied), maps.Clone(options))
	if err != nil {
		panic(fmt.Sprintf("session: tie-break %s for seats %v: %v", name, s.tie.tied, err))
	}
	s.pending.TieBreaks = append(s.pending.TieBreaks, TieBreak{
		Game: name, Table: s.table, Seats: slices.Clone(s.seats), Options: resolvedOptions(st),
	})
	s.phase = PhaseTieBreak
}

// finishGame settles the pending mini-game with winners, scores it, adds
// it to the history and moves on to the pick or the end.
func (s *Session) finishGame(winners []int) {
	p := s.pending
	p.Winners = slices.Clone(winners)
	p.Places = s.settledPlaces(p.Result, winners)
	p.Points = s.tournamentPoints(p)
	for _, w := range winners {
		s.won[w]++
	}
	for i, pt := range p.Points {
		s.points[i] += pt
	}
	p.Loser = s.loser(p.Places)
	s.history = append(s.history, *p)
	s.pending = nil
	if len(s.history) == s.cfg.Games {
		s.phase, s.picker = PhaseOver, rules.NoSeat
		return
	}
	s.phase, s.picker = PhasePick, p.Loser
}

// points returns the tournament points of the settled mini-game p, scored
// by its game's rule (rules.TournamentPoints) with its new scoring when
// the session asks for it.
func (s *Session) tournamentPoints(p *Played) []int {
	g, err := rules.Lookup(p.Game)
	if err != nil {
		panic(fmt.Sprintf("session: a game was played that is not registered: %v", err))
	}
	o := &rules.Outcome{Game: p.Game, Result: p.Result, Tallies: p.Tallies, Options: p.Options, Places: p.Places}
	return rules.TournamentPoints(g, o, s.newScoring[p.Game])
}

// newScorings checks the games asked to be scored with their new scoring
// and returns them by canonical name: each must have one, and the options
// it is played with (opts, by canonical name) must be those its new scoring
// needs.
func newScorings(names []string, opts map[string]map[string]string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, name := range names {
		g, err := rules.Lookup(name)
		if err != nil {
			return nil, &ConfigError{Field: "newScoring", Reason: err.Error()}
		}
		info := g.Info()
		if info.Points == nil || info.Points.NewScoring == "" {
			var have []string
			for _, g := range rules.Games() {
				if p := g.Info().Points; p != nil && p.NewScoring != "" {
					have = append(have, g.Info().Name)
				}
			}
			return nil, &ConfigError{Field: "newScoring", Reason: fmt.Sprintf("%s has no new scoring; the games with one are %s", info.Name, strings.Join(have, ", "))}
		}
		for _, key := range slices.Sorted(maps.Keys(info.Points.NewScoringNeeds)) {
			want := info.Points.NewScoringNeeds[key]
			got, ok := opts[info.Name][key]
			if !ok {
				got = optionDefault(info, key)
			}
			if got != want {
				return nil, &ConfigError{Field: "options", Reason: fmt.Sprintf("the new scoring of %s needs its option %q to be %q, not %q", info.Name, key, want, got)}
			}
		}
		out[info.Name] = true
	}
	return out, nil
}

// settledPlaces returns r's places with the seats that tied for the win
// ordered by the tie-breaks: the winners first, then the groups the
// tie-breaks put behind, the last put behind last.
func (s *Session) settledPlaces(r *rules.Result, winners []int) []int {
	places := slices.Clone(r.Places)
	if len(s.tie.tied) == 0 {
		return places
	}
	next := 1
	for _, group := range append([][]int{winners}, s.tie.behind...) {
		for _, seat := range group {
			places[seat] = next
		}
		next += len(group)
	}
	return places
}

// loser returns the seat that picks next: the last-placed seat; among
// several, the one standing lowest in the session, then the lowest seat.
func (s *Session) loser(places []int) int {
	last := slices.Max(places)
	loser := rules.NoSeat
	for seat, pl := range places {
		if pl == last && (loser == rules.NoSeat || s.better(loser, seat)) {
			loser = seat
		}
	}
	return loser
}

// better reports whether seat a stands strictly above seat b in the
// session, by the grand-winner order.
func (s *Session) better(a, b int) bool {
	ka, kb := s.key(a), s.key(b)
	return ka[0] > kb[0] || ka[0] == kb[0] && ka[1] > kb[1]
}

// key returns the two measures seats are ranked by, most important first.
func (s *Session) key(seat int) [2]int {
	if s.cfg.Scoring == ByPoints {
		return [2]int{s.points[seat], s.won[seat]}
	}
	return [2]int{s.won[seat], s.points[seat]}
}

// Standings returns each seat's mini-games won and points, the ranking and
// the seats in first place.
func (s *Session) Standings() Standings {
	n := s.cfg.Players
	st := Standings{Scoring: s.cfg.Scoring, Seats: make([]Standing, n), Ranking: allSeats(n)}
	slices.SortStableFunc(st.Ranking, func(a, b int) int {
		switch {
		case s.better(a, b):
			return -1
		case s.better(b, a):
			return 1
		}
		return 0
	})
	for k, seat := range st.Ranking {
		place := k + 1
		if k > 0 && s.key(seat) == s.key(st.Ranking[k-1]) {
			place = st.Seats[st.Ranking[k-1]].Place
		}
		st.Seats[seat] = Standing{Seat: seat, Won: s.won[seat], Points: s.points[seat], Place: place}
		if place == 1 {
			st.Winners = append(st.Winners, seat)
		}
	}
	return st
}

// Winners returns the seats in first place of the standings: the grand
// winners once the session is over.
func (s *Session) Winners() []int { return s.Standings().Winners }

// History returns the mini-games settled so far, in order. The entries are
// copies, so changing them changes nothing in the session.
func (s *Session) History() []Played {
	h := make([]Played, len(s.history))
	for i := range s.history {
		h[i] = s.history[i].clone()
	}
	return h
}

// Settling returns the mini-game being played or having its tie broken,
// with the tie-breaks so far, or nil while a pick is due and once the
// session is over. Result is nil until the mini-game itself has ended.
func (s *Session) Settling() *Played {
	if s.pending == nil {
		return nil
	}
	p := s.pending.clone()
	return &p
}

// clone returns a deep copy of p.
func (p *Played) clone() Played {
	c := *p
	c.Options = maps.Clone(p.Options)
	c.Result = cloneResult(p.Result)
	c.Tallies = slices.Clone(p.Tallies)
	c.Places = slices.Clone(p.Places)
	c.Winners = slices.Clone(p.Winners)
	c.Points = slices.Clone(p.Points)
	c.TieBreaks = slices.Clone(p.TieBreaks)
	for i := range c.TieBreaks {
		t := &c.TieBreaks[i]
		t.Seats = slices.Clone(t.Seats)
		t.Options = maps.Clone(t.Options)
		t.Result = cloneResult(t.Result)
		t.Winners = slices.Clone(t.Winners)
	}
	return c
}

// cloneResult returns a deep copy of r (nil for nil).
func cloneResult(r *rules.Result) *rules.Result {
	if r == nil {
		return nil
	}
	c := *r
	c.Scores = slices.Clone(r.Scores)
	c.Winners = slices.Clone(r.Winners)
	c.Ranking = slices.Clone(r.Ranking)
	c.Places = slices.Clone(r.Places)
	return &c
}

// optionDefault returns the default of the game's option called name, or
// "" when it has none.
func optionDefault(info rules.Info, name string) string {
	for _, o := range info.Options {
		if o.Name == name {
			return o.Default
		}
	}
	return ""
}
