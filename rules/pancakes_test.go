package rules

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// Anarchy Pancakes plays on a plane deck followed by one-topping cards, so
// its property and fuzz tests use decks of that shape: orders 3, 4, 5 and 7
// whole and two subsets, each wrapped with WithSingles. The order-3 deck
// seats only two players, order 4 up to four.
func init() { gameDecks[pancakesInfo.Name] = pancakesTestDecks }

var (
	pancakesDecksOnce sync.Once
	pancakesDecksList []testDeck
)

func pancakesTestDecks(testing.TB) []testDeck {
	pancakesDecksOnce.Do(func() {
		for _, qn := range [][2]int{{3, 0}, {4, 0}, {5, 0}, {5, 26}, {7, 0}, {7, 40}} {
			d, err := deck.New(qn[0], qn[1])
			if err != nil {
				panic(err)
			}
			x, err := NewIndex(WithSingles(d))
			if err != nil {
				panic(err)
			}
			pancakesDecksList = append(pancakesDecksList,
				testDeck{fmt.Sprintf("order%d/%dcards+%dsingles", qn[0], d.Len(), d.Symbols()), d, x})
		}
	})
	return pancakesDecksList
}

// pancakesEdition returns the "pancakes" edition's deck and its Index with
// the one-topping cards.
func pancakesEdition(t testing.TB) (*deck.Deck, *Index) {
	t.Helper()
	e, err := deck.LookupEdition("pancakes")
	if err != nil {
		t.Fatal(err)
	}
	if !e.Singles {
		t.Fatal("the pancakes edition has no one-topping cards")
	}
	d, err := e.Deck()
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewIndex(WithSingles(d))
	if err != nil {
		t.Fatal(err)
	}
	return d, x
}

// pcModel is the table as the tests see it, built from a state and read
// through the real deck: each zone's cards, bottom first. A zone that was
// shuffled loses its order: cards are then taken from it by name.
type pcModel struct {
	d      *deck.Deck
	planes int
	p      int
	zones  [][]int
	owners []int
	mixed  []bool
}

func newPCModel(s *State, d *deck.Deck) *pcModel {
	m := &pcModel{d: d, planes: d.Len(), p: s.Players()}
	for z := range s.Zones() {
		m.zones = append(m.zones, s.Zone(z).AppendCards(nil))
		m.owners = append(m.owners, s.Zone(z).Seat)
	}
	m.mixed = make([]bool, len(m.zones))
	return m
}

// toppings returns the toppings of card c: a plane card's symbols, or the
// one symbol of a one-topping card.
func (m *pcModel) toppings(c int) []int {
	if c >= m.planes {
		return []int{c - m.planes}
	}
	return m.d.Card(c)
}

func (m *pcModel) has(c, sym int) bool { return slices.Contains(m.toppings(c), sym) }

func (m *pcModel) share(a, b int) bool {
	return slices.ContainsFunc(m.toppings(a), func(sym int) bool { return m.has(b, sym) })
}

func (m *pcModel) top(z int) int {
	if len(m.zones[z]) == 0 {
		return -1
	}
	return m.zones[z][len(m.zones[z])-1]
}

// owner returns the seat a place belongs to, -1 for the three centre zones.
func (m *pcModel) owner(z int) int { return m.owners[z] }

func (m *pcModel) in(seat int) bool {
	for z := 3; z < len(m.zones); z++ {
		if m.owners[z] == seat && len(m.zones[z]) > 0 {
			return true
		}
	}
	return false
}

// stuck reports whether nobody can draw (empty pile or nobody in) and no
// two top cards of different owners (a seat, or the Common card) share a
// topping.
func (m *pcModel) stuck() bool {
	if len(m.zones[0]) > 0 {
		for i := range m.p {
			if m.in(i) {
				return false
			}
		}
	}
	for z := 3; z < len(m.zones); z++ {
		c := m.top(z)
		if c < 0 {
			continue
		}
		if m.share(c, m.top(1)) {
			return false
		}
		for o := 3; o < len(m.zones); o++ {
			if d := m.top(o); d >= 0 && m.owner(o) != m.owner(z) && m.share(c, d) {
				return false
			}
		}
	}
	return true
}

// move applies one EventMove to the model and reports what is wrong with
// it: the wrong top card, a card not in a shuffled zone, a move under.
func (m *pcModel) move(e Event) error {
	if e.Kind != EventMove || e.Under || e.From < 0 || e.From >= len(m.zones) || e.To < 0 || e.To >= len(m.zones) || e.From == e.To {
		return fmt.Errorf("event %+v is not a move between two zones", e)
	}
	from := m.zones[e.From]
	var moved []int
	switch {
	case e.Count < 1 || e.Count > len(from):
		return fmt.Errorf("move %+v of %d cards from a zone of %d", e, e.Count, len(from))
	case m.mixed[e.From]:
		i := slices.Index(from, e.Card)
		if e.Count != 1 || i < 0 {
			return fmt.Errorf("move %+v: card %d is not in shuffled zone %d", e, e.Card, e.From)
		}
		moved = []int{e.Card}
		m.zones[e.From] = slices.Delete(from, i, i+1)
	default:
		if from[len(from)-1] != e.Card {
			return fmt.Errorf("move %+v: the top card of zone %d is %d", e, e.From, from[len(from)-1])
		}
		moved = slices.Clone(from[len(from)-e.Count:])
		m.zones[e.From] = from[:len(from)-e.Count]
	}
	m.zones[e.To] = append(m.zones[e.To], moved...)
	return nil
}

// verifyPancakes checks an accepted Anarchy Pancakes action against
// RULES.md §6 with the real deck, replaying its events on a model of the
// table: a claim moves the claimant's whole stack, whose top card shows the
// symbol, onto the Common card or another seat's stack whose top card
// shows it too; a draw takes the top of a non-empty draw pile into the
// drawer's lowest-numbered empty place, or a new place when it has none; a
// seat that runs out first in its round takes
// a butter pat and wins at the target; the round ends when that happens
// (option "first"), when every seat has run out ("all") or when nobody can
// claim or draw, and the new round gathers every card into its deck,
// shuffles both decks and deals two one-topping and five six-topping cards
// to every seat and the Common card.
func verifyPancakes(before *State, d *deck.Deck, a Action, ev []Event) error {
	m := newPCModel(before, d)
	all := before.Option(pancakesOptRoundEnd) == pancakesEndAll
	target := before.Option(pancakesOptPats)
	v := ev[0].Version
	i := 0
	next := func() (Event, error) {
		if i >= len(ev) {
			return Event{}, fmt.Errorf("the events stop after %d", len(ev))
		}
		i++
		return ev[i-1], nil
	}
	expect := func(want Event) error {
		e, err := next()
		if err != nil {
			return err
		}
		want.Version = v
		if !reflect.DeepEqual(e, want) {
			return fmt.Errorf("event %d is %+v, want %+v", i-1, e, want)
		}
		return nil
	}
	moveEvent := func(seat, card, count, from, to int) Event {
		return Event{Kind: EventMove, Version: v, Seat: seat, Symbol: -1, Card: card, Count: count, From: from, To: to}
	}
	seat := a.Seat
	roundOver := false
	if a.Kind == ActionDraw {
		if len(m.zones[0]) == 0 || !m.in(seat) {
			return fmt.Errorf("seat %d drew with %d cards in the draw pile, in the round: %v", seat, len(m.zones[0]), m.in(seat))
		}
		place := 3
		for place < len(m.zones) && (m.owners[place] != seat || len(m.zones[place]) > 0) {
			place++
		}
		if place == len(m.zones) {
			// No empty place: the card goes to a new one.
			m.zones = append(m.zones, nil)
			m.owners = append(m.owners, seat)
			m.mixed = append(m.mixed, false)
		}
		want := moveEvent(seat, m.top(0), 1, 0, place)
		if err := expect(want); err != nil {
			return err
		}
		if err := m.move(want); err != nil {
			return err
		}
	} else {
		src, dst := a.Target.At(0), a.Target.At(1)
		if m.owner(src) != seat || len(m.zones[src]) == 0 {
			return fmt.Errorf("seat %d moved zone %d, not a stack of its own", seat, src)
		}
		if dst != 1 && (m.owner(dst) < 0 || m.owner(dst) == seat || len(m.zones[dst]) == 0) {
			return fmt.Errorf("seat %d put a stack on zone %d, neither the Common card nor another seat's stack", seat, dst)
		}
		if !m.has(m.top(src), a.Symbol) || !m.has(m.top(dst), a.Symbol) {
			return fmt.Errorf("symbol %d is not on both %v and %v", a.Symbol, m.toppings(m.top(src)), m.toppings(m.top(dst)))
		}
		if err := expect(Event{Kind: EventClaim, Seat: seat, Symbol: a.Symbol, Target: a.Target, Card: -1, From: -1, To: -1}); err != nil {
			return err
		}
		want := moveEvent(seat, m.top(src), len(m.zones[src]), src, dst)
		if err := expect(want); err != nil {
			return err
		}
		if err := m.move(want); err != nil {
			return err
		}
		if !m.in(seat) {
			first := true
			for o := range m.p {
				if o != seat && !m.in(o) {
					first = false
				}
			}
			if !all || first {
				if before.Seat(seat).Tally+1 == target {
					scores := make([]int, m.p)
					for o := range scores {
						scores[o] = before.Seat(o).Tally
					}
					scores[seat]++
					e, err := next()
					if err != nil {
						return err
					}
					r := e.Result
					if e.Kind != EventOver || r == nil || i != len(ev) || r.Unit != "butter pats" || !r.HigherWins ||
						!reflect.DeepEqual(r.Scores, scores) || !reflect.DeepEqual(r.Winners, []int{seat}) {
						return fmt.Errorf("seat %d reached %d butter pats; events end with %+v (%d of %d), want the game over with scores %v",
							seat, target, e, i, len(ev), scores)
					}
					return nil
				}
			}
			roundOver = !all
		}
	}
	if !roundOver && m.stuck() {
		roundOver = true
	}
	if !roundOver {
		if i != len(ev) {
			return fmt.Errorf("extra events %+v", ev[i:])
		}
		return nil
	}
	if err := expect(Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: before.Round() + 1}); err != nil {
		return err
	}
	inPlay := func() int {
		n := len(m.zones[1])
		for z := 3; z < len(m.zones); z++ {
			n += len(m.zones[z])
		}
		return n
	}
	for inPlay() > 0 {
		e, err := next()
		if err != nil {
			return err
		}
		deckZone := 0
		if e.Card >= m.planes {
			deckZone = 2
		}
		if e.Kind != EventMove || e.Seat != NoSeat || e.Count != 1 || e.From == 0 || e.From == 2 || e.To != deckZone {
			return fmt.Errorf("gathering the cards: event %+v; want one card from the table to its deck (zone %d)", e, deckZone)
		}
		if err := m.move(e); err != nil {
			return err
		}
	}
	for _, z := range []int{0, 2} {
		if err := expect(Event{Kind: EventShuffle, Seat: NoSeat, Symbol: -1, Card: -1, Count: len(m.zones[z]), From: z, To: -1}); err != nil {
			return err
		}
		m.mixed[z] = true
	}
	if len(m.zones[0]) != m.planes || len(m.zones[2]) != d.Symbols() {
		return fmt.Errorf("after gathering, %d cards in the draw pile and %d set aside", len(m.zones[0]), len(m.zones[2]))
	}
	for j := range 7 {
		from := 2
		if j >= 2 {
			from = 0
		}
		for o := range m.p {
			e, err := next()
			if err != nil {
				return err
			}
			if want := moveEvent(o, e.Card, 1, from, pcPlace(o, j)); e != want {
				return fmt.Errorf("dealing: event %+v, want %+v", e, want)
			}
			if err := m.move(e); err != nil {
				return err
			}
		}
	}
	e, err := next()
	if err != nil {
		return err
	}
	if want := moveEvent(NoSeat, e.Card, 1, 0, 1); e != want {
		return fmt.Errorf("flipping the Common card: event %+v, want %+v", e, want)
	}
	if err := m.move(e); err != nil {
		return err
	}
	if i != len(ev) {
		return fmt.Errorf("extra events after the deal: %+v", ev[i:])
	}
	return nil
}

// pcOne is the one-topping card of topping sym in the order-5 source.
func pcOne(sym int) int { return 31 + sym }

// pcPlace is the zone of seat's place j, one of the seven made at setup.
func pcPlace(seat, j int) int { return 3 + 7*seat + j }

// setPancakes lays out a known table on s, which plays the order-5 source:
// the draw pile and each seat's stacks (bottom first, in its first places)
// as given; the Common pile is every six-topping card not named, in
// increasing order, then common on top; every one-topping card not named is
// set aside.
func setPancakes(t *testing.T, s *State, draw []int, common []int, seats ...[][]int) {
	t.Helper()
	used := map[int]bool{}
	for _, c := range draw {
		used[c] = true
	}
	for _, c := range common {
		used[c] = true
	}
	zones := make([][]int, s.Zones())
	for i, stacks := range seats {
		for j, st := range stacks {
			zones[pcPlace(i, j)] = st
			for _, c := range st {
				used[c] = true
			}
		}
	}
	zones[0] = draw
	for c := range 31 {
		if !used[c] {
			zones[1] = append(zones[1], c)
		}
	}
	zones[1] = append(zones[1], common...)
	for sym := range 31 {
		if !used[pcOne(sym)] {
			zones[2] = append(zones[2], pcOne(sym))
		}
	}
	setTable(t, s, zones...)
}

// pcPlay applies the actions of a scenario and checks each accepted one
// with verifyPancakes and the invariants.
type pcPlay struct {
	t *testing.T
	s *State
	d *deck.Deck
}

func (p *pcPlay) accept(a Action, want ...Event) []Event {
	p.t.Helper()
	before := p.s.Clone()
	a.Version = p.s.Version()
	ev, err := p.s.Apply(a, nil)
	if err != nil {
		p.t.Fatalf("%+v refused: %v", a, err)
	}
	if err := verifyPancakes(before, p.d, a, ev); err != nil {
		p.t.Fatalf("%+v: %v", a, err)
	}
	if err := CheckInvariants(p.s); err != nil {
		p.t.Fatalf("after %+v: %v", a, err)
	}
	for i := range want {
		want[i].Version = p.s.Version()
		if i < len(ev) && want[i].Kind == EventOver {
			want[i].Result = ev[i].Result
		}
	}
	if want != nil && !reflect.DeepEqual(ev[:min(len(ev), len(want))], want) {
		p.t.Fatalf("%+v: events\n %+v\nwant\n %+v", a, ev, want)
	}
	return ev
}

func (p *pcPlay) refuse(a Action, want error, detail string) *Refusal {
	p.t.Helper()
	a.Version = p.s.Version()
	r := mustRefuse(p.t, p.s, a, want)
	if r.Detail != detail {
		p.t.Fatalf("%+v: refused with %q, want %q", a, r.Detail, detail)
	}
	return r
}

func pcClaim(seat, sym int, t Targets) Event {
	return Event{Kind: EventClaim, Seat: seat, Symbol: sym, Target: t, Card: -1, From: -1, To: -1}
}

func pcMove(seat, card, count, from, to int) Event {
	return Event{Kind: EventMove, Seat: seat, Symbol: -1, Card: card, Count: count, From: from, To: to}
}

// pcDealt checks a fresh round's table: seven cards in front of every
// seat, one per place in places 0 to 6, two one-topping and five
// six-topping; one Common card; the rest of the decks face down.
func pcDealt(t *testing.T, s *State, planes, singles int) {
	t.Helper()
	p := s.Players()
	for z := pancakesFirst; z < s.Zones(); z++ {
		zone := s.Zone(z)
		j := z - pcPlace(zone.Seat, 0)
		switch {
		case j >= 7 && zone.Len() != 0, j < 7 && zone.Len() != 1:
			t.Fatalf("seat %d place %d holds %d cards after the deal", zone.Seat, j, zone.Len())
		case j < 2 && zone.Top() < planes, j >= 2 && j < 7 && zone.Top() >= planes:
			t.Fatalf("seat %d place %d holds card %d", zone.Seat, j, zone.Top())
		}
	}
	if c := s.Zone(pancakesCommon); c.Len() != 1 || c.Top() >= planes {
		t.Fatalf("the Common pile holds %v", c.AppendCards(nil))
	}
	if s.Zone(pancakesDraw).Len() != planes-5*p-1 || s.Zone(pancakesAside).Len() != singles-2*p {
		t.Fatalf("%d cards in the draw pile and %d set aside", s.Zone(pancakesDraw).Len(), s.Zone(pancakesAside).Len())
	}
}

// TestPancakesScenario plays RULES.md §6 on a known table of the
// "pancakes" edition (card i shows i+{0,1,3,8,12,18} mod 31; card 31+s is
// the one-topping card of topping s) with two players.
func TestPancakesScenario(t *testing.T) {
	d, x := pancakesEdition(t)
	s, err := New(mustGame(t, "anarchy-pancakes"), x, Config{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	p := &pcPlay{t, s, d}
	// Card 0 = {0,1,3,8,12,18} is the Common card; the draw pile holds 30
	// and 29 = {1,6,10,16,29,30} on top. Seat 0: one-topping 1, card 5 =
	// {5,6,8,13,17,23}, card 13 = {0,13,14,16,21,25}. Seat 1: card 9 =
	// {9,10,12,17,21,27}, one-topping 2, card 3 = {3,4,6,11,15,21},
	// one-topping 20 and 7.
	setPancakes(t, s, []int{30, 29}, []int{0},
		[][]int{{pcOne(1)}, {5}, {13}},
		[][]int{{9}, {pcOne(2)}, {3}, {pcOne(20)}, {pcOne(7)}})
	if s.Zones() != 3+2*7 {
		t.Fatalf("%d zones with 2 players; want 3 and 7 places per seat", s.Zones())
	}
	z0, z1 := func(j int) int { return pcPlace(0, j) }, func(j int) int { return pcPlace(1, j) }

	// "You may never match your own cards with each other": cards 9 and 3
	// of seat 1 share 21.
	r := p.refuse(Action{Seat: 1, Symbol: 21, Target: To(z1(0), z1(2)), At: 100}, ErrBadTarget, pancakesOwnCards)
	if r.LockedUntil != 1100 || !strings.Contains(r.Error(), "target not allowed: you may never match your own cards with each other; locked out until 1100 ms") {
		t.Fatalf("own cards: %v", r)
	}
	// Naming someone else's stack as your own, or the draw pile as a target.
	p.refuse(Action{Seat: 0, Symbol: 21, Target: To(z1(0), z0(2)), At: 150}, ErrBadTarget, pancakesNotYours)
	p.refuse(Action{Seat: 0, Symbol: 1, Target: To(z0(0), pancakesDraw), At: 1200}, ErrBadTarget, pancakesFaceDown)
	p.refuse(Action{Seat: 0, Symbol: 1, Target: To(z0(0), pancakesAside), At: 2300}, ErrBadTarget, pancakesSetAside)
	p.refuse(Action{Seat: 0, Symbol: 1, Target: To(z0(5), pancakesCommon), At: 3400}, ErrBadTarget, pancakesNoStack)
	p.refuse(Action{Seat: 0, Symbol: 1, Target: To(z0(0), z1(6)), At: 4500}, ErrBadTarget, pancakesNoCard)

	// Seat 0 names topping 1 and puts its one-topping card on the Common
	// card, which it becomes.
	at := int64(5600)
	t01 := To(z0(0), pancakesCommon)
	under := s.Zone(pancakesCommon).Len()
	p.accept(Action{Seat: 0, Symbol: 1, Target: t01, At: at}, pcClaim(0, 1, t01), pcMove(0, pcOne(1), 1, z0(0), pancakesCommon))
	if v := s.View(1).Zones[pancakesCommon]; v.Count != under+1 || len(v.Cards) != 1 || !slices.Equal(v.Cards[0].Symbols, []int{1}) {
		t.Fatalf("the Common card should now show the one-topping card 1 alone: %+v", v)
	}
	// Card 5 and seat 1's card 9 share 17: the card goes on seat 1's card
	// and stays in front of seat 1, a stack showing 5 on top.
	t5 := To(z0(1), z1(0))
	p.accept(Action{Seat: 0, Symbol: 17, Target: t5, At: at + 100}, pcClaim(0, 17, t5), pcMove(0, 5, 1, z0(1), z1(0)))
	if z := s.Zone(z1(0)); z.Seat != 1 || !slices.Equal(z.AppendCards(nil), []int{9, 5}) {
		t.Fatalf("the stack %v in zone of seat %d, want [9 5] in front of seat 1", z.AppendCards(nil), z.Seat)
	}
	if v := s.View(0).Zones[z1(0)]; v.Count != 2 || len(v.Cards) != 1 || v.Cards[0].Card != 5 {
		t.Fatalf("a stack shows its top card only: %+v", v)
	}
	// Only top cards count: 21 is on card 9, under 5, and on card 13.
	r = p.refuse(Action{Seat: 1, Symbol: 21, Target: To(z1(0), z0(2)), At: at + 200}, ErrNotAMatch, "")
	at = r.LockedUntil
	// The whole stack moves: 5 and 13 share 13; 9 and 5 go on card 13, in
	// front of seat 0.
	t13 := To(z1(0), z0(2))
	p.accept(Action{Seat: 1, Symbol: 13, Target: t13, At: at}, pcClaim(1, 13, t13), pcMove(1, 5, 2, z1(0), z0(2)))
	if got := s.Zone(z0(2)).AppendCards(nil); !slices.Equal(got, []int{13, 9, 5}) || s.Zone(z1(0)).Len() != 0 {
		t.Fatalf("seat 0's stack %v, want [13 9 5]", got)
	}
	// Seat 1 draws although card 3 matches 5 (topping 6): the server cannot
	// know what a player sees. The card goes face up into its first empty
	// place, where card 9 was.
	if m := s.Moves(1, nil); m[len(m)-1].Kind != ActionDraw {
		t.Fatalf("the draw is not among seat 1's moves: %+v", m)
	}
	p.accept(Action{Kind: ActionDraw, Seat: 1, At: at + 100}, pcMove(1, 29, 1, pancakesDraw, z1(0)))
	if v := s.View(0).Zones[z1(0)]; len(v.Cards) != 1 || v.Cards[0].Card != 29 {
		t.Fatalf("the drawn card is not face up: %+v", v)
	}
	if v := s.View(1).Zones[pancakesDraw]; v.Count != 1 || len(v.Cards) != 0 {
		t.Fatalf("the draw pile shows cards: %+v", v)
	}
	// Seat 0 puts its last stack on seat 1's card 3 (topping 6): it has no
	// cards left, shouts "Anarchy Pancakes!", takes a butter pat, and the
	// round ends; a new one is dealt.
	t3 := To(z0(2), z1(2))
	p.accept(Action{Seat: 0, Symbol: 6, Target: t3, At: at + 200}, pcClaim(0, 6, t3), pcMove(0, 5, 3, z0(2), z1(2)),
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 2})
	if s.Round() != 2 || s.Seat(0).Tally != 1 || s.Seat(1).Tally != 0 || s.Over() {
		t.Fatalf("round %d, pats %d and %d, over %v", s.Round(), s.Seat(0).Tally, s.Seat(1).Tally, s.Over())
	}
	pcDealt(t, s, 31, 31)
	if r := s.Result(); !reflect.DeepEqual(r.Scores, []int{1, 0}) || r.Unit != "butter pats" || !reflect.DeepEqual(r.Winners, []int{0}) {
		t.Fatalf("standing %+v", r)
	}

	// Round 2 on a known table with an empty draw pile. Seat 0 holds card
	// 3 alone; seat 1 holds card 9 and four one-topping cards.
	setPancakes(t, s, nil, []int{0}, [][]int{{3}}, [][]int{{pcOne(1)}, {pcOne(2)}, {9}, {pcOne(7)}, {pcOne(20)}})
	ta, tb := To(z0(0), pancakesCommon), To(z0(0), z1(2))
	want := []Action{{Seat: 0, Symbol: 3, Target: ta, Version: s.Version()}, {Seat: 0, Symbol: 21, Target: tb, Version: s.Version()}}
	if got := s.Moves(0, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("seat 0's moves %+v, want %+v and no draw", got, want)
	}
	at += 5000
	r = p.refuse(Action{Kind: ActionDraw, Seat: 1, At: at}, ErrBadTarget, pancakesEmptyDraw)
	if !strings.Contains(r.Error(), "target not allowed: the draw pile is empty") {
		t.Fatalf("empty draw pile: %v", r)
	}
	p.refuse(Action{Seat: 1, Symbol: 21, Target: To(z1(2), z0(0)), At: at + 10}, ErrLockedOut, "")
	// Seat 0 runs out again: its second butter pat wins.
	ev := p.accept(Action{Seat: 0, Symbol: 3, Target: ta, At: at + 20}, pcClaim(0, 3, ta), pcMove(0, 3, 1, z0(0), pancakesCommon),
		Event{Kind: EventOver, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1})
	wantResult := &Result{Unit: "butter pats", HigherWins: true, Scores: []int{2, 0}, Winners: []int{0}, Ranking: []int{0, 1}, Places: []int{1, 2}}
	if len(ev) != 3 || !reflect.DeepEqual(ev[2].Result, wantResult) || !reflect.DeepEqual(s.Result(), wantResult) || !s.Over() {
		t.Fatalf("events %+v, result %+v", ev, s.Result())
	}
	p.refuse(Action{Seat: 1, Symbol: 21, Target: To(z1(2), pancakesCommon), At: at + 2000}, ErrGameOver, "")
	if len(s.Moves(1, nil)) != 0 {
		t.Fatal("moves after the end")
	}
}

// TestPancakesStuck checks the stuck table: after seat 0 draws the last
// card, no top card matches one of another owner, so the round ends without
// a butter pat and a new one is dealt.
func TestPancakesStuck(t *testing.T) {
	d, x := pancakesEdition(t)
	s, err := New(mustGame(t, "pancakes"), x, Config{Players: 2, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	p := &pcPlay{t, s, d}
	// Common: one-topping 2. Seat 0: one-topping 4. Seat 1: one-topping 5
	// and 6. The draw pile: card 0 = {0,1,3,8,12,18}, which shows none of
	// 2, 5 and 6.
	setPancakes(t, s, []int{0}, []int{pcOne(2)}, [][]int{{pcOne(4)}}, [][]int{{pcOne(5)}, {pcOne(6)}})
	if m := s.Moves(0, nil); len(m) != 1 || m[0].Kind != ActionDraw {
		t.Fatalf("seat 0 should only be able to draw: %+v", m)
	}
	p.accept(Action{Kind: ActionDraw, Seat: 0, At: 10}, pcMove(0, 0, 1, pancakesDraw, pcPlace(0, 1)),
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 2})
	if s.Round() != 2 || s.Seat(0).Tally != 0 || s.Seat(1).Tally != 0 || s.Over() {
		t.Fatalf("round %d, pats %d and %d, over %v", s.Round(), s.Seat(0).Tally, s.Seat(1).Tally, s.Over())
	}
	pcDealt(t, s, 31, 31)

	// A stuck table after a claim. Seat 0 puts its card 3 =
	// {3,4,6,11,15,21} on the Common card 0 = {0,1,3,8,12,18} (topping 3);
	// what is left, one-topping 5 for seat 0, 7 and 9 for seat 1 and card 3
	// on the Common pile, shares no topping, and seat 1 had no match before
	// either.
	setPancakes(t, s, nil, []int{pcOne(10), 0}, [][]int{{pcOne(5)}, {3}}, [][]int{{pcOne(7)}, {pcOne(9)}})
	if m := s.Moves(1, nil); len(m) != 0 {
		t.Fatalf("seat 1 should have no move: %+v", m)
	}
	t3 := To(pcPlace(0, 1), pancakesCommon)
	p.accept(Action{Seat: 0, Symbol: 3, Target: t3, At: 20}, pcClaim(0, 3, t3), pcMove(0, 3, 1, pcPlace(0, 1), pancakesCommon),
		Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: 3})
	if s.Round() != 3 || s.Seat(0).Tally != 0 || s.Seat(1).Tally != 0 {
		t.Fatalf("round %d, pats %d and %d", s.Round(), s.Seat(0).Tally, s.Seat(1).Tally)
	}
	pcDealt(t, s, 31, 31)
}

// TestPancakesRoundEndAll plays the "all" reading of sheet 004 with three
// players: the first out takes the butter pat at once and sits out; the
// round ends when every seat has run out.
func TestPancakesRoundEndAll(t *testing.T) {
	d, x := pancakesEdition(t)
	g := mustGame(t, "anarchy-pancakes")
	s, err := New(g, x, Config{Players: 3, Seed: 2, Options: map[string]string{"round-end": "all"}})
	if err != nil {
		t.Fatal(err)
	}
	p := &pcPlay{t, s, d}
	// Common card 0 = {0,1,3,8,12,18}; seats hold cards 1 = {1,2,4,9,13,19},
	// 2 = {2,3,5,10,14,20} and 3 = {3,4,6,11,15,21}; card 30 is the draw
	// pile; six one-topping cards lie under the Common card.
	under := []int{pcOne(10), pcOne(11), pcOne(12), pcOne(13), pcOne(14), pcOne(15), 0}
	table := func() {
		setPancakes(t, s, []int{30}, under, [][]int{{1}}, [][]int{{2}}, [][]int{{3}})
	}
	table()
	at := int64(0)
	claim := func(seat, sym int) []Event {
		at += 10
		tg := To(pcPlace(seat, 0), pancakesCommon)
		return p.accept(Action{Seat: seat, Symbol: sym, Target: tg, At: at})
	}
	if ev := claim(0, 1); len(ev) != 2 || s.Seat(0).Tally != 1 || s.Round() != 1 {
		t.Fatalf("seat 0 ran out first: events %+v, pats %d, round %d", ev, s.Seat(0).Tally, s.Round())
	}
	p.refuse(Action{Kind: ActionDraw, Seat: 0, At: 100}, ErrBadTarget, pancakesSittingOut)
	if m := s.Moves(0, nil); len(m) != 0 {
		t.Fatalf("a seat that ran out has moves %+v", m)
	}
	// Nothing can be put on a seat that has run out.
	p.refuse(Action{Seat: 2, Symbol: 3, Target: To(pcPlace(2, 0), pcPlace(0, 0)), At: 100}, ErrBadTarget, pancakesNoCard)
	at = 2000
	if ev := claim(1, 2); len(ev) != 2 || s.Seat(1).Tally != 0 {
		t.Fatalf("seat 1 ran out second: events %+v, pats %d", ev, s.Seat(1).Tally)
	}
	if ev := claim(2, 3); len(ev) < 3 || ev[2].Kind != EventRound || s.Round() != 2 {
		t.Fatalf("every seat ran out: events %+v, round %d", ev, s.Round())
	}
	if r := s.Result(); !reflect.DeepEqual(r.Scores, []int{1, 0, 0}) {
		t.Fatalf("pats %v after the round", r.Scores)
	}
	pcDealt(t, s, 31, 31)

	// Playing to one pat, the first out wins at once.
	s, err = New(g, x, Config{Players: 3, Seed: 2, Options: map[string]string{"round-end": "all", "pats": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	p.s = s
	table()
	if ev := claim(0, 1); len(ev) != 3 || ev[2].Kind != EventOver || !s.Over() || !reflect.DeepEqual(s.Result().Winners, []int{0}) {
		t.Fatalf("one pat to win: events %+v", ev)
	}
}

// TestPancakesSetup checks the deal for every player count: seven cards in
// front of each seat, each in its own place (two one-topping, five
// six-topping), the Common card, the rest face down and never in a view;
// the same deal for the same seed.
func TestPancakesSetup(t *testing.T) {
	_, x := pancakesEdition(t)
	g := mustGame(t, "anarchy-pancakes")
	deal := func(p int, seed uint64) [][]int {
		s, err := New(g, x, Config{Players: p, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if s.Round() != 1 || s.Version() != 0 || s.Zones() != 3+7*p {
			t.Fatalf("%d players: round %d, %d zones", p, s.Round(), s.Zones())
		}
		pcDealt(t, s, 31, 31)
		if err := CheckInvariants(s); err != nil {
			t.Fatal(err)
		}
		for seat := Spectator; seat < p; seat++ {
			v := s.View(seat)
			if len(v.Zones[pancakesDraw].Cards) != 0 || len(v.Zones[pancakesAside].Cards) != 0 ||
				v.Zones[pancakesDraw].Count != 31-5*p-1 || v.Zones[pancakesAside].Count != 31-2*p {
				t.Fatalf("seat %d sees the face-down cards: %+v %+v", seat, v.Zones[pancakesDraw], v.Zones[pancakesAside])
			}
			for z := pancakesFirst; z < len(v.Zones); z++ {
				if zv := v.Zones[z]; len(zv.Cards) != zv.Count {
					t.Fatalf("seat %d does not see the card in zone %d: %+v", seat, z, zv)
				}
			}
		}
		var out [][]int
		for z := range s.Zones() {
			out = append(out, s.Zone(z).AppendCards(nil))
		}
		return out
	}
	for p := PancakesMinPlayers; p <= PancakesMaxPlayers; p++ {
		a, b, c := deal(p, 42), deal(p, 42), deal(p, 43)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%d players: same seed, different deals", p)
		}
		if reflect.DeepEqual(a, c) {
			t.Fatalf("%d players: seeds 42 and 43 dealt the same table", p)
		}
	}
}

// TestPancakesGoldenDeal pins the deal of one seed. Records store only the
// seed, so a change to the shuffle or the deal order would make old records
// replay a different game: this test fails first.
func TestPancakesGoldenDeal(t *testing.T) {
	_, x := pancakesEdition(t)
	s, err := New(mustGame(t, "anarchy-pancakes"), x, Config{Players: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var seat0 []int
	for j := range 7 {
		seat0 = append(seat0, s.Zone(pcPlace(0, j)).Top())
	}
	common, draw := s.Zone(pancakesCommon).Top(), s.Zone(pancakesDraw).Top()
	if !reflect.DeepEqual(seat0, []int{53, 56, 28, 18, 19, 15, 1}) || common != 2 || draw != 7 {
		t.Fatalf("seed 1 deals seat 0 %v, the Common card %d and draw pile top %d; records made before this change no longer replay",
			seat0, common, draw)
	}
}

// pcCards is a card source given as lists of symbols.
type pcCards struct {
	m     int
	cards [][]int
}

func (c pcCards) Len() int                          { return len(c.cards) }
func (c pcCards) Symbols() int                      { return c.m }
func (c pcCards) AppendCard(dst []int, i int) []int { return append(dst, c.cards[i]...) }

// TestPancakesConfig checks that card sources of the wrong shape or size,
// player counts and options are refused with a reason naming what is
// accepted.
func TestPancakesConfig(t *testing.T) {
	g := mustGame(t, "anarchy-pancakes")
	d5 := mustDeck(t, 5, 0)
	pan := WithSingles(d5)
	kids := WithSingles(mustDeck(t, 5, 30))
	fano := [][]int{{0, 1, 3}, {1, 2, 4}, {2, 3, 5}, {3, 4, 6}, {0, 4, 5}, {1, 5, 6}, {0, 2, 6}}
	singles := func(cards [][]int, m int) [][]int {
		for s := range m {
			cards = append(cards, []int{s})
		}
		return cards
	}
	swapped := singles(slices.Clone(fano), 7)
	swapped[7], swapped[8] = swapped[8], swapped[7]
	twice := singles([][]int{{0, 1, 2}, {0, 1, 3}, {2, 3, 4}}, 5)
	short := singles(append(slices.Clone(fano[:6]), []int{6}), 7)
	for _, tc := range []struct {
		cards Cards
		cfg   Config
		field string
		text  string
	}{
		{d5, Config{Players: 2}, "cards", "31 cards with 31 symbols; anarchy-pancakes plays a projective-plane deck (the six-topping cards) followed by one one-topping card per symbol, as rules.WithSingles(deck) builds it"},
		{pcCards{7, swapped}, Config{Players: 2}, "cards", "card 7 shows symbols [1] where the one-topping card of symbol 0 belongs"},
		{pcCards{5, twice}, Config{Players: 2}, "cards", "cards 0 and 1 share 2 symbols; any two six-topping cards share exactly one"},
		{pcCards{7, short}, Config{Players: 2}, "cards", "card 6 shows 1 symbols and card 0 shows 3"},
		{kids, Config{Players: 6}, "cards", `30 six-topping cards for 6 players; each player is dealt 5 and one more is the Common card, so 31 or more are needed (the "pancakes" edition has 31, enough for 6 players)`},
		{WithSingles(mustDeck(t, 3, 0)), Config{Players: 3}, "cards", "13 six-topping cards for 3 players"},
		{pcCards{7, singles(slices.Clone(fano), 7)}, Config{Players: 2}, "cards", "7 six-topping cards for 2 players"},
		{pan, Config{Players: 1}, "players", "1 players; anarchy-pancakes takes 2 to 6"},
		{pan, Config{Players: 7}, "players", "7 players; anarchy-pancakes takes 2 to 6"},
		{pan, Config{Players: 2, Options: map[string]string{"pats": "10"}}, "pats", `"10" is not a whole number from 1 to 9`},
		{pan, Config{Players: 2, Options: map[string]string{"pats": "6"}}, "pats", "6 butter pats to win with 2 players: the box holds 9 pats and a game to 6 can hand out 11; with 2 players use 1 to 5"},
		{pan, Config{Players: 5, Options: map[string]string{"pats": "3"}}, "pats", "with 5 players use 1 to 2"},
		{pan, Config{Players: 3, Options: map[string]string{"pats": "4"}}, "pats", "a game to 4 can hand out 10; with 3 players use 1 to 3"},
		{pan, Config{Players: 4, Options: map[string]string{"round-end": "last"}}, "round-end", `"last" is not one of first, all`},
		{pan, Config{Players: 4, Options: map[string]string{"rounds": "3"}}, "options", `unknown option "rounds"; anarchy-pancakes takes round-end, pats`},
	} {
		_, err := New(g, tc.cards, tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: got %v, want a %s error containing %q", tc.cfg, err, tc.field, tc.text)
		}
	}
	for _, tc := range []struct {
		cards   Cards
		players int
		options map[string]string
	}{
		{kids, 5, nil},
		{pan, 6, nil},
		{pan, 2, map[string]string{"pats": "5"}},
		{pan, 4, map[string]string{"pats": "3", "round-end": "all"}},
		{pan, 6, map[string]string{"pats": "2"}},
		{WithSingles(mustDeck(t, 3, 0)), 2, nil},
	} {
		if _, err := New(g, tc.cards, Config{Players: tc.players, Options: tc.options}); err != nil {
			t.Errorf("%d players, %v: %v", tc.players, tc.options, err)
		}
	}
}

// TestWithSingles checks the card source: the plane's cards first, then one
// card per symbol showing that symbol alone.
func TestWithSingles(t *testing.T) {
	d := mustDeck(t, 5, 30)
	w := WithSingles(d)
	if w.Len() != 61 || w.Symbols() != 31 {
		t.Fatalf("%d cards, %d symbols", w.Len(), w.Symbols())
	}
	for i := range 30 {
		if got := w.AppendCard([]int{-1}, i); !slices.Equal(got[1:], d.Card(i)) || got[0] != -1 {
			t.Fatalf("card %d: %v, want %v after the prefix", i, got, d.Card(i))
		}
	}
	for s := range 31 {
		if got := w.AppendCard(nil, 30+s); !slices.Equal(got, []int{s}) {
			t.Fatalf("one-symbol card of %d shows %v", s, got)
		}
	}
	x, err := NewIndex(w)
	if err != nil {
		t.Fatal(err)
	}
	if planes, err := pancakesShape(x); err != nil || planes != 30 {
		t.Fatalf("shape: %d plane cards, %v", planes, err)
	}
}

func TestPancakesProperties(t *testing.T) { runProperties(t, "anarchy-pancakes", verifyPancakes) }

// TestPancakesPropertiesVariants runs the property tests with the "all"
// round end, and with one butter pat to win.
func TestPancakesPropertiesVariants(t *testing.T) {
	g := mustGame(t, "anarchy-pancakes")
	for _, opts := range []map[string]string{{"round-end": "all"}, {"pats": "1"}} {
		t.Run(fmt.Sprint(opts), func(t *testing.T) { runPropertiesOf(t, g, opts, verifyPancakes) })
	}
}

func FuzzPancakes(f *testing.F) { fuzzGame(f, "anarchy-pancakes", verifyPancakes) }

// TestPancakesMovesComplete checks, on tables met during random games,
// that Moves lists exactly the actions Check accepts: every symbol against
// every pair of zones, and the draw, for every seat.
func TestPancakesMovesComplete(t *testing.T) {
	g := mustGame(t, "anarchy-pancakes")
	_, x := pancakesEdition(t)
	for _, tc := range []struct {
		players int
		opts    map[string]string
	}{{2, nil}, {4, map[string]string{"round-end": "all"}}, {6, nil}} {
		s, err := New(g, x, Config{Players: tc.players, Seed: uint64(tc.players), Lockout: NoLockout, Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for step := 0; !s.Over(); step++ {
			if step%3 == 0 {
				for seat := range s.Players() {
					var accepted []Action
					if s.Check(Action{Kind: ActionDraw, Seat: seat, Version: s.Version()}) == nil {
						accepted = append(accepted, Action{Kind: ActionDraw, Seat: seat, Version: s.Version()})
					}
					for src := range s.Zones() {
						for dst := range s.Zones() {
							for sym := range x.Symbols() {
								a := Action{Seat: seat, Symbol: sym, Target: To(src, dst), Version: s.Version()}
								if s.Check(a) == nil {
									accepted = append(accepted, a)
								}
							}
						}
					}
					moves := s.Moves(seat, nil)
					slices.SortFunc(moves, pcCompare)
					slices.SortFunc(accepted, pcCompare)
					if !reflect.DeepEqual(moves, accepted) {
						t.Fatalf("%d players, seat %d, version %d: Moves %+v, Check accepts %+v", tc.players, seat, s.Version(), moves, accepted)
					}
					checked++
				}
			}
			if _, err := s.Apply(pancakesPerfect(s), nil); err != nil {
				t.Fatal(err)
			}
		}
		if checked < 2*tc.players {
			t.Fatalf("%d players: only %d tables checked", tc.players, checked)
		}
	}
}

func pcCompare(a, b Action) int {
	if c := int(a.Kind) - int(b.Kind); c != 0 {
		return c
	}
	if c := a.Target.z[0] - b.Target.z[0]; c != 0 {
		return int(c)
	}
	if c := a.Target.z[1] - b.Target.z[1]; c != 0 {
		return int(c)
	}
	return a.Symbol - b.Symbol
}

// pancakesPerfect returns the action of instant perfect players: the first
// stack, in zone order, that goes on the Common card; else the first that
// goes on another seat's stack (its lowest-numbered one); when nobody has a
// claim, a draw by the seat of the first place that holds cards.
func pancakesPerfect(s *State) Action {
	x := s.cards
	n := len(s.zones)
	common := s.top(pancakesCommon)
	for z := pancakesFirst; z < n; z++ {
		if c := s.top(z); c >= 0 {
			if sym := x.Common(c, common); sym >= 0 {
				return Action{Seat: s.zones[z].Seat, Symbol: sym, Target: To(z, pancakesCommon), Version: s.version}
			}
		}
	}
	drawer := -1
	for z := pancakesFirst; z < n; z++ {
		c := s.top(z)
		if c < 0 {
			continue
		}
		seat := s.zones[z].Seat
		if drawer < 0 {
			drawer = seat
		}
		for o := pancakesFirst; o < n; o++ {
			if d := s.top(o); d >= 0 && s.zones[o].Seat != seat {
				if sym := x.Common(c, d); sym >= 0 {
					return Action{Seat: seat, Symbol: sym, Target: To(z, o), Version: s.version}
				}
			}
		}
	}
	return Action{Kind: ActionDraw, Seat: drawer, Version: s.version}
}

// TestPancakesPerfectPlay plays many games with instant perfect players for
// every player count and both round ends: each ends with one winner at two
// butter pats, each action is among the seat's Moves, and nobody draws
// while a claim exists.
func TestPancakesPerfectPlay(t *testing.T) {
	g := mustGame(t, "anarchy-pancakes")
	_, x := pancakesEdition(t)
	games := 200
	if testing.Short() {
		games = 40
	}
	for _, end := range []string{"first", "all"} {
		for p := PancakesMinPlayers; p <= PancakesMaxPlayers; p++ {
			for seed := range uint64(games) {
				s, err := New(g, x, Config{Players: p, Seed: seed, Options: map[string]string{"round-end": end}})
				if err != nil {
					t.Fatal(err)
				}
				var moves []Action
				for n := 0; !s.Over(); n++ {
					if n > 10000 {
						t.Fatalf("%d players, seed %d: no end after %d actions", p, seed, n)
					}
					a := pancakesPerfect(s)
					moves = s.Moves(a.Seat, moves[:0])
					if !slices.Contains(moves, a) {
						t.Fatalf("%d players, seed %d: the perfect action %+v is not among %+v", p, seed, a, moves)
					}
					if a.Kind == ActionDraw {
						for o := range p {
							if m := s.Moves(o, nil); len(m) > 0 && m[0].Kind == ActionClaim {
								t.Fatalf("seat %d draws while seat %d can claim %+v", a.Seat, o, m[0])
							}
						}
					}
					if _, err := s.Apply(a, nil); err != nil {
						t.Fatal(err)
					}
				}
				if r := s.Result(); len(r.Winners) != 1 || r.Scores[r.Winners[0]] != 2 {
					t.Fatalf("%d players, seed %d: result %+v", p, seed, r)
				}
			}
		}
	}
}

// TestPancakesRandomPlay plays many games in which each accepted action is
// drawn at random from every seat's Moves, draws included, for every player
// count and both round ends. Every game ends with one winner; rounds that
// end stuck, without a pat, do occur, more often with more players.
func TestPancakesRandomPlay(t *testing.T) {
	g := mustGame(t, "anarchy-pancakes")
	_, x := pancakesEdition(t)
	games := 200
	if testing.Short() {
		games = 40
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, end := range []string{"first", "all"} {
		for p := PancakesMinPlayers; p <= PancakesMaxPlayers; p++ {
			dead, rounds := 0, 0
			var moves []Action
			for seed := range uint64(games) {
				s, err := New(g, x, Config{Players: p, Seed: seed, Options: map[string]string{"round-end": end}})
				if err != nil {
					t.Fatal(err)
				}
				for n := 0; !s.Over(); n++ {
					if n > 10000 {
						t.Fatalf("%d players, seed %d: no end after %d actions", p, seed, n)
					}
					moves = moves[:0]
					for seat := range p {
						moves = s.Moves(seat, moves)
					}
					if len(moves) == 0 {
						t.Fatalf("%d players, seed %d: nobody can act and the game goes on", p, seed)
					}
					if _, err := s.Apply(moves[r.IntN(len(moves))], nil); err != nil {
						t.Fatal(err)
					}
				}
				res := s.Result()
				pats := 0
				for _, sc := range res.Scores {
					pats += sc
				}
				if len(res.Winners) != 1 || res.Scores[res.Winners[0]] != 2 || pats > s.Round() {
					t.Fatalf("%d players, seed %d: result %+v after %d rounds", p, seed, res, s.Round())
				}
				rounds += s.Round()
				dead += s.Round() - pats
			}
			t.Logf("round end %q, %d players: %d rounds in %d games, %d without a pat", end, p, rounds, games, dead)
			if p == PancakesMaxPlayers && dead == 0 {
				t.Errorf("round end %q, %d players: no round ended stuck in %d games", end, p, games)
			}
		}
	}
}

// BenchmarkPancakesGame plays complete 4-player games of Anarchy Pancakes
// on the "pancakes" edition with instant perfect play, setup included.
func BenchmarkPancakesGame(b *testing.B) {
	for _, p := range []int{2, 4, 6} {
		b.Run(fmt.Sprintf("players=%d", p), func(b *testing.B) {
			_, x := pancakesEdition(b)
			g := mustGame(b, "anarchy-pancakes")
			ev := make([]Event, 0, 256)
			actions, rounds := 0, 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s, err := New(g, x, Config{Players: p, Seed: uint64(i)})
				if err != nil {
					b.Fatal(err)
				}
				for !s.Over() {
					if ev, err = s.Apply(pancakesPerfect(s), ev[:0]); err != nil {
						b.Fatal(err)
					}
					actions++
				}
				rounds += s.Round()
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(actions)/sec, "actions/s")
			b.ReportMetric(float64(rounds)/float64(b.N), "rounds/game")
		})
	}
}

// BenchmarkPancakesClaimValidation checks claims against a 4-player table
// of the "pancakes" edition: correct ones, wrong symbols, and claims on the
// claimant's own stacks, through the public Check.
func BenchmarkPancakesClaimValidation(b *testing.B) {
	_, x := pancakesEdition(b)
	s, err := New(mustGame(b, "anarchy-pancakes"), x, Config{Players: 4, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	var correct, wrong, own []Action
	for seat := range 4 {
		for _, m := range s.Moves(seat, nil) {
			if m.Kind != ActionClaim {
				continue
			}
			correct = append(correct, m)
			w := m
			w.Symbol = (m.Symbol + 1) % x.Symbols()
			if s.Check(w) != nil {
				wrong = append(wrong, w)
			}
			o := m
			o.Target = To(m.Target.At(0), pcPlace(seat, (m.Target.At(0)-pcPlace(seat, 0)+1)%7))
			own = append(own, o)
		}
	}
	run := func(name string, claims []Action, wantErr bool) {
		b.Run(name, func(b *testing.B) {
			if len(claims) == 0 {
				b.Fatal("no claims to check")
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, a := range claims {
					if (s.Check(a) != nil) != wantErr {
						b.Fatalf("%+v: unexpected verdict", a)
					}
				}
				n += len(claims)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "claims/s")
		})
	}
	run("correct", correct, false)
	run("wrong", wrong, true)
	run("own", own, true)
}

// TestPancakesNewPlace checks the draw of a seat whose seven places are all
// taken: the card goes to a new place of that seat at the end of the zone
// list, which every seat sees and can play with or on; a seat with an empty
// place draws into it.
func TestPancakesNewPlace(t *testing.T) {
	d, x := pancakesEdition(t)
	s, err := New(mustGame(t, "anarchy-pancakes"), x, Config{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := &pcPlay{t, s, d}
	setPancakes(t, s, []int{30, 29}, []int{0},
		[][]int{{pcOne(1)}, {pcOne(2)}, {1}, {2}, {4}, {5}, {6}},
		[][]int{{pcOne(3)}, {pcOne(4)}, {7}})
	// Card 29 = {1,6,10,16,29,30} goes to zone 17, seat 0's eighth place.
	p.accept(Action{Kind: ActionDraw, Seat: 0, At: 10}, pcMove(0, 29, 1, pancakesDraw, 17))
	if z := s.Zone(17); s.Zones() != 18 || z.Seat != 0 || z.Kind != ZonePile || z.Show != ShowTop || z.Top() != 29 {
		t.Fatalf("%d zones; zone 17: %+v", s.Zones(), z)
	}
	if v := s.View(1); len(v.Zones) != 18 || len(v.Zones[17].Cards) != 1 || v.Zones[17].Cards[0].Card != 29 {
		t.Fatalf("seat 1 does not see the new place: %+v", v.Zones[len(v.Zones)-1])
	}
	// Card 30 = {0,2,7,11,17,30} goes to seat 1's first empty place.
	p.accept(Action{Kind: ActionDraw, Seat: 1, At: 20}, pcMove(1, 30, 1, pancakesDraw, pcPlace(1, 3)))
	if s.Zones() != 18 {
		t.Fatalf("%d zones after a draw into an empty place", s.Zones())
	}
	// The new place plays like any other: 29 and 30 share 30, both ways.
	from := Action{Seat: 0, Symbol: 30, Target: To(17, pcPlace(1, 3)), Version: s.Version()}
	onto := Action{Seat: 1, Symbol: 30, Target: To(pcPlace(1, 3), 17), Version: s.Version()}
	if !slices.Contains(s.Moves(0, nil), from) || !slices.Contains(s.Moves(1, nil), onto) {
		t.Fatalf("the new place is not in the moves: %+v / %+v", s.Moves(0, nil), s.Moves(1, nil))
	}
	p.accept(onto, pcClaim(1, 30, onto.Target), pcMove(1, 30, 1, pcPlace(1, 3), 17))
	if got := s.Zone(17).AppendCards(nil); !slices.Equal(got, []int{29, 30}) {
		t.Fatalf("zone 17 holds %v", got)
	}
}

// TestPancakesPick checks Anarchy Pancakes' PickMove both ways: read from
// the pancakesTable, and going over the zones when a State has none. On
// tables of random games where a seat has several claims, every claim comes
// up about equally often (within five standard deviations) and nothing else
// does; where it has none, the seat draws if the draw pile is not empty and
// does nothing otherwise.
func TestPancakesPick(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := pancakesTestDecks(t)[0]
	for _, td := range pancakesTestDecks(t) {
		if td.d.Len() > x.d.Len() {
			x = td // the largest deck: the most claims
		}
	}
	tables, bare := 0, 0
	for seed := uint64(0); seed < 40 && (tables < 8 || bare == 0); seed++ {
		s, err := New(anarchyPancakes{}, x.x, Config{Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if pancakesTableOf(s) == nil {
			t.Fatal("no pancakesTable on a plane deck")
		}
		for step := 0; !s.Over() && (tables < 8 || bare == 0); step++ {
			seat := r.IntN(s.Players())
			bareState := s.Clone()
			bareState.SetExtension(nil)
			moves := s.Moves(seat, nil)
			claims := slices.DeleteFunc(slices.Clone(moves), func(m Action) bool { return m.Kind != ActionClaim })
			switch {
			case len(claims) == 0:
				bare++
			case len(claims) >= 2 && step%3 == 0:
				tables++
			}
			for _, st := range []*State{s, bareState} {
				switch {
				case len(claims) == 0:
					a, ok := st.PickMove(seat, r)
					want := pancakesIn(s, seat) && s.count(pancakesDraw) > 0
					if ok != want || ok && a != (Action{Kind: ActionDraw, Seat: seat, Version: s.Version()}) {
						t.Fatalf("no claim, table %v: PickMove gave %+v, %v; want the draw: %v", st.ext != nil, a, ok, want)
					}
				case len(claims) >= 2 && step%3 == 0:
					const per = 400
					counts := make([]int, len(claims))
					for range per * len(claims) {
						a, ok := st.PickMove(seat, r)
						i := slices.Index(claims, a)
						if !ok || i < 0 {
							t.Fatalf("table %v: PickMove gave %+v, %v; the claims are %+v", st.ext != nil, a, ok, claims)
						}
						counts[i]++
					}
					sd := math.Sqrt(per * (1 - 1/float64(len(claims))))
					for i, c := range counts {
						if math.Abs(float64(c)-per) > 5*sd {
							t.Fatalf("table %v: claim %+v picked %d times of %d, want about %d; counts %v",
								st.ext != nil, claims[i], c, per*len(claims), per, counts)
						}
					}
				}
			}
			if len(moves) == 0 {
				continue
			}
			if _, err := s.Apply(moves[r.IntN(len(moves))], nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tables < 8 || bare == 0 {
		t.Errorf("%d tables with a choice of claims and %d without a claim; want 8 and some", tables, bare)
	}
}

// TestPancakesTable checks that a game keeps a pancakesTable when its deck
// allows one, and none when a card's toppings do not fit one word (the
// order-8 plane) or a topping shows on more than 15 six-topping cards (a
// fan of 20 two-topping cards all showing topping 0, where a fan of 15
// keeps one); and that a game played without one plays like a game with
// one: the same events for the same actions, the same answers to CanMove
// and Movers, and PickMove among the moves, with the invariants, the
// table's included, holding throughout.
func TestPancakesTable(t *testing.T) {
	g := mustGame(t, "anarchy-pancakes")
	for _, td := range pancakesTestDecks(t) {
		for p := PancakesMinPlayers; p <= PancakesMaxPlayers; p++ {
			s, err := New(g, td.x, Config{Players: p})
			if err != nil {
				continue // too few cards for p players
			}
			if pancakesTableOf(s) == nil {
				t.Errorf("%s, %d players: no pancakesTable", td.name, p)
			}
		}
	}
	fanOf := func(n int) *Index {
		var fan [][]int
		for i := 1; i <= n; i++ {
			fan = append(fan, []int{0, i})
		}
		for sym := range n + 1 {
			fan = append(fan, []int{sym})
		}
		x, err := NewIndex(pcCards{n + 1, fan})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	wide, err := NewIndex(WithSingles(mustDeck(t, 8, 0)))
	if err != nil {
		t.Fatal(err)
	}
	decks := []struct {
		x     *Index
		table bool
	}{{fanOf(15), true}, {fanOf(20), false}, {wide, false}}
	for _, td := range pancakesTestDecks(t) {
		decks = append(decks, struct {
			x     *Index
			table bool
		}{td.x, true})
	}
	r := rand.New(rand.NewPCG(8, 9))
	var buf []Action
	for seed := range uint64(36) {
		d, p := decks[seed%uint64(len(decks))], 2+int(seed)%2
		if d.x.Len()-d.x.Symbols() < pancakesSixes*p+1 {
			p = 2
		}
		s, err := New(g, d.x, Config{Players: p, Seed: seed, Options: map[string]string{"round-end": []string{"first", "all"}[seed/5%2]}})
		if err != nil {
			t.Fatal(err)
		}
		if (pancakesTableOf(s) != nil) != d.table {
			t.Fatalf("seed %d: pancakesTable %v on the deck of %d cards", seed, pancakesTableOf(s) != nil, d.x.Len())
		}
		bare := s.Clone()
		bare.SetExtension(nil)
		round := 0
		for step := 0; !s.Over(); step++ {
			if step > 5000 {
				t.Fatalf("seed %d: no end after %d actions", seed, step)
			}
			if tb := pancakesTableOf(s); tb != nil && s.Round() != round {
				// Just dealt: the table as read from the deal lists its
				// cards in zone order, as Resync does.
				round = s.Round()
				var fresh pancakesTable
				fresh.Resync(s)
				if err := tb.differs(&fresh, true); err != nil {
					t.Fatalf("seed %d, round %d: %v", seed, round, err)
				}
			}
			if s.Movers() != bare.Movers() {
				t.Fatalf("seed %d, version %d: Movers %b with the table, %b without", seed, s.Version(), s.Movers(), bare.Movers())
			}
			checkPicks(t, s, buf)
			checkPicks(t, bare, buf)
			var moves []Action
			for seat := range p {
				moves = s.Moves(seat, moves)
			}
			a := moves[r.IntN(len(moves))]
			ev, err := s.Apply(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			evBare, err := bare.Apply(a, nil)
			if err != nil || !reflect.DeepEqual(ev, evBare) {
				t.Fatalf("seed %d, %+v: events %+v with the table, %+v, %v without", seed, a, ev, evBare, err)
			}
			for _, st := range []*State{s, bare} {
				if err := CheckInvariants(st); err != nil {
					t.Fatalf("seed %d, table %v: %v", seed, st.ext != nil, err)
				}
			}
		}
	}
}

// TestPancakesCount checks the bit-sliced counters against plain counts:
// adding random cards, taking some away, summing two sets of counts, and
// weighing sets of toppings.
func TestPancakesCount(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	for range 200 {
		var c, d pancakesCount
		var cn, dn [64]int
		for range 200 {
			b := r.Uint64() & r.Uint64()
			switch k := r.IntN(3); {
			case k == 0 && c.over(b) == 0:
				c.add(b)
				for sym := range 64 {
					cn[sym] += int(b >> sym & 1)
				}
			case k == 1 && d.over(b) == 0 && c.over(b) == 0:
				// Counted in both, so that d stays below c.
				c.add(b)
				d.add(b)
				for sym := range 64 {
					cn[sym] += int(b >> sym & 1)
					dn[sym] += int(b >> sym & 1)
				}
			case k == 2:
				// Take away what d can lose.
				var m uint64
				for sym := range 64 {
					if dn[sym] > 0 {
						m |= 1 << sym
					}
				}
				b &= m
				c.sub(b)
				d.sub(b)
				for sym := range 64 {
					cn[sym] -= int(b >> sym & 1)
					dn[sym] -= int(b >> sym & 1)
				}
			}
		}
		// c holds d's cards and others: d plus what c has beyond it.
		var e pancakesCount
		for sym := range 64 {
			for range cn[sym] - dn[sym] {
				e.add(1 << sym)
			}
		}
		sum := d
		sum.plus(&e)
		w, want := r.Uint64(), 0
		for sym := range 64 {
			if c.at(sym) != cn[sym] || d.at(sym) != dn[sym] || sum.at(sym) != cn[sym] {
				t.Fatalf("topping %d: counts %d, %d, %d; want %d, %d", sym, c.at(sym), d.at(sym), sum.at(sym), cn[sym], dn[sym])
			}
			if w>>sym&1 != 0 {
				want += cn[sym]
			}
		}
		if got := c.weigh(w); got != want {
			t.Fatalf("weigh %x: %d, want %d", w, got, want)
		}
	}
}
