package rules

import (
	"errors"
	"fmt"
	"slices"
)

// The Poisoned Gift (RULES.md §3.4), also Symbiont.
//
// Setup: shuffle; one card to each seat (dealt face down and flipped by
// everyone at once, so online it is face up from the start); the rest form a
// face-up pile in the centre. Play: the first seat to name the symbol shared
// by the centre card and another seat's top card puts the centre card on
// that seat's pile (the "poisoned gift"), where it becomes that seat's top
// card; the next centre card shows. The claimant's own card plays no part,
// and it may not be the one matched: a claim naming the claimant's own pile
// is refused with CodeBadTarget. End: the centre pile is empty. Score: cards
// held; fewest cards wins.
//
// A session's scoring (RULES.md §5: +20 for the fewest cards and +10 for the
// second fewest, or a point lost per card received) reads the cards held
// from the scores and the order from the ranking; the cards a seat received
// are its score less the one card it was dealt.
//
// Table: zone 0 is the centre pile, zone 1+i is seat i's pile; both show
// their top card. A claim names one target: the pile of the seat receiving
// the gift.

func init() { Register(poisonedGift{}) }

// poisonedGift implements Game for the Poisoned Gift.
type poisonedGift struct{}

// giftCentre is the centre pile's zone; seat i's pile is zone giftPile(i).
const giftCentre = 0

// giftPile returns the zone of seat's pile.
func giftPile(seat int) int { return 1 + seat }

// giftInfo is the Poisoned Gift's description.
var giftInfo = Info{
	Claim: &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZoneCentre}, Whose: Shared}}, Targets: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Others}}},
	Points: &Points{Score: giftPoints, Rule: "+20 to the winner, +10 to the second",
		NewScoring: "−1 a card received, each place losing at least 2, 3, 4… more than the place before"},
	Name:       "poisoned-gift",
	Aliases:    []string{"symbiont"},
	Title:      "The Poisoned Gift",
	Section:    "docs/RULES.md §3.4",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: false,
	Targets:    1,
	Record:     ScoreCardsIn(1, ZonePile),
}

// Info describes the Poisoned Gift: 2 to 8 players, cards held, fewest
// wins, one target (the receiving seat's pile).
func (poisonedGift) Info() Info { return giftInfo }

// Setup deals one card to each seat and the rest, shuffled, to the centre.
func (poisonedGift) Setup(s *State) error {
	p := s.Players()
	if s.cards.Len() < p+1 {
		return &ConfigError{Game: giftInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; the Poisoned Gift needs one card per player plus at least one for the centre (%d or more)",
			s.cards.Len(), p, p+1)}
	}
	s.addZone(ZoneCentre, NoSeat, ShowTop)
	for i := 0; i < p; i++ {
		s.addZone(ZonePile, i, ShowTop)
	}
	s.dealAll(giftCentre)
	for i := 0; i < p; i++ {
		s.take(giftCentre, giftPile(i))
	}
	return nil
}

// Check refuses a target that is not another seat's pile and a symbol that
// is not on both the centre card and the target's top card.
func (poisonedGift) Check(s *State, a *Action) *Refusal {
	z := a.Target.At(0)
	if z == giftPile(a.Seat) {
		return refuse(CodeBadTarget, a, "that is your own pile; the gift goes to another player")
	}
	if z == giftCentre {
		return refuse(CodeBadTarget, a, "name another player's pile, not the centre")
	}
	// While the game runs the centre and every pile hold a card.
	x := s.cards
	if !x.Has(s.top(giftCentre), a.Symbol) || !x.Has(s.top(z), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply moves the centre card onto the target pile and ends the game when
// the centre is empty.
func (poisonedGift) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	ev = s.move(ev, a.Seat, giftCentre, a.Target.At(0))
	if s.count(giftCentre) == 0 {
		ev = s.finish(ev)
	}
	return ev
}

// Moves appends, for every other seat, the claim of the symbol shared by
// the centre card and that seat's top card.
func (poisonedGift) Moves(s *State, seat int, dst []Action) []Action {
	centre := s.top(giftCentre)
	for i := range s.seats {
		if i != seat {
			dst = s.appendClaims(dst, seat, oneTarget(giftPile(i)), centre, s.top(giftPile(i)))
		}
	}
	return dst
}

// oneTarget returns the target list of zone z alone. It is To(z) without
// the variadic slice, for the Moves of games whose claims name one zone.
func oneTarget(z int) Targets { return Targets{n: 1, z: [MaxTargets]int32{int32(z)}} }

// Result scores each seat by the cards in its pile; fewest cards wins.
func (poisonedGift) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.count(giftPile(i))
	}
	return Rank(giftInfo.Unit, giftInfo.HigherWins, scores)
}

// Invariants checks the Poisoned Gift's table: the centre and one pile per
// seat, in that order, all showing their top card; every pile holds at
// least its first card; the game is over exactly when the centre is empty.
func (poisonedGift) Invariants(s *State) error {
	if s.Zones() != 1+s.Players() {
		return fmt.Errorf("%d zones, want %d", s.Zones(), 1+s.Players())
	}
	if z := s.zones[giftCentre]; z.Kind != ZoneCentre || z.Seat != NoSeat || z.Show != ShowTop {
		return errors.New("zone 0 is not the face-up centre")
	}
	for i := 0; i < s.Players(); i++ {
		z := s.zones[giftPile(i)]
		if z.Kind != ZonePile || z.Seat != i || z.Show != ShowTop {
			return fmt.Errorf("zone %d is not seat %d's face-up pile", giftPile(i), i)
		}
		if len(z.cards) == 0 {
			return fmt.Errorf("seat %d has no card", i)
		}
	}
	if s.over != (s.count(giftCentre) == 0) {
		return fmt.Errorf("over = %v with %d cards in the centre", s.over, s.count(giftCentre))
	}
	return nil
}

// CanMove reports whether seat has a claim: whether the centre card shares a symbol with another seat's top card.
func (poisonedGift) CanMove(s *State, seat int) bool {
	centre := s.top(giftCentre)
	for i := range s.seats {
		if i != seat && s.share(centre, s.top(giftPile(i))) {
			return true
		}
	}
	return false
}

// PickMove picks one of seat's claims at random, each equally likely.
func (poisonedGift) PickMove(s *State, seat int, r Rand, a *Action) bool {
	var zbuf, cbuf [DobbleMaxPlayers]int32
	zones, cards := zbuf[:0], cbuf[:0]
	for i := range s.seats {
		if i != seat {
			zones, cards = append(zones, int32(giftPile(i))), append(cards, int32(s.top(giftPile(i))))
		}
	}
	return s.pickAgainst(a, seat, s.top(giftCentre), zones, cards, r)
}

// Movers returns the seats that have a claim: every seat when two piles
// share a symbol with the centre card, every seat but the owner when one
// does, none otherwise.
func (poisonedGift) Movers(s *State) uint64 {
	centre := s.top(giftCentre)
	n, last := 0, 0
	for i := range s.seats {
		if s.share(centre, s.top(giftPile(i))) {
			n, last = n+1, i
		}
	}
	switch n {
	case 0:
		return 0
	case 1:
		return s.everyone(true) &^ (1 << last)
	}
	return s.everyone(true)
}

// giftPoints scores the Poisoned Gift in tournament points: +20 to the
// winner, +10 to second place; or, with the new scoring, minus the cards
// received (cards held less the one dealt), each place losing at least k
// more than the place before it, k being 2 for the second place, 3 for
// the third and so on.
func giftPoints(o *Outcome, newScoring bool) []int {
	pts := make([]int, len(o.Places))
	if !newScoring {
		o.AddAtPlace(1, 20, pts)
		o.AddAtPlace(2, 10, pts)
		return pts
	}
	order := make([]int, len(o.Places))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return o.Places[a] - o.Places[b] })
	loss, step := 0, 1
	for k, seat := range order {
		received := o.Result.Scores[seat] - 1
		switch {
		case k == 0:
			loss = received
		case o.Places[seat] != o.Places[order[k-1]]:
			step++
			loss = max(received, loss+step)
		}
		pts[seat] = -loss
	}
	return pts
}
