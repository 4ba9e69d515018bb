package rules

import (
	"fmt"
	"math/bits"
	"slices"
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
// Round end, option "round-end": with "first" (the decision of RULES.md
// §6.3, sheet 003) the round ends the moment a seat has no cards in front of it,
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
//
// This file holds the rules: setup, deal, check and apply. The table of top
// cards that answers the questions about claims quickly (pancakesTable) is
// in pancakes_index.go, the moves and their picking in pancakes_pick.go,
// and the invariants in pancakes_invariants.go.

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
	Claim:      &ClaimShape{Targets: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}, {Kinds: []ZoneKind{ZoneCentre, ZonePile}, Whose: NotMine}}},
	Deck:       &DeckSpec{Edition: "pancakes", Singles: true, Only: true},
	Points:     &Points{Score: perScorePoints(10, 0, 0), Rule: "+10 a butter pat"},
	Name:       "anarchy-pancakes",
	Aliases:    []string{"pancakes"},
	Title:      "Anarchy Pancakes",
	Section:    "docs/RULES.md §6",
	MinPlayers: PancakesMinPlayers,
	MaxPlayers: PancakesMaxPlayers,
	Unit:       "butter pats",
	HigherWins: true,
	Targets:    2,
	Draw:       true,
	Options: []Option{
		{
			Name: "round-end",
			Doc: "When a round ends: \"first\", the moment any player has no cards in front of them (sheet 003, the decision of docs/RULES.md §6.3); " +
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
	Record: &RecordRules{New: pancakesRecord},
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
	if t := pancakesTableOf(s); t != nil {
		return t.holds(seat)
	}
	for z := pancakesFirst; z < len(s.zones); z++ {
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
	// Both zones have room for the whole deck.
	draw := s.zones[pancakesDraw].cards[:planes]
	aside := s.zones[pancakesAside].cards[:s.cards.cards-planes]
	for c := range draw {
		draw[c] = int32(c)
	}
	for c := range aside {
		aside[c] = int32(planes + c)
	}
	s.zones[pancakesDraw].cards, s.zones[pancakesAside].cards = draw, aside
	s.shuffleCards(draw)
	s.shuffleCards(aside)
	s.round = 1
	// The table of the game Reset replaced fitted the same deck and seats.
	if t, _ := s.spareExtension().(*pancakesTable); t != nil || pancakesFits(s, planes, p) {
		if t == nil {
			t = &pancakesTable{}
		}
		t.layout(s)
		s.SetExtension(t)
	}
	pancakesDeal(s, nil, false)
	return nil
}

// pancakesDeal deals a round from the shuffled draw pile and set-aside
// cards: two one-topping cards to each seat's places 0 and 1, one round at
// a time, then five six-topping cards to places 2 to 6, then the Common
// card, each from the top of its pile. With record set it appends the
// moves to ev; Setup deals silently. The places are empty. The
// pancakesTable, if any, is filled as the cards are dealt, its lists in
// zone order, as Resync would fill them.
func pancakesDeal(s *State, ev []Event, record bool) []Event {
	p, x := s.Players(), s.cards
	zones := s.zones
	t := pancakesTableOf(s)
	if t != nil {
		t.count, t.single = [PancakesMaxPlayers + 1]pancakesCount{}, [PancakesMaxPlayers + 1]uint64{}
	}
	draw, aside := zones[pancakesDraw].cards, zones[pancakesAside].cards
	for j := range pancakesHand {
		for i := range p {
			z := pancakesFirst + i*pancakesHand + j
			from := pancakesDraw
			var c int32
			if j < pancakesSingles {
				from, c, aside = pancakesAside, aside[len(aside)-1], aside[:len(aside)-1]
			} else {
				c, draw = draw[len(draw)-1], draw[:len(draw)-1]
			}
			zones[z].cards = zones[z].cards[:1] // empty, with room: no write barrier
			zones[z].cards[0] = c
			if record {
				ev = appendEvent(ev, EventMove, i, -1, int(c), 1, from, z)
			}
			if t != nil {
				b := x.bits[c]
				t.top[z] = b
				if j < pancakesSingles {
					t.single[i] |= b
					t.singleAt[bits.TrailingZeros64(b)] = uint8(z)
				} else {
					t.six[i][j-pancakesSingles], t.atSix[z] = uint8(z), uint8(j-pancakesSingles)
					t.count[i].add(b)
				}
			}
		}
	}
	c := draw[len(draw)-1]
	draw = draw[:len(draw)-1]
	zones[pancakesCommon].cards = zones[pancakesCommon].cards[:1]
	zones[pancakesCommon].cards[0] = c
	if record {
		ev = appendEvent(ev, EventMove, NoSeat, -1, int(c), 1, pancakesDraw, pancakesCommon)
	}
	// Shorter, same array: no write barrier, as in take.
	zones[pancakesDraw].cards = zones[pancakesDraw].cards[:len(draw)]
	zones[pancakesAside].cards = zones[pancakesAside].cards[:len(aside)]
	if t != nil {
		t.dealt(p, x.bits[c])
	}
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
	zones := s.zones
	// The two decks, as deck[0] and deck[1], filled without a branch on
	// which one a card goes to: the two kinds of cards come mixed.
	deck := [2][]int32{zones[pancakesDraw].cards, zones[pancakesAside].cards}
	n := [2]int{len(deck[0]), len(deck[1])}
	deck[0], deck[1] = deck[0][:cap(deck[0])], deck[1][:cap(deck[1])]
	for z := pancakesCommon; z < len(zones); z++ {
		if z == pancakesAside {
			continue
		}
		c := zones[z].cards
		for i := len(c) - 1; i >= 0; i-- {
			card, k := c[i], 0
			if card >= planes {
				k = 1
			}
			deck[k][n[k]] = card
			n[k]++
			ev = appendEvent(ev, EventMove, NoSeat, -1, int(card), 1, z, pancakesDraw+k*(pancakesAside-pancakesDraw))
		}
		zones[z].cards = zones[z].cards[:0] // no write barrier, as in take
	}
	zones[pancakesDraw].cards = zones[pancakesDraw].cards[:n[0]]
	zones[pancakesAside].cards = zones[pancakesAside].cards[:n[1]]
	ev = s.shuffle(ev, pancakesDraw)
	ev = s.shuffle(ev, pancakesAside)
	return pancakesDeal(s, ev, true)
}

// pancakesLive reports whether the round can go on: some seat still in
// can draw, or some seat has a claim.
func pancakesLive(s *State) bool {
	if t := pancakesTableOf(s); t != nil {
		if len(s.zones[pancakesDraw].cards) > 0 {
			for i := range s.seats {
				if t.holds(i) {
					return true
				}
			}
		}
		twice, _ := t.contested(len(s.seats))
		return twice != 0
	}
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
	if t := pancakesTableOf(s); t != nil {
		// A claim from one of the seat's stacks onto another owner's
		// top card showing the topping, read from the table; any other
		// is refused below, with its reason.
		from, to := a.Target.z[0], a.Target.z[1]
		if int(t.owner[from]) == a.Seat && int(t.owner[to]) != a.Seat && (t.top[from]&t.top[to])>>a.Symbol&1 != 0 {
			return nil
		}
	}
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
	t := pancakesTableOf(s)
	if a.Kind == ActionDraw {
		z := pancakesFirst
		if t != nil {
			// The seat's lowest empty place, or a new one.
			if j := bits.TrailingZeros64(^t.in[a.Seat]); j < int(t.places[a.Seat]) {
				z = int(t.place[a.Seat][j])
			} else {
				z = s.addZone(ZonePile, a.Seat, ShowTop)
				t.addPlace(a.Seat, z)
			}
		} else {
			for z < len(s.zones) && (s.zones[z].Seat != a.Seat || len(s.zones[z].cards) > 0) {
				z++
			}
			if z == len(s.zones) {
				s.addZone(ZonePile, a.Seat, ShowTop)
			}
		}
		ev = s.move(ev, a.Seat, pancakesDraw, z)
		if t != nil {
			t.set(s, z)
		}
	} else {
		ev = claimed(ev, a)
		from, to := int(a.Target.z[0]), int(a.Target.z[1])
		ev = s.moveStack(ev, a.Seat, from, to)
		if t != nil {
			t.cover(from, to)
		}
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
	// The round goes on, the usual case, if the seat that acted still has
	// cards and may draw; otherwise ask pancakesLive.
	if (len(s.zones[pancakesDraw].cards) == 0 || !pancakesIn(s, a.Seat)) && !pancakesLive(s) {
		ev = pancakesNewRound(s, ev)
	}
	return ev
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

// pancakesRecord is how a record of Anarchy Pancakes is checked: a seat
// whose claim empties its places earns a butter pat, when the round ends
// at the first to empty (round-end=first) or it is the first to; each
// seat scores its pats.
func pancakesRecord(t RecordTable) *RecordHooks {
	pats := make([]int, t.Players())
	return &RecordHooks{
		Event: func(a *Action, ev []Event, i int) error {
			if i == 1 && a.Kind == ActionClaim && ev[i].Kind == EventMove && t.CardsOf(a.Seat, ZonePile) == 0 {
				out := 0
				for s := range t.Players() {
					if t.CardsOf(s, ZonePile) == 0 {
						out++
					}
				}
				if t.Option("round-end") == "first" || out == 1 {
					pats[a.Seat]++
				}
			}
			return nil
		},
		Scores: func() ([]int, string) { return slices.Clone(pats), "" },
	}
}
