package sim

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
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
const DefaultMaxSteps = 1 << 20

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
	cfg    Config
	deck   record.Deck
	cards  *rules.Index
	seats  []string
	bots   []*bot.Bot
	plans  []bot.Plan
	has    []bool
	events []rules.Event
	state  *rules.State // with ReuseState, the State of the last game, set up again by the next
	pcg    rand.PCG
	// strict submits stale plans to State.Apply instead of refusing them
	// as too late itself; the outcome is the same, only slower. It also
	// makes instant bots go through the general loop (see playInstant).
	strict bool
	// instant is set when every seat is an instant bot.
	instant bool
	// lenient is set when the game accepts some actions made against an
	// older version (rules.Lenient), so that a stale plan is submitted to
	// State.Apply rather than refused as too late by the simulator.
	lenient bool
}

// simStream is the PCG stream of the tie-breaks between plans arriving at
// the same moment; changing it changes every simulation.
const simStream = 0x5eed0f7ab1e0dd5

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
	m := &Sim{cfg: cfg, deck: d, cards: x,
		seats: make([]string, p), bots: make([]*bot.Bot, p), plans: make([]bot.Plan, p), has: make([]bool, p)}
	instant, _ := bot.LookupLevel("instant")
	_, m.lenient = cfg.Game.(rules.Lenient)
	m.instant = true
	for i := range m.bots {
		l := instant
		switch len(cfg.Bots) {
		case 1:
			l = cfg.Bots[0]
		case p:
			l = cfg.Bots[i]
		}
		m.bots[i] = bot.New(l, i, cfg.Rules.Seed)
		m.instant = m.instant && l.Instant()
		m.seats[i] = "bot:" + l.Name
	}
	return m, nil
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
// The game runs in virtual time: every bot plans its next action (see
// package bot); the earliest planned action is applied (plans arriving at
// the same millisecond are ordered at random), and then every other bot
// whose plan is not yet committed plans again against the new version. A
// committed plan still arrives and is refused as too late, as a server
// refuses a claim made against an older version; one arriving in the same
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
	rec := m.cfg.Record
	if rec != nil {
		if err := rec.Begin(record.Header{Game: info.Name, Config: s.Config(), Deck: m.deck, Seats: m.seats}); err != nil {
			return out, err
		}
	}
	m.pcg.Seed(seed, simStream)
	for _, b := range m.bots {
		b.Reseed(seed)
	}
	if m.instant && !m.strict && !m.lenient && !bot.Remembers(m.cfg.Game) {
		if err := m.playInstant(s, &out); err != nil {
			return out, err
		}
		return m.end(s, out, start)
	}
	for i, b := range m.bots {
		m.has[i] = b.PlanTo(&m.plans[i], s, 0)
	}
	now := int64(0)
	events := m.events[:0]
	for steps := 0; !s.Over(); steps++ {
		if steps >= m.cfg.MaxSteps {
			return out, fmt.Errorf("sim: %s, seed %d: no end after %d steps (version %d)", info.Name, seed, steps, s.Version())
		}
		i := m.earliest()
		if d, ok := s.Deadline(); ok && (i < 0 || m.plans[i].Action.At >= d) {
			// The game's clock comes first: the tick at the deadline,
			// then every bot plans again against the new version.
			now = max(now, d)
			tick := rules.Action{Kind: rules.ActionTick, Seat: rules.NoSeat, Version: s.Version(), At: now}
			var err error
			if events, err = s.Apply(tick, events[:0]); err != nil {
				return out, fmt.Errorf("sim: %s, seed %d: the tick due at %d ms was refused: %w", info.Name, seed, d, err)
			}
			if err := m.accepted(s, &tick, events, &out, now); err != nil {
				return out, err
			}
			if s.Over() {
				break
			}
			if err := m.replan(s, now, -1, &out); err != nil {
				return out, err
			}
			continue
		}
		if i < 0 {
			return out, fmt.Errorf("sim: %s, seed %d: no seat can act at version %d and the game is not over", info.Name, seed, s.Version())
		}
		p := &m.plans[i] // read before the bot plans again
		now = p.Action.At
		if p.Action.Version != s.Version() && !m.lenient {
			// Too late: the check State.Apply makes first.
			if m.strict {
				if err := m.applyLate(s, i); err != nil {
					return out, err
				}
			}
			out.Late++
			m.has[i] = m.bots[i].PlanTo(&m.plans[i], s, now)
			continue
		}
		var err error
		events, err = s.ApplyPtr(&p.Action, events[:0])
		if err != nil && m.lenient && errors.Is(err, rules.ErrTooLate) {
			// A lenient game refuses a stale plan only when its phase
			// or round is over.
			out.Late++
			m.has[i] = m.bots[i].PlanTo(&m.plans[i], s, now)
			continue
		}
		if err != nil {
			var r *rules.Refusal
			if !errors.As(err, &r) || !r.Code.Wrong() || !p.Wrong {
				return out, fmt.Errorf("sim: %s, seed %d: seat %d's planned action %+v was refused: %w", info.Name, seed, i, p.Action, err)
			}
			out.Wrong++
			if rec != nil {
				if err := rec.Refused(p.Action, r); err != nil {
					return out, err
				}
			}
			m.has[i] = m.bots[i].PlanTo(&m.plans[i], s, now)
			continue
		}
		if err := m.accepted(s, &p.Action, events, &out, now); err != nil {
			return out, err
		}
		if s.Over() {
			break
		}
		if err := m.replan(s, now, i, &out); err != nil {
			return out, err
		}
	}
	m.events = events[:0]
	return m.end(s, out, start)
}

// accepted counts and records action a, accepted at time now with events,
// in out; when the game is over, its last event, EventOver, carries the
// result.
func (m *Sim) accepted(s *rules.State, a *rules.Action, events []rules.Event, out *Outcome, now int64) error {
	out.Actions++
	out.Time = now
	if rec := m.cfg.Record; rec != nil {
		if err := rec.Accepted(*a, events); err != nil {
			return err
		}
	}
	if s.Over() {
		out.Result = events[len(events)-1].Result
	}
	return nil
}

// replan asks every bot to plan again against the new version of s at time
// now, after an action of seat self (-1 for the clock's tick). A committed
// plan of another seat stays: one still on its way is refused as too late
// when it arrives, one arriving in this very millisecond is too late at
// once.
func (m *Sim) replan(s *rules.State, now int64, self int, out *Outcome) error {
	for j, b := range m.bots {
		if j != self && m.has[j] && m.plans[j].Committed(now) {
			if m.plans[j].Action.At > now {
				continue // on its way: refused as too late when it arrives
			}
			if m.lenient && s.Allowed(&m.plans[j].Action) {
				continue // still good in a lenient game: applied in turn
			}
			// Arriving in this very millisecond, against the old
			// version: too late.
			if m.strict {
				if err := m.applyLate(s, j); err != nil {
					return err
				}
			}
			out.Late++
		}
		m.has[j] = b.PlanTo(&m.plans[j], s, now)
	}
	return nil
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

// end completes the outcome of the game s, over, that began at start, and
// ends its record.
func (m *Sim) end(s *rules.State, out Outcome, start time.Time) (Outcome, error) {
	if out.Result == nil {
		out.Result = s.Result()
	}
	if rec := m.cfg.Record; rec != nil {
		if err := rec.End(s); err != nil {
			return out, err
		}
	}
	out.Wall = time.Since(start)
	return out, nil
}

// playInstant plays s to its end between instant bots, filling out. It is
// Play's loop made cheap for that case, and plays the very same game.
//
// In Play's loop, an instant bot plans a correct claim (or another move: a
// draw, a lay, a STOP) arriving at the current time; it makes no wrong
// claim, so no seat is ever locked out and every plan arrives at the same
// instant. At each step, then, every seat that has a move ties, and
// earliest draws the k-th of them in seat order, k uniform, from the
// simulation's source; that seat's action is applied; the other plans
// arrive in the same millisecond against the old version and count as too
// late; and every bot plans again. The game's clock ticks first when its
// deadline has come, or when no seat can act; the plans made before count
// as too late. An instant bot's plan depends only on its seed, its seat
// and the state's version (bot.Plan; in a game played with a strategy,
// only where the strategy plans from the table as it is, not from what it
// remembers: bot.Remembers), never on the plans it made before, so the
// plans of the seats the draw did not pick leave no trace. playInstant
// therefore asks only which seats can act (bot.CanPlan, which for an
// instant bot is State.CanMove, answered for every seat at once by
// State.Movers), makes the same draw among those that can, and asks the
// picked bot alone for its plan: the same tie-break draws, the same
// actions, the same count of late claims. A uniformly random seat among
// those able to claim first wins each tie, as before. TestInstantShortcut
// checks the equivalence game by game against the general loop.
func (m *Sim) playInstant(s *rules.State, out *Outcome) error {
	info, seed := s.Info(), s.Config().Seed
	events := m.events[:0]
	defer func() { m.events = events[:0] }()
	now := int64(0)
	for steps := 0; ; steps++ {
		if steps >= m.cfg.MaxSteps {
			return fmt.Errorf("sim: %s, seed %d: no end after %d steps (version %d)", info.Name, seed, steps, s.Version())
		}
		able := m.able(s)
		if d, ok := s.Deadline(); ok && (able == 0 || d <= now) {
			// The clock's tick, as in Play's loop.
			now = max(now, d)
			tick := rules.Action{Kind: rules.ActionTick, Seat: rules.NoSeat, Version: s.Version(), At: now}
			var err error
			if events, err = s.ApplyPtr(&tick, events[:0]); err != nil {
				return fmt.Errorf("sim: %s, seed %d: the tick due at %d ms was refused: %w", info.Name, seed, d, err)
			}
			if err := m.accepted(s, &tick, events, out, now); err != nil || s.Over() {
				return err
			}
			out.Late += bits.OnesCount64(able)
			continue
		}
		if able == 0 {
			return fmt.Errorf("sim: %s, seed %d: no seat can act at version %d and the game is not over", info.Name, seed, s.Version())
		}
		i := m.tieBreakSet(able)
		p := &m.plans[i]
		if !m.bots[i].PlanTo(p, s, now) {
			return fmt.Errorf("sim: %s, seed %d: seat %d can act at version %d but made no plan", info.Name, seed, i, s.Version())
		}
		now = p.Action.At
		var err error
		if events, err = s.ApplyPtr(&p.Action, events[:0]); err != nil {
			return fmt.Errorf("sim: %s, seed %d: seat %d's planned action %+v was refused: %w", info.Name, seed, i, p.Action, err)
		}
		if err := m.accepted(s, &p.Action, events, out, now); err != nil || s.Over() {
			return err
		}
		out.Late += bits.OnesCount64(able) - 1
	}
}

// able returns the seats whose instant bot can act on s, seat i as bit i:
// those for which bot.CanPlan reports true, which for an instant bot is
// State.CanMove, found in one pass with State.Movers. A table too large
// for Movers asks every bot.
func (m *Sim) able(s *rules.State) uint64 {
	if len(m.bots) <= rules.MaxMovers {
		return s.Movers()
	}
	var set uint64
	for i, b := range m.bots {
		if b.CanPlan(s) {
			set |= 1 << i
		}
	}
	return set
}

// applyLate submits seat's stale plan to State.Apply, which must refuse it
// as too late. The simulator refuses stale plans itself, without building
// a refusal, unless strict, when it checks that Apply agrees.
func (m *Sim) applyLate(s *rules.State, seat int) error {
	if _, err := s.Apply(m.plans[seat].Action, nil); !errors.Is(err, rules.ErrTooLate) {
		return fmt.Errorf("sim: seat %d's stale plan %+v: %v, want too late", seat, m.plans[seat].Action, err)
	}
	return nil
}

// earliest returns the seat whose plan arrives first, choosing at random
// among plans arriving together, or -1 when no seat has a plan.
func (m *Sim) earliest() int {
	best, ties := -1, 0
	var first int64
	var set uint64 // the seats tied first, seat i as bit i, on a table of up to 64
	for i, ok := range m.has {
		if !ok {
			continue
		}
		switch at := m.plans[i].Action.At; {
		case best < 0 || at < first:
			best, first, ties, set = i, at, 1, 1<<(i&63)
		case at == first:
			ties++
			set |= 1 << (i & 63)
		}
	}
	if ties < 2 {
		return best
	}
	if len(m.has) <= 64 {
		return m.tieBreakSet(set) // the same draw, with fewer branches to guess
	}
	k := m.draw(ties)
	for i := best; ; i++ {
		if m.has[i] && m.plans[i].Action.At == first {
			if k == 0 {
				return i
			}
			k--
		}
	}
}

// draw returns k uniform in 0..ties-1 from the tie-break source (the bias
// of this multiply-shift is below 2⁻²⁹ for up to 8 seats).
func (m *Sim) draw(ties int) int { return int((m.pcg.Uint64() >> 32) * uint64(ties) >> 32) }

// tieBreakSet returns the seat that acts first when the seats of able (seat
// i as bit i) all act at once: the only one, or the k-th in seat order, k
// drawn as earliest draws it.
func (m *Sim) tieBreakSet(able uint64) int {
	if able&(able-1) == 0 {
		return bits.TrailingZeros64(able)
	}
	k := m.draw(bits.OnesCount64(able))
	if able == 1<<len(m.bots)-1 {
		return k // every seat, the usual case
	}
	for ; k > 0; k-- {
		able &= able - 1
	}
	return bits.TrailingZeros64(able)
}
