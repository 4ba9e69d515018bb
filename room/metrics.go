package room

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the Prometheus metrics of the rooms and connections.
type Metrics struct {
	// Rooms is the number of open rooms.
	Rooms prometheus.Gauge
	// Connections is the number of open WebSocket connections.
	Connections prometheus.Gauge
	// Claims counts the seats' actions (claims, draws, flips…) by
	// outcome: "accepted" or a refusal code ("tooLate", "notAMatch"…). The
	// ticks of a game's clock are not counted.
	Claims *prometheus.CounterVec
	// ClaimLatency is the time from a claim's arrival to its answer.
	ClaimLatency prometheus.Histogram
	// Busy counts requests dropped because a room's queue was full.
	Busy prometheus.Counter
	// SlowConsumers counts connections closed because their queue was full.
	SlowConsumers prometheus.Counter
	// Games counts finished games.
	Games prometheus.Counter
	// BotsDeferred counts the bots' actions put off because their room
	// had reached its bound on the bots' actions (Config.BotRate).
	BotsDeferred prometheus.Counter

	accepted prometheus.Counter // Claims{outcome="accepted"}, looked up once
}

// NewMetrics makes the metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Rooms:       prometheus.NewGauge(prometheus.GaugeOpts{Name: "dobble_rooms", Help: "Rooms open."}),
		Connections: prometheus.NewGauge(prometheus.GaugeOpts{Name: "dobble_connections", Help: "WebSocket connections open."}),
		Claims: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dobble_claims_total",
			Help: "Seats' actions (claims, draws, flips…) by outcome: accepted, or the refusal code."}, []string{"outcome"}),
		ClaimLatency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "dobble_claim_latency_seconds",
			Help:    "Time from a claim's arrival at the server to its answer.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1}}),
		Busy:          prometheus.NewCounter(prometheus.CounterOpts{Name: "dobble_busy_total", Help: "Requests dropped because a room's input queue was full."}),
		SlowConsumers: prometheus.NewCounter(prometheus.CounterOpts{Name: "dobble_slow_consumers_total", Help: "Connections closed because their output queue was full."}),
		Games:         prometheus.NewCounter(prometheus.CounterOpts{Name: "dobble_games_total", Help: "Games played to the end."}),
		BotsDeferred: prometheus.NewCounter(prometheus.CounterOpts{Name: "dobble_bot_actions_deferred_total",
			Help: "Bots' actions put off because their room had reached its bound on the bots' actions (--bot-rate)."}),
	}
	m.accepted = m.Claims.WithLabelValues("accepted")
	reg.MustRegister(m.Rooms, m.Connections, m.Claims, m.ClaimLatency, m.Busy, m.SlowConsumers, m.Games, m.BotsDeferred)
	return m
}
