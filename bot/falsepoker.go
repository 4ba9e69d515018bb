package bot

import (
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

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

func init() { strategies["false-poker"] = func() strategy { return &falsePokerPlay{} } }

// bluffRate is how often a bot that is not instant bluffs rather than says
// STOP when it has no safe card.
const bluffRate = 0.2

// falsePokerPlay is a bot's play of False Poker; it keeps nothing between
// turns but room to work in.
type falsePokerPlay struct {
	zones     int   // the number of zones the layout below was read from
	rowZone   int   // the row
	handZones []int // the bot's places in hand, in zone order
	// The row as last read, the symbol each card shares with the one
	// before, and how many of those repeat an earlier one: the row only
	// grows within a round, so a plan works out only the cards laid since.
	row, shared []int
	repeats     int
	cur, sym    []int
	places      []int // the bot's hand: place and card, in place order
	hand        []int
}

// reset has the layout and the row read again.
func (f *falsePokerPlay) reset() { f.zones, f.row, f.shared, f.repeats = 0, f.row[:0], f.shared[:0], 0 }

// read takes in the row zn, face up to everyone: the cards laid since the
// last read, or the whole row when it was dealt anew.
func (f *falsePokerPlay) read(x *rules.Index, zn rules.Zone) {
	f.cur = zn.AppendCards(f.cur[:0])
	if len(f.cur) < len(f.row) || !slices.Equal(f.cur[:len(f.row)], f.row) {
		f.row, f.shared, f.repeats = f.row[:0], f.shared[:0], 0
	}
	for i := max(len(f.row), 1); i < len(f.cur); i++ {
		sym := x.Common(f.cur[i-1], f.cur[i])
		if slices.Contains(f.shared, sym) {
			f.repeats++
		}
		f.shared = append(f.shared, sym)
	}
	f.row, f.cur = f.cur, f.row
}

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
		f.zones, f.rowZone, f.handZones = s.Zones(), -1, f.handZones[:0]
		for z := range s.Zones() {
			zn := s.Zone(z)
			switch {
			case zn.Kind == rules.ZoneRow && zn.Show == rules.ShowAll:
				f.rowZone = z
			case zn.Kind == rules.ZoneHand && zn.Seat == b.seat:
				f.handZones = append(f.handZones, z)
			}
		}
	}
	if f.rowZone < 0 {
		return false
	}
	f.read(x, s.Zone(f.rowZone))
	f.places, f.hand = f.places[:0], f.hand[:0]
	for _, z := range f.handZones {
		if c := s.TopFor(z, b.seat); c >= 0 {
			f.places, f.hand = append(f.places, z), append(f.hand, c)
		}
	}
	row, shared := f.row, f.shared
	repeat := false
	for range f.repeats {
		if b.remembers() {
			repeat = true
		}
	}
	f.sym = x.AppendCard(f.sym[:0], row[0])
	k := float64(len(f.sym))
	cmp := k * k // the end of the row, then the hand against it
	decide, at := b.think(now, cmp)
	act := func(a rules.Action) bool {
		a.Seat = b.seat
		b.setPlan(p, s, a, decide, at, cmp)
		return true
	}
	if repeat || len(f.hand) == 0 || rules.FalsePokerFree(s, b.seat) <= 0 {
		return act(rules.Action{Kind: rules.ActionStop})
	}
	last := row[len(row)-1]
	for i, z := range f.places {
		if !slices.Contains(shared, x.Common(last, f.hand[i])) {
			return act(rules.Action{Kind: rules.ActionLay, Target: rules.To(z)})
		}
	}
	if !b.instant && b.rng.Float64() < bluffRate {
		return act(rules.Action{Kind: rules.ActionLay, Target: rules.To(f.places[b.rng.IntN(len(f.places))])})
	}
	return act(rules.Action{Kind: rules.ActionStop})
}
