package rules

import "math/bits"

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
