package load

import (
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

// view is the part of a rules.View that a client needs to choose its
// action. Both the scanner and encoding/json (through UnmarshalJSON) read
// it with the scanner of scan.go.
type view struct {
	Game    string
	Seat    int
	Version uint64
	Round   int
	Over    bool
	Zones   []zone
	// Turn is the seat whose turn it is (Memory, False Poker), or -1.
	Turn int
	// Deadline is when the game next wants time to pass, in milliseconds
	// since the table began; 0 when there is none.
	Deadline int64
	// Extra is the part of the game's own state the clients use.
	Extra extra
}

// zone is one zone of a view.
type zone struct {
	Kind  string
	Seat  int
	Count int
	Cards []card
}

// card is a face-up card of a zone.
type card struct {
	Symbols []int
}

// extra holds the fields of a view's "extra" (rules.MemoryView,
// ReflectionView, GuessView, FalsePokerView, CollectView) that the
// clients use; the others stay empty.
type extra struct {
	// Memory: the places with a marker, the place of the card flipped
	// last (-1 before the first flip), whether it was taken, and its
	// symbols.
	Marked    []int
	LastZone  int
	LastTaken bool
	Symbols   []int
	// Reflection: the phase and the viewer's answers this round.
	Phase   string
	Answers []int
	// Guess: the host seat, whether the secret is on each card turned,
	// the symbols named as not the secret, and the seats that may not
	// guess (also False Poker's seats out of the round).
	Host       int
	Flips      []bool
	Eliminated []int
	Out        []int
	// False Poker: each seat's markers off the row.
	Free []int
	// Collect the Symbols: the tokens left in the centre.
	Tokens []int
}

// action is an action chosen from a view: its kind, and its symbol and
// target where the kind takes them (a claim's target is never nil, so
// that it is sent, if empty).
type action struct {
	kind   rules.ActionKind
	symbol int
	target []int
}

// top returns the symbols of zone z's top face-up card, or nil.
func (v *view) top(z int) []int {
	if z < 0 || z >= len(v.Zones) || len(v.Zones[z].Cards) == 0 {
		return nil
	}
	c := v.Zones[z].Cards
	return c[len(c)-1].Symbols
}

// zones lists the zones of a kind; seat filters them: -2 any, -3 any but
// the viewer's, otherwise that seat only.
func (v *view) zones(kind string, seat int) []int {
	var out []int
	for i, z := range v.Zones {
		if z.Kind != kind {
			continue
		}
		switch {
		case seat == anySeat:
		case seat == otherSeat:
			if z.Seat == v.Seat || z.Seat < 0 {
				continue
			}
		case z.Seat != seat:
			continue
		}
		out = append(out, i)
	}
	return out
}

const (
	anySeat   = -2
	otherSeat = -3
)

// common returns the symbol every one of the cards shows, or -1.
func common(cards ...[]int) int {
	if len(cards) == 0 || cards[0] == nil {
		return -1
	}
	for _, s := range cards[0] {
		all := true
		for _, c := range cards[1:] {
			if !slices.Contains(c, s) {
				all = false
				break
			}
		}
		if all {
			return s
		}
	}
	return -1
}

// choose finds a correct action from what the view shows, as a person
// looking at the table would: the symbol two (or three) visible cards
// share and the zones the game wants as its target, or a draw in Anarchy
// Pancakes when no topping matches. ok is false when the seat has nothing
// to do.
func choose(v *view) (a action, ok bool) {
	me := v.Seat
	claim := func(s int, target ...int) (action, bool) {
		if target == nil {
			target = []int{}
		}
		return action{kind: rules.ActionClaim, symbol: s, target: target}, true
	}
	own := v.zones("pile", me)
	centre := v.zones("centre", anySeat)
	others := v.zones("pile", otherSeat)
	switch v.Game {
	case "learning":
		if len(centre) > 0 {
			if cs := v.Zones[centre[0]].Cards; len(cs) == 2 {
				if s := common(cs[0].Symbols, cs[1].Symbols); s >= 0 {
					return claim(s)
				}
			}
		}
	case "tower", "well":
		if len(own) > 0 && len(centre) > 0 {
			if s := common(v.top(own[0]), v.top(centre[0])); s >= 0 {
				return claim(s)
			}
		}
	case "duel":
		if len(own) > 0 && len(others) > 0 {
			if s := common(v.top(own[0]), v.top(others[0])); s >= 0 {
				return claim(s)
			}
		}
	case "hot-potato":
		if len(own) > 0 {
			for _, z := range others {
				if s := common(v.top(own[0]), v.top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "poisoned-gift":
		if len(centre) > 0 {
			for _, z := range others {
				if s := common(v.top(centre[0]), v.top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "catch-them-all":
		if len(centre) > 0 {
			for _, z := range v.zones("ring", anySeat) {
				if s := common(v.top(centre[0]), v.top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "subway-rescue":
		if len(own) > 0 {
			for _, z := range v.zones("layout", anySeat) {
				if s := common(v.top(own[0]), v.top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "triplets":
		slots := v.zones("slot", anySeat)
		for i := range slots {
			for j := i + 1; j < len(slots); j++ {
				for k := j + 1; k < len(slots); k++ {
					if s := common(v.top(slots[i]), v.top(slots[j]), v.top(slots[k])); s >= 0 {
						return claim(s, slots[i], slots[j], slots[k])
					}
				}
			}
		}
	case "tower-7":
		for _, a := range own {
			for _, b := range others {
				if s := common(v.top(a), v.top(b)); s >= 0 {
					return claim(s, a, b)
				}
			}
		}
	case "anarchy-pancakes":
		onto := append(slices.Clone(centre), others...)
		for _, a := range own {
			for _, b := range onto {
				if s := common(v.top(a), v.top(b)); s >= 0 {
					return claim(s, a, b)
				}
			}
		}
		if len(v.Zones) > 0 && v.Zones[0].Count > 0 {
			return action{kind: rules.ActionDraw}, true
		}
	}
	return action{}, false
}

// mind is what a client remembers of the table it plays, from the views
// it was shown: the cards flipped in Memory, the four cards studied in
// Reflection. Its lists are its own, copied out of the views, whose lists
// are reused for the next message.
type mind struct {
	seen  map[int][]int // Memory: face-down place -> the symbols of the card flipped there
	round int           // Reflection: the round studied, 0 for none
	study [][]int       // Reflection: the four cards studied, in place order
	cands []int         // Guess: the symbols that may be the secret, scratch
}

// reset forgets the table before: a new one begins.
func (m *mind) reset() {
	clear(m.seen)
	m.round = 0
}

// observe takes in a view of the table.
func (m *mind) observe(v *view) {
	x := &v.Extra
	switch v.Game {
	case "memory":
		if x.LastZone < 0 {
			return
		}
		if x.LastTaken {
			delete(m.seen, x.LastZone)
			return
		}
		if m.seen == nil {
			m.seen = map[int][]int{}
		}
		if s := m.seen[x.LastZone]; !slices.Equal(s, x.Symbols) {
			m.seen[x.LastZone] = append(s[:0], x.Symbols...)
		}
	case "reflection":
		if x.Phase != "study" || m.round == v.Round {
			return
		}
		m.round = v.Round
		m.study = m.study[:0]
		for _, z := range v.zones("study", anySeat) {
			m.study = grow(m.study)
			i := len(m.study) - 1
			m.study[i] = append(m.study[i][:0], v.top(z)...)
		}
	}
}

// decide chooses the seat's next action from the view and what m
// remembers, knowing only what the view shows, as the client bots of the
// server's tests do: in a game of claims a correct claim (choose); in
// Memory, on the seat's turn, a card remembered to share a symbol with
// the face-up card, else an unknown one; in Reflection, in the answer
// phase, the symbol the fifth card shares with the next card studied; in
// Guess a guess once the cards turned leave one symbol; in False Poker,
// on the seat's turn, STOP on a row that repeats a shared symbol, a card
// from the hand that keeps the row honest, else STOP; in Collect the
// Symbols a token on the seat's top card, else a discard, and with an
// empty pile a take of another seat's discards. ok is false when the
// seat has nothing to do until the table changes: not its turn, a phase
// to wait for, too little known.
func decide(v *view, m *mind) (a action, ok bool) {
	me, x := v.Seat, &v.Extra
	switch v.Game {
	case "memory":
		centre := v.zones("centre", anySeat)
		if v.Turn != me || len(centre) == 0 {
			return a, false
		}
		up := v.top(centre[0])
		if len(up) == 0 {
			return a, false
		}
		first, firstMarked := -1, -1
		for i, z := range v.Zones {
			if z.Kind != "facedown" || z.Count == 0 {
				continue
			}
			marked := slices.Contains(x.Marked, i)
			if !marked {
				if s := common(up, m.seen[i]); s >= 0 {
					return action{kind: rules.ActionFlip, symbol: s, target: []int{i}}, true
				}
			}
			switch {
			case !marked && first < 0:
				first = i
			case marked && firstMarked < 0:
				firstMarked = i
			}
		}
		if first < 0 {
			// Every card left has a marker: any may be flipped.
			for i, z := range v.Zones {
				if z.Kind == "facedown" && z.Count > 0 {
					if s := common(up, m.seen[i]); s >= 0 {
						return action{kind: rules.ActionFlip, symbol: s, target: []int{i}}, true
					}
				}
			}
			first = firstMarked
		}
		if first >= 0 {
			return action{kind: rules.ActionFlip, symbol: up[0], target: []int{first}}, true
		}
	case "reflection":
		n := len(x.Answers)
		centre := v.zones("centre", anySeat)
		if x.Phase != "answer" || m.round != v.Round || n >= len(m.study) || len(centre) == 0 {
			return a, false
		}
		if s := common(v.top(centre[0]), m.study[n]); s >= 0 {
			return action{kind: rules.ActionWrite, symbol: s}, true
		}
	case "guess":
		turned := v.zones("turned", anySeat)
		if x.Host == me || slices.Contains(x.Out, me) || len(turned) == 0 {
			return a, false
		}
		cards := v.Zones[turned[0]].Cards
		if len(cards) != len(x.Flips) {
			return a, false
		}
		// The secret is on every card that has it and on no other, and
		// is none of the symbols named as not the secret.
		m.cands = m.cands[:0]
		have := false
		for i, secret := range x.Flips {
			if !secret {
				continue
			}
			syms := cards[i].Symbols
			if !have {
				m.cands, have = append(m.cands, syms...), true
				continue
			}
			m.cands = slices.DeleteFunc(m.cands, func(s int) bool { return !slices.Contains(syms, s) })
		}
		m.cands = slices.DeleteFunc(m.cands, func(s int) bool {
			if slices.Contains(x.Eliminated, s) {
				return true
			}
			for i, secret := range x.Flips {
				if !secret && slices.Contains(cards[i].Symbols, s) {
					return true
				}
			}
			return false
		})
		if len(m.cands) == 1 {
			return action{kind: rules.ActionGuess, symbol: m.cands[0]}, true
		}
	case "false-poker":
		rows := v.zones("row", anySeat)
		if v.Turn != me || len(rows) == 0 {
			return a, false
		}
		row := v.Zones[rows[0]].Cards
		if len(row) == 0 {
			return a, false
		}
		// The symbols each card of the row shares with the one before:
		// a repeat means somebody lied, and STOP costs them.
		m.cands = m.cands[:0]
		for i := 1; i < len(row); i++ {
			s := common(row[i-1].Symbols, row[i].Symbols)
			if slices.Contains(m.cands, s) {
				return action{kind: rules.ActionStop}, true
			}
			m.cands = append(m.cands, s)
		}
		if me < len(x.Free) && x.Free[me] > 0 {
			last := row[len(row)-1].Symbols
			for i, z := range v.Zones {
				if z.Kind == "hand" && z.Seat == me && len(z.Cards) > 0 && !slices.Contains(m.cands, common(last, v.top(i))) {
					return action{kind: rules.ActionLay, target: []int{i}}, true
				}
			}
		}
		return action{kind: rules.ActionStop}, true
	case "collect-symbols":
		own := v.zones("pile", me)
		if len(own) == 0 {
			return a, false
		}
		if top := v.top(own[0]); top != nil {
			for _, s := range top {
				if slices.Contains(x.Tokens, s) {
					return action{kind: rules.ActionClaim, symbol: s, target: []int{}}, true
				}
			}
			return action{kind: rules.ActionDiscard}, true
		}
		for i, z := range v.Zones {
			if z.Kind == "discard" && z.Seat != me && z.Count > 0 {
				return action{kind: rules.ActionTake, target: []int{i}}, true
			}
		}
	default:
		return choose(v)
	}
	return a, false
}
