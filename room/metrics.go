package room

import "github.com/dobble-dev/dobble/internal/metrics"

// Metrics are the Prometheus metrics of the rooms and connections.
type Metrics struct {
	// Rooms is the number of open rooms.
	Rooms *metrics.Gauge
	// Connections is the number of open WebSocket connections.
	Connections *metrics.Gauge
	// Claims counts the seats' actions (claims, draws, flips…) by
	// outcome: "accepted" or a refusal code ("tooLate", "notAMatch"…). The
	// ticks of a game's clock are not counted.
	Claims *metrics.CounterVec
	// ClaimLatency is the time from a claim's arrival to its answer.
	ClaimLatency *metrics.Histogram
	// RTT is the connections' round trips as estimated (room.Peer.RTT),
	// one observation a measure.
	RTT *metrics.Histogram
	// FairWait is the time a room held the first valid claim of a card
	// for claims that reacted earlier (fair.go).
	FairWait *metrics.Histogram
	// Busy counts requests dropped because a room's queue was full.
	Busy *metrics.Counter
	// SlowConsumers counts connections closed because their queue was full.
	SlowConsumers *metrics.Counter
	// Games counts finished games.
	Games *metrics.Counter
	// DeckCacheDrops counts the decks ("decks") and card pictures
	// ("cards") dropped from Decks' caches for their bounds.
	DeckCacheDrops *metrics.CounterVec
	// DeckNamesRefused counts the deck names refused as no deck's, in
	// rooms and card or deck requests.
	DeckNamesRefused *metrics.Counter
	// GamesStored counts finished games stored.
	GamesStored *metrics.Counter
	// GamesLost counts finished games given up without being stored: the
	// save backlog was full, or the server stopped while the store failed.
	GamesLost *metrics.Counter
	// StoreFailures counts failed tries to store a finished game, every
	// retry included.
	StoreFailures *metrics.Counter
	// SaveBacklog is the number of finished games waiting to be stored,
	// the one being saved included.
	SaveBacklog *metrics.Gauge
	// StoreFailing is 1 from a failed save until a save succeeds, else 0.
	StoreFailing *metrics.Gauge
	// BotsDeferred counts the bots' actions put off because their room
	// had reached its bound on the bots' actions (Config.BotRate).
	BotsDeferred *metrics.Counter

	// The bounds on clients and their connections (package web).

	// Sockets is the number of TCP connections open, HTTP and WebSocket.
	Sockets *metrics.Gauge
	// Refused counts the connections refused by a bound, by reason.
	Refused *metrics.CounterVec
	// HelloTimeouts counts connections closed for not saying hello in time.
	HelloTimeouts *metrics.Counter
	// RateLimited counts the messages and control frames refused for a
	// rate limit, by scope: "connection" or "address".
	RateLimited *metrics.CounterVec
	// Addresses is the number of client addresses remembered for the
	// per-address bounds.
	Addresses *metrics.Gauge
	// AddressesEvicted counts addresses forgotten before their budgets
	// had refilled, to keep the table of addresses to its size.
	AddressesEvicted *metrics.Counter

	// RoomsRestored counts the rooms rebuilt from the journal at start.
	RoomsRestored *metrics.Counter
	// JournalFailures counts the journal's failures: entries not written,
	// rooms that could not be restored, rooms whose journal was cut.
	JournalFailures *metrics.Counter
	// JournalCut counts the entries deleted at start from the end of a
	// room's journal because they could not be replayed.
	JournalCut *metrics.Counter
	// JournalBatches is how long the journal's transactions took, one
	// observation a batch of entries written: the time an action waits,
	// beyond the journal's window, before its players hear of it.
	JournalBatches *metrics.Histogram

	accepted    *metrics.Counter // Claims{outcome="accepted"}, looked up once
	limitedConn *metrics.Counter // RateLimited{scope="connection"}
	limitedAddr *metrics.Counter // RateLimited{scope="address"}
}

// NewMetrics makes the metrics and registers them with reg.
func NewMetrics(reg *metrics.Registry) *Metrics {
	m := &Metrics{
		Rooms:       metrics.NewGauge(metrics.Opts{Name: "dobble_rooms", Help: "Rooms open."}),
		Connections: metrics.NewGauge(metrics.Opts{Name: "dobble_connections", Help: "WebSocket connections open."}),
		Claims: metrics.NewCounterVec(metrics.Opts{Name: "dobble_claims_total",
			Help: "Seats' actions (claims, draws, flips…) by outcome: accepted, or the refusal code."}, []string{"outcome"}),
		ClaimLatency: metrics.NewHistogram(metrics.HistogramOpts{Name: "dobble_claim_latency_seconds",
			Help:    "Time from a claim's arrival at the server to its answer.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1}}),
		RTT: metrics.NewHistogram(metrics.HistogramOpts{Name: "dobble_rtt_seconds",
			Help:    "Connections' round trips as estimated from WebSocket pings (--rtt-every), one observation a pong.",
			Buckets: []float64{.005, .01, .02, .04, .08, .15, .3, .6, 1.2}}),
		FairWait: metrics.NewHistogram(metrics.HistogramOpts{Name: "dobble_fair_wait_seconds",
			Help:    "Time a room held a card's first valid claim for claims that reacted earlier (--fair-cap).",
			Buckets: []float64{0, .005, .01, .02, .04, .06, .08, .1, .15, .3}}),
		Busy:          metrics.NewCounter(metrics.Opts{Name: "dobble_busy_total", Help: "Requests dropped because a room's input queue was full."}),
		SlowConsumers: metrics.NewCounter(metrics.Opts{Name: "dobble_slow_consumers_total", Help: "Connections closed because their output queue was full."}),
		Games:         metrics.NewCounter(metrics.Opts{Name: "dobble_games_total", Help: "Games played to the end."}),
		DeckCacheDrops: metrics.NewCounterVec(metrics.Opts{Name: "dobble_deck_cache_drops_total",
			Help: "Decks and card pictures dropped from the caches for their bounds (--deck-cache, --card-cache), by cache."}, []string{"cache"}),
		DeckNamesRefused: metrics.NewCounter(metrics.Opts{Name: "dobble_deck_names_refused_total",
			Help: "Deck names refused as no deck's (unknown, or not the deck's one spelling)."}),
		GamesStored: metrics.NewCounter(metrics.Opts{Name: "dobble_games_stored_total", Help: "Finished games stored in the history."}),
		GamesLost: metrics.NewCounter(metrics.Opts{Name: "dobble_games_lost_total",
			Help: "Finished games given up without being stored: the save backlog was full, or the server stopped while the store failed."}),
		StoreFailures: metrics.NewCounter(metrics.Opts{Name: "dobble_store_failures_total",
			Help: "Failed tries to store a finished game, every retry included."}),
		SaveBacklog: metrics.NewGauge(metrics.Opts{Name: "dobble_store_backlog",
			Help: "Finished games waiting to be stored, the one being saved included."}),
		StoreFailing: metrics.NewGauge(metrics.Opts{Name: "dobble_store_failing",
			Help: "1 from a failed save of a finished game until a save succeeds, else 0."}),
		BotsDeferred: metrics.NewCounter(metrics.Opts{Name: "dobble_bot_actions_deferred_total",
			Help: "Bots' actions put off because their room had reached its bound on the bots' actions (--bot-rate)."}),
		Sockets: metrics.NewGauge(metrics.Opts{Name: "dobble_sockets", Help: "TCP connections open, HTTP and WebSocket (--max-sockets)."}),
		Refused: metrics.NewCounterVec(metrics.Opts{Name: "dobble_connections_refused_total",
			Help: "Connections refused by a bound, by reason: max_sockets, max_sockets_per_addr, max_conns, max_conns_per_addr, handshake_rate, max_addrs, max_rooms_per_addr (a room, not a connection)."}, []string{"reason"}),
		HelloTimeouts: metrics.NewCounter(metrics.Opts{Name: "dobble_hello_timeouts_total", Help: "WebSocket connections closed for not saying hello within --hello-timeout."}),
		RateLimited: metrics.NewCounterVec(metrics.Opts{Name: "dobble_rate_limited_total",
			Help: "Messages and control frames refused for a rate limit, by scope: connection (--rate) or address (--addr-rate)."}, []string{"scope"}),
		Addresses: metrics.NewGauge(metrics.Opts{Name: "dobble_addresses", Help: "Client addresses remembered for the per-address bounds (--max-addrs)."}),
		AddressesEvicted: metrics.NewCounter(metrics.Opts{Name: "dobble_addresses_evicted_total",
			Help: "Client addresses forgotten before their budgets had refilled, the table of addresses being full (--max-addrs)."}),
		RoomsRestored: metrics.NewCounter(metrics.Opts{Name: "dobble_rooms_restored_total",
			Help: "Rooms in play rebuilt from the journal when the server started."}),
		JournalFailures: metrics.NewCounter(metrics.Opts{Name: "dobble_journal_failures_total",
			Help: "Failures of the journal of the rooms in play: entries not written, rooms that could not be restored, rooms whose journal was cut."}),
		JournalCut: metrics.NewCounter(metrics.Opts{Name: "dobble_journal_entries_cut_total",
			Help: "Entries deleted at start from the end of a room's journal because they could not be replayed (cut short, changed, a number missing)."}),
		JournalBatches: metrics.NewHistogram(metrics.HistogramOpts{Name: "dobble_journal_batch_seconds",
			Help:    "How long each transaction of the journal of the rooms in play took to write its batch of entries.",
			Buckets: metrics.ExponentialBuckets(0.0001, 2, 14)}),
	}
	m.accepted = m.Claims.WithLabelValues("accepted")
	m.limitedConn = m.RateLimited.WithLabelValues("connection")
	m.limitedAddr = m.RateLimited.WithLabelValues("address")
	reg.MustRegister(m.Rooms, m.Connections, m.Claims, m.ClaimLatency, m.RTT, m.FairWait, m.Busy, m.SlowConsumers, m.Games,
		m.DeckCacheDrops, m.DeckNamesRefused, m.GamesStored, m.GamesLost, m.StoreFailures, m.SaveBacklog, m.StoreFailing,
		m.BotsDeferred, m.Sockets, m.Refused, m.HelloTimeouts, m.RateLimited, m.Addresses, m.AddressesEvicted,
		m.RoomsRestored, m.JournalFailures, m.JournalCut, m.JournalBatches)
	return m
}
