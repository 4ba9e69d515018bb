package rules

import (
	"fmt"
	"math/bits"
	"slices"
)

// Collect the Symbols (RULES.md §4.6), the Russian sheet's extra game #11,
// «Собери символы».
//
// Setup: one token per symbol in the centre (per symbol shown on at least
// one card of the deck, so that every token can be taken); every card is
// dealt, shuffled, one at a time round the table, so the piles differ by
// one card at most. Each seat holds its pile face down and sees only its
// top card; nobody else sees it.
//
// Play, simultaneous: a claim names a symbol on the claimant's top card
// whose token is still in the centre, and takes that token (a symbol not
// on the card, or one whose token is gone, is a wrong claim). A seat may
// discard its top card at any time (ActionDiscard), face up onto its own
// discard pile, to see the next. With no cards left in its pile, it takes
// over another seat's discard pile (ActionTake naming it): the pile is
// turned over, so the card discarded first comes on top, and becomes the
// seat's pile. Some seat can always move: one with cards can discard, and
// when no seat has cards left every card is in a discard pile another seat
// can take.
//
// End: the last token is taken. Score: tokens; most wins.
//
// **Decision**: the game also ends when the tokens have stopped moving:
// after three times as many discards and takes in a row as there are cards
// in play (collectStall), none of them followed by a token taken
// (docs/RULES.md §4.6). The sheet ends the game only with the last token,
// which assumes that everyone plays: a token whose symbol is only on cards
// held by a player who does not (who left the table, or is too slow ever
// to act while others flip through their piles) would keep the others
// discarding and taking each other's piles forever. Three rounds of the
// whole deck are far more than a game of players who all play needs
// between two tokens (in simulated games between bots of one level, never
// more than two and a half), so the rule ends only a game that has
// stalled; the tokens left stay in the centre, and the scores are the
// tokens taken.
//
// Table: zone 2i is seat i's pile (only seat i sees its top card), zone
// 2i+1 its discard pile (its top card face up for everyone). A claim names
// no target; a take names the discard pile. The tokens still in the centre
// are in View.Extra (CollectView).

func init() { Register(collect{}) }

// collect implements Game for Collect the Symbols.
type collect struct{}

// ZoneDiscard is a seat's discard pile.
const ZoneDiscard ZoneKind = "discard"

// collectInfo is Collect the Symbols' description.
var collectInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}}},
	Name:       "collect-symbols",
	Aliases:    []string{"collect"},
	Title:      "Collect the Symbols",
	Section:    "docs/RULES.md §4.6",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "tokens",
	HigherWins: true,
	Acts:       []ActionKind{ActionClaim, ActionDiscard, ActionTake},
	Record:     &RecordRules{New: collectRecord},
}

// Info describes Collect the Symbols: 2 to 8 players, tokens, most wins;
// claims, discards and takes.
func (collect) Info() Info { return collectInfo }

// collectPile and collectDiscard return seat's pile and discard pile.
func collectPile(seat int) int    { return 2 * seat }
func collectDiscard(seat int) int { return 2*seat + 1 }

// collectStall is how many times the cards in play the discards and takes
// in a row, no token taken, that end the game (see the decision above).
const collectStall = 3

// collectExt is the centre's tokens, one bit per symbol still there, and
// the moves made since the last token was taken.
type collectExt struct {
	pool  []uint64
	left  int // tokens in the pool
	start int // tokens at setup
	quiet int // discards and takes since a token was last taken
	stall int // the quiet moves that end the game: collectStall × the cards
}

// CloneExtension returns a copy of the tokens.
func (e *collectExt) CloneExtension() Extension {
	c := *e
	c.pool = slices.Clone(e.pool)
	return &c
}

// EqualExtension reports whether the same tokens are left.
func (e *collectExt) EqualExtension(o Extension) bool {
	f := o.(*collectExt)
	return e.left == f.left && e.start == f.start && e.quiet == f.quiet && e.stall == f.stall && slices.Equal(e.pool, f.pool)
}

// has reports whether the token of symbol sym is in the pool.
func (e *collectExt) has(sym int) bool { return e.pool[sym>>6]>>(sym&63)&1 != 0 }

// CollectView is what View.Extra holds in Collect the Symbols.
type CollectView struct {
	// Tokens are the symbols whose tokens are still in the centre, in
	// increasing order.
	Tokens []int `json:"tokens"`
}

// Setup puts the tokens in the centre and deals every card.
func (collect) Setup(s *State) error {
	p, n := s.Players(), s.cards.Len()
	if n < p {
		return &ConfigError{Game: collectInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; Collect the Symbols deals every card and each player needs one at least (%d or more)", n, p, p)}
	}
	for i := range p {
		s.addZone(ZonePile, i, ShowOwnerTop)
		s.addZone(ZoneDiscard, i, ShowTop)
	}
	s.dealAll(collectPile(0))
	all := slices.Clone(s.zones[collectPile(0)].cards)
	s.zones[collectPile(0)].cards = s.zones[collectPile(0)].cards[:0]
	for k, c := range all {
		z := collectPile(k % p)
		s.zones[z].cards = append(s.zones[z].cards, c)
	}
	x := s.cards
	e := &collectExt{pool: make([]uint64, x.words)}
	for c := range n {
		for w := range x.words {
			e.pool[w] |= x.bits[c*x.words+w]
		}
	}
	for _, w := range e.pool {
		e.left += bits.OnesCount64(w)
	}
	e.start = e.left
	e.stall = collectStall * n
	s.SetExtension(e)
	return nil
}

// Refusal details of Collect the Symbols, fixed phrases.
const (
	collectEmpty     = "your pile is empty: take over another player's discard pile"
	collectNotOnTop  = "that symbol is not on your top card"
	collectTaken     = "that symbol's token has been taken"
	collectHaveCards = "you still have cards: take over a discard pile only when your pile is empty"
	collectNotPile   = "name another player's discard pile"
	collectNoCards   = "that discard pile is empty"
)

// Check refuses a claim of a symbol not on the claimant's top card or
// whose token is gone, a discard from an empty pile, and a take by a seat
// with cards or of anything but another seat's non-empty discard pile.
func (collect) Check(s *State, a *Action) *Refusal {
	pile := collectPile(a.Seat)
	switch a.Kind {
	case ActionClaim:
		top := s.top(pile)
		switch {
		case top < 0:
			return refuse(CodeNotNow, a, collectEmpty)
		case !s.cards.Has(top, a.Symbol):
			return refuse(CodeNotAMatch, a, collectNotOnTop)
		case !s.ext.(*collectExt).has(a.Symbol):
			return refuse(CodeNotAMatch, a, collectTaken)
		}
	case ActionDiscard:
		if s.count(pile) == 0 {
			return refuse(CodeNotNow, a, collectEmpty)
		}
	case ActionTake:
		z := &s.zones[a.Target.z[0]]
		switch {
		case s.count(pile) > 0:
			return refuse(CodeNotNow, a, collectHaveCards)
		case z.Kind != ZoneDiscard || z.Seat == a.Seat:
			return refuse(CodeBadTarget, a, collectNotPile)
		case len(z.cards) == 0:
			return refuse(CodeBadTarget, a, collectNoCards)
		}
	}
	return nil
}

// Apply takes the token, discards the top card or turns the discard pile
// over into the taker's pile; the game ends with the last token, or once
// the game has stalled (collectStall).
func (collect) Apply(s *State, a *Action, ev []Event) []Event {
	pile := collectPile(a.Seat)
	e := s.ext.(*collectExt)
	switch a.Kind {
	case ActionClaim:
		ev = claimed(ev, a)
		e.pool[a.Symbol>>6] &^= 1 << (a.Symbol & 63)
		e.left--
		e.quiet = 0
		s.seats[a.Seat].Tally++
		if e.left == 0 {
			ev = s.finish(ev)
		}
		return ev
	case ActionDiscard:
		ev = s.move(ev, a.Seat, pile, collectDiscard(a.Seat))
	case ActionTake:
		from := int(a.Target.z[0])
		for s.count(from) > 0 {
			ev = s.move(ev, a.Seat, from, pile)
		}
	}
	if e.quiet++; e.quiet >= e.stall {
		ev = s.finish(ev)
	}
	return ev
}

// Moves appends seat's claims (each symbol of its top card whose token is
// left, in increasing order), then its discard, or, with an empty pile,
// its takes of the other seats' discard piles in zone order.
func (collect) Moves(s *State, seat int, dst []Action) []Action {
	pile := collectPile(seat)
	if top := s.top(pile); top >= 0 {
		e := s.ext.(*collectExt)
		x := s.cards
		for w := range x.words {
			for m := x.bits[top*x.words+w] & e.pool[w]; m != 0; m &= m - 1 {
				dst = s.appendClaim(dst, seat, w<<6+bits.TrailingZeros64(m), &Targets{})
			}
		}
		return append(dst, Action{Kind: ActionDiscard, Seat: seat, Version: s.version})
	}
	for i := range s.seats {
		if z := collectDiscard(i); i != seat && s.count(z) > 0 {
			dst = append(dst, Action{Kind: ActionTake, Seat: seat, Target: oneTarget(z), Version: s.version})
		}
	}
	return dst
}

// CanMove reports whether seat can discard (it has cards) or take a
// discard pile.
func (collect) CanMove(s *State, seat int) bool {
	if s.count(collectPile(seat)) > 0 {
		return true
	}
	for i := range s.seats {
		if i != seat && s.count(collectDiscard(i)) > 0 {
			return true
		}
	}
	return false
}

// Movers returns the seats that can move, asking CanMove seat by seat.
func (g collect) Movers(s *State) uint64 { return s.seatsWhere(g) }

// PickMove picks one of seat's claims at random, each equally likely; with
// none, its discard, or its first take.
func (collect) PickMove(s *State, seat int, r Rand, a *Action) bool {
	pile := collectPile(seat)
	top := s.top(pile)
	if top < 0 {
		for i := range s.seats {
			if z := collectDiscard(i); i != seat && s.count(z) > 0 {
				a.Kind, a.Seat, a.Symbol, a.Version, a.At = ActionTake, seat, 0, s.version, 0
				a.Target = oneTarget(z)
				return true
			}
		}
		return false
	}
	e := s.ext.(*collectExt)
	x := s.cards
	n := 0
	for w := range x.words {
		n += bits.OnesCount64(x.bits[top*x.words+w] & e.pool[w])
	}
	if n == 0 {
		a.Kind, a.Seat, a.Symbol, a.Version, a.At = ActionDiscard, seat, 0, s.version, 0
		a.Target = Targets{}
		return true
	}
	k := 0
	if n > 1 {
		k = r.IntN(n)
	}
	for w := range x.words {
		for m := x.bits[top*x.words+w] & e.pool[w]; m != 0; m &= m - 1 {
			if k == 0 {
				s.setClaim(a, seat, w<<6+bits.TrailingZeros64(m), &Targets{})
				return true
			}
			k--
		}
	}
	panic("rules: collect-symbols: claim out of range")
}

// Result scores each seat by its tokens; most wins.
func (collect) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank(collectInfo.Unit, collectInfo.HigherWins, scores)
}

// ViewExtra lists the tokens left in the centre, which everyone sees.
func (collect) ViewExtra(s *State, seat int) any {
	e := s.ext.(*collectExt)
	v := CollectView{Tokens: []int{}}
	for w, m := range e.pool {
		for ; m != 0; m &= m - 1 {
			v.Tokens = append(v.Tokens, w<<6+bits.TrailingZeros64(m))
		}
	}
	return v
}

// Invariants checks Collect the Symbols' table: a pile and a discard pile
// per seat; the tokens taken and left add up to those at setup; the game
// is over exactly when none is left or it has stalled.
func (collect) Invariants(s *State) error {
	if s.Zones() != 2*s.Players() {
		return fmt.Errorf("%d zones, want %d", s.Zones(), 2*s.Players())
	}
	for i := range s.seats {
		if z := s.zones[collectPile(i)]; z.Kind != ZonePile || z.Seat != i || z.Show != ShowOwnerTop {
			return fmt.Errorf("zone %d is not seat %d's pile", collectPile(i), i)
		}
		if z := s.zones[collectDiscard(i)]; z.Kind != ZoneDiscard || z.Seat != i || z.Show != ShowTop {
			return fmt.Errorf("zone %d is not seat %d's discard pile", collectDiscard(i), i)
		}
	}
	e := s.ext.(*collectExt)
	taken, left := 0, 0
	for _, seat := range s.seats {
		taken += seat.Tally
	}
	for _, w := range e.pool {
		left += bits.OnesCount64(w)
	}
	if left != e.left || taken+left != e.start {
		return fmt.Errorf("%d tokens taken and %d left (counted %d), %d at the start", taken, e.left, left, e.start)
	}
	if e.stall != collectStall*s.cards.Len() || e.quiet < 0 || e.quiet > e.stall {
		return fmt.Errorf("%d quiet moves of %d, with %d cards", e.quiet, e.stall, s.cards.Len())
	}
	if s.over != (left == 0 || e.quiet == e.stall) {
		return fmt.Errorf("over = %v with %d tokens left after %d quiet moves of %d", s.over, left, e.quiet, e.stall)
	}
	return nil
}

// NewViewExtra returns a new CollectView to decode a view's extra into.
func (collect) NewViewExtra() any { return new(CollectView) }

// NewPlayer returns a Collect the Symbols player: it takes a token its top
// card shows, else discards the card, and with an empty pile takes
// another seat's discards.
func (collect) NewPlayer() Player { return collectPlayer{} }

// collectPlayer is the Player of Collect the Symbols.
type collectPlayer struct{}

func (collectPlayer) Reset()              {}
func (collectPlayer) Observe(*View)       {}
func (collectPlayer) Sent(*View, *Action) {}

func (collectPlayer) Decide(v *View, a *Action) bool {
	x, _ := v.Extra.(CollectView)
	me := v.Seat
	own := -1
	for i, z := range v.Zones {
		if z.Kind == ZonePile && z.Seat == me {
			own = i
		}
	}
	if own < 0 {
		return false
	}
	if top := v.Top(own); top != nil {
		*a = Action{Kind: ActionDiscard, Seat: me}
		if s := commonSymbol(top, x.Tokens); s >= 0 {
			*a = Action{Kind: ActionClaim, Seat: me, Symbol: s}
		}
		return true
	}
	for i, z := range v.Zones {
		if z.Kind == ZoneDiscard && z.Seat != me && z.Count > 0 {
			*a = Action{Kind: ActionTake, Seat: me, Target: To(i)}
			return true
		}
	}
	return false
}

// collectRecord is how a record of Collect the Symbols is checked: each
// symbol's token is taken once, by the claim naming it; each seat scores
// its claims.
func collectRecord(t RecordTable) *RecordHooks {
	tokens := make([]bool, t.Symbols()) // the tokens left in the centre
	for z := range t.Zones() {
		_, _, cards := t.Zone(z)
		for _, c := range cards {
			for s := range tokens {
				tokens[s] = tokens[s] || t.Has(c, s)
			}
		}
	}
	return &RecordHooks{
		Event: func(_ *Action, ev []Event, i int) error {
			if x := &ev[i]; x.Kind == EventClaim {
				if !tokens[x.Symbol] {
					return t.Fail("symbol %d's token was taken before", x.Symbol)
				}
				tokens[x.Symbol] = false
			}
			return nil
		},
		Scores: func() ([]int, string) { return PerSeat(t, t.Claims), "" },
	}
}
