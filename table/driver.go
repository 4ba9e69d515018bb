package table

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// Forever is the time that never comes: Advance(Forever) plays the game
// for as long as anything is due, to its end unless it waits for a seat
// played from outside.
const Forever int64 = math.MaxInt64

// DefaultMaxSteps is the step limit of a game when Config.MaxSteps is 0.
const DefaultMaxSteps = 1 << 20

// tieStream is the PCG stream of the tie-breaks between plans arriving at
// the same moment; changing it changes every simulated game.
const tieStream = 0x5eed0f7ab1e0dd5

// Config sets up a Driver. Only Bots is needed; the zero value of every
// other field means none or the default.
type Config struct {
	// Bots are the bots by seat: Bots[i] plays seat i. A nil entry, or a
	// seat past the end, is played from outside, through Submit.
	Bots []*bot.Bot
	// Record, if not nil, receives the record of every game the Driver
	// plays, with Deck and Seats in its header.
	Record *record.Writer
	// Deck describes the cards, for the record's header.
	Deck record.Deck
	// Seats names the seats, for the record's header.
	Seats []string
	// Apply, if not nil, carries out the actions in place of
	// rules.State.ApplyPtr, on the State given to Reset: it is how a
	// caller that owns the State (a session, which moves on when its game
	// ends) hears of every change. It must act as ApplyPtr does: read *a
	// without keeping it, append the events to ev and return a
	// *rules.Refusal for an action the rules refuse.
	Apply func(a *rules.Action, ev []rules.Event) ([]rules.Event, error)
	// Observer, if not nil, hears every accepted action and every refusal.
	Observer Observer
	// MaxSteps bounds the actions the Driver carries out in one game,
	// accepted or not, ticks included, as a guard against a game that
	// never ends; 0 means DefaultMaxSteps.
	MaxSteps int
	// Strict submits the bots' stale plans to the rules instead of
	// refusing them as too late without asking, and takes the general
	// course between instant bots too: the game is the same, only slower.
	// It is for checking the driver against the rules.
	Strict bool
	// MinDelay is the least time, in milliseconds, from the moment a bot
	// plans to the moment its action arrives: a plan arriving sooner
	// arrives MinDelay after it was made. 0 keeps the times the bots'
	// levels give, an instant bot acting the moment the table changes. A
	// server seating bots beside people sets it, so that no bot acts
	// faster than a person could (see Pace in the package documentation).
	MinDelay int64
	// NetDelay is the network delay, in milliseconds, a bot's action
	// goes through on its way to the table, after the floor of MinDelay:
	// a room that races bots against people over a network gives them a
	// typical round trip, so that a person's round trip is not a handicap
	// against them alone. 0 is none.
	NetDelay int64
	// BotRate bounds the bots' actions, their plans refused as too late
	// included: BotRate a second of the game's time on average, BotBurst
	// at once. A plan due when the bound is reached arrives later, when
	// the bound allows it (counted in Stats.Deferred). 0 means no bound.
	BotRate float64
	// BotBurst is how many bot actions the bound lets through at once;
	// below 1, one.
	BotBurst int
}

// Observer hears what a Driver does as it does it. The action and the
// events are the Driver's: valid only during the call.
type Observer interface {
	// Accepted is called after action a was carried out, with the events
	// it caused; a.At is when it happened. The game may be over.
	Accepted(a *rules.Action, ev []rules.Event)
	// Refused is called after action a was refused with r: a seat's
	// action Submit carried, or a bot's. A bot's stale plan, which the
	// Driver refuses without asking the rules, comes with a refusal of
	// code rules.CodeTooLate.
	Refused(a *rules.Action, r *rules.Refusal)
}

// Stats counts what a Driver did in its game since Reset.
type Stats struct {
	// Actions is the number of accepted actions, the clock's ticks
	// included.
	Actions int
	// Wrong is the number of actions refused as wrong (rules.Code.Wrong).
	Wrong int
	// Late is the number of actions refused as too late: the bots' stale
	// plans, and seats' actions made against an older version.
	Late int
	// Time is when the last accepted action happened, in milliseconds
	// since the game began.
	Time int64
	// Steps is the number of actions carried out or refused, ticks
	// included: what Config.MaxSteps bounds.
	Steps int
	// Deferred is the number of times a bot's action came when
	// Config.BotRate had been reached and was put off.
	Deferred int
}

// Driver drives one game at a time at one table; Reset starts each. It is
// not safe for concurrent use: one goroutine owns it, as one owns a room.
type Driver struct {
	cfg      Config
	maxSteps int
	bots     []*bot.Bot
	plans    []bot.Plan
	has      []bool
	instant  bool // every seat is an instant bot

	st        *rules.State
	game      rules.Game // the game of st, whose traits follow
	lenient   bool       // the game is rules.Lenient
	remembers bool       // its bots learn from every version (bot.Remembers)
	fast      bool       // the shortcut between instant bots (advanceInstant)
	now       int64
	stats     Stats
	result    *rules.Result // carried by the last event once the game is over
	ended     bool          // the record's end was written
	events    []rules.Event
	pcg       rand.PCG
	late      rules.Refusal // the refusal an Observer hears for a stale plan
	tickA     rules.Action  // the clock's tick being applied
	sub       rules.Action  // the action Submit carries out

	// The bound on the bots' actions (Config.BotRate), a generic cell
	// rate algorithm in microseconds of the game's time: one action every
	// interval on average, up to tolerance ahead of that pace; tat is the
	// time at which the bound is back to its pace. interval is 0 for no
	// bound.
	interval, tolerance, tat int64
}

// New returns a Driver for the seats and bots of cfg. Give it a game with
// Reset.
func New(cfg Config) *Driver {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	cfg.MinDelay = max(cfg.MinDelay, 0)
	cfg.NetDelay = max(cfg.NetDelay, 0)
	d := &Driver{cfg: cfg, maxSteps: cfg.MaxSteps, bots: cfg.Bots,
		plans: make([]bot.Plan, len(cfg.Bots)), has: make([]bool, len(cfg.Bots))}
	if cfg.BotRate > 0 {
		d.interval = max(1, int64(math.Round(1e6/cfg.BotRate)))
		d.tolerance = int64(max(cfg.BotBurst, 1)-1) * d.interval
	}
	d.instant = len(cfg.Bots) > 0
	for _, b := range cfg.Bots {
		d.instant = d.instant && b != nil && b.Level().Instant()
	}
	return d
}

// Reset starts game st at time 0: it reseeds every bot and the tie-breaks
// with seed, begins the record, and has every bot plan its first action.
// The Driver then plays st until the next Reset; st must have a seat for
// every bot.
//
// Between instant bots only (every seat a bot of an instant level, no
// Observer, not Strict, no MinDelay, NetDelay nor BotRate), in a game that is not
// rules.Lenient and whose bots
// do not learn from every version (bot.Remembers), the Driver takes a
// shortcut. An instant bot plans a correct move arriving at once, drawn
// from its seed, its seat and the state's version alone, never a wrong
// one, so every seat that can act ties, the tie-break picks one, and the
// others' plans, too late, leave no trace. The Driver then asks only which
// seats can act (rules.State.Movers), draws the winner as the general
// course draws among the tied plans, and asks that bot alone for its plan:
// the same draws, the same actions, the same counts.
func (d *Driver) Reset(st *rules.State, seed uint64) error {
	if len(d.bots) > st.Players() {
		return fmt.Errorf("table: %d bots for a table of %d seats", len(d.bots), st.Players())
	}
	if g := st.Game(); g != d.game {
		d.game = g
		_, d.lenient = g.(rules.Lenient)
		d.remembers = bot.Remembers(g)
	}
	d.fast = d.instant && len(d.bots) == st.Players() && d.cfg.Observer == nil && !d.cfg.Strict &&
		d.cfg.MinDelay == 0 && d.cfg.NetDelay == 0 && d.interval == 0 && !d.lenient && !d.remembers
	d.st, d.now, d.stats, d.result, d.ended, d.tat = st, 0, Stats{}, nil, false, 0
	if rec := d.cfg.Record; rec != nil {
		if err := rec.Begin(record.Header{Game: st.Info().Name, Config: st.Config(), Deck: d.cfg.Deck, Seats: d.cfg.Seats}, st); err != nil {
			return err
		}
	}
	d.pcg.Seed(seed, tieStream)
	for _, b := range d.bots {
		if b != nil {
			b.Reseed(seed)
		}
	}
	if d.fast {
		clear(d.has)
	} else {
		for i, b := range d.bots {
			d.has[i] = b != nil && d.plan(i, 0)
		}
	}
	if st.Over() {
		return d.end()
	}
	return nil
}

// State returns the game being played.
func (d *Driver) State() *rules.State { return d.st }

// Now returns the Driver's time: the latest time given to Advance or at
// which an action was carried out.
func (d *Driver) Now() int64 { return d.now }

// Over reports whether the game is over.
func (d *Driver) Over() bool { return d.st.Over() }

// Stats returns the counts of the game so far.
func (d *Driver) Stats() Stats { return d.stats }

// Result returns the result the game ended with, as its last event carried
// it, or nil while it runs (and for a game over from the start).
func (d *Driver) Result() *rules.Result { return d.result }

// Plan returns the plan the bot of seat holds, if any. Between instant
// bots on the shortcut (see Reset) no bot holds one between actions.
func (d *Driver) Plan(seat int) (bot.Plan, bool) {
	if d.fast || uint(seat) >= uint(len(d.has)) || !d.has[seat] {
		return bot.Plan{}, false
	}
	return d.plans[seat], true
}

// Next returns the time at which the Driver next has something to do, a
// bot's plan or the game's deadline, and false when nothing is due: the
// game is over, or waits for a seat played from outside. The time may be
// Now itself, never earlier; after Advance(to) it is later than to.
func (d *Driver) Next() (int64, bool) {
	s := d.st
	if s == nil || s.Over() {
		return 0, false
	}
	next, ok := int64(0), false
	if d.fast {
		if d.able() != 0 {
			return d.now, true
		}
	} else {
		for i, has := range d.has {
			if has && (!ok || d.plans[i].Action.At < next) {
				next, ok = d.plans[i].Action.At, true
			}
		}
	}
	if dl, due := s.Deadline(); due && (!ok || max(d.now, dl) < next) {
		next, ok = max(d.now, dl), true
	}
	return max(next, d.now), ok
}

// Advance carries out, in order, everything due up to time to: the bots'
// plans and the ticks of the game's clock. It stops when the game is over,
// when nothing more is due by to, or at an error: the step limit, a tick
// the rules refused, or a *PlanError, after which the Driver may go on. A
// time earlier than Now changes nothing.
func (d *Driver) Advance(to int64) error {
	var err error
	if d.fast {
		err = d.advanceInstant(to)
	} else {
		err = d.advance(to)
	}
	if err == nil && to > d.now {
		d.now = to
	}
	return err
}

// Submit carries out action, of a seat played from outside, arriving at
// action.At (milliseconds since the game began): it first advances to that
// time, so that what was due before happens first, then applies the
// action at that time, or at Now if action.At is earlier. It returns the
// events of an accepted action, valid until the Driver's next action, or
// the *rules.Refusal of the rules; any other error comes from Advance, and
// the action was not carried out. An action that arrives after the game
// ended gets the refusal of the rules.
func (d *Driver) Submit(action rules.Action) ([]rules.Event, error) {
	if err := d.Advance(action.At); err != nil {
		return nil, err
	}
	a := &d.sub // kept in the Driver: a copy of action would escape to the heap
	*a = action
	a.At = max(a.At, d.now)
	s := d.st
	if d.fast {
		// An action submitted between instant bots: the general course
		// takes over. The shortcut advanced to a.At, where no bot can act.
		d.fast = false
		for i := range d.bots {
			d.has[i] = d.plan(i, d.now)
		}
	}
	if s.Over() {
		// The game ended on its own before a arrived: the rules refuse a
		// as they refuse any action after the end, without Apply, which
		// a caller owning the State may have moved on to another game.
		r := asRefusal(s.Check(*a))
		if r == nil {
			r = &rules.Refusal{Code: rules.CodeGameOver, Seat: a.Seat, Symbol: a.Symbol, Version: a.Version, Current: s.Version()}
		}
		d.refused(a, r)
		return nil, r
	}
	d.stats.Steps++
	ev, err := d.apply(a, d.events[:0])
	d.keep(ev)
	if err != nil {
		r := asRefusal(err)
		if r == nil {
			return nil, err
		}
		if r.LocksOut() {
			if err := d.record(a, r); err != nil {
				return nil, err
			}
		}
		d.refused(a, r)
		if uint(a.Seat) < uint(len(d.bots)) && d.bots[a.Seat] != nil {
			d.has[a.Seat] = d.plan(a.Seat, d.now)
		}
		return nil, r
	}
	if err := d.accepted(a, ev); err != nil || s.Over() {
		return ev, err
	}
	return ev, d.replan(a.Seat)
}

// PlanError is a bot's planned action that the rules refused other than as
// a false alarm or as too late: package bot and the rules disagree. The
// Driver asked the bot for a new plan before reporting it, so it may go
// on.
type PlanError struct {
	// Seat is the bot's seat.
	Seat int
	// Action is the action refused.
	Action rules.Action
	// Err is the refusal.
	Err error
}

// Error says which seat's action was refused, and why.
func (e *PlanError) Error() string {
	return fmt.Sprintf("seat %d's planned action %+v was refused: %v", e.Seat, e.Action, e.Err)
}

// Unwrap returns the refusal.
func (e *PlanError) Unwrap() error { return e.Err }

// apply carries out *a with Config.Apply, or State.ApplyPtr.
func (d *Driver) apply(a *rules.Action, ev []rules.Event) ([]rules.Event, error) {
	if d.cfg.Apply != nil {
		return d.cfg.Apply(a, ev)
	}
	return d.st.ApplyPtr(a, ev)
}

// keep keeps the events buffer ev grew into for the next action. Storing
// the slice only when it grew spares a pointer write, and its write
// barrier, per action.
func (d *Driver) keep(ev []rules.Event) {
	if cap(ev) != cap(d.events) {
		d.events = ev[:0]
	}
}

// asRefusal returns err as a *rules.Refusal, or nil when it is none.
func asRefusal(err error) *rules.Refusal {
	if r, ok := err.(*rules.Refusal); ok {
		return r // what the rules return: no allocation for errors.As
	}
	var r *rules.Refusal
	if errors.As(err, &r) {
		return r
	}
	return nil
}

// stepLimit returns the error of a game that reached the step limit.
func (d *Driver) stepLimit() error {
	return fmt.Errorf("no end after %d steps (version %d)", d.stats.Steps, d.st.Version())
}

// advance is Advance's general course: the earliest plan, or the tick when
// the deadline comes first, one at a time.
func (d *Driver) advance(to int64) error {
	s := d.st
	for !s.Over() {
		if d.stats.Steps >= d.maxSteps {
			return d.stepLimit()
		}
		best, first, ties, set := d.first()
		if dl, ok := s.Deadline(); ok && (ties == 0 || first >= dl) {
			// The game's clock comes first: the tick at the deadline,
			// then every bot plans again against the new version.
			at := max(d.now, dl)
			if at > to {
				return nil
			}
			if ties > 1 {
				d.pcg.Uint64() // the tie-break drawn for the plans the tick goes before
			}
			d.stats.Steps++
			if err := d.tick(at, dl); err != nil || s.Over() {
				return err
			}
			if err := d.replan(-1); err != nil {
				return err
			}
			continue
		}
		if ties == 0 || first > to {
			return nil
		}
		i := d.pick(best, first, ties, set)
		p := &d.plans[i] // read before the bot plans again
		if d.interval > 0 {
			if later, ok := d.admit(first); !ok {
				// The bound on the bots' actions is reached: the
				// action arrives when it allows one more.
				p.Action.At = later
				d.stats.Deferred++
				continue
			}
		}
		d.stats.Steps++
		d.now = p.Action.At
		if p.Action.Version != s.Version() && !d.lenient {
			// Too late: the check the rules make first.
			if err := d.stale(i); err != nil {
				return err
			}
			d.has[i] = d.plan(i, d.now)
			continue
		}
		ev, err := d.apply(&p.Action, d.events[:0])
		d.keep(ev)
		if err != nil {
			r := asRefusal(err)
			switch {
			case r != nil && d.lenient && r.Code == rules.CodeTooLate:
				// A lenient game refuses a stale plan only when its
				// phase or round is over.
				d.refused(&p.Action, r)
			case r != nil && r.Code.Wrong() && p.Wrong:
				if err := d.record(&p.Action, r); err != nil {
					return err
				}
				d.refused(&p.Action, r)
			default:
				a := p.Action
				if r != nil {
					d.refused(&a, r)
				}
				d.has[i] = d.plan(i, d.now)
				return &PlanError{Seat: i, Action: a, Err: err}
			}
			d.has[i] = d.plan(i, d.now)
			continue
		}
		if err := d.accepted(&p.Action, ev); err != nil || s.Over() {
			return err
		}
		if err := d.replan(i); err != nil {
			return err
		}
	}
	return nil
}

// first returns the first seat whose plan arrives earliest, when it
// arrives, how many plans arrive then, and (on a table of up to 64 seats)
// which, seat i as bit i.
func (d *Driver) first() (best int, first int64, ties int, set uint64) {
	for i, ok := range d.has {
		if !ok {
			continue
		}
		switch at := d.plans[i].Action.At; {
		case ties == 0 || at < first:
			best, first, ties, set = i, at, 1, 1<<(i&63)
		case at == first:
			ties++
			set |= 1 << (i & 63)
		}
	}
	return best, first, ties, set
}

// pick returns the seat whose plan goes first among the ties plans
// arriving at first, from seat best on (set holds them, seat i as bit i):
// best alone, or one drawn at random.
func (d *Driver) pick(best int, first int64, ties int, set uint64) int {
	if ties < 2 {
		return best
	}
	if len(d.has) <= 64 {
		return d.tieBreakSet(set) // the same draw, with fewer branches to guess
	}
	k := d.draw(ties)
	for i := best; i < len(d.has); i++ {
		if d.has[i] && d.plans[i].Action.At == first {
			if k == 0 {
				return i
			}
			k--
		}
	}
	panic("table: a tie-break past the tied plans")
}

// draw returns k uniform in 0..ties-1 from the tie-break source (the bias
// of this multiply-shift is below 2⁻²⁹ for up to 8 seats).
func (d *Driver) draw(ties int) int { return int((d.pcg.Uint64() >> 32) * uint64(ties) >> 32) }

// tieBreakSet returns the seat that acts first when the seats of able (seat
// i as bit i) all act at once: the only one, or the k-th in seat order, k
// drawn from the tie-break source.
func (d *Driver) tieBreakSet(able uint64) int {
	if able&(able-1) == 0 {
		return bits.TrailingZeros64(able)
	}
	k := d.draw(bits.OnesCount64(able))
	if able == 1<<len(d.bots)-1 {
		return k // every seat, the usual case
	}
	for ; k > 0; k-- {
		able &= able - 1
	}
	return bits.TrailingZeros64(able)
}

// tick applies the tick of the game's clock due at deadline dl, arriving
// at time at.
func (d *Driver) tick(at, dl int64) error {
	d.now = at
	tick := &d.tickA // kept in the Driver: a local would escape to the heap
	*tick = rules.Action{Kind: rules.ActionTick, Seat: rules.NoSeat, Version: d.st.Version(), At: at}
	ev, err := d.apply(tick, d.events[:0])
	d.keep(ev)
	if err != nil {
		return fmt.Errorf("the tick due at %d ms was refused: %w", dl, err)
	}
	return d.accepted(tick, ev)
}

// accepted counts and records action a, carried out at time Now with
// events ev, and tells the Observer; once the game is over it keeps the
// result, which the last event carries, and ends the record.
func (d *Driver) accepted(a *rules.Action, ev []rules.Event) error {
	d.stats.Actions++
	d.stats.Time = d.now
	if rec := d.cfg.Record; rec != nil {
		if err := rec.Accepted(*a, ev); err != nil {
			return err
		}
	}
	over := d.st.Over()
	if over {
		d.result = ev[len(ev)-1].Result
	}
	if d.cfg.Observer != nil {
		d.cfg.Observer.Accepted(a, ev)
	}
	if over {
		return d.end()
	}
	return nil
}

// end writes the record's end, once.
func (d *Driver) end() error {
	if d.ended || d.cfg.Record == nil {
		return nil
	}
	d.ended = true
	return d.cfg.Record.End(d.st)
}

// record writes refused action a to the record.
func (d *Driver) record(a *rules.Action, r *rules.Refusal) error {
	if rec := d.cfg.Record; rec != nil {
		return rec.Refused(*a, r)
	}
	return nil
}

// refused counts refusal r of action a and tells the Observer.
func (d *Driver) refused(a *rules.Action, r *rules.Refusal) {
	switch {
	case r.Code.Wrong():
		d.stats.Wrong++
	case r.Code == rules.CodeTooLate:
		d.stats.Late++
	}
	if d.cfg.Observer != nil {
		d.cfg.Observer.Refused(a, r)
	}
}

// stale refuses the plan of seat as too late: the plan was made against an
// older version. It counts it and tells the Observer, without building a
// refusal when there is none to tell; Strict has the rules refuse it too.
func (d *Driver) stale(seat int) error {
	a := &d.plans[seat].Action
	if d.cfg.Strict {
		if _, err := d.st.Apply(*a, nil); !errors.Is(err, rules.ErrTooLate) {
			return fmt.Errorf("seat %d's stale plan %+v: %v, want too late", seat, *a, err)
		}
	}
	d.stats.Late++
	if d.cfg.Observer != nil {
		d.late = rules.Refusal{Code: rules.CodeTooLate, Seat: a.Seat, Symbol: a.Symbol, Version: a.Version, Current: d.st.Version()}
		d.cfg.Observer.Refused(a, &d.late)
	}
	return nil
}

// replan asks every bot to plan again against the new version at time
// Now, after an action of seat self (-1 for the clock's tick). A committed
// plan of another seat stays: one still on its way is refused as too late
// when it arrives, one arriving in this very millisecond is too late at
// once (unless the game is lenient and still takes it).
func (d *Driver) replan(self int) error {
	s, now := d.st, d.now
	for j, b := range d.bots {
		if b == nil {
			continue
		}
		if j != self && d.has[j] && d.plans[j].Committed(now) {
			if d.plans[j].Action.At > now {
				continue // on its way: refused as too late when it arrives
			}
			if d.lenient && s.Allowed(&d.plans[j].Action) {
				continue // still good in a lenient game: applied in turn
			}
			// Arriving in this very millisecond, against the old
			// version: too late.
			if err := d.stale(j); err != nil {
				return err
			}
		}
		d.has[j] = d.plan(j, now)
	}
	return nil
}

// plan has the bot of seat plan its next action at time now, and reports
// whether it made one. The action arrives Config.MinDelay after now at the
// earliest, and Config.NetDelay later still.
func (d *Driver) plan(seat int, now int64) bool {
	p := &d.plans[seat]
	if !d.bots[seat].PlanTo(p, d.st, now) {
		return false
	}
	if floor := now + d.cfg.MinDelay; p.Action.At < floor {
		p.Action.At = floor
	}
	p.Action.At += d.cfg.NetDelay
	return true
}

// admit takes a bot's action arriving at time at (milliseconds) through
// the bound of Config.BotRate: it reports whether the bound lets it
// through then, and if not, the first millisecond at which it would.
func (d *Driver) admit(at int64) (int64, bool) {
	now := at * 1000
	tat := max(d.tat, now)
	if tat-now > d.tolerance {
		return (tat - d.tolerance + 999) / 1000, false
	}
	d.tat = tat + d.interval
	return 0, true
}

// advanceInstant is Advance's shortcut between instant bots (see Reset).
//
// On the general course, an instant bot plans a correct move arriving at
// the current time; it makes no wrong claim, so no seat is ever locked out
// and every plan arrives at the same instant. At each step, then, every
// seat that has a move ties, and the tie-break draws the k-th of them in
// seat order; that seat's action is applied; the other plans arrive in the
// same millisecond against the old version and count as too late; and
// every bot plans again. The clock ticks first when its deadline has come,
// or when no seat can act; the plans made before count as too late.
func (d *Driver) advanceInstant(to int64) error {
	s := d.st
	for !s.Over() {
		if d.stats.Steps >= d.maxSteps {
			return d.stepLimit()
		}
		able := d.able()
		if dl, ok := s.Deadline(); ok && (able == 0 || dl <= d.now) {
			// The clock's tick, as on the general course.
			at := max(d.now, dl)
			if at > to {
				return nil
			}
			d.stats.Steps++
			if err := d.tick(at, dl); err != nil || s.Over() {
				return err
			}
			d.stats.Late += bits.OnesCount64(able)
			continue
		}
		if able == 0 || d.now > to {
			return nil
		}
		i := d.tieBreakSet(able)
		d.stats.Steps++
		p := &d.plans[i]
		if !d.bots[i].PlanTo(p, s, d.now) {
			return fmt.Errorf("seat %d can act at version %d but made no plan", i, s.Version())
		}
		d.now = p.Action.At
		ev, err := d.apply(&p.Action, d.events[:0])
		d.keep(ev)
		if err != nil {
			return &PlanError{Seat: i, Action: p.Action, Err: err}
		}
		if err := d.accepted(&p.Action, ev); err != nil || s.Over() {
			return err
		}
		d.stats.Late += bits.OnesCount64(able) - 1
	}
	return nil
}

// able returns the seats whose instant bot can act, seat i as bit i: those
// for which bot.CanPlan reports true, which for an instant bot is
// State.CanMove, found in one pass with State.Movers. A table too large for
// Movers asks every bot.
func (d *Driver) able() uint64 {
	if len(d.bots) <= rules.MaxMovers {
		return d.st.Movers()
	}
	var set uint64
	for i, b := range d.bots {
		if b.CanPlan(d.st) {
			set |= 1 << (i & 63)
		}
	}
	return set
}
