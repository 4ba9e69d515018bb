package server

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/dobble-dev/dobble/room"
)

// TestJournalObserver: each batch the journal writes is timed in
// /metrics; a failure of its upkeep (a checkpoint, a compaction: no
// entries) is counted and logged; a batch that fails is left to its
// rooms, which count and log it once.
func TestJournalObserver(t *testing.T) {
	metrics := room.NewMetrics(prometheus.NewRegistry())
	var logged bytes.Buffer
	observe := journalObserver(metrics, slog.New(slog.NewTextHandler(&logged, nil)))

	observe(5, 3*time.Millisecond, nil)
	observe(2, time.Millisecond, nil)
	if n := testutil.CollectAndCount(metrics.JournalBatches); n != 1 {
		t.Fatalf("the batch histogram has %d series, want 1", n)
	}
	if got := histogramCount(t, metrics.JournalBatches); got != 2 {
		t.Errorf("%d batches timed, want 2", got)
	}

	observe(3, time.Millisecond, errors.New("disk full"))
	if got := testutil.ToFloat64(metrics.JournalFailures); got != 0 {
		t.Errorf("a failed batch counted %v failures here; its rooms count it", got)
	}
	if got := histogramCount(t, metrics.JournalBatches); got != 2 {
		t.Errorf("a failed batch was timed: %d batches", got)
	}

	observe(0, 0, errors.New("journal: x.db: checkpoint: disk I/O error"))
	if got := testutil.ToFloat64(metrics.JournalFailures); got != 1 {
		t.Errorf("a failed checkpoint counted %v failures, want 1", got)
	}
	if !strings.Contains(logged.String(), "checkpoint: disk I/O error") {
		t.Errorf("a failed checkpoint was not logged: %q", logged.String())
	}
}

// histogramCount returns how many observations h holds.
func histogramCount(t *testing.T, h prometheus.Histogram) uint64 {
	t.Helper()
	ch := make(chan prometheus.Metric, 1)
	h.Collect(ch)
	var m dto.Metric
	if err := (<-ch).Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount()
}
