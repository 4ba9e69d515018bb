package server

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/room"
)

// TestJournalObserver: each batch the journal writes is timed in
// /metrics; a failure of its upkeep (a checkpoint, a compaction: no
// entries) is counted and logged; a batch that fails is left to its
// rooms, which count and log it once.
func TestJournalObserver(t *testing.T) {
	reg := metrics.NewRegistry()
	metrics := room.NewMetrics(reg)
	var logged bytes.Buffer
	observe := journalObserver(metrics, slog.New(slog.NewTextHandler(&logged, nil)))

	observe(5, 3*time.Millisecond, nil)
	observe(2, time.Millisecond, nil)
	if n := batchSeries(reg); n != 1 {
		t.Fatalf("the batch histogram has %d series, want 1", n)
	}
	if got := metrics.JournalBatches.Count(); got != 2 {
		t.Errorf("%d batches timed, want 2", got)
	}

	observe(3, time.Millisecond, errors.New("disk full"))
	if got := metrics.JournalFailures.Value(); got != 0 {
		t.Errorf("a failed batch counted %v failures here; its rooms count it", got)
	}
	if got := metrics.JournalBatches.Count(); got != 2 {
		t.Errorf("a failed batch was timed: %d batches", got)
	}

	observe(0, 0, errors.New("journal: x.db: checkpoint: disk I/O error"))
	if got := metrics.JournalFailures.Value(); got != 1 {
		t.Errorf("a failed checkpoint counted %v failures, want 1", got)
	}
	if !strings.Contains(logged.String(), "checkpoint: disk I/O error") {
		t.Errorf("a failed checkpoint was not logged: %q", logged.String())
	}
}

// batchSeries returns the number of series of the journal's batch
// histogram in reg.
func batchSeries(reg *metrics.Registry) int {
	for _, f := range reg.Gather() {
		if f.Name == "dobble_journal_batch_seconds" {
			return len(f.Series)
		}
	}
	return 0
}
