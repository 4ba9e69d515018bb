package bot

import "github.com/dobble-dev/dobble/rules"

// False Poker (RULES.md §4.5): on its turn the bot checks the row, pair by
// pair, noticing a repeated shared symbol with the level's recall (always
// at the instant level), and says STOP when it sees one, which costs the
// one who laid it two markers. Otherwise it lays a card whose shared symbol
// with the end of the row is new, if it has one and a marker to put on it.
// With none, it says STOP (losing one marker) or, now and then, bluffs:
// it lays a card that repeats a symbol and hopes the next seats play on
// (bluffRate of the time; an instant bot never bluffs). It takes the time
// of k² comparisons (k symbols a card), the end of the row and then its
// hand against it, so an easy bot often runs out of its five seconds.

func init() {
	strategies["false-poker"] = func() strategy { return &falsePokerPlay{} }
	tableOnly["false-poker"] = true // the row it reads again is the row as it is
}

// bluffRate is how often a bot that is not instant bluffs rather than says
// STOP when it has no safe card.
const bluffRate = 0.2

// falsePokerPlay is a bot's play of False Poker; it keeps nothing between
// turns but room to work in.
type falsePokerPlay struct {
	zones     int             // the number of zones the layout below was read from
	rowZone   int             // the row
	handZones []int           // the bot's places in hand, in zone order
	targets   []rules.Targets // a lay's target for each place in handZones
	// The row as last read in round, the symbols its neighbouring cards
	// share (a bit set, symbol s being bit s%64 of word s/64), and how
	// many of those repeat an earlier one: the row only grows within a
	// round, so a plan works out only the cards laid since.
	round   int
	row     []int
	shared  []uint64
	repeats int
}

// reset forgets the row. The layout stays: it is the same in every game
// with as many zones.
func (f *falsePokerPlay) reset() { f.round, f.row, f.repeats = 0, f.row[:0], 0; clear(f.shared) }

// read takes in the row zn of round, face up to everyone: the cards laid
// since the last read, or the whole row in a new round. The row only grows
// within a round, so a row of the round last read that still ends, at the
// length last read, with the card last read needs only its new cards
// worked out.
func (f *falsePokerPlay) read(x *rules.Index, zn rules.Zone, round int) {
	n, k := zn.Len(), len(f.row)
	if round != f.round || n < k || k > 0 && zn.Card(k-1) != f.row[k-1] {
		f.round, f.row, f.repeats = round, f.row[:0], 0
		clear(f.shared)
	}
	if w := (x.Symbols() + 63) / 64; len(f.shared) != w {
		f.shared = make([]uint64, w)
		f.row, f.repeats = f.row[:0], 0
	}
	for i := len(f.row); i < n; i++ {
		c := zn.Card(i)
		if i > 0 {
			sym := x.Common(f.row[i-1], c)
			w, bit := sym>>6, uint64(1)<<(sym&63)
			if f.shared[w]&bit != 0 {
				f.repeats++
			}
			f.shared[w] |= bit
		}
		f.row = append(f.row, c)
	}
}

// isShared reports whether two neighbouring cards of the row share sym.
func (f *falsePokerPlay) isShared(sym int) bool { return f.shared[sym>>6]>>(sym&63)&1 != 0 }

func (f *falsePokerPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() || s.Turn() != b.seat {
		return false
	}
	// The bot reads the table as View(b.seat) shows it: the row, face up
	// to all, its own hand through TopFor, and its free markers, which
	// everyone sees.
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
	if f.rowZone < 0 {
		return false
	}
	f.read(x, s.Zone(f.rowZone), s.Round())
	repeat := false
	for range f.repeats {
		if b.remembers() {
			repeat = true
		}
	}
	cmp := 0.0
	if !b.instant {
		k := float64(x.CardLen(f.row[0]))
		cmp = k * k // the end of the row, then the hand against it
	}
	decide, at := b.think(now, cmp)
	a := rules.Action{Kind: rules.ActionStop, Seat: b.seat}
	if !repeat && rules.FalsePokerFree(s, b.seat) > 0 {
		// The first card in hand whose shared symbol with the end of
		// the row is new; or, now and then, a bluff.
		last, held, lay := f.row[len(f.row)-1], 0, -1
		for i, z := range f.handZones {
			if c := s.TopFor(z, b.seat); c >= 0 {
				held++
				if !f.isShared(x.Common(last, c)) {
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
	b.setPlan(p, s, a, decide, at, cmp)
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
