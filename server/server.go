// Package server assembles a complete dobble server: the store of
// finished games (a SQLite file or a PostgreSQL database), the room
// manager with its bots and limits, the journal of the rooms in play (a
// SQLite file, or a cluster's stream with Config.NATS, package cluster),
// the Prometheus metrics and the web handler, answering HTTP on a
// listener until it is told to stop. `dobble serve` runs it, and the
// end-to-end tests (web/e2e) run the same server in-process.
package server

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/dobble-dev/dobble/cluster"
	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/relay"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/web"
)

// Config is everything a server runs with.
type Config struct {
	// DB is the database of finished games, as store.Open takes it: the
	// path (or file:// URI) of a SQLite file, created if missing, or a
	// postgres:// URL.
	DB string
	// Journal keeps the rooms in play in a journal, so that a server
	// started again on it, after a crash or a restart, restores them;
	// JournalSync is how far each batch of entries is written before the
	// rooms go on (package journal).
	Journal     bool
	JournalSync journal.Sync
	// JournalFile is the SQLite file of the journal, created if missing.
	// Empty, it is DB itself when DB is a SQLite file, and
	// DefaultJournalFile when DB is PostgreSQL: the journal of one
	// server's rooms stays on its machine.
	JournalFile string
	// NATS, when set, is the URL of the NATS server of a cluster this
	// server is a node of, named Node (package cluster): its rooms in
	// play are journaled in the cluster's stream rather than in a SQLite
	// file, and taken over by another node should it die; a player
	// connected here plays in the rooms of the other nodes too (package
	// relay), and this node holds at most MaxRemotePeers connections made
	// to other nodes.
	NATS           string
	Node           string
	MaxRemotePeers int
	// Rooms are the rooms' limits and timings.
	Rooms room.Config
	// MaxConns is the most WebSocket connections open at once.
	MaxConns int
	// PingEvery is how long a connection may be quiet before the server
	// pings it; one that answers no ping, or takes no data, for twice that
	// is closed.
	PingEvery time.Duration
	// RTTEvery is how often each connection is pinged to measure its
	// round trip (web.Options.RTTEvery); TCPCheck checks those round
	// trips against TCP's (web.Options.TCPCheck).
	RTTEvery time.Duration
	TCPCheck bool
	// Limits bound the clients' connections; Limits.MaxSockets 0 means
	// MaxConns + ExtraSockets.
	Limits web.Limits
	// ReadTimeout is how long a client has to send an HTTP request, its
	// headers and body; IdleTimeout how long an HTTP connection is kept
	// open for the next request; WriteTimeout how long an HTTP answer may
	// take, from the end of the request's headers. None of them bounds a
	// WebSocket connection once it is open.
	ReadTimeout, IdleTimeout, WriteTimeout time.Duration
	// Log is where the server logs connections refused or closed by a
	// bound; nil logs nothing.
	Log *slog.Logger
}

// DefaultJournalFile is the journal of a server whose games go to
// PostgreSQL, when Config.JournalFile is not set.
const DefaultJournalFile = "./dobble-journal.db"

// JournalPath returns the path of the SQLite file the journal is kept in
// (see JournalFile), or an error saying why there is none.
func (c Config) JournalPath() (string, error) {
	switch {
	case c.JournalFile != "":
		if store.IsPostgres(c.JournalFile) {
			return "", fmt.Errorf("server: the journal of the rooms in play is a SQLite file of this machine, not %s; name a file", store.Redact(c.JournalFile))
		}
		return store.File(c.JournalFile)
	case store.IsPostgres(c.DB):
		return DefaultJournalFile, nil
	}
	return store.File(c.DB)
}

// ExtraSockets is how many sockets besides MaxConns a server keeps for its
// HTTP connections when Limits.MaxSockets is not set.
const ExtraSockets = 1000

// DefaultConfig returns the defaults of dobble serve: games stored in
// ./dobble.db, the rooms' defaults (room.DefaultConfig), 10,000
// connections, a ping after 20 s of quiet, a round trip measured every
// 1.5 s and checked against TCP's, the connections' defaults
// (web.DefaultLimits), and HTTP requests read within 10 s, answered
// within 30 s and their connections closed after 60 s idle.
func DefaultConfig() Config {
	return Config{DB: "./dobble.db", Journal: true, Rooms: room.DefaultConfig(), MaxConns: 10000, PingEvery: 20 * time.Second,
		RTTEvery: 2 * time.Second, TCPCheck: true,
		Limits: web.DefaultLimits(), ReadTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second, WriteTimeout: 30 * time.Second}
}

// Sockets returns the most sockets the server keeps open at once:
// Limits.MaxSockets, or MaxConns + ExtraSockets when it is not set.
func (c Config) Sockets() int {
	if c.Limits.MaxSockets > 0 {
		return c.Limits.MaxSockets
	}
	return c.MaxConns + ExtraSockets
}

// Serve opens the store, answers HTTP on ln until ctx is done, then shuts
// down gracefully: rooms closed, finished games saved, the store closed.
// ready, when not nil, is called with the server's URL (ending in a slash)
// once everything is up. Serve closes ln.
func Serve(ctx context.Context, ln net.Listener, cfg Config, ready func(url string)) error {
	defer ln.Close()
	// A configuration that cannot serve is refused before the store is
	// opened, so that it creates no file.
	if cfg.MaxConns < 1 {
		return errors.New("server: MaxConns must be 1 or more")
	}
	if err := cfg.Rooms.Validate(); err != nil {
		return err
	}
	if err := cfg.Limits.Validate(); err != nil {
		return err
	}
	if cfg.ReadTimeout < 0 || cfg.WriteTimeout < 0 || cfg.IdleTimeout < 0 {
		return errors.New("server: the HTTP timeouts must be positive, or 0 for none")
	}
	journalPath, err := cfg.JournalPath()
	if cfg.Journal && cfg.NATS == "" && err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.DB, 2*time.Second)
	if err != nil {
		return err
	}
	defer st.Close()
	reg := metrics.NewRegistry()
	reg.MustRegister(metrics.NewGoCollector(), metrics.NewProcessCollector())
	metrics := room.NewMetrics(reg)
	decks := room.NewDecks()
	rooms := cfg.Rooms
	rooms.Log = cfg.Log
	m, err := room.NewManager(rooms, st, decks, metrics, "dobble")
	if err != nil {
		return err
	}
	var health func() (map[string]any, error)
	if cfg.NATS != "" {
		if cfg.Node == "" {
			cfg.Node = cluster.DefaultName()
		}
		node, err := cluster.Start(ctx, cluster.Options{URL: cfg.NATS, Node: cfg.Node, Manager: m, Log: cfg.Log, Registerer: reg})
		if err != nil {
			m.Close()
			return err
		}
		// Deferred, it closes after the Manager (below): the rooms'
		// last entries are written first.
		defer node.Close()
		health = node.Health
	} else if cfg.Journal {
		j, err := journal.Open(ctx, journalPath, journal.Options{Sync: cfg.JournalSync, Observe: journalObserver(metrics, cfg.Log)})
		if err != nil {
			return err
		}
		defer j.Close()
		m.UseJournal(j)
		start := time.Now()
		if n, _ := m.Restore(); n > 0 && cfg.Log != nil {
			cfg.Log.Info("rooms in play restored from the journal", "rooms", n, "took", time.Since(start))
		}
	}
	var checks []func() error
	if cfg.NATS != "" {
		rc := relay.DefaultConfig()
		rc.Node, rc.Log = cfg.Node, cfg.Log
		if cfg.MaxRemotePeers > 0 {
			rc.MaxRemote = cfg.MaxRemotePeers
		}
		r, err := relay.Dial(cfg.NATS, m, rc, relay.NewMetrics(reg))
		if err != nil {
			m.Close()
			return err
		}
		// Deferred, it closes after the Manager (below): the remote
		// Peers' close frames go out first.
		defer r.Close()
		checks = append(checks, r.Health)
	}
	limits := cfg.Limits
	limits.MaxSockets = cfg.Sockets()
	h, err := web.Handler(web.Options{Manager: m, Store: st, Decks: decks, Registry: reg, Metrics: metrics,
		MaxConns: cfg.MaxConns, PingEvery: cfg.PingEvery, RTTEvery: cfg.RTTEvery, TCPCheck: cfg.TCPCheck, Limits: limits, Log: cfg.Log, Checks: checks, Cluster: health})
	if err != nil {
		m.Close()
		return err
	}
	// net/http lifts its deadlines from a connection it hands to the
	// WebSocket handler, which sets its own.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: cfg.ReadTimeout, ReadTimeout: cfg.ReadTimeout,
		WriteTimeout: cfg.WriteTimeout, IdleTimeout: cfg.IdleTimeout, ErrorLog: httpLog(cfg.Log)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(web.Listen(ln, limits, metrics, cfg.Log)) }()
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	select {
	case err := <-errc:
		m.Close()
		return err
	case <-ctx.Done():
	}
	stopping := time.Now()
	if cfg.Log != nil {
		if m.Journaled() {
			cfg.Log.Info("stopping: the rooms in play are kept in the journal, and their players are told to reconnect (1012)", "rooms", m.Rooms())
		} else {
			cfg.Log.Info("stopping: the rooms in play close, as there is no journal to keep them (1001)", "rooms", m.Rooms())
		}
	}
	m.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Hijacked WebSocket connections are not waited for by Shutdown: the
	// Manager has closed them (1012 with a journal, 1001 without); wait,
	// briefly, for their close frames to be written.
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	m.WaitGone(shutdown)
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if cfg.Log != nil {
		cfg.Log.Info("stopped", "took", time.Since(stopping).Round(100*time.Microsecond))
	}
	return nil
}

// httpLog returns the logger of net/http's own errors (a failed accept, a
// broken request): l at level warning, or the standard logger for nil.
func httpLog(l *slog.Logger) *log.Logger {
	if l == nil {
		return nil
	}
	return slog.NewLogLogger(l.Handler(), slog.LevelWarn)
}

// journalObserver times the journal's transactions in /metrics, and logs
// and counts the failures of its own upkeep (a checkpoint, a compaction):
// a batch that fails is told to the rooms whose entries it held, which
// log and count it themselves.
func journalObserver(metrics *room.Metrics, log *slog.Logger) func(entries int, took time.Duration, err error) {
	return func(entries int, took time.Duration, err error) {
		switch {
		case err == nil:
			metrics.JournalBatches.Observe(took.Seconds())
		case entries == 0:
			metrics.JournalFailures.Inc()
			if log != nil {
				log.Error("the journal of the rooms in play could not keep its file in shape; it goes on writing", "err", err)
			}
		}
	}
}
