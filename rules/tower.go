package rules

import (
	"errors"
	"fmt"
)

// The Tower (RULES.md §3.1), also Infernal Tower and Bank Heist.
//
// Setup: shuffle; one card to each seat (the rules deal it face down and
// everyone flips it at once, so online it is face up from the start); the
// rest form a face-up pile in the centre. Play: the first seat to name the
// symbol shared by its own top card and the centre's top card takes the
// centre card onto its own pile, where it becomes that seat's new top card.
// End: the centre pile is empty. Score: cards held; most cards wins.
//
// Table: zone 0 is the centre pile, zone 1+i is seat i's pile. A claim names
// no target.

func init() { Register(tower{}) }

// tower implements Game for the Tower.
type tower struct{}

// towerCentre is the centre pile's zone; seat i's pile is zone towerPile(i).
const towerCentre = 0

// towerPile returns the zone of seat's pile.
func towerPile(seat int) int { return 1 + seat }

// towerInfo is the Tower's description.
var towerInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}, {Kinds: []ZoneKind{ZoneCentre}, Whose: Shared}}},
	Points:     &Points{Score: perScorePoints(1, 1, 5), Rule: "+1 a card won, +5 to the winner"},
	Name:       "tower",
	Aliases:    []string{"infernal-tower", "bank-heist"},
	Title:      "The Tower",
	Section:    "docs/RULES.md §3.1",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: true,
	Targets:    0,
	Record:     ScoreCardsIn(1, ZonePile),
}

// Info describes the Tower: 2 to 8 players, cards held, most wins, no target.
func (tower) Info() Info { return towerInfo }

// Setup deals one card to each seat and the rest, shuffled, to the centre.
func (tower) Setup(s *State) error {
	p := s.Players()
	if s.cards.Len() < p+1 {
		return &ConfigError{Game: towerInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; the Tower needs one card per player plus at least one for the centre (%d or more)",
			s.cards.Len(), p, p+1)}
	}
	s.addZone(ZoneCentre, NoSeat, ShowTop)
	for i := 0; i < p; i++ {
		s.addZone(ZonePile, i, ShowTop)
	}
	s.dealAll(towerCentre)
	for i := 0; i < p; i++ {
		s.take(towerCentre, towerPile(i))
	}
	return nil
}

// Check refuses a symbol that is not on both the seat's top card and the
// centre's top card.
func (tower) Check(s *State, a *Action) *Refusal {
	// The engine has checked the seat, the symbol's range and the version;
	// while the game runs the centre and every pile hold a card.
	x := s.cards
	if !x.Has(s.top(towerPile(a.Seat)), a.Symbol) || !x.Has(s.top(towerCentre), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply moves the centre's top card onto the claimant's pile and ends the
// game when the centre is empty.
func (tower) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	ev = s.move(ev, a.Seat, towerCentre, towerPile(a.Seat))
	if s.count(towerCentre) == 0 {
		ev = s.finish(ev)
	}
	return ev
}

// Moves appends the claim of the symbol shared by the seat's top card and
// the centre's top card.
func (tower) Moves(s *State, seat int, dst []Action) []Action {
	return s.appendClaims(dst, seat, Targets{}, s.top(towerPile(seat)), s.top(towerCentre))
}

// Result scores each seat by the cards in its pile; most cards wins.
func (tower) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.count(towerPile(i))
	}
	return Rank(towerInfo.Unit, towerInfo.HigherWins, scores)
}

// Invariants checks the Tower's table: the centre and one pile per seat, in
// that order; every pile holds at least its first card; the game is over
// exactly when the centre is empty.
func (tower) Invariants(s *State) error {
	if s.Zones() != 1+s.Players() {
		return fmt.Errorf("%d zones, want %d", s.Zones(), 1+s.Players())
	}
	if z := s.zones[towerCentre]; z.Kind != ZoneCentre || z.Seat != NoSeat {
		return errors.New("zone 0 is not the centre")
	}
	for i := 0; i < s.Players(); i++ {
		z := s.zones[towerPile(i)]
		if z.Kind != ZonePile || z.Seat != i {
			return fmt.Errorf("zone %d is not seat %d's pile", towerPile(i), i)
		}
		if len(z.cards) == 0 {
			return fmt.Errorf("seat %d has no card", i)
		}
	}
	if s.over != (s.count(towerCentre) == 0) {
		return fmt.Errorf("over = %v with %d cards in the centre", s.over, s.count(towerCentre))
	}
	return nil
}

// CanMove reports whether seat has a claim: whether its top card and the centre's share a symbol.
func (tower) CanMove(s *State, seat int) bool {
	return s.share(s.top(towerPile(seat)), s.top(towerCentre))
}

// PickMove picks one of seat's claims at random, each equally likely.
func (tower) PickMove(s *State, seat int, r Rand, a *Action) bool {
	return s.pickShared(a, seat, Targets{}, s.top(towerPile(seat)), s.top(towerCentre), r)
}

// Movers returns the seats whose top card shares a symbol with the
// centre's.
func (tower) Movers(s *State) uint64 {
	return s.sharingWith(s.top(towerCentre), towerPile(0))
}
