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
	strategies["memory"] = func() strategy { return &memoryPlay{version: ^uint64(0)} }
}

// memoryPlay is a bot's memory of a game of Memory.
type memoryPlay struct {
	version uint64 // the version last taken in
	known   []int  // by zone: the card the bot remembers in that face-down place, or -1
	centre  int    // the face-up card's zone, or -1
	places  []int  // the face-down places, in zone order
	// Room to work in.
	up, free, all, unknown []int
}

// reset forgets every card; the layout stays, as the same game with the
// same number of seats lays out the same zones (layout checks).
func (m *memoryPlay) reset() {
	m.version = ^uint64(0)
	for z := range m.known {
		m.known[z] = -1
	}
}

// layout finds the zones of the table, the first time and if their number
// changes (the layout is fixed for a game and its number of seats).
func (m *memoryPlay) layout(s *rules.State) {
	if len(m.known) == s.Zones() {
		return
	}
	m.known, m.centre, m.places = make([]int, s.Zones()), -1, m.places[:0]
	for z := range s.Zones() {
		m.known[z] = -1
		switch s.Zone(z).Kind {
		case rules.ZoneCentre:
			m.centre = z
		case rules.ZoneFaceDown:
			m.places = append(m.places, z)
		}
	}
}

func (m *memoryPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() {
		return false
	}
	m.layout(s)
	// The bot reads only what View(b.seat) shows: the card flipped last
	// and the markers (MemoryView), the face-up card, and how many cards
	// each face-down place holds.
	if s.Version() != m.version {
		m.version = s.Version()
		if l, ok := rules.MemoryLast(s); ok {
			m.known[l.Zone] = -1
			if !l.Taken && b.remembers() {
				m.known[l.Zone] = l.Card
			}
		}
	}
	if s.Turn() != b.seat {
		return false
	}
	up := m.up[:0]
	if m.centre >= 0 {
		if c := s.TopFor(m.centre, b.seat); c >= 0 {
			up = s.Cards().AppendCard(up, c)
		}
	}
	m.up = up
	free, all := m.free[:0], m.all[:0]
	for _, z := range m.places {
		if s.ZoneLen(z) > 0 {
			all = append(all, z)
			if !rules.MemoryMarked(s, z) {
				free = append(free, z)
			}
		}
	}
	m.free, m.all = free, all
	if len(free) == 0 {
		free = all // every card is marked and the markers stay
	}
	if len(free) == 0 || len(up) == 0 {
		return false
	}
	k := float64(len(up))
	for i, z := range free {
		if c := m.known[z]; c >= 0 {
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
	unknown := m.unknown[:0]
	for _, z := range free {
		if m.known[z] < 0 {
			unknown = append(unknown, z)
		}
	}
	m.unknown = unknown
	z := unknown[b.rng.IntN(len(unknown))]
	decide, at := b.think(now, float64(len(free))*k)
	b.setPlan(p, s, rules.Action{Kind: rules.ActionFlip, Seat: b.seat, Symbol: up[b.rng.IntN(len(up))], Target: rules.To(z)}, decide, at, float64(len(free))*k)
	return true
}
