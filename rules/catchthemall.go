package rules

import (
	"errors"
	"fmt"
)

// Catch Them All (RULES.md §3.6), «Собери их все!».
//
// Played in rounds. A round: one card face up in the centre and, around
// it, one card per seat; the rules deal those face down and flip them all
// at once, so online they are face up when the round begins. The first
// seat to name the symbol shared by the centre card and any card around it
// takes that card (never the centre) onto its won pile. When every card
// around the centre is taken, the centre card goes to the bottom of the
// deck and the next round is dealt from the top. End: the deck cannot fill
// a new round (it holds fewer cards than the players plus one). Score:
// cards won; most cards wins.
//
// Every card around the centre must share a symbol with the centre card,
// or the round could never end: the game refuses a card source in which
// two cards share nothing (Index.Apart), and every deck of package deck
// passes, any two of its cards sharing exactly one symbol.
//
// Table: zone 0 is the deck (hidden), zone 1 the centre card, zones 2 to
// 1+players the ring around it (one card each, or none once taken), and
// zone 2+players+i seat i's won pile. A claim names one ring zone. State
// rounds count from 1; each new round emits an EventRound.

func init() { Register(catchThemAll{}) }

// catchThemAll implements Game for Catch Them All.
type catchThemAll struct{}

// ZoneRing is a place around the centre for one face-up card, in Catch Them
// All.
const ZoneRing ZoneKind = "ring"

// The deck's and the centre's zones in Catch Them All; catchRing and
// catchWon give the others.
const (
	catchDeck   = 0
	catchCentre = 1
)

// catchRing returns the zone of the i-th card around the centre.
func catchRing(i int) int { return 2 + i }

// catchWon returns the zone of seat's won pile in a game of p players.
func catchWon(p, seat int) int { return 2 + p + seat }

// catchInfo is Catch Them All's description.
var catchInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZoneCentre}, Whose: Shared}}, Targets: []Place{{Kinds: []ZoneKind{ZoneRing}, Whose: Shared}}},
	Points:     &Points{Score: perScorePoints(1, 0, 0), Rule: "+1 a card won"},
	Name:       "catch-them-all",
	Title:      "Catch Them All",
	Section:    "docs/RULES.md §3.6",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: true,
	Targets:    1,
	Record:     ScoreCardsIn(1, ZoneWon),
}

// Info describes Catch Them All: 2 to 8 players, cards won, most wins, one
// target (a card around the centre).
func (catchThemAll) Info() Info { return catchInfo }

// Setup shuffles the deck and deals the first round. It refuses a deck too
// small for one round and a card source with two cards that share no
// symbol.
func (catchThemAll) Setup(s *State) error {
	p, n := s.Players(), s.cards.Len()
	if n < p+1 {
		return &ConfigError{Game: catchInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"%d cards for %d players; a round of Catch Them All needs a centre card and one card per player (%d or more)",
			n, p, p+1)}
	}
	if i, j := s.cards.Apart(); i >= 0 {
		return &ConfigError{Game: catchInfo.Name, Field: "cards", Reason: fmt.Sprintf(
			"cards %d and %d share no symbol; Catch Them All needs a deck in which every two cards share one, as every Dobble deck does",
			i, j)}
	}
	s.reserve(2+2*p, (1+p)*n+1+p)
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addSlot(ZoneCentre, NoSeat, ShowTop)
	for i := 0; i < p; i++ {
		s.addSlot(ZoneRing, NoSeat, ShowAll)
	}
	for i := 0; i < p; i++ {
		s.addZone(ZoneWon, i, ShowTop)
	}
	s.dealAll(catchDeck)
	s.take(catchDeck, catchCentre)
	for i := 0; i < p; i++ {
		s.take(catchDeck, catchRing(i))
	}
	s.round = 1
	return nil
}

// Check refuses a target that is not a card around the centre, or one
// already taken, and a symbol not on both that card and the centre card.
func (catchThemAll) Check(s *State, a *Action) *Refusal {
	z := int(a.Target.z[0])
	if z < catchRing(0) || z >= catchRing(s.Players()) {
		return refuse(CodeBadTarget, a, "name one of the cards around the centre")
	}
	c := s.top(z)
	if c < 0 {
		return refuse(CodeBadTarget, a, "that card has already been taken")
	}
	if !s.cards.Has(c, a.Symbol) || !s.cards.Has(s.top(catchCentre), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply moves the named card onto the claimant's won pile. When the ring
// is empty it puts the centre card under the deck and deals the next
// round, or ends the game if the deck cannot fill one.
func (catchThemAll) Apply(s *State, a *Action, ev []Event) []Event {
	p := s.Players()
	ev = claimed(ev, a)
	ev = s.move(ev, a.Seat, int(a.Target.z[0]), catchWon(p, a.Seat))
	for i := 0; i < p; i++ {
		if len(s.zones[catchRing(i)].cards) > 0 {
			return ev
		}
	}
	ev = s.moveUnder(ev, NoSeat, catchCentre, catchDeck)
	if s.count(catchDeck) < p+1 {
		return s.finish(ev)
	}
	s.round++
	ev = appendEvent(ev, EventRound, NoSeat, -1, -1, 0, -1, -1)
	ev[len(ev)-1].Round = s.round
	ev = s.move(ev, NoSeat, catchDeck, catchCentre)
	for i := 0; i < p; i++ {
		ev = s.move(ev, NoSeat, catchDeck, catchRing(i))
	}
	return ev
}

// Moves appends, for every card still around the centre, the claim of the
// symbol it shares with the centre card.
func (catchThemAll) Moves(s *State, seat int, dst []Action) []Action {
	centre := s.top(catchCentre)
	for i := 0; i < s.Players(); i++ {
		if c := s.top(catchRing(i)); c >= 0 {
			dst = s.appendClaims(dst, seat, Targets{n: 1, z: [MaxTargets]int32{int32(catchRing(i))}}, centre, c)
		}
	}
	return dst
}

// Result scores each seat by the cards on its won pile; most cards wins.
func (catchThemAll) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	p := s.Players()
	scores := buf[:p]
	for i := range scores {
		scores[i] = s.count(catchWon(p, i))
	}
	return Rank(catchInfo.Unit, catchInfo.HigherWins, scores)
}

// Invariants checks Catch Them All's table: the deck, the centre, the ring
// and the won piles, in that order; while the game runs the centre holds
// one card and the ring one card per place not yet taken, at least one;
// once it is over the centre and the ring are empty and the deck holds
// fewer cards than a round needs; the cards won add up to the players'
// share of every round begun, the current one's taken cards included.
func (catchThemAll) Invariants(s *State) error {
	p := s.Players()
	if s.Zones() != 2+2*p {
		return fmt.Errorf("%d zones, want %d", s.Zones(), 2+2*p)
	}
	if z := s.zones[catchDeck]; z.Kind != ZoneStock || z.Show != ShowHidden {
		return errors.New("zone 0 is not the hidden deck")
	}
	if z := s.zones[catchCentre]; z.Kind != ZoneCentre || z.Seat != NoSeat {
		return errors.New("zone 1 is not the centre")
	}
	ring, won := 0, 0
	for i := 0; i < p; i++ {
		z := s.zones[catchRing(i)]
		if z.Kind != ZoneRing || z.Seat != NoSeat || z.Show != ShowAll || len(z.cards) > 1 {
			return fmt.Errorf("zone %d is not a place around the centre holding at most one card", catchRing(i))
		}
		ring += len(z.cards)
		w := s.zones[catchWon(p, i)]
		if w.Kind != ZoneWon || w.Seat != i {
			return fmt.Errorf("zone %d is not seat %d's won pile", catchWon(p, i), i)
		}
		won += len(w.cards)
	}
	centre, deck := s.count(catchCentre), s.count(catchDeck)
	if s.over {
		if centre != 0 || ring != 0 || deck >= p+1 {
			return fmt.Errorf("over with %d centre, %d ring and %d deck cards", centre, ring, deck)
		}
	} else if centre != 1 || ring == 0 {
		return fmt.Errorf("round %d runs with %d centre and %d ring cards", s.round, centre, ring)
	}
	if won+ring != s.round*p {
		return fmt.Errorf("round %d: %d cards won and %d around the centre, want %d in all", s.round, won, ring, s.round*p)
	}
	return nil
}

// CanMove reports whether seat has a claim: whether the centre card shares a symbol with a card around it, whoever the seat.
func (catchThemAll) CanMove(s *State, seat int) bool {
	centre := s.top(catchCentre)
	for i := 0; i < s.Players(); i++ {
		if s.share(centre, s.top(catchRing(i))) {
			return true
		}
	}
	return false
}

// PickMove picks one of seat's claims at random, each equally likely.
func (catchThemAll) PickMove(s *State, seat int, r Rand, a *Action) bool {
	var zbuf, cbuf [DobbleMaxPlayers]int32
	zones, cards := zbuf[:0], cbuf[:0]
	for i := 0; i < s.Players(); i++ {
		zones, cards = append(zones, int32(catchRing(i))), append(cards, int32(s.top(catchRing(i))))
	}
	return s.pickAgainst(a, seat, s.top(catchCentre), zones, cards, r)
}

// Movers returns every seat when the centre card shares a symbol with a
// card around it: all seats have the same claims.
func (g catchThemAll) Movers(s *State) uint64 { return s.everyone(g.CanMove(s, 0)) }
