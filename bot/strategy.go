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
}

// strategies makes the strategy of each game played with one, by the
// game's canonical name.
var strategies = map[string]func() strategy{}

// HasStrategy reports whether bots play g with a strategy of their own
// rather than by picking among its moves: in those games a bot remembers
// what it was shown, and may wait for a better moment, so its plan depends
// on the versions it has seen, not only on the current one. It must then be
// asked to plan at every version of the game.
func HasStrategy(g rules.Game) bool {
	_, ok := strategies[g.Info().Name]
	return ok
}

// strategyFor returns the bot's strategy for the game on s, a fresh one
// when s is another game than the one it was playing, or nil when the game
// has none.
func (b *Bot) strategyFor(s *rules.State) strategy {
	if b.game == s && b.strat != nil {
		return b.strat
	}
	f, ok := strategies[s.Info().Name]
	if !ok {
		return nil
	}
	b.strat, b.game = f(), s
	return b.strat
}
