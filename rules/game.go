package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Game is one mini-game: the rules that lay out the table and decide what
// each action does. A Game is a stateless value (all state lives in the
// State it is given), registered by name with Register. Callers never call
// these methods directly; they go through New and the State methods, which
// run the checks every game shares first. The contract for implementers:
//
//   - Setup lays out a fresh table for s: it adds the zones (AddZone),
//     puts the cards in (DealAll, Move...), and may refuse the deck with an
//     error saying what is needed. Players, options and the seeded random
//     source are already in s. State.Reset calls it again on a cleared
//     State; a game with an Extension may then reuse the one
//     s.spareExtension returns.
//   - Check decides whether action a is allowed now and returns nil or a
//     refusal with CodeBadTarget, CodeNotAMatch or CodeMalformed. It is only
//     called when the seat exists, the game is not over, the version is
//     current, the seat is not locked out, the kind is a claim or (if
//     Info.Draw) a draw, a claim's symbol is in range and its targets are
//     as many as Info.Targets and all existing zones, and a draw names no
//     target. It must not change s, nor *a (actions come by pointer to
//     spare a copy per step; see the package documentation, Speed).
//   - Apply carries out an action Check allowed, without changing *a, appends the events to ev
//     (starting with EventClaim for a claim) and returns ev; it calls
//     s.Finish when the game ends. The State bumps the version and stamps
//     the events afterwards.
//   - Moves appends to dst every action seat could make now that Check
//     would allow (ignoring lock-outs, which depend on time), made against
//     s.Version(). Bots and simulations play from it.
//   - Result returns the scores in the game's unit and the winners so far;
//     at the end, the final outcome.
type Game interface {
	// Info describes the game: names, player range, options, scoring.
	Info() Info
	// Setup lays out the table of a new game.
	Setup(s *State) error
	// Check reports whether action a is allowed now, without changing s.
	Check(s *State, a *Action) *Refusal
	// Apply carries out an allowed action and appends its events to ev.
	Apply(s *State, a *Action, ev []Event) []Event
	// Moves appends the actions seat could make now to dst.
	Moves(s *State, seat int, dst []Action) []Action
	// Result returns the scores and winners.
	Result(s *State) *Result
}

// Checker is an optional interface for a Game with rules about its table
// beyond "every card in exactly one place", such as "every seat's pile is
// non-empty in the Tower". CheckInvariants calls it after the generic checks.
type Checker interface {
	// Invariants returns an error describing the first broken rule of
	// the game's table, or nil.
	Invariants(s *State) error
}

// Clock is the interface of a timed Game (Info.Timed): one whose phases,
// turns or cards run on a clock. The rules read no clock; the game keeps the
// times it needs in its State, all measured with Action.At, and says when
// it next wants time to pass. A driver applies the ActionTick that
// State.Tick builds once that time has come.
type Clock interface {
	// Deadline returns the time, in milliseconds since the game began,
	// at which the game wants its next tick, and false when it wants none
	// now. An action of a seat arriving at or after it is refused with
	// CodeTimeUp. It is only called while the game runs and must not
	// change s.
	Deadline(s *State) (int64, bool)
}

// Lenient is an optional interface of a Game whose seats do not race each
// other for some actions: in Reflection everyone writes their own answers,
// in Guess a guess is a guess whatever was turned meanwhile. Such an action
// made against an older version is not too late as long as it names a
// version since the phase or round it belongs to began.
type Lenient interface {
	// Since returns the oldest version action a may name and still be
	// checked as if made now; Check refuses one made earlier as too late.
	// It is only called for an action of a seat whose version is older
	// than the state's, and must not change s.
	Since(s *State, a *Action) uint64
}

// Turner is an optional interface of a Game with turns (Memory, False
// Poker): State.Turn and View.Turn report whose turn it is.
type Turner interface {
	// Turn returns the seat whose turn it is, or NoSeat. It must not
	// change s.
	Turn(s *State) int
}

// Viewer is an optional interface of a Game that shows more than cards in
// zones: tokens in a pool, markers, the answers a seat wrote, the cards
// flipped so far. View puts what it returns in View.Extra.
type Viewer interface {
	// ViewExtra returns what seat (or Spectator) may see of the game's own
	// state, as a value that encodes to JSON. It must never hold what the
	// seat may not see, and must not change s.
	ViewExtra(s *State, seat int) any
}

// accepts reports whether the game takes actions of kind k.
func (info *Info) accepts(k ActionKind) bool {
	switch {
	case k == ActionTick:
		return info.Timed
	case k == ActionDraw && info.Draw:
		return true
	case len(info.Acts) == 0:
		return k == ActionClaim
	}
	return slices.Contains(info.Acts, k)
}

// actsNote names the kinds the game takes, for a refusal of another kind.
func (info *Info) actsNote() string {
	var kinds []string
	for k := range ActionKind(len(actionKindNames)) {
		if k != ActionTick && info.accepts(k) {
			kinds = append(kinds, k.String())
		}
	}
	return "; it takes " + strings.Join(kinds, ", ")
}

// Player ranges from RULES.md §1.
const (
	// DobbleMinPlayers is the fewest players of a Dobble mini-game.
	DobbleMinPlayers = 2
	// DobbleMaxPlayers is the most players of a Dobble mini-game.
	DobbleMaxPlayers = 8
	// PancakesMinPlayers is the fewest players of Anarchy Pancakes.
	PancakesMinPlayers = 2
	// PancakesMaxPlayers is the most players of Anarchy Pancakes.
	PancakesMaxPlayers = 6
)

// Info describes a game: how to name it, who can play, what it scores and
// which variants it offers.
type Info struct {
	// Name is the canonical name, lower-case with hyphens, e.g. "tower".
	Name string `json:"name"`
	// Aliases are other accepted names, such as themed editions' titles.
	Aliases []string `json:"aliases,omitempty"`
	// Title is the display name, e.g. "The Tower".
	Title string `json:"title"`
	// Section is the game's section of the project's rules reference,
	// e.g. "docs/RULES.md §3.1"; TestRuleCitations checks that it exists.
	Section string `json:"section"`
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers int `json:"minPlayers"`
	// MaxPlayers is the largest number of seats.
	MaxPlayers int `json:"maxPlayers"`
	// Unit names what Result scores count, e.g. "cards".
	Unit string `json:"unit"`
	// HigherWins is true when the highest score wins.
	HigherWins bool `json:"higherWins"`
	// Targets is the number of zones a claim must name in Action.Target
	// (0 for the Tower, 1 for Hot Potato, 3 for Triplets).
	Targets int `json:"targets"`
	// Draw is true when the game accepts ActionDraw.
	Draw bool `json:"draw,omitzero"`
	// Acts lists the action kinds a seat may make in the game when they
	// are not just claims (and draws, with Draw): Memory takes flips, False
	// Poker lays and stops. Empty means claims only. ActionTick is never
	// listed: it is the clock's, accepted exactly when Timed.
	Acts []ActionKind `json:"acts,omitempty"`
	// Timed is true when the game has deadlines (State.Deadline): a driver
	// (the server's room clock, a simulation, a test) must apply
	// State.Tick when the game's time comes. The game implements Clock.
	Timed bool `json:"timed,omitzero"`
	// Options are the game's variants, each with its default.
	Options []Option `json:"options,omitempty"`
	// Claim says what a claim's targets name and which cards must show
	// its symbol. Every game that takes claims declares it: players,
	// bots' search and the browser's table read it, never the count of
	// targets.
	Claim *ClaimShape `json:"claim,omitempty"`
	// Deck names the cards the game is played with when it has its own
	// (Anarchy Pancakes); nil for the deck the table is given.
	Deck *DeckSpec `json:"deck,omitempty"`
	// Points is how a session scores the game in tournament points; nil
	// for the usual +5 to the winner.
	Points *Points `json:"points,omitempty"`
	// NoAutoPick is set for a game a session never picks by itself for a
	// bot or a person whose time to pick ran out: learning mode, the
	// duel.
	NoAutoPick bool `json:"noAutoPick,omitzero"`
	// Practice is set for the game a person plays to practise, alone or
	// with bots, from the home page: learning mode (RULES.md §2.2).
	Practice bool `json:"practice,omitzero"`
	// Record is how the game's records are checked from the record
	// alone: its scores, its clock, its own events (package record's
	// Check); nil for a game whose records are checked for what every
	// game shares only.
	Record *RecordRules `json:"-"`
}

// Option is one variant setting of a game, where a disagreement between the
// rule sheets becomes a choice. An option either has Choices (its value is
// one of them, read as the choice's index) or is an integer in Min..Max.
type Option struct {
	// Name is the key in Config.Options, lower-case with hyphens.
	Name string `json:"name"`
	// Doc says in a sentence what the option changes.
	Doc string `json:"doc"`
	// Choices, when not empty, are the accepted values.
	Choices []string `json:"choices,omitempty"`
	// Min is the smallest accepted integer, for an option without Choices.
	Min int `json:"min,omitzero"`
	// Max is the largest accepted integer, for an option without Choices.
	Max int `json:"max,omitzero"`
	// Default is the value used when Config.Options does not set the
	// option; it must itself be accepted.
	Default string `json:"default"`
}

// parse returns the value of text for the option: the index of a choice or
// the integer, or an error naming what is accepted.
func (o *Option) parse(text string) (int, error) {
	if len(o.Choices) > 0 {
		if i := slices.Index(o.Choices, text); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("%q is not one of %s", text, strings.Join(o.Choices, ", "))
	}
	v, err := strconv.Atoi(text)
	if err != nil || v < o.Min || v > o.Max {
		return 0, fmt.Errorf("%q is not a whole number from %d to %d", text, o.Min, o.Max)
	}
	return v, nil
}

// ConfigError is the error New returns for a configuration the game does
// not accept; Reason names what would be accepted.
type ConfigError struct {
	// Game is the game's name.
	Game string
	// Field is what was wrong: "players", "lockout", "cards", "options" or
	// an option's name.
	Field string
	// Reason says what was given and what is accepted.
	Reason string
}

// Error returns "rules: GAME: FIELD: REASON".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("rules: %s: %s: %s", e.Game, e.Field, e.Reason)
}

// registry holds the registered games by canonical name and by alias.
var registry = struct {
	games  []Game
	byName map[string]Game
}{byName: map[string]Game{}}

// Register adds g to the registry under its name and aliases. Each game's
// file calls it from an init function. It panics when a name is taken or the
// Info is inconsistent (bad player range, a default an option refuses),
// which are programming errors.
func Register(g Game) {
	info := g.Info()
	if err := info.validate(); err != nil {
		panic(err)
	}
	if _, ok := g.(Clock); ok != info.Timed {
		panic(fmt.Sprintf("rules: Register: %s: Timed is %v but the game does not match (implements Clock: %v)", info.Name, info.Timed, ok))
	}
	for _, n := range append([]string{info.Name}, info.Aliases...) {
		if normalName(n) != n {
			panic(fmt.Sprintf("rules: Register: name %q must be lower-case with hyphens", n))
		}
		if _, dup := registry.byName[n]; dup {
			panic(fmt.Sprintf("rules: Register: name %q is already taken", n))
		}
		registry.byName[n] = g
	}
	at, _ := slices.BinarySearchFunc(registry.games, info.Name, func(r Game, name string) int {
		return strings.Compare(r.Info().Name, name)
	})
	registry.games = slices.Insert(registry.games, at, g)
}

// validate checks the consistency Register requires.
func (info *Info) validate() error {
	if info.Name == "" || info.Unit == "" {
		return fmt.Errorf("rules: Register: game %q needs a name and a unit", info.Name)
	}
	if info.MinPlayers < 1 || info.MaxPlayers < info.MinPlayers {
		return fmt.Errorf("rules: Register: %s: bad player range %d..%d", info.Name, info.MinPlayers, info.MaxPlayers)
	}
	if info.Targets < 0 || info.Targets > MaxTargets {
		return fmt.Errorf("rules: Register: %s: Targets %d outside 0..%d", info.Name, info.Targets, MaxTargets)
	}
	for _, k := range info.Acts {
		if k == ActionTick || int(k) >= len(actionKindNames) {
			return fmt.Errorf("rules: Register: %s: Acts lists %v, which is not a seat's action", info.Name, k)
		}
	}
	if err := info.validateDeclarations(); err != nil {
		return err
	}
	for i := range info.Options {
		o := &info.Options[i]
		if _, err := o.parse(o.Default); err != nil || o.Name == "" || normalName(o.Name) != o.Name {
			return fmt.Errorf("rules: Register: %s: option %q: bad name or default %v", info.Name, o.Name, err)
		}
	}
	return nil
}

// normalName folds a user-typed name to registry form: trimmed,
// lower-case, with spaces and underscores as hyphens.
func normalName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' {
			return '-'
		}
		return r
	}, strings.ToLower(strings.TrimSpace(name)))
}

// UnknownGameError is the error Lookup returns for a name no game has; it
// lists the valid names so a command line can print them.
type UnknownGameError struct {
	// Name is the name asked for.
	Name string
	// Valid lists every game as "name (alias, alias)".
	Valid []string
}

// Error returns `rules: unknown game "NAME"; valid games: ...`.
func (e *UnknownGameError) Error() string {
	return fmt.Sprintf("rules: unknown game %q; valid games: %s", e.Name, strings.Join(e.Valid, ", "))
}

// Lookup returns the game registered under name or one of its aliases,
// ignoring case and treating spaces and underscores as hyphens. For an
// unknown name it returns an *UnknownGameError listing the valid names.
func Lookup(name string) (Game, error) {
	if g, ok := registry.byName[normalName(name)]; ok {
		return g, nil
	}
	e := &UnknownGameError{Name: name}
	for _, g := range registry.games {
		info := g.Info()
		v := info.Name
		if len(info.Aliases) > 0 {
			v += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		e.Valid = append(e.Valid, v)
	}
	return nil, e
}

// Games returns every registered game, sorted by name.
func Games() []Game { return slices.Clone(registry.games) }
