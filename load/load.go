// Package load measures how many players one dobble server holds and how
// fast it answers them. Run opens many real WebSocket clients against a
// server on this machine, seats them in rooms through the protocol of
// docs/PROTOCOL.md (hello, create, join, start), and has them play as
// people would: each client chooses its action from the view it was sent
// (a correct match to claim; in the extra mini-games a flip, a lay or
// STOP on its turn, an answer, a guess, a discard or a take, with what it
// remembers of the views before) and sends it after a human-like reaction
// time, and the host starts a rematch whenever a session ends. Timed games
// move on by the server's clock: a client with nothing to do waits for
// the next view. It counts actions by kind and games, times every action
// from the moment it is sent to the message that settles it, counts errors
// and refusals by kind, and reads the server's memory from its /metrics.
//
// A run has three phases: every client connects and says hello (at most
// Dials at a time), every room is created and filled, then every host
// starts and the rooms play for Duration. The server's memory is read
// before and after the first two phases, which gives the cost of an idle
// connection and of a room, and once more at the end, under load. Only
// the third phase is measured: the ramp-up is not timed.
//
// With Config.Resume the clients survive a restart of the server: a
// client whose connection drops reconnects, resumes its seat with its
// token and plays on, and the report says how many came back, how many
// could not (and why), and how long it took. Config.Watch is told what
// every client saw (each state and update, with fingerprints of what the
// server wrote) and what became of its connection, for a harness that
// checks nothing a client saw acknowledged was lost (internal/crash).
//
// Config.URL may name several servers, the nodes of a cluster: the rooms
// are spread over them, and with SpreadPlayers the players of one room
// too. RunSplit splits a run over several processes, each within its own
// open-file limit, and merges what they measured into one report.
package load

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// Limits of a run.
const (
	// MaxConnections is the most clients one run opens.
	MaxConnections = 200_000
	// MaxDuration is the longest measured phase.
	MaxDuration = time.Hour
	// MaxReaction is the longest reaction time.
	MaxReaction = time.Minute
	// MaxDials is the most connections and joins in flight at once.
	MaxDials = 1000
)

// How the players of a room are spread over several servers
// (Config.Spread).
const (
	SpreadRooms   = "rooms"
	SpreadPlayers = "players"
)

// Defaults of a run.
const (
	DefaultRooms          = 10
	DefaultPlayersPerRoom = 4
	DefaultGame           = session.DefaultFirst
	DefaultDuration       = 10 * time.Second
	DefaultReactionMin    = time.Second
	DefaultReactionMax    = 3 * time.Second
	DefaultDials          = 64
)

// Config is what a run does.
type Config struct {
	// URL is the server's WebSocket endpoint, ws://127.0.0.1:PORT/ws (a
	// URL without a path means /ws), or the endpoints of several servers
	// (the nodes of a cluster), comma-separated. Only loopback addresses
	// are accepted. The rooms are created on the servers in turn: room k
	// on the server k modulo their number.
	URL string
	// Spread says how the players of a room are spread over the servers
	// of URL: SpreadRooms (the default) seats them all on the server
	// their room was created on; SpreadPlayers seats player s of room k
	// on server k+s (modulo their number), so that the players of one
	// room reach it through different servers, as the players of a
	// cluster do whose load balancer sends them anywhere.
	Spread string
	// FirstRoom is the number of this run's first room, 0 unless the run
	// is one process's share of a run split over several (RunSplit): the
	// rooms are numbered from it, for the turns over the servers, and
	// the clients from FirstRoom × PlayersPerRoom, for their names.
	FirstRoom int
	// Barrier, when set, is called at the three moments a run split over
	// several processes keeps them together, and Run waits for it to
	// return: "connected" once every client has connected, "seated" once
	// every room is filled, just before the hosts start, and "measured"
	// once the measured phase is over and its actions are settled, before
	// the servers' metrics are read and the clients close.
	Barrier func(phase string)
	// Rooms is the number of rooms, each with PlayersPerRoom clients.
	Rooms          int
	PlayersPerRoom int
	// Game is the mini-game every room plays, a name or alias of
	// rules.Lookup.
	Game string
	// Deck is the deck the rooms play with, as create names it (an
	// edition or order-Q[-M]); empty means the server's default.
	Deck string
	// Options are the game's options by name (rules.Info.Options), such
	// as Reflection's phase lengths; the server checks their values.
	Options map[string]string
	// Duration is how long the rooms play once started.
	Duration time.Duration
	// ReactionMin and ReactionMax bound the time a client takes to act
	// after it receives a view, drawn uniformly for every view. An action
	// the game's clock would end (a turn, an answer phase) goes before
	// the deadline, at three quarters of the time left at the latest.
	ReactionMin, ReactionMax time.Duration
	// Dials is the most connections (and room joins) in flight at once
	// during the ramp-up; 0 means DefaultDials.
	Dials int
	// Progress, when set, is called with a line as each phase ends.
	Progress func(line string)
	// Resume makes the clients survive a restart of the server: a client
	// whose connection drops while the rooms play (or that the server
	// closes, with 1012 for a restart or 1001 for a shutdown) dials its
	// server again (the next of several when its own does not answer,
	// or does not know the room)
	// with a back-off of 50 ms doubling to 2 s, with
	// jitter, says hello, sends resume with its room's code and its
	// seat's token, and plays on from the lobby, state or countdown it is
	// sent. It tries for ResumeWithin, and gives up when the server
	// answers the resume with an error that trying again cannot mend
	// (noRoom, badToken) three times in a row over ResumeGrace at least:
	// a server on its way down may answer so before the one replacing it
	// is up, and the nodes of a cluster before they have taken the rooms
	// of a dead node over. Report.Resume counts what came of it. Off, a dropped connection is an error and its
	// client plays no more.
	Resume bool
	// ResumeGrace is how long the servers may answer a resume with an
	// error that trying again cannot mend before a client gives up; 0
	// means DefaultResumeGrace, at most ResumeWithin.
	ResumeGrace time.Duration
	// Name is what the clients' nicknames begin with: client i says
	// hello as "Name i" ("load i" when empty), so that the seats of
	// finished games tell whose they were. At most MaxName characters.
	Name string
	// Watch, when set, is told everything each client sees and what
	// becomes of its connection (Seen), as it happens, each client's in
	// the order it saw them. It is called from the clients' goroutines,
	// some holding their client's lock: it must be quick and must not
	// call into the run.
	Watch func(Seen)
}

// MaxName is the longest Config.Name, in characters: a nickname is at
// most protocol.MaxName, and the client's number takes up to seven.
const MaxName = protocol.MaxName - 7

// Games lists the games the load clients play: every registered game,
// each played by its rules.Player.
func Games() []string {
	var names []string
	for _, g := range rules.Games() {
		names = append(names, g.Info().Name)
	}
	return names
}

// Validate reports the first setting out of range, saying what is
// accepted. It fills in the game's canonical name.
func (c *Config) Validate() error {
	if _, err := parseTargets(c.URL); err != nil {
		return err
	}
	if c.Spread == "" {
		c.Spread = SpreadRooms
	}
	if c.Spread != SpreadRooms && c.Spread != SpreadPlayers {
		return fmt.Errorf("--spread %q: use %s (a room's players on the server it was created on) or %s (on different servers)", c.Spread, SpreadRooms, SpreadPlayers)
	}
	if c.FirstRoom < 0 || c.FirstRoom > MaxConnections {
		return fmt.Errorf("first room %d: use 0 to %d", c.FirstRoom, MaxConnections)
	}
	g, err := rules.Lookup(c.Game)
	if err != nil {
		return fmt.Errorf("--game: %v", err)
	}
	info := g.Info()
	c.Game = info.Name
	for name := range c.Options {
		if !slices.ContainsFunc(info.Options, func(o rules.Option) bool { return o.Name == name }) {
			return fmt.Errorf("--option %s: %s has no such option; %s", name, info.Name, optionNames(info))
		}
	}
	switch {
	case c.Rooms < 1:
		return fmt.Errorf("--rooms %d: use 1 or more", c.Rooms)
	case c.PlayersPerRoom < info.MinPlayers || c.PlayersPerRoom > info.MaxPlayers:
		return fmt.Errorf("--players-per-room %d: %s takes %d to %d players", c.PlayersPerRoom, info.Name, info.MinPlayers, info.MaxPlayers)
	case c.Rooms*c.PlayersPerRoom > MaxConnections:
		return fmt.Errorf("--rooms %d × --players-per-room %d = %d connections: at most %d", c.Rooms, c.PlayersPerRoom, c.Rooms*c.PlayersPerRoom, MaxConnections)
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return fmt.Errorf("--duration %v: use a duration from 1ms to %v", c.Duration, MaxDuration)
	case c.ReactionMin < 0 || c.ReactionMax < c.ReactionMin || c.ReactionMax > MaxReaction:
		return fmt.Errorf("--reaction %v-%v: use MIN-MAX with 0 ≤ MIN ≤ MAX ≤ %v, such as 700ms-2s", c.ReactionMin, c.ReactionMax, MaxReaction)
	case c.ResumeGrace < 0 || c.ResumeGrace > ResumeWithin:
		return fmt.Errorf("--resume-grace %v: use a duration from 0 to %v", c.ResumeGrace, ResumeWithin)
	case c.Dials < 0 || c.Dials > MaxDials:
		return fmt.Errorf("dials %d: use 1 to %d", c.Dials, MaxDials)
	case utf8.RuneCountInString(c.Name) > MaxName || strings.ContainsFunc(c.Name, unicode.IsControl) || strings.HasPrefix(c.Name, protocol.BotPrefix):
		return fmt.Errorf("name %q: use at most %d characters, no control characters, not beginning with %q", c.Name, MaxName, protocol.BotPrefix)
	}
	return nil
}

// optionNames says which options a game takes.
func optionNames(info rules.Info) string {
	if len(info.Options) == 0 {
		return "it takes none"
	}
	var names []string
	for _, o := range info.Options {
		names = append(names, o.Name)
	}
	return "it takes " + strings.Join(names, ", ")
}

// ParseReaction reads a reaction range, MIN-MAX as Go durations
// ("700ms-2s"), or one duration for a fixed reaction time.
func ParseReaction(s string) (lo, hi time.Duration, err error) {
	bad := fmt.Errorf("--reaction %q: use MIN-MAX, two durations such as 700ms-2s (MIN ≤ MAX, at most %v)", s, MaxReaction)
	a, b, ok := cutRange(s)
	if lo, err = time.ParseDuration(a); err != nil {
		return 0, 0, bad
	}
	hi = lo
	if ok {
		if hi, err = time.ParseDuration(b); err != nil {
			return 0, 0, bad
		}
	}
	if lo < 0 || hi < lo || hi > MaxReaction {
		return 0, 0, bad
	}
	return lo, hi, nil
}

// cutRange splits "A-B" at the dash that separates two durations.
func cutRange(s string) (a, b string, ok bool) {
	for i := 1; i < len(s); i++ {
		if s[i] == '-' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// reaction draws one reaction time.
func (c *Config) reaction() time.Duration {
	if c.ReactionMax <= c.ReactionMin {
		return c.ReactionMin
	}
	return c.ReactionMin + rand.N(c.ReactionMax-c.ReactionMin+1)
}

// Report is what a run measured. Its JSON form is the output of
// dobble load --format json.
type Report struct {
	// The run: rooms, players in each, the game, the measured time and
	// the ramp-up before it, in seconds.
	Rooms          int     `json:"rooms"`
	PlayersPerRoom int     `json:"players_per_room"`
	Game           string  `json:"game"`
	Seconds        float64 `json:"seconds"`
	RampSeconds    float64 `json:"ramp_seconds"`
	// Connections is the number of clients still connected at the end of
	// the measured phase; ServerConnections what the server's metrics
	// counted then.
	Connections       int `json:"connections"`
	ServerConnections int `json:"server_connections"`
	// Claims counts the actions sent while measuring (claims, draws,
	// flips, lays, STOPs, answers, guesses, discards, takes), Accepted
	// those the server accepted, Late those refused as too late (another
	// player or the game's clock was faster, or the game ended first):
	// both are part of play. Actions splits them by kind.
	Claims     int64   `json:"claims"`
	Accepted   int64   `json:"accepted"`
	Late       int64   `json:"late"`
	ClaimsPerS float64 `json:"claims_per_s"`
	// Games counts the games (tables) played to the end, as the clients
	// saw them end.
	Games     int64   `json:"games"`
	GamesPerS float64 `json:"games_per_s"`
	// Latency from sending an action to receiving the message that
	// settles it (the update holding it, or its refusal), in
	// milliseconds, over every kind.
	P50Ms float64 `json:"p50_ms"`
	P90Ms float64 `json:"p90_ms"`
	P99Ms float64 `json:"p99_ms"`
	MaxMs float64 `json:"max_ms"`
	// Actions reports each kind of action sent, by its name ("claim",
	// "flip"…).
	Actions map[string]*ActionReport `json:"actions"`
	// Errors counts everything that went wrong, ErrorKinds by kind
	// ("connect: HTTP 503", "closed by the server: 1008 slow consumer: …"
	// with the status and reason of the server's close, "connection lost"
	// for a connection that ended without one, "refused claim: notAMatch"
	// or "refused flip: notYourTurn" with the kind of action refused,
	// "error: busy", "unsettled" for an action never answered…).
	Errors     int64            `json:"errors"`
	ErrorKinds map[string]int64 `json:"error_kinds"`
	// ServerClaims is the server's count of the seats' actions (every
	// kind, every outcome), ServerGames its count of games, both from its
	// metrics. The server's figures are those of the server running at
	// the end: after a restart (Config.Resume) its counts began again,
	// and the growth of a count over the run is taken as 0 where the
	// count went down.
	ServerClaims int64 `json:"server_claims"`
	ServerGames  int64 `json:"server_games"`
	// ServerMemory is the server's memory at the end of the measured
	// phase (its resident set, or the Go heap and stacks when the
	// metrics have no process figures); ConnBytes and RoomBytes what one
	// idle connection and one room (its seats taken, in the lobby) added
	// to it during the ramp-up.
	ServerMemory int64 `json:"server_memory_bytes"`
	// ServerCPU is the processor time the server used while measuring
	// (from its metrics, 0 when they have none), ClientCPU the time this
	// process used for all its clients: on a shared machine, CPU time a
	// an action is steadier than actions a second.
	ServerCPU float64 `json:"server_cpu_s"`
	ClientCPU float64 `json:"client_cpu_s"`
	ConnBytes int64   `json:"conn_bytes"`
	RoomBytes int64   `json:"room_bytes"`
	// Resume is what came of the clients' dropped connections, with
	// Config.Resume; nil without.
	Resume *ResumeReport `json:"resume,omitempty"`
	// Spread splits the latencies by where the players joined, with the
	// players of a room on several servers (Config.Spread SpreadPlayers);
	// nil otherwise.
	Spread *SpreadReport `json:"spread,omitempty"`
}

// SpreadReport splits the latency from an action to the message that
// settles it between the players connected to the server their room was
// created on (Same), and those connected to another (Other), whose
// actions and frames travel between the servers: in a cluster, the
// players of a room on its owner, and on another node.
type SpreadReport struct {
	Same  LatencyReport `json:"same"`
	Other LatencyReport `json:"other"`
}

// LatencyReport is the number of actions settled and their latency, in
// milliseconds.
type LatencyReport struct {
	Actions int64   `json:"actions"`
	P50Ms   float64 `json:"p50_ms"`
	P99Ms   float64 `json:"p99_ms"`
	MaxMs   float64 `json:"max_ms"`
}

// latencyOf reports a histogram's count and quantiles.
func latencyOf(h *histogram) LatencyReport {
	return LatencyReport{Actions: h.n.Load(), P50Ms: ms(h.quantile(0.50)), P99Ms: ms(h.quantile(0.99)),
		MaxMs: ms(time.Duration(h.max.Load()) * time.Microsecond)}
}

// ResumeReport counts the connections that dropped while the rooms
// played and what came of them, with Config.Resume.
type ResumeReport struct {
	// Drops counts the connections that dropped during play, DropKinds
	// them by how ("connection lost", "closed by the server: 1012 …").
	Drops     int64            `json:"drops"`
	DropKinds map[string]int64 `json:"drop_kinds"`
	// Reconnects counts the connections opened again (the WebSocket
	// handshake made), Attempts the tries, failed ones included.
	Reconnects int64 `json:"reconnects"`
	Attempts   int64 `json:"attempts"`
	// Resumed counts the clients that took their seat back and were
	// back in play (sent the table, a countdown, or the room between
	// sessions); Failed those that gave up, FailKinds them by the
	// server's error code ("noRoom", "badToken") or "gave up after 1m0s".
	Resumed   int64            `json:"resumed"`
	Failed    int64            `json:"failed"`
	FailKinds map[string]int64 `json:"fail_kinds"`
	// Unsettled counts the actions in flight when their connection
	// dropped: the server may or may not have taken them, and no client
	// saw them acknowledged.
	Unsettled int64 `json:"unsettled"`
	// Behind counts the resumes whose table was behind what the client
	// had seen acknowledged before it dropped: an earlier table, or an
	// earlier version of the same table. Each is an acknowledged action
	// lost.
	Behind int64 `json:"behind"`
	// From a drop to being back in play, in milliseconds.
	BackP50Ms float64 `json:"back_p50_ms"`
	BackP99Ms float64 `json:"back_p99_ms"`
	BackMaxMs float64 `json:"back_max_ms"`
}

// ActionReport is what a run measured of one kind of action: the actions
// sent, accepted and too late, and the latency from sending one to the
// message that settled it, in milliseconds.
type ActionReport struct {
	Sent     int64   `json:"sent"`
	Accepted int64   `json:"accepted"`
	Late     int64   `json:"late"`
	P50Ms    float64 `json:"p50_ms"`
	P99Ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
}

// errStopped is returned when the context ends a run during the ramp-up.
var errStopped = errors.New("load: stopped before the rooms started")
