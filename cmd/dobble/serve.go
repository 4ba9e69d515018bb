package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/server"
)

const serveSynopsis = `dobble serve [--addr HOST:PORT] [--db FILE] [limits]

Serves the browser client and referees games on HOST:PORT, storing finished
games in the SQLite file FILE, and prints the URL to open. Every flag can
also be set with the environment variable named in its description; a flag
given on the command line wins. Stop it with Ctrl-C.`

// serveConfig is everything dobble serve runs with: where it listens, and
// the server's own configuration.
type serveConfig struct {
	addr   string
	pprof  string
	server server.Config
}

// parseServe reads the flags and environment of dobble serve.
func parseServe(args []string, stdout io.Writer) (*serveConfig, error) {
	fs := newFlags("serve", serveSynopsis, stdout)
	defaults := server.DefaultConfig()
	def := defaults.Rooms
	var envErr error
	str := func(name, env, value, usage string) *string {
		if v := os.Getenv(env); v != "" {
			value = v
		}
		return fs.String(name, value, usage+" (env "+env+")")
	}
	dur := func(name, env string, value time.Duration, usage string) *time.Duration {
		if v := os.Getenv(env); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil && envErr == nil {
				envErr = usagef("serve: %s=%q: not a duration such as 90s or 2m (see dobble serve --help)", env, v)
			}
			value = d
		}
		return fs.Duration(name, value, usage+" (env "+env+")")
	}
	num := func(name, env string, value int, usage string) *int {
		if v := os.Getenv(env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil && envErr == nil {
				envErr = usagef("serve: %s=%q: not a whole number (see dobble serve --help)", env, v)
			}
			value = n
		}
		return fs.Int(name, value, usage+" (env "+env+")")
	}
	flt := func(name, env string, value float64, usage string) *float64 {
		if v := os.Getenv(env); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil && envErr == nil {
				envErr = usagef("serve: %s=%q: not a number (see dobble serve --help)", env, v)
			}
			value = f
		}
		return fs.Float64(name, value, usage+" (env "+env+")")
	}
	addr := str("addr", "DOBBLE_ADDR", "127.0.0.1:8080", "address to listen on")
	db := str("db", "DOBBLE_DB", defaults.DB, "SQLite file of finished games, created if missing")
	hold := dur("seat-hold", "DOBBLE_SEAT_HOLD", def.SeatHold, "how long a disconnected player's seat is held for them")
	maxRooms := num("max-rooms", "DOBBLE_MAX_ROOMS", def.MaxRooms, "most rooms open at once")
	maxConns := num("max-conns", "DOBBLE_MAX_CONNS", defaults.MaxConns, "most WebSocket connections open at once")
	roomQueue := num("room-queue", "DOBBLE_ROOM_QUEUE", def.RoomQueue, "requests a room queues; beyond that a request is refused as busy")
	connQueue := num("conn-queue", "DOBBLE_CONN_QUEUE", def.PeerQueue, "messages queued for a connection; beyond that it is closed as a slow consumer")
	saveBacklog := num("save-backlog", "DOBBLE_SAVE_BACKLOG", def.SaveBacklog, "finished games kept in memory while the database cannot store them (a full disk), to store them once it can; a game finished beyond that is not stored")
	countdown := dur("countdown", "DOBBLE_COUNTDOWN", def.Countdown, "countdown before each game")
	pick := dur("pick-time", "DOBBLE_PICK_TIME", def.PickTime, "time the loser has to pick the next mini-game before the room picks")
	lockout := num("lockout", "DOBBLE_LOCKOUT", int(def.Lockout), fmt.Sprintf("lock-out after a wrong claim or draw, in ms, for rooms that do not set their own: 0 (none) to %d", room.MaxLockout))
	rate := flt("rate", "DOBBLE_RATE", def.Rate, "messages a second a connection may send")
	burst := num("burst", "DOBBLE_BURST", def.Burst, "messages a connection may send at once")
	deckCache := num("deck-cache", "DOBBLE_DECK_CACHE", def.DeckCache, "decks kept built with their card drawings for card pictures and rooms; the least recently used is dropped first")
	cardCache := num("card-cache", "DOBBLE_CARD_CACHE", int(def.CardCache>>20), "MiB of card pictures kept drawn; the least recently used are dropped first")
	botDelay := dur("bot-delay", "DOBBLE_BOT_DELAY", def.BotDelay, "least time from a change of the table to a bot's action answering it; no bot, not even an instant one, acts sooner (1ms to 10s)")
	botRate := flt("bot-rate", "DOBBLE_BOT_RATE", def.BotRate, "actions a second the bots of a room may make on average; a bot's action beyond it is put off (counted in dobble_bot_actions_deferred_total)")
	botBurst := num("bot-burst", "DOBBLE_BOT_BURST", def.BotBurst, "actions the bots of a room may make at once")
	ping := dur("ping", "DOBBLE_PING", defaults.PingEvery, "how long a connection may be quiet before it is pinged; one that answers no ping, or takes no data, for twice that is closed")
	pprof := str("pprof", "DOBBLE_PPROF", "", "also serve Go's profiles (/debug/pprof/) on this loopback address, such as 127.0.0.1:6060")
	if err := fs.parse(args); err != nil {
		return nil, err
	}
	if envErr != nil {
		return nil, envErr
	}
	if fs.NArg() > 0 {
		return nil, usagef("serve: unexpected argument %q (see dobble serve --help)", fs.Arg(0))
	}
	c := &serveConfig{addr: *addr, pprof: *pprof,
		server: server.Config{DB: strings.TrimSpace(*db), MaxConns: *maxConns, PingEvery: *ping}}
	if c.pprof != "" {
		host, _, err := net.SplitHostPort(c.pprof)
		ip := net.ParseIP(host)
		if err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
			return nil, usagef("serve: --pprof %q: use a loopback address and port, such as 127.0.0.1:6060 (profiles are not for the network)", c.pprof)
		}
	}
	positive := func(flag string, d time.Duration) error {
		if d <= 0 {
			return usagef("serve: --%s %v: use a positive duration such as 2m", flag, d)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"seat-hold", *hold}, {"countdown", *countdown}, {"pick-time", *pick}, {"ping", *ping}, {"bot-delay", *botDelay}} {
		if err := positive(f.name, f.d); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"max-conns", *maxConns}, {"max-rooms", *maxRooms}, {"room-queue", *roomQueue}, {"conn-queue", *connQueue}, {"save-backlog", *saveBacklog}, {"burst", *burst}, {"bot-burst", *botBurst}, {"deck-cache", *deckCache}, {"card-cache", *cardCache}} {
		if f.n < 1 {
			return nil, usagef("serve: --%s %d: use 1 or more", f.name, f.n)
		}
	}
	if c.server.DB == "" {
		return nil, usagef("serve: --db is empty; give the path of the SQLite file")
	}
	// The flag speaks as the create request does (0 is none); room.Config
	// keeps Go's zero value for the default and rules.NoLockout for none.
	if *lockout < 0 || *lockout > room.MaxLockout {
		return nil, usagef("serve: --lockout %d: use 0 (no lock-out) to %d milliseconds", *lockout, room.MaxLockout)
	}
	lo := int64(*lockout)
	if lo == 0 {
		lo = rules.NoLockout
	}
	c.server.Rooms = room.Config{SeatHold: *hold, MaxRooms: *maxRooms, RoomQueue: *roomQueue, PeerQueue: *connQueue,
		Countdown: *countdown, PickTime: *pick, Lockout: lo, Rate: *rate, Burst: *burst, SaveBacklog: *saveBacklog,
		BotDelay: *botDelay, BotRate: *botRate, BotBurst: *botBurst,
		DeckCache: *deckCache, CardCache: int64(*cardCache) << 20}
	if *rate <= 0 {
		return nil, usagef("serve: --rate %v: use a positive number of messages a second", *rate)
	}
	if !(*botRate > 0) {
		return nil, usagef("serve: --bot-rate %v: use a positive number of actions a second", *botRate)
	}
	if err := c.server.Rooms.Validate(); err != nil {
		return nil, usagef("serve: %v (see dobble serve --help)", err)
	}
	return c, nil
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseServe(args, stdout)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return usagef("serve: cannot listen on %s: %v; pick another --addr", cfg.addr, err)
	}
	// Each connection holds one file; keep some for the database and the rest.
	if err := raiseFileLimit(uint64(cfg.server.MaxConns) + 1024); err != nil {
		fmt.Fprintf(stderr, "dobble: serve: warning: --max-conns %d %v\n", cfg.server.MaxConns, err)
	}
	if cfg.pprof != "" {
		pl, err := net.Listen("tcp", cfg.pprof)
		if err != nil {
			ln.Close()
			return usagef("serve: cannot listen on --pprof %s: %v", cfg.pprof, err)
		}
		defer pl.Close()
		go http.Serve(pl, profiles())
		fmt.Fprintf(stderr, "dobble: profiles on http://%s/debug/pprof/\n", pl.Addr())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return server.Serve(ctx, ln, cfg.server, func(url string) {
		fmt.Fprintf(stdout, "dobble: serving on %s (games stored in %s; Ctrl-C to stop)\n", url, cfg.server.DB)
	})
}

// profiles serves Go's runtime profiles, as package net/http/pprof does.
func profiles() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
