package bot

import "github.com/dobble-dev/dobble/rules"

// How a bot plays a game with Deciders (see Games with Deciders in the
// package documentation): the game's Decider decides, and the bot adds its
// level's Mind and time.

// bluffRate is how often a bot that is not instant bluffs rather than play
// safe when it has no safe move (False Poker).
const bluffRate = 0.2

// Remembers reports whether bots playing g learn from every version they
// are shown: in Memory, Reflection and Guess a bot remembers the cards
// shown, and may wait for a better moment, so its plan depends on the
// versions it has seen, not only on the current one, and it must be asked
// to plan at every version of the game. A bot playing any other game plans
// from the current table alone (and its own random source), so a caller
// may ask it only when it wants its plan.
func Remembers(g rules.Game) bool {
	m, ok := g.(rules.DeciderMaker)
	return ok && m.Remembers()
}

// levelMind returns the Mind the bot decides with at its level: the instant
// level remembers everything, misreads nothing, never bluffs and guesses
// only what it is sure of; the others remember with recall, misread with
// their WrongRate, bluff at bluffRate and guess among up to two candidates
// (hard and expert, WrongRate 0.03 or less) or three (medium and easy).
func (b *Bot) levelMind() rules.Mind {
	m := rules.Mind{Recall: b.recall(), Misread: b.level.WrongRate, Bluff: bluffRate, Risk: 3, Rand: b.rng}
	switch {
	case b.instant:
		m.Misread, m.Bluff, m.Risk = 0, 0, 1
	case b.level.WrongRate <= 0.03:
		m.Risk = 2
	}
	return m
}

// newGame makes ready for the game on s, a new one (b.game is not s): it
// sets b.active to the bot's Decider for the game, having forgotten the
// game before, or to nil when the game has none. Until the next game,
// PlanTo takes b.active without asking again.
func (b *Bot) newGame(s *rules.State) {
	b.game, b.active, b.held = s, nil, false
	g := s.Game()
	if b.decider != nil && b.decides == g {
		b.decider.Reset()
		b.active = b.decider
		return
	}
	if m, ok := g.(rules.DeciderMaker); ok {
		b.decider, b.decides = m.NewDecider(), g
		b.active = b.decider
	}
}

// timeDecision completes the plan whose action a Decider wrote to *p, on
// s at time now, after the given effort: the bot decides at the end of the
// level's Orient and of the effort's comparisons at Compare, scaled by
// noise, and its action arrives Motor later. An action the Decider holds
// to (no effort: Reflection's next answer while other seats write) keeps
// the times it was planned with, no earlier than now.
func (b *Bot) timeDecision(p *Plan, s *rules.State, now int64, effort float64) {
	if effort == 0 && b.held {
		p.Action.Version, p.Action.At = s.Version(), max(b.heldAt, now)
		p.Decide, p.Wrong, p.Missed, p.Comparisons = max(b.heldDecide, now), false, false, b.heldCmp
		return
	}
	decide, at := b.think(now, effort)
	b.stamp(p, s, decide, at, effort)
	b.held, b.heldDecide, b.heldAt, b.heldCmp = true, p.Decide, p.Action.At, p.Comparisons
}

// recall returns the probability that the bot remembers a card it was
// shown (Memory, Reflection, and a repeat in False Poker's row): 1 for the
// instant level, otherwise 1 − 5 × WrongRate, so 0.6 for easy, 0.75
// medium, 0.85 hard, 0.95 expert.
func (b *Bot) recall() float64 {
	if b.instant {
		return 1
	}
	return min(1, max(0, 1-5*b.level.WrongRate))
}

// think returns when a bot that starts looking at time now, and needs the
// given number of symbol comparisons, decides and when its action arrives:
// the level's Orient, the comparisons at Compare each scaled by its noise,
// then Motor. An instant bot decides and acts at now.
func (b *Bot) think(now int64, comparisons float64) (decide, at int64) {
	if b.instant {
		return now, now
	}
	l := &b.level
	decide = now + millis(l.Orient+l.Compare*comparisons*b.noise())
	return decide, decide + millis(l.Motor)
}

// stamp completes the plan whose action's kind, seat, symbol and target
// are written in *p: made against the current version of s, decided at
// decide, arriving at at, after the given comparisons (none for an instant
// bot). The Decider writes its action straight into the plan, which spares
// the copy of one built apart: that costs more than the rest of a plan.
func (b *Bot) stamp(p *Plan, s *rules.State, decide, at int64, comparisons float64) {
	if b.instant {
		comparisons = 0
	}
	p.Action.Version, p.Action.At = s.Version(), at
	p.Decide, p.Wrong, p.Missed, p.Comparisons = decide, false, false, comparisons
}
