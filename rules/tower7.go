package rules

import (
	"errors"
	"fmt"
	"math/bits"
)

// Tower-7 (RULES.md §4.1), the Russian sheet's extra game #6, «Башня».
//
// Setup: seven cards to each seat, each in a place of its own in front of
// the seat, face up (the sheet deals them face down and everyone turns them
// at once, so online they are face up from the start). The cards not dealt
// are set aside, face down, out of play.
//
// Play, simultaneous: a claim names a symbol, one of the claimant's stacks
// and a stack in front of another seat whose top cards both show it; the
// claimant's whole stack moves onto the other one, where it stays, in front
// of that seat: a stack moves as one and only top cards count. Every card
// source must let any two cards share a symbol (every deck of package deck
// does), so while two seats have stacks, both can claim.
//
// End: the moment a seat has no cards in front of it; it wins. Score: every
// other seat loses as many points as it has cards in front of it, the
// winner none (so the scores are 0 and below, and while the game runs they
// are the standing if it ended now); most points wins.
//
// Table: seat i's place j is zone 7i+j, a pile of the seat showing its top
// card; zone 7p (p seats) holds the cards set aside. A claim names two
// targets: the claimant's stack, then the other seat's stack to put it on.

func init() { Register(tower7{}) }

// tower7 implements Game for Tower-7.
type tower7 struct{}

// tower7Hand is the number of cards, and places, each seat starts with.
const tower7Hand = 7

// tower7MaxPlayers is the most players of Tower-7: seven cards each, so
// the printed 55 cards seat seven, not the eight of the other games.
const tower7MaxPlayers = 7

// tower7Info is Tower-7's description.
var tower7Info = Info{
	Claim:      &ClaimShape{Targets: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}, {Kinds: []ZoneKind{ZonePile}, Whose: Others}}},
	Name:       "tower-7",
	Aliases:    []string{"bashnya", "seven-stacks"},
	Title:      "Tower of Seven",
	Section:    "docs/RULES.md §4.1",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: tower7MaxPlayers,
	Unit:       "points",
	HigherWins: true,
	Targets:    2,
	Record:     ScoreCardsIn(-1, ZonePile),
}

// Info describes Tower-7: 2 to 7 players, points (0 and below), most wins,
// two targets.
func (tower7) Info() Info { return tower7Info }

// tower7Aside returns the zone of the cards set aside.
func tower7Aside(s *State) int { return tower7Hand * len(s.seats) }

// Setup deals seven cards to each seat's places and sets the rest aside.
func (tower7) Setup(s *State) error {
	p, n := s.Players(), s.cards.Len()
	if n < tower7Hand*p {
		return &ConfigError{Game: tower7Info.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; Tower-7 deals 7 cards to each player (%d or more)", n, p, tower7Hand*p)}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: tower7Info.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; Tower-7 needs a deck in which every two cards share one, as every Dobble deck does",
			i, j)}
	}
	s.reserve(tower7Hand*p+1, n+tower7Hand*p*4)
	for i := range p {
		for range tower7Hand {
			s.addRoom(ZonePile, i, ShowTop, 4)
		}
	}
	aside := s.addZone(ZoneAside, NoSeat, ShowHidden)
	s.dealAll(aside)
	for j := range tower7Hand {
		for i := range p {
			s.take(aside, tower7Hand*i+j)
		}
	}
	return nil
}

// tower7Cards returns the number of cards in front of seat.
func tower7Cards(s *State, seat int) int {
	n := 0
	for z := tower7Hand * seat; z < tower7Hand*(seat+1); z++ {
		n += len(s.zones[z].cards)
	}
	return n
}

// Refusal details of Tower-7, fixed phrases.
const (
	tower7NotYours = "name one of your own stacks first, then the stack of another player to put it on"
	tower7NoStack  = "you have no stack in that place"
	tower7Own      = "put your stack on another player's stack, not on your own"
	tower7Empty    = "there is no stack there to put yours on"
)

// Check refuses a claim whose first target is not one of the claimant's
// stacks, whose second is not another seat's stack, or whose symbol is not
// on both top cards.
func (tower7) Check(s *State, a *Action) *Refusal {
	from, to := &s.zones[a.Target.z[0]], &s.zones[a.Target.z[1]]
	switch {
	case from.Seat != a.Seat:
		return refuse(CodeBadTarget, a, tower7NotYours)
	case len(from.cards) == 0:
		return refuse(CodeBadTarget, a, tower7NoStack)
	case to.Seat == a.Seat:
		return refuse(CodeBadTarget, a, tower7Own)
	case to.Seat == NoSeat || len(to.cards) == 0:
		return refuse(CodeBadTarget, a, tower7Empty)
	}
	x := s.cards
	if !x.Has(int(from.cards[len(from.cards)-1]), a.Symbol) || !x.Has(int(to.cards[len(to.cards)-1]), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply moves the claimant's stack onto the other stack and ends the game
// when the claimant has nothing left in front of it.
func (tower7) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	ev = s.moveStack(ev, a.Seat, int(a.Target.z[0]), int(a.Target.z[1]))
	if tower7Cards(s, a.Seat) == 0 {
		ev = s.finish(ev)
	}
	return ev
}

// Moves appends every correct claim of seat: each of its stacks, in zone
// order, onto each stack of the other seats, in zone order.
func (tower7) Moves(s *State, seat int, dst []Action) []Action {
	for src := tower7Hand * seat; src < tower7Hand*(seat+1); src++ {
		c := s.top(src)
		if c < 0 {
			continue
		}
		t := Targets{n: 2}
		t.z[0] = int32(src)
		for z := range tower7Hand * len(s.seats) {
			if d := s.top(z); d >= 0 && s.zones[z].Seat != seat {
				t.z[1] = int32(z)
				dst = s.appendClaims(dst, seat, t, c, d)
			}
		}
	}
	return dst
}

// CanMove reports whether one of seat's top cards shares a symbol with a
// top card of another seat.
func (tower7) CanMove(s *State, seat int) bool {
	for src := tower7Hand * seat; src < tower7Hand*(seat+1); src++ {
		c := s.top(src)
		if c < 0 {
			continue
		}
		for z := range tower7Hand * len(s.seats) {
			if s.zones[z].Seat != seat && s.share(c, s.top(z)) {
				return true
			}
		}
	}
	return false
}

// Result scores each seat minus the cards in front of it; most points
// (the fewest cards) wins.
func (tower7) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = -tower7Cards(s, i)
	}
	return Rank(tower7Info.Unit, tower7Info.HigherWins, scores)
}

// Invariants checks Tower-7's table: seven places per seat in seat order
// and the aside pile; the game is over exactly when a seat has no cards,
// and then exactly one seat has none.
func (tower7) Invariants(s *State) error {
	p := s.Players()
	if s.Zones() != tower7Hand*p+1 {
		return fmt.Errorf("%d zones, want %d", s.Zones(), tower7Hand*p+1)
	}
	for z := range tower7Hand * p {
		if got := s.zones[z]; got.Kind != ZonePile || got.Seat != z/tower7Hand || got.Show != ShowTop {
			return fmt.Errorf("zone %d is a %s of seat %d, want a pile of seat %d", z, got.Kind, got.Seat, z/tower7Hand)
		}
	}
	if z := s.zones[tower7Aside(s)]; z.Kind != ZoneAside || z.Seat != NoSeat || z.Show != ShowHidden {
		return errors.New("the last zone is not the aside pile")
	}
	if n := s.count(tower7Aside(s)); n != s.cards.Len()-tower7Hand*p {
		return fmt.Errorf("%d cards set aside, want %d", n, s.cards.Len()-tower7Hand*p)
	}
	empty := 0
	for i := range p {
		if tower7Cards(s, i) == 0 {
			empty++
		}
	}
	if s.over != (empty > 0) || empty > 1 {
		return fmt.Errorf("over = %v with %d seats without cards", s.over, empty)
	}
	return nil
}

// Movers returns the seats that can claim, asking CanMove seat by seat.
func (g tower7) Movers(s *State) uint64 { return s.seatsWhere(g) }

// PickMove picks one of seat's claims at random, each equally likely: it
// counts the symbols each of its top cards shares with each top card of
// the other seats and draws one of them.
func (tower7) PickMove(s *State, seat int, r Rand, a *Action) bool {
	x := s.cards
	// The tops are read once, and each pair's count kept for the draw.
	var own, owns [tower7Hand]int
	var other, others [tower7Hand * (tower7MaxPlayers - 1)]int
	var shared [tower7Hand * tower7Hand * (tower7MaxPlayers - 1)]uint8 // kept in a one-word deck, where a pair shares at most 64
	no, nd := 0, 0
	for z := range tower7Hand * len(s.seats) {
		c := s.top(z)
		switch {
		case c < 0:
		case s.zones[z].Seat == seat:
			own[no], owns[no] = c, z
			no++
		default:
			other[nd], others[nd] = c, z
			nd++
		}
	}
	total := 0
	for i := range no {
		if x.words > 1 {
			for _, d := range other[:nd] {
				total += x.shared(own[i], d)
			}
			continue
		}
		// Up to 64 symbols: a card is one word.
		a, row := x.bits[own[i]], shared[i*nd:(i+1)*nd]
		for j, d := range other[:nd] {
			row[j] = uint8(bits.OnesCount64(a & x.bits[d]))
			total += int(row[j])
		}
	}
	if total == 0 {
		return false
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for i := range no {
		for j := range nd {
			k := int(shared[i*nd+j])
			if x.words > 1 {
				k = x.shared(own[i], other[j])
			}
			if n >= k {
				n -= k
				continue
			}
			t := Targets{n: 2}
			t.z[0], t.z[1] = int32(owns[i]), int32(others[j])
			s.setClaim(a, seat, x.nthShared(own[i], other[j], n), &t)
			return true
		}
	}
	panic("rules: tower-7: claim out of range")
}
