package rules

import (
	"errors"
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
	Claim:      &ClaimShape{Targets: []Place{{Kinds: []ZoneKind{ZonePile}, Whose: Mine}, {Kinds: []ZoneKind{ZoneCentre, ZonePile}, Whose: NotMine}}},
	Deck:       &DeckSpec{Edition: "pancakes", Singles: true, Only: true},
	Points:     &Points{Score: perScorePoints(10, 0, 0), Rule: "+10 a butter pat"},
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

// Bounds of the tables a pancakesTable keeps: at most pancakesMaxPlaces
// places per seat (one bit each), pancakesMaxZones zones (one byte each)
// and pancakesMaxCount six-topping cards showing one topping (four bits).
const (
	pancakesMaxPlaces = 64
	pancakesMaxZones  = 256
	pancakesMaxCount  = 15
)

// pancakesCommonOwner is the owner of the Common card in a pancakesTable,
// after the seats.
const pancakesCommonOwner = PancakesMaxPlayers

// pancakesCount counts, for each of up to 64 toppings, some cards showing
// it: bit-sliced, bit t of c[k] being bit k of topping t's count, so that a
// few operations add a card to the counts of all its toppings or sum the
// counts of a set of toppings.
type pancakesCount [4]uint64

// add adds one to the count of every topping of b; none may go past
// pancakesMaxCount.
func (c *pancakesCount) add(b uint64) {
	// Unrolled by hand: written as a loop, it keeps a branch a plane.
	c0, c1, c2 := c[0], c[1], c[2]
	k1 := c0 & b
	k2 := c1 & k1
	c[0], c[1], c[2], c[3] = c0^b, c1^k1, c2^k2, c[3]^(c2&k2)
}

// plus adds o's counts to c's, topping by topping: a ripple-carry addition
// of the planes. No count may go past pancakesMaxCount.
func (c *pancakesCount) plus(o *pancakesCount) {
	a0, a1, a2 := c[0], c[1], c[2]
	k1 := a0 & o[0]
	k2 := a1&o[1] | k1&(a1^o[1])
	k3 := a2&o[2] | k2&(a2^o[2])
	c[0], c[1], c[2], c[3] = a0^o[0], a1^o[1]^k1, a2^o[2]^k2, c[3]^o[3]^k3
}

// over returns the toppings of b whose count is pancakesMaxCount: those
// add would carry past it.
func (c *pancakesCount) over(b uint64) uint64 { return c[0] & c[1] & c[2] & c[3] & b }

// sub takes one from the count of every topping of b, which must all be
// counted.
func (c *pancakesCount) sub(b uint64) {
	c0, c1, c2, c3 := c[0], c[1], c[2], c[3]
	k1 := b &^ c0
	k2 := k1 &^ c1
	k3 := k2 &^ c2
	c[0], c[1], c[2], c[3] = c0^b, c1^k1, c2^k2, c3^k3
}

// at returns the count of topping sym.
func (c *pancakesCount) at(sym int) int {
	return int(c[0]>>sym&1 | c[1]>>sym&1<<1 | c[2]>>sym&1<<2 | c[3]>>sym&1<<3)
}

// weigh returns the sum of the counts of the toppings of b.
func (c *pancakesCount) weigh(b uint64) int {
	return bits.OnesCount64(c[0]&b) + 2*bits.OnesCount64(c[1]&b) + 4*bits.OnesCount64(c[2]&b) + 8*bits.OnesCount64(c[3]&b)
}

// pancakesTable is Anarchy Pancakes' Extension: the table's top cards as
// toppings, sorted by owner (each seat, and the Common card) into
// six-topping cards and one-topping cards, kept up to date by Apply. CanMove,
// Movers, PickMove and the end of a round read it instead of going over
// every zone. It mirrors the table, so it holds nothing a replay would not
// rebuild; the order of its lists follows the moves, so it is the same in
// every replay too.
//
// The sorting makes claims easy to count: any two six-topping cards share
// exactly one topping, so each of a seat's six-topping top cards has a
// claim on every other owner's; a one-topping card shares its topping with
// the six-topping cards showing it and with nothing else (there is one
// one-topping card per topping, so no two of them match); so the claims of
// a seat number its sixes × the others' sixes, plus the pairs of its
// six-topping cards and the others' one-topping cards, plus the pairs of
// its one-topping cards and the others' six-topping cards, which the
// counts of toppings give at once.
//
// Setup keeps one when each card's toppings fit one word and the table
// stays within the bounds above; otherwise the State carries none and every
// question goes over the zones.
type pancakesTable struct {
	// top holds the toppings of the top card of the Common card and of
	// each place, 0 when the place is empty; zones 0 and 2 stay 0.
	top [pancakesMaxZones]uint64
	// owner holds the seat of each place, pancakesCommonOwner for the
	// Common card.
	owner [pancakesMaxZones]uint8
	// ord holds each place's number among its seat's places.
	ord [pancakesMaxZones]uint8
	// place holds each seat's places in zone order: place[i][j] is the
	// zone of seat i's j-th place; places[i] is how many it has.
	place  [PancakesMaxPlayers][pancakesMaxPlaces]uint8
	places [PancakesMaxPlayers]uint8
	// in holds, for each seat, bit j set when its j-th place has cards.
	in [PancakesMaxPlayers]uint64
	// six lists, for each owner, the zones whose top card is a
	// six-topping card, sixes[o] of them, in no particular order; atSix
	// holds each such zone's position in its owner's list; allSixes is
	// the sum of sixes.
	six      [PancakesMaxPlayers + 1][pancakesMaxPlaces]uint8
	sixes    [PancakesMaxPlayers + 1]uint8
	atSix    [pancakesMaxZones]uint8
	allSixes int
	// count counts, for each owner, the toppings of its six-topping top
	// cards; allCount counts them for every owner.
	count    [PancakesMaxPlayers + 1]pancakesCount
	allCount pancakesCount
	// single holds, for each owner, the toppings of its one-topping top
	// cards, and allSingles those of every owner; singleAt holds the zone
	// of the one-topping card of each topping set there.
	single     [PancakesMaxPlayers + 1]uint64
	allSingles uint64
	singleAt   [64]uint8
}

// pancakesTableOf returns the pancakesTable of s, or nil.
func pancakesTableOf(s *State) *pancakesTable {
	t, _ := s.ext.(*pancakesTable)
	return t
}

// pancakesFits reports whether a table of p seats playing s's deck stays
// within the bounds of a pancakesTable: a card's toppings fit one word, a
// seat has at most seven places and one per card of the draw pile after a
// deal, and no topping shows on more than pancakesMaxCount of the planes
// six-topping cards.
func pancakesFits(s *State, planes, p int) bool {
	x := s.cards
	most := pancakesHand + planes - pancakesSixes*p - 1
	if x.words != 1 || most > pancakesMaxPlaces || pancakesFirst+p*most > pancakesMaxZones {
		return false
	}
	var c pancakesCount
	for _, b := range x.bits[:planes] {
		if c.over(b) != 0 {
			return false
		}
		c.add(b)
	}
	return true
}

// CloneExtension returns a copy of the table.
func (t *pancakesTable) CloneExtension() Extension {
	c := *t
	return &c
}

// EqualExtension reports whether o is the same table, lists in the same
// order.
func (t *pancakesTable) EqualExtension(o Extension) bool {
	return t.differs(o.(*pancakesTable), true) == nil
}

// Resync rebuilds the table from the zones of s, its lists in zone order.
// What lies beyond the zones and lists of s is left as it was: nothing
// reads it, and neither differs nor EqualExtension compares it, so a
// table reused for a new game (State.Reset) need not be cleared.
func (t *pancakesTable) Resync(s *State) {
	t.layout(s)
	t.recount(s)
}

// layout lists the places of s, empty.
func (t *pancakesTable) layout(s *State) {
	t.places = [PancakesMaxPlayers]uint8{}
	t.owner[pancakesCommon] = pancakesCommonOwner
	for z := pancakesFirst; z < len(s.zones); z++ {
		t.addPlace(s.zones[z].Seat, z)
	}
}

// addPlace adds zone z as seat's next place, empty.
func (t *pancakesTable) addPlace(seat, z int) {
	n := t.places[seat]
	t.place[seat][n], t.ord[z], t.owner[z], t.top[z] = uint8(z), n, uint8(seat), 0
	t.places[seat] = n + 1
}

// recount reads every top card of s again, as after a deal, and lists them
// in zone order.
func (t *pancakesTable) recount(s *State) {
	t.in, t.sixes, t.allSixes = [PancakesMaxPlayers]uint64{}, [PancakesMaxPlayers + 1]uint8{}, 0
	t.count, t.allCount = [PancakesMaxPlayers + 1]pancakesCount{}, pancakesCount{}
	t.single, t.allSingles = [PancakesMaxPlayers + 1]uint64{}, 0
	b := s.cards.bits[s.top(pancakesCommon)]
	t.top[pancakesCommon] = b
	t.list(pancakesCommon, b)
	for z := pancakesFirst; z < len(s.zones); z++ {
		t.top[z] = 0
		if c := s.zones[z].cards; len(c) > 0 {
			b := s.cards.bits[c[len(c)-1]]
			t.top[z] = b
			t.list(z, b)
		}
	}
}

// dealt completes the table after pancakesDeal has listed the cards it
// dealt to the p seats' first seven places: one-topping cards in the first
// two, six-topping cards in the others, none in the places added later;
// common is the toppings of the Common card.
func (t *pancakesTable) dealt(p int, common uint64) {
	t.top[pancakesCommon], t.six[pancakesCommonOwner][0], t.atSix[pancakesCommon] = common, pancakesCommon, 0
	t.count[pancakesCommonOwner], t.sixes[pancakesCommonOwner] = pancakesCount{common}, 1
	t.allCount, t.allSingles, t.allSixes = pancakesCount{common}, 0, pancakesSixes*p+1
	for i := range p {
		for _, z := range t.place[i][pancakesHand:t.places[i]] {
			t.top[z] = 0
		}
		t.sixes[i], t.in[i] = pancakesSixes, 1<<pancakesHand-1
		t.allSingles |= t.single[i]
		t.allCount.plus(&t.count[i])
	}
}

// list lists zone z, whose top card now shows toppings b.
func (t *pancakesTable) list(z int, b uint64) {
	o := t.owner[z]
	if b&(b-1) == 0 {
		t.single[o] |= b
		t.allSingles |= b
		t.singleAt[bits.TrailingZeros64(b)] = uint8(z)
	} else {
		n := t.sixes[o]
		t.six[o][n], t.atSix[z] = uint8(z), n
		t.sixes[o] = n + 1
		t.allSixes++
		t.count[o].add(b)
		t.allCount.add(b)
	}
	if o != pancakesCommonOwner {
		t.in[o] |= 1 << t.ord[z]
	}
}

// unlist takes zone z, whose top card showed toppings b, off the lists,
// moving the last of its owner's six-topping cards into its position.
func (t *pancakesTable) unlist(z int, b uint64) {
	o := t.owner[z]
	if b&(b-1) == 0 {
		t.single[o] &^= b
		t.allSingles &^= b
	} else {
		t.dropSix(o, z)
		t.allSixes--
		t.count[o].sub(b)
		t.allCount.sub(b)
	}
	if o != pancakesCommonOwner {
		t.in[o] &^= 1 << t.ord[z]
	}
}

// set reads the top card of zone z, the Common card or a place, again after
// a move.
func (t *pancakesTable) set(s *State, z int) {
	var b uint64
	if c := s.zones[z].cards; len(c) > 0 {
		b = s.cards.bits[c[len(c)-1]]
	}
	if old := t.top[z]; old != 0 {
		t.unlist(z, old)
	}
	t.top[z] = b
	if b != 0 {
		t.list(z, b)
	}
}

// cover updates the table after a claim moved the stack of place from onto
// zone to, whose top card it covers. The two cards share a topping, so at
// most one of them is a one-topping card.
func (t *pancakesTable) cover(from, to int) {
	b, d := t.top[from], t.top[to]
	oa, ob := t.owner[from], t.owner[to]
	t.in[oa] &^= 1 << t.ord[from]
	t.top[from], t.top[to] = 0, b
	switch {
	case b&(b-1) == 0:
		// A one-topping card on a six-topping card: it changes owner,
		// and zone to leaves its owner's six-topping cards.
		t.single[oa] &^= b
		t.single[ob] |= b
		t.singleAt[bits.TrailingZeros64(b)] = uint8(to)
		t.dropSix(ob, to)
		t.allSixes--
		t.count[ob].sub(d)
		t.allCount.sub(d)
	case d&(d-1) == 0:
		// A six-topping card on a one-topping card: it changes owner
		// and zone, and the one-topping card leaves the table's top.
		t.dropSix(oa, from)
		n := t.sixes[ob]
		t.six[ob][n], t.atSix[to] = uint8(to), n
		t.sixes[ob] = n + 1
		t.count[oa].sub(b)
		t.count[ob].add(b)
		t.single[ob] &^= d
		t.allSingles &^= d
	default:
		// Two six-topping cards: zone to keeps its place in its owner's
		// list, from leaves its owner's, and the covered card's toppings
		// are counted no more.
		t.dropSix(oa, from)
		t.allSixes--
		t.count[oa].sub(b)
		t.count[ob].sub(d)
		t.count[ob].add(b)
		t.allCount.sub(d)
	}
}

// dropSix takes zone z off owner o's list of six-topping cards, moving the
// last of the list into its position.
func (t *pancakesTable) dropSix(o uint8, z int) {
	n := t.sixes[o] - 1
	last, at := t.six[o][n], t.atSix[z]
	t.six[o][at], t.atSix[last] = last, at
	t.sixes[o] = n
}

// holds reports whether seat has cards in front of it.
func (t *pancakesTable) holds(seat int) bool { return t.in[seat] != 0 }

// contested returns the toppings shown by the top cards of at least two
// owners among the p seats and the Common card, and the toppings each
// seat's top cards show: a seat has a claim exactly when one of its top
// cards shows one of the former.
func (t *pancakesTable) contested(p int) (twice uint64, shown [PancakesMaxPlayers + 1]uint64) {
	var seen uint64
	for o := range shown {
		if o >= p && o != pancakesCommonOwner {
			continue
		}
		c := &t.count[o]
		b := t.single[o] | c[0] | c[1] | c[2] | c[3]
		shown[o] = b
		twice |= seen & b
		seen |= b
	}
	return twice, shown
}

// pick is PickMove read from the table: it counts seat's claims (see
// pancakesTable), draws one, each equally likely, and finds its stack,
// topping and covered card; with none, the draw if the draw pile is not
// empty.
func (t *pancakesTable) pick(s *State, seat int, r Rand, a *Action) bool {
	sixes, singles := int(t.sixes[seat]), t.single[seat]
	if sixes == 0 && singles == 0 {
		return false // out of the round: no claim, no draw
	}
	// The pairs of the seat's six-topping cards with the others', with
	// their one-topping cards, and of its one-topping cards with their
	// six-topping cards.
	mine := &t.count[seat]
	theirs := t.allSingles &^ singles
	sixSix := sixes * (t.allSixes - sixes)
	sixOne := mine.weigh(theirs)
	oneSix := t.allCount.weigh(singles) - mine.weigh(singles)
	total := sixSix + sixOne + oneSix
	if total == 0 {
		if len(s.zones[pancakesDraw].cards) > 0 {
			s.setDraw(a, seat)
			return true
		}
		return false
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	own := t.six[seat][:sixes]
	var src, dst int
	switch {
	case n < sixSix:
		// The q-th six-topping card of the others: the Common card's
		// first, then the seats' in seat order.
		q := int(uint32(n) / uint32(sixes))
		src = int(own[n-q*sixes])
		o := pancakesCommonOwner
		for k := int(t.sixes[o]); q >= k; k = int(t.sixes[o]) {
			q -= k
			if o++; o > pancakesCommonOwner {
				o = 0
			}
			if o == seat {
				o++
			}
		}
		dst = int(t.six[o][q])
	case n < sixSix+sixOne:
		n -= sixSix
		for _, z := range own {
			m := t.top[z] & theirs
			if k := bits.OnesCount64(m); n >= k {
				n -= k
				continue
			}
			for ; n > 0; n-- {
				m &= m - 1
			}
			src, dst = int(z), int(t.singleAt[bits.TrailingZeros64(m)])
			break
		}
	default:
		var sym int
		dst, sym = t.oneSix(seat, singles, n-sixSix-sixOne)
		src = int(t.singleAt[sym])
	}
	tg := Targets{n: 2}
	tg.z[0], tg.z[1] = int32(src), int32(dst)
	s.setClaim(a, seat, bits.TrailingZeros64(t.top[src]&t.top[dst]), &tg)
	return true
}

// oneSix returns the n-th pair, counting from 0, of a one-topping top card
// of seat, whose toppings are singles, and a six-topping top card of
// another owner showing its topping: the zone of the six-topping card and
// their topping.
func (t *pancakesTable) oneSix(seat int, singles uint64, n int) (int, int) {
	// The topping, then the owner, from the counts; then the card.
	for ; singles != 0; singles &= singles - 1 {
		sym := bits.TrailingZeros64(singles)
		if k := t.allCount.at(sym) - t.count[seat].at(sym); n >= k {
			n -= k
			continue
		}
		for o := range t.six {
			if k := t.count[o].at(sym); o == seat || n >= k {
				if o != seat {
					n -= k
				}
				continue
			}
			for _, z := range t.six[o][:t.sixes[o]] {
				if t.top[z]>>sym&1 != 0 {
					if n == 0 {
						return int(z), sym
					}
					n--
				}
			}
		}
	}
	panic("rules: anarchy-pancakes: claim out of range")
}

// differs returns an error naming the first difference between t and u,
// with the order of their lists or without (as when u is the table rebuilt
// from the zones), or nil.
func (t *pancakesTable) differs(u *pancakesTable, ordered bool) error {
	if t.places != u.places || t.in != u.in || t.sixes != u.sixes || t.allSixes != u.allSixes ||
		t.count != u.count || t.allCount != u.allCount || t.single != u.single || t.allSingles != u.allSingles {
		return fmt.Errorf("the table of top cards (places %x, six-topping cards %v, one-topping cards %x) differs from (%x, %v, %x)",
			t.in, t.sixes, t.single, u.in, u.sixes, u.single)
	}
	zones := pancakesFirst
	for i, n := range t.places {
		zones += int(n)
		if !slices.Equal(t.place[i][:n], u.place[i][:n]) {
			return fmt.Errorf("seat %d's places are zones %v in the table of top cards, %v", i, t.place[i][:n], u.place[i][:n])
		}
	}
	if !slices.Equal(t.top[pancakesCommon:zones], u.top[pancakesCommon:zones]) ||
		!slices.Equal(t.owner[pancakesCommon:zones], u.owner[pancakesCommon:zones]) ||
		!slices.Equal(t.ord[pancakesFirst:zones], u.ord[pancakesFirst:zones]) {
		return fmt.Errorf("the table of top cards has top cards %x, %x", t.top[pancakesCommon:zones], u.top[pancakesCommon:zones])
	}
	for o := range t.sixes {
		list, other := t.six[o][:t.sixes[o]], u.six[o][:u.sixes[o]]
		for j, z := range list {
			if t.atSix[z] != uint8(j) {
				return fmt.Errorf("zone %d is listed at %d, but found at %d", z, t.atSix[z], j)
			}
		}
		if ordered && !slices.Equal(list, other) || !sameSet(list, other) {
			return fmt.Errorf("the table of top cards lists six-topping cards on %v for owner %d, and %v", list, o, other)
		}
		for m := t.single[o]; m != 0; m &= m - 1 {
			if sym := bits.TrailingZeros64(m); t.singleAt[sym] != u.singleAt[sym] {
				return fmt.Errorf("the table of top cards has the one-topping card of topping %d on zone %d, and %d", sym, t.singleAt[sym], u.singleAt[sym])
			}
		}
	}
	return nil
}

// sameSet reports whether a and b, lists without repeats, hold the same
// elements.
func sameSet(a, b []uint8) bool {
	if len(a) != len(b) {
		return false
	}
	var in [pancakesMaxZones]bool
	for _, x := range a {
		in[x] = true
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return true
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
// empty; the pancakesTable, if any, mirrors the top cards; no more butter
// pats than rounds; while the game runs, no seat has
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
	if err := pancakesTableInvariant(s); err != nil {
		return err
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

// pancakesTableInvariant checks that the pancakesTable of s, if it has one,
// mirrors its table.
func pancakesTableInvariant(s *State) error {
	t := pancakesTableOf(s)
	if t == nil {
		return nil
	}
	var fresh pancakesTable
	fresh.Resync(s)
	return t.differs(&fresh, false)
}

// CanMove reports whether seat may draw (it has cards in front of it and
// the draw pile is not empty) or has a claim: one of its top cards shares
// a topping with the Common card or with another seat's top card.
func (anarchyPancakes) CanMove(s *State, seat int) bool {
	drawable := len(s.zones[pancakesDraw].cards) > 0
	if t := pancakesTableOf(s); t != nil {
		if drawable {
			return t.holds(seat)
		}
		twice, shown := t.contested(len(s.seats))
		return shown[seat]&twice != 0
	}
	common := s.top(pancakesCommon)
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

// PickMove picks one of seat's claims at random, or the draw when it has
// none. Any two cards of the table share at most one topping (two
// six-topping cards exactly one, a one-topping card at most its own, two
// one-topping cards none: pancakesShape checked it), so a claim is a pair
// of one of the seat's stacks and a card it may cover that share a
// topping. With a pancakesTable it counts them from the counts of each
// topping and finds the one drawn without going over the table (see
// pancakesTable.pick); without one it lists the seat's stacks and the cards
// it may cover and counts the pairs.
func (anarchyPancakes) PickMove(s *State, seat int, r Rand, a *Action) bool {
	if t := pancakesTableOf(s); t != nil {
		return t.pick(s, seat, r, a)
	}
	var ownBuf, coverBuf [64]int32
	own, cover := ownBuf[:0], coverBuf[:0]
	if s.top(pancakesCommon) >= 0 {
		cover = append(cover, pancakesCommon)
	}
	for z := pancakesFirst; z < len(s.zones); z++ {
		switch {
		case len(s.zones[z].cards) == 0:
		case s.zones[z].Seat == seat:
			own = append(own, int32(z))
		default:
			cover = append(cover, int32(z))
		}
	}
	if len(own) == 0 {
		return false // out of the round: no claim, no draw
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

// Movers returns the seats that may draw or have a claim, as CanMove
// answers seat by seat, in one pass over the seats with a pancakesTable.
func (g anarchyPancakes) Movers(s *State) uint64 {
	t := pancakesTableOf(s)
	if t == nil {
		var set uint64
		for i := range s.seats {
			if g.CanMove(s, i) {
				set |= 1 << i
			}
		}
		return set
	}
	var set uint64
	if len(s.zones[pancakesDraw].cards) > 0 {
		// The usual case: every seat with cards may draw. With round-end
		// "first" that is every seat, since a round ends the moment one
		// runs out.
		if s.Option(pancakesOptRoundEnd) == pancakesEndFirst {
			return s.everyone(true)
		}
		for i := range s.seats {
			if t.holds(i) {
				set |= 1 << i
			}
		}
		return set
	}
	twice, shown := t.contested(len(s.seats))
	for i := range s.seats {
		if shown[i]&twice != 0 {
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
	total := 0
	for _, src := range own {
		for _, dst := range cover {
			total += x.shared(s.top(int(src)), s.top(int(dst)))
		}
	}
	if total == 0 {
		return false
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for _, src := range own {
		for _, dst := range cover {
			k := x.shared(s.top(int(src)), s.top(int(dst)))
			if n < k {
				t := Targets{n: 2}
				t.z[0], t.z[1] = src, dst
				s.setClaim(a, seat, x.nthShared(s.top(int(src)), s.top(int(dst)), n), &t)
				return true
			}
			n -= k
		}
	}
	panic("rules: anarchy-pancakes: claim out of range")
}
