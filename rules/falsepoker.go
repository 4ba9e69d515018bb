package rules

import (
	"fmt"
	"slices"
)

// False Poker (RULES.md §4.5), the Russian sheet's extra game #10, «Ложный
// покер»: turns and bluff.
//
// Setup of a round: six cards to each seat, held in hand (each card in a
// place of its own that only its seat sees); one card face up starts a row.
// Each seat has six markers of its own colour (Seat.Tally) for the game.
//
// Play, in turns: seat 0 starts the first round; a later round is started
// by the seat with the fewest markers, the first such seat clockwise after
// the previous round's starter. On its turn a seat either lays one of its
// cards at the end of the row with one of its markers on it (ActionLay, the
// card's place as target), if it has a marker that is not already on the
// row, or says "STOP" (ActionStop). Then the turn passes clockwise to the
// next seat still in the round. Each turn lasts option "turn-time"
// milliseconds (the sheet's 5 s); when it runs out, the clock's tick puts
// the seat out for the round.
//
// The row is checked only on STOP, or when one seat is left in the round:
// each pair of neighbouring cards shares a symbol, and those shared symbols
// must all differ. The seat that laid the first card whose shared symbol
// repeats an earlier one loses 2 markers (EventScore); with no repeat, the
// STOP caller loses 1. **Decision**: when the check comes because one seat
// is left, the seat whose time ran out last counts as the caller (running
// out of time ended the round, as a STOP would), so that every round costs
// somebody a marker, running out of time is never a way out, and the game
// always ends. Nothing in a view says whether the row holds a repeat: the seats
// see the row and must check it themselves, in the time of a turn.
//
// New round: every card back into the stock, shuffled, markers back off
// the row, six cards each and a new row card. End: a seat has no markers
// left. Score: markers, most wins.
//
// Table: zone 0 is the stock, zone 1 the row (kind "row", every card face
// up, first laid at the bottom), zone 2+6i+j seat i's j-th card in hand
// (kind "hand"). View.Extra (FalsePokerView) shows who laid each card of
// the row, the markers each seat has free, and who is out of the round.

func init() { Register(falsePoker{}) }

// falsePoker implements Game for False Poker.
type falsePoker struct{}

// The zone kinds of False Poker.
const (
	// ZoneRow is a row of cards laid side by side, all face up.
	ZoneRow ZoneKind = "row"
	// ZoneHand is a card held in a seat's hand, seen by that seat only.
	ZoneHand ZoneKind = "hand"
)

// False Poker's zones, deal and options.
const (
	fpStock   = 0
	fpRow     = 1
	fpFirst   = 2 // seat 0's first card in hand
	fpHand    = 6 // cards dealt to each seat
	fpMarkers = 6 // markers each seat starts with
	fpOptTime = 0
)

// falsePokerInfo is False Poker's description.
var falsePokerInfo = Info{
	Name:       "false-poker",
	Aliases:    []string{"lozhny-poker"},
	Title:      "False Poker",
	Section:    "docs/RULES.md §4.5",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "markers",
	HigherWins: true,
	Acts:       []ActionKind{ActionLay, ActionStop},
	Timed:      true,
	Options: []Option{
		{Name: "turn-time", Doc: "Milliseconds a turn lasts; a player out of time is out for the round (the sheet's 5 seconds).",
			Min: 500, Max: 600000, Default: "5000"},
	},
	Record: &RecordRules{Events: []EventKind{EventScore}, New: falsePokerRecord},
}

// Info describes False Poker: 2 to 8 players, markers, most wins, lays and
// stops in turns, timed, option "turn-time".
func (falsePoker) Info() Info { return falsePokerInfo }

// fpExt is False Poker's state beside the table.
type fpExt struct {
	turn    int
	start   int64 // when the turn began
	starter int   // the seat that started the round
	out     []bool
	layers  []int // the seat that laid each card of the row; NoSeat for the first
	laid    []int // how many cards of the row each seat laid: layers counted by seat
	// What the row shows, worked out as its cards are laid: the symbols
	// neighbouring cards share (a bit set, symbol s being bit s%64 of
	// word s/64), how many of those repeat one shared before, and the
	// index in the row of the first card whose shared symbol does, or -1.
	shared  []uint64
	repeats int
	repeat  int
}

// CloneExtension returns a deep copy.
func (e *fpExt) CloneExtension() Extension {
	c := *e
	c.out, c.layers, c.laid, c.shared = slices.Clone(e.out), slices.Clone(e.layers), slices.Clone(e.laid), slices.Clone(e.shared)
	return &c
}

// EqualExtension reports whether o is the same turn, round and row (laid,
// shared, repeats and repeat follow from the row).
func (e *fpExt) EqualExtension(o Extension) bool {
	f := o.(*fpExt)
	return e.turn == f.turn && e.start == f.start && e.starter == f.starter &&
		slices.Equal(e.out, f.out) && slices.Equal(e.layers, f.layers)
}

// FalsePokerView is what View.Extra holds in False Poker.
type FalsePokerView struct {
	// Layers lists, for each card of the row from the first, the seat
	// that laid it (its marker is on it), −1 for the card that started
	// the row.
	Layers []int `json:"layers"`
	// Free is how many markers each seat has off the row.
	Free []int `json:"free"`
	// Out lists the seats out for the rest of the round.
	Out []int `json:"out"`
	// Starter is the seat that started the round.
	Starter int `json:"starter"`
}

// fpSlot returns the zone of seat's j-th card in hand.
func fpSlot(seat, j int) int { return fpFirst + fpHand*seat + j }

// Setup gives each seat its markers and deals the first round.
func (falsePoker) Setup(s *State) error {
	p, n := s.Players(), s.cards.Len()
	if n < fpHand*p+1 {
		return &ConfigError{Game: falsePokerInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; False Poker deals 6 cards to each player and one to start the row (%d or more)", n, p, fpHand*p+1)}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: falsePokerInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; False Poker needs a deck in which every two cards share one, as every Dobble deck does", i, j)}
	}
	s.reserve(fpFirst+fpHand*p, 2*n+fpHand*p)
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZoneRow, NoSeat, ShowAll)
	for i := range p {
		for range fpHand {
			s.addSlot(ZoneHand, i, ShowOwnerTop)
		}
		s.seats[i].Tally = fpMarkers
	}
	s.dealAll(fpStock)
	fpDeal(s, nil, false)
	s.round = 1
	// The extension of the game Reset replaced keeps its room.
	e, _ := s.spareExtension().(*fpExt)
	if e == nil {
		e = &fpExt{}
	}
	*e = fpExt{out: resize(e.out, p), layers: append(e.layers[:0], NoSeat), laid: resize(e.laid, p),
		shared: resize(e.shared, (s.cards.Symbols()+63)/64), repeat: -1}
	s.SetExtension(e)
	return nil
}

// fpDeal deals six cards to each seat, one at a time round the table, and
// the card that starts the row, each from the top of the stock; with record
// set it appends the moves. The places in hand and the row are empty.
func fpDeal(s *State, ev []Event, record bool) []Event {
	zones := s.zones
	stock := zones[fpStock].cards
	for j := range fpHand {
		for i := range s.seats {
			z := fpSlot(i, j)
			c := stock[len(stock)-1]
			stock = stock[:len(stock)-1]
			zones[z].cards = zones[z].cards[:1] // empty, with room: no write barrier
			zones[z].cards[0] = c
			if record {
				ev = appendEvent(ev, EventMove, i, -1, int(c), 1, fpStock, z)
			}
		}
	}
	c := stock[len(stock)-1]
	zones[fpRow].cards = append(zones[fpRow].cards, c)
	zones[fpStock].cards = zones[fpStock].cards[:len(stock)-1] // shorter, same array: no write barrier
	if record {
		ev = appendEvent(ev, EventMove, NoSeat, -1, int(c), 1, fpStock, fpRow)
	}
	return ev
}

// fpGather puts every card of the row and the hands back on the stock, one
// at a time in zone order, each from the top of its zone, and appends the
// moves.
func fpGather(s *State, ev []Event) []Event {
	zones := s.zones
	stock := zones[fpStock].cards
	n := len(stock)
	stock = stock[:cap(stock)] // room for the whole deck
	for z := fpRow; z < len(zones); z++ {
		c := zones[z].cards
		for i := len(c) - 1; i >= 0; i-- {
			stock[n] = c[i]
			n++
			ev = appendEvent(ev, EventMove, NoSeat, -1, int(c[i]), 1, z, fpStock)
		}
		zones[z].cards = zones[z].cards[:0] // no write barrier, as in take
	}
	zones[fpStock].cards = zones[fpStock].cards[:n]
	return ev
}

// resize returns buf with length n, every element zero, reusing its room.
func resize[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// countOf returns how many times v is in list.
func countOf(list []int, v int) int {
	n := 0
	for _, x := range list {
		if x == v {
			n++
		}
	}
	return n
}

// fpFree returns the markers seat has off the row.
func fpFree(s *State, e *fpExt, seat int) int { return s.seats[seat].Tally - e.laid[seat] }

// Refusal details of False Poker, fixed phrases.
const (
	fpNotYourTurn = "wait for your turn"
	fpNotYours    = "lay one of the cards in your own hand"
	fpNoMarker    = "all your markers are on the row: say STOP"
)

// Check refuses an action out of turn, a lay of a card not in the seat's
// hand, and a lay by a seat whose markers are all on the row.
func (falsePoker) Check(s *State, a *Action) *Refusal {
	e := s.ext.(*fpExt)
	switch {
	case a.Kind == ActionTick:
		return nil
	case a.Seat != e.turn:
		return refuse(CodeNotYourTurn, a, fpNotYourTurn)
	case a.Kind == ActionStop:
		return nil
	}
	z := &s.zones[a.Target.z[0]]
	if z.Kind != ZoneHand || z.Seat != a.Seat || len(z.cards) == 0 {
		return refuse(CodeBadTarget, a, fpNotYours)
	}
	if fpFree(s, e, a.Seat) <= 0 {
		return refuse(CodeNotNow, a, fpNoMarker)
	}
	return nil
}

// Apply lays the card and passes the turn, says STOP and checks the row,
// or, for a tick, puts the seat whose time ran out out of the round.
func (falsePoker) Apply(s *State, a *Action, ev []Event) []Event {
	e := s.ext.(*fpExt)
	switch a.Kind {
	case ActionLay:
		last := s.top(fpRow)
		ev = s.move(ev, a.Seat, int(a.Target.z[0]), fpRow)
		e.layers = append(e.layers, a.Seat)
		e.laid[a.Seat]++
		sym := s.cards.Common(last, s.top(fpRow))
		if w, bit := sym>>6, uint64(1)<<(sym&63); e.shared[w]&bit == 0 {
			e.shared[w] |= bit
		} else if e.repeats++; e.repeat < 0 {
			e.repeat = len(e.layers) - 1
		}
	case ActionStop:
		ev = appendEvent(ev, EventStop, a.Seat, -1, -1, 0, -1, -1)
		return fpCheck(s, e, a.Seat, a.At, ev)
	case ActionTick:
		e.out[e.turn] = true
		ev = appendEvent(ev, EventOut, e.turn, -1, -1, 0, -1, -1)
		in := 0
		for _, o := range e.out {
			if !o {
				in++
			}
		}
		if in <= 1 {
			return fpCheck(s, e, e.turn, a.At, ev) // the seat out of time counts as the caller
		}
	}
	for e.turn = (e.turn + 1) % len(s.seats); e.out[e.turn]; e.turn = (e.turn + 1) % len(s.seats) {
	}
	e.start = a.At
	return appendEvent(ev, EventTurn, e.turn, -1, -1, 0, -1, -1)
}

// fpWorkOut works out from the row's cards what fpExt keeps of them: the
// symbols neighbouring cards share, how many of those repeat one shared
// before, and the index of the first card whose shared symbol does, or -1.
func fpWorkOut(s *State) (shared []uint64, repeats, repeat int) {
	row := s.zones[fpRow].cards
	shared, repeat = make([]uint64, (s.cards.Symbols()+63)/64), -1
	for i := 1; i < len(row); i++ {
		sym := s.cards.Common(int(row[i-1]), int(row[i]))
		if w, bit := sym>>6, uint64(1)<<(sym&63); shared[w]&bit == 0 {
			shared[w] |= bit
		} else if repeats++; repeat < 0 {
			repeat = i
		}
	}
	return shared, repeats, repeat
}

// fpCheck checks the row at time at, the STOP caller being caller: the
// layer of the first repeat loses 2 markers, otherwise the caller loses 1;
// then the game ends or the next round is dealt.
func fpCheck(s *State, e *fpExt, caller int, at int64, ev []Event) []Event {
	loser, loss := caller, 1
	if e.repeat >= 0 {
		loser, loss = e.layers[e.repeat], 2
	}
	loss = min(loss, s.seats[loser].Tally)
	s.seats[loser].Tally -= loss
	ev = appendEvent(ev, EventScore, loser, -1, -1, -loss, -1, -1)
	ev[len(ev)-1].Round = s.round
	if s.seats[loser].Tally == 0 {
		return s.finish(ev)
	}
	s.round++
	ev = append(ev, Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: s.round})
	ev = fpGather(s, ev)
	ev = s.shuffle(ev, fpStock)
	ev = fpDeal(s, ev, true)
	p := len(s.seats)
	fewest := s.seats[0].Tally
	for _, seat := range s.seats {
		fewest = min(fewest, seat.Tally)
	}
	e.starter = (e.starter + 1) % p
	for s.seats[e.starter].Tally != fewest {
		e.starter = (e.starter + 1) % p
	}
	e.turn, e.start = e.starter, at
	clear(e.out)
	clear(e.laid)
	clear(e.shared)
	e.repeats, e.repeat = 0, -1
	e.layers = append(e.layers[:0], NoSeat)
	return appendEvent(ev, EventTurn, e.turn, -1, -1, 0, -1, -1)
}

// Moves appends, for the seat whose turn it is, a lay of each card in its
// hand (when it has a marker off the row), in zone order, then its STOP.
func (falsePoker) Moves(s *State, seat int, dst []Action) []Action {
	e := s.ext.(*fpExt)
	if seat != e.turn {
		return dst
	}
	if fpFree(s, e, seat) > 0 {
		for j := range fpHand {
			if z := fpSlot(seat, j); len(s.zones[z].cards) > 0 {
				dst = append(dst, Action{Kind: ActionLay, Seat: seat, Target: oneTarget(z), Version: s.version})
			}
		}
	}
	return append(dst, Action{Kind: ActionStop, Seat: seat, Version: s.version})
}

// CanMove reports whether it is seat's turn: it may always say STOP.
func (falsePoker) CanMove(s *State, seat int) bool { return seat == s.ext.(*fpExt).turn }

// Movers returns the seat whose turn it is.
func (falsePoker) Movers(s *State) uint64 { return 1 << s.ext.(*fpExt).turn }

// PickMove returns the first move Moves lists, there being no claims.
func (g falsePoker) PickMove(s *State, seat int, _ Rand, a *Action) bool {
	var buf [fpHand + 1]Action
	moves := g.Moves(s, seat, buf[:0])
	if len(moves) == 0 {
		return false
	}
	*a = moves[0]
	return true
}

// Deadline is the end of the current turn.
func (falsePoker) Deadline(s *State) (int64, bool) {
	return s.ext.(*fpExt).start + int64(s.Option(fpOptTime)), true
}

// Turn returns the seat whose turn it is.
func (falsePoker) Turn(s *State) int { return s.ext.(*fpExt).turn }

// Result scores each seat by its markers; most wins.
func (falsePoker) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank(falsePokerInfo.Unit, falsePokerInfo.HigherWins, scores)
}

// ViewExtra shows who laid each card of the row, the free markers, who is
// out and who started the round; never whether the row holds a repeat.
func (falsePoker) ViewExtra(s *State, seat int) any {
	e := s.ext.(*fpExt)
	v := FalsePokerView{Layers: slices.Clone(e.layers), Free: make([]int, len(s.seats)), Out: []int{}, Starter: e.starter}
	for i := range s.seats {
		v.Free[i] = fpFree(s, e, i)
		if e.out[i] {
			v.Out = append(v.Out, i)
		}
	}
	return v
}

// Invariants checks False Poker's table: the zones, a layer for each card
// of the row, no seat with more cards laid than markers, the turn of a
// seat in the round, and the game over exactly when a seat has no markers.
func (falsePoker) Invariants(s *State) error {
	p := s.Players()
	if s.Zones() != fpFirst+fpHand*p {
		return fmt.Errorf("%d zones, want %d", s.Zones(), fpFirst+fpHand*p)
	}
	e := s.ext.(*fpExt)
	if len(e.layers) != s.count(fpRow) || e.layers[0] != NoSeat {
		return fmt.Errorf("%d layers for %d cards in the row", len(e.layers), s.count(fpRow))
	}
	if shared, repeats, repeat := fpWorkOut(s); !slices.Equal(e.shared, shared) || e.repeats != repeats || e.repeat != repeat {
		return fmt.Errorf("the row counted with shared symbols %x, %d repeats, the first at card %d; its cards show %x, %d, %d",
			e.shared, e.repeats, e.repeat, shared, repeats, repeat)
	}
	broke := false
	for i := range p {
		if n := countOf(e.layers, i); e.laid[i] != n {
			return fmt.Errorf("seat %d counted with %d cards laid, the row has %d", i, e.laid[i], n)
		}
		if fpFree(s, e, i) < 0 && !s.over {
			return fmt.Errorf("seat %d has more cards on the row than markers", i)
		}
		broke = broke || s.seats[i].Tally == 0
		for j := range fpHand {
			if z := s.zones[fpSlot(i, j)]; z.Kind != ZoneHand || z.Seat != i || len(z.cards) > 1 {
				return fmt.Errorf("zone %d is a %s of seat %d with %d cards", fpSlot(i, j), z.Kind, z.Seat, len(z.cards))
			}
		}
	}
	if s.over != broke {
		return fmt.Errorf("over = %v, a seat without markers: %v", s.over, broke)
	}
	if !s.over && e.out[e.turn] {
		return fmt.Errorf("the turn of seat %d, which is out", e.turn)
	}
	return nil
}

// NewViewExtra returns a new FalsePokerView to decode a view's extra into.
func (falsePoker) NewViewExtra() any { return new(FalsePokerView) }

// Remembers reports that False Poker's players decide from the table as
// it is at every turn.
func (falsePoker) Remembers() bool { return false }

// NewDecider returns a False Poker decider. On its turn it checks the row,
// pair by pair (the symbols neighbouring cards share), noticing each
// repeated shared symbol with the Mind's Recall, and says STOP when it
// notices one, which costs the seat that laid it two markers. Otherwise it
// lays its first card whose shared symbol with the end of the row is new,
// if it has one and a marker to put on it. With none, it says STOP (losing
// one marker) or, with the Mind's Bluff, lays one of its cards (the Mind's
// pick) that repeats a symbol, hoping the next seats play on. Its effort
// is k² comparisons, k the symbols of a card: the end of the row, then its
// hand against it.
func (falsePoker) NewDecider() Decider { return &falsePokerDecider{} }

// falsePokerDecider is the Decider of False Poker; it keeps nothing
// between turns but the layout of the table and room to work in.
type falsePokerDecider struct {
	zones   int       // the number of zones the layout below was read from
	seat    int       // and the seat it was read for
	row     int       // the row
	hand    []int     // the seat's places in hand, in zone order
	targets []Targets // a lay's target for each place in hand
	shared  []uint64  // room to work out the row seen in a view
}

// Reset does nothing: the layout is the same in every game with as many
// zones, and nothing else is kept.
func (*falsePokerDecider) Reset() {}

func (*falsePokerDecider) Sent(Seen, *Action) {}

func (d *falsePokerDecider) Decide(s Seen, m *Mind, a *Action) (float64, bool) {
	seat := s.Seat()
	if s.Over() || seat < 0 || falsePokerTurnIn(s) != seat {
		return 0, false
	}
	if d.zones != s.Zones() || d.seat != seat {
		// The layout is fixed for a game and its number of seats.
		d.zones, d.seat, d.row, d.hand, d.targets = s.Zones(), seat, -1, d.hand[:0], d.targets[:0]
		for z := range d.zones {
			switch k := s.Kind(z); {
			case k == ZoneRow:
				d.row = z
			case k == ZoneHand && s.Owner(z) == seat:
				d.hand, d.targets = append(d.hand, z), append(d.targets, oneTarget(z))
			}
		}
	}
	if d.row < 0 {
		return 0, false
	}
	// The end of the row, its last card shown: Shown and Card are written
	// in place, where Top is a call.
	n := s.Shown(d.row)
	if n == 0 {
		return 0, false
	}
	last := s.Card(d.row, n-1)
	free, shared, repeats := falsePokerSeenIn(s, &d.shared)
	repeat := false
	for range repeats {
		if m.recalls() {
			repeat = true
		}
	}
	// The action, written straight into *a: STOP, unless a lay.
	a.Kind, a.Seat, a.Symbol, a.Target = ActionStop, seat, 0, Targets{}
	if !repeat && free > 0 {
		// The first card in hand whose shared symbol with the end of the
		// row is new; or, now and then, a bluff.
		held, lay := 0, -1
		for i, z := range d.hand {
			if s.Count(z) > 0 {
				held++
				if sym := s.Common(d.row, z); sym < 0 || !hasBit(shared, sym) {
					lay = i
					break
				}
			}
		}
		if lay < 0 && held > 0 && m.bluffs() {
			lay = d.nthHeld(s, m.pick(held))
		}
		if lay >= 0 {
			a.Kind, a.Target = ActionLay, d.targets[lay]
		}
	}
	k := float64(last.Len())
	return k * k, true
}

// nthHeld returns the index in d.hand of the n-th place, counting from 0,
// where the seat holds a card.
func (d *falsePokerDecider) nthHeld(s Seen, n int) int {
	for i, z := range d.hand {
		if s.Count(z) > 0 {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return -1
}

// hasBit reports whether bit set m holds sym (bit sym%64 of word sym/64).
func hasBit(m []uint64, sym int) bool {
	return sym >= 0 && sym>>6 < len(m) && m[sym>>6]>>(sym&63)&1 != 0
}

// falsePokerTurnIn returns the seat whose turn it is while the game runs,
// as s shows it: Seen.Turn, read from the game's own state in place rather
// than through its Turner, as every plan of every seat asks it.
func falsePokerTurnIn(s Seen) int {
	if s.st != nil {
		return s.st.ext.(*fpExt).turn
	}
	return s.v.Turn
}

// falsePokerSeenIn returns what s shows of False Poker beside the zones
// (FalsePokerView), and what anyone can work out from the row: how many
// markers the seat, one at the table, has off the row; the symbols that
// neighbouring cards of the row share, as a bit set (symbol s is bit s%64
// of word s/64), and how many of those repeat one shared before in the
// row. It reads them from the state in place, which keeps the row worked
// out, or from the view, working the row out in *buf. The bit set is the
// state's own or *buf: read it, do not keep or change it.
func falsePokerSeenIn(s Seen, buf *[]uint64) (free int, shared []uint64, repeats int) {
	if st := s.st; st != nil {
		e := st.ext.(*fpExt)
		return fpFree(st, e, s.seat), e.shared, e.repeats
	}
	if x, _ := s.v.Extra.(FalsePokerView); s.seat >= 0 && s.seat < len(x.Free) {
		free = x.Free[s.seat]
	}
	shared = (*buf)[:0]
	n := s.Shown(fpRow)
	for i := 1; i < n; i++ {
		sym := s.Card(fpRow, i-1).Common(s.Card(fpRow, i))
		if sym < 0 {
			continue
		}
		for len(shared) <= sym>>6 {
			shared = append(shared, 0)
		}
		if hasBit(shared, sym) {
			repeats++
		}
		shared[sym>>6] |= 1 << (sym & 63)
	}
	*buf = shared
	return free, shared, repeats
}

// falsePokerRecord is how a record of False Poker is checked: the row
// check takes 2 markers from the layer of the first card whose shared
// symbol repeats an earlier one, else 1 from the caller (the seat that
// said STOP, or whose time ran out last), never more than it has; each
// seat scores 6 and its score events; the turn's time runs from the last
// action.
func falsePokerRecord(t RecordTable) *RecordHooks {
	var start int64 // when the turn began
	// Who laid each card of the row; -1 for the dealt ones.
	var layers []int
	if row := t.ZoneOf(ZoneRow); row >= 0 {
		_, _, cards := t.Zone(row)
		for range cards {
			layers = append(layers, -1)
		}
	}
	return &RecordHooks{
		Event: func(a *Action, ev []Event, i int) error {
			x := &ev[i]
			switch x.Kind {
			case EventMove:
				row := t.ZoneOf(ZoneRow)
				switch {
				case x.To == row:
					layers = append(layers, x.Seat)
				case x.From == row && len(layers) > 0:
					layers = layers[:len(layers)-1]
				}
			case EventScore:
				loser, loss := falsePokerLoss(t, layers, ev[:i])
				loss = min(loss, 6+t.Tally(x.Seat)-x.Count)
				if loser != x.Seat {
					return t.Fail("seat %d scores %d; the rules give %d to seat %d", x.Seat, x.Count, -loss, loser)
				}
				return scoreIs(t, x, -loss)
			}
			return nil
		},
		Accepted: func(a *Action, _ []Event) { start = a.At },
		Deadline: func() int64 { return start + int64(t.OptionInt("turn-time")) },
		Scores:   func() ([]int, string) { return PerSeat(t, func(s int) int { return 6 + t.Tally(s) }), "" },
	}
}

// falsePokerLoss returns the seat the row check takes markers from and
// how many, as a record shows the row: earlier are the events of the
// action before the score; layers who laid each card of the row.
func falsePokerLoss(t RecordTable, layers []int, earlier []Event) (loser, loss int) {
	loser, loss = -1, 1
	if k := len(earlier); k > 0 && (earlier[k-1].Kind == EventStop || earlier[k-1].Kind == EventOut) {
		loser = earlier[k-1].Seat
	}
	z := t.ZoneOf(ZoneRow)
	if z < 0 {
		return -1, 1
	}
	_, _, row := t.Zone(z)
	seen := map[int]bool{}
	for i := 1; i < len(row); i++ {
		sym := -1
		for s := range t.Symbols() {
			if t.Has(row[i-1], s) && t.Has(row[i], s) {
				sym = s
				break
			}
		}
		if seen[sym] {
			if i >= len(layers) {
				return -1, 2
			}
			return layers[i], 2
		}
		seen[sym] = true
	}
	return loser, loss
}
