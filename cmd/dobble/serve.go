package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dobble-dev/dobble/cluster"
	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/relay"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/server"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/web"
)

const serveSynopsis = `dobble serve [--addr HOST:PORT] [--db FILE|postgres://USER@HOST/DB] [--nats URL [--node NAME]] [limits]

Serves the browser client and referees games on HOST:PORT, storing finished
games in the SQLite file FILE (a path or a file:// URI), or in the
PostgreSQL database of a postgres:// (or postgresql://) URL, and prints the
URL to open. Every flag can also be set with the environment variable
named in its description; a flag given on the command line wins. Stop it
with Ctrl-C (or SIGTERM).

The rooms in play are kept in a journal in FILE (with PostgreSQL, in the
SQLite file --journal-file, ./dobble-journal.db by default): every action
is written there before anyone hears of it, so that a server started again
on it, after a crash, a kill or a restart, restores every room as its
players last saw it, and they resume their seats. Stopping the server
closes the players' connections with 1012 (service restart): the browser
reconnects by itself.

While the database cannot store games (a full disk, PostgreSQL down), the
finished games wait in memory (--save-backlog) and are stored once it can;
/healthz and /metrics say so meanwhile.

With --nats the server is one node of a cluster on NATS JetStream (see
docs/CLUSTER.md): its rooms in play are journaled in the cluster's stream
instead of a SQLite file, each room's key in the bucket dobble_rooms names
the node that holds it, each node renews a lease of its own in the bucket
dobble_nodes, and when a node dies another takes its rooms over about
3 s later (the lease, then the replay), within the 5 s a cluster
promises; their players reconnect and resume.
A node cut off from NATS stops acting for its rooms once its lease
lapses.
A player may connect to any node and play in a room another node holds,
its messages relayed to that node and back (--max-remote-peers bounds
the connections a node holds for the others).

The per-address bounds count a client by its IPv4 address, or by the /64
network of its IPv6 address, and do not bound the addresses of --exempt
(by default this machine's loopback, where dobble load runs; "none" bounds
every address). Behind a reverse proxy every client has the proxy's
address: name the proxy in --trusted-proxies, and the bounds count each
client by the address the proxy forwards in X-Forwarded-For (the last one
that is not a trusted proxy's). X-Forwarded-For is never believed from
another peer. Connections refused or closed by a bound are logged on
stderr (at most one line of a kind every 10 s) and counted in /metrics
(dobble_connections_refused_total, dobble_hello_timeouts_total,
dobble_rate_limited_total…).`

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
	db := str("db", "DOBBLE_DB", defaults.DB, "database of finished games: a SQLite file (path or file:// URI), created if missing, or a PostgreSQL URL, postgres://USER[:PASSWORD]@HOST[:PORT]/DB (its tables in the first schema of ?search_path=, public by default)")
	journalFile := str("journal-file", "DOBBLE_JOURNAL_FILE", "", "SQLite file of the journal of the rooms in play, created if missing (default: the --db file; with PostgreSQL, "+server.DefaultJournalFile+")")
	hold := dur("seat-hold", "DOBBLE_SEAT_HOLD", def.SeatHold, "how long a disconnected player's seat is held for them")
	maxRooms := num("max-rooms", "DOBBLE_MAX_ROOMS", def.MaxRooms, "most rooms open at once")
	maxRoomsPerAddr := num("max-rooms-per-addr", "DOBBLE_MAX_ROOMS_PER_ADDR", def.MaxRoomsPerAddr, "most rooms the connections of one client address may have created and still open (not bounded for --exempt)")
	maxConns := num("max-conns", "DOBBLE_MAX_CONNS", defaults.MaxConns, "most WebSocket connections open at once")
	lim := defaults.Limits
	maxSockets := num("max-sockets", "DOBBLE_MAX_SOCKETS", 0, "most TCP connections open at once, HTTP and WebSocket together, each a file of the process; beyond that a new one is closed at once (0: --max-conns + "+strconv.Itoa(server.ExtraSockets)+", lowered to what the open-file limit allows)")
	maxSocketsPerAddr := num("max-sockets-per-addr", "DOBBLE_MAX_SOCKETS_PER_ADDR", lim.MaxSocketsPerAddr, "most TCP connections open at once from one peer address, HTTP and WebSocket together, trusted proxies and --exempt aside (0: no bound)")
	maxConnsPerAddr := num("max-conns-per-addr", "DOBBLE_MAX_CONNS_PER_ADDR", lim.MaxConnsPerAddr, "most WebSocket connections open at once from one client address; beyond that a handshake is answered HTTP 429 (0: no bound)")
	helloTimeout := dur("hello-timeout", "DOBBLE_HELLO_TIMEOUT", lim.HelloTimeout, "how long a new WebSocket connection has to say hello before it is closed (1008)")
	handshakeRate := flt("handshake-rate", "DOBBLE_HANDSHAKE_RATE", lim.HandshakeRate, "WebSocket handshakes a second one client address may make; beyond that a handshake is answered HTTP 429 (0: no bound)")
	handshakeBurst := num("handshake-burst", "DOBBLE_HANDSHAKE_BURST", lim.HandshakeBurst, "WebSocket handshakes one client address may make at once")
	addrRate := flt("addr-rate", "DOBBLE_ADDR_RATE", lim.AddrRate, "messages and control frames a second one client address may send, all its connections together, a budget that reconnecting does not refill (0: no bound)")
	addrBurst := num("addr-burst", "DOBBLE_ADDR_BURST", lim.AddrBurst, "messages one client address may send at once, all its connections together")
	maxAddrs := num("max-addrs", "DOBBLE_MAX_ADDRS", lim.MaxAddrs, "most client addresses remembered at once for the per-address bounds (about 300 bytes each); the one unused longest is forgotten first")
	exempt := str("exempt", "DOBBLE_EXEMPT", web.FormatNets(lim.Exempt), "networks (CIDR, comma-separated) whose clients the per-address bounds do not bound, or none")
	trusted := str("trusted-proxies", "DOBBLE_TRUSTED_PROXIES", web.FormatNets(lim.TrustedProxies), "networks (CIDR, comma-separated) of the reverse proxies whose X-Forwarded-For names the client, or none")
	readTimeout := dur("read-timeout", "DOBBLE_READ_TIMEOUT", defaults.ReadTimeout, "how long a client has to send an HTTP request, headers and body (not a WebSocket's frames)")
	writeTimeout := dur("write-timeout", "DOBBLE_WRITE_TIMEOUT", defaults.WriteTimeout, "how long an HTTP answer may take (not a WebSocket's frames)")
	idleTimeout := dur("idle-timeout", "DOBBLE_IDLE_TIMEOUT", defaults.IdleTimeout, "how long an idle HTTP connection is kept open for the next request")
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
	botStart := dur("bot-start", "DOBBLE_BOT_START", def.BotStart, "least time from the start of a game to a bot's first action, so that people see the first cards before any bot plays (1ms to 1m)")
	botRate := flt("bot-rate", "DOBBLE_BOT_RATE", def.BotRate, "actions a second the bots of a room may make on average; a bot's action beyond it is put off (counted in dobble_bot_actions_deferred_total)")
	botBurst := num("bot-burst", "DOBBLE_BOT_BURST", def.BotBurst, "actions the bots of a room may make at once")
	fairCap := dur("fair-cap", "DOBBLE_FAIR_CAP", def.FairCap, "claims are ranked by estimated reaction (arrival less the player's round trip), crediting at most this much of a round trip; 0 ranks them by arrival, for a LAN (0 to 1s)")
	botNetDelay := dur("bot-net-delay", "DOBBLE_BOT_NET_DELAY", def.BotNetDelay, "the typical network round trip the bots race through when claims are ranked by reaction (1ms to 1s)")
	rttEvery := dur("rtt-every", "DOBBLE_RTT_EVERY", defaults.RTTEvery, "how often each connection is pinged to measure its round trip, which --fair-cap credits")
	fairTCP := str("fair-tcp", "DOBBLE_FAIR_TCP", "on", "check each connection's round trip measured by pings against the kernel's TCP round trip, crediting no more than TCP shows (a client holding back its pongs gains nothing): on, or off behind a reverse proxy, where TCP ends at the proxy")
	ping := dur("ping", "DOBBLE_PING", defaults.PingEvery, "how long a connection may be quiet before it is pinged; one that answers no ping, or takes no data, for twice that is closed")
	useJournal := str("journal", "DOBBLE_JOURNAL", "on", "keep the rooms in play in a journal (--journal-file), restored by the next server on it: on, or off (rooms in play are lost when the server stops)")
	journalSync := str("journal-sync", "DOBBLE_JOURNAL_SYNC", "normal", "how far the journal of the rooms in play is written before players hear of an action: normal (safe against a crash or kill of the server; a power cut may lose the last moments) or full (synced to the disk: safe against a power cut too, at one fsync a batch)")
	natsURL := str("nats", "DOBBLE_NATS", "", "URL of the NATS server (JetStream enabled) of a cluster to run as a node of, such as nats://127.0.0.1:4222; empty runs a server on its own")
	node := str("node", "DOBBLE_NODE", "", "the node's name in the cluster, unique among its nodes (empty: this host's name and a random suffix)")
	maxRemote := num("max-remote-peers", "DOBBLE_MAX_REMOTE_PEERS", relay.DefaultConfig().MaxRemote, "most connections made to other nodes of the cluster that this node holds for its rooms; beyond that a player joining one of its rooms through another node is answered serverFull")
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
	sync, err := journal.ParseSync(*journalSync)
	if err != nil {
		return nil, usagef("serve: --journal-sync: %v", err)
	}
	if *fairTCP != "on" && *fairTCP != "off" {
		return nil, usagef("serve: --fair-tcp %q: use on or off", *fairTCP)
	}
	if *fairCap < 0 {
		return nil, usagef("serve: --fair-cap %v: use 0 (rank claims by arrival) to 1s", *fairCap)
	}
	if *useJournal != "on" && *useJournal != "off" {
		return nil, usagef("serve: --journal %q: use on or off", *useJournal)
	}
	nc, nodeName := strings.TrimSpace(*natsURL), strings.TrimSpace(*node)
	if nc != "" {
		if !strings.HasPrefix(nc, "nats://") && !strings.HasPrefix(nc, "tls://") {
			return nil, usagef("serve: --nats %q: give a NATS URL such as nats://127.0.0.1:4222", nc)
		}
		if *useJournal == "off" {
			return nil, usagef("serve: --journal off with --nats: a node of a cluster journals its rooms in the cluster's stream, for another node to take them over; drop --journal off")
		}
		if strings.TrimSpace(*journalFile) != "" {
			return nil, usagef("serve: --journal-file with --nats: a node of a cluster journals its rooms in the cluster's stream, not in a file; drop --journal-file")
		}
		if nodeName == "" {
			nodeName = cluster.DefaultName()
		}
		if err := cluster.CheckName(nodeName); err != nil {
			return nil, usagef("serve: --node: %v", err)
		}
		if *maxRemote < 1 {
			return nil, usagef("serve: --max-remote-peers %d: use 1 or more", *maxRemote)
		}
	} else if nodeName != "" {
		return nil, usagef("serve: --node %q without --nats: a node name is for a node of a cluster; give --nats too", nodeName)
	}
	c := &serveConfig{addr: *addr, pprof: *pprof,
		server: server.Config{DB: strings.TrimSpace(*db), JournalFile: strings.TrimSpace(*journalFile), NATS: nc, Node: nodeName, MaxRemotePeers: *maxRemote, Journal: *useJournal == "on", JournalSync: sync, MaxConns: *maxConns, PingEvery: *ping,
			RTTEvery: *rttEvery, TCPCheck: *fairTCP == "on",
			ReadTimeout: *readTimeout, WriteTimeout: *writeTimeout, IdleTimeout: *idleTimeout}}
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
	}{{"seat-hold", *hold}, {"countdown", *countdown}, {"pick-time", *pick}, {"ping", *ping}, {"bot-delay", *botDelay}, {"bot-start", *botStart}, {"rtt-every", *rttEvery},
		{"hello-timeout", *helloTimeout}, {"read-timeout", *readTimeout}, {"write-timeout", *writeTimeout}, {"idle-timeout", *idleTimeout}} {
		if err := positive(f.name, f.d); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"max-conns", *maxConns}, {"max-rooms", *maxRooms}, {"max-rooms-per-addr", *maxRoomsPerAddr}, {"room-queue", *roomQueue}, {"conn-queue", *connQueue}, {"save-backlog", *saveBacklog}, {"burst", *burst}, {"bot-burst", *botBurst}, {"deck-cache", *deckCache}, {"card-cache", *cardCache},
		{"handshake-burst", *handshakeBurst}, {"addr-burst", *addrBurst}, {"max-addrs", *maxAddrs}} {
		if f.n < 1 {
			return nil, usagef("serve: --%s %d: use 1 or more", f.name, f.n)
		}
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"max-sockets", *maxSockets}, {"max-sockets-per-addr", *maxSocketsPerAddr}, {"max-conns-per-addr", *maxConnsPerAddr}} {
		if f.n < 0 {
			return nil, usagef("serve: --%s %d: use 0 (no bound, or the default) or more", f.name, f.n)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"handshake-rate", *handshakeRate}, {"addr-rate", *addrRate}} {
		if f.v < 0 {
			return nil, usagef("serve: --%s %v: use 0 (no bound) or a positive number a second", f.name, f.v)
		}
	}
	if *maxSockets > 0 && *maxSockets < *maxConns {
		return nil, usagef("serve: --max-sockets %d is less than --max-conns %d: every WebSocket connection is a socket; raise --max-sockets or give 0 for --max-conns + %d", *maxSockets, *maxConns, server.ExtraSockets)
	}
	lim = web.Limits{MaxSockets: *maxSockets, MaxSocketsPerAddr: *maxSocketsPerAddr, MaxConnsPerAddr: *maxConnsPerAddr,
		HelloTimeout: *helloTimeout, HandshakeRate: *handshakeRate, HandshakeBurst: *handshakeBurst,
		AddrRate: *addrRate, AddrBurst: *addrBurst, MaxAddrs: *maxAddrs}
	if lim.Exempt, err = web.ParseNets(*exempt); err != nil {
		return nil, usagef("serve: --exempt: %v", err)
	}
	if lim.TrustedProxies, err = web.ParseNets(*trusted); err != nil {
		return nil, usagef("serve: --trusted-proxies: %v", err)
	}
	c.server.Limits = lim
	if c.server.DB == "" {
		return nil, usagef("serve: --db is empty; give the path of the SQLite file, or a postgres:// URL")
	}
	if _, err := c.server.JournalPath(); err != nil && c.server.Journal {
		flag := "--db"
		if c.server.JournalFile != "" {
			flag = "--journal-file"
		}
		return nil, usagef("serve: %s: %v", flag, err)
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
	// The flag speaks as --lockout does (0 is off); room.Config keeps
	// Go's zero value for the default and room.NoFair for off.
	fc := *fairCap
	if fc == 0 {
		fc = room.NoFair
	}
	c.server.Rooms = room.Config{FairCap: fc, BotNetDelay: *botNetDelay, SeatHold: *hold, MaxRooms: *maxRooms, RoomQueue: *roomQueue, PeerQueue: *connQueue,
		Countdown: *countdown, PickTime: *pick, Lockout: lo, Rate: *rate, Burst: *burst, SaveBacklog: *saveBacklog, MaxRoomsPerAddr: *maxRoomsPerAddr,
		BotDelay: *botDelay, BotStart: *botStart, BotRate: *botRate, BotBurst: *botBurst,
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

// ownFiles is how many files dobble serve keeps open besides its sockets:
// the standard streams, the listener, the database and its journal, the
// poller, a profiles listener, with room to spare.
const ownFiles = 32

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseServe(args, stdout)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return usagef("serve: cannot listen on %s: %v; pick another --addr", cfg.addr, err)
	}
	// Each socket is a file; the process keeps ownFiles of its own (the
	// listener, the database, the poller…). When the open-file limit
	// cannot be raised for every socket, the sockets are bounded by it.
	sockets := cfg.server.Sockets()
	if limit, err := raiseFileLimit(uint64(sockets) + ownFiles); err != nil {
		most := max(0, int(limit)-ownFiles)
		fmt.Fprintf(stderr, "dobble: serve: warning: %d sockets (--max-sockets, --max-conns) %v; serving at most %d sockets\n", sockets, err, most)
		if most < 1 {
			ln.Close()
			return fmt.Errorf("serve: the open-file limit %d leaves no file for a connection (the server keeps %d of its own); raise it (ulimit -n)", limit, ownFiles)
		}
		cfg.server.Limits.MaxSockets = most
	}
	cfg.server.Log = slog.New(slog.NewTextHandler(stderr, nil))
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
		if cfg.server.NATS != "" {
			fmt.Fprintf(stdout, "dobble: serving on %s as node %s of the cluster on %s (games stored in %s; Ctrl-C to stop)\n", url, cfg.server.Node, cfg.server.NATS, store.Redact(cfg.server.DB))
			return
		}
		fmt.Fprintf(stdout, "dobble: serving on %s (games stored in %s; Ctrl-C to stop)\n", url, store.Redact(cfg.server.DB))
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
