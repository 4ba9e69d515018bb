package rules

import (
	"errors"
	"fmt"
	"math/bits"
)

// Triplets (RULES.md §3.5), Trojaczki / Trillinger.
//
// Setup: shuffle all the cards into a face-down stock and deal the grid face
// up from it. Play: the first seat to name a symbol that three grid cards
// all show, pointing at the three, takes them onto its won pile; cards from
// the stock fill the gaps until the grid is full again. End: the stock is
// empty and no three cards on the table share a symbol. Score: cards won;
// most cards wins.
//
// The grid's size follows the deck's order q: q+2 cards for odd q, q+3 for
// even q (9 for the classic order-7 deck). Cards of which no three show a
// common symbol are lines of the deck's plane no three of which meet in a
// point, the dual of an arc, and an arc of PG(2,q) has at most q+1 points
// for odd q and q+2 for even q (an oval, a hyperoval); so a grid of that
// size always holds a triple, and no smaller size always does. The
// order is read from card 0, which shows q+1 symbols. The "grid" option
// fixes another size instead, such as the printed 3×3 grid on any deck.
// Whenever the table holds no triple and the stock is not empty (which with
// the default size never happens on a deck of package deck, but does with
// a smaller grid, such as 9 cards of an order-8 or order-9 deck, or with a
// card source that is not a plane), extra cards are dealt one at a time
// until a triple appears. After a claim the gaps are filled only up to the
// grid's size: a table grown by extra cards shrinks back as triples are
// taken. When the stock runs out the table shrinks below the grid's size
// and play goes on while a triple remains.
//
// Table: zone 0 is the stock (hidden); zone 1+i is seat i's won pile; zones
// from 1+players on are grid slots, each holding one card or none. Setup
// makes as many slots as the grid holds, in grid order. A dealt card goes
// to the lowest empty slot; an extra card that finds every slot full gets a
// new slot at the end. Slots are never removed, so zone numbers stay valid
// for the whole game, and a slot may be empty. A claim names three
// different slots, in increasing zone order, holding the three cards that
// show its symbol.

func init() { Register(triplets{}) }

// triplets implements Game for Triplets.
type triplets struct{}

// ZoneSlot is a grid slot: a place on the table for one face-up card.
const ZoneSlot ZoneKind = "slot"

// tripletsStock is the stock's zone; seat i's won pile is zone
// tripletsWon(i) and the grid slots follow the won piles.
const tripletsStock = 0

// tripletsOptGrid is the index of the "grid" option.
const tripletsOptGrid = 0

// tripletsWon returns the zone of seat's won pile.
func tripletsWon(seat int) int { return 1 + seat }

// tripletsSlots returns the zone of the first grid slot.
func tripletsSlots(s *State) int { return 1 + s.Players() }

// tripletsInfo is Triplets' description.
var tripletsInfo = Info{
	Claim:      &ClaimShape{Targets: []Place{{Kinds: []ZoneKind{ZoneSlot}, Whose: Shared}, {Kinds: []ZoneKind{ZoneSlot}, Whose: Shared}, {Kinds: []ZoneKind{ZoneSlot}, Whose: Shared}}, Ascending: true},
	Points:     &Points{Score: perScorePoints(1, 0, 5), Rule: "+1 a card won, +5 to the winner"},
	Name:       "triplets",
	Title:      "Triplets",
	Section:    "docs/RULES.md §3.5",
	MinPlayers: DobbleMinPlayers,
	MaxPlayers: DobbleMaxPlayers,
	Unit:       "cards",
	HigherWins: true,
	Targets:    3,
	Options: []Option{{
		Name: "grid",
		Doc: "How many cards the grid holds: 0 sizes it by the deck's order q, q+2 cards for odd q and q+3 for even q " +
			"(9 for the classic deck), so that it always holds a triple; 3 or more fixes the size (9 is the printed 3×3 grid), " +
			"and extra cards are dealt whenever the table holds no triple.",
		Min: 0, Max: 99, Default: "0",
	}},
	Record: ScoreCardsIn(1, ZoneWon),
}

// Info describes Triplets: 2 to 8 players, cards won, most wins, three
// target slots, the grid-size option.
func (triplets) Info() Info { return tripletsInfo }

// tripletsGridFor returns the grid size for the option value opt and a deck
// whose card 0 shows k = q+1 symbols.
func tripletsGridFor(opt, k int) int {
	if opt != 0 {
		return opt
	}
	q := k - 1
	if q%2 == 1 {
		return q + 2
	}
	return q + 3
}

// tripletsGrid returns the number of cards the grid holds in game s.
func tripletsGrid(s *State) int {
	x := s.cards
	return tripletsGridFor(s.Option(tripletsOptGrid), int(x.start[1]-x.start[0]))
}

// Setup shuffles the deck into the stock, deals the grid, and deals extra
// cards while it holds no triple. It refuses a grid option of 1 or 2 and a
// deck in which no three cards share a symbol.
func (triplets) Setup(s *State) error {
	if v := s.Option(tripletsOptGrid); v == 1 || v == 2 {
		return &ConfigError{Game: tripletsInfo.Name, Field: "grid", Reason: fmt.Sprintf(
			"%d cards; a triple needs 3, so use 0 (sized by the deck's order) or 3 to 99", v)}
	}
	p, grid := s.Players(), tripletsGrid(s)
	s.reserve(1+p+grid, (1+p)*s.cards.Len()+grid)
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	for i := 0; i < p; i++ {
		s.addZone(ZoneWon, i, ShowTop)
	}
	for j := 0; j < grid; j++ {
		s.addSlot(ZoneSlot, NoSeat, ShowAll)
	}
	s.dealAll(tripletsStock)
	for j := 0; j < grid && s.count(tripletsStock) > 0; j++ {
		s.take(tripletsStock, tripletsSlots(s)+j)
	}
	for !tripletsAny(s) {
		if s.count(tripletsStock) == 0 {
			return &ConfigError{Game: tripletsInfo.Name, Field: "cards", Reason: fmt.Sprintf(
				"no three of the %d cards show a common symbol; Triplets needs a deck with a triple, "+
					"such as any q+2 cards of a deck of odd order q (q+3 for even q)", s.cards.Len())}
		}
		s.take(tripletsStock, tripletsFree(s))
	}
	return nil
}

// tripletsFree returns the lowest empty grid slot, adding a slot at the end
// when every slot holds a card.
func tripletsFree(s *State) int {
	for z := tripletsSlots(s); z < len(s.zones); z++ {
		if len(s.zones[z].cards) == 0 {
			return z
		}
	}
	return s.addSlot(ZoneSlot, NoSeat, ShowAll)
}

// tripletsThrees returns, for word w of the symbol bitsets, the symbols
// that at least three cards on the grid show: a bit-sliced count that
// saturates at three.
func tripletsThrees(s *State, w int) uint64 {
	x := s.cards
	var ones, twos, threes uint64
	for z := tripletsSlots(s); z < len(s.zones); z++ {
		if c := s.zones[z].cards; len(c) > 0 {
			b := x.bits[int(c[0])*x.words+w]
			threes |= twos & b
			twos |= ones & b
			ones |= b
		}
	}
	return threes
}

// tripletsAny reports whether three cards on the grid share a symbol.
func tripletsAny(s *State) bool {
	for w := 0; w < s.cards.words; w++ {
		if tripletsThrees(s, w) != 0 {
			return true
		}
	}
	return false
}

// Check refuses a claim whose three targets are not different slots in
// increasing order (malformed), are not all grid slots holding a card (bad
// target), or do not all show the symbol (not a match).
func (triplets) Check(s *State, a *Action) *Refusal {
	z0, z1, z2 := int(a.Target.z[0]), int(a.Target.z[1]), int(a.Target.z[2])
	if z0 >= z1 || z1 >= z2 {
		return refuse(CodeMalformed, a, "name three different grid slots in increasing zone order")
	}
	if z0 < tripletsSlots(s) {
		return refuse(CodeBadTarget, a, "name three grid slots")
	}
	c0, c1, c2 := s.top(z0), s.top(z1), s.top(z2)
	if c0 < 0 || c1 < 0 || c2 < 0 {
		return refuse(CodeBadTarget, a, "a named grid slot is empty")
	}
	x := s.cards
	if !x.Has(c0, a.Symbol) || !x.Has(c1, a.Symbol) || !x.Has(c2, a.Symbol) {
		return refuse(CodeNotAMatch, a, "the symbol is not on all three cards")
	}
	return nil
}

// Apply moves the three cards onto the claimant's won pile, fills the gaps
// up to the grid's size, deals extra cards while no triple shows, and ends
// the game when the stock is empty and no triple remains.
func (triplets) Apply(s *State, a *Action, ev []Event) []Event {
	ev = claimed(ev, a)
	won := tripletsWon(a.Seat)
	for i := 0; i < 3; i++ {
		ev = s.move(ev, a.Seat, int(a.Target.z[i]), won)
	}
	first, on := tripletsSlots(s), 0
	for z := first; z < len(s.zones); z++ {
		on += len(s.zones[z].cards)
	}
	// Fill the lowest gaps up to the grid's size; there are enough slots,
	// since Setup made one per grid card.
	need := min(tripletsGrid(s)-on, s.count(tripletsStock))
	for z := first; need > 0; z++ {
		if len(s.zones[z].cards) == 0 {
			ev = s.move(ev, NoSeat, tripletsStock, z)
			need--
		}
	}
	for !tripletsAny(s) {
		if s.count(tripletsStock) == 0 {
			return s.finish(ev)
		}
		ev = s.move(ev, NoSeat, tripletsStock, tripletsFree(s))
	}
	return ev
}

// Moves appends every correct claim: for each symbol that three or more
// grid cards show, one claim per three of those cards.
func (triplets) Moves(s *State, seat int, dst []Action) []Action {
	x := s.cards
	var zbuf, cbuf, hbuf [16]int32
	var bbuf [16]uint64
	zones, cards := zbuf[:0], cbuf[:0]
	for z := tripletsSlots(s); z < len(s.zones); z++ {
		if c := s.zones[z].cards; len(c) > 0 {
			zones = append(zones, int32(z))
			cards = append(cards, c[0])
		}
	}
	held := hbuf[:]
	if len(cards) > len(held) {
		held = make([]int32, len(cards))
	}
	for w := 0; w < x.words; w++ {
		// The cards' bits in this word, and the symbols three of them show.
		row := bbuf[:0]
		var ones, twos, threes uint64
		for _, c := range cards {
			b := x.bits[int(c)*x.words+w]
			row = append(row, b)
			threes |= twos & b
			twos |= ones & b
			ones |= b
		}
		for m := threes; m != 0; m &= m - 1 {
			bit := uint(bits.TrailingZeros64(m))
			sym := w<<6 + int(bit)
			n := 0
			for k, b := range row { // branch-free: keep zone k if it shows sym
				held[n] = zones[k]
				n += int(b >> bit & 1)
			}
			t := Targets{n: 3}
			for i := 0; i < n; i++ {
				t.z[0] = held[i]
				for j := i + 1; j < n; j++ {
					t.z[1] = held[j]
					for k := j + 1; k < n; k++ {
						t.z[2] = held[k]
						dst = s.appendClaim(dst, seat, sym, &t)
					}
				}
			}
		}
	}
	return dst
}

// Result scores each seat by the cards on its won pile; most cards wins.
func (triplets) Result(s *State) *Result {
	var buf [DobbleMaxPlayers]int
	scores := buf[:s.Players()]
	for i := range scores {
		scores[i] = s.count(tripletsWon(i))
	}
	return Rank(tripletsInfo.Unit, tripletsInfo.HigherWins, scores)
}

// Invariants checks Triplets' table: the stock, one won pile per seat and
// at least a grid's worth of slots, in that order; every slot holds at most
// one card and every won pile a whole number of triples; while the stock
// holds cards, the grid is full; the game runs exactly while the table
// holds a triple or the stock holds cards, and while it runs a triple is
// on the table. The triple is looked for by counting symbols card by card,
// not with the bitsets the game plays with.
func (triplets) Invariants(s *State) error {
	p, grid := s.Players(), tripletsGrid(s)
	if z := s.zones[tripletsStock]; z.Kind != ZoneStock || z.Seat != NoSeat || z.Show != ShowHidden {
		return errors.New("zone 0 is not the hidden stock")
	}
	for i := 0; i < p; i++ {
		z := s.zones[tripletsWon(i)]
		if z.Kind != ZoneWon || z.Seat != i {
			return fmt.Errorf("zone %d is not seat %d's won pile", tripletsWon(i), i)
		}
		if len(z.cards)%3 != 0 {
			return fmt.Errorf("seat %d has won %d cards, not a whole number of triples", i, len(z.cards))
		}
	}
	if slots := s.Zones() - tripletsSlots(s); slots < grid {
		return fmt.Errorf("%d grid slots for a grid of %d", slots, grid)
	}
	on := 0
	count := make([]int, s.cards.Symbols())
	triple := false
	var syms []int
	for z := tripletsSlots(s); z < s.Zones(); z++ {
		zone := s.zones[z]
		if zone.Kind != ZoneSlot || zone.Seat != NoSeat || zone.Show != ShowAll {
			return fmt.Errorf("zone %d is not a face-up grid slot", z)
		}
		if len(zone.cards) > 1 {
			return fmt.Errorf("grid slot %d holds %d cards", z, len(zone.cards))
		}
		for _, c := range zone.cards {
			on++
			syms = s.cards.AppendCard(syms[:0], int(c))
			for _, sym := range syms {
				count[sym]++
				triple = triple || count[sym] >= 3
			}
		}
	}
	stock := s.count(tripletsStock)
	if stock > 0 && on < grid {
		return fmt.Errorf("%d cards on a grid of %d while the stock holds %d", on, grid, stock)
	}
	if s.over != (!triple && stock == 0) {
		return fmt.Errorf("over = %v with a triple on the table: %v, %d cards in the stock", s.over, triple, stock)
	}
	if !s.over && !triple {
		return fmt.Errorf("no triple among the %d cards on the table", on)
	}
	return nil
}

// CanMove reports whether the grid holds a triple: three cards showing one
// symbol, whoever the seat.
func (triplets) CanMove(s *State, seat int) bool {
	x := s.cards
	first := tripletsSlots(s)
	for w := 0; w < x.words; w++ {
		var ones, twos, threes uint64
		for z := first; z < len(s.zones); z++ {
			if c := s.zones[z].cards; len(c) > 0 {
				b := x.bits[int(c[0])*x.words+w]
				threes |= twos & b
				twos |= ones & b
				ones |= b
			}
		}
		if threes != 0 {
			return true
		}
	}
	return false
}

// tripletsHeld is a symbol three or more grid cards show, and which of
// them do: bit k for the k-th card of the grid in zone order.
type tripletsHeld struct {
	sym  int
	held uint64
}

// PickMove picks one of the claims Moves lists, each equally likely,
// without listing them: a symbol shown by k grid cards makes k choose 3
// claims, so it counts them symbol by symbol, draws one and finds its
// three cards. A grid of more than 64 slots lists the moves instead.
func (g triplets) PickMove(s *State, seat int, r Rand, a *Action) bool {
	first := tripletsSlots(s)
	if len(s.zones)-first > 64 {
		var buf [pickBuffer]Action
		return pickAmong(a, g.Moves(s, seat, buf[:0]), r)
	}
	x := s.cards
	var zbuf, cbuf [64]int32
	zones, cards := zbuf[:0], cbuf[:0]
	for z := first; z < len(s.zones); z++ {
		if c := s.zones[z].cards; len(c) > 0 {
			zones, cards = append(zones, int32(z)), append(cards, c[0])
		}
	}
	var hbuf [16]tripletsHeld
	syms := hbuf[:0]
	total := 0
	for w := 0; w < x.words; w++ {
		var ones, twos, threes uint64
		for _, c := range cards {
			b := x.bits[int(c)*x.words+w]
			threes |= twos & b
			twos |= ones & b
			ones |= b
		}
		for m := threes; m != 0; m &= m - 1 {
			bit := uint(bits.TrailingZeros64(m))
			var held uint64
			for k, c := range cards {
				held |= (x.bits[int(c)*x.words+w] >> bit & 1) << k
			}
			k := bits.OnesCount64(held)
			total += k * (k - 1) * (k - 2) / 6
			syms = append(syms, tripletsHeld{sym: w<<6 + int(bit), held: held})
		}
	}
	if total == 0 {
		return false
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for _, h := range syms {
		k := bits.OnesCount64(h.held)
		if c := k * (k - 1) * (k - 2) / 6; n >= c {
			n -= c
			continue
		}
		// The n-th three of the cards showing the symbol, in Moves' order.
		for i := h.held; i != 0; i &= i - 1 {
			for j := i & (i - 1); j != 0; j &= j - 1 {
				for l := j & (j - 1); l != 0; l &= l - 1 {
					if n > 0 {
						n--
						continue
					}
					t := Targets{n: 3}
					t.z[0] = zones[bits.TrailingZeros64(i)]
					t.z[1] = zones[bits.TrailingZeros64(j)]
					t.z[2] = zones[bits.TrailingZeros64(l)]
					s.setClaim(a, seat, h.sym, &t)
					return true
				}
			}
		}
	}
	panic("rules: triplets: claim out of range")
}

// Movers returns every seat when the grid holds a triple: all seats have
// the same claims.
func (g triplets) Movers(s *State) uint64 { return s.everyone(g.CanMove(s, 0)) }
