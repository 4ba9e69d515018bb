package clientplay

import (
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

// Plays reports whether Decide knows how to play game, given by its
// canonical name.
func Plays(game string) bool {
	switch game {
	case "learning", "tower", "well", "duel", "hot-potato", "poisoned-gift", "catch-them-all", "subway-rescue",
		"triplets", "tower-7", "anarchy-pancakes",
		"reflection", "guess", "memory", "false-poker", "collect-symbols":
		return true
	}
	return false
}

// Action is an action chosen from a view: its kind, and its symbol and
// target where the kind takes them. A claim's target is never nil, so
// that it is sent, if empty; the target of a kind that takes none is nil.
type Action struct {
	Kind   rules.ActionKind
	Symbol int
	Target []int
}

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

// Choose finds a correct action in a game of claims from what the view
// shows, as a person looking at the table would: the symbol two (or
// three) visible cards share and the zones the game wants as its target,
// or a draw in Anarchy Pancakes when no topping matches. ok is false when
// the seat has nothing to do.
func Choose(v *View) (a Action, ok bool) {
	me := v.Seat
	claim := func(s int, target ...int) (Action, bool) {
		if target == nil {
			target = []int{}
		}
		return Action{Kind: rules.ActionClaim, Symbol: s, Target: target}, true
	}
	own := v.zones(rules.ZonePile, me)
	centre := v.zones(rules.ZoneCentre, anySeat)
	others := v.zones(rules.ZonePile, otherSeat)
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
			if s := common(v.Top(own[0]), v.Top(centre[0])); s >= 0 {
				return claim(s)
			}
		}
	case "duel":
		if len(own) > 0 && len(others) > 0 {
			if s := common(v.Top(own[0]), v.Top(others[0])); s >= 0 {
				return claim(s)
			}
		}
	case "hot-potato":
		if len(own) > 0 {
			for _, z := range others {
				if s := common(v.Top(own[0]), v.Top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "poisoned-gift":
		if len(centre) > 0 {
			for _, z := range others {
				if s := common(v.Top(centre[0]), v.Top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "catch-them-all":
		if len(centre) > 0 {
			for _, z := range v.zones(rules.ZoneRing, anySeat) {
				if s := common(v.Top(centre[0]), v.Top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "subway-rescue":
		if len(own) > 0 {
			for _, z := range v.zones(rules.ZoneLayout, anySeat) {
				if s := common(v.Top(own[0]), v.Top(z)); s >= 0 {
					return claim(s, z)
				}
			}
		}
	case "triplets":
		slots := v.zones(rules.ZoneSlot, anySeat)
		for i := range slots {
			for j := i + 1; j < len(slots); j++ {
				for k := j + 1; k < len(slots); k++ {
					if s := common(v.Top(slots[i]), v.Top(slots[j]), v.Top(slots[k])); s >= 0 {
						return claim(s, slots[i], slots[j], slots[k])
					}
				}
			}
		}
	case "tower-7":
		for _, a := range own {
			for _, b := range others {
				if s := common(v.Top(a), v.Top(b)); s >= 0 {
					return claim(s, a, b)
				}
			}
		}
	case "anarchy-pancakes":
		onto := append(slices.Clone(centre), others...)
		for _, a := range own {
			for _, b := range onto {
				if s := common(v.Top(a), v.Top(b)); s >= 0 {
					return claim(s, a, b)
				}
			}
		}
		if len(v.Zones) > 0 && v.Zones[0].Count > 0 {
			return Action{Kind: rules.ActionDraw}, true
		}
	}
	return Action{}, false
}

// Mind is what a client remembers of the table it plays, from the views
// it was shown and the actions it sent: the cards flipped in Memory, the
// four cards studied in Reflection and the answers written. Its lists are
// its own, copied out of the views, whose lists may be reused for the
// next message. The zero Mind remembers nothing.
//
// A client shows its Mind every view of a table (Observe), tells it of
// every action it sends (Sent), asks it for the next action (Decide), and
// has it forget the table when the next table begins (Reset).
type Mind struct {
	seen  map[int][]int // Memory: face-down place -> the symbols of the card flipped there
	round int           // Reflection: the round studied, 0 for none
	study [][]int       // Reflection: the four cards studied, in place order
	wrote int           // Reflection: the answers sent this round, some perhaps not yet in a view
	cands []int         // Guess, False Poker: scratch
}

// Reset forgets the table before: a new one begins.
func (m *Mind) Reset() {
	clear(m.seen)
	m.round, m.wrote = 0, 0
}

// Observe takes in a view of the table.
func (m *Mind) Observe(v *View) {
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
		m.round, m.wrote = v.Round, 0
		m.study = m.study[:0]
		for _, z := range v.zones(rules.ZoneStudy, anySeat) {
			m.study = grow(m.study)
			i := len(m.study) - 1
			m.study[i] = append(m.study[i][:0], v.Top(z)...)
		}
	}
}

// Sent takes in that the seat sent action a, chosen from view v. The
// server takes Reflection's answers against an older version of the
// phase, so another seat's answer may bring a view that does not show one
// sent yet: Decide counts the answers sent, lest it write one twice.
func (m *Mind) Sent(v *View, a Action) {
	if a.Kind == rules.ActionWrite && v.Game == "reflection" && m.round == v.Round {
		m.wrote = max(len(v.Extra.Answers), m.wrote) + 1
	}
}

// Decide chooses the seat's next action from the view and what m
// remembers, knowing only what the view shows: in a game of claims a
// correct claim (Choose); in Memory, on the seat's turn, a card
// remembered to share a symbol with the face-up card, else an unknown
// one; in Reflection, in the answer phase, the symbol the fifth card
// shares with the next card studied; in Guess a guess once the cards
// turned leave one symbol; in False Poker, on the seat's turn, STOP on a
// row that repeats a shared symbol, a card from the hand that keeps the
// row honest, else STOP; in Collect the Symbols a token on the seat's top
// card, else a discard, and with an empty pile a take of another seat's
// discards. ok is false when the seat has nothing to do until the table
// changes: not its turn, a phase to wait for, too little known.
func (m *Mind) Decide(v *View) (a Action, ok bool) {
	me, x := v.Seat, &v.Extra
	switch v.Game {
	case "memory":
		centre := v.zones(rules.ZoneCentre, anySeat)
		if v.Turn != me || len(centre) == 0 {
			return a, false
		}
		up := v.Top(centre[0])
		if len(up) == 0 {
			return a, false
		}
		first, firstMarked := -1, -1
		for i, z := range v.Zones {
			if z.Kind != rules.ZoneFaceDown || z.Count == 0 {
				continue
			}
			marked := slices.Contains(x.Marked, i)
			if !marked {
				if s := common(up, m.seen[i]); s >= 0 {
					return Action{Kind: rules.ActionFlip, Symbol: s, Target: []int{i}}, true
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
				if z.Kind == rules.ZoneFaceDown && z.Count > 0 {
					if s := common(up, m.seen[i]); s >= 0 {
						return Action{Kind: rules.ActionFlip, Symbol: s, Target: []int{i}}, true
					}
				}
			}
			first = firstMarked
		}
		if first >= 0 {
			return Action{Kind: rules.ActionFlip, Symbol: up[0], Target: []int{first}}, true
		}
	case "reflection":
		n := max(len(x.Answers), m.wrote)
		centre := v.zones(rules.ZoneCentre, anySeat)
		if x.Phase != "answer" || m.round != v.Round || n >= len(m.study) || len(centre) == 0 {
			return a, false
		}
		if s := common(v.Top(centre[0]), m.study[n]); s >= 0 {
			return Action{Kind: rules.ActionWrite, Symbol: s}, true
		}
	case "guess":
		turned := v.zones(rules.ZoneTurned, anySeat)
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
			return Action{Kind: rules.ActionGuess, Symbol: m.cands[0]}, true
		}
	case "false-poker":
		rows := v.zones(rules.ZoneRow, anySeat)
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
				return Action{Kind: rules.ActionStop}, true
			}
			m.cands = append(m.cands, s)
		}
		if me < len(x.Free) && x.Free[me] > 0 {
			last := row[len(row)-1].Symbols
			for i, z := range v.Zones {
				if z.Kind == rules.ZoneHand && z.Seat == me && len(z.Cards) > 0 && !slices.Contains(m.cands, common(last, v.Top(i))) {
					return Action{Kind: rules.ActionLay, Target: []int{i}}, true
				}
			}
		}
		return Action{Kind: rules.ActionStop}, true
	case "collect-symbols":
		own := v.zones(rules.ZonePile, me)
		if len(own) == 0 {
			return a, false
		}
		if top := v.Top(own[0]); top != nil {
			for _, s := range top {
				if slices.Contains(x.Tokens, s) {
					return Action{Kind: rules.ActionClaim, Symbol: s, Target: []int{}}, true
				}
			}
			return Action{Kind: rules.ActionDiscard}, true
		}
		for i, z := range v.Zones {
			if z.Kind == rules.ZoneDiscard && z.Seat != me && z.Count > 0 {
				return Action{Kind: rules.ActionTake, Target: []int{i}}, true
			}
		}
	default:
		return Choose(v)
	}
	return a, false
}
