package rules

import (
	"errors"
	"fmt"
)

// The duel (RULES.md §2.4, ties at the end of a mini-game): the tie-break
// of two tied players, playable on its own as well. Each draws one card and
// both are revealed at once (online they are face up from the start); the
// first to name the symbol the two cards share wins, taking the other's
// card. One accepted claim ends it, so a duel never ties. Any two cards may
// be drawn, so the game refuses a card source in which two cards share
// nothing (Index.Apart); every deck of package deck passes. Score: cards held
// (2 for the winner, 0 for the loser).
//
// Table: zone 0 is the face-down stock (the rest of the deck, untouched),
// zone 1+i is seat i's card. A claim names no target.

func init() { Register(duel{}) }

// duel implements Game for the duel.
type duel struct{}

// duelStock is the zone of the cards nobody drew; seat i's card is in zone
// duelPile(i).
const duelStock = 0

// duelPile returns the zone of seat's card.
func duelPile(seat int) int { return 1 + seat }

// duelInfo is the duel's description.
var duelInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}, {Kinds: []ZoneKind{ZonePile}, Whose: Others}}},
	NoAutoPick: true,
	Name:       "duel",
	Title:      "Duel",
	Section:    "docs/RULES.md §2.4",
	MinPlayers: 2,
	MaxPlayers: 2,
	Unit:       "cards",
	HigherWins: true,
	Targets:    0,
	Record:     ScoreCardsIn(1, ZonePile),
}

// Info describes the duel: exactly two players, cards held, most wins, no
// target.
func (duel) Info() Info { return duelInfo }

// Setup shuffles the deck into the stock and draws one card for each seat.
func (duel) Setup(s *State) error {
	if s.cards.Len() < 2 {
		return &ConfigError{Game: duelInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d card; a duel needs at least 2 (one for each player)", s.cards.Len())}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: duelInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; a duel needs a deck in which every two cards share one, as every Dobble deck does",
			i, j)}
	}
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZonePile, 0, ShowTop)
	s.addZone(ZonePile, 1, ShowTop)
	s.dealAll(duelStock)
	s.take(duelStock, duelPile(0))
	s.take(duelStock, duelPile(1))
	return nil
}

// Check refuses a symbol that is not on both drawn cards.
func (duel) Check(s *State, a *Action) *Refusal {
	x := s.cards
	if !x.Has(s.top(duelPile(0)), a.Symbol) || !x.Has(s.top(duelPile(1)), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply gives the other seat's card to the claimant and ends the duel.
func (duel) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	ev = s.move(ev, a.Seat, duelPile(1-a.Seat), duelPile(a.Seat))
	return s.finish(ev)
}

// Moves appends the claim of the symbol the two drawn cards share.
func (duel) Moves(s *State, seat int, dst []Action) []Action {
	return s.appendClaims(dst, seat, Targets{}, s.top(duelPile(0)), s.top(duelPile(1)))
}

// Result scores each seat by the cards it holds: one each while the duel
// runs (a tie), two for the winner and none for the loser once it is over.
func (duel) Result(s *State) *Result {
	scores := [2]int{s.count(duelPile(0)), s.count(duelPile(1))}
	return Rank(duelInfo.Unit, duelInfo.HigherWins, scores[:])
}

// Invariants checks the duel's table: the stock and two piles, in that
// order; the stock keeps every card nobody drew; each seat holds its card
// while the duel runs, and the winner holds both once it is over.
func (duel) Invariants(s *State) error {
	if s.Zones() != 3 {
		return fmt.Errorf("%d zones, want 3", s.Zones())
	}
	if z := s.zones[duelStock]; z.Kind != ZoneStock || z.Seat != NoSeat || z.Show != ShowHidden {
		return errors.New("zone 0 is not the face-down stock")
	}
	if n := s.count(duelStock); n != s.cards.Len()-2 {
		return fmt.Errorf("the stock holds %d cards, want %d", n, s.cards.Len()-2)
	}
	for i := 0; i < 2; i++ {
		if z := s.zones[duelPile(i)]; z.Kind != ZonePile || z.Seat != i || z.Show != ShowTop {
			return fmt.Errorf("zone %d is not seat %d's face-up card", duelPile(i), i)
		}
	}
	a, b := s.count(duelPile(0)), s.count(duelPile(1))
	if s.over && !(a == 2 && b == 0 || a == 0 && b == 2) || !s.over && (a != 1 || b != 1) {
		return fmt.Errorf("over = %v with %d and %d cards in the seats' piles", s.over, a, b)
	}
	return nil
}

// CanMove reports whether seat has a claim: whether the two cards share a symbol, whoever the seat.
func (duel) CanMove(s *State, seat int) bool {
	return s.share(s.top(duelPile(0)), s.top(duelPile(1)))
}

// PickMove picks one of seat's claims at random, each equally likely.
func (duel) PickMove(s *State, seat int, r Rand, a *Action) bool {
	return s.pickShared(a, seat, Targets{}, s.top(duelPile(0)), s.top(duelPile(1)), r)
}

// Movers returns both seats when the two top cards share a symbol.
func (g duel) Movers(s *State) uint64 { return s.everyone(g.CanMove(s, 0)) }
