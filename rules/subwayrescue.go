package rules

import (
	"fmt"
	"math/bits"
)

// Subway Rescue (RULES.md §3.7), «Ratunek w metrze».
//
// Setup: shuffle; one card to each seat (dealt face down and flipped at
// once, so online face up from the start); the rest split into 4 piles as
// equal as can be (the first piles take one card more when the split is
// uneven), face down in a row; the first pile is laid out face up, every
// card visible. Play: the first seat to name the symbol shared by its own
// top card and any laid-out card takes that card onto its own pile, where
// it becomes the seat's new top card. When the laid-out cards are gone,
// every seat turns its pile over and shuffles it (with the game's seeded
// source, seat 0 first), which gives it a new top card, and the next pile
// is laid out: one round per pile. End: the fourth pile's cards are all
// taken. Score: cards held; most cards wins.
//
// A laid-out card can never be left stranded: any two cards of a deck of
// package deck share a symbol, so every seat's top card matches every
// laid-out card and every seat always has one claim per laid-out card.
// The game relies on that and refuses a card source in which two cards
// share nothing (Index.Apart).
//
// Table: zones 0 to 3 are the four piles (hidden), in the order they are
// laid out; zone 4+i is seat i's pile; zones from 4+players on are the
// layout, one zone per card of the largest pile, each holding one card or
// none. Pile k is laid out into the layout zones in order, its top card
// first. A claim names one layout zone. State rounds count the piles laid
// out, 1 to 4; each new pile emits an EventRound.

func init() { Register(subwayRescue{}) }

// subwayRescue implements Game for Subway Rescue.
type subwayRescue struct{}

// ZoneLayout is a place in a row of face-up cards laid out for the
// taking, in Subway Rescue.
const ZoneLayout ZoneKind = "layout"

// subwayPiles is the number of piles the deck is split into.
const subwayPiles = 4

// subwayPile returns the zone of seat's own pile.
func subwayPile(seat int) int { return subwayPiles + seat }

// subwayLayout returns the zone of the first layout place in a game of p
// players.
func subwayLayout(p int) int { return subwayPiles + p }

// subwaySplit returns the size of pile k when the cards left after dealing
// one to each of p seats are split into subwayPiles piles.
func subwaySplit(n, p, k int) int {
	r := n - p
	if k < r%subwayPiles {
		return r/subwayPiles + 1
	}
	return r / subwayPiles
}

// subwayInfo is Subway Rescue's description.
var subwayInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}}, Targets: []Place{{Kinds: []ZoneKind{ZoneLayout}, Whose: Shared}}},
	Points:     &Points{Score: perScorePoints(1, 1, 5), Rule: "+1 a card won, +5 to the winner"},
	Name:       "subway-rescue",
	Title:      "Subway Rescue",
	Section:    "docs/RULES.md §3.7",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: true,
	Targets:    1,
	Record:     ScoreCardsIn(1, ZonePile),
}

// Info describes Subway Rescue: 2 to 8 players, cards held, most wins, one
// target (a laid-out card).
func (subwayRescue) Info() Info { return subwayInfo }

// Setup deals one card to each seat, splits the rest into the four piles
// and lays out the first. It refuses a deck too small for a card per seat
// and one per pile, and a card source with two cards that share no symbol.
func (subwayRescue) Setup(s *State) error {
	p, n := s.Players(), s.cards.Len()
	if n < p+subwayPiles {
		return &ConfigError{Game: subwayInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; Subway Rescue needs one card per player and at least one for each of the %d piles (%d or more)",
			n, p, subwayPiles, p+subwayPiles)}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: subwayInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; Subway Rescue needs a deck in which every two cards share one, as every Dobble deck does",
			i, j)}
	}
	slots := subwaySplit(n, p, 0)
	s.reserve(subwayPiles+p+slots, (subwayPiles+p)*n+slots)
	for k := 0; k < subwayPiles; k++ {
		s.addZone(ZoneStock, NoSeat, ShowHidden)
	}
	for i := 0; i < p; i++ {
		s.addZone(ZonePile, i, ShowTop)
	}
	for j := 0; j < slots; j++ {
		s.addSlot(ZoneLayout, NoSeat, ShowAll)
	}
	s.dealAll(0)
	for i := 0; i < p; i++ {
		s.take(0, subwayPile(i))
	}
	for k := subwayPiles - 1; k > 0; k-- {
		for c := subwaySplit(n, p, k); c > 0; c-- {
			s.take(0, k)
		}
	}
	for z := subwayLayout(p); s.count(0) > 0; z++ {
		s.take(0, z)
	}
	s.round = 1
	return nil
}

// Check refuses a target that is not a layout place, or one whose card is
// gone, and a symbol not on both that card and the seat's top card.
func (subwayRescue) Check(s *State, a *Action) *Refusal {
	z := int(a.Target.z[0])
	if z < subwayLayout(s.Players()) {
		return refuse(CodeBadTarget, a, "name one of the laid-out cards")
	}
	c := s.top(z)
	if c < 0 {
		return refuse(CodeBadTarget, a, "that card has already been taken")
	}
	if !s.cards.Has(c, a.Symbol) || !s.cards.Has(s.top(subwayPile(a.Seat)), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply moves the named card onto the claimant's pile. When the layout is
// empty it ends the game after the fourth pile; otherwise every seat
// shuffles its pile and the next pile is laid out.
func (subwayRescue) Apply(s *State, a *Action, ev []Event) []Event {
	p := s.Players()
	first := subwayLayout(p)
	ev = claimed(ev, a)
	ev = s.move(ev, a.Seat, int(a.Target.z[0]), subwayPile(a.Seat))
	for z := first; z < len(s.zones); z++ {
		if len(s.zones[z].cards) > 0 {
			return ev
		}
	}
	if s.round == subwayPiles {
		return s.finish(ev)
	}
	for i := 0; i < p; i++ {
		ev = s.shuffle(ev, subwayPile(i))
	}
	next := s.round
	s.round++
	ev = appendEvent(ev, EventRound, NoSeat, -1, -1, 0, -1, -1)
	ev[len(ev)-1].Round = s.round
	for z := first; s.count(next) > 0; z++ {
		ev = s.move(ev, NoSeat, next, z)
	}
	return ev
}

// Moves appends, for every laid-out card, the claim of each symbol it
// shares with the seat's top card (one, with a deck of package deck).
func (subwayRescue) Moves(s *State, seat int, dst []Action) []Action {
	x := s.cards
	own := s.top(subwayPile(seat))
	for z := subwayLayout(s.Players()); z < len(s.zones); z++ {
		c := s.zones[z].cards
		if len(c) == 0 {
			continue
		}
		t := Targets{n: 1, z: [MaxTargets]int32{int32(z)}}
		if x.words == 1 { // one word per card: the common symbols directly
			for m := x.bits[own] & x.bits[c[0]]; m != 0; m &= m - 1 {
				dst = s.appendClaim(dst, seat, bits.TrailingZeros64(m), &t)
			}
			continue
		}
		dst = s.appendClaims(dst, seat, t, own, int(c[0]))
	}
	return dst
}

// Result scores each seat by the cards in its pile; most cards wins.
func (subwayRescue) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.count(subwayPile(i))
	}
	return Rank(subwayInfo.Unit, subwayInfo.HigherWins, scores)
}

// Invariants checks Subway Rescue's table: the four piles, the seats'
// piles and the layout, in that order; every seat holds at least its first
// card; the piles not yet laid out keep the size of the split and the ones
// laid out are empty; each layout place holds at most one card, and the
// layout is empty exactly when the game is over, after the fourth pile.
func (subwayRescue) Invariants(s *State) error {
	p, n := s.Players(), s.cards.Len()
	slots := subwaySplit(n, p, 0)
	if s.Zones() != subwayPiles+p+slots {
		return fmt.Errorf("%d zones, want %d", s.Zones(), subwayPiles+p+slots)
	}
	if s.round < 1 || s.round > subwayPiles {
		return fmt.Errorf("round %d outside 1..%d", s.round, subwayPiles)
	}
	for k := 0; k < subwayPiles; k++ {
		z := s.zones[k]
		if z.Kind != ZoneStock || z.Seat != NoSeat || z.Show != ShowHidden {
			return fmt.Errorf("zone %d is not a hidden pile", k)
		}
		want := subwaySplit(n, p, k)
		if k < s.round {
			want = 0
		}
		if len(z.cards) != want {
			return fmt.Errorf("round %d: pile %d holds %d cards, want %d", s.round, k, len(z.cards), want)
		}
	}
	for i := 0; i < p; i++ {
		z := s.zones[subwayPile(i)]
		if z.Kind != ZonePile || z.Seat != i || z.Show != ShowTop {
			return fmt.Errorf("zone %d is not seat %d's pile", subwayPile(i), i)
		}
		if len(z.cards) == 0 {
			return fmt.Errorf("seat %d has no card", i)
		}
	}
	laid := 0
	for z := subwayLayout(p); z < s.Zones(); z++ {
		zone := s.zones[z]
		if zone.Kind != ZoneLayout || zone.Seat != NoSeat || zone.Show != ShowAll || len(zone.cards) > 1 {
			return fmt.Errorf("zone %d is not a layout place holding at most one card", z)
		}
		laid += len(zone.cards)
	}
	if s.over != (laid == 0) || s.over && s.round != subwayPiles {
		return fmt.Errorf("over = %v in round %d with %d cards laid out", s.over, s.round, laid)
	}
	return nil
}

// CanMove reports whether seat has a claim: whether its top card shares a symbol with a card of the layout.
func (subwayRescue) CanMove(s *State, seat int) bool {
	own := s.top(subwayPile(seat))
	for z := subwayLayout(s.Players()); z < len(s.zones); z++ {
		if c := s.zones[z].cards; len(c) > 0 && s.share(own, int(c[0])) {
			return true
		}
	}
	return false
}

// PickMove picks one of seat's claims at random, each equally likely.
func (subwayRescue) PickMove(s *State, seat int, r Rand, a *Action) bool {
	first := subwayLayout(s.Players())
	if x := s.cards; x.words == 1 {
		// One word per card: the symbols each laid-out card shares with
		// the seat's, counted in one pass without a branch per place, then
		// read again up to the one drawn.
		own := x.bits[s.top(subwayPile(seat))]
		total := 0
		for z := first; z < len(s.zones); z++ {
			total += bits.OnesCount64(own & subwaySlotBits(s, z))
		}
		if total == 0 {
			return false
		}
		n := 0
		if total > 1 {
			n = r.IntN(total)
		}
		for z := first; z < len(s.zones); z++ {
			m := own & subwaySlotBits(s, z)
			if c := bits.OnesCount64(m); n >= c {
				n -= c
				continue
			}
			for ; n > 0; n-- {
				m &= m - 1
			}
			t := oneTarget(z)
			s.setClaim(a, seat, bits.TrailingZeros64(m), &t)
			return true
		}
		panic("rules: subway-rescue: claim out of range")
	}
	var zbuf, cbuf [32]int32
	zones, cards := zbuf[:0], cbuf[:0]
	for z := first; z < len(s.zones); z++ {
		if c := s.zones[z].cards; len(c) > 0 {
			zones, cards = append(zones, int32(z)), append(cards, c[0])
		}
	}
	return s.pickAgainst(a, seat, s.top(subwayPile(seat)), zones, cards, r)
}

// subwaySlotBits returns the symbols of the card in layout place z, a deck
// of one word per card, or none when the place is empty. A place holds one
// card at most and has room for one (addSlot), so it reads that room and
// masks it by the count instead of branching on it: the places empty in an
// order no branch predictor follows.
func subwaySlotBits(s *State, z int) uint64 {
	c := s.zones[z].cards
	if cap(c) == 0 {
		return 0
	}
	return s.cards.bits[c[:1][0]] & -uint64(len(c))
}

// Movers returns the seats whose top card shares a symbol with a card of
// the layout.
func (g subwayRescue) Movers(s *State) uint64 {
	x := s.cards
	if x.words != 1 {
		var set uint64
		for i := range s.seats {
			if g.CanMove(s, i) {
				set |= 1 << i
			}
		}
		return set
	}
	// One word per card: the symbols of the whole layout at once.
	var laid uint64
	for z := subwayLayout(s.Players()); z < len(s.zones); z++ {
		laid |= subwaySlotBits(s, z)
	}
	var set uint64
	for i := range s.seats {
		if x.bits[s.top(subwayPile(i))]&laid != 0 {
			set |= 1 << i
		}
	}
	return set
}
