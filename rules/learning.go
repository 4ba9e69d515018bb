package rules

import (
	"errors"
	"fmt"
)

// Learning mode (RULES.md §2.2, "Before you start"): two cards face up;
// whoever first names their common symbol takes them, and the next two are
// drawn. The rule sheets say "play as long as you like"; online the game
// ends when the stock has fewer than two cards left, or earlier when the
// "pairs" option sets how many pairs to find. Score: pairs won, one per
// correct claim; most pairs wins.
//
// Any two cards may end up side by side in the centre, so the game refuses
// a card source in which two cards share nothing (Index.Apart): such a pair
// could never be claimed. Every deck of package deck passes.
//
// It is the one game playable alone (one to eight seats): learning mode is
// practice at spotting the match, which needs no opponent, and it is the
// game a newcomer plays by themselves or with bots before a session.
//
// Table: zone 0 is the face-down stock, zone 1 the centre (both cards face
// up, bottom and top), zone 2+i the pairs seat i has won (the last one face
// up). A claim names no target.

func init() { Register(learning{}) }

// learning implements Game for learning mode.
type learning struct{}

// The zones of learning mode; seat i's won pairs are zone learningWon(i).
const (
	learningStock  = 0
	learningCentre = 1
)

// learningWon returns the zone of the pairs seat has won.
func learningWon(seat int) int { return 2 + seat }

// learningPairs is the index of the "pairs" option in learningInfo.Options.
const learningPairs = 0

// learningInfo is learning mode's description.
var learningInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZoneCentre}, Whose: Shared, Every: true}}},
	Points:     &Points{Score: perScorePoints(1, 0, 0), Rule: "+1 a pair found"},
	NoAutoPick: true,
	Practice:   true,
	Name:       "learning",
	Aliases:    []string{"learning-mode", "before-you-start"},
	Title:      "Learning mode",
	Section:    "docs/RULES.md §2.2",
	MinPlayers: 1,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "pairs",
	HigherWins: true,
	Targets:    0,
	Options: []Option{{
		Name:    "pairs",
		Doc:     "Stop after this many pairs have been found; 0 plays on until the stock has fewer than two cards.",
		Min:     0,
		Max:     1_000_000,
		Default: "0",
	}},
	Record: &RecordRules{New: learningRecord},
}

// Info describes learning mode: one to eight players (alone is allowed,
// because learning mode is practice and needs no opponent), pairs won, most
// wins, no target, and the "pairs" option that stops the game after that
// many pairs.
func (learning) Info() Info { return learningInfo }

// Setup shuffles the deck into the stock and turns its top two cards face
// up in the centre.
func (learning) Setup(s *State) error {
	if s.cards.Len() < 2 {
		return &ConfigError{Game: learningInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d card; learning mode needs at least 2 (one pair in the centre)", s.cards.Len())}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: learningInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; learning mode needs a deck in which every two cards share one, as every Dobble deck does",
			i, j)}
	}
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZoneCentre, NoSeat, ShowAll)
	for i := 0; i < s.Players(); i++ {
		s.addZone(ZoneWon, i, ShowTop)
	}
	s.dealAll(learningStock)
	s.take(learningStock, learningCentre)
	s.take(learningStock, learningCentre)
	return nil
}

// learningPair returns the two centre cards.
func learningPair(s *State) (int, int) {
	c := s.zones[learningCentre].cards
	return int(c[0]), int(c[1])
}

// Check refuses a symbol that is not on both centre cards.
func (learning) Check(s *State, a *Action) *Refusal {
	x := s.cards
	i, j := learningPair(s)
	if !x.Has(i, a.Symbol) || !x.Has(j, a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply gives the centre pair to the claimant, then ends the game if the
// pair limit is reached or the stock has fewer than two cards, and
// otherwise turns the next two cards face up.
func (learning) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	ev = s.moveStack(ev, a.Seat, learningCentre, learningWon(a.Seat))
	limit := s.Option(learningPairs)
	if s.count(learningStock) < 2 || (limit > 0 && learningFound(s) >= limit) {
		return s.finish(ev)
	}
	ev = s.move(ev, NoSeat, learningStock, learningCentre)
	return s.move(ev, NoSeat, learningStock, learningCentre)
}

// learningFound returns the number of pairs found so far by all seats.
func learningFound(s *State) int {
	n := 0
	for i := 0; i < s.Players(); i++ {
		n += s.count(learningWon(i))
	}
	return n / 2
}

// Moves appends the claim of the symbol the two centre cards share.
func (learning) Moves(s *State, seat int, dst []Action) []Action {
	i, j := learningPair(s)
	return s.appendClaims(dst, seat, Targets{}, i, j)
}

// Result scores each seat by the pairs it has won; most pairs wins.
func (learning) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.count(learningWon(i)) / 2
	}
	return Rank(learningInfo.Unit, learningInfo.HigherWins, scores)
}

// Invariants checks learning mode's table: the stock, the centre and one
// won pile per seat, in that order; won piles hold whole pairs; the centre
// holds a pair while the game runs and nothing once it is over; the game is
// over exactly when the stock could not refill the centre or the pair limit
// was reached.
func (learning) Invariants(s *State) error {
	if s.Zones() != 2+s.Players() {
		return fmt.Errorf("%d zones, want %d", s.Zones(), 2+s.Players())
	}
	if z := s.zones[learningStock]; z.Kind != ZoneStock || z.Seat != NoSeat || z.Show != ShowHidden {
		return errors.New("zone 0 is not the face-down stock")
	}
	if z := s.zones[learningCentre]; z.Kind != ZoneCentre || z.Seat != NoSeat || z.Show != ShowAll {
		return errors.New("zone 1 is not the face-up centre")
	}
	for i := 0; i < s.Players(); i++ {
		z := s.zones[learningWon(i)]
		if z.Kind != ZoneWon || z.Seat != i {
			return fmt.Errorf("zone %d is not seat %d's won pairs", learningWon(i), i)
		}
		if len(z.cards)%2 != 0 {
			return fmt.Errorf("seat %d holds %d cards, not whole pairs", i, len(z.cards))
		}
	}
	centre := s.count(learningCentre)
	if !s.over && centre != 2 {
		return fmt.Errorf("the game runs with %d cards in the centre, want 2", centre)
	}
	if s.over {
		limit := s.Option(learningPairs)
		if centre != 0 {
			return fmt.Errorf("the game is over with %d cards in the centre", centre)
		}
		if s.count(learningStock) >= 2 && (limit == 0 || learningFound(s) < limit) {
			return fmt.Errorf("the game is over with %d cards in the stock and %d pairs found", s.count(learningStock), learningFound(s))
		}
	}
	return nil
}

// CanMove reports whether seat has a claim: whether the two centre cards share a symbol, whoever the seat.
func (learning) CanMove(s *State, seat int) bool {
	i, j := learningPair(s)
	return s.share(i, j)
}

// PickMove picks one of seat's claims at random, each equally likely.
func (learning) PickMove(s *State, seat int, r Rand, a *Action) bool {
	i, j := learningPair(s)
	return s.pickShared(a, seat, Targets{}, i, j, r)
}

// Movers returns every seat when the two cards share a symbol: all seats
// have the same claims.
func (g learning) Movers(s *State) uint64 { return s.everyone(g.CanMove(s, 0)) }

// learningRecord is how a record of learning mode is checked: each seat
// scores the pairs it found, half the cards it won.
func learningRecord(t RecordTable) *RecordHooks {
	return &RecordHooks{Scores: func() ([]int, string) {
		return PerSeat(t, func(s int) int { return t.CardsOf(s, ZoneWon) / 2 }), ""
	}}
}
