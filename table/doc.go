// Package table drives one game of the Dobble game system at one table: a
// rules.State, the bots seated at it (package bot), the deadlines of its
// clock and its record (package record), advanced by a clock the caller
// owns. The headless simulator (package sim) runs it in virtual time, as
// fast as the processor allows; a server's room (package room) runs it in
// wall time, arming one timer for the moment the driver next needs.
//
// # Time
//
// A Driver never reads a clock. Its time is the game's: milliseconds since
// the game began, the unit of rules.Action.At. The caller moves it on with
// Advance(to), which does everything due up to time to, in order, and asks
// Next when something is next due: the earliest bot's plan or the game's
// deadline (rules.State.Deadline). A simulation calls Advance(Forever) and
// the game plays out; a room calls Advance with the time since its table
// began whenever its timer fires or a request arrives, and sets its timer
// for Next. Splitting the time into more calls of Advance changes nothing:
// Advance(t1) then Advance(t2) does what Advance(t2) does alone.
//
// # What happens when
//
// Each bot plans its next action (bot.Plan: what, and when it arrives);
// the driver carries out the earliest. Plans arriving in the same
// millisecond are taken in a random order drawn from a source seeded with
// the game (Reset), so a game is the same for the same seed. When the
// game's deadline comes no later than every plan, the driver applies the
// clock's tick first (rules.State.Tick), so that the time is settled
// before anyone acts at that moment.
//
// After every accepted action every bot plans again against the new
// version, except one whose plan is already Committed: it arrives and is
// refused as too late, as the rules refuse a person who was a moment
// slower; one arriving in the very millisecond of the change is too late at
// once. The driver refuses such stale plans itself, without asking the
// rules, unless the game is rules.Lenient, where a plan made against an
// older version may still count and the rules decide. A bot whose action
// was refused plans again; a false alarm (bot.Plan.Wrong) may have locked
// its seat out, and its next plan waits for the lock-out to end.
//
// The seats without a bot are played from outside: Submit applies a
// person's action at the time it arrived, after everything due before it.
//
// Between instant bots (bot.Level.Instant) every plan arrives at once and
// only the tie-break decides who acts; the driver then asks only which
// seats can act (rules.State.Movers) and the winner alone for its plan,
// which plays the very same game far faster (see Reset).
//
// # Pace
//
// An instant bot acts the moment the table changes, which is what a
// simulation wants and what no person can match. A caller seating bots
// beside people gives them a floor, Config.MinDelay: a bot's action arrives
// that long after the bot planned it at the soonest (a plan is made when
// the table changes, or when the bot's own action was carried out or
// refused). The floor binds only the fastest plans; the human-like levels
// take longer anyway. A plan the bot has committed to still arrives and is
// refused as too late when the table changed meanwhile, so a bot acts at
// most once per floor, even where its moves never run out (a discard in
// Collect the Symbols). Config.StartDelay holds every bot back at the
// start of a game, so that people see the first cards before a bot plays:
// two instant bots would otherwise take a Tower's first cards while a
// person's page is still drawing them.
//
// Config.BotRate bounds the bots' actions of a table, whatever their
// levels: so many a second of the game's time on average, Config.BotBurst
// at once. A bot's action due when the bound is reached arrives later, at
// the first millisecond the bound allows (Stats.Deferred counts these
// delays). The seats played from outside and the clock's ticks are not
// bound by it. With neither set, the bots play at their levels' pace.
//
// # Records and observers
//
// With a record.Writer in its Config, the Driver writes the game's record:
// the header and the table as set up when the game starts, every accepted
// action with its events (and the outcome of its shuffles, which the
// record alone keeps: an Observer's events never carry them), the refusals that change the state (those that lock a seat out) and the
// bots' false alarms, and the end once the game is over. An Observer hears
// every accepted action and every refusal as it happens, which is how a
// room broadcasts updates and counts refusals.
package table
