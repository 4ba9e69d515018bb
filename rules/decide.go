package rules

import "math/rand/v2"

// Decider decides one seat's next action in a game whose play is more than
// claiming the matches the seat sees (Memory, Reflection, Guess, False
// Poker), from what the seat sees (Seen) and what it remembers of what it
// was shown. It is the game's one way to play, wherever a program plays
// it: a bot reads the State through it, with its level's Mind and timing
// around it, and a program playing over the protocol reads its views
// through it (NewPlayer). A Decider is not safe for concurrent use.
type Decider interface {
	// Decide takes in what s shows, remembering what the game's player
	// remembers, then writes the seat's next action to *a (its kind,
	// seat, symbol and targets; the caller stamps the version and time)
	// and reports its effort and true; or it reports false, leaving *a
	// as it was, when the seat has nothing to do until the table
	// changes: not its turn, a phase to wait for, too little known.
	//
	// The effort is the number of symbol comparisons the seat made to
	// come to the action since it last decided, out of which a bot's
	// level makes its thinking time: 0 when it holds to the action it
	// decided last (Reflection's next answer while other seats write).
	//
	// m shapes the decision where a player's level does: what it
	// remembers, misreads or risks, and which of equal choices it takes.
	Decide(s Seen, m *Mind, a *Action) (effort float64, ok bool)
	// Sent takes in that the seat sent a, decided from s: a player over
	// the protocol may be shown a view that does not show it yet.
	Sent(s Seen, a *Action)
	// Reset forgets the table: a new game begins.
	Reset()
}

// DeciderMaker is an optional interface of a Game whose players decide
// more than which match to claim: remember cards flipped (Memory) or
// studied (Reflection), deduce a secret (Guess), judge a row (False Poker).
// Bots play it with its Deciders, and NewPlayer gives a Player built on
// one.
type DeciderMaker interface {
	// NewDecider returns a Decider of the game that remembers nothing
	// yet.
	NewDecider() Decider
	// Remembers reports whether its Deciders learn from every version of
	// the table (Memory, Reflection, Guess: the cards shown), so that each
	// must be shown every version, or decide from the current table
	// alone (False Poker).
	Remembers() bool
}

// Mind is what a player's level decides when a Decider decides for it:
// how often the player remembers a card it is shown, misreads what a
// card tells or bluffs, among how many equally likely answers it dares a
// guess, and which of equal choices it takes.
type Mind struct {
	// Recall is the probability that the player remembers a card it is
	// shown (Memory, Reflection); 1 remembers every card.
	Recall float64
	// Misread is the probability that it misreads what a card tells
	// (Guess: the news of a card turned is lost to it).
	Misread float64
	// Bluff is the probability that, with no safe move, it takes a risk
	// rather than play safe (False Poker: it lays a card that repeats a
	// shared symbol rather than say STOP).
	Bluff float64
	// Risk is the most equally likely answers it guesses among rather
	// than wait to know more (Guess); 1 guesses only what it is sure of.
	Risk int
	// Rand draws its chances and its choices among equal ones; with
	// none, it remembers, misreads and bluffs exactly when their
	// probability is 1, and takes the first of equal choices.
	Rand *rand.Rand
}

// SureMind returns the Mind of a player that remembers everything,
// misreads nothing, never bluffs, guesses only what it is sure of and
// takes the first of equal choices: the one NewPlayer decides with.
func SureMind() Mind { return Mind{Recall: 1, Risk: 1} }

// chance draws whether an event of probability p happens, drawing
// nothing when it is sure or impossible.
func (m *Mind) chance(p float64) bool {
	if p <= 0 || p >= 1 {
		return p >= 1
	}
	return m.draw(p)
}

// draw draws whether an event of probability p, between 0 and 1,
// happens.
func (m *Mind) draw(p float64) bool { return m.Rand != nil && m.Rand.Float64() < p }

// recalls draws whether the player remembers a card it is shown now.
func (m *Mind) recalls() bool { return m.chance(m.Recall) }

// misreads draws whether the player misreads a card it is shown now.
func (m *Mind) misreads() bool { return m.chance(m.Misread) }

// bluffs draws whether the player, with no safe move, bluffs now.
func (m *Mind) bluffs() bool { return m.chance(m.Bluff) }

// pick returns one of n equal choices, 0 to n-1 (n > 0).
func (m *Mind) pick(n int) int {
	if m.Rand == nil {
		return 0
	}
	return m.Rand.IntN(n)
}

// decidingPlayer is the Player of a game with Deciders: one Decider, shown
// every view, deciding with a SureMind.
type decidingPlayer struct {
	d    Decider
	mind Mind
	tmp  Action
}

func (p *decidingPlayer) Observe(v *View) { p.d.Decide(v.Seen(), &p.mind, &p.tmp) }

func (p *decidingPlayer) Sent(v *View, a *Action) { p.d.Sent(v.Seen(), a) }

func (p *decidingPlayer) Decide(v *View, a *Action) bool {
	var t Action
	if _, ok := p.d.Decide(v.Seen(), &p.mind, &t); ok {
		*a = t
		return true
	}
	return false
}

func (p *decidingPlayer) Reset() { p.d.Reset() }
