package bot

import "github.com/dobble-dev/dobble/rules"

// strategy is how a bot plays a game where finding a match is not the
// whole game: remembering cards shown (Memory, Reflection), deducing a
// secret (Guess), judging a row and bluffing (False Poker). A strategy is
// made for one game, on one State, and keeps what the bot remembers of it.
type strategy interface {
	// plan writes the bot's next action to *p, as Bot.PlanTo does, and
	// reports whether there is one; it may also just take in what the
	// table shows now and wait.
	plan(b *Bot, p *Plan, s *rules.State, now int64) bool
	// reset forgets the game played, as a new strategy would, for another
	// game of the same kind; it keeps its room to work in.
	reset()
}

// strategies makes the strategy of each game played with one, by the
// game's canonical name.
var strategies = map[string]func() strategy{}

// tableOnly names the games whose strategy plans from the table as it is
// now, never from what an earlier version showed.
var tableOnly = map[string]bool{}

// Remembers reports whether bots playing g learn from every version they
// are shown: in Memory, Reflection and Guess a bot remembers the cards
// shown, and may wait for a better moment, so its plan depends on the
// versions it has seen, not only on the current one, and it must be asked
// to plan at every version of the game. A bot playing any other game plans
// from the current table alone (and its own random source), so a caller
// may ask it only when it wants its plan.
func Remembers(g rules.Game) bool {
	if m, ok := g.(rules.DeciderMaker); ok {
		return m.Remembers()
	}
	name := g.Info().Name
	_, ok := strategies[name]
	return ok && !tableOnly[name]
}

// strategyFor returns the bot's strategy for the game named name, one
// that has forgotten the game before, or nil when the game has none.
func (b *Bot) strategyFor(name string) strategy {
	if b.strat != nil && b.stratName == name {
		b.strat.reset()
		return b.strat
	}
	f, ok := strategies[name]
	if !ok {
		return nil
	}
	b.strat, b.stratName = f(), name
	return b.strat
}

// recall returns the probability that the bot remembers a card it was
// shown (Memory, Reflection, and a repeat in False Poker's row): 1 for the
// instant level, otherwise
// 1 − 5 × WrongRate, so 0.6 for easy, 0.75 medium, 0.85 hard, 0.95 expert.
func (b *Bot) recall() float64 {
	if b.instant {
		return 1
	}
	return min(1, max(0, 1-5*b.level.WrongRate))
}

// remembers draws whether the bot remembers a card it is shown now.
func (b *Bot) remembers() bool {
	r := b.recall()
	return r >= 1 || b.rng.Float64() < r
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

// setPlan writes to *p the action a, decided at decide and arriving at
// at, made against the current version of s, after the given comparisons
// (none for an instant bot).
func (b *Bot) setPlan(p *Plan, s *rules.State, a rules.Action, decide, at int64, comparisons float64) {
	p.Action = a
	b.stamp(p, s, decide, at, comparisons)
}

// stamp completes the plan whose action's kind, seat, symbol and target
// are written in *p: made against the current version of s, decided at
// decide, arriving at at, after the given comparisons (none for an instant
// bot). A strategy that writes its action straight into the plan spares
// the copy of one built apart, which costs more than the rest of a plan,
// and every plan of every bot comes through here.
func (b *Bot) stamp(p *Plan, s *rules.State, decide, at int64, comparisons float64) {
	if b.instant {
		comparisons = 0
	}
	p.Action.Version, p.Action.At = s.Version(), at
	p.Decide, p.Wrong, p.Missed, p.Comparisons = decide, false, false, comparisons
}

// planSymbol is setPlan for an action of the bot's seat that names a
// symbol and no target (a guess, a write), given by its kind and symbol,
// which it writes straight into the plan before stamp completes it: an
// Action built first would be copied wide from the narrower stores that
// built it, and wait for them.
func (b *Bot) planSymbol(p *Plan, s *rules.State, kind rules.ActionKind, symbol int, decide, at int64, comparisons float64) {
	q := &p.Action
	q.Kind, q.Seat, q.Symbol, q.Target = kind, b.seat, symbol, rules.Targets{}
	b.stamp(p, s, decide, at, comparisons)
}
