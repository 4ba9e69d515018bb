package bot

import (
	"math/bits"

	"github.com/dobble-dev/dobble/rules"
)

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
	seen   []bool // by zone: study places already looked at this round
	cards  []int  // the study cards the bot remembers
	answer []int  // what it means to write, worked out in the answer phase
	fifth  []int  // the fifth card's symbols
	worked bool
	next   int  // the answer the bot is writing
	kept   Plan // and its plan, kept while another seat's writes change the version
	has    bool
	// The layout, fixed for a game: the study places and the fifth card's
	// face-up place.
	zones  int
	study  []int
	centre int
}

// reset has the layout read again and the round started afresh.
func (r *reflectionPlay) reset() { r.zones = 0 }

func (r *reflectionPlay) plan(b *Bot, p *Plan, s *rules.State, now int64) bool {
	if s.Over() {
		return false
	}
	if r.zones != s.Zones() {
		r.zones, r.study, r.centre = s.Zones(), r.study[:0], -1
		for z := range s.Zones() {
			switch s.Zone(z).Kind {
			case rules.ZoneStudy:
				r.study = append(r.study, z)
			case rules.ZoneCentre:
				r.centre = z
			}
		}
		r.round = -1
	}
	if s.Round() != r.round {
		// A new round: forget the last, keeping the room to work in (and
		// the layout). The kept plan goes with has.
		seen := r.seen[:0]
		for range s.Zones() {
			seen = append(seen, false)
		}
		r.round, r.seen, r.cards, r.answer, r.fifth = s.Round(), seen, r.cards[:0], r.answer[:0], r.fifth[:0]
		r.worked, r.next, r.has = false, 0, false
	}
	// The bot reads only what View(b.seat) shows: the phase, its own
	// answers, and the cards face up to it (TopFor).
	switch rules.ReflectionPhase(s) {
	case "study":
		for _, z := range r.study {
			if c := s.TopFor(z, b.seat); c >= 0 && !r.seen[z] {
				r.seen[z] = true
				if b.remembers() {
					r.cards = append(r.cards, c)
				}
			}
		}
		return false
	case "answer":
	default:
		return false
	}
	if r.centre < 0 {
		return false
	}
	c := s.TopFor(r.centre, b.seat)
	if c < 0 {
		return false
	}
	if !r.worked {
		r.worked = true
		x := s.Cards()
		r.fifth = x.AppendCard(r.fifth[:0], c)
		fifth := r.fifth
		for _, d := range r.cards {
			if sym, ok := onlyCommon(x, c, d); ok {
				r.answer = append(r.answer, sym)
				continue
			}
			for _, sym := range fifth {
				if x.Has(d, sym) {
					r.answer = append(r.answer, sym)
					break
				}
			}
		}
		for len(r.answer) < 4 {
			r.answer = append(r.answer, fifth[b.rng.IntN(len(fifth))])
		}
	}
	n := rules.ReflectionWritten(s, b.seat)
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
	k := float64(len(r.fifth))
	decide, at := b.think(now, k*k/2)
	// The plan is written twice, field by field, rather than copied: a
	// copy of the one just written would wait for its stores.
	b.planSymbol(p, s, rules.ActionWrite, r.answer[n], decide, at, k*k/2)
	b.planSymbol(&r.kept, s, rules.ActionWrite, r.answer[n], decide, at, k*k/2)
	r.next, r.has = n, true
	return true
}

// onlyCommon returns the symbol cards c and d share when they share exactly
// one, as two cards of a Dobble deck do, a word of their bit sets at a time;
// false when they share none or several.
func onlyCommon(x *rules.Index, c, d int) (int, bool) {
	sym := -1
	for w := range (x.Symbols() + 63) / 64 {
		m := x.Word(c, w) & x.Word(d, w)
		if m == 0 {
			continue
		}
		if sym >= 0 || m&(m-1) != 0 {
			return -1, false
		}
		sym = w<<6 + bits.TrailingZeros64(m)
	}
	return sym, sym >= 0
}
