// Package rules is the referee of the Dobble game system: the table model
// every mini-game shares, the checks every action goes through, and one file
// per mini-game (docs/RULES.md §3, §4, §6). It is pure and deterministic: no clocks,
// no goroutines, no I/O. The server, bots, simulations, replays and tests
// all drive the same code.
//
// # The model
//
// A State is one game in progress. New builds it from a Game (found by name
// with Lookup), a deck (anything satisfying Cards, such as *deck.Deck) and a
// Config (players, seed, lock-out, options). The table is a list of zones
// (Zone): the centre pile, each seat's pile, a face-down stock, grid slots.
// Every card of the deck lies in exactly one zone, bottom to top, and
// CheckInvariants verifies it.
//
// An Action is one input: a claim (a symbol, the target zones where the game
// needs them, Info.Targets), a draw, or another kind of move the game lists
// in Info.Acts (a flip in Memory, a lay or STOP in False Poker, a write in
// Reflection, a guess in Guess, a discard or a take in Collect the
// Symbols), by one seat; or a tick of the game clock, by no seat. It names the state
// version the seat saw and carries the time it arrived, At, in milliseconds
// since the game began. Time enters only that way: the rules never read a
// clock, so lock-outs are measured with At and a game replays identically.
// Randomness comes only from a PCG source seeded with Config.Seed and kept
// in the State, so the same deck, config and actions give the same game.
//
// State.Apply either accepts an action, appending the Events it caused
// (EventClaim, then the cards that moved, EventOver with the Result when
// the game ends) and bumping the version by one, or refuses it with a
// *Refusal whose Code says why: CodeNoSeat, CodeMalformed, CodeGameOver,
// CodeTooLate (the action named an older version: someone was faster),
// CodeTimeUp or CodeEarly (the game's deadline had passed, or, for a tick,
// had not come), CodeLockedOut, then the game's own: CodeNotYourTurn,
// CodeNotNow, CodeOut, CodeBadTarget, CodeNotAMatch, checked in that order. A
// refusal never changes the table or the version. A wrong claim or draw
// (CodeNotAMatch or CodeBadTarget for a kind that ActionKind.LocksOut) does
// record one thing: the seat is locked out until At plus Config.Lockout, and
// the refusal reports when (Refusal.LocksOut, LockedUntil). A wrong flip,
// lay, write or take is refused with the same codes but no lock-out: it is
// judged on what the seat sees, so trying again reveals nothing.
// State.Check runs the same checks without applying anything.
//
// A View is what one seat, or a Spectator, may see: every zone's count and
// only its face-up cards (Show), the seats' lock-outs and tallies, the
// standing, and the version to name in the next action. A face-down card is
// never in a view; State.EventFor likewise blanks a card in an event when
// it went face down to the viewer. Views, actions, events, results and
// refusals are plain data with lowerCamel JSON names; enumerations encode
// as their names ("claim", "move", "tooLate", "top").
//
// # Time, turns and what is hidden
//
// A timed game (Info.Timed: Reflection's study time, Guess's cards turned
// every few seconds, False Poker's five-second turns, Memory's turn limit)
// keeps its times in its State, measured with Action.At, and says when it
// next wants time to pass: State.Deadline. Whoever drives the game (the
// server's room clock, a simulation's loop, a test) applies State.Tick, an
// ActionTick of no seat, once its clock reaches that time; the game then
// turns the card, ends the phase or the turn. A seat's action arriving at
// or after the deadline is refused with CodeTimeUp, so the tick always
// settles the time first, and a tick before the deadline is refused with
// CodeEarly. Durations are the games' options, the sheet's values their
// defaults.
//
// Where seats do not race each other (everyone writes their own answers in
// Reflection; a guess in Guess stands whatever was turned meanwhile), the
// game is Lenient: such an action made against an older version is checked
// as if made now, as long as its version is not older than the phase or
// round it belongs to.
//
// A game with turns (Turner) reports whose turn it is with State.Turn, and
// every View carries it. A game's own state beside the table lives in its
// Extension (turn order, markers, tokens, answers, the secret), carried by
// Clone and Equal; what a seat may see of it is View.Extra (Viewer), which
// never holds what the seat may not: Guess's secret, another seat's
// answers, a card turned back face down. Zones keep their visibility for
// the whole game, so a game hides or shows a card by moving it between a
// face-down and a face-up zone.
//
// State.Moves lists the actions a seat could make right now that would be
// accepted (lock-outs aside): the correct claims a bot chooses from.
// State.CanMove tells whether that list is empty without building it,
// State.Movers tells it for every seat in one pass, and State.PickMove
// (PickMoveTo, writing in place) picks one of its claims at random (or its
// draw when it has no claim), as an instant bot plays; games implement
// MoveChecker, MoverFinder and MovePicker to answer without listing the
// moves.
// State.Result gives the scores in the game's unit (Info.Unit), the winners
// (several on a tie, which a session settles with a duel or Hot Potato),
// the ranking and the places.
//
// # Players
//
// A game whose play is more than claiming the matches a seat sees (Memory,
// Reflection, Guess, False Poker) says how a player decides: it is a
// DeciderMaker, and its Decider decides one seat's next action from what
// the seat sees (Seen) and what it remembers, shaped by a Mind (how well
// the player remembers and reads, how much it risks, how it chooses among
// equals), and reports the effort it took. It is the game's one way to
// play: a bot reads the State through it (State.SeenBy, a Seen read from
// the State in place, without building a View), with its level's Mind and
// timing around it, and a program playing over the protocol reads its
// views through it (View.Seen). Each game reads its own state beside the
// zones from its Extension or from its View.Extra alike, and a test
// checks, at every step of random games, that a Decider reading the State
// decides exactly as one reading the seat's view decoded from JSON.
//
// A Player decides one seat's actions from the Views it is shown, as a
// person would: NewPlayer gives one built on the game's Decider, the
// game's own (PlayerMaker), or, in a game of claims, one that finds the
// match its ClaimShape describes (FindClaim). Programs that play over the
// protocol (the load tool, the tests' client bots) use it;
// View.UnmarshalJSON decodes a view's extra into the game's own type for
// them.
//
// A record of a game is its deck, its Config and the actions in arrival
// order; Replay rebuilds the state from it, and State.Equal compares states.
// Replaying only the accepted actions rebuilds the table exactly; keep the
// refused wrong claims too if the lock-outs must be rebuilt as well. For a
// record that can be checked without this package's random source (package
// record's), State.KeepShuffles has the state keep the order each shuffle
// leaves its zone in (State.Shuffled): that is for the record alone, and no
// event, view or EventFor ever carries it.
//
// # Speed
//
// Matches are checked on an Index, the deck flattened into bitsets: Has is
// one load, Common one AND per 64 symbols. New builds one unless given an
// *Index, so build it once per deck with NewIndex and share it between
// games (it is immutable). Apply appends to the event slice it is given, so
// a caller that passes ev[:0] of a reused buffer allocates nothing per
// accepted claim; Moves appends the same way. Games receive actions by
// pointer, and ApplyPtr and PickMoveTo let a hot loop keep its action in
// place: copying a 64-byte Action just written field by field stalls on
// the stores (store forwarding), which costs more than checking it. Games allocate only at setup
// and at the end, and State.Reset sets a new game up in the memory of the
// one before, so a loop playing game after game allocates nothing for it.
// A driver that only asks whether an action would be accepted uses
// State.Allowed, which builds no refusal for one made too late.
//
// # Adding a mini-game
//
// A mini-game is one file, rules/NAME.go, its texts, rules/NAME.text.json,
// and its test, rules/NAME_test.go (a large game may split its file by
// job, as Anarchy Pancakes does into pancakes.go, pancakes_index.go,
// pancakes_pick.go and pancakes_invariants.go); nothing else in the system
// changes, because the server, sessions, bots, simulation, load tool,
// browser and records reach every game through Lookup, Games, what its
// Info declares and the State methods. Follow tower.go:
//
//  1. Start with a comment citing the docs/RULES.md section and saying how the
//     table is laid out (which zone numbers mean what) and what a claim's
//     targets are.
//  2. Declare an empty struct type, its Info (canonical name and the
//     aliases from the issue, Title, Section (the game's section of
//     docs/RULES.md, "docs/RULES.md §N", which the rules there describe
//     and TestRuleCitations finds), DobbleMinPlayers and
//     DobbleMaxPlayers or the Pancakes range, Unit, HigherWins, Targets,
//     Draw) and register it: func init() { Register(NAME{}) }. Every point
//     where the rule sheets disagree is an Option whose Default is the
//     docs/RULES.md decision; read it with s.Option(i), i being its index in
//     Info.Options.
//     Declare in the Info what the rest of the system needs
//     (declare.go): Claim, the ClaimShape saying what each target names
//     and which cards must show the symbol (every game of claims has
//     one); Deck when the game has its own cards; Points, its tournament
//     points; NoAutoPick when a session must not pick it by itself;
//     Record (recorded.go), how its records are checked from the record
//     alone: its scores, its clock, its own events. A
//     game whose players decide more than a claim implements DeciderMaker
//     (NewDecider, Remembers), reading what the seat sees through Seen,
//     and, with a ViewExtra, ExtraDecoder (NewViewExtra).
//     docs/ADDING-A-GAME.md walks through it with a worked example.
//  3. Implement Game. Setup adds zones with s.addZone(kind, seat, show)
//     (s.addSlot for a zone that holds one card at a time, such as a grid
//     slot; s.reserve first when the table has more zones than two per seat
//     and four more), shuffles the deck into one with s.dealAll(zone) and
//     deals with s.take(from, to); it refuses a deck that is too small with a
//     *ConfigError whose Field is "cards". Check looks at s.top(zone),
//     s.count(zone) and s.cards.Has(card, symbol), and returns nil or
//     refuse(CodeBadTarget or CodeNotAMatch, a, "what exactly was wrong"),
//     or the codes of turns and phases (CodeNotYourTurn, CodeNotNow,
//     CodeOut). A game with more than claims lists its kinds in Info.Acts;
//     a timed one sets Info.Timed, implements Clock and handles ActionTick
//     in Check and Apply; its state beside the table goes in an Extension
//     (SetExtension in Setup).
//     Apply starts with ev = claimed(ev, a) for a claim, moves cards with
//     s.move, s.moveStack, s.moveUnder and s.shuffle (each appends its event),
//     may use s.round and s.seats[i].Tally, and calls ev = s.finish(ev) when
//     the game ends. Moves appends the correct claims, usually with
//     s.appendClaims(dst, seat, targets, cardA, cardB), or one by one with
//     s.appendClaim(dst, seat, symbol, &targets). CanMove (MoveChecker)
//     answers whether Moves would list anything, Movers (MoverFinder)
//     answers it for every seat at once, and PickMove (MovePicker) writes
//     one of its claims, picked uniformly, with s.setClaim (s.pickShared
//     and s.pickAgainst do it for the usual shapes); the harness checks
//     all three against Moves after every action. Result returns Rank(unit,
//     higherWins, scores). Implement Checker if the game has table rules of
//     its own (pile never empty, grid always full).
//  4. In NAME_test.go copy tower_test.go: a scenario test that builds a
//     known table with setTable and plays the docs/RULES.md wording claim by
//     claim, checking exact events and refusals; a verify function that
//     checks an accepted action against the real *deck.Deck; then
//     TestNAMEProperties calling runProperties(t, "NAME", verifyNAME), which
//     plays random games over many seeds, player counts and deck orders
//     with streams of right, wrong, late and garbage actions and checks
//     invariants, refusals, views, termination and replay after every
//     action; FuzzNAME calling fuzzGame(f, "NAME", verifyNAME); and a
//     benchmark of complete games with instant perfect play like
//     BenchmarkTowerGame.
//  5. Write NAME.text.json (NAME the canonical name), as tower.text.json:
//     for each language of Languages, the game's title, its rule in a
//     sentence or two and each option's name, doc and choices (GameText,
//     read with Texts). TestTexts asks for all of them; a game with English
//     only, or none, still plays, shown in English or by Info.Title.
//
// The card source need not be a projective plane: Anarchy Pancakes adds one
// one-topping card per symbol to the order-5 plane by wrapping the deck in
// a Cards type whose extra cards show a single symbol (engine_test.go has
// such a wrapper); Index.Common then returns -1 for cards with nothing in
// common.
package rules
