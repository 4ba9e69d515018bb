package sim

import (
	"fmt"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/table"
)

// SessionConfig is a simulated session (package session): a sequence of
// mini-games among the same bots, ties broken by tie-break games, each
// next game picked by the loser of the one before as a server picks for a
// bot (session.AutoPick).
type SessionConfig struct {
	// Session configures the session: players, seed, mini-games, first
	// game, scoring, tie-break, lock-out, options by game.
	Session session.Config
	// Deck describes the cards of every game but those that have their
	// own (rules.DeckSpec.Only), which get theirs; the zero Deck means the
	// classic deck.
	Deck record.Deck
	// Bots are the seats' levels: one per seat, or a single one for every
	// seat; none means instant bots.
	Bots []bot.Level
	// Record, if not nil, receives the record of every table played, each
	// followed by its session line (record.Session).
	Record *record.Writer
	// MaxSteps bounds the planned actions carried out at one table; 0
	// means DefaultMaxSteps.
	MaxSteps int
}

// SessionOutcome is what a simulated session gives.
type SessionOutcome struct {
	// Tables are the outcomes of its tables, tie-breaks included, in
	// order; their seats are the tables' own.
	Tables []Outcome
	// History holds the mini-games settled, as session.History gives them.
	History []session.Played
	// Standings are the final standings.
	Standings session.Standings
}

// PlaySession plays a session of cfg to its end: each table as Play plays
// a game, its bots seeded with session.BotSeed of the session's seed and
// the table's number, as a server seeds them.
func PlaySession(cfg SessionConfig) (SessionOutcome, error) {
	var out SessionOutcome
	p := cfg.Session.Players
	if len(cfg.Bots) != 0 && len(cfg.Bots) != 1 && len(cfg.Bots) != p {
		return out, fmt.Errorf("sim: %d bot levels for %d players; give one for every seat or one for all", len(cfg.Bots), p)
	}
	levels := make([]bot.Level, p)
	for i := range levels {
		switch len(cfg.Bots) {
		case 0:
			levels[i], _ = bot.LookupLevel("instant")
		case 1:
			levels[i] = cfg.Bots[0]
		default:
			levels[i] = cfg.Bots[i]
		}
		if err := levels[i].Validate(); err != nil {
			return out, fmt.Errorf("sim: %w", err)
		}
	}
	if cfg.Deck == (record.Deck{}) {
		cfg.Deck = record.Deck{Edition: "classic"}
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	main, cards, err := cfg.Deck.Build()
	if err != nil {
		return out, err
	}
	decks := session.Decks{Cards: cards, Games: map[string]rules.Cards{}}
	deckOf := map[string]record.Deck{}
	for _, g := range rules.Games() {
		if d := g.Info().Deck; d != nil && d.Only {
			desc, x, err := DefaultDeck(g).Build()
			if err != nil {
				return out, err
			}
			decks.Games[g.Info().Name], deckOf[g.Info().Name] = x, desc
		}
	}
	s, err := session.New(cfg.Session, decks)
	if err != nil {
		return out, err
	}
	seed := cfg.Session.Seed
	for !s.Over() {
		if s.Phase() == session.PhasePick {
			if err := s.Pick(s.Picker(), s.AutoPick()); err != nil {
				return out, fmt.Errorf("sim: session: %w", err)
			}
			continue
		}
		o, err := playTable(s, seed, levels, main, deckOf, &cfg)
		out.Tables = append(out.Tables, o)
		if err != nil {
			return out, err
		}
	}
	out.History, out.Standings = s.History(), s.Standings()
	return out, nil
}

// playTable plays the current table of session s to its end, and writes
// its record and session line.
func playTable(s *session.Session, seed uint64, levels []bot.Level, main record.Deck, deckOf map[string]record.Deck, cfg *SessionConfig) (Outcome, error) {
	st := s.State()
	info := st.Info()
	seats := s.Seats()
	n := s.Table()
	botSeed := session.BotSeed(seed, n)
	bots, names := make([]*bot.Bot, len(seats)), make([]string, len(seats))
	for gs, seat := range seats {
		bots[gs] = bot.New(levels[seat], gs, botSeed)
		names[gs] = "bot:" + levels[seat].Name
	}
	d, ok := deckOf[info.Name]
	if !ok {
		d = main
	}
	var line *record.Session
	if cfg.Record != nil {
		line = record.SessionStart(s)
	}
	out := Outcome{Game: info.Name, Seed: st.Config().Seed, Players: st.Players(), State: st}
	drv := table.New(table.Config{Bots: bots, Record: cfg.Record, Deck: d, Seats: names, MaxSteps: cfg.MaxSteps,
		Apply: func(a *rules.Action, ev []rules.Event) ([]rules.Event, error) { return s.Play(*a, ev) }})
	if err := drv.Reset(st, botSeed); err != nil {
		return out, err
	}
	err := drv.Advance(table.Forever)
	stats := drv.Stats()
	out.Actions, out.Wrong, out.Late, out.Time = stats.Actions, stats.Wrong, stats.Late, stats.Time
	switch {
	case err != nil:
		return out, fmt.Errorf("sim: session table %d, %s: %w", n, info.Name, err)
	case !st.Over():
		return out, fmt.Errorf("sim: session table %d, %s: no seat can act at version %d and the game is not over", n, info.Name, st.Version())
	}
	out.Result = st.Result()
	if line != nil {
		line.Finish(s)
		if err := cfg.Record.Session(line); err != nil {
			return out, err
		}
	}
	return out, nil
}
