// Package sim plays whole games of the Dobble game system with bots, as
// fast as the processor allows: headless simulation in virtual time, for
// balancing the mini-games, measuring the bots, testing the rules end to end
// and benchmarking. It works for every registered game through the same
// State methods the server uses; the only game-specific choice is the
// default deck (DefaultDeck).
//
// A game is an event loop over the bots' plans (package bot), run by a
// table.Driver in virtual time, the same driver a server's room runs in wall
// time: each bot says what it will do and when; the earliest action is
// applied; bots whose plans have not yet been committed plan again against
// the new version, and committed ones arrive and are refused as too late,
// exactly as on the server. A timed game's clock is part of the loop: when
// its deadline (rules.State.Deadline) comes before every plan, the driver
// applies the tick and the bots plan again. The loop runs to the end of
// the game and reports the result, the number of actions accepted and
// refused, the virtual duration and the wall time (Outcome). With a
// record.Writer in the Config, every game is also written as a record that
// package record replays and checks.
//
// Everything is deterministic given the seed: the deal, the bots and the
// order of plans arriving in the same millisecond.
package sim
