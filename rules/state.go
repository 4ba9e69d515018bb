package rules

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// NoSeat marks a zone that belongs to no seat and an event no seat caused.
const NoSeat = -1

// Spectator is the seat to pass to View and EventFor for someone watching
// without playing: they see what every seat sees and nothing private.
const Spectator = -1

// Lock-out settings for Config.Lockout, in milliseconds.
const (
	// DefaultLockout is the lock-out after a wrong claim when Config.Lockout
	// is 0.
	DefaultLockout = 1000
	// NoLockout turns lock-outs off.
	NoLockout = -1
)

// Config is everything that, with the deck, determines a game: the number of
// players, the random seed, the lock-out after a wrong claim and the game's
// options. The zero values of Lockout and Options mean the defaults.
type Config struct {
	// Players is the number of seats, numbered 0..Players-1.
	Players int `json:"players"`
	// Seed seeds the only random source of the game: same deck, config and
	// actions give the same game.
	Seed uint64 `json:"seed"`
	// Lockout is how long, in milliseconds of Action.At, a seat may not
	// act after a wrong claim or draw (ActionKind.LocksOut): 0 means
	// DefaultLockout, NoLockout none.
	Lockout int64 `json:"lockout,omitzero"`
	// Options sets the game's options (Info.Options) by name; an option
	// not set takes its default.
	Options map[string]string `json:"options,omitempty"`
}

// Seat is the per-seat state the engine keeps besides cards.
type Seat struct {
	// LockedUntil is the time (milliseconds since the game began) until
	// which the seat may not act after a wrong claim or draw
	// (ActionKind.LocksOut); 0 if never locked.
	LockedUntil int64 `json:"lockedUntil"`
	// Tally is the game's own per-seat counter, such as butter pats in
	// Anarchy Pancakes or rounds lost in Hot Potato; the Tower leaves it 0.
	Tally int `json:"tally"`
}

// seedStream is the PCG stream constant mixed with Config.Seed; changing it
// changes every game, so it is fixed forever.
const seedStream = 0x9e3779b97f4a7c15

// State is one game in progress: the table (zones of cards), the seats, the
// version, the seeded random source and the game's rules. It changes only
// through Apply, is not safe for concurrent use, and can be copied with
// Clone. Everything about it is deterministic: New with the same game, deck
// and config, then Apply with the same actions, gives Equal states and the
// same events.
type State struct {
	game    Game
	info    Info
	cards   *Index
	cfg     Config
	lockout int64 // resolved: 0 means none
	opts    []int // option values in Info.Options order
	rng     rand.PCG
	version uint64
	over    bool
	round   int
	seats   []Seat
	zones   []Zone
	arena   []int32     // spare capacity carved into new zones, made by the first carve or reserve
	checker MoveChecker // the game as a MoveChecker, or nil
	picker  MovePicker  // the game as a MovePicker, or nil
	finder  MoverFinder // the game as a MoverFinder, or nil
	clock   Clock       // the game as a Clock, or nil
	turner  Turner      // the game as a Turner, or nil
	lenient Lenient     // the game as a Lenient, or nil
	scratch []Action    // moves listed by CanMove and PickMove for a game without its own
	ext     Extension   // the game's own state beside the table, or nil
	spare   Extension   // during a Setup called by Reset, the Extension of the game before, for Setup to reuse
	kept    *shuffleLog // the shuffles of the last action, with KeepShuffles on; nil when off
	// arg holds the action Check, Apply and PickMove hand to the game by
	// pointer: a pointer to their own copy, passed through an interface,
	// would move that copy to the heap at every call.
	arg Action
}

// New sets up a game of g with cards and cfg: it checks the player count,
// the lock-out and the options against g's Info, flattens cards into an
// Index (pass an *Index to skip that), seeds the random source with
// cfg.Seed and lets g lay out the table. The state starts at version 0. A
// configuration g does not accept yields a *ConfigError naming what is
// accepted.
func New(g Game, cards Cards, cfg Config) (*State, error) {
	info := g.Info()
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Game: info.Name, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if cfg.Players < info.MinPlayers || cfg.Players > info.MaxPlayers {
		if info.MinPlayers == info.MaxPlayers {
			return nil, bad("players", "%d players; %s takes exactly %d", cfg.Players, info.Name, info.MinPlayers)
		}
		return nil, bad("players", "%d players; %s takes %d to %d", cfg.Players, info.Name, info.MinPlayers, info.MaxPlayers)
	}
	lockout := cfg.Lockout
	switch {
	case lockout == 0:
		lockout = DefaultLockout
	case lockout == NoLockout:
		lockout = 0
	case lockout < 0:
		return nil, bad("lockout", "%d ms; use a positive number of milliseconds, 0 for the default (%d) or %d for none",
			lockout, DefaultLockout, NoLockout)
	}
	opts := make([]int, len(info.Options))
	for i := range info.Options {
		opts[i], _ = info.Options[i].parse(info.Options[i].Default)
	}
	for _, name := range sortedKeys(cfg.Options) {
		i := slices.IndexFunc(info.Options, func(o Option) bool { return o.Name == name })
		if i < 0 {
			if len(info.Options) == 0 {
				return nil, bad("options", "unknown option %q; %s takes no options", name, info.Name)
			}
			var names []string
			for _, o := range info.Options {
				names = append(names, o.Name)
			}
			return nil, bad("options", "unknown option %q; %s takes %s", name, info.Name, strings.Join(names, ", "))
		}
		v, err := info.Options[i].parse(cfg.Options[name])
		if err != nil {
			return nil, bad(name, "%v", err)
		}
		opts[i] = v
	}
	idx, err := NewIndex(cards)
	if err != nil {
		return nil, bad("cards", "%v", err)
	}
	cfg.Options = maps.Clone(cfg.Options)
	var s *State
	if cfg.Players <= DobbleMaxPlayers {
		// The usual table: one allocation for the state, its seats and
		// the zones New plans for.
		b := &stateBlock{}
		s, b.s.seats, b.s.zones = &b.s, b.seats[:cfg.Players], b.zones[:0]
	} else {
		s = &State{seats: make([]Seat, cfg.Players), zones: make([]Zone, 0, 2*cfg.Players+4)}
	}
	s.info, s.cards, s.cfg, s.lockout, s.opts = info, idx, cfg, lockout, opts
	s.bind(g)
	s.rng.Seed(cfg.Seed, seedStream)
	if err := g.Setup(s); err != nil {
		return nil, err
	}
	return s, nil
}

// Reset sets s up afresh as New would with the same game, cards and
// configuration but the given seed, reusing the memory of the game it held:
// a loop playing game after game (a simulation) spares the allocations of
// New. That game is lost, and so are the cards of the Zones read from it.
// The error is the game's Setup's, which accepted the same configuration
// before.
func (s *State) Reset(seed uint64) error {
	// What New sets, kept; everything else back to its zero value, as in
	// New; the memory of the seats, zones and arena kept for Setup.
	cfg, g := s.cfg, s.game
	cfg.Seed = seed
	clear(s.seats)
	*s = State{info: s.info, cards: s.cards, cfg: cfg, lockout: s.lockout, opts: s.opts,
		seats: s.seats, zones: s.zones[:0], arena: s.arena[:0], scratch: s.scratch[:0],
		spare: s.ext, kept: s.kept}
	s.bind(g)
	s.rng.Seed(seed, seedStream)
	err := s.game.Setup(s)
	s.spare = nil
	if s.kept != nil {
		s.kept.version = noVersion // a shuffle of Setup is part of the table as set up
	}
	return err
}

// bind sets the game of s and the optional interfaces the game implements,
// which the State asks for once rather than at every action. New and Reset
// both call it, so a new optional interface is added here only.
func (s *State) bind(g Game) {
	s.game = g
	s.checker, s.picker, s.finder = asChecker(g), asPicker(g), asFinder(g)
	s.clock, _ = g.(Clock)
	s.turner, _ = g.(Turner)
	s.lenient, _ = g.(Lenient)
}

// stateBlock is a State allocated with the room for the seats and zones of
// a table of up to DobbleMaxPlayers seats, which New uses to set a game up
// in one allocation instead of three. The room for zones goes beyond the
// two per seat and four more that New plans for, up to the 32 zones of a
// 4-player Anarchy Pancakes (its 31 and a place added for a draw).
type stateBlock struct {
	s     State
	seats [DobbleMaxPlayers]Seat
	zones [4 * DobbleMaxPlayers]Zone
}

// sortedKeys returns the keys of m in increasing order; nil, without
// allocating, when m is empty, as the options of most games are.
func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

// Game returns the game being played.
func (s *State) Game() Game { return s.game }

// Info returns the game's description.
func (s *State) Info() Info { return s.info }

// Config returns the configuration the game was set up with, as given (a
// Lockout of 0 stays 0, meaning the default).
func (s *State) Config() Config {
	c := s.cfg
	c.Options = maps.Clone(c.Options)
	return c
}

// Cards returns the deck being played, as an Index.
func (s *State) Cards() *Index { return s.cards }

// Players returns the number of seats.
func (s *State) Players() int { return len(s.seats) }

// Version returns the state version: 0 after setup, plus one for every
// accepted action. Views carry it and actions must name it.
func (s *State) Version() uint64 { return s.version }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.over }

// Round returns the current round of a game played in rounds, counted from
// 1; it is 0 in games without rounds.
func (s *State) Round() int { return s.round }

// Seat returns the engine state of seat i.
func (s *State) Seat(i int) Seat { return s.seats[i] }

// Option returns the value of the game's i-th option (Info.Options[i]): the
// index of the chosen choice, or the integer.
func (s *State) Option(i int) int { return s.opts[i] }

// Locked reports whether seat may not act at time at because of a wrong
// claim or draw.
func (s *State) Locked(seat int, at int64) bool { return at < s.seats[seat].LockedUntil }

// Check reports whether action a would be accepted now, without changing
// anything: nil, or the *Refusal that Apply would return. The checks run in
// the order of the Code constants.
func (s *State) Check(a Action) error {
	s.arg = a
	if r := s.check(&s.arg); r != nil {
		return r
	}
	return nil
}

// Allowed reports whether Check would accept *a now, reading *a without
// changing or keeping it. Unlike Check it builds no refusal for an action
// made too late, against an older version than the table's, which is what a
// driver asking only yes or no of the plans it holds (a simulation) meets
// most: the answer costs no allocation.
func (s *State) Allowed(a *Action) bool { return !s.stale(a) && s.check(a) == nil }

// check is Check without the conversion to error, so callers keep the
// concrete type.
func (s *State) check(a *Action) *Refusal {
	if a.Kind == ActionTick {
		return s.checkTick(a)
	}
	if uint(a.Seat) >= uint(len(s.seats)) {
		return refuse(CodeNoSeat, a, "")
	}
	if !s.info.accepts(a.Kind) {
		if int(a.Kind) >= len(actionKindNames) {
			return refuse(CodeMalformed, a, fmt.Sprintf("unknown action kind %d", a.Kind))
		}
		return refuse(CodeMalformed, a, fmt.Sprintf("%s has no %s action%s", s.info.Name, a.Kind, s.info.actsNote()))
	}
	if a.Kind.HasSymbol() && uint(a.Symbol) >= uint(s.cards.symbols) {
		return refuse(CodeMalformed, a, fmt.Sprintf("symbol %d is not in this deck (0..%d)", a.Symbol, s.cards.symbols-1))
	}
	if n := a.Kind.targets(&s.info); int(a.Target.n) != n {
		switch {
		case a.Kind == ActionClaim:
			return refuse(CodeMalformed, a, fmt.Sprintf("a %s claim names %d target zones, not %d", s.info.Name, s.info.Targets, a.Target.n))
		case n == 0:
			return refuse(CodeMalformed, a, fmt.Sprintf("a %s names no target", a.Kind))
		}
		return refuse(CodeMalformed, a, fmt.Sprintf("a %s names %d target zone, not %d", a.Kind, n, a.Target.n))
	}
	for _, z := range a.Target.z[:a.Target.n] {
		if uint(z) >= uint(len(s.zones)) {
			return refuse(CodeMalformed, a, fmt.Sprintf("zone %d does not exist", z))
		}
	}
	if r := s.checkTime(a); r != nil {
		return r
	}
	if s.clock != nil {
		if d, ok := s.clock.Deadline(s); ok && a.At >= d {
			r := refuse(CodeTimeUp, a, "")
			r.Current, r.Deadline = s.version, d
			return r
		}
	}
	if until := s.seats[a.Seat].LockedUntil; a.At < until {
		r := refuse(CodeLockedOut, a, "")
		r.LockedUntil = until
		return r
	}
	if r := s.game.Check(s, a); r != nil {
		r.Current = s.version
		return r
	}
	return nil
}

// stale reports whether action a was made against an older version than
// the table's that the game does not take: any older version, except in a
// lenient game, which takes an action made since Lenient.Since.
func (s *State) stale(a *Action) bool {
	return a.Version != s.version && (a.Kind == ActionTick || s.lenient == nil || a.Version < s.lenient.Since(s, a))
}

// checkTime checks an action's time and version, the checks every kind
// shares: a time that is not negative, a version that is not from the
// future, a game that is not over, a version that is current.
func (s *State) checkTime(a *Action) *Refusal {
	if a.At < 0 {
		return refuse(CodeMalformed, a, "the action's time is negative")
	}
	if a.Version > s.version {
		return refuse(CodeMalformed, a, fmt.Sprintf("version %d is from the future (the table is at %d)", a.Version, s.version))
	}
	if s.over {
		return refuse(CodeGameOver, a, "")
	}
	if s.stale(a) {
		r := refuse(CodeTooLate, a, "")
		r.Current = s.version
		return r
	}
	return nil
}

// checkTick checks a tick of the game clock: it names no seat and no
// target, the game is timed, and its time has come.
func (s *State) checkTick(a *Action) *Refusal {
	switch {
	case a.Seat != NoSeat:
		return refuse(CodeMalformed, a, fmt.Sprintf("a tick is the game clock's, not a seat's: its seat is %d, not %d", NoSeat, a.Seat))
	case !s.info.Timed:
		return refuse(CodeMalformed, a, s.info.Name+" has no clock, so no tick")
	case a.Target.n != 0:
		return refuse(CodeMalformed, a, "a tick names no target")
	}
	if r := s.checkTime(a); r != nil {
		return r
	}
	d, ok := s.clock.Deadline(s)
	if !ok || a.At < d {
		r := refuse(CodeEarly, a, "")
		if ok {
			r.Deadline = d
		}
		r.Current = s.version
		return r
	}
	if r := s.game.Check(s, a); r != nil {
		r.Current = s.version
		return r
	}
	return nil
}

// Deadline returns the time, in milliseconds since the game began, at
// which a timed game (Info.Timed) wants its next tick, and false when it
// wants none: the game is not timed, is over, or is waiting only for the
// seats. A driver applies State.Tick once its clock reaches that time.
func (s *State) Deadline() (int64, bool) {
	if s.over || s.clock == nil {
		return 0, false
	}
	return s.clock.Deadline(s)
}

// Tick returns the tick of the game clock due at the deadline, made against
// the current version and arriving at the deadline, and false when there is
// no deadline. A driver whose clock is past the deadline may set a later
// At.
func (s *State) Tick() (Action, bool) {
	d, ok := s.Deadline()
	if !ok {
		return Action{}, false
	}
	return Action{Kind: ActionTick, Seat: NoSeat, Version: s.version, At: d}, true
}

// Turn returns the seat whose turn it is in a game with turns, or NoSeat
// (in games without turns, and once the game is over).
func (s *State) Turn() int {
	if s.over || s.turner == nil {
		return NoSeat
	}
	return s.turner.Turn(s)
}

// Apply carries out action a if the game allows it now. It appends the
// events to ev (pass a reused buffer, ev[:0], to avoid allocating), bumps the
// version and stamps the new events with it, and returns the extended ev. A
// refused action returns ev unchanged and a *Refusal; it leaves the table
// and the version as they were, except that a wrong claim or draw (a
// Code.Wrong refusal of a kind that ActionKind.LocksOut) sets the seat's
// lock-out to a.At plus the configured lock-out, reported in the refusal's
// LockedUntil (Refusal.LocksOut). A record that must rebuild lock-outs
// exactly keeps those refused actions too; replaying only accepted actions
// rebuilds the table exactly.
func (s *State) Apply(a Action, ev []Event) ([]Event, error) {
	s.arg = a
	return s.ApplyPtr(&s.arg, ev)
}

// ApplyPtr is Apply with the action passed by pointer: it reads *a, never
// changes or keeps it. A loop that builds its actions in place (a
// simulation's plans) spares the copy of a 64-byte Action per step.
func (s *State) ApplyPtr(a *Action, ev []Event) ([]Event, error) {
	if r := s.check(a); r != nil {
		if r.Code.Wrong() && a.Kind.LocksOut() && s.lockout > 0 {
			r.LockedUntil = a.At + s.lockout
			if r.LockedUntil < a.At { // overflow: locked for good
				r.LockedUntil = math.MaxInt64
			}
			s.seats[a.Seat].LockedUntil = r.LockedUntil
		}
		return ev, r
	}
	n := len(ev)
	ev = s.game.Apply(s, a, ev)
	s.version++
	for i := n; i < len(ev); i++ {
		ev[i].Version = s.version
	}
	return ev, nil
}

// Moves appends to dst every action seat could make now that would be
// accepted, apart from lock-outs (which depend on the time the action
// arrives), and returns the extended slice: the correct claims a bot picks
// from. It appends nothing when the game is over or the seat does not exist.
func (s *State) Moves(seat int, dst []Action) []Action {
	if s.over || uint(seat) >= uint(len(s.seats)) {
		return dst
	}
	return s.game.Moves(s, seat, dst)
}

// Result returns the scores and winners: the standing so far while the game
// runs, the outcome once it is over.
func (s *State) Result() *Result { return s.game.Result(s) }

// Clone returns a deep copy of s that evolves independently, including the
// random source: the copy and the original, given the same actions, do the
// same things.
func (s *State) Clone() *State {
	c := *s
	c.cfg.Options = maps.Clone(s.cfg.Options)
	c.opts = slices.Clone(s.opts)
	c.seats = slices.Clone(s.seats)
	c.zones = slices.Clone(s.zones)
	c.scratch, c.kept = nil, nil
	if s.ext != nil {
		c.ext = s.ext.CloneExtension()
	}
	n := s.cards.Len()
	c.arena = make([]int32, 0, (len(s.zones)+1)*n)
	for i := range c.zones {
		c.zones[i].cards = append(c.carve(), s.zones[i].cards...)
	}
	return &c
}

// Equal reports whether s and o are the same game in the same position: same
// game, deck, config, version, round, seats, random-source state, the same
// cards in the same order in the same zones and equal extensions.
func (s *State) Equal(o *State) bool {
	if s.game != o.game || s.cards != o.cards || s.version != o.version || s.over != o.over ||
		s.round != o.round || s.lockout != o.lockout || s.rng != o.rng ||
		s.cfg.Players != o.cfg.Players || s.cfg.Seed != o.cfg.Seed || s.cfg.Lockout != o.cfg.Lockout ||
		!maps.Equal(s.cfg.Options, o.cfg.Options) || !slices.Equal(s.opts, o.opts) ||
		!slices.Equal(s.seats, o.seats) || len(s.zones) != len(o.zones) ||
		(s.ext == nil) != (o.ext == nil) || (s.ext != nil && !s.ext.EqualExtension(o.ext)) {
		return false
	}
	for i := range s.zones {
		a, b := &s.zones[i], &o.zones[i]
		if a.Kind != b.Kind || a.Seat != b.Seat || a.Show != b.Show || !slices.Equal(a.cards, b.cards) {
			return false
		}
	}
	return true
}

// Replay sets up a game of g with cards and cfg and applies actions in
// order, as a record lists them. Refused actions are refused again exactly
// as the first time (and so set the same lock-outs); they are counted, not
// returned as errors. It returns the final state, the events of the
// accepted actions and the number of refused ones; the error is New's.
func Replay(g Game, cards Cards, cfg Config, actions []Action) (*State, []Event, int, error) {
	s, err := New(g, cards, cfg)
	if err != nil {
		return nil, nil, 0, err
	}
	var ev []Event
	refused := 0
	for _, a := range actions {
		if ev, err = s.Apply(a, ev); err != nil {
			refused++
		}
	}
	return s, ev, refused, nil
}

// finish ends the game: it marks the state over and appends the EventOver
// carrying the result. Games call it from Apply.
func (s *State) finish(ev []Event) []Event {
	s.over = true
	return append(ev, Event{Kind: EventOver, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: s.game.Result(s)})
}

// claimed appends the EventClaim that opens the events of accepted claim a.
func claimed(ev []Event, a *Action) []Event {
	ev = appendEvent(ev, EventClaim, a.Seat, a.Symbol, -1, 0, -1, -1)
	t := &ev[len(ev)-1].Target
	t.n, t.z[0], t.z[1], t.z[2] = a.Target.n, a.Target.z[0], a.Target.z[1], a.Target.z[2]
	return ev
}

// appendClaims appends to dst one claim by seat, with target t, per symbol
// shared by cards i and j, made against the current version.
func (s *State) appendClaims(dst []Action, seat int, t Targets, i, j int) []Action {
	x := s.cards
	a := x.bits[i*x.words : (i+1)*x.words]
	b := x.bits[j*x.words : (j+1)*x.words]
	for w := range a {
		for m := a[w] & b[w]; m != 0; m &= m - 1 {
			dst = s.appendClaim(dst, seat, w<<6+bits.TrailingZeros64(m), &t)
		}
	}
	return dst
}

// appendClaim appends to dst the claim of symbol sym by seat, with target
// *t, made against the current version. It writes the claim field by
// field: building an Action (or a Targets) with narrow stores and copying
// it whole makes the copy wait for those stores (a store-forwarding stall),
// which on this path, run by every bot at every step, costs more than all
// the rest.
func (s *State) appendClaim(dst []Action, seat, sym int, t *Targets) []Action {
	if len(dst) < cap(dst) {
		dst = dst[:len(dst)+1]
	} else {
		dst = append(dst, Action{})
	}
	a := &dst[len(dst)-1]
	a.Kind, a.Seat, a.Symbol, a.Version, a.At = ActionClaim, seat, sym, s.version, 0
	a.Target.n, a.Target.z[0], a.Target.z[1], a.Target.z[2] = t.n, t.z[0], t.z[1], t.z[2]
	return dst
}

// intN returns a uniform random integer in 0..n-1 from the state's source
// (n > 0), by Lemire's multiply-and-reject method, so that the sequence
// depends only on the seed.
func (s *State) intN(n int) int {
	hi, lo := bits.Mul64(s.rng.Uint64(), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			hi, lo = bits.Mul64(s.rng.Uint64(), uint64(n))
		}
	}
	return int(hi)
}
