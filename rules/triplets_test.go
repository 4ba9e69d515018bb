package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// tripletsWant returns the grid size RULES.md §3.5 asks for with deck d and
// the game's options: the "grid" option if set to a size, otherwise q+2
// cards for an odd order q and q+3 for an even one.
func tripletsWant(d *deck.Deck, options map[string]string) int {
	if v, err := strconv.Atoi(options["grid"]); err == nil && v != 0 {
		return v
	}
	if q := d.Order(); q%2 == 1 {
		return q + 2
	}
	return d.Order() + 3
}

// deckTriple reports whether three of cards (-1 for none) show a common
// symbol, counting the symbols of the real deck.
func deckTriple(d *deck.Deck, cards []int) bool {
	count := make(map[int]int)
	for _, c := range cards {
		if c < 0 {
			continue
		}
		for _, s := range d.Card(c) {
			if count[s]++; count[s] == 3 {
				return true
			}
		}
	}
	return false
}

// verifyTriplets checks an accepted Triplets claim against RULES.md §3.5
// with the real deck: the three targets are grid slots in increasing order,
// each holding a card that shows the symbol; the three cards go, in target
// order, onto the claimant's won pile; the stock's top cards fill the
// lowest empty slots until the table holds a grid's worth; while no triple
// shows, further cards go to the lowest empty slot or to a new slot at the
// end; when the stock is empty and no triple remains the game ends, most
// cards won winning.
func verifyTriplets(before *State, d *deck.Deck, a Action, ev []Event) error {
	p := before.Players()
	first := 1 + p
	t := [3]int{a.Target.At(0), a.Target.At(1), a.Target.At(2)}
	if !(first <= t[0] && t[0] < t[1] && t[1] < t[2]) {
		return fmt.Errorf("targets %v are not grid slots in increasing order", t)
	}
	v := ev[0].Version
	want := []Event{{Kind: EventClaim, Version: v, Seat: a.Seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1}}
	slots := make([]int, before.Zones()-first) // card per slot, -1 if empty
	for i := range slots {
		slots[i] = before.Zone(first + i).Top()
	}
	for _, z := range t {
		c := slots[z-first]
		if c < 0 || !d.Has(c, a.Symbol) {
			return fmt.Errorf("slot %d holds card %d, which does not show symbol %d", z, c, a.Symbol)
		}
		want = append(want, Event{Kind: EventMove, Version: v, Seat: a.Seat, Symbol: -1, Card: c, Count: 1, From: z, To: 1 + a.Seat})
		slots[z-first] = -1
	}
	stock := before.Zone(0).AppendCards(nil)
	deal := func() {
		c := stock[len(stock)-1]
		stock = stock[:len(stock)-1]
		j := 0
		for j < len(slots) && slots[j] >= 0 {
			j++
		}
		if j == len(slots) {
			slots = append(slots, -1)
		}
		slots[j] = c
		want = append(want, Event{Kind: EventMove, Version: v, Seat: NoSeat, Symbol: -1, Card: c, Count: 1, From: 0, To: first + j})
	}
	on := 0
	for _, c := range slots {
		if c >= 0 {
			on++
		}
	}
	for grid := tripletsWant(d, before.Config().Options); on < grid && len(stock) > 0; on++ {
		deal()
	}
	for !deckTriple(d, slots) && len(stock) > 0 {
		deal()
	}
	if !deckTriple(d, slots) {
		if len(ev) == 0 || ev[len(ev)-1].Result == nil {
			return fmt.Errorf("no triple and an empty stock, but the game goes on: %+v", ev)
		}
		r := ev[len(ev)-1].Result
		scores := make([]int, p)
		for i := range scores {
			scores[i] = before.Zone(1 + i).Len()
		}
		scores[a.Seat] += 3
		if r.Unit != "cards" || !r.HigherWins || !reflect.DeepEqual(r.Scores, scores) {
			return fmt.Errorf("result %+v, want scores %v", r, scores)
		}
		want = append(want, Event{Kind: EventOver, Version: v, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Result: r})
	}
	if !reflect.DeepEqual(ev, want) {
		return fmt.Errorf("events\n %+v\nwant\n %+v", ev, want)
	}
	return nil
}

// eventScenario is a scenario test's table: it applies actions, checking the
// exact events of the accepted ones and that refused ones change nothing
// but the lock-out.
type eventScenario struct {
	t *testing.T
	s *State
}

// refused applies a, which must be refused with want, and returns the
// refusal.
func (sc eventScenario) refused(a Action, want error) *Refusal {
	sc.t.Helper()
	return mustRefuse(sc.t, sc.s, a, want)
}

// accepted applies a, which must be accepted with exactly the events want
// (versions filled in; an over event's result is compared separately).
func (sc eventScenario) accepted(a Action, want ...Event) []Event {
	t, s := sc.t, sc.s
	t.Helper()
	v := s.Version()
	ev, err := s.Apply(a, nil)
	if err != nil {
		t.Fatalf("%+v refused: %v", a, err)
	}
	for i := range want {
		want[i].Version = v + 1
		if want[i].Kind == EventOver && i < len(ev) {
			want[i].Result = ev[i].Result
		}
	}
	if !reflect.DeepEqual(ev, want) {
		t.Fatalf("%+v: events\n %+v\nwant\n %+v", a, ev, want)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
	return ev
}

// Event constructors for scenario tests.
func evClaim(seat, sym int, target Targets) Event {
	return Event{Kind: EventClaim, Seat: seat, Symbol: sym, Target: target, Card: -1, From: -1, To: -1}
}

func evMove(seat, card, from, to int) Event {
	return Event{Kind: EventMove, Seat: seat, Symbol: -1, Card: card, Count: 1, From: from, To: to}
}

func evOver() Event {
	return Event{Kind: EventOver, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1}
}

// TestTripletsScenario plays RULES.md §3.5 on a known table of the order-3
// deck, whose card i shows symbols i, i+1, i+3 and i+9 mod 13, with two
// players. The grid holds q+2 = 5 cards: zone 0 is the stock, zones 1 and 2
// the seats' won piles, zones 3 to 7 the grid slots.
func TestTripletsScenario(t *testing.T) {
	d := mustDeck(t, 3, 0)
	s, err := New(mustGame(t, "triplets"), d, Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Zones() != 8 {
		t.Fatalf("%d zones, want the stock, 2 won piles and 5 slots", s.Zones())
	}
	// Grid: cards 0 {0,1,3,9}, 1 {1,2,4,10}, 2 {2,3,5,11}, 3 {3,4,6,12},
	// 4 {0,4,5,7}. Symbol 3 is on slots 3, 5, 6 and symbol 4 on 4, 6, 7.
	// The stock deals 5, 6, 7, ... 12 in that order.
	setTable(t, s, []int{12, 11, 10, 9, 8, 7, 6, 5}, nil, nil, []int{0}, []int{1}, []int{2}, []int{3}, []int{4})
	sc := eventScenario{t, s}

	// Seat 1 names symbol 4 pointing at slots 3, 5, 6: card 0 lacks it.
	r := sc.refused(Action{Seat: 1, Symbol: 4, Target: To(3, 5, 6), At: 100}, ErrNotAMatch)
	if r.LockedUntil != 1100 || !strings.Contains(r.Error(), "the symbol is not on all three cards; locked out until 1100 ms") {
		t.Fatalf("wrong symbol: %v", r)
	}
	// The slots must be named in increasing order, each once: malformed,
	// which locks nobody out.
	sc.refused(Action{Seat: 0, Symbol: 3, Target: To(5, 3, 6), At: 110}, ErrMalformed)
	sc.refused(Action{Seat: 0, Symbol: 3, Target: To(3, 3, 5), At: 110}, ErrMalformed)
	if s.Seat(0).LockedUntil != 0 {
		t.Fatal("a malformed claim locked the seat out")
	}
	// The stock and the won piles are not grid slots.
	r = sc.refused(Action{Seat: 0, Symbol: 3, Target: To(0, 3, 5), At: 120}, ErrBadTarget)
	if !strings.Contains(r.Error(), "name three grid slots") || s.Seat(0).LockedUntil != 1120 {
		t.Fatalf("stock as a target: %v, seat %+v", r, s.Seat(0))
	}
	sc.refused(Action{Seat: 0, Symbol: 3, Target: To(2, 3, 5), At: 1200}, ErrBadTarget)
	sc.refused(Action{Seat: 0, Symbol: 3, Target: To(3, 5), At: 2300}, ErrMalformed)

	// Seat 0 names symbol 3 on cards 0, 2, 3 and takes them; cards 5, 6, 7
	// fill the gaps. The grid becomes 5 {1,5,6,8}, 1 {1,2,4,10},
	// 6 {2,6,7,9}, 7 {3,7,8,10}, 4 {0,4,5,7}: symbol 7 on slots 5, 6, 7.
	sc.accepted(Action{Seat: 0, Symbol: 3, Target: To(3, 5, 6), At: 2300},
		evClaim(0, 3, To(3, 5, 6)), evMove(0, 0, 3, 1), evMove(0, 2, 5, 1), evMove(0, 3, 6, 1),
		evMove(NoSeat, 5, 0, 3), evMove(NoSeat, 6, 0, 5), evMove(NoSeat, 7, 0, 6))
	// Seat 1 had seen symbol 4 on slots 4, 6, 7 of version 0: too late.
	sc.refused(Action{Seat: 1, Symbol: 4, Target: To(4, 6, 7), At: 2310}, ErrTooLate)
	if got := s.Moves(1, nil); len(got) != 1 || got[0].Symbol != 7 || got[0].Target != To(5, 6, 7) {
		t.Fatalf("moves %+v, want only symbol 7 on slots 5, 6, 7", got)
	}

	// Seat 1 takes 6, 7, 4 with symbol 7; cards 8, 9, 10 come in. Grid:
	// 5 {1,5,6,8}, 1 {1,2,4,10}, 8 {4,8,9,11}, 9 {5,9,10,12},
	// 10 {0,6,10,11}: symbol 10 on slots 4, 6, 7.
	sc.accepted(Action{Seat: 1, Symbol: 7, Target: To(5, 6, 7), Version: 1, At: 2400},
		evClaim(1, 7, To(5, 6, 7)), evMove(1, 6, 5, 2), evMove(1, 7, 6, 2), evMove(1, 4, 7, 2),
		evMove(NoSeat, 8, 0, 5), evMove(NoSeat, 9, 0, 6), evMove(NoSeat, 10, 0, 7))

	// Seat 0 takes 1, 9, 10 with symbol 10; only cards 11 and 12 remain to
	// deal, so slot 7 stays empty: 5 {1,5,6,8}, 11 {1,7,11,12},
	// 8 {4,8,9,11}, 12 {0,2,8,12}. Symbol 8 is on slots 3, 5, 6.
	sc.accepted(Action{Seat: 0, Symbol: 10, Target: To(4, 6, 7), Version: 2, At: 2500},
		evClaim(0, 10, To(4, 6, 7)), evMove(0, 1, 4, 1), evMove(0, 9, 6, 1), evMove(0, 10, 7, 1),
		evMove(NoSeat, 11, 0, 4), evMove(NoSeat, 12, 0, 6))
	if s.Zone(0).Len() != 0 || s.Zone(7).Len() != 0 || s.Over() {
		t.Fatalf("stock %d, slot 7 %d, over %v", s.Zone(0).Len(), s.Zone(7).Len(), s.Over())
	}
	// Fewer than 5 cards remain, but a triple does, so play goes on. Seat 1
	// points at the empty slot 7.
	r = sc.refused(Action{Seat: 1, Symbol: 8, Target: To(3, 5, 7), Version: 3, At: 2600}, ErrBadTarget)
	if !strings.Contains(r.Error(), "a named grid slot is empty") {
		t.Fatalf("empty slot: %v", r)
	}
	// Seat 0 takes 5, 8, 12 with symbol 8. Card 11 alone remains, the stock
	// is empty: the game is over.
	ev := sc.accepted(Action{Seat: 0, Symbol: 8, Target: To(3, 5, 6), Version: 3, At: 2700},
		evClaim(0, 8, To(3, 5, 6)), evMove(0, 5, 3, 1), evMove(0, 8, 5, 1), evMove(0, 12, 6, 1), evOver())
	want := &Result{Unit: "cards", HigherWins: true, Scores: []int{9, 3}, Winners: []int{0},
		Ranking: []int{0, 1}, Places: []int{1, 2}}
	if !s.Over() || !reflect.DeepEqual(ev[len(ev)-1].Result, want) || !reflect.DeepEqual(s.Result(), want) {
		t.Fatalf("over %v, result %+v, want %+v", s.Over(), s.Result(), want)
	}
	if got := s.Zone(4).AppendCards(nil); !reflect.DeepEqual(got, []int{11}) {
		t.Fatalf("slot 4 holds %v, want the last card 11", got)
	}
	sc.refused(Action{Seat: 1, Symbol: 1, Target: To(3, 4, 5), Version: 4, At: 3000}, ErrGameOver)
}

// TestTripletsExtraCards plays a grid of 3 (the "grid" option) on the
// order-3 deck, where three cards often hold no triple: extra cards are
// dealt until one shows, first into a new slot, later into a slot left
// empty.
func TestTripletsExtraCards(t *testing.T) {
	d := mustDeck(t, 3, 0)
	s, err := New(mustGame(t, "triplets"), d, Config{Players: 2, Seed: 1, Options: map[string]string{"grid": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	// Set up a table with the stock, 2 won piles and the 3 slots; setup
	// may have added slots for extra cards, which this table does not use.
	s.zones = s.zones[:6]
	// Grid: 0 {0,1,3,9}, 2 {2,3,5,11}, 3 {3,4,6,12}: symbol 3. The stock
	// deals 1, 5, 7, 8, 4, 10, 9, 6, 11, 12.
	setTable(t, s, []int{12, 11, 6, 9, 10, 4, 8, 7, 5, 1}, nil, nil, []int{0}, []int{2}, []int{3})
	sc := eventScenario{t, s}

	// Seat 1 takes the three; 1 {1,2,4,10}, 5 {1,5,6,8}, 7 {3,7,8,10}
	// fill the grid but share symbols only in pairs, so 8 {4,8,9,11} is
	// dealt as an extra card into a new slot, zone 6: symbol 8 on 5, 7, 8.
	sc.accepted(Action{Seat: 1, Symbol: 3, Target: To(3, 4, 5)},
		evClaim(1, 3, To(3, 4, 5)), evMove(1, 0, 3, 2), evMove(1, 2, 4, 2), evMove(1, 3, 5, 2),
		evMove(NoSeat, 1, 0, 3), evMove(NoSeat, 5, 0, 4), evMove(NoSeat, 7, 0, 5), evMove(NoSeat, 8, 0, 6))
	if s.Zones() != 7 || s.Zone(6).Kind != ZoneSlot || s.View(0).Zones[6].Cards[0].Card != 8 {
		t.Fatalf("%d zones; the extra card should lie face up in a new slot, zone 6", s.Zones())
	}
	// Seat 0 takes 5, 7, 8; one card is left, so two fill the grid back to
	// three: 4 {0,4,5,7} and 10 {0,6,10,11}. With 1 {1,2,4,10} they hold
	// no triple, so the extra card 9 {5,9,10,12} goes into the empty slot
	// 6: symbol 10 on slots 3, 5, 6.
	sc.accepted(Action{Seat: 0, Symbol: 8, Target: To(4, 5, 6), Version: 1},
		evClaim(0, 8, To(4, 5, 6)), evMove(0, 5, 4, 1), evMove(0, 7, 5, 1), evMove(0, 8, 6, 1),
		evMove(NoSeat, 4, 0, 4), evMove(NoSeat, 10, 0, 5), evMove(NoSeat, 9, 0, 6))
	if s.Zones() != 7 {
		t.Fatalf("%d zones: an empty slot should have been reused", s.Zones())
	}
	// Seat 0 takes 1, 10, 9. Card 4 is left; the grid is filled back to 3
	// cards through the lowest empty slots, 3 and 5, with 6 {2,6,7,9} and
	// 11 {1,7,11,12}: symbol 7 on slots 3, 4, 5, and slot 6 stays empty.
	sc.accepted(Action{Seat: 0, Symbol: 10, Target: To(3, 5, 6), Version: 2},
		evClaim(0, 10, To(3, 5, 6)), evMove(0, 1, 3, 1), evMove(0, 10, 5, 1), evMove(0, 9, 6, 1),
		evMove(NoSeat, 6, 0, 3), evMove(NoSeat, 11, 0, 5))
	// Seat 1 takes them; card 12 alone is left to deal, no triple: over.
	sc.accepted(Action{Seat: 1, Symbol: 7, Target: To(3, 4, 5), Version: 3},
		evClaim(1, 7, To(3, 4, 5)), evMove(1, 6, 3, 2), evMove(1, 4, 4, 2), evMove(1, 11, 5, 2),
		evMove(NoSeat, 12, 0, 3), evOver())
	if r := s.Result(); !s.Over() || !reflect.DeepEqual(r.Scores, []int{6, 6}) || !reflect.DeepEqual(r.Winners, []int{0, 1}) {
		t.Fatalf("over %v, result %+v: want a 6-6 tie", s.Over(), r)
	}
}

// tripleFree searches, depth first over cards in increasing order, the sets
// of d's cards no three of which show a common symbol. It returns the size
// of the largest and, if one of size want exists, the first such set found
// (the search stops there).
func tripleFree(d *deck.Deck, want int) (int, []int) {
	n := d.Len()
	cards := make([][]int, n)
	for i := range cards {
		cards[i] = d.Card(i)
	}
	count := make([]int, d.Symbols())
	best := 0
	var set, found []int
	var grow func(next int)
	grow = func(next int) {
		best = max(best, len(set))
		if len(set) == want {
			found = append([]int(nil), set...)
			return
		}
		for c := next; c < n && len(set)+n-c > best && found == nil; c++ {
			ok := true
			for _, s := range cards[c] {
				ok = ok && count[s] < 2
			}
			if !ok {
				continue
			}
			for _, s := range cards[c] {
				count[s]++
			}
			set = append(set, c)
			grow(c + 1)
			set = set[:len(set)-1]
			for _, s := range cards[c] {
				count[s]--
			}
		}
	}
	grow(0)
	return best, found
}

// TestTripletsGridSize proves, by searching every set of cards with no
// triple, that the grid Setup lays out for orders 2, 3, 4, 5 and 7 always
// holds a triple (no triple-free set is as large as the grid) and is the
// smallest size that does (one set is just one card smaller).
func TestTripletsGridSize(t *testing.T) {
	g := mustGame(t, "triplets")
	for _, q := range []int{2, 3, 4, 5, 7} {
		d := mustDeck(t, q, 0)
		s, err := New(g, d, Config{Players: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		grid := s.Zones() - 3
		if free, _ := tripleFree(d, -1); free != grid-1 {
			t.Errorf("order %d: the grid holds %d cards, but the largest set without a triple has %d", q, grid, free)
		}
		if grid != tripletsWant(d, nil) {
			t.Errorf("order %d: grid of %d, RULES.md §3.5 says %d", q, grid, tripletsWant(d, nil))
		}
	}
}

// tripletsClaims lists, from the real deck, every correct claim seat can
// make on s's table, by symbol and then by slots in increasing order: the
// list Moves must give.
func tripletsClaims(d *deck.Deck, s *State, seat int) []Action {
	var out []Action
	first := 1 + s.Players()
	for sym := 0; sym < d.Symbols(); sym++ {
		var held []int
		for z := first; z < s.Zones(); z++ {
			if c := s.Zone(z).Top(); c >= 0 && d.Has(c, sym) {
				held = append(held, z)
			}
		}
		for i := range held {
			for j := i + 1; j < len(held); j++ {
				for k := j + 1; k < len(held); k++ {
					out = append(out, Action{Seat: seat, Symbol: sym, Target: To(held[i], held[j], held[k]), Version: s.Version()})
				}
			}
		}
	}
	return out
}

// TestTripletsNeverStuck plays many random games on every order from 2 to
// 9 and subsets of each, with the grid sized by the order and with the
// printed 3×3 grid, checking after every claim with the real deck that
// whenever the stock holds cards the table holds a triple. With the grid
// sized by the order that triple is always among the grid's cards: no
// extra card is ever dealt. Moves is compared with every correct claim
// found from the deck at each step. (With the printed grid on orders 8 and 9, nine
// cards without a triple are too rare to come up in random deals;
// TestTripletsPrintedGridLargeOrders deals them on purpose.)
func TestTripletsNeverStuck(t *testing.T) {
	g := mustGame(t, "triplets")
	games := 150
	if testing.Short() {
		games = 30
	}
	r := rand.New(rand.NewPCG(3, 5))
	var moves []Action
	var ev []Event
	for _, q := range []int{2, 3, 4, 5, 7, 8, 9} {
		n := q*q + q + 1
		for _, size := range []int{n, n - q, 2 * n / 3, n / 2} {
			d := mustDeck(t, q, size)
			x, err := NewIndex(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, options := range []map[string]string{nil, {"grid": "9"}} {
				grid := tripletsWant(d, options)
				for k := 0; k < games; k++ {
					s, err := New(g, x, Config{Players: 2 + r.IntN(7), Seed: r.Uint64(), Options: options})
					if err != nil {
						// Only a deck without any triple may be refused.
						var ce *ConfigError
						all := make([]int, d.Len())
						for i := range all {
							all[i] = i
						}
						if !errors.As(err, &ce) || ce.Field != "cards" || deckTriple(d, all) {
							t.Fatalf("order %d, %d cards, %v: %v", q, size, options, err)
						}
						break
					}
					for {
						first := 1 + s.Players()
						table := make([]int, 0, s.Zones()-first)
						for z := first; z < s.Zones(); z++ {
							table = append(table, s.Zone(z).Top())
						}
						on := 0
						for _, c := range table {
							if c >= 0 {
								on++
							}
						}
						stock := s.Zone(0).Len()
						if stock > 0 && !deckTriple(d, table) {
							t.Fatalf("order %d, %d cards, %v: stuck with %d cards in the stock and no triple among %v", q, size, options, stock, table)
						}
						if options == nil && (len(table) != grid || stock > 0 && on != grid) {
							t.Fatalf("order %d, %d cards: %d slots, %d cards on a grid of %d with %d in the stock", q, size, len(table), on, grid, stock)
						}
						if s.Over() {
							if stock > 0 || deckTriple(d, table) {
								t.Fatalf("order %d: game over with %d cards in the stock and table %v", q, stock, table)
							}
							break
						}
						seat := r.IntN(s.Players())
						moves = s.Moves(seat, moves[:0])
						if want := tripletsClaims(d, s, seat); !reflect.DeepEqual(moves, want) {
							t.Fatalf("order %d, %d cards: moves\n %+v\nwant\n %+v", q, size, moves, want)
						}
						if len(moves) == 0 {
							t.Fatalf("order %d, %d cards: the game runs but no claim is possible", q, size)
						}
						if ev, err = s.Apply(moves[r.IntN(len(moves))], ev[:0]); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
	}
}

// TestTripletsPrintedGridLargeOrders plays the printed 3×3 grid on the
// order-8 and order-9 decks, whose largest sets of cards without a triple
// have 10 cards: a claim leaves nine such cards on the grid, so two extra
// cards are dealt into new slots, the second completing a triple.
func TestTripletsPrintedGridLargeOrders(t *testing.T) {
	for _, q := range []int{8, 9} {
		d := mustDeck(t, q, 0)
		_, arc := tripleFree(d, 10)
		if arc == nil {
			t.Fatalf("order %d: no 10 cards without a triple", q)
		}
		in := make(map[int]bool)
		for _, c := range arc {
			in[c] = true
		}
		// A triple outside the arc: three cards showing the symbol of
		// the first card outside it.
		var triple []int
		out := 0
		for in[out] {
			out++
		}
		sym := d.Card(out)[0]
		for c := 0; c < d.Len() && len(triple) < 3; c++ {
			if !in[c] && d.Has(c, sym) {
				triple = append(triple, c)
			}
		}
		// The stock deals arc cards 6 to 9, then the others.
		var stock []int
		for c := d.Len() - 1; c >= 0; c-- {
			if !in[c] && c != triple[0] && c != triple[1] && c != triple[2] {
				stock = append(stock, c)
			}
		}
		stock = append(stock, arc[9], arc[8], arc[7], arc[6])
		s, err := New(mustGame(t, "triplets"), d, Config{Players: 2, Seed: 1, Options: map[string]string{"grid": "9"}})
		if err != nil {
			t.Fatal(err)
		}
		s.zones = s.zones[:3+9] // the table below uses no extra slot
		grid := [][]int{stock, nil, nil, {triple[0]}, {triple[1]}, {triple[2]}}
		for _, c := range arc[:6] {
			grid = append(grid, []int{c})
		}
		setTable(t, s, grid...)
		ev, err := s.Apply(Action{Seat: 0, Symbol: sym, Target: To(3, 4, 5)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		next := stock[len(stock)-5]
		want := []Event{
			evClaim(0, sym, To(3, 4, 5)), evMove(0, triple[0], 3, 1), evMove(0, triple[1], 4, 1), evMove(0, triple[2], 5, 1),
			evMove(NoSeat, arc[6], 0, 3), evMove(NoSeat, arc[7], 0, 4), evMove(NoSeat, arc[8], 0, 5),
			evMove(NoSeat, arc[9], 0, 12), evMove(NoSeat, next, 0, 13),
		}
		for i := range want {
			want[i].Version = 1
		}
		if !reflect.DeepEqual(ev, want) {
			t.Fatalf("order %d: events\n %+v\nwant\n %+v", q, ev, want)
		}
		if s.Zones() != 14 || len(s.Moves(1, nil)) == 0 {
			t.Fatalf("order %d: %d zones, %d claims: two extra slots and a triple expected", q, s.Zones(), len(s.Moves(1, nil)))
		}
		if err := CheckInvariants(s); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTripletsSetup checks the deal on the classic deck: 9 face-up slots,
// 46 hidden cards in the stock, empty won piles, views that show the grid
// and never the stock, and the same deal for the same seed.
func TestTripletsSetup(t *testing.T) {
	d := mustDeck(t, 7, 55)
	g := mustGame(t, "triplets")
	deal := func(seed uint64) [][]int {
		s, err := New(g, d, Config{Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if s.Zones() != 14 || s.Zone(0).Len() != 46 || s.Zone(0).Show != ShowHidden {
			t.Fatalf("%d zones, stock of %d showing %v", s.Zones(), s.Zone(0).Len(), s.Zone(0).Show)
		}
		v := s.View(2)
		if v.Zones[0].Count != 46 || len(v.Zones[0].Cards) != 0 {
			t.Fatalf("the view shows the stock: %+v", v.Zones[0])
		}
		var out [][]int
		for z := 0; z < s.Zones(); z++ {
			out = append(out, s.Zone(z).AppendCards(nil))
			if z >= 5 && (len(v.Zones[z].Cards) != 1 || v.Zones[z].Cards[0].Card != s.Zone(z).Top()) {
				t.Fatalf("grid slot %d not face up in the view: %+v", z, v.Zones[z])
			}
			if z >= 1 && z < 5 && s.Zone(z).Len() != 0 {
				t.Fatalf("won pile %d is not empty", z)
			}
		}
		return out
	}
	if a, b, c := deal(5), deal(5), deal(6); !reflect.DeepEqual(a, b) || reflect.DeepEqual(a, c) {
		t.Fatal("the deal does not follow the seed")
	}
}

// TestTripletsConfig checks that a bad grid option and a deck without a
// triple are refused with a reason naming what is accepted.
func TestTripletsConfig(t *testing.T) {
	g := mustGame(t, "triplets")
	classic := mustDeck(t, 7, 55)
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{classic, Config{Players: 9}, "players", "9 players; triplets takes 2 to 8"},
		{classic, Config{Players: 2, Options: map[string]string{"grid": "2"}}, "grid", "2 cards; a triple needs 3, so use 0 (sized by the deck's order) or 3 to 99"},
		{classic, Config{Players: 2, Options: map[string]string{"grid": "1"}}, "grid", "use 0 (sized by the deck's order) or 3 to 99"},
		{classic, Config{Players: 2, Options: map[string]string{"grid": "100"}}, "grid", `"100" is not a whole number from 0 to 99`},
		{classic, Config{Players: 2, Options: map[string]string{"grid": "nine"}}, "grid", `"nine" is not a whole number`},
		{classic, Config{Players: 2, Options: map[string]string{"rounds": "3"}}, "options", `unknown option "rounds"; triplets takes grid`},
		// Cards {0,1,3}, {1,2,4}, {2,3,5} share symbols only in pairs.
		{mustDeck(t, 2, 3), Config{Players: 2}, "cards", "no three of the 3 cards show a common symbol; Triplets needs a deck with a triple"},
		{mustDeck(t, 2, 2), Config{Players: 2}, "cards", "no three of the 2 cards"},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	// The first four cards of order 2, {0,1,3}, {1,2,4}, {2,3,5} and
	// {3,4,6}, hold a triple (symbol 3 on cards 0, 2 and 3): a deck smaller
	// than the grid is all dealt, and played.
	s, err := New(g, mustDeck(t, 2, 4), Config{Players: 2})
	if err != nil {
		t.Fatalf("4 cards with a triple: %v", err)
	}
	if s.Zones() != 3+5 || s.Zone(0).Len() != 0 {
		t.Fatalf("a 4-card deck on a grid of 5: %d zones, stock %d", s.Zones(), s.Zone(0).Len())
	}
}

func TestTripletsProperties(t *testing.T) { runProperties(t, "triplets", verifyTriplets) }

// TestTripletsPropertiesSmallGrids runs the property tests with grids of 9
// and 3 cards, where extra cards are dealt and tables grow past the grid.
func TestTripletsPropertiesSmallGrids(t *testing.T) {
	for _, grid := range []string{"9", "3"} {
		runPropertiesOf(t, triplets{}, map[string]string{"grid": grid}, verifyTriplets)
	}
}

func FuzzTriplets(f *testing.F) { fuzzGame(f, "triplets", verifyTriplets) }

// BenchmarkTripletsGame plays complete 4-player Triplets games on the
// classic 55-card deck with instant perfect play, setup included.
func BenchmarkTripletsGame(b *testing.B) {
	benchGames(b, "triplets", 4, nil)
}

// BenchmarkTripletsClaimValidation checks Triplets claims on the classic
// deck's 9-card grid through the public Check: every correct claim of the
// opening grid, and each with its symbol changed, which is wrong.
func BenchmarkTripletsClaimValidation(b *testing.B) {
	x, err := NewIndex(mustDeck(b, 7, 55))
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(mustGame(b, "triplets"), x, Config{Players: 4, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	correct := s.Moves(0, nil)
	var wrong []Action
	for _, m := range correct {
		w := m
		w.Symbol = (m.Symbol + 1) % x.Symbols()
		wrong = append(wrong, w)
	}
	for name, claims := range map[string][]Action{"correct": correct, "wrong": wrong} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, a := range claims {
					if (s.Check(a) != nil) != (name == "wrong") {
						b.Fatalf("%+v: unexpected verdict", a)
					}
				}
				n += len(claims)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "claims/s")
		})
	}
}
