package record

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/rules"
)

// This file checks a record from its own lines, as anyone without this
// engine could: the cards come from the deck description (package deck
// builds the projective plane), the table from the start line, and every
// change to it from the events and the shuffle outcomes the record states.
// It reads only what the games declare about themselves (rules.Info: the
// claim shape, the options and their defaults, the unit, and the record
// rules each game's file declares: how it scores, when its clock ticks and
// what its own events say, as docs/RECORD.md tells it); it never runs the
// rules, and no random source is drawn from.

// CheckError says where a record is not consistent with itself.
type CheckError struct {
	// Line is the input line of the record the inconsistency shows on;
	// for a Record built in memory, its position counting the game line
	// as 1.
	Line int
	// Reason says what is wrong.
	Reason string
}

// Error returns "record: check: line N: REASON".
func (e *CheckError) Error() string {
	return fmt.Sprintf("record: check: line %d: %s", e.Line, e.Reason)
}

// Check checks the record without this engine's rules or random source:
// using only the record itself (the deck description, from which it builds
// the cards with package deck, the start line, and every action, event and
// shuffle outcome), it tracks every zone's cards through the moves,
// shuffles and zones opened, and verifies that each move takes the cards
// its event names from the top of their zone, that each shuffle leaves its
// zone holding the same cards, that each accepted claim's symbol is on the
// cards the game's claim shape (rules.ClaimShape) says, that versions,
// times, lock-outs, deadlines and turns follow the game's rules, what each
// game's own events say (as its record rules, rules.Info.Record, declare),
// and that the result, in the last event and
// the result line, is the one the table and the events give. It returns
// the first inconsistency as a *CheckError. A format 1 record, which does
// not state the table as set up nor the shuffles' outcomes, cannot be
// checked so: Replay it. A table played in a session has its session line
// checked too (the mini-game it settled and the standings after it; see
// Session).
func (rec *Record) Check() error {
	c, err := newChecker(rec)
	if err != nil {
		return err
	}
	for i := range rec.Entries {
		c.line = rec.entryLine(i)
		if err := c.entry(&rec.Entries[i]); err != nil {
			return err
		}
	}
	if rec.End != nil {
		c.line = rec.endLine()
		if err := c.end(rec.End); err != nil {
			return err
		}
	}
	if rec.Session != nil {
		return c.checkSession(rec.Session)
	}
	return nil
}

// checkZone is a zone as the checker tracks it.
type checkZone struct {
	kind  rules.ZoneKind
	seat  int
	show  rules.Show
	cards []int // bottom first
}

// checker holds what Check tracks of a game.
type checker struct {
	rec        *Record
	game       string
	info       rules.Info
	known      bool // the game declares its record rules (Knows)
	hooks      *rules.RecordHooks
	own        []rules.EventKind // the game's own kinds of event
	anyVersion bool              // a lenient game Check does not know: its seats may name any version up to the table's
	opts       map[string]string // every option, set or default
	p          int
	lockout    int64 // 0: none
	words      int
	bits       []uint64 // card c's symbols: bits[c*words : (c+1)*words]
	symbols    int

	line    int
	zones   []checkZone
	version uint64
	at      int64 // the time of the last action
	round   int
	turn    int
	over    bool
	result  *rules.Result // the over event's
	locked  []int64
	tally   []int // the seats' score events, summed
	claims  []int // the accepted claims of each seat
	actions int
	refused int
	phase   int // the phase the last phase event began

}

// newChecker sets up the check of rec: its header, its cards and its start
// line.
func newChecker(rec *Record) (*checker, error) {
	h := &rec.Header
	bad := func(line int, format string, args ...any) error {
		return &CheckError{line, fmt.Sprintf(format, args...)}
	}
	if rec.Start == nil {
		return nil, bad(1, "a format %d record states no table as set up; only records of format 2 or later can be checked without the rules (replay this one)", h.Format)
	}
	g, err := rules.Lookup(h.Game)
	if err != nil {
		return nil, bad(1, "%v", err)
	}
	info := g.Info()
	if info.Name != h.Game {
		return nil, bad(1, "the game is named %q, not by its canonical name %q", h.Game, info.Name)
	}
	c := &checker{rec: rec, game: info.Name, info: info, p: h.Config.Players, opts: map[string]string{}, turn: -1,
		known: info.Record != nil}
	_, c.anyVersion = g.(rules.Lenient)
	if c.p < info.MinPlayers || c.p > info.MaxPlayers {
		return nil, bad(1, "%d players; %s takes %d to %d", c.p, info.Name, info.MinPlayers, info.MaxPlayers)
	}
	switch l := h.Config.Lockout; {
	case l == 0:
		c.lockout = rules.DefaultLockout
	case l > 0:
		c.lockout = l
	case l != rules.NoLockout:
		return nil, bad(1, "lock-out %d ms", l)
	}
	for _, o := range info.Options {
		c.opts[o.Name] = o.Default
	}
	for name, v := range h.Config.Options {
		if _, ok := c.opts[name]; !ok {
			return nil, bad(1, "%s has no option %q", info.Name, name)
		}
		c.opts[name] = v
	}
	if err := c.buildCards(); err != nil {
		return nil, bad(1, "%v", err)
	}
	c.locked, c.tally, c.claims = make([]int64, c.p), make([]int, c.p), make([]int, c.p)
	c.line = rec.startLine
	if c.line == 0 {
		c.line = 2
	}
	if err := c.setUp(rec.Start); err != nil {
		return nil, err
	}
	if c.known {
		c.hooks, c.own = info.Record.New(c), info.Record.Events
	}
	return c, nil
}

// buildCards builds the cards the header's deck describes with package
// deck, and checks their fingerprint.
func (c *checker) buildCards() error {
	d := c.rec.Header.Deck
	var plane *deck.Deck
	var err error
	if d.Edition != "" {
		e, lerr := deck.LookupEdition(d.Edition)
		if lerr != nil {
			return lerr
		}
		plane, err = e.Deck()
	} else {
		plane, err = deck.New(d.Order, d.Cards)
	}
	if err != nil {
		return err
	}
	var list [][]int
	for i := range plane.Len() {
		list = append(list, plane.Card(i))
	}
	c.symbols = plane.Symbols()
	if d.Singles {
		for s := range c.symbols {
			list = append(list, []int{s})
		}
	}
	if fp := Fingerprint(cardList{list, c.symbols}); fp != d.Fingerprint {
		return fmt.Errorf("the deck described builds cards of fingerprint %s, the record says %s", fp, d.Fingerprint)
	}
	c.words = (c.symbols + 63) / 64
	c.bits = make([]uint64, len(list)*c.words)
	for i, card := range list {
		for _, s := range card {
			c.bits[i*c.words+s/64] |= 1 << (s % 64)
		}
	}
	return nil
}

// cardList is a list of cards as rules.Cards, for Fingerprint.
type cardList struct {
	cards   [][]int
	symbols int
}

// Len returns the number of cards.
func (l cardList) Len() int { return len(l.cards) }

// Symbols returns the number of symbols.
func (l cardList) Symbols() int { return l.symbols }

// AppendCard appends the symbols of card i to dst.
func (l cardList) AppendCard(dst []int, i int) []int { return append(dst, l.cards[i]...) }

// cardCount returns the number of cards of the deck.
func (c *checker) cardCount() int { return len(c.bits) / max(c.words, 1) }

// has reports whether card shows sym; false for a card or a symbol that
// is not the deck's.
func (c *checker) has(card, sym int) bool {
	return card >= 0 && card < c.cardCount() && sym >= 0 && sym < c.symbols && c.bits[card*c.words+sym/64]>>(sym%64)&1 != 0
}

// fail returns a CheckError of the line being checked.
func (c *checker) fail(format string, args ...any) error {
	return &CheckError{c.line, fmt.Sprintf(format, args...)}
}

// setUp takes the table as set up: every card in exactly one zone.
func (c *checker) setUp(st *Start) error {
	n := c.cardCount()
	seen := make([]bool, n)
	for i, z := range st.Zones {
		if z.Seat < -1 || z.Seat >= c.p {
			return c.fail("zone %d belongs to seat %d, at a table of %d", i, z.Seat, c.p)
		}
		for _, card := range z.Cards {
			if card < 0 || card >= n || seen[card] {
				return c.fail("zone %d holds card %d, which is not a card of the deck or is in two places", i, card)
			}
			seen[card] = true
		}
		c.zones = append(c.zones, checkZone{kind: z.Kind, seat: z.Seat, show: z.Show, cards: slices.Clone(z.Cards)})
	}
	if i := slices.Index(seen, false); i >= 0 {
		return c.fail("card %d is in no zone", i)
	}
	if st.Turn < -1 || st.Turn >= c.p {
		return c.fail("the turn of seat %d", st.Turn)
	}
	c.round, c.turn = st.Round, st.Turn
	return nil
}

// ZoneOf returns the first zone of kind, or -1.
func (c *checker) ZoneOf(kind rules.ZoneKind) int {
	return slices.IndexFunc(c.zones, func(z checkZone) bool { return z.kind == kind })
}

// top returns the top card of zone z, or -1.
func (c *checker) top(z int) int {
	if cards := c.zones[z].cards; len(cards) > 0 {
		return cards[len(cards)-1]
	}
	return -1
}

// cardsOf returns the cards in the zones of seat of the given kinds.
func (c *checker) cardsOf(seat int, kinds ...rules.ZoneKind) int {
	n := 0
	for _, z := range c.zones {
		if z.seat == seat && slices.Contains(kinds, z.kind) {
			n += len(z.cards)
		}
	}
	return n
}

// deadline returns the time at which the game's clock next ticks, and
// false for a game without a clock (or once it is over).
func (c *checker) deadline() (int64, bool) {
	if c.over || !c.info.Timed || c.hooks == nil || c.hooks.Deadline == nil {
		return 0, false
	}
	return c.hooks.Deadline(), true
}

// lenient reports whether action a, of a seat, may name a version older
// than the table's and still count, as the game declares.
func (c *checker) lenient(a *rules.Action) bool {
	if !c.known {
		return c.anyVersion
	}
	return c.hooks.Lenient != nil && c.hooks.Lenient(a)
}

// accepts reports whether the game takes actions of kind k from a seat.
func (c *checker) accepts(k rules.ActionKind) bool {
	switch {
	case k == rules.ActionDraw && c.info.Draw:
		return true
	case len(c.info.Acts) == 0:
		return k == rules.ActionClaim
	}
	return slices.Contains(c.info.Acts, k)
}

// entry checks one action line or refused line.
func (c *checker) entry(e *Entry) error {
	a := &e.Action
	if c.over {
		return c.fail("an action after the game ended")
	}
	if a.At < c.at {
		return c.fail("the action arrived at %d ms, before the one before it (%d ms)", a.At, c.at)
	}
	c.at = a.At
	if a.Version > c.version {
		return c.fail("the action names version %d, the table is at %d", a.Version, c.version)
	}
	dl, timed := c.deadline()
	if a.Kind == rules.ActionTick {
		switch {
		case e.Refusal != nil:
			return c.fail("a refused tick")
		case !c.info.Timed || c.over:
			return c.fail("a tick in a game without a clock")
		case a.Seat != rules.NoSeat || a.Target.Len() != 0:
			return c.fail("a tick of seat %d with %d targets", a.Seat, a.Target.Len())
		case timed && a.At < dl:
			return c.fail("a tick at %d ms, before the deadline at %d ms", a.At, dl)
		case a.Version != c.version:
			return c.fail("a tick names version %d, the table is at %d", a.Version, c.version)
		}
	} else {
		if r := e.Refusal; r != nil && r.Code == rules.CodeTooLate {
			// A claim that came too late, which changed nothing: kept
			// by a server that ranks claims by reaction, for its timing.
			switch {
			case a.Seat < 0 || a.Seat >= c.p:
				return c.fail("seat %d at a table of %d", a.Seat, c.p)
			case a.Version >= c.version || c.lenient(a):
				return c.fail("an action against version %d refused as too late, the table being at %d", a.Version, c.version)
			case r.Current != c.version:
				return c.fail("a refusal naming version %d as the table's, which is at %d", r.Current, c.version)
			}
			c.refused++
			return nil
		}
		switch {
		case a.Seat < 0 || a.Seat >= c.p:
			return c.fail("seat %d at a table of %d", a.Seat, c.p)
		case !c.accepts(a.Kind):
			return c.fail("%s has no %s action", c.game, a.Kind)
		case timed && a.At >= dl:
			return c.fail("an action of seat %d at %d ms, at or after the deadline at %d ms: it is too late", a.Seat, a.At, dl)
		case a.At < c.locked[a.Seat]:
			return c.fail("an action of seat %d at %d ms, locked out until %d ms", a.Seat, a.At, c.locked[a.Seat])
		case a.Version != c.version && !c.lenient(a):
			return c.fail("an action against version %d, the table is at %d", a.Version, c.version)
		case a.Kind != rules.ActionClaim && a.Target.Len() != kindTargets(a.Kind):
			return c.fail("a %s names %d targets, not %d", a.Kind, a.Target.Len(), kindTargets(a.Kind))
		}
		for i := range a.Target.Len() {
			if z := a.Target.At(i); z < 0 || z >= len(c.zones)+len(e.Opened) {
				return c.fail("target %d names zone %d, at a table of %d zones", i, z, len(c.zones))
			}
		}
	}
	if r := e.Refusal; r != nil {
		return c.refusal(a, r)
	}
	return c.accepted(e)
}

// kindTargets returns the number of targets an action of kind k other
// than a claim names: one zone for a flip, a lay or a take, none otherwise.
func kindTargets(k rules.ActionKind) int {
	if k == rules.ActionFlip || k == rules.ActionLay || k == rules.ActionTake {
		return 1
	}
	return 0
}

// refusal checks a refused line: a wrong action, the lock-out it started.
func (c *checker) refusal(a *rules.Action, r *rules.Refusal) error {
	if !r.Code.Wrong() {
		return c.fail("a refusal %s is recorded; only wrong actions (notAMatch, badTarget) are", r.Code)
	}
	if r.Seat != a.Seat || r.Symbol != a.Symbol || r.Version != a.Version || r.Current != c.version {
		return c.fail("the refusal names seat %d, symbol %d, version %d, current %d; the action seat %d, symbol %d, version %d, the table %d",
			r.Seat, r.Symbol, r.Version, r.Current, a.Seat, a.Symbol, a.Version, c.version)
	}
	var until int64
	if a.Kind.LocksOut() && c.lockout > 0 {
		until = a.At + c.lockout
		c.locked[a.Seat] = until
	}
	if r.LockedUntil != until {
		return c.fail("locked out until %d ms; with a lock-out of %d ms, %d", r.LockedUntil, c.lockout, until)
	}
	c.refused++
	return nil
}

// accepted checks an accepted action and its events, and carries them
// out on the table.
func (c *checker) accepted(e *Entry) error {
	a := &e.Action
	ev := e.Events
	if len(ev) == 0 {
		return c.fail("an accepted action with no event")
	}
	for _, z := range e.Opened {
		if len(z.Cards) != 0 || z.Seat < -1 || z.Seat >= c.p {
			return c.fail("an opened zone %+v; a zone opens empty, of a seat or none", z)
		}
		c.zones = append(c.zones, checkZone{kind: z.Kind, seat: z.Seat, show: z.Show})
	}
	before := c.snapshot(a)
	shuffled := e.Shuffled
	for i := range ev {
		x := &ev[i]
		if x.Version != c.version+1 {
			return c.fail("event %d (%s) has version %d, not %d", i, x.Kind, x.Version, c.version+1)
		}
		if (x.Kind == rules.EventClaim) != (i == 0 && a.Kind == rules.ActionClaim) {
			return c.fail("event %d is a %s; the claim event comes first in an accepted claim, and only there", i, x.Kind)
		}
		if x.Kind == rules.EventOver && i != len(ev)-1 {
			return c.fail("the over event is event %d of %d; it comes last", i, len(ev))
		}
		if x.Seat < -1 || x.Seat >= c.p {
			return c.fail("event %d (%s) names seat %d", i, x.Kind, x.Seat)
		}
		if f := unused(x); f != "" {
			return c.fail("event %d, a %s, sets %s, which a %s event leaves at -1, 0 or out", i, x.Kind, f, x.Kind)
		}
		var err error
		switch x.Kind {
		case rules.EventClaim:
			err = c.claim(a, x)
		case rules.EventMove:
			err = c.move(x)
		case rules.EventShuffle:
			if len(shuffled) == 0 {
				return c.fail("event %d shuffles zone %d and the line states no outcome for it", i, x.From)
			}
			err = c.shuffle(x, shuffled[0])
			shuffled = shuffled[1:]
		case rules.EventRound:
			if x.Round != c.round+1 {
				return c.fail("round %d begins after round %d", x.Round, c.round)
			}
			c.round = x.Round
		case rules.EventTurn:
			c.turn = x.Seat
		case rules.EventStop:
		case rules.EventFlip, rules.EventMark, rules.EventWrite, rules.EventGuess, rules.EventSecret:
			if c.known && !slices.Contains(c.own, x.Kind) {
				return c.fail("%s has no %s events", c.game, x.Kind)
			}
		case rules.EventScore:
			switch {
			case x.Seat < 0:
				return c.fail("a score event of no seat")
			case c.known && !slices.Contains(c.own, x.Kind):
				return c.fail("%s has no %s events", c.game, x.Kind)
			case c.known && x.Round != c.round:
				return c.fail("a score of round %d in round %d", x.Round, c.round)
			}
			c.tally[x.Seat] += x.Count
		case rules.EventOut:
			if x.Seat < 0 {
				return c.fail("an out event of no seat")
			}
		case rules.EventPhase:
			if x.Count < 0 || x.Round != c.round {
				return c.fail("phase %d of round %d, in round %d", x.Count, x.Round, c.round)
			}
			c.phase = x.Count
		case rules.EventOver:
			if x.Result == nil {
				return c.fail("the over event carries no result")
			}
			c.over, c.result = true, x.Result
		default:
			return c.fail("event %d is of an unknown kind %q", i, x.Kind)
		}
		if err == nil && c.known && c.hooks.Event != nil && x.Kind != rules.EventOver {
			err = c.hooks.Event(a, ev, i)
		}
		if err != nil {
			return fmt.Errorf("%w (event %d, %s)", err, i, x.Kind)
		}
	}
	if len(shuffled) > 0 {
		return c.fail("the line states %d shuffle outcomes more than it has shuffle events", len(shuffled))
	}
	if c.known {
		if err := c.after(a, ev, before); err != nil {
			return err
		}
	}
	c.version++
	c.actions++
	if a.Kind == rules.ActionClaim {
		c.claims[a.Seat]++
	}
	if c.known && c.hooks.Accepted != nil {
		c.hooks.Accepted(a, ev)
	}
	if c.over {
		return c.checkResult(c.result, "the over event")
	}
	return nil
}

// The fields of an event, for the table of those each kind uses.
const (
	fSeat = 1 << iota
	fSymbol
	fCard
	fCount
	fFrom
	fTo
	fTarget
	fUnder
	fRound
	fResult
)

// eventFields lists, by kind, the fields an event of the kind uses; the
// others are -1 (seat, symbol, card, zones), 0 (count, round), empty or
// absent.
var eventFields = map[rules.EventKind]int{
	rules.EventClaim:   fSeat | fSymbol | fTarget,
	rules.EventMove:    fSeat | fCard | fCount | fFrom | fTo | fUnder,
	rules.EventShuffle: fCount | fFrom,
	rules.EventRound:   fRound,
	rules.EventOver:    fResult,
	rules.EventTurn:    fSeat,
	rules.EventFlip:    fSeat | fSymbol | fCard | fCount | fFrom,
	rules.EventMark:    fSeat | fCount | fFrom,
	rules.EventWrite:   fSeat | fSymbol,
	rules.EventScore:   fSeat | fCount | fRound,
	rules.EventGuess:   fSeat | fSymbol | fCount,
	rules.EventStop:    fSeat,
	rules.EventOut:     fSeat,
	rules.EventPhase:   fCount | fRound,
	rules.EventSecret:  fSeat | fSymbol,
}

// unused returns the name of a field event x sets that its kind does not
// use, or "".
func unused(x *rules.Event) string {
	used, ok := eventFields[x.Kind]
	if !ok {
		return ""
	}
	for _, f := range []struct {
		bit  int
		name string
		set  bool
	}{
		{fSeat, "seat", x.Seat != -1}, {fSymbol, "symbol", x.Symbol != -1}, {fCard, "card", x.Card != -1},
		{fCount, "count", x.Count != 0}, {fFrom, "from", x.From != -1}, {fTo, "to", x.To != -1},
		{fTarget, "target", x.Target.Len() != 0}, {fUnder, "under", x.Under}, {fRound, "round", x.Round != 0},
		{fResult, "result", x.Result != nil},
	} {
		if f.set && used&f.bit == 0 {
			return f.name
		}
	}
	return ""
}

// snapshot is what an action's checks compare the table after it with.
type snapshot struct {
	target     int // the first target's zone, or -1
	targetTop  int // its top card
	targetLen  int
	seatCards  int // the acting seat's cards in its piles
	emptyPlace int // in a game with draws: the seat's lowest empty pile (the zones opened included), or -1
	turn       int // whose turn it was
}

// snapshot returns what after needs of the table before action a.
func (c *checker) snapshot(a *rules.Action) snapshot {
	sn := snapshot{target: -1, targetTop: -1, emptyPlace: -1, turn: c.turn}
	if a.Target.Len() > 0 {
		if z := a.Target.At(0); z >= 0 && z < len(c.zones) {
			sn.target, sn.targetTop, sn.targetLen = z, c.top(z), len(c.zones[z].cards)
		}
	}
	if a.Seat >= 0 {
		sn.seatCards = c.cardsOf(a.Seat, rules.ZonePile)
		for z, zone := range c.zones {
			if zone.kind == rules.ZonePile && zone.seat == a.Seat && len(zone.cards) == 0 && c.info.Draw {
				sn.emptyPlace = z
				break
			}
		}
	}
	return sn
}

// after checks what an action of a seat did to the table as a whole,
// beyond each event: the card a flip took or left, the place a draw
// filled, the pile a take emptied.
func (c *checker) after(a *rules.Action, ev []rules.Event, sn snapshot) error {
	switch a.Kind {
	case rules.ActionFlip:
		taken := c.has(sn.targetTop, a.Symbol)
		if got := len(c.zones[sn.target].cards) < sn.targetLen; got != taken {
			return c.fail("the flip of card %d naming symbol %d took it: %v; the symbol is on it: %v", sn.targetTop, a.Symbol, got, taken)
		}
	case rules.ActionDraw:
		m := ev[0]
		if m.Kind != rules.EventMove || m.From != c.ZoneOf(rules.ZoneStock) || m.Seat != a.Seat {
			return c.fail("a draw's first event is %s from zone %d, not the draw pile's move", m.Kind, m.From)
		}
		if m.To != sn.emptyPlace {
			return c.fail("the card drawn went to zone %d; the seat's lowest empty place, or the one opened for it, is zone %d", m.To, sn.emptyPlace)
		}
	case rules.ActionDiscard:
		m := ev[0]
		if m.Kind != rules.EventMove || c.zones[m.From].seat != a.Seat || c.zones[m.From].kind != rules.ZonePile ||
			c.zones[m.To].seat != a.Seat || c.zones[m.To].kind != rules.ZoneDiscard {
			return c.fail("a discard moves from zone %d to zone %d, not from the seat's pile to its discard pile", m.From, m.To)
		}
	case rules.ActionTake:
		z := c.zones[sn.target]
		if sn.seatCards != 0 || z.kind != rules.ZoneDiscard || z.seat == a.Seat || sn.targetLen == 0 || len(z.cards) != 0 {
			return c.fail("seat %d, with %d cards, took zone %d, a %s of seat %d with %d cards, leaving %d",
				a.Seat, sn.seatCards, sn.target, z.kind, z.seat, sn.targetLen, len(z.cards))
		}
	case rules.ActionLay:
		m := ev[0]
		z := c.zones[sn.target]
		if z.kind != rules.ZoneHand || z.seat != a.Seat || m.Kind != rules.EventMove || m.From != sn.target || c.zones[m.To].kind != rules.ZoneRow {
			return c.fail("a lay of zone %d, a %s of seat %d, moves from zone %d to zone %d", sn.target, z.kind, z.seat, m.From, m.To)
		}
	}
	if (a.Kind == rules.ActionLay || a.Kind == rules.ActionStop || a.Kind == rules.ActionFlip) && a.Seat != sn.turn {
		return c.fail("seat %d acted in the turn of seat %d", a.Seat, sn.turn)
	}
	return nil
}

// claim checks an accepted claim against the game's claim shape, on the
// table before it: each target is a zone of its place, they differ (in
// increasing order where the shape asks), and the symbol is on the top
// card of each target and of a zone of each place the shape matches (on
// every face-up card of a place that says so).
func (c *checker) claim(a *rules.Action, x *rules.Event) error {
	if x.Seat != a.Seat || x.Symbol != a.Symbol || x.Target != a.Target {
		return c.fail("the claim event names seat %d, symbol %d, targets %v; the action %d, %d, %v", x.Seat, x.Symbol, x.Target, a.Seat, a.Symbol, a.Target)
	}
	sym, seat := a.Symbol, a.Seat
	if sym < 0 || sym >= c.symbols {
		return c.fail("symbol %d is not in the deck", sym)
	}
	shape := c.info.Claim
	if shape == nil || a.Target.Len() != len(shape.Targets) {
		return c.fail("a claim with %d targets in a game whose claims name %d", a.Target.Len(), c.info.Targets)
	}
	used := map[int]bool{}
	for i, p := range shape.Targets {
		z := a.Target.At(i)
		if z < 0 || z >= len(c.zones) || used[z] {
			return c.fail("target %d names zone %d, which is not a zone or is named twice", i, z)
		}
		if shape.Ascending && i > 0 && z < a.Target.At(i-1) {
			return c.fail("the targets %v are not in increasing order", a.Target)
		}
		used[z] = true
		zone := c.zones[z]
		if !p.Holds(zone.kind, zone.seat, seat) {
			return c.fail("target %d is zone %d, a %s of seat %d, not one of %v (%s)", i, z, zone.kind, zone.seat, p.Kinds, p.Whose)
		}
		if t := c.top(z); t < 0 || !c.has(t, sym) {
			return c.fail("symbol %d is not on the top card (%d) of target zone %d", sym, t, z)
		}
	}
	for _, p := range shape.Match {
		found := false
		for z, zone := range c.zones {
			if used[z] || len(zone.cards) == 0 || !p.Holds(zone.kind, zone.seat, seat) {
				continue
			}
			cards := zone.cards[len(zone.cards)-1:]
			if p.Every && zone.show == rules.ShowAll {
				cards = zone.cards
			}
			found = !slices.ContainsFunc(cards, func(card int) bool { return !c.has(card, sym) })
			if found {
				break
			}
		}
		if !found {
			return c.fail("symbol %d is not on the cards of any %v (%s) zone of seat %d", sym, p.Kinds, p.Whose, seat)
		}
	}
	return nil
}

// move checks a move and carries it out: Count cards, Card on top, from
// the top of zone From to the top of zone To (its bottom when Under).
func (c *checker) move(x *rules.Event) error {
	f, t := x.From, x.To
	if f < 0 || f >= len(c.zones) || t < 0 || t >= len(c.zones) || f == t {
		return c.fail("a move from zone %d to zone %d, at a table of %d zones", f, t, len(c.zones))
	}
	from := c.zones[f].cards
	if x.Count < 1 || x.Count > len(from) || (x.Under && x.Count != 1) {
		return c.fail("a move of %d cards from zone %d, which holds %d", x.Count, f, len(from))
	}
	if top := from[len(from)-1]; x.Card != top {
		return c.fail("a move of card %d from zone %d, whose top card is %d", x.Card, f, top)
	}
	moved := slices.Clone(from[len(from)-x.Count:])
	c.zones[f].cards = from[:len(from)-x.Count]
	if x.Under {
		c.zones[t].cards = append(moved, c.zones[t].cards...)
	} else {
		c.zones[t].cards = append(c.zones[t].cards, moved...)
	}
	return nil
}

// shuffle checks that order is an order of the cards of the shuffled zone
// and puts them so.
func (c *checker) shuffle(x *rules.Event, order []int) error {
	z := x.From
	if z < 0 || z >= len(c.zones) || x.Count != len(c.zones[z].cards) {
		return c.fail("a shuffle of %d cards of zone %d", x.Count, z)
	}
	have, got := slices.Sorted(slices.Values(c.zones[z].cards)), slices.Sorted(slices.Values(order))
	if !slices.Equal(have, got) {
		return c.fail("the shuffle of zone %d leaves it holding %v; it holds %v", z, order, c.zones[z].cards)
	}
	c.zones[z].cards = slices.Clone(order)
	return nil
}

// end checks the result line against the table.
func (c *checker) end(e *End) error {
	if e.Over != c.over || e.Version != c.version || e.Actions != c.actions || e.Refused != c.refused {
		return c.fail("the record ends over: %v at version %d after %d actions and %d refusals; the lines give %v, %d, %d, %d",
			e.Over, e.Version, e.Actions, e.Refused, c.over, c.version, c.actions, c.refused)
	}
	if e.Result == nil {
		return c.fail("the result line holds no result")
	}
	if c.over && !sameJSON(e.Result, c.result) {
		return c.fail("the result line's result differs from the over event's")
	}
	return c.checkResult(e.Result, "the result line")
}

// checkResult checks result r against the scores the table and the events
// give, and its winners, ranking and places against its scores.
func (c *checker) checkResult(r *rules.Result, what string) error {
	if len(r.Scores) != c.p {
		return c.fail("%s holds %d scores for %d seats", what, len(r.Scores), c.p)
	}
	if c.known {
		scores, unit := c.hooks.Scores()
		if unit == "" {
			unit = c.info.Unit
		}
		if r.Unit != unit || r.HigherWins != c.info.HigherWins || !slices.Equal(r.Scores, scores) {
			return c.fail("%s scores %v %s (higher wins: %v); the table and the events give %v %s (%v)",
				what, r.Scores, r.Unit, r.HigherWins, scores, unit, c.info.HigherWins)
		}
	}
	want := rank(r.Scores, r.HigherWins)
	if !slices.Equal(r.Winners, want.Winners) || !slices.Equal(r.Ranking, want.Ranking) || !slices.Equal(r.Places, want.Places) {
		return c.fail("%s ranks winners %v, ranking %v, places %v; its scores give %v, %v, %v",
			what, r.Winners, r.Ranking, r.Places, want.Winners, want.Ranking, want.Places)
	}
	return nil
}

// rank returns the winners, the ranking and the places of scores: best
// first, tied seats in seat order and sharing a place, the next place
// skipping.
func rank(scores []int, higherWins bool) rules.Result {
	r := rules.Result{Winners: []int{}, Ranking: make([]int, len(scores)), Places: make([]int, len(scores))}
	for i := range r.Ranking {
		r.Ranking[i] = i
	}
	slices.SortStableFunc(r.Ranking, func(a, b int) int {
		if higherWins {
			return scores[b] - scores[a]
		}
		return scores[a] - scores[b]
	})
	for k, seat := range r.Ranking {
		r.Places[seat] = k + 1
		if k > 0 && scores[seat] == scores[r.Ranking[k-1]] {
			r.Places[seat] = r.Places[r.Ranking[k-1]]
		}
		if r.Places[seat] == 1 {
			r.Winners = append(r.Winners, seat)
		}
	}
	slices.Sort(r.Winners)
	return r
}

// Knows reports whether Check knows the own rules of game (by any name
// rules.Lookup accepts): how it scores, when its clock ticks, which
// versions its seats may name and what its own events must say, as the
// game declares them (rules.Info.Record). Every game of this repository
// declares them. Of another, Check checks what every game shares (the
// table through moves, shuffles and zones opened; claims against the
// game's claim shape; versions, arrival times and lock-outs; the fields of
// each event; the result's ranking against its scores), not its scores,
// its clock nor its own events.
func Knows(game string) bool {
	g, err := rules.Lookup(game)
	return err == nil && g.Info().Record != nil
}

// The checker is the table a game's record rules read (rules.RecordTable).

// Players returns the number of seats.
func (c *checker) Players() int { return c.p }

// Symbols returns the number of symbols of the deck.
func (c *checker) Symbols() int { return c.symbols }

// Zones returns the number of zones.
func (c *checker) Zones() int { return len(c.zones) }

// Zone returns the kind, the owner and the cards of zone z.
func (c *checker) Zone(z int) (rules.ZoneKind, int, []int) {
	return c.zones[z].kind, c.zones[z].seat, c.zones[z].cards
}

// Top returns the top card of zone z, or -1 for an empty zone or one that
// does not exist.
func (c *checker) Top(z int) int {
	if z < 0 || z >= len(c.zones) {
		return -1
	}
	return c.top(z)
}

// Has reports whether card shows symbol.
func (c *checker) Has(card, symbol int) bool { return c.has(card, symbol) }

// CardsOf returns the cards in the zones of seat of the given kinds.
func (c *checker) CardsOf(seat int, kinds ...rules.ZoneKind) int { return c.cardsOf(seat, kinds...) }

// Option returns the value of option name, set or default.
func (c *checker) Option(name string) string { return c.opts[name] }

// OptionInt returns the value of option name as an integer.
func (c *checker) OptionInt(name string) int {
	v, _ := strconv.Atoi(c.opts[name])
	return v
}

// Round returns the round the table is in.
func (c *checker) Round() int { return c.round }

// Phase returns the phase the last phase event began.
func (c *checker) Phase() int { return c.phase }

// Version returns the table's version.
func (c *checker) Version() uint64 { return c.version }

// Tally returns the sum of the score events of seat.
func (c *checker) Tally(seat int) int { return c.tally[seat] }

// Claims returns the accepted claims of seat.
func (c *checker) Claims(seat int) int { return c.claims[seat] }

// Line returns the line being checked.
func (c *checker) Line() int { return c.line }

// Fail returns a CheckError of the line being checked.
func (c *checker) Fail(format string, args ...any) error { return c.fail(format, args...) }

// FailAt returns a CheckError of line.
func (c *checker) FailAt(line int, format string, args ...any) error {
	return &CheckError{line, fmt.Sprintf(format, args...)}
}
