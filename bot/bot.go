package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

// Plan is what a bot means to do next: make Action, which arrives at
// Action.At, having decided at Decide. It was made against the state version
// in Action.Version. Until Decide the bot is still searching, so a new
// version makes the plan void and the caller asks for a new one; from Decide
// on the claim is on its way and arrives anyway, to be refused as too late
// if the table has changed.
type Plan struct {
	// Action is the action, stamped with the version it was planned
	// against and with At, the time (milliseconds since the game began) it
	// arrives.
	Action rules.Action
	// Decide is when the bot commits to the action: Action.At minus the
	// level's Motor time, or earlier when the claim waits for a lock-out to
	// end; never before the plan was made.
	Decide int64
	// Wrong is set when the action is a false alarm: a claim the rules will
	// refuse as wrong.
	Wrong bool
	// Missed is set when the bot overlooked the match for a while before
	// finding it.
	Missed bool
	// Comparisons is the number of symbol comparisons the search took.
	Comparisons float64
}

// Committed reports whether the plan can no longer be withdrawn at time
// now: the bot has decided and its claim is on its way. It takes the plan
// by pointer: a copy of a plan just written would wait for its stores.
func (p *Plan) Committed(now int64) bool { return now >= p.Decide }

// Bot plays one seat of a game at a difficulty Level. It decides what to do
// from the State, choosing among the seat's Moves (or, for a false alarm, a
// claim the rules refuse), or in a game with Deciders as the game's Decider
// decides from what the seat sees, and when, with its model of a person
// searching the cards. It is deterministic: the same level, seat and seed,
// asked the same questions in the same order, make the same plans. A Bot
// is not safe for concurrent use.
type Bot struct {
	level   Level
	seat    int
	instant bool
	seed    uint64
	pcg     rand.PCG
	rng     *rand.Rand
	quick   splitMix // an instant bot's source, restarted for every plan

	// The Decider of a game that has them (an extra mini-game), with what
	// it remembers of the game on state game; decides is the game it is
	// for. A reseeded bot keeps it, forgotten, for the next game. These
	// come first, with the times below, to share the cache lines every
	// plan reads.
	game    *rules.State
	active  rules.Decider // decider while playing a game that has them, else nil
	mind    rules.Mind    // the Mind it decides with (levelMind)
	decider rules.Decider
	decides rules.Game
	// The times of the last action decided, for one the Decider holds to.
	held               bool
	heldDecide, heldAt int64
	heldCmp            float64

	// Buffers reused from plan to plan; the seat's moves are moves[:n].
	moves []rules.Action
	n     int
	syms  []int
	cards []int
	zones []int
	sets  []targetSet

	// The survey of the table, kept for the state and version it was made
	// for: a bot re-planning after a refused claim sees the same table.
	surveyed *rules.State
	version  uint64
	sv       survey
}

// botStream is the PCG stream constant mixed with the seat; changing it
// changes every bot, so it is fixed forever.
const botStream = 0xb0b5eed5a1ad0b1e

// New returns a bot playing seat at level, with its random source seeded by
// seed and the seat (so that bots of one game, given one seed, differ). A
// level that fails Validate plays with its out-of-range values clamped.
func New(level Level, seat int, seed uint64) *Bot {
	b := &Bot{level: level.clamped(), seat: seat}
	b.instant = b.level.Instant()
	b.rng = rand.New(&b.pcg)
	b.mind = b.levelMind()
	b.Reseed(seed)
	return b
}

// Reseed restarts the bot's random source from seed, as if it were new, so
// that one Bot can play many games without allocating.
func (b *Bot) Reseed(seed uint64) {
	b.seed = seed
	b.pcg.Seed(seed, b.stream())
	b.surveyed = nil
	b.game = nil // the Decider forgets the game before it plans again
}

// stream returns the second word of the bot's PCG seed: botStream mixed
// with the seat.
func (b *Bot) stream() uint64 { return botStream ^ uint64(b.seat)*0x9e3779b97f4a7c15 }

// mix64 scrambles v (the SplitMix64 finalizer), so that neighbouring
// versions seed unrelated random sequences.
func mix64(v uint64) uint64 {
	v += 0x9e3779b97f4a7c15
	v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
	v = (v ^ v>>27) * 0x94d049bb133111eb
	return v ^ v>>31
}

// splitMix is a SplitMix64 generator: one addition and one mix64 per
// number. An instant bot restarts it from its seed, its seat and the
// state's version for every plan, which costs a few multiplications where
// seeding a PCG and wrapping it in a rand.Rand costs more than the plan.
type splitMix struct{ x uint64 }

// IntN returns a uniform integer in 0..n-1 (n > 0), by Lemire's
// multiply-and-reject method.
func (r *splitMix) IntN(n int) int {
	r.x += 0x9e3779b97f4a7c15
	hi, lo := bits.Mul64(mix64(r.x), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			r.x += 0x9e3779b97f4a7c15
			hi, lo = bits.Mul64(mix64(r.x), uint64(n))
		}
	}
	return int(hi)
}

// CanPlan reports whether Plan would return a plan for s now: whether the
// seat has a correct claim or another move (a draw, a discard). It costs
// far less than Plan, so a caller that only needs to know which bots can
// act (a simulation of instant bots choosing who claims first) asks it of
// every bot and Plan of one. In a game with Deciders (the extra
// mini-games), where a bot may choose to wait, it reports whether the seat
// has a move at all.
func (b *Bot) CanPlan(s *rules.State) bool { return s.CanMove(b.seat) }

// Seat returns the seat the bot plays.
func (b *Bot) Seat() int { return b.seat }

// Level returns the bot's level.
func (b *Bot) Level() Level { return b.level }

// Plan returns what the bot will do next in s, searching from time now
// (milliseconds since the game began), or false when it has nothing to do:
// the game is over, or the seat has no correct claim and cannot draw. Call
// it after every change of version, and after the bot's own action was
// applied or refused; a plan made against an older version is void, unless
// it is Committed, in which case it is submitted and refused as too late.
//
// The plan is never earlier than now, nor than the end of the seat's
// lock-out. An instant bot plans a correct claim, each of the seat's
// equally likely (or, with no match, a draw) at now, with State.PickMoveTo;
// it draws it from a random source seeded afresh from its seed, its seat
// and the state's version, so its plan for a version does not depend on
// which versions it was asked about before. Other levels follow the search
// model of the package documentation. In a game with Deciders the game's
// Decider decides, with the level's Mind, and the plan takes the level's
// time for the comparisons it reports (see Games with Deciders in the
// package documentation).
func (b *Bot) Plan(s *rules.State, now int64) (Plan, bool) {
	var p Plan
	ok := b.PlanTo(&p, s, now)
	return p, ok
}

// PlanTo is Plan writing the plan to *p, which it leaves unchanged when it
// returns false. It spares a loop over many bots copying plans around.
func (b *Bot) PlanTo(p *Plan, s *rules.State, now int64) bool {
	if b.game != s {
		b.newGame(s)
	}
	if d := b.active; d != nil {
		// The game's Decider decides; the bot times it.
		effort, ok := d.Decide(s.SeenBy(b.seat), &b.mind, &p.Action)
		if !ok {
			return false
		}
		b.timeDecision(p, s, now, effort)
		return true
	}
	return b.planMove(p, s, now)
}

// planMove is PlanTo in a game without Deciders: a move chosen among the
// seat's Moves.
func (b *Bot) planMove(p *Plan, s *rules.State, now int64) bool {
	if b.instant {
		b.quick.x = b.seed ^ mix64(b.stream()^s.Version())
		if !s.PickMoveTo(&p.Action, b.seat, &b.quick) {
			return false // over, not at the table, or nothing to do
		}
		p.Action.At = max(now, s.Seat(b.seat).LockedUntil)
		p.Decide, p.Wrong, p.Missed, p.Comparisons = p.Action.At, false, false, 0
		return true
	}
	moves := s.Moves(b.seat, b.moves[:0])
	if cap(moves) != cap(b.moves) {
		// Keep the grown buffer. Storing the slice only then spares a
		// pointer write, and its write barrier, per plan.
		b.moves = moves[:cap(moves)]
	}
	b.n = len(moves)
	if b.n == 0 {
		return false // over, not at the table, or nothing to do
	}
	var ok bool
	*p, ok = b.search(s, now)
	return ok
}

// search plans the next action of a bot that is not instant, following the
// search model.
func (b *Bot) search(s *rules.State, now int64) (Plan, bool) {
	claims, draw := 0, -1 // draw: the first move that is not a claim
	for i := range b.current() {
		switch b.current()[i].Kind {
		case rules.ActionClaim:
			claims++
		default:
			if draw < 0 {
				draw = i
			}
		}
	}
	if claims == 0 && draw < 0 {
		return Plan{}, false
	}
	sv := b.survey(s)
	c := max(2, s.Info().Targets)
	l := &b.level
	var p Plan
	m := 0
	if claims > 0 {
		m = max(1, sv.matching)
	}
	p.Comparisons = b.comparisons(sv.k, c, max(sv.options, m), m)
	search := l.Compare * p.Comparisons * b.noise()
	if claims > 0 && l.MissRate > 0 && b.rng.Float64() < l.MissRate {
		p.Missed = true
		search += b.rng.ExpFloat64() * l.MissMean
	}
	if l.WrongRate > 0 && b.rng.Float64() < l.WrongRate {
		if a, ok := b.wrongClaim(s, &sv); ok {
			// The false alarm strikes part-way through the search.
			p.Wrong = true
			p.Action = a
			search *= b.rng.Float64()
		}
	}
	if !p.Wrong {
		if claims > 0 {
			p.Action = b.nthClaim(b.rng.IntN(claims))
		} else {
			p.Action = b.current()[draw]
		}
	}
	p.Decide = now + millis(l.Orient+search)
	p.Action.At = p.Decide + millis(l.Motor)
	if until := s.Seat(b.seat).LockedUntil; p.Action.At < until {
		p.Action.At = until
		p.Decide = max(p.Decide, until-millis(l.Motor))
	}
	p.Action.Version = s.Version()
	return p, true
}

// current returns the seat's moves found by the latest plan.
func (b *Bot) current() []rules.Action { return b.moves[:b.n] }

// nthClaim returns the n-th claim among the bot's moves.
func (b *Bot) nthClaim(n int) rules.Action {
	for _, a := range b.current() {
		if a.Kind == rules.ActionClaim {
			if n == 0 {
				return a
			}
			n--
		}
	}
	panic("bot: nthClaim out of range")
}

// noise returns the log-normal factor, of mean 1, that scales a search.
func (b *Bot) noise() float64 {
	sigma := b.level.Noise
	if sigma == 0 {
		return 1
	}
	return math.Exp(sigma*b.rng.NormFloat64() - sigma*sigma/2)
}

// comparisons draws the number of comparisons of one search among n
// options, m of them holding a match, each comparing c cards of k symbols
// on average: the random process whose mean is ExpectedComparisons.
func (b *Bot) comparisons(k float64, c, n, m int) float64 {
	full := k*k + float64(c-2)*k
	if m == 0 {
		return float64(n) * full
	}
	// Fruitless options looked at before the first one holding a match,
	// the options being taken in random order.
	fruitless := 0
	for rest := n; rest > m && b.rng.IntN(rest) >= m; rest-- {
		fruitless++
	}
	ki := max(1, int(math.Round(k)))
	hit := float64(b.rng.IntN(ki)) * k
	for i := 1; i < c; i++ {
		hit += float64(1 + b.rng.IntN(ki))
	}
	return float64(fruitless)*full + hit
}

// millis rounds a duration in milliseconds, clamped to 2⁴⁰ ms (about 35
// years) so that no sum of them overflows.
func millis(ms float64) int64 {
	const limit = 1 << 40
	if !(ms < limit) {
		return limit
	}
	return int64(math.Round(ms))
}

// clamped returns l with every parameter brought into the range Validate
// accepts.
func (l Level) clamped() Level {
	clamp := func(v, hi float64) float64 {
		if !(v >= 0) {
			return 0
		}
		return min(v, hi)
	}
	l.Orient = clamp(l.Orient, maxTime)
	l.Compare = clamp(l.Compare, maxTime)
	l.Noise = clamp(l.Noise, maxNoise)
	l.Motor = clamp(l.Motor, maxTime)
	l.WrongRate = clamp(l.WrongRate, 1)
	l.MissRate = clamp(l.MissRate, 1)
	l.MissMean = clamp(l.MissMean, maxTime)
	return l
}

// survey is what a bot takes in from the table before searching it.
type survey struct {
	// k is the mean number of symbols on the cards the seat sees.
	k float64
	// options is the number of target choices the rules allow (1 when a
	// claim names no target); matching is how many of them hold a correct
	// claim.
	options, matching int
	// legal holds allowed target lists, up to maxLegal of them chosen
	// uniformly, for false alarms.
	legal []rules.Targets
}

// Limits of the survey: up to enumLimit combinations of zones are all
// probed; beyond, sampleSize random ones estimate the count.
const (
	enumLimit  = 128
	sampleSize = 96
	maxLegal   = 64
)

// survey looks at the table for the bot's seat: the mean card size, the
// target choices the rules allow and how many hold a match. It probes the
// rules with State.Check, which changes nothing.
func (b *Bot) survey(s *rules.State) survey {
	if b.surveyed == s && b.version == s.Version() {
		return b.sv
	}
	sv := survey{legal: b.sv.legal[:0]}
	zones := b.zones[:0]
	symbols, cards := 0, 0
	for z := 0; z < s.Zones(); z++ {
		zone := s.Zone(z)
		if zone.Len() == 0 {
			continue
		}
		switch {
		case zone.Show == rules.ShowAll:
			b.cards = zone.AppendCards(b.cards[:0])
			for _, c := range b.cards {
				b.syms = s.Cards().AppendCard(b.syms[:0], c)
				symbols += len(b.syms)
			}
			cards += len(b.cards)
		case zone.Show == rules.ShowTop || (zone.Show == rules.ShowOwnerTop && zone.Seat == b.seat):
			b.syms = s.Cards().AppendCard(b.syms[:0], zone.Top())
			symbols += len(b.syms)
			cards++
		default:
			continue
		}
		zones = append(zones, z)
	}
	sv.k = 1
	if cards > 0 {
		sv.k = float64(symbols) / float64(cards)
	}
	// The matching choices: distinct target sets among the correct claims;
	// their zones are choices even when the seat cannot see them.
	sets := b.sets[:0]
	for _, a := range b.current() {
		if a.Kind != rules.ActionClaim {
			continue
		}
		ts := setOf(a.Target)
		if !slices.Contains(sets, ts) {
			sets = append(sets, ts)
		}
		for i := 0; i < a.Target.Len(); i++ {
			if z := a.Target.At(i); !slices.Contains(zones, z) {
				zones = append(zones, z)
			}
		}
	}
	sv.matching = len(sets)
	b.zones, b.sets = zones, sets
	t := s.Info().Targets
	if t == 0 {
		sv.options = 1
		sv.legal = append(sv.legal, rules.Targets{})
	} else {
		slices.Sort(zones)
		sv.options = b.countOptions(s, zones, t, &sv)
	}
	b.surveyed, b.version, b.sv = s, s.Version(), sv
	return sv
}

// targetSet is a target list as a set: its zones sorted.
type targetSet struct {
	n int
	z [rules.MaxTargets]int
}

// setOf returns the zones of t as a set.
func setOf(t rules.Targets) targetSet {
	var ts targetSet
	ts.n = t.Len()
	for i := 0; i < ts.n; i++ {
		ts.z[i] = t.At(i)
	}
	slices.Sort(ts.z[:ts.n])
	return ts
}

// permutations lists the orders of 1, 2 and 3 targets.
var permutations = [rules.MaxTargets + 1][][]int{
	1: {{0}},
	2: {{0, 1}, {1, 0}},
	3: {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}},
}

// countOptions counts the sets of t distinct zones among zones that the
// rules accept as a claim's target in some order, recording some of the
// accepted lists in sv.legal. Beyond enumLimit sets it samples and scales.
func (b *Bot) countOptions(s *rules.State, zones []int, t int, sv *survey) int {
	total := binomial(len(zones), t)
	if total == 0 {
		return 0
	}
	seen := 0
	probe := func(idx []int) {
		var set [rules.MaxTargets]int
		for i, j := range idx {
			set[i] = zones[j]
		}
		for _, perm := range permutations[t] {
			var list [rules.MaxTargets]int
			for i, j := range perm {
				list[i] = set[j]
			}
			tg := rules.To(list[:t]...)
			if b.allowed(s, tg) {
				seen++
				if len(sv.legal) < maxLegal {
					sv.legal = append(sv.legal, tg)
				} else if j := b.rng.IntN(seen); j < maxLegal {
					sv.legal[j] = tg
				}
				return
			}
		}
	}
	var idx [rules.MaxTargets]int
	if total <= enumLimit {
		var walk func(pos, from int)
		walk = func(pos, from int) {
			if pos == t {
				probe(idx[:t])
				return
			}
			for i := from; i <= len(zones)-(t-pos); i++ {
				idx[pos] = i
				walk(pos+1, i+1)
			}
		}
		walk(0, 0)
		return seen
	}
	for range sampleSize {
		for pos := 0; pos < t; pos++ {
		again:
			idx[pos] = b.rng.IntN(len(zones))
			for q := 0; q < pos; q++ {
				if idx[q] == idx[pos] {
					goto again
				}
			}
		}
		probe(idx[:t])
	}
	return int(math.Round(float64(seen) * float64(total) / sampleSize))
}

// allowed reports whether the rules accept tg as the target of a claim by
// the bot's seat now, whatever the symbol: Check refuses the probe for its
// symbol, if at all, not for its target.
func (b *Bot) allowed(s *rules.State, tg rules.Targets) bool {
	err := s.Check(rules.Action{Kind: rules.ActionClaim, Seat: b.seat, Target: tg, Version: s.Version(), At: math.MaxInt64})
	if err == nil {
		return true
	}
	r, ok := err.(*rules.Refusal)
	return ok && r.Code == rules.CodeNotAMatch
}

// binomial returns n choose k, saturating far above enumLimit.
func binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
		if r > 1<<40 {
			return 1 << 40
		}
	}
	return r
}

// wrongClaim builds a false alarm: an allowed target and a symbol the seat
// can see near it, which the rules refuse as wrong. It gives up, returning
// false, when a few tries all hit a correct claim.
func (b *Bot) wrongClaim(s *rules.State, sv *survey) (rules.Action, bool) {
	if len(sv.legal) == 0 {
		return rules.Action{}, false
	}
	for range 8 {
		tg := sv.legal[b.rng.IntN(len(sv.legal))]
		b.syms = b.plausible(s, tg, b.syms[:0])
		sym := 0
		if len(b.syms) > 0 {
			sym = b.syms[b.rng.IntN(len(b.syms))]
		} else {
			sym = b.rng.IntN(s.Cards().Symbols())
		}
		a := rules.Action{Kind: rules.ActionClaim, Seat: b.seat, Symbol: sym, Target: tg, Version: s.Version(), At: math.MaxInt64}
		if r, ok := s.Check(a).(*rules.Refusal); ok && r.Code.Wrong() {
			a.At = 0
			return a, true
		}
	}
	return rules.Action{}, false
}

// plausible appends the symbols a person might wrongly name when claiming
// with target tg: those on the face-up cards of the seat's own zones, of
// the zones that belong to nobody and of the target zones.
func (b *Bot) plausible(s *rules.State, tg rules.Targets, dst []int) []int {
	for z := 0; z < s.Zones(); z++ {
		zone := s.Zone(z)
		if zone.Len() == 0 {
			continue
		}
		inTarget := false
		for i := 0; i < tg.Len(); i++ {
			inTarget = inTarget || tg.At(i) == z
		}
		if zone.Seat != b.seat && zone.Seat != rules.NoSeat && !inTarget {
			continue
		}
		if zone.Show == rules.ShowTop || zone.Show == rules.ShowAll || (zone.Show == rules.ShowOwnerTop && zone.Seat == b.seat) {
			dst = s.Cards().AppendCard(dst, zone.Top())
		}
	}
	return dst
}
