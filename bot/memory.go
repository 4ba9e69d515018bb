package bot

import "github.com/dobble-dev/dobble/rules"

// Memory (RULES.md §4.4): the bot watches every card flipped and remembers
// it with the level's recall (1 for instant, 0.95 for expert down to 0.6
// for easy). On its turn it flips a card it remembers, naming the symbol
// that card shares with the face-up card, which is sure to take it; with
// none to flip, it flips a card it does not know, naming a symbol of the
// face-up card at random. It takes the time of looking over the face-up
// card's symbols for each card it thinks of.

func init() {
	strategies["memory"] = func() strategy { return &memoryPlay{version: ^uint64(0), known: map[int]int{}} }
}

// memoryPlay is a bot's memory of a game of Memory.
type memoryPlay struct {
	version uint64      // the version last taken in
	known   map[int]int // face-down place -> the card the bot remembers there
}

func (m *memoryPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() {
		return false
	}
	v := s.View(b.seat)
	mv, _ := v.Extra.(rules.MemoryView)
	if s.Version() != m.version {
		m.version = s.Version()
		if l := mv.Last; l != nil {
			delete(m.known, l.Zone)
			if !l.Taken && b.remembers() {
				m.known[l.Zone] = l.Card
			}
		}
	}
	if v.Turn != b.seat {
		return false
	}
	var up []int
	marked := map[int]bool{}
	for _, z := range mv.Marked {
		marked[z] = true
	}
	var free, all []int
	for _, z := range v.Zones {
		switch {
		case z.Kind == rules.ZoneCentre && len(z.Cards) > 0:
			up = z.Cards[0].Symbols
		case z.Kind == rules.ZoneFaceDown && z.Count > 0:
			all = append(all, z.Zone)
			if !marked[z.Zone] {
				free = append(free, z.Zone)
			}
		}
	}
	if len(free) == 0 {
		free = all // every card is marked and the markers stay
	}
	if len(free) == 0 || len(up) == 0 {
		return false
	}
	k := float64(len(up))
	for i, z := range free {
		if c, ok := m.known[z]; ok {
			sym := up[0]
			for _, u := range up {
				if s.Cards().Has(c, u) {
					sym = u
				}
			}
			decide, at := b.think(now, float64(i+1)*k)
			b.setPlan(p, s, rules.Action{Kind: rules.ActionFlip, Seat: b.seat, Symbol: sym, Target: rules.To(z)}, decide, at, float64(i+1)*k)
			return true
		}
	}
	var unknown []int
	for _, z := range free {
		if _, ok := m.known[z]; !ok {
			unknown = append(unknown, z)
		}
	}
	z := unknown[b.rng.IntN(len(unknown))]
	decide, at := b.think(now, float64(len(free))*k)
	b.setPlan(p, s, rules.Action{Kind: rules.ActionFlip, Seat: b.seat, Symbol: up[b.rng.IntN(len(up))], Target: rules.To(z)}, decide, at, float64(len(free))*k)
	return true
}
