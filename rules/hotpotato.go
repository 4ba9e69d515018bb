package rules

import (
	"errors"
	"fmt"
)

// Hot Potato (RULES.md §3.3), also Pumpkin Bomb.
//
// The game is played in rounds. Setup of a round: one card to each seat
// playing the round (dealt face down and flipped by everyone at once, so
// online it is face up from the start); the rest of the deck stays aside,
// face down, for later rounds. Play: the first seat to name the symbol
// shared by its own top card and another seat's top card gives all its
// cards, order kept, onto that seat's pile, whose top card becomes the
// giver's old top card. A seat holding no card can neither give nor be
// given to until it is given cards. End of a round: one seat holds all the
// round's cards (each claim empties one pile, so a round of n seats takes
// n-1 claims); it loses the round and keeps those cards in front of it,
// face down, as penalty cards, and its Seat.Tally (rounds lost) goes up by
// one. Score: penalty cards; fewest wins.
//
// Options. rounds is the number of rounds with end=rounds: 5 by default;
// the sheets say to agree on at least 5, but 1 is accepted too, because a
// session settles a tie of three or more players with a single round of Hot
// Potato (RULES.md §2). end=deck instead plays until the cards aside can no
// longer deal a round (sheet `002`); rounds may then not be set. scoring
// chooses between the sheets' scoring, cards, where every seat plays every
// round, and the `002` "new scoring", series: each round's loser drops out
// of the series, the next round is dealt only to the seats still in it, and
// when one seat is left the series is over, the penalty cards of the seats
// that dropped out are recorded (moved onto their penalty piles) and a new
// series starts with everyone. With n players a series has n-1 rounds and
// gives n, n-1, …, 2 penalty cards to the seats in the order they dropped
// out and none to the last one in. With end=deck the game goes on while the
// cards aside can deal the next round (one card to each seat still in the
// series, or to every seat when a new series starts) and ends when they
// cannot, wherever the series stands (docs/RULES.md §3.3); with end=rounds it
// stops after rounds rounds, wherever the series stands (so rounds=n-1 plays
// exactly one series, which ranks n tied seats of a session in full). Either
// way a series cut short scores as it stands: the cards of the seats that
// dropped out of it are penalty cards. The sheet collects penalty cards and sums them as
// penalty points: here one penalty card is one point, so both scorings score
// penalty cards.
//
// A session's scoring (RULES.md §5: −5 per round lost) reads the rounds
// lost from Seat.Tally; the scores are the penalty cards.
//
// Table: zone 0 holds the cards aside (hidden); zone 1+i is seat i's pile
// (its top card face up); zone 1+n+i is seat i's penalty pile, kind
// ZoneLost (hidden); with scoring=series, zone 1+2n+i, kind ZoneOut
// (hidden), holds the cards with which seat i dropped out of the series
// being played: the seat is out of the series exactly while that zone is
// not empty. A claim names one target: the pile of the seat receiving the
// cards.

func init() { Register(hotPotato{}) }

// The zone kinds Hot Potato adds.
const (
	// ZoneLost holds a seat's penalty cards: the cards of the rounds it
	// lost, face down, out of play.
	ZoneLost ZoneKind = "lost"
	// ZoneOut holds, in a Hot Potato series, the cards of the round with
	// which a seat dropped out; while it holds any, the seat is out of the
	// series.
	ZoneOut ZoneKind = "out"
)

// hotPotato implements Game for Hot Potato.
type hotPotato struct{}

// potatoAside is the zone of the cards kept aside for later rounds.
const potatoAside = 0

// potatoPile returns the zone of seat's pile.
func potatoPile(seat int) int { return 1 + seat }

// potatoLost returns the zone of seat's penalty cards at a table of p seats.
func potatoLost(p, seat int) int { return 1 + p + seat }

// potatoOut returns the zone of the cards with which seat dropped out of
// the current series, at a table of p seats playing scoring=series.
func potatoOut(p, seat int) int { return 1 + 2*p + seat }

// Hot Potato's options, by index in potatoInfo.Options.
const (
	potatoOptRounds  = 0
	potatoOptEnd     = 1 // 0: rounds, 1: deck
	potatoOptScoring = 2 // 0: cards, 1: series
)

// The choices of the end and scoring options.
const (
	potatoEndRounds = 0
	potatoEndDeck   = 1
	potatoCards     = 0
	potatoSeries    = 1
)

// potatoInfo is Hot Potato's description.
var potatoInfo = Info{
	Claim:      &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}}, Targets: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Others}}},
	Points:     &Points{Score: potatoPoints, Rule: "−5 a round lost; with series scoring, −1 a penalty card"},
	Name:       "hot-potato",
	Aliases:    []string{"pumpkin-bomb"},
	Title:      "Hot Potato",
	Section:    "docs/RULES.md §3.3",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: false,
	Targets:    1,
	Options: []Option{
		{
			Name: "rounds",
			Doc: "The number of rounds with end=rounds; the sheets say at least 5, and 1 plays the single round " +
				"that settles a tie of three or more players.",
			Min:     1,
			Max:     1000,
			Default: "5",
		},
		{
			Name:    "end",
			Doc:     "When the game ends: rounds after the set number of rounds; deck when the cards aside can no longer deal a round (sheet 002).",
			Choices: []string{"rounds", "deck"},
			Default: "rounds",
		},
		{
			Name: "scoring",
			Doc: "cards: everyone plays every round and keeps the cards of the rounds they lose; series (sheet 002's new scoring): " +
				"each round's loser drops out until one player is left, then a new series starts; fewest penalty cards wins either way.",
			Choices: []string{"cards", "series"},
			Default: "cards",
		},
	},
	Record: ScoreCardsIn(1, ZoneLost, ZoneOut),
}

// Info describes Hot Potato: 2 to 8 players, penalty cards, fewest wins,
// one target (the receiving seat's pile), options rounds, end and scoring.
func (hotPotato) Info() Info { return potatoInfo }

// potatoDealt returns the number of cards the first r rounds deal at a
// table of p seats: p a round, or with series scoring p, p-1, …, 2 and
// again.
func potatoDealt(p, r int, series bool) int {
	if !series {
		return p * r
	}
	n := 0
	for j := 0; j < r; j++ {
		n += p - j%(p-1)
	}
	return n
}

// Setup checks that the deck holds the rounds the options ask for, puts the
// deck aside and deals round 1.
func (hotPotato) Setup(s *State) error {
	p := s.Players()
	n := s.cards.Len()
	series := s.Option(potatoOptScoring) == potatoSeries
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Game: potatoInfo.Name, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	per := "one card per player in each round"
	if series {
		per = "one card per player still in the series in each round"
	}
	if s.Option(potatoOptEnd) == potatoEndDeck {
		if r, set := s.cfg.Options["rounds"]; set {
			return bad("rounds", "rounds=%s is set, but end=deck plays until the deck runs out; leave rounds unset or use end=rounds", r)
		}
		if n < p {
			return bad("cards", "%d cards for %d players; a round needs one card per player (%d or more)", n, p, p)
		}
	} else if r := s.Option(potatoOptRounds); potatoDealt(p, r, series) > n {
		fit := 0
		for potatoDealt(p, fit+1, series) <= n {
			fit++
		}
		more := fmt.Sprintf("at most %d rounds fit", fit)
		if fit == 0 {
			more = "not even one round fits"
		}
		return bad("cards", "%d cards for %d players; %d rounds need %d (%s), %s", n, p, r, potatoDealt(p, r, series), per, more)
	}
	s.addZone(ZoneAside, NoSeat, ShowHidden)
	for i := 0; i < p; i++ {
		s.addZone(ZonePile, i, ShowTop)
	}
	for i := 0; i < p; i++ {
		s.addZone(ZoneLost, i, ShowHidden)
	}
	if series {
		for i := 0; i < p; i++ {
			s.addZone(ZoneOut, i, ShowHidden)
		}
	}
	s.dealAll(potatoAside)
	for i := 0; i < p; i++ {
		s.take(potatoAside, potatoPile(i))
	}
	s.round = 1
	return nil
}

// out reports whether seat has dropped out of the series being played.
func (hotPotato) out(s *State, seat int) bool {
	return s.Option(potatoOptScoring) == potatoSeries && s.count(potatoOut(s.Players(), seat)) > 0
}

// Check refuses a target that is not another seat's pile holding a card,
// a claim by a seat holding no card, and a symbol that is not on both top
// cards.
func (g hotPotato) Check(s *State, a *Action) *Refusal {
	z := a.Target.At(0)
	own := potatoPile(a.Seat)
	switch {
	case z == own:
		return refuse(CodeBadTarget, a, "that is your own pile; give your cards to another player")
	case z < potatoPile(0) || z > potatoPile(s.Players()-1):
		return refuse(CodeBadTarget, a, "name another player's pile")
	case g.out(s, z-potatoPile(0)):
		return refuse(CodeBadTarget, a, "that player is out of this series")
	case s.count(z) == 0:
		return refuse(CodeBadTarget, a, "that player holds no card")
	case g.out(s, a.Seat):
		return refuse(CodeNotAMatch, a, "you are out of this series")
	case s.count(own) == 0:
		return refuse(CodeNotAMatch, a, "you hold no card")
	}
	x := s.cards
	if !x.Has(s.top(own), a.Symbol) || !x.Has(s.top(z), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply gives the claimant's whole pile to the target. When that leaves one
// seat holding cards, the round is over: the loser's cards go to its
// penalty pile (or, in a series, to its out zone, and at the end of the
// series every out zone to its penalty pile); then the game ends or the
// next round is dealt.
func (g hotPotato) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	p := s.Players()
	z := a.Target.At(0)
	ev = s.moveStack(ev, a.Seat, potatoPile(a.Seat), z)
	for i := 0; i < p; i++ {
		if potatoPile(i) != z && s.count(potatoPile(i)) > 0 {
			return ev // the round goes on
		}
	}
	loser := z - potatoPile(0)
	s.seats[loser].Tally++
	series := s.Option(potatoOptScoring) == potatoSeries
	seriesOver, in := true, p
	if series {
		ev = s.moveStack(ev, loser, z, potatoOut(p, loser))
		in = 0
		for i := 0; i < p; i++ {
			if s.count(potatoOut(p, i)) == 0 {
				in++
			}
		}
		if seriesOver = in == 1; seriesOver {
			for i := 0; i < p; i++ {
				if s.count(potatoOut(p, i)) > 0 {
					ev = s.moveStack(ev, i, potatoOut(p, i), potatoLost(p, i))
				}
			}
		}
	} else {
		ev = s.moveStack(ev, loser, z, potatoLost(p, loser))
	}
	var over bool
	switch {
	case s.Option(potatoOptEnd) == potatoEndRounds:
		over = s.round == s.Option(potatoOptRounds)
	default:
		// end=deck: the game goes on while the cards aside can deal the
		// next round, one card to each seat still in it.
		next := p
		if !seriesOver {
			next = in
		}
		over = s.count(potatoAside) < next
	}
	if over {
		return s.finish(ev)
	}
	s.round++
	ev = append(ev, Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: s.round})
	for i := 0; i < p; i++ {
		if !g.out(s, i) {
			ev = s.move(ev, i, potatoAside, potatoPile(i))
		}
	}
	return ev
}

// Moves appends, for every other seat holding a card, the claim of the
// symbol shared by the seat's top card and that seat's top card.
func (hotPotato) Moves(s *State, seat int, dst []Action) []Action {
	own := s.top(potatoPile(seat))
	if own < 0 {
		return dst
	}
	for i := range s.seats {
		if t := s.top(potatoPile(i)); i != seat && t >= 0 {
			dst = s.appendClaims(dst, seat, oneTarget(potatoPile(i)), own, t)
		}
	}
	return dst
}

// Result scores each seat by its penalty cards, those of a series in
// progress included; fewest wins.
func (hotPotato) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	p := s.Players()
	scores := buf[:p]
	series := s.Option(potatoOptScoring) == potatoSeries
	for i := range scores {
		scores[i] = s.count(potatoLost(p, i))
		if series {
			scores[i] += s.count(potatoOut(p, i))
		}
	}
	return Rank(potatoInfo.Unit, potatoInfo.HigherWins, scores)
}

// Invariants checks Hot Potato's table: the zones in their order; while the
// game runs, the piles hold exactly the round's cards, one per seat playing
// the round, in at least two piles; once it is over, none; the cards aside
// are the deck less the cards dealt so far; the rounds lost add up to the
// rounds played, and each seat's penalty cards to its rounds lost (the
// table's size each, scoring by cards); in a series, the seats out of it
// hold no cards and dropped out with n, n-1, … cards, as many as the rounds
// played in it.
func (g hotPotato) Invariants(s *State) error {
	p := s.Players()
	series := s.Option(potatoOptScoring) == potatoSeries
	zones := 1 + 2*p
	if series {
		zones += p
	}
	if s.Zones() != zones {
		return fmt.Errorf("%d zones, want %d", s.Zones(), zones)
	}
	if z := s.zones[potatoAside]; z.Kind != ZoneAside || z.Seat != NoSeat || z.Show != ShowHidden {
		return errors.New("zone 0 is not the hidden cards aside")
	}
	want := func(zi int, kind ZoneKind, seat int, show Show) error {
		if z := s.zones[zi]; z.Kind != kind || z.Seat != seat || z.Show != show {
			return fmt.Errorf("zone %d is %s of seat %d showing %v, want %s of seat %d showing %v", zi, z.Kind, z.Seat, z.Show, kind, seat, show)
		}
		return nil
	}
	inPlay, holding, tallies, out := 0, 0, 0, 0
	var dropped [DobbleMaxPlayers + 1]bool
	for i := 0; i < p; i++ {
		if err := want(potatoPile(i), ZonePile, i, ShowTop); err != nil {
			return err
		}
		if err := want(potatoLost(p, i), ZoneLost, i, ShowHidden); err != nil {
			return err
		}
		inPlay += s.count(potatoPile(i))
		if s.count(potatoPile(i)) > 0 {
			holding++
		}
		t := s.seats[i].Tally
		tallies += t
		if !series && s.count(potatoLost(p, i)) != t*p {
			return fmt.Errorf("seat %d lost %d rounds of %d cards but has %d penalty cards", i, t, p, s.count(potatoLost(p, i)))
		}
		if !series {
			continue
		}
		if err := want(potatoOut(p, i), ZoneOut, i, ShowHidden); err != nil {
			return err
		}
		if k := s.count(potatoOut(p, i)); k > 0 {
			if k < 2 || k > p || dropped[k] {
				return fmt.Errorf("seat %d dropped out of the series with %d cards", i, k)
			}
			if s.count(potatoPile(i)) > 0 {
				return fmt.Errorf("seat %d is out of the series but holds %d cards", i, s.count(potatoPile(i)))
			}
			dropped[k] = true
			out++
		}
	}
	for k := p; k > p-out; k-- {
		if !dropped[k] {
			return fmt.Errorf("%d seats are out of the series, but none dropped out with %d cards", out, k)
		}
	}
	played := s.round - 1 // rounds finished
	if s.over {
		played = s.round
	}
	if tallies != played {
		return fmt.Errorf("%d rounds lost in all after %d rounds", tallies, played)
	}
	if series && out != played%(p-1) {
		return fmt.Errorf("%d seats out of the series after %d rounds of series of %d", out, played, p-1)
	}
	if n := s.cards.Len() - potatoDealt(p, s.round, series); s.count(potatoAside) != n {
		return fmt.Errorf("%d cards aside in round %d, want %d", s.count(potatoAside), s.round, n)
	}
	switch {
	case s.over && inPlay != 0:
		return fmt.Errorf("the game is over with %d cards in play", inPlay)
	case !s.over && (inPlay != p-out || holding < 2):
		return fmt.Errorf("round %d has %d cards in play in %d piles, want %d cards in two piles or more", s.round, inPlay, holding, p-out)
	case s.Option(potatoOptEnd) == potatoEndRounds && s.round > s.Option(potatoOptRounds):
		return fmt.Errorf("round %d of %d", s.round, s.Option(potatoOptRounds))
	}
	return nil
}

// CanMove reports whether seat has a claim: whether its top card shares a symbol with another seat's.
func (hotPotato) CanMove(s *State, seat int) bool {
	own := s.top(potatoPile(seat))
	if own < 0 {
		return false
	}
	for i := range s.seats {
		if i != seat && s.share(own, s.top(potatoPile(i))) {
			return true
		}
	}
	return false
}

// PickMove picks one of seat's claims at random, each equally likely.
func (hotPotato) PickMove(s *State, seat int, r Rand, a *Action) bool {
	var zbuf, cbuf [DobbleMaxPlayers]int32
	zones, cards := zbuf[:0], cbuf[:0]
	for i := range s.seats {
		if i != seat {
			zones, cards = append(zones, int32(potatoPile(i))), append(cards, int32(s.top(potatoPile(i))))
		}
	}
	return s.pickAgainst(a, seat, s.top(potatoPile(seat)), zones, cards, r)
}

// Movers returns the seats whose top card shares a symbol with another
// seat's.
func (g hotPotato) Movers(s *State) uint64 {
	var set uint64
	for i := range s.seats {
		if g.CanMove(s, i) {
			set |= 1 << i
		}
	}
	return set
}

// potatoPoints scores Hot Potato in tournament points: −5 per round lost;
// or, when the game was played with its own new scoring (option
// scoring=series, RULES.md §5), −1 per penalty card, the penalties that
// scoring records.
func potatoPoints(o *Outcome, _ bool) []int {
	pts := make([]int, len(o.Places))
	if o.Options["scoring"] == "series" {
		o.AddPerScore(-1, 0, pts)
		return pts
	}
	o.AddPerTally(-5, pts)
	return pts
}
