package load

import "slices"

// view is the part of a rules.View that a client needs to find a match.
type view struct {
	Game    string `json:"game"`
	Seat    int    `json:"seat"`
	Version uint64 `json:"version"`
	Over    bool   `json:"over"`
	Zones   []zone `json:"zones"`
}

// zone is one zone of a view.
type zone struct {
	Kind  string `json:"kind"`
	Seat  int    `json:"seat"`
	Count int    `json:"count"`
	Cards []card `json:"cards"`
}

// card is a face-up card of a zone.
type card struct {
	Symbols []int `json:"symbols"`
}

// action is a claim or a draw chosen from a view.
type action struct {
	draw   bool
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
		return action{symbol: s, target: target}, true
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
			return action{draw: true}, true
		}
	}
	return action{}, false
}
