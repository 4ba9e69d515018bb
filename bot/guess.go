package bot

import (
	"math/bits"

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
	round int
	flips int      // flips taken in
	cand  []uint64 // the symbols the secret may be, a bit each
	n     int      // how many they are
}

// reset has the next plan start the round afresh.
func (g *guessPlay) reset() { g.round = -1 }

func (g *guessPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() {
		return false
	}
	x := s.Cards()
	if s.Round() != g.round {
		g.round, g.flips, g.n, g.cand = s.Round(), 0, x.Symbols(), g.cand[:0]
		for w := 0; w < x.Symbols(); w += 64 {
			g.cand = append(g.cand, ^uint64(0)>>max(0, 64-(x.Symbols()-w)))
		}
	}
	if !s.CanMove(b.seat) {
		return false
	}
	// The flips and the deck's count are what View(b.seat) shows
	// everyone; the bot reads them from the State rather than build a View.
	flips := rules.GuessFlips(s)
	for ; g.flips < len(flips); g.flips++ {
		// The flip's fields, read one by one: a copy of the flip just
		// turned would wait for the stores that wrote it.
		f := &flips[g.flips]
		if !b.instant && b.rng.Float64() < b.level.WrongRate {
			continue // misread
		}
		for w := range g.cand {
			m := x.Word(f.Card, w)
			if f.Secret {
				g.cand[w] &= m // only the card's symbols may be the secret
			} else {
				g.cand[w] &^= m
			}
		}
		if sym := f.Eliminated; sym >= 0 {
			g.cand[sym>>6] &^= 1 << (sym & 63)
		}
		g.n = 0
		for _, m := range g.cand {
			g.n += bits.OnesCount64(m)
		}
	}
	if g.n == 0 {
		return false // misread into a corner: wait for the round to end
	}
	threshold := 3
	switch {
	case b.instant:
		threshold = 1
	case b.level.WrongRate <= 0.03:
		threshold = 2
	}
	if g.n > threshold && (g.n >= 6 || s.ZoneLen(0) > 0) { // cards left to turn
		return false
	}
	cmp := float64(g.n * 2)
	decide, at := b.think(now, cmp)
	sym := g.nth(b.rng.IntN(g.n))
	b.planSymbol(p, s, rules.ActionGuess, sym, decide, at, cmp)
	return true
}

// nth returns the k-th symbol the secret may be, in increasing order.
func (g *guessPlay) nth(k int) int {
	for w, m := range g.cand {
		if c := bits.OnesCount64(m); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			m &= m - 1
		}
		return w<<6 + bits.TrailingZeros64(m)
	}
	return -1
}
