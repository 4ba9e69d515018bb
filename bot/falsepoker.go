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
// turns.
type falsePokerPlay struct{}

func (falsePokerPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() || s.Turn() != b.seat {
		return false
	}
	v := s.View(b.seat)
	fv, _ := v.Extra.(rules.FalsePokerView)
	x := s.Cards()
	var row []int
	hand := map[int]int{} // place -> card
	for _, z := range v.Zones {
		switch {
		case z.Kind == rules.ZoneRow:
			for _, c := range z.Cards {
				row = append(row, c.Card)
			}
		case z.Kind == rules.ZoneHand && z.Seat == b.seat && len(z.Cards) > 0:
			hand[z.Zone] = z.Cards[0].Card
		}
	}
	var shared []int
	repeat := false
	for i := 1; i < len(row); i++ {
		sym := x.Common(row[i-1], row[i])
		if slices.Contains(shared, sym) && b.remembers() {
			repeat = true
		}
		shared = append(shared, sym)
	}
	k := float64(len(x.AppendCard(nil, row[0])))
	cmp := k * k // the end of the row, then the hand against it
	decide, at := b.think(now, cmp)
	act := func(a rules.Action) bool {
		a.Seat = b.seat
		b.setPlan(p, s, a, decide, at, cmp)
		return true
	}
	if repeat || len(hand) == 0 || fv.Free[b.seat] <= 0 {
		return act(rules.Action{Kind: rules.ActionStop})
	}
	places := make([]int, 0, len(hand))
	for z := range hand {
		places = append(places, z)
	}
	slices.Sort(places)
	last := row[len(row)-1]
	for _, z := range places {
		if !slices.Contains(shared, x.Common(last, hand[z])) {
			return act(rules.Action{Kind: rules.ActionLay, Target: rules.To(z)})
		}
	}
	if !b.instant && b.rng.Float64() < bluffRate {
		return act(rules.Action{Kind: rules.ActionLay, Target: rules.To(places[b.rng.IntN(len(places))])})
	}
	return act(rules.Action{Kind: rules.ActionStop})
}
