package rules

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

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
