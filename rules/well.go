package rules

import (
	"errors"
	"fmt"
	"slices"
)

// The Well (RULES.md §3.2), also Whoosh.
//
// Setup: shuffle; deal every card but one, one at a time and as evenly as
// possible, starting with seat first-seat (the sheet `002` starts with the
// winner of the previous mini-game) and going on in seat order; the last
// card goes face up to the centre. Everyone turns their pile face up, so
// online each pile shows its top card from the start. Play: the first seat
// to name the symbol shared by its own top card and the centre card puts its
// top card on the centre, where it becomes the new centre card. Goal: get rid
// of all your cards.
//
// End (option end): with first-empty (sheets `000` and `001`, the decision
// of RULES.md §3.2) the game ends as soon as one pile is empty; that seat wins and
// the others are ranked by the cards they have left, fewer being better.
// With last-loses (sheet `002`) play goes on; a seat whose pile is empty is
// out, and when only one seat holds cards the game ends and that seat loses.
// The others are ranked in the order they emptied their piles: the first to
// empty wins, the second is second, and so on; the seat left holding cards is
// last.
//
// Score: with first-empty, the cards left (unit "cards", fewest wins); with
// last-loses, the place in the order of emptying (unit "place", lowest wins),
// where a seat still holding cards is given the first place not yet taken.
// In both variants Seat.Tally records the order of emptying: 1 for the first
// seat to empty its pile, 2 for the second, 0 for a seat still holding cards.
// A session's scoring (RULES.md §5: +10 to the first to empty, −20 to the
// last, or a point per card left) reads the cards left from the scores (or
// the piles' counts in a view), the first to empty from Tally and the last
// from the ranking.
//
// Table: zone 0 is the centre pile, zone 1+i is seat i's pile; both show
// their top card. A claim names no target.

func init() { Register(well{}) }

// well implements Game for the Well.
type well struct{}

// wellCentre is the centre pile's zone; seat i's pile is zone wellPile(i).
const wellCentre = 0

// wellPile returns the zone of seat's pile.
func wellPile(seat int) int { return 1 + seat }

// The Well's options, by index in wellInfo.Options.
const (
	wellOptEnd   = 0 // 0: first-empty, 1: last-loses
	wellOptFirst = 1 // the seat dealt to first
)

// The choices of the end option.
const (
	wellFirstEmpty = 0
	wellLastLoses  = 1
)

// wellInfo is the Well's description.
var wellInfo = Info{
	Claim: &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}, {Kinds: []ZoneKind{ZoneCentre}, Whose: Shared}}},
	Points: &Points{Score: wellPoints, Rule: "+10 to the first to empty their pile, −20 to the last",
		NewScoring:      "+10 to the winner, −1 a card left, −5 more to those with the most cards left when more than two play",
		NewScoringNeeds: map[string]string{"end": "first-empty"}},
	Name:       "well",
	Aliases:    []string{"whoosh"},
	Title:      "The Well",
	Section:    "docs/RULES.md §3.2",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: false,
	Targets:    0,
	Options: []Option{
		{
			Name: "end",
			Doc: "When the game ends: first-empty stops when the first seat empties its pile, which wins, " +
				"the others ranked by cards left (sheets 000, 001); last-loses plays on until one seat is left " +
				"holding cards, which loses, the others ranked in the order they emptied (sheet 002; scores are places).",
			Choices: []string{"first-empty", "last-loses"},
			Default: "first-empty",
		},
		{
			Name:    "first-seat",
			Doc:     "The seat dealt the first card; the deal goes on in seat order (sheet 002 starts with the previous winner).",
			Min:     0,
			Max:     DobbleMaxPlayers - 1,
			Default: "0",
		},
	},
	Record: &RecordRules{New: wellRecord},
}

// Info describes the Well: 2 to 8 players, cards left, fewest wins, no
// target, options end and first-seat.
func (well) Info() Info { return wellInfo }

// Setup deals every card but the last one by one to the seats, starting
// with first-seat, and turns the last card face up in the centre.
func (well) Setup(s *State) error {
	p := s.Players()
	first := s.Option(wellOptFirst)
	if first >= p {
		return &ConfigError{Game: wellInfo.Name, Field: "first-seat", Reason: fmt.Sprintf(
			"seat %d is not at a %d-player table; use a seat from 0 to %d", first, p, p-1)}
	}
	if s.cards.Len() < p+1 {
		return &ConfigError{Game: wellInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; the Well needs one card for the centre and at least one per player (%d or more)",
			s.cards.Len(), p, p+1)}
	}
	s.addZone(ZoneCentre, NoSeat, ShowTop)
	for i := 0; i < p; i++ {
		s.addZone(ZonePile, i, ShowTop)
	}
	s.dealAll(wellCentre)
	for seat := first; s.count(wellCentre) > 1; seat = (seat + 1) % p {
		s.take(wellCentre, wellPile(seat))
	}
	return nil
}

// Check refuses a claim by a seat with no cards left and a symbol that is
// not on both the seat's top card and the centre card.
func (well) Check(s *State, a *Action) *Refusal {
	own := s.top(wellPile(a.Seat))
	if own < 0 {
		return refuse(CodeNotAMatch, a, "you have no cards left to play")
	}
	x := s.cards
	if !x.Has(own, a.Symbol) || !x.Has(s.top(wellCentre), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply puts the claimant's top card on the centre. A seat that empties its
// pile gets its place in the order of emptying; the game ends at the first
// empty pile, or with last-loses when one seat alone holds cards.
func (well) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	own := wellPile(a.Seat)
	ev = s.move(ev, a.Seat, own, wellCentre)
	if s.count(own) > 0 {
		return ev
	}
	emptied := 0
	for i := range s.seats {
		if s.count(wellPile(i)) == 0 {
			emptied++
		}
	}
	s.seats[a.Seat].Tally = emptied
	if s.Option(wellOptEnd) == wellFirstEmpty || emptied == s.Players()-1 {
		ev = s.finish(ev)
	}
	return ev
}

// Moves appends the claim of the symbol shared by the seat's top card and
// the centre card, if the seat has a card.
func (well) Moves(s *State, seat int, dst []Action) []Action {
	own := s.top(wellPile(seat))
	if own < 0 {
		return dst
	}
	return s.appendClaims(dst, seat, Targets{}, own, s.top(wellCentre))
}

// Result scores the cards left with first-empty, fewest winning, and the
// place in the order of emptying with last-loses, lowest winning.
func (well) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	if s.Option(wellOptEnd) == wellFirstEmpty {
		for i := range scores {
			scores[i] = s.count(wellPile(i))
		}
		return Rank(wellInfo.Unit, false, scores)
	}
	next := 1
	for i := range scores {
		if t := s.seats[i].Tally; t > 0 {
			scores[i] = t
			next++
		}
	}
	for i := range scores {
		if scores[i] == 0 {
			scores[i] = next
		}
	}
	return Rank("place", false, scores)
}

// Invariants checks the Well's table: the centre and one pile per seat, in
// that order; the centre never empty; the seats that emptied their piles
// numbered 1, 2, … in Tally and the others 0; the game over exactly when the
// end rule says (one empty pile with first-empty, one seat left holding
// cards with last-loses).
func (well) Invariants(s *State) error {
	p := s.Players()
	if s.Zones() != 1+p {
		return fmt.Errorf("%d zones, want %d", s.Zones(), 1+p)
	}
	if z := s.zones[wellCentre]; z.Kind != ZoneCentre || z.Seat != NoSeat || z.Show != ShowTop {
		return errors.New("zone 0 is not the face-up centre")
	}
	if s.count(wellCentre) == 0 {
		return errors.New("the centre is empty")
	}
	emptied := 0
	var seen [DobbleMaxPlayers + 1]bool
	for i := 0; i < p; i++ {
		z := s.zones[wellPile(i)]
		if z.Kind != ZonePile || z.Seat != i || z.Show != ShowTop {
			return fmt.Errorf("zone %d is not seat %d's face-up pile", wellPile(i), i)
		}
		t := s.seats[i].Tally
		switch {
		case len(z.cards) > 0 && t != 0:
			return fmt.Errorf("seat %d holds %d cards but emptied its pile in place %d", i, len(z.cards), t)
		case len(z.cards) == 0 && (t < 1 || t > p || seen[t]):
			return fmt.Errorf("seat %d emptied its pile but has place %d", i, t)
		case len(z.cards) == 0:
			seen[t] = true
			emptied++
		}
	}
	for k := 1; k <= emptied; k++ {
		if !seen[k] {
			return fmt.Errorf("%d seats emptied their piles but none in place %d", emptied, k)
		}
	}
	end := emptied >= 1
	if s.Option(wellOptEnd) == wellLastLoses {
		end = emptied == p-1
	}
	if emptied > 1 && s.Option(wellOptEnd) == wellFirstEmpty || emptied > p-1 {
		return fmt.Errorf("%d piles are empty", emptied)
	}
	if s.over != end {
		return fmt.Errorf("over = %v with %d of %d piles empty", s.over, emptied, p)
	}
	return nil
}

// CanMove reports whether seat has a claim: whether it has a card and its
// top card and the centre's share a symbol.
func (well) CanMove(s *State, seat int) bool {
	return s.share(s.top(wellPile(seat)), s.top(wellCentre))
}

// PickMove picks one of seat's claims at random, each equally likely.
func (well) PickMove(s *State, seat int, r Rand, a *Action) bool {
	return s.pickShared(a, seat, Targets{}, s.top(wellPile(seat)), s.top(wellCentre), r)
}

// Movers returns the seats whose top card shares a symbol with the
// centre's.
func (well) Movers(s *State) uint64 {
	return s.sharingWith(s.top(wellCentre), wellPile(0))
}

// wellPoints scores the Well in tournament points: +10 to the first to
// empty and −20 to the last; or, with the new scoring and cards left as
// the scores (the first-empty end), +10 to the winner, −1 per card left
// and −5 more to the seats with the most left when more than two play.
func wellPoints(o *Outcome, newScoring bool) []int {
	pts := make([]int, len(o.Places))
	o.AddAtPlace(1, 10, pts)
	if newScoring && o.Result.Unit == "cards" {
		most := 0
		for i, left := range o.Result.Scores {
			if o.Places[i] != 1 {
				pts[i] -= left
				most = max(most, left)
			}
		}
		if len(pts) > 2 && most > 0 {
			for i, left := range o.Result.Scores {
				if o.Places[i] != 1 && left == most {
					pts[i] -= 5
				}
			}
		}
		return pts
	}
	if last := slices.Max(o.Places); last > 1 {
		o.AddAtPlace(last, -20, pts)
	}
	return pts
}

// wellRecord is how a record of the Well is checked: with end=first-empty
// each seat scores the cards in its pile; otherwise each seat's place is
// the order in which it emptied its pile, the seats left sharing the next.
func wellRecord(t RecordTable) *RecordHooks {
	emptied := make([]int, t.Players()) // the place of each seat in the order of emptying, 0 for none
	return &RecordHooks{
		Event: func(a *Action, ev []Event, i int) error {
			if i == 1 && a.Kind == ActionClaim && ev[i].Kind == EventMove && t.CardsOf(a.Seat, ZonePile) == 0 {
				n := 0
				for s := range t.Players() {
					if t.CardsOf(s, ZonePile) == 0 {
						n++
					}
				}
				emptied[a.Seat] = n
			}
			return nil
		},
		Scores: func() ([]int, string) {
			if t.Option("end") == "first-empty" {
				return PerSeat(t, func(s int) int { return t.CardsOf(s, ZonePile) }), ""
			}
			next := 1
			for _, p := range emptied {
				if p > 0 {
					next++
				}
			}
			return PerSeat(t, func(s int) int {
				if p := emptied[s]; p > 0 {
					return p
				}
				return next
			}), "place"
		},
	}
}
