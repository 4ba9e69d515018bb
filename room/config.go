package room

import (
	"cmp"
	"fmt"
	"log/slog"
	"time"

	"github.com/dobble-dev/dobble/rules"
)

// Config holds the limits and timings of a Manager. The zero value of a
// field means its default (see DefaultConfig); Validate says what is
// accepted.
type Config struct {
	// SeatHold is how long a disconnected person's seat is kept for them
	// to resume it.
	SeatHold time.Duration
	// MaxRooms is the most rooms open at once.
	MaxRooms int
	// RoomQueue is the length of each room's input queue.
	RoomQueue int
	// PeerQueue is the length of each connection's output queue.
	PeerQueue int
	// Countdown is the pause before each game starts.
	Countdown time.Duration
	// PickTime is how long the picker has to pick the next mini-game
	// before the room picks for them.
	PickTime time.Duration
	// BotPick is how long a bot takes to pick the next mini-game.
	BotPick time.Duration
	// Lockout is the lock-out after a wrong claim or draw, in
	// milliseconds, for rooms that do not set one: 1 to MaxLockout, or
	// rules.NoLockout for none; 0, as for every field, means the default.
	// (A create request and dobble serve's --lockout say 0 for none; the
	// server turns that into rules.NoLockout.)
	Lockout int64
	// Rate is the number of messages a connection may send per second, on
	// average; Burst how many it may send at once.
	Rate float64
	// Burst is the size of a connection's bucket of messages.
	Burst int
	// FloodLimit is how many refused messages in a row close a connection.
	FloodLimit int
	// MaxRoomsPerAddr is the most rooms the connections of one client
	// address (Peer.SetAddress) may have created and still open.
	MaxRoomsPerAddr int
	// Log is where the rooms' failures are written: finished games that
	// cannot be stored, bots held back by their bound. Nil means
	// slog.Default().
	Log *slog.Logger
	// DeckCache is the most decks kept built, with their cards' drawings
	// (the least recently used is dropped first).
	DeckCache int
	// CardCache is the most bytes of card pictures (SVG) kept drawn.
	CardCache int64
	// SaveBacklog is the most finished games kept in memory while they
	// wait to be stored (the store failing, say on a full disk, they are
	// tried again until it works); a game that finishes when that many
	// wait is not stored.
	SaveBacklog int
	// BotDelay is the least time from a change of the table to a bot's
	// action answering it (table.Config.MinDelay): no bot in a room, not
	// even an instant one, acts sooner, so none races people at 0 ms.
	BotDelay time.Duration
	// BotRate is the most actions the bots of a room may make a second on
	// average, BotBurst at once (table.Config.BotRate); a bot's action due
	// beyond it is put off until the bound allows it.
	BotRate float64
	// BotBurst is how many actions the bots of a room may make at once.
	BotBurst int
	// FairCap is the most of a person's round trip a claim is credited
	// with when claims are ranked by reaction rather than by arrival
	// (fair.go), or NoFair to rank them by arrival.
	FairCap time.Duration
	// BotNetDelay is the network delay the bots' actions go through, a
	// typical round trip, credited to them as a person's is (at most
	// FairCap).
	BotNetDelay time.Duration
}

// DefaultConfig returns the defaults: a seat held 120 s, 1000 rooms, queues
// of 256 inputs and 256 outputs, a 3 s countdown, 60 s to pick (2 s for a
// bot), a 1000 ms lock-out, 20 messages a second in bursts of 40, a close
// after 200 refused in a row, 1000 finished games waiting to be stored,
// 32 decks and 32 MiB of card pictures kept (every edition's pictures take
// about 4 MiB), and bots that answer a change after 250 ms at the soonest,
// a quick person's reaction, and make at most 50 actions a second in
// bursts of 100 in a room; claims ranked by reaction with at most 150 ms
// of a round trip credited, and bots whose actions go through 40 ms of
// network.
//
// With a 250 ms floor each bot acts at most 4 times a second, so the bots
// of a full table (7 beside one person) make at most 28 actions a second
// and the bound of 50 never holds back a room that plays as it should; it
// is there for a server run with a lower floor, and against any other
// runaway.
func DefaultConfig() Config {
	return Config{
		SeatHold: 120 * time.Second, MaxRooms: 1000, RoomQueue: 256, PeerQueue: 256,
		Countdown: 3 * time.Second, PickTime: 60 * time.Second, BotPick: 2 * time.Second,
		Lockout: 1000, Rate: 20, Burst: 40, FloodLimit: 200, SaveBacklog: 1000, MaxRoomsPerAddr: 20, DeckCache: 32, CardCache: 32 << 20,
		BotDelay: 250 * time.Millisecond, BotRate: 50, BotBurst: 100,
		FairCap: 150 * time.Millisecond, BotNetDelay: 40 * time.Millisecond,
	}
}

// withDefaults fills the zero fields of c from DefaultConfig.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	c.SeatHold = cmp.Or(c.SeatHold, d.SeatHold)
	c.MaxRooms = cmp.Or(c.MaxRooms, d.MaxRooms)
	c.RoomQueue = cmp.Or(c.RoomQueue, d.RoomQueue)
	c.PeerQueue = cmp.Or(c.PeerQueue, d.PeerQueue)
	c.Countdown = cmp.Or(c.Countdown, d.Countdown)
	c.PickTime = cmp.Or(c.PickTime, d.PickTime)
	c.BotPick = cmp.Or(c.BotPick, d.BotPick)
	c.Lockout = cmp.Or(c.Lockout, d.Lockout)
	c.Rate = cmp.Or(c.Rate, d.Rate)
	c.Burst = cmp.Or(c.Burst, d.Burst)
	c.FloodLimit = cmp.Or(c.FloodLimit, d.FloodLimit)
	c.MaxRoomsPerAddr = cmp.Or(c.MaxRoomsPerAddr, d.MaxRoomsPerAddr)
	if c.Log == nil {
		c.Log = slog.Default()
	}
	c.DeckCache = cmp.Or(c.DeckCache, d.DeckCache)
	c.CardCache = cmp.Or(c.CardCache, d.CardCache)
	c.SaveBacklog = cmp.Or(c.SaveBacklog, d.SaveBacklog)
	c.BotDelay = cmp.Or(c.BotDelay, d.BotDelay)
	c.BotRate = cmp.Or(c.BotRate, d.BotRate)
	c.BotBurst = cmp.Or(c.BotBurst, d.BotBurst)
	c.FairCap = cmp.Or(c.FairCap, d.FairCap)
	c.BotNetDelay = cmp.Or(c.BotNetDelay, d.BotNetDelay)
	return c
}

// Validate reports the first setting out of range, naming what is accepted.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.SeatHold < 0 || c.SeatHold > 24*time.Hour:
		return fmt.Errorf("seat hold %v: use a duration from 1ms to 24h", c.SeatHold)
	case c.MaxRooms < 1 || c.MaxRooms > 1_000_000:
		return fmt.Errorf("max rooms %d: use 1 to 1000000", c.MaxRooms)
	case c.RoomQueue < 1 || c.RoomQueue > 1_000_000:
		return fmt.Errorf("room queue %d: use 1 to 1000000", c.RoomQueue)
	case c.PeerQueue < 1 || c.PeerQueue > 1_000_000:
		return fmt.Errorf("connection queue %d: use 1 to 1000000", c.PeerQueue)
	case c.Countdown < 0 || c.Countdown > time.Minute:
		return fmt.Errorf("countdown %v: use a duration from 1ms to 1m", c.Countdown)
	case c.PickTime < 0 || c.PickTime > time.Hour:
		return fmt.Errorf("pick time %v: use a duration from 1ms to 1h", c.PickTime)
	case c.BotPick < 0 || c.BotPick > time.Minute:
		return fmt.Errorf("bot pick time %v: use a duration from 1ms to 1m", c.BotPick)
	case (c.Lockout < 0 && c.Lockout != rules.NoLockout) || c.Lockout > MaxLockout:
		return fmt.Errorf("lock-out %d ms: use 1 to %d ms, rules.NoLockout (%d) for none, or 0 for the default (%d)",
			c.Lockout, MaxLockout, rules.NoLockout, DefaultConfig().Lockout)
	case c.Rate < 0 || c.Rate > 10_000:
		return fmt.Errorf("rate %v messages/s: use a number from 0.001 to 10000", c.Rate)
	case c.Burst < 1 || c.Burst > 100_000:
		return fmt.Errorf("burst %d: use 1 to 100000", c.Burst)
	case c.FloodLimit < 1 || c.FloodLimit > 1_000_000:
		return fmt.Errorf("flood limit %d: use 1 to 1000000", c.FloodLimit)
	case c.MaxRoomsPerAddr < 1 || c.MaxRoomsPerAddr > 1_000_000:
		return fmt.Errorf("rooms per address %d: use 1 to 1000000", c.MaxRoomsPerAddr)
	case c.DeckCache < 1 || c.DeckCache > 10_000:
		return fmt.Errorf("deck cache %d decks: use 1 to 10000", c.DeckCache)
	case c.CardCache < 1<<20 || c.CardCache > 1<<40:
		return fmt.Errorf("card cache %d bytes: use 1 MiB to 1 TiB", c.CardCache)
	case c.SaveBacklog < 1 || c.SaveBacklog > 1_000_000:
		return fmt.Errorf("save backlog %d: use 1 to 1000000 games", c.SaveBacklog)
	case c.BotDelay < time.Millisecond || c.BotDelay > 10*time.Second:
		return fmt.Errorf("bot delay %v: use a duration from 1ms to 10s", c.BotDelay)
	case !(c.BotRate >= 0.1 && c.BotRate <= 100_000):
		return fmt.Errorf("bot rate %v actions/s: use a number from 0.1 to 100000", c.BotRate)
	case c.BotBurst < 1 || c.BotBurst > 1_000_000:
		return fmt.Errorf("bot burst %d: use 1 to 1000000", c.BotBurst)
	case (c.FairCap < time.Millisecond && c.FairCap != NoFair) || c.FairCap > time.Second:
		return fmt.Errorf("fair cap %v: use a duration from 1ms to 1s, or room.NoFair (%d) to rank claims by arrival", c.FairCap, NoFair)
	case c.BotNetDelay < time.Millisecond || c.BotNetDelay > time.Second:
		return fmt.Errorf("bot network delay %v: use a duration from 1ms to 1s", c.BotNetDelay)
	case (c.FairCap < time.Millisecond && c.FairCap != NoFair) || c.FairCap > time.Second:
		return fmt.Errorf("fair cap %v: use a duration from 1ms to 1s, or room.NoFair (%d) to rank claims by arrival", c.FairCap, NoFair)
	case c.BotNetDelay < time.Millisecond || c.BotNetDelay > time.Second:
		return fmt.Errorf("bot network delay %v: use a duration from 1ms to 1s", c.BotNetDelay)
	}
	return nil
}

// MaxLockout is the longest lock-out a room may set, in milliseconds.
const MaxLockout = 5000
