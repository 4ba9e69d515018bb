package rules

import (
	"fmt"
	"math/bits"
	"slices"
)

// Memory (RULES.md §4.4), the Russian sheet's extra game #9, «Память».
//
// Setup: one card face up in the centre and twice as many cards as seats
// face down around it, each in a place of its own; the rest of the deck
// stays aside, face down, out of play. Every face-down card shares exactly
// one symbol with the face-up card (any two cards of a Dobble deck do).
//
// Play, in turns, seat 0 first, then clockwise (seat order): the seat whose
// turn it is names a symbol of the face-up card and flips one face-down
// card (ActionFlip, the card's place as its target), which everyone sees.
// If the symbol is on the flipped card too, the seat takes the card and
// plays again; if not, the card is turned back face down, a marker goes on
// it and the turn passes. Nobody may flip a marked card until every card
// left has a marker. Option "remove-markers": with "yes" (the sheet's rule)
// the markers then all come off at once, as soon as every card left has
// one, whether a new marker completes the set or a seat takes the last
// unmarked card (docs/RULES.md §4.4); with "no" (leaving out that
// optional rule) they stay, and from then on any card may be flipped.
//
// Time: a turn lasts at most option "turn-time" milliseconds (the sheet
// sets no limit; 20 s by default). When it runs out, the clock's tick
// passes the turn to the next seat, with no card flipped.
//
// End: the last face-down card is taken. Score: 5 points per card taken
// (Seat.Tally); most wins.
//
// **Decision**: the game also ends when nobody plays any more: when every
// seat has let its turn run out twice in a row, that is when the clock has
// passed the turn twice as many times in a row as there are seats
// (memoryIdleRounds), no card flipped in between (docs/RULES.md §4.4). The
// sheet has no clock, so its game waits for every player; with one, a table
// whose players have all gone would pass the turn round for ever. One round of turns run out
// could be a moment's distraction at a table; two are not. A seat that
// lets its turns run out while others play ends nothing: any card flipped
// starts the count again. The cards left stay face down, and the scores
// are the cards taken.
//
// Table: zone 0 holds the cards out of play, zone 1 the face-up card, zones
// 2 to 2+2p-1 the face-down cards (kind "facedown", one card each), zone
// 2+2p+i the cards seat i took. View.Extra (MemoryView) shows the markers
// and the card flipped last, face up for the moment it was shown; a card
// turned back face down is never in a view again.

func init() { Register(memory{}) }

// memory implements Game for Memory.
type memory struct{}

// ZoneFaceDown is a place holding one face-down card, as in Memory.
const ZoneFaceDown ZoneKind = "facedown"

// Memory's fixed zones, options and scoring.
const (
	memoryAside     = 0
	memoryFaceUp    = 1
	memoryFirst     = 2 // the first face-down place
	memoryPoints    = 5 // points per card taken
	memoryOptTime   = 0
	memoryOptRemove = 1
	memoryRemoveYes = 0
	// memoryIdleRounds is how many rounds of turns run out, no card
	// flipped, end the game (see the decision above).
	memoryIdleRounds = 2
)

// memoryInfo is Memory's description.
var memoryInfo = Info{
	Name:       "memory",
	Aliases:    []string{"pamyat"},
	Title:      "Memory",
	Section:    "docs/RULES.md §4.4",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "points",
	HigherWins: true,
	Acts:       []ActionKind{ActionFlip},
	Timed:      true,
	Options: []Option{
		{
			Name:    "turn-time",
			Doc:     "Milliseconds a turn lasts before it passes to the next player (the sheet sets no limit).",
			Min:     1000,
			Max:     600000,
			Default: "20000",
		},
		{
			Name: "remove-markers",
			Doc: "Whether the markers all come off once every card left has one (\"yes\", the sheet's optional rule), " +
				"or stay (\"no\"), any card being flippable from then on.",
			Choices: []string{"yes", "no"},
			Default: "yes",
		},
	},
	Record: &RecordRules{Events: []EventKind{EventFlip, EventMark, EventScore}, New: memoryRecord},
}

// Info describes Memory: 2 to 8 players, points, most wins, flips in turns,
// timed, options "turn-time" and "remove-markers".
func (memory) Info() Info { return memoryInfo }

// memoryWon returns the zone of the cards seat took.
func memoryWon(s *State, seat int) int { return memoryFirst + 2*len(s.seats) + seat }

// memoryExt is Memory's state beside the table.
type memoryExt struct {
	turn   int    // the seat whose turn it is
	start  int64  // when the turn began
	marked []bool // by face-down place, from memoryFirst
	last   MemoryFlip
	idle   int // turns the clock passed in a row, no card flipped since
}

// CloneExtension returns a copy.
func (e *memoryExt) CloneExtension() Extension {
	c := *e
	c.marked = slices.Clone(e.marked)
	return &c
}

// EqualExtension reports whether o is the same turn, markers and flip.
func (e *memoryExt) EqualExtension(o Extension) bool {
	f := o.(*memoryExt)
	return e.turn == f.turn && e.start == f.start && e.idle == f.idle && slices.Equal(e.marked, f.marked) && e.last == f.last
}

// MemoryFlip is the card flipped last in Memory, as everyone saw it.
type MemoryFlip struct {
	// Seat flipped it.
	Seat int `json:"seat"`
	// Zone is the face-down place it was in.
	Zone int `json:"zone"`
	// Card is the card.
	Card int `json:"card"`
	// Symbol is the symbol the seat named.
	Symbol int `json:"symbol"`
	// Taken is true when the symbol was on it and the seat took it.
	Taken bool `json:"taken"`
}

// MemoryView is what View.Extra holds in Memory.
type MemoryView struct {
	// Marked lists the face-down places with a marker, in zone order.
	Marked []int `json:"marked"`
	// Last is the card flipped last and what came of it, or nil before
	// the first flip. Its card is shown only here once turned back.
	Last *MemoryFlip `json:"last,omitempty"`
	// Symbols are the last card's symbols, when there is one.
	Symbols []int `json:"symbols,omitempty"`
}

// Setup lays out the face-up card and 2p face-down cards.
func (memory) Setup(s *State) error {
	p, n := s.Players(), s.cards.Len()
	if n < 2*p+1 {
		return &ConfigError{Game: memoryInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; Memory lays out one face-up card and two face-down cards per player (%d or more)", n, p, 2*p+1)}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: memoryInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; Memory needs a deck in which every two cards share one, as every Dobble deck does", i, j)}
	}
	s.reserve(2+3*p, n+3*p+p*2*p)
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addSlot(ZoneCentre, NoSeat, ShowTop)
	for range 2 * p {
		s.addSlot(ZoneFaceDown, NoSeat, ShowHidden)
	}
	for i := range p {
		s.addRoom(ZoneWon, i, ShowTop, 2*p)
	}
	s.dealAll(memoryAside)
	s.take(memoryAside, memoryFaceUp)
	for z := memoryFirst; z < memoryFirst+2*p; z++ {
		s.take(memoryAside, z)
	}
	s.SetExtension(&memoryExt{marked: make([]bool, 2*p), last: MemoryFlip{Seat: NoSeat, Zone: -1, Card: -1, Symbol: -1}})
	return nil
}

// memoryFlippable reports whether the card in face-down place z may be
// flipped: there is one, and it has no marker or every card left has one
// (which happens only with "remove-markers" "no").
func memoryFlippable(s *State, e *memoryExt, z int) bool {
	if len(s.zones[z].cards) == 0 {
		return false
	}
	if !e.marked[z-memoryFirst] {
		return true
	}
	for i, m := range e.marked {
		if !m && len(s.zones[memoryFirst+i].cards) > 0 {
			return false
		}
	}
	return true
}

// Refusal details of Memory, fixed phrases.
const (
	memoryNotYourTurn = "wait for your turn"
	memoryNotFaceUp   = "name a symbol of the face-up card"
	memoryNotFaceDown = "flip one of the face-down cards"
	memoryMarked      = "that card has a marker: nobody may flip a marked card until every card left has one"
)

// Check refuses a flip out of turn, naming a symbol not on the face-up card,
// of a place without a face-down card, or of a marked card.
func (memory) Check(s *State, a *Action) *Refusal {
	if a.Kind == ActionTick {
		return nil
	}
	e := s.ext.(*memoryExt)
	z := int(a.Target.z[0])
	switch {
	case a.Seat != e.turn:
		return refuse(CodeNotYourTurn, a, memoryNotYourTurn)
	case s.zones[z].Kind != ZoneFaceDown || len(s.zones[z].cards) == 0:
		return refuse(CodeBadTarget, a, memoryNotFaceDown)
	case !memoryFlippable(s, e, z):
		return refuse(CodeBadTarget, a, memoryMarked)
	case !s.cards.Has(s.top(memoryFaceUp), a.Symbol):
		return refuse(CodeNotAMatch, a, memoryNotFaceUp)
	}
	return nil
}

// memoryNext passes the turn to the next seat at time at.
func memoryNext(s *State, e *memoryExt, at int64, ev []Event) []Event {
	e.turn = (e.turn + 1) % len(s.seats)
	e.start = at
	return appendEvent(ev, EventTurn, e.turn, -1, -1, 0, -1, -1)
}

// Apply flips the card: taken when it shows the symbol, the seat playing
// again; marked otherwise, the turn passing. A tick passes the turn, or
// ends the game when every seat has let memoryIdleRounds turns in a row
// run out.
func (memory) Apply(s *State, a *Action, ev []Event) []Event {
	e := s.ext.(*memoryExt)
	if a.Kind == ActionTick {
		if e.idle++; e.idle >= memoryIdleRounds*len(s.seats) {
			return s.finish(ev)
		}
		return memoryNext(s, e, a.At, ev)
	}
	e.idle = 0
	z := int(a.Target.z[0])
	card := s.top(z)
	ev = appendEvent(ev, EventFlip, a.Seat, a.Symbol, card, 0, z, -1)
	taken := s.cards.Has(card, a.Symbol)
	e.last = MemoryFlip{Seat: a.Seat, Zone: z, Card: card, Symbol: a.Symbol, Taken: taken}
	if !taken {
		e.marked[z-memoryFirst] = true
		ev = appendEvent(ev, EventMark, a.Seat, -1, -1, 1, z, -1)
		ev = memoryUnmark(s, e, ev)
		return memoryNext(s, e, a.At, ev)
	}
	ev = s.move(ev, a.Seat, z, memoryWon(s, a.Seat))
	e.marked[z-memoryFirst] = false
	s.seats[a.Seat].Tally += memoryPoints
	ev = appendEvent(ev, EventScore, a.Seat, -1, -1, memoryPoints, -1, -1)
	for i := range e.marked {
		if len(s.zones[memoryFirst+i].cards) > 0 {
			e.start = a.At // the seat plays again, with a fresh turn
			// Taking an unmarked card may leave only marked ones.
			return memoryUnmark(s, e, ev)
		}
	}
	return s.finish(ev)
}

// memoryUnmark takes every marker off, with "remove-markers" "yes", once
// every face-down card left carries one, however that came about: a new
// marker completing the set, or the last unmarked card taken.
func memoryUnmark(s *State, e *memoryExt, ev []Event) []Event {
	if s.Option(memoryOptRemove) != memoryRemoveYes || !memoryAllMarked(s, e) {
		return ev
	}
	n := 0
	for i := range e.marked {
		if e.marked[i] {
			e.marked[i] = false
			n++
		}
	}
	if n == 0 {
		return ev
	}
	return appendEvent(ev, EventMark, NoSeat, -1, -1, n, -1, -1)
}

// memoryAllMarked reports whether every face-down card left has a marker.
func memoryAllMarked(s *State, e *memoryExt) bool {
	for i, m := range e.marked {
		if !m && len(s.zones[memoryFirst+i].cards) > 0 {
			return false
		}
	}
	return true
}

// Moves appends, for the seat whose turn it is, a flip of every card it
// may flip naming every symbol of the face-up card: the flippable places
// in zone order, the symbols in increasing order.
func (memory) Moves(s *State, seat int, dst []Action) []Action {
	e := s.ext.(*memoryExt)
	if seat != e.turn {
		return dst
	}
	x := s.cards
	up := s.top(memoryFaceUp)
	for z := memoryFirst; z < memoryFirst+len(e.marked); z++ {
		if !memoryFlippable(s, e, z) {
			continue
		}
		for w := range x.words {
			for m := x.bits[up*x.words+w]; m != 0; m &= m - 1 {
				dst = append(dst, Action{Kind: ActionFlip, Seat: seat, Symbol: w<<6 + bits.TrailingZeros64(m), Target: oneTarget(z), Version: s.version})
			}
		}
	}
	return dst
}

// CanMove reports whether it is seat's turn: a card can always be flipped
// while the game runs.
func (memory) CanMove(s *State, seat int) bool { return seat == s.ext.(*memoryExt).turn }

// Movers returns the seat whose turn it is.
func (memory) Movers(s *State) uint64 { return 1 << s.ext.(*memoryExt).turn }

// PickMove returns the first flip Moves lists, there being no claims.
func (memory) PickMove(s *State, seat int, _ Rand, a *Action) bool {
	e := s.ext.(*memoryExt)
	if seat != e.turn {
		return false
	}
	x := s.cards
	up := s.top(memoryFaceUp)
	sym := -1
	for w := range x.words {
		if m := x.bits[up*x.words+w]; m != 0 {
			sym = w<<6 + bits.TrailingZeros64(m)
			break
		}
	}
	for z := memoryFirst; z < memoryFirst+len(e.marked); z++ {
		if memoryFlippable(s, e, z) {
			a.Kind, a.Seat, a.Symbol, a.Version, a.At = ActionFlip, seat, sym, s.version, 0
			a.Target = oneTarget(z)
			return true
		}
	}
	return false
}

// Deadline is the end of the current turn.
func (memory) Deadline(s *State) (int64, bool) {
	return s.ext.(*memoryExt).start + int64(s.Option(memoryOptTime)), true
}

// Turn returns the seat whose turn it is.
func (memory) Turn(s *State) int { return s.ext.(*memoryExt).turn }

// Result scores each seat 5 points per card taken; most wins.
func (memory) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank(memoryInfo.Unit, memoryInfo.HigherWins, scores)
}

// ViewExtra shows the markers and the card flipped last.
func (memory) ViewExtra(s *State, seat int) any {
	e := s.ext.(*memoryExt)
	v := MemoryView{Marked: []int{}}
	for i, m := range e.marked {
		if m {
			v.Marked = append(v.Marked, memoryFirst+i)
		}
	}
	if e.last.Card >= 0 {
		last := e.last
		v.Last = &last
		v.Symbols = s.cards.AppendCard(nil, last.Card)
	}
	return v
}

// Invariants checks Memory's table: the zone layout, the face-up card in
// place, at most one card per face-down place, markers only on cards, the
// points matching the cards taken, the turn a seat's, the game over
// exactly when no face-down card is left or nobody plays any more, and,
// with "remove-markers" "yes", never every card left marked.
func (memory) Invariants(s *State) error {
	p := s.Players()
	if s.Zones() != memoryFirst+3*p {
		return fmt.Errorf("%d zones, want %d", s.Zones(), memoryFirst+3*p)
	}
	if s.count(memoryFaceUp) != 1 {
		return fmt.Errorf("%d face-up cards", s.count(memoryFaceUp))
	}
	e := s.ext.(*memoryExt)
	left, marked := 0, 0
	for i, m := range e.marked {
		z := s.zones[memoryFirst+i]
		if z.Kind != ZoneFaceDown || z.Show != ShowHidden || len(z.cards) > 1 {
			return fmt.Errorf("zone %d is a %s showing %v with %d cards", memoryFirst+i, z.Kind, z.Show, len(z.cards))
		}
		if m && len(z.cards) == 0 {
			return fmt.Errorf("a marker on the empty place %d", memoryFirst+i)
		}
		left += len(z.cards)
		if m {
			marked++
		}
	}
	if left > 0 && marked == left && s.Option(memoryOptRemove) == memoryRemoveYes {
		return fmt.Errorf("all %d face-down cards carry a marker, but the markers come off once every card left has one", left)
	}
	for i := range p {
		if got, want := s.seats[i].Tally, memoryPoints*s.count(memoryWon(s, i)); got != want {
			return fmt.Errorf("seat %d has %d points for %d cards", i, got, s.count(memoryWon(s, i)))
		}
	}
	if e.turn < 0 || e.turn >= p {
		return fmt.Errorf("turn of seat %d", e.turn)
	}
	idle := memoryIdleRounds * p
	if e.idle < 0 || e.idle > idle {
		return fmt.Errorf("%d turns passed in a row, more than the %d that end the game", e.idle, idle)
	}
	if s.over != (left == 0 || e.idle == idle) {
		return fmt.Errorf("over = %v with %d face-down cards after %d turns passed in a row", s.over, left, e.idle)
	}
	return nil
}

// NewViewExtra returns a new MemoryView to decode a view's extra into.
func (memory) NewViewExtra() any { return new(MemoryView) }

// Remembers reports that Memory's players learn from every version: the
// cards flipped.
func (memory) Remembers() bool { return true }

// NewDecider returns a Memory decider. It watches every card flipped and
// remembers it, by place, with the Mind's Recall, until the card is taken.
// On its turn it flips a card it remembers, naming the symbol that card
// shares with the face-up card, which is sure to take it; with none, it
// flips a card it does not know (the Mind's pick), naming a symbol of the
// face-up card (its pick again). It flips only cards without a marker,
// unless every card left has one. Its effort is the face-up card's
// symbols, looked over for each card it thinks of.
func (memory) NewDecider() Decider { return &memoryDecider{version: ^uint64(0)} }

// memoryDecider is the Decider of Memory.
type memoryDecider struct {
	version uint64  // the version last taken in
	known   []Card  // by zone: the card remembered in that face-down place, or noCard
	kept    [][]int // by zone: room for the symbols of a card seen in a view
	centre  int     // the face-up card's zone, or -1
	places  []int   // the face-down places, in zone order
	// Room to work in.
	free, all, unknown []int
	marked             []bool
}

// Reset forgets every card; the layout stays, as the same game with the
// same number of seats lays out the same zones (layout checks).
func (d *memoryDecider) Reset() {
	d.version = ^uint64(0)
	for z := range d.known {
		d.known[z] = noCard
	}
}

func (*memoryDecider) Sent(Seen, *Action) {}

// layout finds the zones of the table, the first time and if their number
// changes (the layout is fixed for a game and its number of seats).
func (d *memoryDecider) layout(s Seen) {
	if len(d.known) == s.Zones() {
		return
	}
	n := s.Zones()
	d.known, d.kept, d.centre, d.places = make([]Card, n), make([][]int, n), -1, d.places[:0]
	for z := range n {
		d.known[z] = noCard
		switch s.Kind(z) {
		case ZoneCentre:
			d.centre = z
		case ZoneFaceDown:
			d.places = append(d.places, z)
		}
	}
}

func (d *memoryDecider) Decide(s Seen, m *Mind, a *Action) (float64, bool) {
	if s.Over() {
		return 0, false
	}
	d.layout(s)
	if v := s.Version(); v != d.version {
		d.version = v
		if l, c, ok := memoryLastIn(s); ok {
			d.known[l.Zone] = noCard
			if !l.Taken && m.recalls() {
				d.known[l.Zone] = c.keep(&d.kept[l.Zone])
			}
		}
	}
	seat := s.Seat()
	if seat < 0 || s.Turn() != seat || d.centre < 0 {
		return 0, false
	}
	up, ok := s.Top(d.centre)
	if !ok {
		return 0, false
	}
	marked := memoryMarkedIn(s, &d.marked)
	free, all := d.free[:0], d.all[:0]
	for _, z := range d.places {
		if s.Count(z) > 0 {
			all = append(all, z)
			if i := z - memoryFirst; i < 0 || i >= len(marked) || !marked[i] {
				free = append(free, z)
			}
		}
	}
	d.free, d.all = free, all
	if len(free) == 0 {
		free = all // every card is marked and the markers stay
	}
	if len(free) == 0 {
		return 0, false
	}
	k := float64(up.Len())
	for i, z := range free {
		if c := d.known[z]; c.id >= 0 {
			sym := up.Common(c)
			if sym < 0 {
				sym = up.Symbol(0)
			}
			a.Kind, a.Seat, a.Symbol, a.Target = ActionFlip, seat, sym, oneTarget(z)
			return float64(i+1) * k, true
		}
	}
	unknown := d.unknown[:0]
	for _, z := range free {
		if d.known[z].id < 0 {
			unknown = append(unknown, z)
		}
	}
	d.unknown = unknown
	z := unknown[m.pick(len(unknown))]
	a.Kind, a.Seat, a.Symbol, a.Target = ActionFlip, seat, up.Symbol(m.pick(up.Len())), oneTarget(z)
	return float64(len(free)) * k, true
}

// memoryMarkedIn returns which face-down places have a marker, as s
// shows them (MemoryView.Marked): place memoryFirst+i has one when
// element i is true. It is the state's own, or *buf filled from the view:
// read it, do not keep or change it.
func memoryMarkedIn(s Seen, buf *[]bool) []bool {
	if s.st != nil {
		return s.st.ext.(*memoryExt).marked
	}
	x, _ := s.v.Extra.(MemoryView)
	marked := (*buf)[:0]
	for _, z := range x.Marked {
		i := z - memoryFirst
		if i < 0 {
			continue
		}
		for len(marked) <= i {
			marked = append(marked, false)
		}
		marked[i] = true
	}
	*buf = marked
	return marked
}

// memoryLastIn returns the card flipped last and the card itself, as s
// shows them (MemoryView.Last and Symbols), and false before the first
// flip.
func memoryLastIn(s Seen) (MemoryFlip, Card, bool) {
	if st := s.st; st != nil {
		l := &st.ext.(*memoryExt).last
		return *l, Card{x: st.cards, id: l.Card}, l.Card >= 0
	}
	x, _ := s.v.Extra.(MemoryView)
	if x.Last == nil {
		return MemoryFlip{}, noCard, false
	}
	return *x.Last, Card{id: x.Last.Card, syms: &x.Symbols}, true
}

// memoryRecord is how a record of Memory is checked: a flip, by the seat
// whose turn it is, of a face-down card names a symbol of the face-up
// card; a marker goes on the card the seat flipped and did not take, or
// every marker comes off at once (from -1); a card taken scores 5, and
// each seat scores its score events; the turn's time runs from the last
// action.
func memoryRecord(t RecordTable) *RecordHooks {
	var start int64 // when the turn began
	return &RecordHooks{
		Event: func(a *Action, ev []Event, i int) error {
			x := &ev[i]
			switch x.Kind {
			case EventFlip:
				if err := flipOfTop(t, x); err != nil {
					return err
				}
				up := t.Top(t.ZoneOf(ZoneCentre))
				if kind, _, _ := t.Zone(x.From); x.Seat != a.Seat || x.Symbol != a.Symbol || a.Target.At(0) != x.From || kind != ZoneFaceDown || x.Count != 0 {
					return t.Fail("the flip event names seat %d, symbol %d, zone %d; the action %d, %d, %v", x.Seat, x.Symbol, x.From, a.Seat, a.Symbol, a.Target)
				}
				if !t.Has(up, x.Symbol) {
					return t.Fail("symbol %d is not on the face-up card %d", x.Symbol, up)
				}
			case EventMark:
				switch {
				case x.From >= 0 && (a.Kind != ActionFlip || x.From != a.Target.At(0) || x.Seat != a.Seat || x.Count != 1):
					return t.Fail("a marker on zone %d by seat %d, count %d, after a %s of %v by seat %d", x.From, x.Seat, x.Count, a.Kind, a.Target, a.Seat)
				case x.From < 0 && (x.Seat != NoSeat || x.Count < 1 || x.From != -1):
					return t.Fail("the markers taken off: from %d, by seat %d, count %d", x.From, x.Seat, x.Count)
				}
			case EventScore:
				return scoreIs(t, x, 5)
			}
			return nil
		},
		Accepted: func(a *Action, _ []Event) { start = a.At },
		Deadline: func() int64 { return start + int64(t.OptionInt("turn-time")) },
		Scores:   func() ([]int, string) { return PerSeat(t, t.Tally), "" },
	}
}
