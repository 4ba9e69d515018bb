package rules

import (
	"fmt"
	"slices"
)

// Reflection (RULES.md §4.2), the Russian sheet's extra game #7,
// «Отражение».
//
// A round has three phases, each timed by an option, and the clock's tick
// ends each:
//
//   - 0, look ("look", 5 s; the sheet sets no time): five cards are dealt,
//     four face down and the fifth face up; everyone looks at the fifth.
//   - 1, study ("study", 20 s, the sheet's time): the four are turned face
//     up and the fifth face down.
//   - 2, answer ("answer", 30 s; the sheet sets no time): the four are
//     turned face down again and the fifth face up. Each seat writes, from
//     memory, the symbols the fifth card shares with the four
//     (ActionWrite, one symbol of the fifth card at a time, at most four,
//     one per card; a symbol may be written more than once, since it can
//     match more than one card). Only the seat sees what it wrote. The
//     phase ends at its time, or as soon as every seat has written four.
//     Seats do not race each other: a write made against an older version
//     of the phase still counts (Lenient).
//
// Scoring: each written symbol scores one point per time written, up to the
// number of the four cards that share it with the fifth; misses score
// nothing and cost nothing. The answers and points of the round are then
// shown to everyone. The first seat to reach option "target" points (10)
// ends the game, every seat that reached it winning on the most points;
// otherwise a new round starts with five new cards (the used ones go
// aside, and are shuffled back when fewer than five are left).
//
// Table: zone 0 is the face-down stock, zone 1 the used cards, zones 2 to
// 5 the four cards face down, zones 6 to 9 the same places face up (kind
// "study"), zone 10 the fifth card face down and zone 11 face up. A card
// is turned by moving it between the face-down and face-up zones. Score:
// points (Seat.Tally), most wins.

func init() { Register(reflection{}) }

// reflection implements Game for Reflection.
type reflection struct{}

// ZoneStudy is a card face up to be studied, as in Reflection.
const ZoneStudy ZoneKind = "study"

// Reflection's zones, phases and options.
const (
	reflStock     = 0
	reflUsed      = 1
	reflDown      = 2 // the four face down: 2..5
	reflUp        = 6 // the four face up: 6..9
	reflFifthDown = 10
	reflFifthUp   = 11
	reflFour      = 4

	reflLook   = 0
	reflStudy  = 1
	reflAnswer = 2

	reflOptLook   = 0
	reflOptStudy  = 1
	reflOptAnswer = 2
	reflOptTarget = 3
)

// reflPhases names the phases, as ReflectionView shows them.
var reflPhases = []string{reflLook: "look", reflStudy: "study", reflAnswer: "answer"}

// reflectionInfo is Reflection's description.
var reflectionInfo = Info{
	Name:       "reflection",
	Aliases:    []string{"otrazhenie"},
	Title:      "Reflection",
	Section:    "docs/RULES.md §4.2",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "points",
	HigherWins: true,
	Acts:       []ActionKind{ActionWrite},
	Timed:      true,
	Options: []Option{
		{Name: "look", Doc: "Milliseconds to look at the fifth card before the four are turned up (the sheet sets no time).",
			Min: 1000, Max: 600000, Default: "5000"},
		{Name: "study", Doc: "Milliseconds to study the four cards (the sheet's 20 seconds).",
			Min: 1000, Max: 600000, Default: "20000"},
		{Name: "answer", Doc: "Milliseconds to write the answers (the sheet sets no time); the phase ends sooner when everyone has written four.",
			Min: 1000, Max: 600000, Default: "30000"},
		{Name: "target", Doc: "Points that end the game (the sheet's 10).", Min: 1, Max: 1000, Default: "10"},
	},
	Record: &RecordRules{Events: []EventKind{EventWrite, EventScore}, New: reflectionRecord},
}

// Info describes Reflection: 2 to 8 players, points, most wins, writes,
// timed, options "look", "study", "answer" and "target".
func (reflection) Info() Info { return reflectionInfo }

// reflExt is Reflection's state beside the table.
type reflExt struct {
	phase   int
	start   int64            // when the phase began
	since   uint64           // the version the phase began with
	answers [][]int          // this round's answers, by seat, with room for four each
	fifth   int              // the fifth card, face up or down, as the table holds it: for Check
	last    *ReflectionRound // the round scored last, &round, or nil before the first
	// round is the room of last, written again when the next round is
	// scored; views show copies of it.
	round ReflectionRound
}

// newReflExt returns the state of a new game of p seats, with the room
// for the answers of a round and for the scoring of one.
func newReflExt(p int) *reflExt {
	return &reflExt{answers: reflAnswers(p),
		round: ReflectionRound{Shared: make([]int, 0, reflFour), Answers: reflAnswers(p), Points: make([]int, p)}}
}

// CloneExtension returns a deep copy.
func (e *reflExt) CloneExtension() Extension {
	c := *e
	c.answers = cloneAnswers(e.answers)
	c.round = cloneRound(&e.round)
	if e.last != nil {
		c.last = &c.round
	}
	return &c
}

// cloneRound returns a deep copy of r.
func cloneRound(r *ReflectionRound) ReflectionRound {
	return ReflectionRound{Round: r.Round, Shared: slices.Clone(r.Shared), Answers: cloneAnswers(r.Answers), Points: slices.Clone(r.Points)}
}

// cloneAnswers returns a copy of a round's answers, with room for four
// each.
func cloneAnswers(answers [][]int) [][]int {
	c := reflAnswers(len(answers))
	for i, a := range answers {
		c[i] = append(c[i], a...)
	}
	return c
}

// EqualExtension reports whether o is the same phase, answers and last
// round (fifth follows from the table).
func (e *reflExt) EqualExtension(o Extension) bool {
	f := o.(*reflExt)
	if e.phase != f.phase || e.start != f.start || e.since != f.since || (e.last == nil) != (f.last == nil) ||
		!slices.EqualFunc(e.answers, f.answers, slices.Equal) {
		return false
	}
	return e.last == nil || (e.last.Round == f.last.Round && slices.Equal(e.last.Shared, f.last.Shared) &&
		slices.Equal(e.last.Points, f.last.Points) && slices.EqualFunc(e.last.Answers, f.last.Answers, slices.Equal))
}

// ReflectionRound is a scored round of Reflection, shown to everyone.
type ReflectionRound struct {
	// Round is the round.
	Round int `json:"round"`
	// Shared are the symbols the fifth card shared with each of the four,
	// in place order.
	Shared []int `json:"shared"`
	// Answers are the symbols each seat wrote.
	Answers [][]int `json:"answers"`
	// Points are the points each seat scored.
	Points []int `json:"points"`
}

// ReflectionView is what View.Extra holds in Reflection.
type ReflectionView struct {
	// Phase is "look", "study" or "answer".
	Phase string `json:"phase"`
	// Answers are the symbols the viewer wrote this round (none for a
	// spectator); nobody sees another seat's before the round is scored.
	Answers []int `json:"answers"`
	// Written is how many symbols each seat has written this round.
	Written []int `json:"written"`
	// Last is the round scored last, or nil before the first.
	Last *ReflectionRound `json:"last,omitempty"`
}

// Setup lays out the zones and deals the first round.
func (reflection) Setup(s *State) error {
	n := s.cards.Len()
	if n < reflFour+1 {
		return &ConfigError{Game: reflectionInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards; a round of Reflection deals 5 (5 or more)", n)}
	}
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZoneAside, NoSeat, ShowHidden)
	for range reflFour {
		s.addSlot(ZoneFaceDown, NoSeat, ShowHidden)
	}
	for range reflFour {
		s.addSlot(ZoneStudy, NoSeat, ShowTop)
	}
	s.addSlot(ZoneFaceDown, NoSeat, ShowHidden)
	s.addSlot(ZoneCentre, NoSeat, ShowTop)
	s.dealAll(reflStock)
	for z := reflDown; z < reflDown+reflFour; z++ {
		s.take(reflStock, z)
	}
	fifth := s.take(reflStock, reflFifthUp)
	s.round = 1
	// The state of the game Reset replaced leaves its room to this one.
	e, _ := s.spareExtension().(*reflExt)
	if e == nil || len(e.answers) != s.Players() || len(e.round.Answers) != s.Players() {
		e = newReflExt(s.Players())
	}
	for i := range e.answers {
		e.answers[i] = e.answers[i][:0]
	}
	e.phase, e.start, e.since, e.last, e.fifth = reflLook, 0, 0, nil, fifth
	s.SetExtension(e)
	return nil
}

// Refusal details of Reflection, fixed phrases.
const (
	reflNotYet  = "answers are written once the four cards are hidden and the fifth shows"
	reflWritten = "you have written four symbols, one per card"
	reflNotOn   = "write symbols of the fifth card"
)

// Check refuses a write outside the answer phase, a fifth one, or of a
// symbol not on the fifth card.
func (reflection) Check(s *State, a *Action) *Refusal {
	if a.Kind == ActionTick {
		return nil
	}
	e := s.ext.(*reflExt)
	switch {
	case e.phase != reflAnswer:
		return refuse(CodeNotNow, a, reflNotYet)
	case len(e.answers[a.Seat]) >= reflFour:
		return refuse(CodeNotNow, a, reflWritten)
	case !s.cards.Has(e.fifth, a.Symbol): // the fifth card shows in the answer phase
		return refuse(CodeNotAMatch, a, reflNotOn)
	}
	return nil
}

// Apply writes a symbol, scoring the round when everyone has written four;
// a tick ends the phase.
func (reflection) Apply(s *State, a *Action, ev []Event) []Event {
	e := s.ext.(*reflExt)
	if a.Kind == ActionWrite {
		e.answers[a.Seat] = append(e.answers[a.Seat], a.Symbol)
		ev = appendEvent(ev, EventWrite, a.Seat, a.Symbol, -1, 0, -1, -1)
		for _, ans := range e.answers {
			if len(ans) < reflFour {
				return ev
			}
		}
		return reflScore(s, e, a.At, ev)
	}
	e.start = a.At
	switch e.phase {
	case reflLook:
		for i := range reflFour {
			ev = s.move(ev, NoSeat, reflDown+i, reflUp+i)
		}
		ev = s.move(ev, NoSeat, reflFifthUp, reflFifthDown)
	case reflStudy:
		for i := range reflFour {
			ev = s.move(ev, NoSeat, reflUp+i, reflDown+i)
		}
		ev = s.move(ev, NoSeat, reflFifthDown, reflFifthUp)
	default:
		return reflScore(s, e, a.At, ev)
	}
	e.phase++
	e.since = s.version + 1
	ev = appendEvent(ev, EventPhase, NoSeat, -1, -1, e.phase, -1, -1)
	ev[len(ev)-1].Round = s.round
	return ev
}

// reflScore scores the round at time at, shows it, and ends the game or
// deals the next round. The scored round takes the place of the one scored
// before (e.round), its answers the room of that one's, which the next
// round's answers take over.
func reflScore(s *State, e *reflExt, at int64, ev []Event) []Event {
	fifth := s.top(reflFifthUp)
	r := &e.round
	r.Round, r.Shared = s.round, r.Shared[:0]
	for i := range reflFour {
		r.Shared = append(r.Shared, s.cards.Common(fifth, s.top(reflDown+i)))
	}
	var four [reflFour]int
	for i := range four {
		four[i] = s.top(reflDown + i)
	}
	target, done := s.Option(reflOptTarget), false
	for seat, ans := range e.answers {
		r.Points[seat] = reflPoints(s, fifth, &four, ans)
		s.seats[seat].Tally += r.Points[seat]
		ev = appendEvent(ev, EventScore, seat, -1, -1, r.Points[seat], -1, -1)
		ev[len(ev)-1].Round = s.round
		done = done || s.seats[seat].Tally >= target
	}
	r.Answers, e.answers = e.answers, r.Answers
	for i := range e.answers {
		e.answers[i] = e.answers[i][:0]
	}
	e.last = r
	if done {
		return s.finish(ev)
	}
	for z := reflDown; z < reflDown+reflFour; z++ {
		ev = s.move(ev, NoSeat, z, reflUsed)
	}
	ev = s.move(ev, NoSeat, reflFifthUp, reflUsed)
	if s.count(reflStock) < reflFour+1 {
		for s.count(reflUsed) > 0 {
			ev = s.move(ev, NoSeat, reflUsed, reflStock)
		}
		ev = s.shuffle(ev, reflStock)
	}
	s.round++
	ev = append(ev, Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: s.round})
	for z := reflDown; z < reflDown+reflFour; z++ {
		ev = s.move(ev, NoSeat, reflStock, z)
	}
	ev = s.move(ev, NoSeat, reflStock, reflFifthUp)
	e.fifth = s.top(reflFifthUp)
	e.phase, e.start, e.since = reflLook, at, s.version+1
	ev = appendEvent(ev, EventPhase, NoSeat, -1, -1, reflLook, -1, -1)
	ev[len(ev)-1].Round = s.round
	return ev
}

// Resync reads the fifth card again from the table.
func (e *reflExt) Resync(s *State) { e.fifth = max(s.top(reflFifthDown), s.top(reflFifthUp)) }

// reflAnswers returns a round's empty answers for p seats, with room for
// four each in one array.
func reflAnswers(p int) [][]int {
	ans, room := make([][]int, p), make([]int, p*reflFour)
	for i := range ans {
		ans[i] = room[i*reflFour : i*reflFour : (i+1)*reflFour]
	}
	return ans
}

// reflPoints scores answers against the round on the table, the fifth card
// and the four (-1 for a place without a card): each symbol counts as many
// times as written, up to the number of the four cards that share it with
// the fifth.
func reflPoints(s *State, fifth int, four *[reflFour]int, answers []int) int {
	points := 0
	for i, sym := range answers {
		if slices.Contains(answers[:i], sym) {
			continue // counted with its first copy
		}
		n := 0
		for _, t := range answers[i:] {
			if t == sym {
				n++
			}
		}
		m := 0
		if fifth >= 0 && s.cards.Has(fifth, sym) {
			for _, c := range four {
				if c >= 0 && s.cards.Has(c, sym) {
					m++
				}
			}
		}
		points += min(n, m)
	}
	return points
}

// Moves appends, in the answer phase and while seat has fewer than four
// answers, a write of each symbol of the fifth card in increasing order.
func (reflection) Moves(s *State, seat int, dst []Action) []Action {
	e := s.ext.(*reflExt)
	if e.phase != reflAnswer || len(e.answers[seat]) >= reflFour {
		return dst
	}
	syms := s.cards.AppendCard(nil, s.top(reflFifthUp))
	slices.Sort(syms)
	for _, sym := range syms {
		dst = append(dst, Action{Kind: ActionWrite, Seat: seat, Symbol: sym, Version: s.version})
	}
	return dst
}

// CanMove reports whether seat may write now.
func (reflection) CanMove(s *State, seat int) bool {
	e := s.ext.(*reflExt)
	return e.phase == reflAnswer && len(e.answers[seat]) < reflFour
}

// Movers returns the seats that may write now.
func (g reflection) Movers(s *State) uint64 { return s.seatsWhere(g) }

// PickMove returns the first write Moves lists, there being no claims.
func (g reflection) PickMove(s *State, seat int, _ Rand, a *Action) bool {
	if !g.CanMove(s, seat) {
		return false
	}
	sym := slices.Min(s.cards.AppendCard(nil, s.top(reflFifthUp)))
	a.Kind, a.Seat, a.Symbol, a.Version, a.At, a.Target = ActionWrite, seat, sym, s.version, 0, Targets{}
	return true
}

// Since lets a write name any version since the answer phase began: seats
// write their own answers and do not race each other.
func (reflection) Since(s *State, a *Action) uint64 { return s.ext.(*reflExt).since }

// Deadline is the end of the current phase.
func (reflection) Deadline(s *State) (int64, bool) {
	e := s.ext.(*reflExt)
	return e.start + int64(s.Option(reflOptLook+e.phase)), true
}

// Result scores each seat by its points; most wins.
func (reflection) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank(reflectionInfo.Unit, reflectionInfo.HigherWins, scores)
}

// ViewExtra shows the phase, the viewer's own answers, how many each seat
// has written and the round scored last.
func (reflection) ViewExtra(s *State, seat int) any {
	e := s.ext.(*reflExt)
	v := ReflectionView{Phase: reflPhases[e.phase], Answers: []int{}, Written: make([]int, len(s.seats))}
	if e.last != nil {
		last := cloneRound(e.last)
		v.Last = &last
	}
	for i, a := range e.answers {
		v.Written[i] = len(a)
	}
	if seat >= 0 && seat < len(s.seats) {
		v.Answers = append(v.Answers, e.answers[seat]...)
	}
	return v
}

// Invariants checks Reflection's table: the zones of the phase hold the
// five cards of the round (the four face down in the look and answer
// phases, face up in the study phase; the fifth the other way round), no
// seat has more than four answers, and the game is over exactly when a
// seat has reached the target.
func (reflection) Invariants(s *State) error {
	if s.Zones() != reflFifthUp+1 {
		return fmt.Errorf("%d zones, want %d", s.Zones(), reflFifthUp+1)
	}
	e := s.ext.(*reflExt)
	up := e.phase == reflStudy
	for i := range reflFour {
		down, shown := s.count(reflDown+i), s.count(reflUp+i)
		if (up && (down != 0 || shown != 1)) || (!up && (down != 1 || shown != 0)) {
			return fmt.Errorf("phase %s: place %d holds %d face down and %d face up", reflPhases[e.phase], i, down, shown)
		}
	}
	if fd, fu := s.count(reflFifthDown), s.count(reflFifthUp); (up && (fd != 1 || fu != 0)) || (!up && (fd != 0 || fu != 1)) {
		return fmt.Errorf("phase %s: the fifth card %d face down, %d face up", reflPhases[e.phase], fd, fu)
	}
	if f := max(s.top(reflFifthDown), s.top(reflFifthUp)); e.fifth != f {
		return fmt.Errorf("the fifth card is %d, the state says %d", f, e.fifth)
	}
	reached := false
	for i, a := range e.answers {
		if len(a) > reflFour || (len(a) > 0 && e.phase != reflAnswer) {
			return fmt.Errorf("seat %d has %d answers in phase %s", i, len(a), reflPhases[e.phase])
		}
		reached = reached || s.seats[i].Tally >= s.Option(reflOptTarget)
	}
	if s.over != reached {
		return fmt.Errorf("over = %v, a seat at the target: %v", s.over, reached)
	}
	return nil
}

// NewViewExtra returns a new ReflectionView to decode a view's extra into.
func (reflection) NewViewExtra() any { return new(ReflectionView) }

// Remembers reports that Reflection's players learn from every version:
// the cards studied.
func (reflection) Remembers() bool { return true }

// NewDecider returns a Reflection decider. While the four cards are face
// up it studies them and remembers each with the Mind's Recall; once the
// fifth card shows again it writes, one at a time, the symbol the fifth
// card shares with each card it remembers and, for each card it forgot, a
// symbol of the fifth card (the Mind's pick), since a miss costs nothing.
// Each answer's effort is that of comparing the fifth card with one card.
func (reflection) NewDecider() Decider { return &reflectionDecider{} }

// reflectionDecider is the Decider of Reflection: what it remembers of the
// current round.
type reflectionDecider struct {
	round  int
	seen   []bool  // by zone: study places already looked at this round
	cards  []Card  // the study cards remembered
	kept   [][]int // room for the symbols of study cards seen in views
	answer []int   // what it means to write, worked out in the answer phase
	worked bool
	next   int // the answer decided last this round, or -1
	wrote  int // the answers sent this round (Sent)
	// The layout, fixed for a game: the study places and the fifth card's
	// face-up place.
	zones  int
	study  []int
	centre int
}

// Reset has the layout read again and the round started afresh.
func (d *reflectionDecider) Reset() { d.zones = 0 }

// Sent counts the answers sent: the rules take Reflection's answers against
// an older version of the phase, so another seat's answer may bring a view
// that does not show one sent yet, and Decide must not write one twice.
func (d *reflectionDecider) Sent(s Seen, a *Action) {
	if a.Kind == ActionWrite && s.Round() == d.round {
		_, written := reflectionSeenIn(s)
		d.wrote = max(written, d.wrote) + 1
	}
}

func (d *reflectionDecider) Decide(s Seen, m *Mind, a *Action) (float64, bool) {
	if s.Over() {
		return 0, false
	}
	if d.zones != s.Zones() {
		d.zones, d.study, d.centre = s.Zones(), d.study[:0], -1
		for z := range d.zones {
			switch s.Kind(z) {
			case ZoneStudy:
				d.study = append(d.study, z)
			case ZoneCentre:
				d.centre = z
			}
		}
		if len(d.kept) < len(d.study) {
			d.kept = make([][]int, len(d.study))
		}
		d.round = -1
	}
	if s.Round() != d.round {
		// A new round: forget the last, keeping the room to work in (and
		// the layout).
		seen := d.seen[:0]
		for range d.zones {
			seen = append(seen, false)
		}
		d.round, d.seen, d.cards, d.answer = s.Round(), seen, d.cards[:0], d.answer[:0]
		d.worked, d.next, d.wrote = false, -1, 0
	}
	phase, written := reflectionSeenIn(s)
	switch phase {
	case reflStudy:
		for _, z := range d.study {
			if c, ok := s.Top(z); ok && !d.seen[z] {
				d.seen[z] = true
				if m.recalls() {
					d.cards = append(d.cards, c.keep(&d.kept[len(d.cards)]))
				}
			}
		}
		return 0, false
	case reflAnswer:
	default:
		return 0, false
	}
	seat := s.Seat()
	if seat < 0 || d.centre < 0 {
		return 0, false
	}
	fifth, ok := s.Top(d.centre)
	if !ok {
		return 0, false
	}
	if !d.worked {
		d.worked = true
		for _, c := range d.cards {
			if sym := fifth.Common(c); sym >= 0 {
				d.answer = append(d.answer, sym)
			}
		}
		for len(d.answer) < reflFour {
			d.answer = append(d.answer, fifth.Symbol(m.pick(fifth.Len())))
		}
	}
	n := max(written, d.wrote)
	if n >= len(d.answer) {
		return 0, false
	}
	a.Kind, a.Seat, a.Symbol, a.Target = ActionWrite, seat, d.answer[n], Targets{}
	if n == d.next {
		return 0, true // the answer decided before, while other seats write
	}
	d.next = n
	k := float64(fifth.Len())
	return k * k / 2, true
}

// reflectionSeenIn returns what s shows of Reflection beside the zones
// (ReflectionView): the phase, reflLook, reflStudy or reflAnswer (-1 for
// none known), and how many symbols the seat has written this round.
func reflectionSeenIn(s Seen) (phase, written int) {
	if s.st != nil {
		e := s.st.ext.(*reflExt)
		if s.seat >= 0 {
			written = len(e.answers[s.seat])
		}
		return e.phase, written
	}
	x, _ := s.v.Extra.(ReflectionView)
	return slices.Index(reflPhases, x.Phase), len(x.Answers)
}

// reflectionRecord is how a record of Reflection is checked: three phases
// a round, each timed by its option; a write, in the answer phase, names a
// symbol of the fifth card, four at most a round, and counts against any
// version since the phase began; a seat scores each symbol as many times
// as written, up to the number of the four cards that share it with the
// fifth.
func reflectionRecord(t RecordTable) *RecordHooks {
	var (
		start  int64  // when the phase began
		since  uint64 // the version the phase began with
		writes = make([][]int, t.Players())
	)
	return &RecordHooks{
		Event: func(a *Action, ev []Event, i int) error {
			x := &ev[i]
			switch x.Kind {
			case EventPhase:
				if x.Count > reflAnswer {
					return t.Fail("phase %d of round %d, in round %d", x.Count, x.Round, t.Round())
				}
			case EventWrite:
				fifth := t.Top(reflFifthUp)
				switch {
				case x.Seat != a.Seat || x.Symbol != a.Symbol || a.Seat < 0:
					return t.Fail("the write event names seat %d, symbol %d; the action %d, %d", x.Seat, x.Symbol, a.Seat, a.Symbol)
				case t.Phase() != reflAnswer:
					return t.Fail("a write in phase %d", t.Phase())
				case len(writes[a.Seat]) >= reflFour:
					return t.Fail("a fifth write of seat %d in the round", a.Seat)
				case fifth < 0 || !t.Has(fifth, a.Symbol):
					return t.Fail("symbol %d is not on the fifth card %d", a.Symbol, fifth)
				}
				writes[a.Seat] = append(writes[a.Seat], a.Symbol)
			case EventScore:
				return scoreIs(t, x, reflectionPoints(t, writes[x.Seat]))
			}
			return nil
		},
		Accepted: func(a *Action, ev []Event) {
			if slices.ContainsFunc(ev, func(e Event) bool { return e.Kind == EventScore }) {
				clear(writes)
			}
			if slices.ContainsFunc(ev, func(e Event) bool { return e.Kind == EventPhase }) {
				start, since = a.At, t.Version()
			}
		},
		Deadline: func() int64 { return start + int64(t.OptionInt(reflPhases[t.Phase()])) },
		Lenient:  func(a *Action) bool { return a.Kind == ActionWrite && a.Version >= since && a.Version < t.Version() },
		Scores:   func() ([]int, string) { return PerSeat(t, t.Tally), "" },
	}
}

// reflectionPoints returns what answers score on Reflection's table as a
// record shows it: each symbol as many times as written, up to the number
// of the four cards that share it with the fifth.
func reflectionPoints(t RecordTable, answers []int) int {
	fifth := t.Top(reflFifthUp)
	points := 0
	for i, sym := range answers {
		if slices.Contains(answers[:i], sym) {
			continue
		}
		n, m := 0, 0
		for _, a := range answers[i:] {
			if a == sym {
				n++
			}
		}
		if fifth >= 0 && t.Has(fifth, sym) {
			for z := reflDown; z < reflDown+reflFour; z++ {
				if c := t.Top(z); c >= 0 && t.Has(c, sym) {
					m++
				}
			}
		}
		points += min(n, m)
	}
	return points
}
