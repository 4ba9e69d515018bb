// Package session plays a session of Dobble: a sequence of mini-games
// among the same seats, with the grand winner named by mini-games won
// (RULES.md §2) or by tournament points (RULES.md §5), ties at the end of a
// mini-game settled by real tie-break games, and "the loser picks the next
// game". Like package rules, which it drives through its public API only,
// it is pure and deterministic: a Session is data changed by Pick and
// Apply, with no clocks, goroutines or I/O, and Replay rebuilds it from its
// config, decks and inputs.
//
// # The flow
//
// New starts the first mini-game (Config.First, the Tower by default, as
// §5 says a tournament starts). Seats then play it through Apply, which
// takes the number of the table being played (Table) and a rules.Action
// whose Seat is the session seat; everything else about the action and the
// events that come back belongs to the game, exactly as with a
// rules.State. When the mini-game ends:
//
//   - If its Result has one winner, the mini-game is settled.
//   - If several seats tie for the win, a tie-break game is played among
//     them only: a "duel" for two (RULES.md §2), for three or more the game
//     Config.TieBreak names, "hot-potato" by default (sheets 000-DA and
//     002; sheet 001-PL plays one round of any mini-game). The tied seats
//     sit at the tie-break's table in seat order (Seats maps them), and the
//     tie-break is played through the same Apply. If it ends in a tie
//     again, the seats it put behind are placed behind for good and the
//     tie-break is played again among those still tied (a duel once two
//     remain); a duel cannot tie, and a one-round Hot Potato always puts its
//     round's loser behind, so the default tie-breaks end after at most
//     players−1 games. Any other tie-break game could tie among all its
//     seats again: after TieBreakLimit tie-break games for one mini-game
//     the seats still tied share the win.
//   - The settled mini-game is added to the History with its result, its
//     tie-breaks, the settled places, the winners and the tournament points,
//     and the standings change.
//   - If Config.Games mini-games have been played the session is over.
//     Otherwise the loser (the last-placed seat) must pick the next
//     mini-game: Picker says who, Choices lists what the table can play,
//     and Pick accepts or refuses the pick with a reason.
//
// Several seats sharing the last place: the one standing lowest in the
// session (by the grand-winner order) picks, and among those the lowest
// seat number. RULES.md names the loser as the picker only for tournament
// scoring; a session counting mini-games won uses the same rule.
//
// A mini-game that has an option named "first-seat" (the Well: sheet 002
// deals first to the previous mini-game's winner) gets the previous
// mini-game's winner there (when one seat won it), unless Config.Options
// sets it.
//
// # Seeds
//
// Config.Seed is the session's secret. Table k is dealt with
// TableSeed(Seed, k), and a server seeds its bots there with BotSeed(Seed,
// k): the first 64 bits of HMAC-SHA-256 keyed with the session's seed. A
// table's seed is shown once the table is over (its record holds it, so
// that it can be replayed), and the bots' play shows something of theirs;
// none of these tells anything of the session's seed or of another seed
// drawn from it, short of trying every one of the 2⁶⁴ session seeds. So a
// table's deal, its secrets (Guess's, False Poker's hands) and the bots'
// choices cannot be foreseen from anything seen of the tables before it,
// and the same Seed still plays the same session. The History holds no
// seeds; a holder of the session's seed finds a table's with TableSeed.
//
// # Standings and the grand winner
//
// Standings gives each seat its mini-games won and tournament points and
// ranks them: with ByWins (the default) by mini-games won, then points; with
// ByPoints by points, then mini-games won. Seats equal on both share a
// place, and if they share the first place they are all grand winners.
//
// # Tournament points
//
// Each game declares how it scores (rules.Info.Points, applied by
// rules.TournamentPoints); a game without a rule of its own gives +5 to the
// winner. What the games declare today (RULES.md §5, and decisions where it
// is silent): "Cards won" excludes the card a seat is dealt at
// the start, which it did not win.
//
//	tower            +1 per card won (cards held − 1); +5 to the winner
//	well             +10 to the winner (first to empty); −20 to the last
//	                 new scoring (Config.NewScoring names well): +10 to the winner;
//	                 −1 per card left for every other seat; −5 more to the
//	                 seats with the most cards left, with more than 2 players
//	poisoned-gift    +20 to the winner (fewest cards); +10 to second place
//	                 new scoring (Config.NewScoring names it): the winner loses 1
//	                 per card received; each next place loses 1 per card
//	                 received but at least k more than the place before it,
//	                 k being 2 for the second place, 3 for the third, and so on
//	hot-potato       −5 per round lost (Seat.Tally); played with its own
//	                 new scoring (game option scoring=series): −1 per
//	                 penalty card, the penalties that scoring records
//	catch-them-all   +1 per card won
//	triplets         +1 per card won; +5 to the winner (decision: scored
//	                 like the Tower, a most-cards game over the whole deck)
//	subway-rescue    +1 per card won; +5 to the winner (decision: as above)
//	anarchy-pancakes +10 per butter pat (decision: the winner's two pats
//	                 weigh as much as winning the Poisoned Gift)
//	learning         +1 per pair won (decision)
//	duel             +5 to the winner (decision: as the Tower's bonus)
//	any other game   +5 to the winner (decision)
//
// Ties inside a place are not broken: every seat sharing a place gets its
// points (two seats sharing the Well's last place both lose 20). Only the
// winner is settled by tie-breaks, and the seats a tie-break put behind take
// the next places in the order it ranked them (two seats tied for the
// fewest cards in the Poisoned Gift: the duel's winner gets +20 and the
// loser +10).
package session
