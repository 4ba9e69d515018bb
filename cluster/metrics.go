package cluster

import "github.com/dobble-dev/dobble/internal/metrics"

// Metrics are the Prometheus metrics of a node.
type Metrics struct {
	// Connected is 1 while the node is connected to NATS, else 0.
	Connected *metrics.Gauge
	// Leases is the number of rooms the node holds.
	Leases *metrics.Gauge
	// Takeovers counts the rooms the node took over from another.
	Takeovers *metrics.Counter
	// LeaseLosses counts the rooms the node lost, by reason: "lapsed"
	// (the node's key not renewed in time), "taken" (another node holds
	// the room's key, or another process the node's), "fenced" (another
	// node wrote to the room's journal), "failed" (a takeover that could
	// not read the journal).
	LeaseLosses *metrics.CounterVec
	// NodeRenewals counts the renewals of the node's key that succeeded.
	NodeRenewals *metrics.Counter
	// NodeRenewFailures counts the renewals of the node's key that failed.
	NodeRenewFailures *metrics.Counter
	// PublishFailures counts the writes to the journal that failed and
	// were tried again, and the purges of a journal that failed.
	PublishFailures *metrics.Counter
}

// newMetrics makes the metrics and registers them with reg, if not nil.
func newMetrics(reg *metrics.Registry) *Metrics {
	m := &Metrics{
		Connected: metrics.NewGauge(metrics.Opts{Name: "dobble_cluster_nats_connected", Help: "1 while the node is connected to NATS, else 0."}),
		Leases:    metrics.NewGauge(metrics.Opts{Name: "dobble_cluster_leases", Help: "Rooms the node holds in the directory."}),
		Takeovers: metrics.NewCounter(metrics.Opts{Name: "dobble_cluster_takeovers_total", Help: "Rooms the node took over from a node that is gone."}),
		LeaseLosses: metrics.NewCounterVec(metrics.Opts{Name: "dobble_cluster_lease_losses_total",
			Help: "Rooms the node lost, by reason: lapsed (the node's key not renewed in time), taken (another node holds the room's key), fenced (another node wrote to the room's journal), failed (a takeover that could not read the journal)."}, []string{"reason"}),
		NodeRenewals:      metrics.NewCounter(metrics.Opts{Name: "dobble_cluster_node_renewals_total", Help: "Renewals of the node's key that succeeded."}),
		NodeRenewFailures: metrics.NewCounter(metrics.Opts{Name: "dobble_cluster_node_renew_failures_total", Help: "Renewals of the node's key that failed."}),
		PublishFailures: metrics.NewCounter(metrics.Opts{Name: "dobble_cluster_journal_publish_failures_total",
			Help: "Writes to the rooms' journal stream that failed and were tried again, and purges of a room's journal that failed."}),
	}
	if reg != nil {
		reg.MustRegister(m.Connected, m.Leases, m.Takeovers, m.LeaseLosses, m.NodeRenewals, m.NodeRenewFailures, m.PublishFailures)
	}
	return m
}
