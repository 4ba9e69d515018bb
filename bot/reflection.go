package bot

import "github.com/dobble-dev/dobble/rules"

// Reflection (RULES.md §4.2): while the four cards are face up, the bot
// studies them and remembers each with the level's recall; once the fifth
// card shows again it writes, one at a time, the symbol the fifth card
// shares with each card it remembers, and for each card it forgot a symbol
// of the fifth card at random, since a miss costs nothing. Each answer takes
// the time of comparing the fifth card with one card.

func init() { strategies["reflection"] = func() strategy { return &reflectionPlay{round: -1} } }

// reflectionPlay is a bot's memory of the current round of Reflection.
type reflectionPlay struct {
	round  int
	seen   map[int]bool // study places already looked at this round
	cards  []int        // the study cards the bot remembers
	answer []int        // what it means to write, worked out in the answer phase
	worked bool
	next   int  // the answer the bot is writing
	kept   Plan // and its plan, kept while another seat's writes change the version
	has    bool
}

func (r *reflectionPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() {
		return false
	}
	if s.Round() != r.round {
		*r = reflectionPlay{round: s.Round(), seen: map[int]bool{}}
	}
	v := s.View(b.seat)
	rv, _ := v.Extra.(rules.ReflectionView)
	switch rv.Phase {
	case "study":
		for _, z := range v.Zones {
			if z.Kind == rules.ZoneStudy && len(z.Cards) > 0 && !r.seen[z.Zone] {
				r.seen[z.Zone] = true
				if b.remembers() {
					r.cards = append(r.cards, z.Cards[0].Card)
				}
			}
		}
		return false
	case "answer":
	default:
		return false
	}
	var fifth []int
	for _, z := range v.Zones {
		if z.Kind == rules.ZoneCentre && len(z.Cards) > 0 {
			fifth = z.Cards[0].Symbols
		}
	}
	if len(fifth) == 0 {
		return false
	}
	if !r.worked {
		r.worked = true
		for _, c := range r.cards {
			for _, sym := range fifth {
				if s.Cards().Has(c, sym) {
					r.answer = append(r.answer, sym)
					break
				}
			}
		}
		for len(r.answer) < 4 {
			r.answer = append(r.answer, fifth[b.rng.IntN(len(fifth))])
		}
	}
	n := len(rv.Answers)
	if n >= len(r.answer) {
		return false
	}
	if r.has && r.next == n {
		// Another seat wrote meanwhile: the bot goes on writing the same
		// answer, with no new time to take in the table.
		*p = r.kept
		p.Action.Version = s.Version()
		p.Decide, p.Action.At = max(p.Decide, now), max(p.Action.At, now)
		return true
	}
	k := float64(len(fifth))
	decide, at := b.think(now, k*k/2)
	b.setPlan(p, s, rules.Action{Kind: rules.ActionWrite, Seat: b.seat, Symbol: r.answer[n]}, decide, at, k*k/2)
	r.next, r.kept, r.has = n, *p, true
	return true
}
