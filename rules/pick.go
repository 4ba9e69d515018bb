package rules

import (
	"fmt"
	"math/bits"
)

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
	// PickMove writes to *a one of the claims Moves(s, seat, nil) would
	// append, each with the same probability, drawing from r; when Moves
	// would append no claim, the first action it would append (a draw, a
	// discard); and returns false,
	// leaving *a as it was, when Moves would append nothing. It is only
	// called while the game runs, for a seat of the table, and must not
	// change s.
	PickMove(s *State, seat int, r Rand, a *Action) bool
}

// MoverFinder is an optional interface of a Game that can tell in one pass
// over the table which seats have a move. State.Movers uses it, and
// otherwise asks CanMove seat by seat.
type MoverFinder interface {
	// Movers returns the seats for which CanMove(s, seat) would report
	// true, seat i as bit i. It is only called while the game runs, on a
	// table of at most 64 seats, and must not change s.
	Movers(s *State) uint64
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

// MaxMovers is the largest table Movers answers for: one bit per seat.
const MaxMovers = 64

// Movers returns the seats that have an action that would be accepted now,
// apart from lock-outs, seat i as bit i: the seats for which CanMove
// reports true, found in one pass over the table where the game can. It is
// 0 when the game is over. It panics on a table of more than MaxMovers
// seats, which has no such set; ask CanMove seat by seat there.
func (s *State) Movers() uint64 {
	if len(s.seats) > MaxMovers {
		panic(fmt.Sprintf("rules: Movers of a table of %d seats; at most %d", len(s.seats), MaxMovers))
	}
	if s.over {
		return 0
	}
	if s.finder != nil {
		return s.finder.Movers(s)
	}
	var set uint64
	for i := range s.seats {
		if s.CanMove(i) {
			set |= 1 << i
		}
	}
	return set
}

// seatsWhere returns the seats for which c.CanMove reports true, seat i as
// bit i, asking seat by seat: the Movers of a game that has no quicker way.
func (s *State) seatsWhere(c MoveChecker) uint64 {
	var set uint64
	for i := range s.seats {
		if c.CanMove(s, i) {
			set |= 1 << i
		}
	}
	return set
}

// PickMove returns what a perfect player picking at random would do now:
// one of seat's correct claims, each with the same probability, drawing
// from r; when it has none, the first of its other moves (the draw if the
// seat may draw, a discard, a lay); false when the
// seat has no move (or the game is over, or the seat does not exist). The
// action is made against the current version, with At 0. It is the move
// of an instant bot, and agrees with Moves: it returns a claim exactly
// when Moves lists one, and never an action Moves does not list. Games
// with many claims find one without listing them all.
func (s *State) PickMove(seat int, r Rand) (Action, bool) {
	if !s.PickMoveTo(&s.arg, seat, r) {
		return Action{}, false
	}
	return s.arg, true
}

// PickMoveTo is PickMove writing the action to *a, which it leaves as it
// was when it returns false. A loop that keeps its actions in place (a
// bot's plan) spares the copies of a 64-byte Action.
func (s *State) PickMoveTo(a *Action, seat int, r Rand) bool {
	if s.over || uint(seat) >= uint(len(s.seats)) {
		return false
	}
	if s.picker != nil {
		return s.picker.PickMove(s, seat, r, a)
	}
	s.scratch = s.game.Moves(s, seat, s.scratch[:0])
	return pickAmong(a, s.scratch, r)
}

// pickAmong writes to *a a claim of moves, each with the same probability,
// drawing from r unless there is only one; when moves hold no claim, the
// first of them; it returns false, leaving *a, when there are none.
func pickAmong(a *Action, moves []Action, r Rand) bool {
	claims, draw := 0, -1
	for i := range moves {
		switch moves[i].Kind {
		case ActionClaim:
			claims++
		default:
			if draw < 0 {
				draw = i
			}
		}
	}
	switch {
	case claims == 0 && draw >= 0:
		*a = moves[draw]
		return true
	case claims == 0:
		return false
	case claims == len(moves) && claims == 1:
		*a = moves[0]
		return true
	}
	n := r.IntN(claims)
	for i := range moves {
		if moves[i].Kind == ActionClaim {
			if n == 0 {
				*a = moves[i]
				return true
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

// everyone returns every seat when ok, none otherwise.
func (s *State) everyone(ok bool) uint64 {
	if !ok {
		return 0
	}
	return 1<<len(s.seats) - 1
}

// sharingWith returns the seats whose zone first+seat has a top card that
// shares a symbol with card c (-1 shares nothing).
func (s *State) sharingWith(c, first int) uint64 {
	if c < 0 {
		return 0
	}
	var set uint64
	x := s.cards
	if x.words == 1 {
		b := x.bits[c]
		for i := range s.seats {
			if d := s.top(first + i); d >= 0 && x.bits[d]&b != 0 {
				set |= 1 << i
			}
		}
		return set
	}
	for i := range s.seats {
		if s.share(c, s.top(first+i)) {
			set |= 1 << i
		}
	}
	return set
}

// pickShared writes to *a the claim by seat, with target t, of one of the
// symbols cards i and j share, each equally likely, drawing from r only
// when they share several; false when they share none or a card is missing
// (-1).
func (s *State) pickShared(a *Action, seat int, t Targets, i, j int, r Rand) bool {
	if i < 0 || j < 0 {
		return false
	}
	x := s.cards
	if x.words == 1 {
		m := x.bits[i] & x.bits[j]
		switch {
		case m == 0:
			return false
		case m&(m-1) != 0:
			for k := r.IntN(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
		}
		s.setClaim(a, seat, bits.TrailingZeros64(m), &t)
		return true
	}
	n := x.shared(i, j)
	if n == 0 {
		return false
	}
	k := 0
	if n > 1 {
		k = r.IntN(n)
	}
	s.setClaim(a, seat, x.nthShared(i, j, k), &t)
	return true
}

// pickAgainst writes to *a a claim by seat of a symbol card c shares with
// one of cards, naming the matching zone of zones as its one target, each
// such claim equally likely (cards and zones are parallel; a card -1 is
// missing); false when there is none. It draws from r only when there are
// several.
func (s *State) pickAgainst(a *Action, seat, c int, zones, cards []int32, r Rand) bool {
	if c < 0 {
		return false
	}
	x := s.cards
	if x.words == 1 {
		// One word per card: the shared symbols of each pair at once.
		var mbuf [64]uint64
		masks := mbuf[:0]
		if len(cards) > len(mbuf) {
			masks = make([]uint64, 0, len(cards))
		}
		own := x.bits[c]
		total := 0
		for _, d := range cards {
			var m uint64
			if d >= 0 {
				m = own & x.bits[d]
			}
			masks = append(masks, m)
			total += bits.OnesCount64(m)
		}
		if total == 0 {
			return false
		}
		n := 0
		if total > 1 {
			n = r.IntN(total)
		}
		for i, m := range masks {
			k := bits.OnesCount64(m)
			if n < k {
				for ; n > 0; n-- {
					m &= m - 1
				}
				t := oneTarget(int(zones[i]))
				s.setClaim(a, seat, bits.TrailingZeros64(m), &t)
				return true
			}
			n -= k
		}
		panic("rules: pickAgainst: claim out of range")
	}
	total := 0
	for _, d := range cards {
		if d >= 0 {
			total += x.shared(c, int(d))
		}
	}
	if total == 0 {
		return false
	}
	n := 0
	if total > 1 {
		n = r.IntN(total)
	}
	for i, d := range cards {
		if d < 0 {
			continue
		}
		k := x.shared(c, int(d))
		if n < k {
			t := oneTarget(int(zones[i]))
			s.setClaim(a, seat, x.nthShared(c, int(d), n), &t)
			return true
		}
		n -= k
	}
	panic("rules: pickAgainst: claim out of range")
}

// setClaim writes to *a the claim of symbol sym by seat with target *t,
// made against the current version, field by field for the reason
// appendClaim gives.
func (s *State) setClaim(a *Action, seat, sym int, t *Targets) {
	a.Kind, a.Seat, a.Symbol, a.Version, a.At = ActionClaim, seat, sym, s.version, 0
	a.Target.n, a.Target.z[0], a.Target.z[1], a.Target.z[2] = t.n, t.z[0], t.z[1], t.z[2]
}

// setDraw writes to *a the draw of seat, made against the current version.
func (s *State) setDraw(a *Action, seat int) {
	a.Kind, a.Seat, a.Symbol, a.Version, a.At = ActionDraw, seat, 0, s.version, 0
	a.Target.n, a.Target.z[0], a.Target.z[1], a.Target.z[2] = 0, 0, 0, 0
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

// asFinder returns g as a MoverFinder, or nil, for the same reason.
func asFinder(g Game) MoverFinder {
	f, _ := g.(MoverFinder)
	return f
}
