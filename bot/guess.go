package bot

import (
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

// Guess (RULES.md §4.3): the bot keeps the symbols the secret may still be:
// every symbol at the start of a round, then, for each card turned, those
// on it when the host says the secret is, those not on it when the host
// says it is not, less the symbol the host eliminates. It guesses one of
// them at random once they are few: one for the instant level, up to two
// for expert and hard, up to three for medium and easy (a right guess is
// worth +5, a wrong one −1, so a guess among n pays while n < 6); and when
// the deck is turned, whatever is left, before the round ends. Misreading a
// card is a false alarm: with the level's WrongRate, a card's news is
// skipped. Taking in a card costs the comparisons of one card's symbols
// against the candidates.

func init() { strategies["guess"] = func() strategy { return &guessPlay{round: -1} } }

// guessPlay is a bot's deduction in the current round of Guess.
type guessPlay struct {
	round      int
	flips      int   // flips taken in
	candidates []int // symbols the secret may be
}

func (g *guessPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() {
		return false
	}
	x := s.Cards()
	if s.Round() != g.round {
		g.round, g.flips, g.candidates = s.Round(), 0, g.candidates[:0]
		for sym := range x.Symbols() {
			g.candidates = append(g.candidates, sym)
		}
	}
	if !s.CanMove(b.seat) {
		return false
	}
	v := s.View(b.seat)
	gv, _ := v.Extra.(rules.GuessView)
	for ; g.flips < len(gv.Flips); g.flips++ {
		f := gv.Flips[g.flips]
		if !b.instant && b.rng.Float64() < b.level.WrongRate {
			continue // misread
		}
		g.candidates = slices.DeleteFunc(g.candidates, func(sym int) bool {
			return sym == f.Eliminated || x.Has(f.Card, sym) != f.Secret
		})
	}
	if len(g.candidates) == 0 {
		return false // misread into a corner: wait for the round to end
	}
	threshold := 3
	switch {
	case b.instant:
		threshold = 1
	case b.level.WrongRate <= 0.03:
		threshold = 2
	}
	deckLeft := v.Zones[0].Count
	if len(g.candidates) > threshold && (deckLeft > 0 || len(g.candidates) >= 6) {
		return false
	}
	cmp := float64(len(g.candidates) * 2)
	decide, at := b.think(now, cmp)
	sym := g.candidates[b.rng.IntN(len(g.candidates))]
	b.setPlan(p, s, rules.Action{Kind: rules.ActionGuess, Seat: b.seat, Symbol: sym}, decide, at, cmp)
	return true
}
