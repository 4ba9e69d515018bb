package rules

import (
	"fmt"
	"math/bits"
	"slices"
)

// Guess (RULES.md §4.3), the Russian sheet's extra game #8, «Угадай»; 3 or
// more players.
//
// Rounds: one per seat ("everyone hosts once"). At the start of a round the
// host secretly draws two cards; their common symbol is the secret; the two
// go back into the deck, which is shuffled. Option "host": with "server"
// (the default) the rules host every round and every seat guesses; with
// "player" seat r−1 hosts round r: only that seat sees the secret
// (View.Extra, and from round 2 an EventSecret only it sees) and it may
// not guess.
//
// Play: every option "interval" milliseconds (2.5 s; the sheet's "2–3
// seconds to start") the clock's tick turns the next card of the deck face
// up, telling whether the secret is on it and eliminating one symbol that
// is neither on it nor the secret (nor eliminated before), chosen at
// random (EventFlip). Any seat may guess at any time (ActionGuess). A right
// guess scores +5 and ends the round. A wrong one scores −1 and, with option
// "wrong" "out" (the default), puts the seat out for the round; with
// "wait" (the sheet's variant) it scores −2 instead and the seat may not
// guess again until another seat has. Guesses do not race: one made
// against an older version of the round still counts (Lenient). The round
// also ends, with no winner, when every seat that may guess is out, or at
// the tick after the last card was turned. At the end of a round the secret
// is shown to everyone (EventSecret).
//
// End: after the last round. Score: points (Seat.Tally, negative too);
// most wins.
//
// Table: zone 0 is the deck, face down; zone 1 the cards turned this round
// (kind "turned", all face up). View.Extra (GuessView) shows what each
// turned card told, the eliminated symbols, who is out and, to the host
// seat only, the secret.

func init() { Register(guess{}) }

// guess implements Game for Guess.
type guess struct{}

// ZoneTurned holds the cards turned face up one after the other, as in
// Guess.
const ZoneTurned ZoneKind = "turned"

// Guess's zones, options and scoring.
const (
	guessDeck        = 0
	guessTurned      = 1
	guessOptInterval = 0
	guessOptHost     = 1
	guessOptWrong    = 2
	guessHostServer  = 0
	guessWrongOut    = 0
	guessRight       = 5
	guessMinPlayers  = 3
)

// guessInfo is Guess's description.
var guessInfo = Info{
	Name:       "guess",
	Aliases:    []string{"ugaday"},
	Title:      "Guess",
	Section:    "docs/RULES.md §4.3",
	MinPlayers: guessMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "points",
	HigherWins: true,
	Acts:       []ActionKind{ActionGuess},
	Timed:      true,
	Options: []Option{
		{Name: "interval", Doc: "Milliseconds between two cards turned (the sheet's 2–3 seconds to start).",
			Min: 200, Max: 60000, Default: "2500"},
		{Name: "host", Doc: "Who hosts: \"server\", the rules, every seat guessing; or \"player\", each seat once in turn, seeing the secret and not guessing.",
			Choices: []string{"server", "player"}, Default: "server"},
		{Name: "wrong", Doc: "A wrong guess: \"out\", −1 and out for the round; or \"wait\" (the sheet's variant), −2 and no guess again until another player has guessed.",
			Choices: []string{"out", "wait"}, Default: "out"},
	},
	Record: &RecordRules{Events: []EventKind{EventFlip, EventGuess, EventSecret, EventScore}, New: guessRecord},
}

// Info describes Guess: 3 to 8 players, points, most wins, guesses, timed,
// options "interval", "host" and "wrong".
func (guess) Info() Info { return guessInfo }

// guessExt is Guess's state beside the table.
type guessExt struct {
	host       int    // the hosting seat, or NoSeat
	secret     int    // the round's secret
	since      uint64 // the version the round began with
	start      int64  // when the last card was turned, or the round began
	out        []bool // out for the round, or waiting for another's guess
	flips      []GuessFlip
	eliminated []int
	gone       []uint64 // the eliminated symbols again, a bit each, for guessEliminate
	last       int      // the previous round's secret, or -1
}

// CloneExtension returns a deep copy.
func (e *guessExt) CloneExtension() Extension {
	c := *e
	c.out, c.flips, c.eliminated = slices.Clone(e.out), slices.Clone(e.flips), slices.Clone(e.eliminated)
	c.gone = slices.Clone(e.gone)
	return &c
}

// EqualExtension reports whether o is the same round in the same position
// (gone follows from eliminated).
func (e *guessExt) EqualExtension(o Extension) bool {
	f := o.(*guessExt)
	return e.host == f.host && e.secret == f.secret && e.since == f.since && e.start == f.start && e.last == f.last &&
		slices.Equal(e.out, f.out) && slices.Equal(e.flips, f.flips) && slices.Equal(e.eliminated, f.eliminated)
}

// GuessFlip is a card turned in Guess and what the host said of it.
type GuessFlip struct {
	// Card is the card turned.
	Card int `json:"card"`
	// Secret is true when the secret is on the card.
	Secret bool `json:"secret"`
	// Eliminated is the symbol the host named as not the secret, or -1
	// when none was left to name.
	Eliminated int `json:"eliminated"`
}

// GuessView is what View.Extra holds in Guess.
type GuessView struct {
	// Host is the seat hosting the round, or −1 when the rules host.
	Host int `json:"host"`
	// Secret is the round's secret for the host seat, −1 for everyone
	// else.
	Secret int `json:"secret"`
	// Flips are the cards turned this round, in order.
	Flips []GuessFlip `json:"flips"`
	// Eliminated are the symbols named as not the secret this round.
	Eliminated []int `json:"eliminated"`
	// Out lists the seats that may not guess now: out for the round, or,
	// in the "wait" variant, waiting for another seat's guess.
	Out []int `json:"out"`
	// Last is the previous round's secret, or −1.
	Last int `json:"last"`
	// Symbols is the number of symbols of the deck, 0 to Symbols−1,
	// one of which is the secret.
	Symbols int `json:"symbols"`
}

// Setup lays out the deck and starts round 1.
func (guess) Setup(s *State) error {
	n := s.cards.Len()
	if n < 2 {
		return &ConfigError{Game: guessInfo.Name, Field: "cards", Reason: fmt.Sprintf("%d cards; the host draws two to make the secret (2 or more)", n)}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: guessInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; Guess needs a deck in which every two cards share one, as every Dobble deck does", i, j)}
	}
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZoneTurned, NoSeat, ShowAll)
	s.dealAll(guessDeck)
	// The round of the game Reset replaced leaves its room to this one.
	e, _ := s.spareExtension().(*guessExt)
	if e == nil || len(e.out) != s.Players() || len(e.gone) != s.cards.words {
		e = &guessExt{out: make([]bool, s.Players()), gone: make([]uint64, s.cards.words)}
	}
	e.last = -1
	s.SetExtension(e)
	guessRound(s, e, 0, nil)
	e.since = 0 // round 1 begins with version 0
	return nil
}

// guessRound starts the next round at time at: the host, the secret from
// two cards drawn at random, the deck shuffled.
func guessRound(s *State, e *guessExt, at int64, ev []Event) []Event {
	s.round++
	if s.round > 1 {
		ev = append(ev, Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: s.round})
	}
	e.host = NoSeat
	if s.Option(guessOptHost) != guessHostServer {
		e.host = s.round - 1
	}
	deck := s.zones[guessDeck].cards
	i := s.intN(len(deck))
	j := s.intN(len(deck) - 1)
	if j >= i {
		j++
	}
	e.secret = s.cards.Common(int(deck[i]), int(deck[j]))
	if s.round > 1 {
		ev = s.shuffle(ev, guessDeck)
	} else {
		s.shuffleCards(deck)
	}
	if e.host != NoSeat && s.round > 1 {
		ev = appendEvent(ev, EventSecret, e.host, e.secret, -1, 0, -1, -1)
	}
	e.since, e.start = s.version+1, at
	clear(e.out)
	e.flips, e.eliminated = e.flips[:0], e.eliminated[:0]
	clear(e.gone)
	return ev
}

// guessEnd ends the round at time at: the secret shown, the turned cards
// back into the deck, the next round or the end of the game.
func guessEnd(s *State, e *guessExt, at int64, ev []Event) []Event {
	ev = appendEvent(ev, EventSecret, NoSeat, e.secret, -1, 0, -1, -1)
	e.last = e.secret
	if s.round >= len(s.seats) {
		return s.finish(ev)
	}
	for s.count(guessTurned) > 0 {
		ev = s.move(ev, NoSeat, guessTurned, guessDeck)
	}
	return guessRound(s, e, at, ev)
}

// Refusal details of Guess, fixed phrases.
const (
	guessHosting = "you host this round"
	guessIsOut   = "you guessed wrong and are out for this round"
	guessWaiting = "you guessed wrong: wait until another player has guessed"
)

// Check refuses a guess by the host seat, or by a seat out or waiting.
func (guess) Check(s *State, a *Action) *Refusal {
	if a.Kind == ActionTick {
		return nil
	}
	e := s.ext.(*guessExt)
	switch {
	case a.Seat == e.host:
		return refuse(CodeOut, a, guessHosting)
	case e.out[a.Seat] && s.Option(guessOptWrong) == guessWrongOut:
		return refuse(CodeOut, a, guessIsOut)
	case e.out[a.Seat]:
		return refuse(CodeNotNow, a, guessWaiting)
	}
	return nil
}

// Apply turns the next card (a tick) or scores a guess.
func (guess) Apply(s *State, a *Action, ev []Event) []Event {
	e := s.ext.(*guessExt)
	if a.Kind == ActionTick {
		if s.count(guessDeck) == 0 {
			return guessEnd(s, e, a.At, ev)
		}
		ev = s.move(ev, NoSeat, guessDeck, guessTurned)
		card := s.top(guessTurned)
		elim := guessEliminate(s, e, card)
		on := s.cards.Has(card, e.secret)
		e.flips = append(e.flips, GuessFlip{Card: card, Secret: on, Eliminated: elim})
		if elim >= 0 {
			e.eliminated = append(e.eliminated, elim)
			e.gone[elim>>6] |= 1 << (elim & 63)
		}
		e.start = a.At
		n := 0
		if on {
			n = 1
		}
		return appendEvent(ev, EventFlip, NoSeat, elim, card, n, guessTurned, -1)
	}
	right := a.Symbol == e.secret
	n := 0
	if right {
		n = 1
	}
	ev = appendEvent(ev, EventGuess, a.Seat, a.Symbol, -1, n, -1, -1)
	points := -1
	switch {
	case right:
		points = guessRight
	case s.Option(guessOptWrong) != guessWrongOut:
		points = -2
	}
	s.seats[a.Seat].Tally += points
	ev = appendEvent(ev, EventScore, a.Seat, -1, -1, points, -1, -1)
	ev[len(ev)-1].Round = s.round
	if right {
		return guessEnd(s, e, a.At, ev)
	}
	if s.Option(guessOptWrong) != guessWrongOut {
		clear(e.out) // another seat has guessed: the waiting may guess again
	}
	e.out[a.Seat] = true
	ev = appendEvent(ev, EventOut, a.Seat, -1, -1, 0, -1, -1)
	for i, o := range e.out {
		if !o && i != e.host {
			return ev
		}
	}
	return guessEnd(s, e, a.At, ev)
}

// guessEliminate picks, with the state's random source, a symbol neither on
// card nor the secret nor eliminated already, or -1 when none is left. It
// works a word of 64 symbols at a time: those left are the ones off the
// card, less the secret and the eliminated ones (e.gone).
func guessEliminate(s *State, e *guessExt, card int) int {
	x := s.cards
	var buf [8]uint64
	left := buf[:0]
	if x.words > len(buf) {
		left = make([]uint64, 0, x.words)
	}
	n := 0
	for w, m := range x.bits[card*x.words : (card+1)*x.words] {
		m = ^m &^ e.gone[w]
		if rest := x.symbols - w<<6; rest < 64 {
			m &= 1<<rest - 1
		}
		if w == e.secret>>6 {
			m &^= 1 << (e.secret & 63)
		}
		left = append(left, m)
		n += bits.OnesCount64(m)
	}
	if n == 0 {
		return -1
	}
	k := s.intN(n)
	for w, m := range left {
		if c := bits.OnesCount64(m); k >= c {
			k -= c
			continue
		}
		return w<<6 + nthBit(m, k)
	}
	panic("rules: guess: eliminated symbol out of range")
}

// nthBit returns the position of the k-th lowest set bit of m, counted
// from 0 (m has more than k bits set), without a branch that depends on m:
// the set bits of each byte, added up byte after byte in one
// multiplication, tell the byte that holds it, and nthInByte the bit
// within that byte.
func nthBit(m uint64, k int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	c := m - m>>1&0x5555555555555555
	c = c&0x3333333333333333 + c>>2&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f // byte i: the bits set in byte i
	sums := c * ones                    // byte i: the bits set in bytes 0 to i
	// Byte i of below has its high bit set when sums' byte i is at most k:
	// the bytes wholly below the bit sought, as many as its byte's index.
	below := (uint64(k)*ones | highs - sums) & highs
	b := bits.OnesCount64(below)
	k -= int(sums << 8 >> (8 * b) & 0xff) // less the bits set in the bytes below
	return 8*b + int(nthInByte[k<<8|int(m>>(8*b)&0xff)])
}

// nthInByte holds, at k<<8 | b, the position of the k-th lowest set bit of
// the byte b (0 where b has no k-th bit).
var nthInByte = func() (t [8 << 8]uint8) {
	for b := range 1 << 8 {
		k := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				t[k<<8|b] = uint8(i)
				k++
			}
		}
	}
	return t
}()

// Moves appends, for a seat that may guess, a guess of every symbol in
// increasing order.
func (g guess) Moves(s *State, seat int, dst []Action) []Action {
	if !g.CanMove(s, seat) {
		return dst
	}
	for sym := range s.cards.symbols {
		dst = append(dst, Action{Kind: ActionGuess, Seat: seat, Symbol: sym, Version: s.version})
	}
	return dst
}

// CanMove reports whether seat may guess now: it does not host and is not
// out or waiting.
func (guess) CanMove(s *State, seat int) bool {
	e := s.ext.(*guessExt)
	return seat != e.host && !e.out[seat]
}

// Movers returns the seats that may guess now.
func (g guess) Movers(s *State) uint64 { return s.seatsWhere(g) }

// PickMove returns the first guess Moves lists, there being no claims.
func (g guess) PickMove(s *State, seat int, _ Rand, a *Action) bool {
	if !g.CanMove(s, seat) {
		return false
	}
	a.Kind, a.Seat, a.Symbol, a.Version, a.At, a.Target = ActionGuess, seat, 0, s.version, 0, Targets{}
	return true
}

// Since lets a guess name any version since the round began.
func (guess) Since(s *State, a *Action) uint64 { return s.ext.(*guessExt).since }

// Deadline is when the next card is turned (or, the deck turned, the
// round ends).
func (guess) Deadline(s *State) (int64, bool) {
	return s.ext.(*guessExt).start + int64(s.Option(guessOptInterval)), true
}

// Result scores each seat by its points; most wins.
func (guess) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank(guessInfo.Unit, guessInfo.HigherWins, scores)
}

// ViewExtra shows the round as seat sees it: the secret to the host seat
// alone.
func (guess) ViewExtra(s *State, seat int) any {
	e := s.ext.(*guessExt)
	v := GuessView{Host: e.host, Secret: -1, Flips: slices.Clone(e.flips), Eliminated: slices.Clone(e.eliminated), Out: []int{}, Last: e.last, Symbols: s.cards.symbols}
	if v.Flips == nil {
		v.Flips = []GuessFlip{}
	}
	if v.Eliminated == nil {
		v.Eliminated = []int{}
	}
	if seat >= 0 && seat == e.host && !s.over {
		v.Secret = e.secret
	}
	for i, o := range e.out {
		if o {
			v.Out = append(v.Out, i)
		}
	}
	return v
}

// Invariants checks Guess's table: the deck and the turned cards, one flip
// per turned card, eliminated symbols neither the secret nor on their
// card, and no more rounds than seats.
func (guess) Invariants(s *State) error {
	if s.Zones() != 2 {
		return fmt.Errorf("%d zones, want 2", s.Zones())
	}
	e := s.ext.(*guessExt)
	if len(e.flips) != s.count(guessTurned) {
		return fmt.Errorf("%d flips for %d turned cards", len(e.flips), s.count(guessTurned))
	}
	for i, f := range e.flips {
		if f.Card != int(s.zones[guessTurned].cards[i]) || f.Secret != s.cards.Has(f.Card, e.secret) ||
			(f.Eliminated >= 0 && (f.Eliminated == e.secret || s.cards.Has(f.Card, f.Eliminated))) {
			return fmt.Errorf("flip %d %+v with secret %d", i, f, e.secret)
		}
	}
	if s.round < 1 || s.round > len(s.seats) {
		return fmt.Errorf("round %d of %d", s.round, len(s.seats))
	}
	return nil
}

// NewViewExtra returns a new GuessView to decode a view's extra into.
func (guess) NewViewExtra() any { return new(GuessView) }

// Remembers reports that Guess's players learn from every version: the
// cards turned.
func (guess) Remembers() bool { return true }

// NewDecider returns a Guess decider. It keeps the symbols the secret may
// still be: every symbol at the start of a round, then, for each card
// turned, those on it when the host says the secret is, those not on it
// when the host says it is not, less the symbol the host eliminates. A
// card's news is lost to it with the Mind's Misread. It guesses one of
// them (the Mind's pick) once they are no more than the Mind's Risk, and,
// when the deck is turned, whatever is left, if fewer than six (a right
// guess is worth +5, a wrong one −1, so a guess among n pays while
// n < 6). Its effort is that of comparing a card's symbols with the
// candidates.
func (guess) NewDecider() Decider { return &guessDecider{round: -1} }

// guessDecider is the Decider of Guess: its deduction in the current
// round.
type guessDecider struct {
	round int
	flips int      // flips taken in
	cand  []uint64 // the symbols the secret may be, a bit each
	n     int      // how many they are
}

// Reset has the next decision start the round afresh.
func (d *guessDecider) Reset() { d.round = -1 }

func (*guessDecider) Sent(Seen, *Action) {}

func (d *guessDecider) Decide(s Seen, m *Mind, a *Action) (float64, bool) {
	if s.Over() {
		return 0, false
	}
	symbols, may, flips := guessSeenIn(s)
	if s.Round() != d.round {
		n := symbols
		d.round, d.flips, d.n, d.cand = s.Round(), 0, n, d.cand[:0]
		for w := 0; w < n; w += 64 {
			d.cand = append(d.cand, ^uint64(0)>>max(0, 64-(n-w)))
		}
	}
	if !may {
		return 0, false
	}
	for ; d.flips < len(flips); d.flips++ {
		// The flip's fields, read one by one: a copy of the flip just
		// turned would wait for the stores that wrote it.
		f := &flips[d.flips]
		if m.misreads() {
			continue
		}
		c := guessCardIn(s, f, d.flips)
		for w := range d.cand {
			if f.Secret {
				d.cand[w] &= c.Word(w) // only the card's symbols may be the secret
			} else {
				d.cand[w] &^= c.Word(w)
			}
		}
		if sym := f.Eliminated; sym >= 0 && sym>>6 < len(d.cand) {
			d.cand[sym>>6] &^= 1 << (sym & 63)
		}
		d.n = 0
		for _, w := range d.cand {
			d.n += bits.OnesCount64(w)
		}
	}
	if d.n == 0 {
		return 0, false // misread into a corner: wait for the round to end
	}
	if d.n > m.Risk && (d.n >= 6 || s.Count(guessDeck) > 0) {
		return 0, false // better wait for the next card
	}
	a.Kind, a.Seat, a.Symbol, a.Target = ActionGuess, s.Seat(), d.nth(m.pick(d.n)), Targets{}
	return float64(d.n * 2), true
}

// nth returns the k-th symbol the secret may be, in increasing order.
func (d *guessDecider) nth(k int) int {
	for w, m := range d.cand {
		if c := bits.OnesCount64(m); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			m &= m - 1 // k is small: the candidates are few when a player guesses
		}
		return w<<6 + bits.TrailingZeros64(m)
	}
	return -1
}

// guessSeenIn returns what s shows of Guess beside the zones
// (GuessView), read from the state in place or from the view: the number
// of symbols of the deck; whether the seat may guess now (it does not
// host and is not out or waiting); and the cards turned this round, in
// the order of the zone of turned cards, with what the host said of each,
// which are the state's own or the view's: read them, do not keep them.
func guessSeenIn(s Seen) (symbols int, may bool, flips []GuessFlip) {
	if st := s.st; st != nil {
		e := st.ext.(*guessExt)
		return st.cards.symbols, s.seat >= 0 && s.seat != e.host && !e.out[s.seat], e.flips
	}
	x, _ := s.v.Extra.(GuessView)
	may = s.seat >= 0 && s.seat != x.Host && !slices.Contains(x.Out, s.seat)
	return x.Symbols, may, x.Flips[:min(len(x.Flips), s.Shown(guessTurned))]
}

// guessCardIn returns the card of flip f, the i-th card turned this round,
// as s shows it: read from the deck by the number the flip names, as
// GuessView.Flips shows it, which spares a look at the turned cards; from
// the view's turned cards.
func guessCardIn(s Seen, f *GuessFlip, i int) Card {
	if s.st != nil {
		return Card{x: s.st.cards, id: f.Card}
	}
	return s.Card(guessTurned, i)
}

// guessRecord is how a record of Guess is checked: each card turned in a
// round and each guess must agree with the secret shown at its end (and
// shown to the host at its start); the symbol the host eliminates is not
// on the card turned nor eliminated before; a seat guesses neither in the
// round it hosts nor while out or waiting; a guess scores 5 when right,
// else -1 (wrong=out) or -2 (wrong=wait); the clock turns a card every
// interval from the round's start or the last tick, and a guess counts
// against any version since the round began.
func guessRecord(t RecordTable) *RecordHooks {
	type flip struct{ card, on, eliminated, line int }
	type guess struct{ symbol, right, line int }
	var (
		start      int64  // when the card on show was turned
		since      uint64 // the version the round began with
		flips      []flip
		guesses    []guess
		eliminated []int
		hostSecret = -1
		out        = make([]bool, t.Players())
	)
	return &RecordHooks{
		Event: func(a *Action, ev []Event, i int) error {
			x := &ev[i]
			switch x.Kind {
			case EventRound:
				clear(out)
				eliminated, hostSecret = eliminated[:0], -1
			case EventOut:
				out[x.Seat] = true
			case EventFlip:
				if err := flipOfTop(t, x); err != nil {
					return err
				}
				if kind, _, _ := t.Zone(x.From); x.Seat != NoSeat || (x.Count != 0 && x.Count != 1) || kind != ZoneTurned {
					return t.Fail("a Guess flip by seat %d, count %d, in zone %d", x.Seat, x.Count, x.From)
				}
				if s := x.Symbol; s >= 0 {
					if s >= t.Symbols() || t.Has(x.Card, s) || slices.Contains(eliminated, s) {
						return t.Fail("symbol %d, eliminated, is on card %d or was eliminated before", s, x.Card)
					}
					eliminated = append(eliminated, s)
				}
				flips = append(flips, flip{card: x.Card, on: x.Count, eliminated: x.Symbol, line: t.Line()})
			case EventGuess:
				host := -1
				if t.Option("host") == "player" {
					host = t.Round() - 1
				}
				switch {
				case x.Seat != a.Seat || x.Symbol != a.Symbol || (x.Count != 0 && x.Count != 1) || a.Seat < 0:
					return t.Fail("the guess event names seat %d, symbol %d, count %d; the action %d, %d", x.Seat, x.Symbol, x.Count, a.Seat, a.Symbol)
				case a.Seat == host:
					return t.Fail("seat %d guessed in the round it hosts", a.Seat)
				case out[a.Seat]:
					return t.Fail("seat %d guessed while out or waiting", a.Seat)
				}
				if x.Count == 0 && t.Option("wrong") == "wait" {
					clear(out) // another seat has guessed: those waiting may guess again
				}
				guesses = append(guesses, guess{symbol: x.Symbol, right: x.Count, line: t.Line()})
			case EventSecret:
				s := x.Symbol
				if s < 0 || s >= t.Symbols() {
					return t.Fail("the secret %d is not a symbol of the deck", s)
				}
				if x.Seat != NoSeat {
					hostSecret = s
					return nil
				}
				if hostSecret >= 0 && hostSecret != s {
					return t.Fail("the secret shown is %d, the host was shown %d", s, hostSecret)
				}
				for _, f := range flips {
					if on := t.Has(f.card, s); on != (f.on == 1) || f.eliminated == s {
						return t.FailAt(f.line, "card %d was said to show the secret %d: %v, wrongly; or the secret was eliminated", f.card, s, f.on == 1)
					}
				}
				for _, g := range guesses {
					if (g.symbol == s) != (g.right == 1) {
						return t.FailAt(g.line, "the guess of %d was said to be right: %v; the secret is %d", g.symbol, g.right == 1, s)
					}
				}
				flips, guesses = flips[:0], guesses[:0]
			case EventScore:
				if i == 0 || ev[i-1].Kind != EventGuess || ev[i-1].Seat != x.Seat {
					return t.Fail("a Guess score not after the seat's guess")
				}
				want := -2
				switch {
				case ev[i-1].Count == 1:
					want = 5
				case t.Option("wrong") == "out":
					want = -1
				}
				return scoreIs(t, x, want)
			}
			return nil
		},
		Accepted: func(a *Action, ev []Event) {
			round := slices.ContainsFunc(ev, func(e Event) bool { return e.Kind == EventRound })
			if a.Kind == ActionTick || round {
				start = a.At
			}
			if round {
				since = t.Version()
			}
		},
		Deadline: func() int64 { return start + int64(t.OptionInt("interval")) },
		Lenient:  func(a *Action) bool { return a.Kind == ActionGuess && a.Version >= since && a.Version < t.Version() },
		Scores:   func() ([]int, string) { return PerSeat(t, t.Tally), "" },
	}
}
