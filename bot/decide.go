package bot

import "github.com/dobble-dev/dobble/rules"

// How a bot plays a game with Deciders (see Games with Deciders in the
// package documentation): the game's Decider decides, and the bot adds its
// level's Mind and time.

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
// game before, or to nil when the game has none, and then b.played to the
// game's strategy, if it has one. Until the next game, PlanTo takes them
// without asking again.
func (b *Bot) newGame(s *rules.State) {
	b.game, b.active, b.played, b.held = s, nil, nil, false
	g := s.Game()
	if b.decider != nil && b.decides == g {
		b.decider.Reset()
		b.active = b.decider
		return
	}
	if m, ok := g.(rules.DeciderMaker); ok {
		b.decider, b.decides = m.NewDecider(), g
		b.active = b.decider
		return
	}
	b.played = b.strategyFor(s.Info().Name)
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
