package sim

import (
	"errors"
	"fmt"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/table"
)

// Config is a simulation: which game, how it is configured, with which deck
// and which bots.
type Config struct {
	// Game is the game to play.
	Game rules.Game
	// Rules configures each game: players, lock-out and options. Its Seed
	// is the seed of Run; Sim.Play takes the seed as an argument.
	Rules rules.Config
	// Deck describes the cards; the zero Deck means DefaultDeck(Game).
	Deck record.Deck
	// Cards, if not nil, are the Deck's cards already built (by
	// Deck.Build or a Sim's Cards), to share one Index between
	// simulations; they must have the Deck's fingerprint.
	Cards *rules.Index
	// Bots are the seats' levels: one per seat, or a single one for every
	// seat; none means instant bots.
	Bots []bot.Level
	// Record, if not nil, receives the record of every game played.
	Record *record.Writer
	// MaxSteps bounds the planned actions carried out in one game, accepted
	// or not, as a guard against a game that never ends; 0 means
	// DefaultMaxSteps.
	MaxSteps int
	// ReuseState sets each game after the first up in the State of the
	// game before (rules.State.Reset) instead of a new one, which spares
	// the allocations of rules.New; an Outcome's State then holds its game
	// only until the next Play.
	ReuseState bool
}

// DefaultMaxSteps is the step limit of a game when Config.MaxSteps is 0.
const DefaultMaxSteps = table.DefaultMaxSteps

// Outcome is what one simulated game gives.
type Outcome struct {
	// Game is the game's canonical name.
	Game string
	// Seed is the game's seed.
	Seed uint64
	// Players is the number of seats.
	Players int
	// Result is the final result.
	Result *rules.Result
	// Actions is the number of accepted actions.
	Actions int
	// Wrong is the number of wrong claims the rules refused.
	Wrong int
	// Late is the number of claims refused as too late: committed before
	// the table changed, arrived after.
	Late int
	// Time is the virtual time of the last action, in milliseconds: how
	// long the game would have lasted at the table.
	Time int64
	// Wall is the real time the simulation took.
	Wall time.Duration
	// State is the final state. With Config.ReuseState it holds this
	// game's end only until the next Play; Clone it to keep it longer.
	State *rules.State
}

// Sim plays games of one configuration, one after the other, reusing its
// bots and buffers (and its State, with Config.ReuseState). It is not safe
// for concurrent use; use one Sim per goroutine (they may share nothing but
// the Config's values).
type Sim struct {
	cfg   Config
	deck  record.Deck
	cards *rules.Index
	table *table.Driver
	state *rules.State // with ReuseState, the State of the last game, set up again by the next
}

// New prepares a simulation: it builds the deck once and checks the
// configuration by setting up a game with cfg.Rules.Seed, so that a player
// count, an option or a deck the game does not accept fails here, with the
// game's *rules.ConfigError.
func New(cfg Config) (*Sim, error) {
	if cfg.Game == nil {
		return nil, errors.New("sim: no game")
	}
	p := cfg.Rules.Players
	if len(cfg.Bots) != 0 && len(cfg.Bots) != 1 && len(cfg.Bots) != p {
		return nil, fmt.Errorf("sim: %d bot levels for %d players; give one for every seat or one for all", len(cfg.Bots), p)
	}
	for _, l := range cfg.Bots {
		if err := l.Validate(); err != nil {
			return nil, fmt.Errorf("sim: %w", err)
		}
	}
	if cfg.Deck == (record.Deck{}) {
		cfg.Deck = DefaultDeck(cfg.Game)
	}
	d, x, err := cfg.Deck.Build()
	if err != nil {
		return nil, err
	}
	if cfg.Cards != nil {
		if fp := record.Fingerprint(cfg.Cards); fp != d.Fingerprint {
			return nil, fmt.Errorf("sim: the cards given have fingerprint %s, the deck %s", fp, d.Fingerprint)
		}
		x = cfg.Cards
	}
	if _, err := rules.New(cfg.Game, x, cfg.Rules); err != nil {
		return nil, err
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	return newSim(cfg, d, x, false), nil
}

// newSim returns the Sim of cfg, checked, playing deck d with cards x;
// strict has its driver check every stale plan with the rules
// (table.Config.Strict).
func newSim(cfg Config, d record.Deck, x *rules.Index, strict bool) *Sim {
	p := cfg.Rules.Players
	bots, seats := make([]*bot.Bot, p), make([]string, p)
	instant, _ := bot.LookupLevel("instant")
	m := &Sim{cfg: cfg, deck: d, cards: x}
	for i := range bots {
		l := instant
		switch len(cfg.Bots) {
		case 1:
			l = cfg.Bots[0]
		case p:
			l = cfg.Bots[i]
		}
		bots[i] = bot.New(l, i, cfg.Rules.Seed)
		seats[i] = "bot:" + l.Name
	}
	m.table = table.New(table.Config{Bots: bots, Record: cfg.Record, Deck: d, Seats: seats, MaxSteps: cfg.MaxSteps, Strict: strict})
	return m
}

// Deck returns the description of the deck played, as records hold it.
func (m *Sim) Deck() record.Deck { return m.deck }

// Cards returns the deck played, flattened once for every game.
func (m *Sim) Cards() *rules.Index { return m.cards }

// Run plays one game of cfg with seed cfg.Rules.Seed.
func Run(cfg Config) (Outcome, error) {
	m, err := New(cfg)
	if err != nil {
		return Outcome{}, err
	}
	return m.Play(cfg.Rules.Seed)
}

// Play plays one game to its end with the given seed, which seeds the game,
// the bots and the tie-breaks, so the same seed plays the same game.
//
// The game runs in virtual time on a table.Driver advanced to
// table.Forever: every bot plans its next action (see package bot); the
// earliest planned action is applied (plans arriving at the same
// millisecond are ordered at random), and then every other bot whose plan
// is not yet committed plans again against the new version. A committed
// plan still arrives and is refused as too late, as a server refuses a
// claim made against an older version; one arriving in the same
// millisecond as the change is refused at once. A bot plans again after
// its own action too. Play fails when no bot can act before the game ends
// or the game exceeds the step limit.
func (m *Sim) Play(seed uint64) (Outcome, error) {
	start := time.Now()
	s, err := m.setUp(seed)
	if err != nil {
		return Outcome{}, err
	}
	info := s.Info()
	out := Outcome{Game: info.Name, Seed: seed, Players: s.Players(), State: s}
	d := m.table
	if err := d.Reset(s, seed); err != nil {
		return out, err
	}
	err = d.Advance(table.Forever)
	st := d.Stats()
	out.Actions, out.Wrong, out.Late, out.Time = st.Actions, st.Wrong, st.Late, st.Time
	switch {
	case err != nil:
		return out, fmt.Errorf("sim: %s, seed %d: %w", info.Name, seed, err)
	case !s.Over():
		return out, fmt.Errorf("sim: %s, seed %d: no seat can act at version %d and the game is not over", info.Name, seed, s.Version())
	}
	out.Result = d.Result()
	if out.Result == nil {
		out.Result = s.Result()
	}
	out.Wall = time.Since(start)
	return out, nil
}

// setUp returns the State of a new game with seed: with ReuseState, the
// State of the game before, set up again, if there is one; otherwise a new
// one.
func (m *Sim) setUp(seed uint64) (*rules.State, error) {
	if m.state != nil {
		if err := m.state.Reset(seed); err != nil {
			m.state = nil
			return nil, err
		}
		return m.state, nil
	}
	cfg := m.cfg.Rules
	cfg.Seed = seed
	s, err := rules.New(m.cfg.Game, m.cards, cfg)
	if err != nil {
		return nil, err
	}
	if m.cfg.ReuseState {
		m.state = s
	}
	return s, nil
}
