package rules

// Rand is a source of uniform random integers, such as a *rand.Rand of
// math/rand/v2: IntN returns an integer in 0..n-1, for n > 0.
type Rand interface {
	IntN(n int) int
}

// MoveChecker is an optional interface of a Game that can tell whether a
// seat has any move without listing them. State.CanMove uses it, and
// otherwise lists the moves.
type MoveChecker interface {
	// CanMove reports whether Moves(s, seat, nil) would append at least
	// one action. It is only called while the game runs, for a seat of
	// the table, and must not change s.
	CanMove(s *State, seat int) bool
}

// MovePicker is an optional interface of a Game that can pick one of a
// seat's moves at random without listing them all. State.PickMove uses it,
// and otherwise lists the moves and picks among them.
type MovePicker interface {
	// PickMove returns one of the claims Moves(s, seat, nil) would append,
	// each with the same probability, drawing from r; when Moves would
	// append no claim, the draw it would append; and false when Moves
	// would append nothing. It is only called while the game runs, for a
	// seat of the table, and must not change s.
	PickMove(s *State, seat int, r Rand) (Action, bool)
}

// CanMove reports whether seat has an action that would be accepted now,
// apart from lock-outs: whether Moves would append anything. It is false
// when the game is over or the seat does not exist. It costs far less than
// Moves in games that list many claims.
func (s *State) CanMove(seat int) bool {
	if s.over || uint(seat) >= uint(len(s.seats)) {
		return false
	}
	if s.checker != nil {
		return s.checker.CanMove(s, seat)
	}
	s.scratch = s.game.Moves(s, seat, s.scratch[:0])
	return len(s.scratch) > 0
}

// PickMove returns what a perfect player picking at random would do now:
// one of seat's correct claims, each with the same probability, drawing
// from r; when it has none, the draw if the seat may draw; false when the
// seat has no move (or the game is over, or the seat does not exist). The
// action is made against the current version, with At 0. It is the move
// of an instant bot, and agrees with Moves: it returns a claim exactly
// when Moves lists one, and never an action Moves does not list. Games
// with many claims find one without listing them all.
func (s *State) PickMove(seat int, r Rand) (Action, bool) {
	if s.over || uint(seat) >= uint(len(s.seats)) {
		return Action{}, false
	}
	if s.picker != nil {
		return s.picker.PickMove(s, seat, r)
	}
	s.scratch = s.game.Moves(s, seat, s.scratch[:0])
	return pickAmong(s.scratch, r)
}

// pickAmong returns a claim of moves, each with the same probability,
// drawing from r unless there is only one; when moves hold no claim, their
// first draw; false when they hold neither.
func pickAmong(moves []Action, r Rand) (Action, bool) {
	claims, draw := 0, -1
	for i := range moves {
		switch moves[i].Kind {
		case ActionClaim:
			claims++
		case ActionDraw:
			if draw < 0 {
				draw = i
			}
		}
	}
	switch {
	case claims == 0 && draw >= 0:
		return moves[draw], true
	case claims == 0:
		return Action{}, false
	case claims == len(moves) && claims == 1:
		return moves[0], true
	}
	n := r.IntN(claims)
	for i := range moves {
		if moves[i].Kind == ActionClaim {
			if n == 0 {
				return moves[i], true
			}
			n--
		}
	}
	panic("rules: pickAmong: claim out of range")
}

// pickBuffer is the room for moves a game's PickMove lists on the stack
// before picking among them; a game with more moves grows it on the heap.
const pickBuffer = 16

// share reports whether cards i and j show a common symbol; a missing card
// (-1) shares nothing.
func (s *State) share(i, j int) bool {
	if i < 0 || j < 0 {
		return false
	}
	x := s.cards
	if x.words == 1 {
		return x.bits[i]&x.bits[j] != 0
	}
	a := x.bits[i*x.words : (i+1)*x.words]
	b := x.bits[j*x.words : (j+1)*x.words]
	for w := range a {
		if a[w]&b[w] != 0 {
			return true
		}
	}
	return false
}

// pickShared returns the claim by seat, with target t, of one of the
// symbols cards i and j share, each equally likely, drawing from r only
// when they share several; false when they share none or a card is missing
// (-1).
func (s *State) pickShared(seat int, t Targets, i, j int, r Rand) (Action, bool) {
	n := 0
	if i >= 0 && j >= 0 {
		n = s.cards.shared(i, j)
	}
	if n == 0 {
		return Action{}, false
	}
	k := 0
	if n > 1 {
		k = r.IntN(n)
	}
	return s.claimOf(seat, s.cards.nthShared(i, j, k), t), true
}

// pickAgainst returns a claim by seat of a symbol card a shares with one of
// cards, naming the matching zone of zones as its one target, each such
// claim equally likely (cards and zones are parallel; a card -1 is
// missing); false when there is none. It draws from r only when there are
// several.
func (s *State) pickAgainst(seat, a int, zones, cards []int32, r Rand) (Action, bool) {
	if a < 0 {
		return Action{}, false
	}
	total := 0
	for _, c := range cards {
		if c >= 0 {
			total += s.cards.shared(a, int(c))
		}
	}
	if total == 0 {
		return Action{}, false
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for i, c := range cards {
		if c < 0 {
			continue
		}
		k := s.cards.shared(a, int(c))
		if n < k {
			return s.claimOf(seat, s.cards.nthShared(a, int(c), n), oneTarget(int(zones[i]))), true
		}
		n -= k
	}
	panic("rules: pickAgainst: claim out of range")
}

// claimOf returns the claim of symbol sym by seat with target t, made
// against the current version.
func (s *State) claimOf(seat, sym int, t Targets) Action {
	return Action{Kind: ActionClaim, Seat: seat, Symbol: sym, Target: t, Version: s.version}
}

// asChecker returns g as a MoveChecker, or nil; New keeps it in the State
// so that CanMove does not convert the game at every call.
func asChecker(g Game) MoveChecker {
	c, _ := g.(MoveChecker)
	return c
}

// asPicker returns g as a MovePicker, or nil, for the same reason.
func asPicker(g Game) MovePicker {
	p, _ := g.(MovePicker)
	return p
}
