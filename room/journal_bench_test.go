package room

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/journal"
)

// journalRooms is how many rooms BenchmarkJournal plays in at once, and so
// how many entries each of the journal's transactions holds: about as many
// as a server of 10,000 players writes in the journal's window of 4 ms
// (1,550 claims a second in scripts/bench-load, an entry a claim).
const journalRooms = 6

// BenchmarkJournal measures what the journal of rooms in play adds to the
// server's work for a claim. In one run it plays b.N right claims in
// Towers of four people without a journal, then b.N with one, and reports
// the processor time the whole process took for a claim each way (the
// rooms, the journal's writer, SQLite, the garbage collector):
// cpu-off-µs/claim, cpu-on-µs/claim and their ratio on/off. The
// journal's budget (at most 20 % more) is on the server's whole work a
// claim, reading and writing WebSocket frames included, which
// scripts/bench-load measures: here the difference is what to compare.
// The claims go round journalRooms rooms, a claim in each, and each round
// waits for its entries to be durable (Flush), so that each transaction
// holds about journalRooms entries, as on a busy server. A new room is
// opened, off the clock, when a game ends.
func BenchmarkJournal(b *testing.B) {
	b.ReportAllocs()
	j, err := journal.Open(context.Background(), filepath.Join(b.TempDir(), "dobble.db"), journal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	off := claimCPU(b, nil)
	on := claimCPU(b, j)
	b.ReportMetric(off.Seconds()*1e6/float64(b.N), "cpu-off-µs/claim")
	b.ReportMetric(on.Seconds()*1e6/float64(b.N), "cpu-on-µs/claim")
	b.ReportMetric(on.Seconds()/off.Seconds(), "on/off")
}

// claimCPU plays b.N right claims round journalRooms rooms, writing their
// turns to j when it is not nil, and returns the processor time the
// process took, opening rooms excepted.
func claimCPU(b *testing.B, j *journal.Journal) time.Duration {
	b.Helper()
	rooms := make([]*handRoom, journalRooms)
	var took time.Duration
	start := cpuTime(b)
	for n := 0; n < b.N; {
		for i := range rooms {
			if n == b.N {
				break
			}
			if rooms[i] == nil {
				took += cpuTime(b) - start
				rooms[i] = newHandRoom(b, "tower", 4, false, j)
				start = cpuTime(b)
			}
			h := rooms[i]
			seat := h.rng.IntN(4)
			if !h.claim(seat, seat) || h.r.phase != PhasePlay {
				rooms[i] = nil
			}
			n++
		}
		if j != nil {
			if err := j.Flush(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
	return took + cpuTime(b) - start
}

// cpuTime returns the processor time the process has taken, in user and
// system mode.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
