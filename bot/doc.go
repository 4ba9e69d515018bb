// Package bot is the computer players of the Dobble game system: bots that
// play any registered mini-game through the same actions as people, at a
// difficulty Level modelled on how a person searches two cards for their
// common symbol. The server seats them at tables, and package sim plays
// whole games with them in virtual time.
//
// # Planning
//
// A Bot never acts by itself. Given the State and the current time, Plan
// says what it will do and when: "at time T, claim symbol S against version
// V" (a Plan). The caller schedules it. When the table changes before the
// plan's Decide time, the plan is void and the caller asks again; from
// Decide on, the claim is already on its way, so the caller submits it and
// the rules refuse it as too late, exactly as they refuse a person who
// was a moment slower. After the bot's own action is applied or refused,
// the caller asks again too; a refused wrong claim locked the seat out,
// and the next plan waits for the lock-out to end.
//
// A bot chooses among the seat's Moves: a correct claim (with its targets:
// an opponent, a stack, three cards) or, when it has no match, its first
// other move (the draw in Anarchy Pancakes, a discard or a take in Collect
// the Symbols). Only a false alarm is not among the moves: a claim of
// a symbol the bot can see near the cards it compares, with an allowed
// target, which the rules refuse as wrong.
//
// # The search model
//
// A person compares two cards symbol by symbol: take a symbol of the first
// card, look for it among the k symbols of the second, one at a time; if
// it is not there, take the next. The match, equally likely at any of the
// k positions, is found after (k−1)k/2 + (k+1)/2 = (k²+1)/2 comparisons on
// average. Where a claim needs a target, the bot examines the choices the
// rules allow (found by probing State.Check) in random order, paying k² for
// each fruitless one before reaching one that holds a match; a claim of c
// cards (three in Triplets) looks for the symbol on every other card.
// ExpectedComparisons gives the mean, and the bot draws the actual count
// from the same process. With no match anywhere, it searches every choice
// before drawing.
//
// The search takes Compare milliseconds a comparison, scaled by a
// log-normal factor of mean 1 and spread Noise, after Orient milliseconds
// to take in the changed table; naming the symbol takes Motor more. With
// probability MissRate the bot overlooks the match and finds it only an
// exponentially distributed time later (mean MissMean); with probability
// WrongRate it claims wrongly part-way through its search.
//
// The levels easy, medium, hard and expert make a Tower claim (two cards
// of eight symbols) in about 4, 2.75, 1.95 and 1.3 seconds on average,
// misses and false alarms aside; instant claims correctly at once, for
// simulations and benchmarks. Beside people a bot's times get a floor from
// whoever runs the table (table.Config.MinDelay; 250 ms in a server's
// rooms), so that an instant bot there answers a change as a quick person
// would at best, never at 0 ms.
//
// # Games with Deciders
//
// In the extra mini-games of RULES.md §4 finding a match is not the whole
// game, and the game itself says how a player decides
// (rules.DeciderMaker): in Memory it remembers the cards flipped, in
// Reflection the cards studied, and uses what it remembers; in Guess it
// narrows the secret down from the cards turned and guesses once few
// candidates are left; in False Poker it checks the row, says STOP on a
// repeat, lays a safe card when it has one and now and then bluffs. A bot
// plays such a game with the game's own Decider, the one the load tool's
// players use too, reading the State as its seat sees it (State.SeenBy),
// never more. Its level adds what a person adds around it, as a
// rules.Mind: the recall of a card shown (1 for instant, 1 − 5 × WrongRate
// otherwise: 0.95 for expert down to 0.6 for easy), misreading a card
// turned in Guess at WrongRate, bluffing one time in five (never at the
// instant level), guessing among up to one (instant), two (hard, expert)
// or three (medium, easy) candidates, and its random source for choices
// among equals. Its times come from the same Orient, Compare, noise and
// Motor, the comparisons being the effort the Decider reports. In Memory,
// Reflection and Guess it may choose to wait, and it learns from every
// version it is shown, so such a bot must be asked to plan at every
// version (Remembers).
//
// # Determinism
//
// A bot's only randomness is its own PCG source, seeded from a seed and
// the seat: the same bots asked the same questions in the same order plan
// the same actions at the same times.
package bot
