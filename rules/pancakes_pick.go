package rules

import "math/bits"

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
