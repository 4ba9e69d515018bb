package bot

import "github.com/dobble-dev/dobble/rules"

// False Poker (RULES.md §4.5): on its turn the bot checks the row, pair by
// pair (the shared symbols anyone can work out from the row, which
// rules.FalsePokerRow keeps worked out), noticing a repeated shared symbol
// with the level's recall (always at the instant level), and says STOP when it sees one, which costs the
// one who laid it two markers. Otherwise it lays a card whose shared symbol
// with the end of the row is new, if it has one and a marker to put on it.
// With none, it says STOP (losing one marker) or, now and then, bluffs:
// it lays a card that repeats a symbol and hopes the next seats play on
// (bluffRate of the time; an instant bot never bluffs). It takes the time
// of k² comparisons (k symbols a card), the end of the row and then its
// hand against it, so an easy bot often runs out of its five seconds.

func init() {
	strategies["false-poker"] = func() strategy { return &falsePokerPlay{} }
	tableOnly["false-poker"] = true // it reads the row as it is at every turn
}

// bluffRate is how often a bot that is not instant bluffs rather than says
// STOP when it has no safe card.
const bluffRate = 0.2

// falsePokerPlay is a bot's play of False Poker; it keeps nothing between
// turns but the layout of the table.
type falsePokerPlay struct {
	zones     int             // the number of zones the layout below was read from
	rowZone   int             // the row
	handZones []int           // the bot's places in hand, in zone order
	targets   []rules.Targets // a lay's target for each place in handZones
}

// reset does nothing: the layout is the same in every game with as many
// zones, and nothing else is kept.
func (f *falsePokerPlay) reset() {}

func (f *falsePokerPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() || s.Turn() != b.seat {
		return false
	}
	// The bot reads the table as View(b.seat) shows it: the row, face up
	// to all, and what anyone can work out from it (FalsePokerRow), its
	// own hand through TopFor, and its free markers, which everyone sees.
	x := s.Cards()
	if f.zones != s.Zones() {
		// The layout is fixed for a game and its number of seats.
		f.zones, f.rowZone, f.handZones, f.targets = s.Zones(), -1, f.handZones[:0], f.targets[:0]
		for z := range s.Zones() {
			zn := s.Zone(z)
			switch {
			case zn.Kind == rules.ZoneRow && zn.Show == rules.ShowAll:
				f.rowZone = z
			case zn.Kind == rules.ZoneHand && zn.Seat == b.seat:
				f.handZones, f.targets = append(f.handZones, z), append(f.targets, rules.To(z))
			}
		}
	}
	last := -1
	if f.rowZone >= 0 {
		last = s.TopFor(f.rowZone, b.seat)
	}
	if last < 0 {
		return false
	}
	shared, repeats := rules.FalsePokerRow(s)
	repeat := false
	for range repeats {
		if b.remembers() {
			repeat = true
		}
	}
	cmp := 0.0
	if !b.instant {
		k := float64(x.CardLen(last))
		cmp = k * k // the end of the row, then the hand against it
	}
	decide, at := b.think(now, cmp)
	// The action, written straight into the plan: STOP, unless a lay.
	a := &p.Action
	a.Kind, a.Seat, a.Symbol, a.Target = rules.ActionStop, b.seat, 0, rules.Targets{}
	if !repeat && rules.FalsePokerFree(s, b.seat) > 0 {
		// The first card in hand whose shared symbol with the end of
		// the row is new; or, now and then, a bluff.
		held, lay := 0, -1
		for i, z := range f.handZones {
			if c := s.TopFor(z, b.seat); c >= 0 {
				held++
				if sym := x.Common(last, c); shared[sym>>6]>>(sym&63)&1 == 0 {
					lay = i
					break
				}
			}
		}
		if lay < 0 && held > 0 && !b.instant && b.rng.Float64() < bluffRate {
			lay = b.nthHeld(s, f.handZones, b.rng.IntN(held))
		}
		if lay >= 0 {
			a.Kind, a.Target = rules.ActionLay, f.targets[lay]
		}
	}
	b.stamp(p, s, decide, at, cmp)
	return true
}

// nthHeld returns the index in zones of the n-th place, counting from 0,
// where the bot holds a card.
func (b *Bot) nthHeld(s *rules.State, zones []int, n int) int {
	for i, z := range zones {
		if s.TopFor(z, b.seat) >= 0 {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return -1
}
