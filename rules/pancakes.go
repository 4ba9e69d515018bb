package rules

import (
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
)

// Anarchy Pancakes (RULES.md §6).
//
// Cards: two decks in one card source, as WithSingles builds it: the cards
// of a projective-plane deck (the six-topping cards of the order-5
// "pancakes" edition) numbered first, then one one-topping card per symbol,
// card planes+s showing topping s alone. Setup refuses any other shape.
//
// Setup of a round: both decks are shuffled apart; each seat gets two
// one-topping cards, then five six-topping cards, each card in a place of
// its own in front of the seat, face up for everyone (the sheet deals them
// face down and everyone flips all seven at once, so online they are face
// up from the start). The one-topping cards not dealt are set aside, face
// down, for the round; the six-topping cards not dealt are the face-down
// draw pile, whose top card is flipped into the centre: the Common card.
//
// Play, simultaneous: a claim names a topping, one of the claimant's own
// stacks and the card to put it on: the Common card or the top of a stack
// in front of another seat, never one of the claimant's own ("you may never
// match your own cards with each other"). Only top cards count. The whole
// stack moves onto the target and stays there as one permanent stack: a
// stack put on an opponent's card stays in front of that opponent; one put
// on the Common card becomes the Common card. A draw ("no match? draw 1
// card") takes the top of the draw pile into the drawer's first empty
// place. The server cannot know whether a player sees a match, so a draw is
// accepted whenever the draw pile is not empty, as at the table, where
// nobody can stop a player from drawing; it is refused (CodeBadTarget)
// when the pile is empty.
//
// Round end, option "round-end": with "first" (the RULES.md decision,
// sheet 003) the round ends the moment a seat has no cards in front of it,
// and that seat takes a butter pat (Seat.Tally). With "all" (the Italian
// sheet 004 read literally) the first seat to run out still takes the pat
// at once, but the round goes on: seats that have run out sit out the rest
// of the round (nothing can be put on them and they may not draw), and the
// round ends when every seat has run out.
//
// A stuck table ends the round without a pat. The round cannot go on when
// nobody has a claim and nobody can draw (the draw pile is empty, or, with
// "all", every seat has run out). Any two six-topping cards share a
// topping and the Common card is always there, so a table is stuck only
// when the six-topping top cards all lie with one owner (in front of one
// seat, or the Common card alone), every other top card is a one-topping
// card, and no two top cards of different owners show the same topping.
// It happens, more often with many players, whose deal leaves a short draw
// pile (none with six). Then the round ends with no pat at once, in the
// same Apply. Each action of a round shrinks either the number of stacks
// (a claim) or the draw pile (a draw), so every round ends, and the next
// starts from a fresh seeded deal. A game therefore ends unless stuck
// rounds follow each other forever, which fresh deals make vanishingly
// unlikely: even with six players choosing moves at random, fewer than one
// round in five ends stuck.
//
// New round (EventRound, then the moves): every card in front of the seats
// and of the Common pile goes back, one at a time from the top, to its deck
// (six-topping cards to the draw pile, one-topping ones to the set-aside
// pile), both are shuffled and the deal above is repeated. The first seat
// to reach the number of butter pats of option "pats" (2 by default) wins
// at once; the game ends there, the table as it was. Score: butter pats,
// most wins.
//
// Table: zone 0 is the draw pile, zone 1 the Common card (a pile, of which
// only the top card shows), zone 2 the set-aside one-topping cards; every
// further zone is a place in front of one seat: a pile of kind ZonePile,
// owned by the seat (Zone.Seat), showing its top card. Setup makes seven
// places per seat, seat i's place j being zone 3 + 7i + j, and deals into
// them. A draw goes to the drawer's lowest-numbered empty place; when it
// has none, a new place is added for it at the end of the zone list (a
// client seeing a move to an unknown zone fetches a new view). Places stay
// for the rest of the game, empty or not, and a new round deals into the
// first seven again. A claim names two targets: the claimant's stack, then
// the Common card or another seat's stack.

func init() { Register(anarchyPancakes{}) }

// anarchyPancakes implements Game for Anarchy Pancakes.
type anarchyPancakes struct{}

// The fixed zones and the deal.
const (
	pancakesDraw    = 0 // the face-down draw pile of six-topping cards
	pancakesCommon  = 1 // the Common card
	pancakesAside   = 2 // the one-topping cards set aside for the round
	pancakesFirst   = 3 // seat 0's first place
	pancakesSingles = 2 // one-topping cards dealt to each seat
	pancakesSixes   = 5 // six-topping cards dealt to each seat
	pancakesHand    = pancakesSingles + pancakesSixes
	pancakesPatsBox = 9 // butter pats in the box
	// pancakesRoom is the room for cards a place takes at setup: a stack
	// rarely grows taller, and one that does grows on its own.
	pancakesRoom = 12
)

// Indices in pancakesInfo.Options and the values of "round-end".
const (
	pancakesOptRoundEnd = 0
	pancakesOptPats     = 1
	pancakesEndFirst    = 0
	pancakesEndAll      = 1
)

// pancakesInfo is Anarchy Pancakes' description.
var pancakesInfo = Info{
	Name:       "anarchy-pancakes",
	Aliases:    []string{"pancakes"},
	Title:      "Anarchy Pancakes",
	Section:    "RULES.md §6",
	MinPlayers: PancakesMinPlayers,
	MaxPlayers: PancakesMaxPlayers,
	Unit:       "butter pats",
	HigherWins: true,
	Targets:    2,
	Draw:       true,
	Options: []Option{
		{
			Name: "round-end",
			Doc: "When a round ends: \"first\", the moment any player has no cards in front of them (RULES.md decision, sheet 003); " +
				"\"all\", once every player has run out (sheet 004), the first out taking the butter pat at once and the others playing on.",
			Choices: []string{"first", "all"},
			Default: "first",
		},
		{
			Name: "pats",
			Doc: "Butter pats needed to win. The box holds 9, and a game to N pats with P players can hand out P×(N−1)+1, " +
				"so N may be at most 5 with 2 players, 3 with 3 or 4, and 2 with 5 or 6.",
			Min:     1,
			Max:     pancakesPatsBox,
			Default: "2",
		},
	},
}

// Info describes Anarchy Pancakes: 2 to 6 players, butter pats, most wins,
// two targets, draws, options "round-end" and "pats".
func (anarchyPancakes) Info() Info { return pancakesInfo }

// WithSingles returns the card source of Anarchy Pancakes' two decks: the
// cards of c (the six-topping cards, a projective-plane deck such as the
// "pancakes" edition's) followed by one card per symbol showing that symbol
// alone (the one-topping cards). Card c.Len()+s is the one-topping card of
// symbol s; there are c.Len()+c.Symbols() cards and c.Symbols() symbols.
func WithSingles(c Cards) Cards { return withSingles{c} }

// withSingles is the Cards of WithSingles.
type withSingles struct{ Cards }

// Len returns the number of cards: c's plus one per symbol.
func (w withSingles) Len() int { return w.Cards.Len() + w.Cards.Symbols() }

// AppendCard appends the symbols of card i: c's card i, or the single
// symbol of a one-symbol card.
func (w withSingles) AppendCard(dst []int, i int) []int {
	if n := w.Cards.Len(); i >= n {
		return append(dst, i-n)
	}
	return w.Cards.AppendCard(dst, i)
}

// pancakesShaped is the last Index pancakesShape accepted. An Index is
// immutable, so a game set up with the same Index as the one before, the
// usual case of a server or a simulation, skips the check's
// quadratic part.
var pancakesShaped atomic.Pointer[Index]

// pancakesShape checks that x is a plane deck followed by one one-symbol
// card per symbol in symbol order, as WithSingles builds it, and returns the
// number of plane cards; otherwise an error saying what is wrong.
func pancakesShape(x *Index) (int, error) {
	m := x.symbols
	planes := x.cards - m
	if pancakesShaped.Load() == x {
		return planes, nil
	}
	const want = "anarchy-pancakes plays a projective-plane deck (the six-topping cards) followed by one one-topping card per symbol, " +
		"as rules.WithSingles(deck) builds it"
	if planes < 2 {
		return 0, fmt.Errorf("%d cards with %d symbols; %s, so at least two more cards than symbols", x.cards, m, want)
	}
	for s := range m {
		c := planes + s
		if x.start[c+1]-x.start[c] != 1 || x.syms[x.start[c]] != int32(s) {
			return 0, fmt.Errorf("card %d shows symbols %v where the one-topping card of symbol %d belongs; %s",
				c, x.AppendCard(nil, c), s, want)
		}
	}
	size := x.start[1] - x.start[0]
	for i := range planes {
		if n := x.start[i+1] - x.start[i]; n != size || n < 2 {
			return 0, fmt.Errorf("card %d shows %d symbols and card 0 shows %d; the six-topping cards all show the same number of symbols, at least two; %s",
				i, n, size, want)
		}
	}
	w := x.words
	for i := range planes {
		a := x.bits[i*w : (i+1)*w]
		for j := i + 1; j < planes; j++ {
			b := x.bits[j*w : (j+1)*w]
			shared := 0
			for k := range a {
				shared += bits.OnesCount64(a[k] & b[k])
			}
			if shared != 1 {
				return 0, fmt.Errorf("cards %d and %d share %d symbols; any two six-topping cards share exactly one; %s",
					i, j, shared, want)
			}
		}
	}
	pancakesShaped.Store(x)
	return planes, nil
}

// pancakesPlanes returns the number of six-topping cards of s's deck.
func pancakesPlanes(s *State) int { return s.cards.cards - s.cards.symbols }

// pancakesIn reports whether seat has any card in front of it.
func pancakesIn(s *State, seat int) bool {
	// Its first seven places, then those added for it later.
	first := pancakesFirst + pancakesHand*seat
	for z := first; z < first+pancakesHand; z++ {
		if len(s.zones[z].cards) > 0 {
			return true
		}
	}
	for z := pancakesFirst + pancakesHand*len(s.seats); z < len(s.zones); z++ {
		if s.zones[z].Seat == seat && len(s.zones[z].cards) > 0 {
			return true
		}
	}
	return false
}

// pancakesOut returns the number of seats with no cards in front of them.
func pancakesOut(s *State) int {
	out := 0
	for i := range s.seats {
		if !pancakesIn(s, i) {
			out++
		}
	}
	return out
}

// Setup checks the card source, the player count against the deck and the
// butter pats against the box, lays out the zones and deals round 1.
func (anarchyPancakes) Setup(s *State) error {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Game: pancakesInfo.Name, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	p := s.Players()
	planes, err := pancakesShape(s.cards)
	if err != nil {
		return bad("cards", "%v", err)
	}
	if need := pancakesSixes*p + 1; planes < need {
		return bad("cards", "%d six-topping cards for %d players; each player is dealt %d and one more is the Common card, so %d or more are needed (the \"pancakes\" edition has 31, enough for %d players)",
			planes, p, pancakesSixes, need, PancakesMaxPlayers)
	}
	if need := pancakesSingles * p; s.cards.symbols < need {
		return bad("cards", "%d one-topping cards for %d players; each player is dealt %d, so %d or more are needed",
			s.cards.symbols, p, pancakesSingles, need)
	}
	if n := s.Option(pancakesOptPats); p*(n-1)+1 > pancakesPatsBox {
		return bad("pats", "%d butter pats to win with %d players: the box holds %d pats and a game to %d can hand out %d; with %d players use 1 to %d",
			n, p, pancakesPatsBox, n, p*(n-1)+1, p, (pancakesPatsBox-1)/p+1)
	}
	s.reserve(pancakesFirst+pancakesHand*p, pancakesFirst*s.cards.cards+pancakesHand*p*pancakesRoom)
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZoneCentre, NoSeat, ShowTop)
	s.addZone(ZoneAside, NoSeat, ShowHidden)
	for i := range p {
		for range pancakesHand {
			s.addRoom(ZonePile, i, ShowTop, pancakesRoom)
		}
	}
	draw, aside := s.zones[pancakesDraw].cards[:0], s.zones[pancakesAside].cards[:0]
	for c := range s.cards.cards {
		if c < planes {
			draw = append(draw, int32(c))
		} else {
			aside = append(aside, int32(c))
		}
	}
	s.zones[pancakesDraw].cards, s.zones[pancakesAside].cards = draw, aside
	s.shuffleCards(draw)
	s.shuffleCards(aside)
	s.round = 1
	pancakesDeal(s, nil, false)
	return nil
}

// pancakesDeal deals a round from the shuffled draw pile and set-aside
// cards: two one-topping cards to each seat's places 0 and 1, one round at
// a time, then five six-topping cards to places 2 to 6, then the Common
// card. With record set it appends the moves to ev; Setup deals silently.
func pancakesDeal(s *State, ev []Event, record bool) []Event {
	p := s.Players()
	deal := func(from, to, seat int) {
		if record {
			ev = s.move(ev, seat, from, to)
		} else {
			s.take(from, to)
		}
	}
	for j := range pancakesHand {
		from := pancakesAside
		if j >= pancakesSingles {
			from = pancakesDraw
		}
		for i := range p {
			deal(from, pancakesFirst+i*pancakesHand+j, i)
		}
	}
	deal(pancakesDraw, pancakesCommon, NoSeat)
	return ev
}

// pancakesNewRound starts the next round: EventRound, every card in play
// back to its deck one at a time, both decks shuffled, a fresh deal.
func pancakesNewRound(s *State, ev []Event) []Event {
	s.round++
	ev = append(ev, Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: s.round})
	// The moves s.move would make card by card, without its checks: each
	// card leaves the top of a zone that holds it for a deck whose room
	// is the whole deck.
	planes := int32(pancakesPlanes(s))
	for z := pancakesCommon; z < len(s.zones); z++ {
		if z == pancakesAside {
			continue
		}
		c := s.zones[z].cards
		for i := len(c) - 1; i >= 0; i-- {
			card, to := c[i], pancakesDraw
			if card >= planes {
				to = pancakesAside
			}
			s.zones[to].cards = append(s.zones[to].cards, card)
			ev = appendEvent(ev, EventMove, NoSeat, -1, int(card), 1, z, to)
		}
		s.zones[z].cards = s.zones[z].cards[:0] // no write barrier, as in take
	}
	ev = s.shuffle(ev, pancakesDraw)
	ev = s.shuffle(ev, pancakesAside)
	return pancakesDeal(s, ev, true)
}

// pancakesLive reports whether the round can go on: some seat still in
// can draw, or some seat has a claim.
func pancakesLive(s *State) bool {
	end := len(s.zones)
	if len(s.zones[pancakesDraw].cards) > 0 {
		for z := pancakesFirst; z < end; z++ {
			if len(s.zones[z].cards) > 0 {
				return true
			}
		}
	}
	x := s.cards
	common := s.top(pancakesCommon)
	for z := pancakesFirst; z < end; z++ {
		c := s.top(z)
		if c < 0 {
			continue
		}
		if x.Common(c, common) >= 0 {
			return true
		}
		// Pairs with later places; earlier ones checked theirs already.
		for o := z + 1; o < end; o++ {
			if d := s.top(o); d >= 0 && s.zones[o].Seat != s.zones[z].Seat && x.Common(c, d) >= 0 {
				return true
			}
		}
	}
	return false
}

// Refusal details, fixed phrases.
const (
	pancakesNotYours   = "name one of your own stacks first, then the card to put it on"
	pancakesNoStack    = "you have no stack in that place"
	pancakesOwnCards   = "you may never match your own cards with each other"
	pancakesFaceDown   = "the draw pile is face down; match the Common card or a card in front of another player"
	pancakesSetAside   = "the set-aside one-topping cards are out of play this round"
	pancakesNoCard     = "there is no card in that place in front of the other player"
	pancakesEmptyDraw  = "the draw pile is empty"
	pancakesSittingOut = "you have run out of cards and sit out the rest of this round"
)

// Check refuses a draw from an empty pile or by a seat that has run out; a
// claim whose first target is not one of the claimant's stacks, whose
// second is not the Common card or another seat's stack, or whose symbol is
// not on both top cards.
func (anarchyPancakes) Check(s *State, a *Action) *Refusal {
	if a.Kind == ActionDraw {
		if len(s.zones[pancakesDraw].cards) == 0 {
			return refuse(CodeBadTarget, a, pancakesEmptyDraw)
		}
		if !pancakesIn(s, a.Seat) {
			return refuse(CodeBadTarget, a, pancakesSittingOut)
		}
		return nil
	}
	// The engine has checked that both targets are zones of the table.
	from, to := &s.zones[a.Target.z[0]], &s.zones[a.Target.z[1]]
	if from.Seat != a.Seat {
		return refuse(CodeBadTarget, a, pancakesNotYours)
	}
	if len(from.cards) == 0 {
		return refuse(CodeBadTarget, a, pancakesNoStack)
	}
	if len(to.cards) == 0 || to.Seat == a.Seat || to.Kind != ZonePile && to.Kind != ZoneCentre {
		switch {
		case to.Kind == ZoneStock:
			return refuse(CodeBadTarget, a, pancakesFaceDown)
		case to.Kind == ZoneAside:
			return refuse(CodeBadTarget, a, pancakesSetAside)
		case to.Seat == a.Seat:
			return refuse(CodeBadTarget, a, pancakesOwnCards)
		}
		return refuse(CodeBadTarget, a, pancakesNoCard)
	}
	x := s.cards
	if !x.Has(int(from.cards[len(from.cards)-1]), a.Symbol) || !x.Has(int(to.cards[len(to.cards)-1]), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

// Apply moves the claimant's stack onto the target, or the drawn card into
// the drawer's first empty place; awards the butter pat to a seat that has
// just run out first in the round, ending the game when it reaches the
// target; and starts a new round when the round is over or stuck.
func (anarchyPancakes) Apply(s *State, a *Action, ev []Event) []Event {
	if a.Kind == ActionDraw {
		z := pancakesFirst
		for z < len(s.zones) && (s.zones[z].Seat != a.Seat || len(s.zones[z].cards) > 0) {
			z++
		}
		if z == len(s.zones) {
			s.addZone(ZonePile, a.Seat, ShowTop)
		}
		ev = s.move(ev, a.Seat, pancakesDraw, z)
	} else {
		ev = claimed(ev, a)
		ev = s.moveStack(ev, a.Seat, int(a.Target.z[0]), int(a.Target.z[1]))
		if !pancakesIn(s, a.Seat) {
			// The first seat out in the round takes a butter pat; with
			// "first" that is this seat, with "all" it is if nobody else
			// is out yet.
			first := s.Option(pancakesOptRoundEnd) == pancakesEndFirst
			if first || pancakesOut(s) == 1 {
				s.seats[a.Seat].Tally++
				if s.seats[a.Seat].Tally >= s.Option(pancakesOptPats) {
					return s.finish(ev)
				}
			}
			if first {
				return pancakesNewRound(s, ev)
			}
		}
	}
	if !pancakesLive(s) {
		ev = pancakesNewRound(s, ev)
	}
	return ev
}

// Moves appends every correct claim of seat, stack by stack in zone order,
// each onto the Common card and then onto the other seats' stacks in zone
// order, and then the draw when the draw pile is not empty and the seat is
// still in the round.
func (anarchyPancakes) Moves(s *State, seat int, dst []Action) []Action {
	common := s.top(pancakesCommon)
	in := false
	for src := pancakesFirst; src < len(s.zones); src++ {
		c := s.top(src)
		if c < 0 || s.zones[src].Seat != seat {
			continue
		}
		in = true
		t := Targets{n: 2}
		t.z[0] = int32(src)
		t.z[1] = pancakesCommon
		dst = s.appendClaims(dst, seat, t, c, common)
		for z := pancakesFirst; z < len(s.zones); z++ {
			if d := s.top(z); d >= 0 && s.zones[z].Seat != seat {
				t.z[1] = int32(z)
				dst = s.appendClaims(dst, seat, t, c, d)
			}
		}
	}
	if in && len(s.zones[pancakesDraw].cards) > 0 {
		dst = append(dst, Action{Kind: ActionDraw, Seat: seat, Version: s.version})
	}
	return dst
}

// Result scores each seat by its butter pats; most wins.
func (anarchyPancakes) Result(s *State) *Result {
	var buf [PancakesMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.seats[i].Tally
	}
	return Rank(pancakesInfo.Unit, pancakesInfo.HigherWins, scores)
}

// Invariants checks Anarchy Pancakes' table: the zone layout, with no seat
// holding more places than seven plus the draw pile's cards after a deal;
// the draw pile holds only six-topping cards and the set-aside pile exactly
// the one-topping cards not dealt this round; the Common card is never
// empty; no more butter pats than rounds; while the game runs, no seat has
// reached the target, every seat has cards (with "first", which has also
// handed out no pat this round; with "all", at least one seat has) and the
// round can go on; once over, exactly one seat has reached the target.
func (anarchyPancakes) Invariants(s *State) error {
	p := s.Players()
	planes := pancakesPlanes(s)
	if s.Zones() < pancakesFirst+pancakesHand*p {
		return fmt.Errorf("%d zones, want 3 and at least 7 places per seat", s.Zones())
	}
	for z, want := range []Zone{
		pancakesDraw:   {Kind: ZoneStock, Seat: NoSeat, Show: ShowHidden},
		pancakesCommon: {Kind: ZoneCentre, Seat: NoSeat, Show: ShowTop},
		pancakesAside:  {Kind: ZoneAside, Seat: NoSeat, Show: ShowHidden},
	} {
		if got := s.zones[z]; got.Kind != want.Kind || got.Seat != want.Seat || got.Show != want.Show {
			return fmt.Errorf("zone %d is a %s of seat %d showing %v, want a %s of seat %d showing %v",
				z, got.Kind, got.Seat, got.Show, want.Kind, want.Seat, want.Show)
		}
	}
	// A seat gets a new place only when a draw finds all of its places
	// taken, so it never has more than its seven and one per card the draw
	// pile holds at the start of a round.
	var places [PancakesMaxPlayers]int
	most := pancakesHand + planes - pancakesSixes*p - 1
	for z := pancakesFirst; z < s.Zones(); z++ {
		want := (z - pancakesFirst) / pancakesHand
		got := s.zones[z]
		if z >= pancakesFirst+pancakesHand*p {
			want = got.Seat
		}
		if got.Kind != ZonePile || got.Seat != want || got.Seat < 0 || got.Show != ShowTop {
			return fmt.Errorf("zone %d is a %s of seat %d showing %v, want a pile of a seat showing top, the first seven of each seat in seat order",
				z, got.Kind, got.Seat, got.Show)
		}
		if places[got.Seat]++; places[got.Seat] > most {
			return fmt.Errorf("seat %d has more than %d places: 7 and one per card of the draw pile", got.Seat, most)
		}
	}
	for _, c := range s.zones[pancakesDraw].cards {
		if int(c) >= planes {
			return fmt.Errorf("one-topping card %d is in the draw pile", c)
		}
	}
	for _, c := range s.zones[pancakesAside].cards {
		if int(c) < planes {
			return fmt.Errorf("six-topping card %d is set aside", c)
		}
	}
	if n, want := s.count(pancakesAside), s.cards.symbols-pancakesSingles*p; n != want {
		return fmt.Errorf("%d one-topping cards set aside, want %d: all but the %d dealt", n, want, pancakesSingles*p)
	}
	if s.count(pancakesCommon) == 0 {
		return errors.New("the Common card is missing")
	}
	target := s.Option(pancakesOptPats)
	pats, winners := 0, 0
	for _, seat := range s.seats {
		pats += seat.Tally
		if seat.Tally >= target {
			winners++
		}
	}
	if s.round < 1 || pats > s.round {
		return fmt.Errorf("%d butter pats handed out in %d rounds", pats, s.round)
	}
	if s.over {
		if winners != 1 {
			return fmt.Errorf("the game is over with %d seats at %d butter pats", winners, target)
		}
		return nil
	}
	if winners != 0 {
		return fmt.Errorf("a seat has %d butter pats but the game goes on", target)
	}
	out := pancakesOut(s)
	if s.Option(pancakesOptRoundEnd) == pancakesEndFirst {
		if out != 0 {
			return fmt.Errorf("%d of %d seats have no cards, yet the round goes on", out, p)
		}
		if pats > s.round-1 {
			return fmt.Errorf("%d butter pats handed out before round %d ended", pats, s.round)
		}
	} else if out == p {
		return errors.New("every seat has run out, yet the round goes on")
	}
	if !pancakesLive(s) {
		return errors.New("nobody can claim or draw, yet the round goes on")
	}
	return nil
}

// CanMove reports whether seat may draw (it has cards in front of it and
// the draw pile is not empty) or has a claim: one of its top cards shares
// a topping with the Common card or with another seat's top card.
func (anarchyPancakes) CanMove(s *State, seat int) bool {
	x := s.cards
	common := s.top(pancakesCommon)
	drawable := len(s.zones[pancakesDraw].cards) > 0
	if drawable {
		// The usual case: the seat may draw if it has cards in front of
		// it, in its first seven places or in one added later.
		first := pancakesFirst + pancakesHand*seat
		for z := first; z < first+pancakesHand; z++ {
			if len(s.zones[z].cards) > 0 {
				return true
			}
		}
		for z := pancakesFirst + pancakesHand*s.Players(); z < len(s.zones); z++ {
			if s.zones[z].Seat == seat && len(s.zones[z].cards) > 0 {
				return true
			}
		}
		return false
	}
	if x.words == 1 {
		// One word per card: a claim exists exactly when the toppings of
		// the seat's top cards meet those of the cards it may cover.
		var own, others uint64
		if common >= 0 {
			others = x.bits[common]
		}
		in := false
		for z := pancakesFirst; z < len(s.zones); z++ {
			c := s.zones[z].cards
			if len(c) == 0 {
				continue
			}
			if b := x.bits[c[len(c)-1]]; s.zones[z].Seat == seat {
				own |= b
				in = true
			} else {
				others |= b
			}
		}
		return in && (drawable || own&others != 0)
	}
	for src := pancakesFirst; src < len(s.zones); src++ {
		c := s.top(src)
		if c < 0 || s.zones[src].Seat != seat {
			continue
		}
		if drawable || s.share(c, common) {
			return true
		}
		for z := pancakesFirst; z < len(s.zones); z++ {
			if s.zones[z].Seat != seat && s.share(c, s.top(z)) {
				return true
			}
		}
	}
	return false
}

// pancakesTries is how many random pairs of a stack and a place to cover
// PickMove tries before it counts the claims.
const pancakesTries = 16

// pancakesOwn appends to dst the places where seat has a stack: its first
// seven places and those added for it later, in zone order.
func pancakesOwn(s *State, seat int, dst []int32) []int32 {
	first := pancakesFirst + pancakesHand*seat
	if cap(dst)-len(dst) >= pancakesHand {
		// Without a branch per place, which the table would mispredict:
		// write every place and keep those with a stack.
		n := len(dst)
		dst = dst[:n+pancakesHand]
		for z := first; z < first+pancakesHand; z++ {
			dst[n] = int32(z)
			if len(s.zones[z].cards) > 0 {
				n++
			}
		}
		dst = dst[:n]
	} else {
		for z := first; z < first+pancakesHand; z++ {
			if len(s.zones[z].cards) > 0 {
				dst = append(dst, int32(z))
			}
		}
	}
	for z := pancakesFirst + pancakesHand*len(s.seats); z < len(s.zones); z++ {
		if s.zones[z].Seat == seat && len(s.zones[z].cards) > 0 {
			dst = append(dst, int32(z))
		}
	}
	return dst
}

// PickMove picks one of seat's claims at random, or the draw when it has
// none, without listing them. Any two cards of the table share at most one
// topping (two six-topping cards exactly one, a one-topping card at most
// its own, two one-topping cards none: pancakesShape checked it), so a
// claim is a pair of one of the seat's stacks and a card it may cover that
// share a topping. PickMove draws a stack of the seat and a zone among the
// Common card and the places not among the seat's first seven, uniformly,
// and keeps the first pair whose zone the seat may cover and whose top
// cards share a topping: rejection sampling, which makes every claim
// equally likely without looking at the rest of the table. After
// pancakesTries misses it counts the claims and draws one of them, equally
// likely too, so the mixture is uniform; and when there is none, the seat
// draws if it may.
func (anarchyPancakes) PickMove(s *State, seat int, r Rand, a *Action) bool {
	var ownBuf [64]int32
	own := pancakesOwn(s, seat, ownBuf[:0])
	if len(own) == 0 {
		return false // out of the round: no claim, no draw
	}
	x := s.cards
	// The zones a claim may cover, drawn as 0 for the Common card and
	// 1 on for the places, pancakesFirst on, skipping the seat's first
	// seven; a place added for the seat later is drawn and missed.
	first := pancakesFirst + pancakesHand*seat
	n := len(s.zones) - pancakesFirst + 1 - pancakesHand
	for range pancakesTries {
		k := uint32(r.IntN(len(own) * n))
		src, dst := own[k/uint32(n)], pancakesCommon
		if j := int(k % uint32(n)); j > 0 {
			if dst = pancakesFirst + j - 1; dst >= first {
				dst += pancakesHand
			}
		}
		d := s.top(dst)
		if d < 0 || s.zones[dst].Seat == seat {
			continue
		}
		if sym := x.Common(s.top(int(src)), d); sym >= 0 {
			t := Targets{n: 2}
			t.z[0], t.z[1] = src, int32(dst)
			s.setClaim(a, seat, sym, &t)
			return true
		}
	}
	if x.words == 1 {
		if ok, done := pancakesPickCount(s, seat, r, own, a); done {
			return ok
		}
	}
	var coverBuf [64]int32
	cover := coverBuf[:0]
	if s.top(pancakesCommon) >= 0 {
		cover = append(cover, pancakesCommon)
	}
	for z := pancakesFirst; z < len(s.zones); z++ {
		if len(s.zones[z].cards) > 0 && s.zones[z].Seat != seat {
			cover = append(cover, int32(z))
		}
	}
	if pancakesPick(s, seat, r, own, cover, a) {
		return true
	}
	if len(s.zones[pancakesDraw].cards) > 0 {
		s.setDraw(a, seat)
		return true
	}
	return false
}

// pancakesPickCount is the count of PickMove for cards whose toppings fit
// one word, own being the places where seat has a stack. It counts, topping
// by topping, the top cards seat may cover that show it, in four
// bit-sliced counters (bit t of counter k is bit k of topping t's count),
// in one pass over the places; a stack whose top card shows toppings T then
// has as many claims as the counts of T add up to. It draws one claim of
// all, each equally likely, from r (only when there are several), and
// finds its stack, topping and covered card; with no claim, it writes the
// draw when the draw pile is not empty. done is false, and nothing is
// written, only when a topping shows on more than fifteen of the cards the
// seat may cover, more than the counters hold: PickMove then counts the
// claims pair by pair.
func pancakesPickCount(s *State, seat int, r Rand, own []int32, a *Action) (ok, done bool) {
	x := s.cards
	zones := s.zones
	var c1, c2, c4, c8, over uint64
	if c := zones[pancakesCommon].cards; len(c) > 0 {
		c1 = x.bits[c[len(c)-1]]
	}
	for z := pancakesFirst; z < len(zones); z++ {
		c := zones[z].cards
		if len(c) == 0 || zones[z].Seat == seat {
			continue
		}
		// Add one to the count of every topping of b.
		b := x.bits[c[len(c)-1]]
		k1 := c1 & b
		c1 ^= b
		k2 := c2 & k1
		c2 ^= k1
		k4 := c4 & k2
		c4 ^= k2
		over |= c8 & k4
		c8 ^= k4
	}
	if over != 0 {
		return false, false
	}
	shown := c1 | c2 | c4 | c8
	claims := func(b uint64) int {
		return bits.OnesCount64(b&c1) + 2*bits.OnesCount64(b&c2) + 4*bits.OnesCount64(b&c4) + 8*bits.OnesCount64(b&c8)
	}
	total := 0
	for _, z := range own {
		total += claims(x.bits[s.top(int(z))] & shown)
	}
	if total == 0 {
		if len(zones[pancakesDraw].cards) > 0 {
			s.setDraw(a, seat)
			return true, true
		}
		return false, true
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for _, src := range own {
		b := x.bits[s.top(int(src))] & shown
		if k := claims(b); n >= k {
			n -= k
			continue
		}
		for ; b != 0; b &= b - 1 {
			m := b & -b
			if k := claims(m); n >= k {
				n -= k
				continue
			}
			// The n-th card seat may cover that shows topping m: the
			// Common card first, then the places in zone order.
			for dst := pancakesCommon; dst < len(zones); dst++ {
				d := zones[dst].cards
				if dst == pancakesAside || len(d) == 0 || zones[dst].Seat == seat || x.bits[d[len(d)-1]]&m == 0 {
					continue
				}
				if n > 0 {
					n--
					continue
				}
				t := Targets{n: 2}
				t.z[0], t.z[1] = src, int32(dst)
				s.setClaim(a, seat, bits.TrailingZeros64(m), &t)
				return true, true
			}
		}
	}
	panic("rules: anarchy-pancakes: claim out of range")
}

// Movers returns the seats that may draw or have a claim, as CanMove
// answers seat by seat, in one pass over the places when a card's toppings
// fit one word.
func (g anarchyPancakes) Movers(s *State) uint64 {
	if len(s.zones[pancakesDraw].cards) > 0 {
		// The usual case: every seat with cards may draw. With round-end
		// "first" that is every seat, since a round ends the moment one
		// runs out.
		if s.Option(pancakesOptRoundEnd) == pancakesEndFirst {
			return s.everyone(true)
		}
		var in uint64
		for z := pancakesFirst; z < len(s.zones); z++ {
			if len(s.zones[z].cards) > 0 {
				in |= 1 << s.zones[z].Seat
			}
		}
		return in
	}
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
	var in uint64                        // seats with cards in front of them
	var shown [PancakesMaxPlayers]uint64 // toppings on each seat's top cards
	for z := pancakesFirst; z < len(s.zones); z++ {
		if c := s.zones[z].cards; len(c) > 0 {
			seat := s.zones[z].Seat
			in |= 1 << seat
			shown[seat] |= x.bits[c[len(c)-1]]
		}
	}
	var common uint64
	if c := s.top(pancakesCommon); c >= 0 {
		common = x.bits[c]
	}
	var set uint64
	for i := range s.seats {
		others := common
		for j := range s.seats {
			if j != i {
				others |= shown[j]
			}
		}
		if shown[i]&others != 0 {
			set |= 1 << i
		}
	}
	return set
}

// pancakesPick writes to *a one of seat's claims from a stack of own onto
// a card of cover, each equally likely, or returns false when there is
// none.
func pancakesPick(s *State, seat int, r Rand, own, cover []int32, a *Action) bool {
	x := s.cards
	claim := func(src, dst int32, sym int) bool {
		t := Targets{n: 2}
		t.z[0], t.z[1] = src, dst
		s.setClaim(a, seat, sym, &t)
		return true
	}
	if x.words == 1 {
		return pancakesPickWord(s, seat, r, own, cover, a)
	}
	total := 0
	for _, src := range own {
		for _, dst := range cover {
			total += x.shared(s.top(int(src)), s.top(int(dst)))
		}
	}
	if total == 0 {
		return false
	}
	n := r.IntN(total)
	for _, src := range own {
		for _, dst := range cover {
			k := x.shared(s.top(int(src)), s.top(int(dst)))
			if n < k {
				var syms [1]int
				return claim(src, dst, x.AppendCommon(syms[:0], s.top(int(src)), s.top(int(dst)))[n])
			}
			n -= k
		}
	}
	panic("rules: anarchy-pancakes: claim out of range")
}

// pancakesPickWord is pancakesPick for cards whose toppings fit one word:
// it reads every top card once, and two cards share a topping when their
// words meet (in one topping at most, as pancakesShape checked).
func pancakesPickWord(s *State, seat int, r Rand, own, cover []int32, a *Action) bool {
	x := s.cards
	var ownBuf, coverBuf [64]uint64
	ob, cb := ownBuf[:0], coverBuf[:0]
	var ownAll, coverAll uint64
	for _, z := range own {
		b := x.bits[s.top(int(z))]
		ob, ownAll = append(ob, b), ownAll|b
	}
	for _, z := range cover {
		b := x.bits[s.top(int(z))]
		cb, coverAll = append(cb, b), coverAll|b
	}
	if ownAll&coverAll == 0 {
		return false
	}
	total := 0
	for _, o := range ob {
		if o&coverAll == 0 {
			continue
		}
		for _, c := range cb {
			if o&c != 0 {
				total++
			}
		}
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for i, o := range ob {
		if o&coverAll == 0 {
			continue
		}
		for j, c := range cb {
			if o&c == 0 {
				continue
			}
			if n == 0 {
				t := Targets{n: 2}
				t.z[0], t.z[1] = own[i], cover[j]
				s.setClaim(a, seat, bits.TrailingZeros64(o&c), &t)
				return true
			}
			n--
		}
	}
	panic("rules: anarchy-pancakes: claim out of range")
}
