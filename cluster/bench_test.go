package cluster

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkAppend writes the journals of 64 rooms at once to a NATS of
// the benchmark's own, each entry 200 bytes (about a claim's). In flood,
// each room appends all its entries at once, as a room flooded with
// requests does; in one-at-a-time, each room appends its next entry once
// the last is acknowledged, as a room at human pace does. It reports the
// entries written a second, the entries a message of the stream held on
// average (the group commit), and the time from an Append to its
// acknowledgement (p50, p99).
func BenchmarkAppend(b *testing.B) {
	b.Run("flood", func(b *testing.B) { benchmarkAppend(b, false) })
	b.Run("one-at-a-time", func(b *testing.B) { benchmarkAppend(b, true) })
}

// benchmarkAppend is BenchmarkAppend, the rooms waiting for each entry
// (wait) or not.
func benchmarkAppend(b *testing.B, wait bool) {
	ns := startNATS(b)
	tn := startNode(b, ns.URL(), "bench")
	const rooms = 64
	data := []byte(fmt.Sprintf(`{"req":{"type":"claim","table":1,"symbol":12,"version":3},"peer":1,"at":1,"now":1%0170d}`, 0))
	per := max(1, b.N/rooms)
	lat := make([][]time.Duration, rooms)
	before := tn.streamMessages(b)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jid := fmt.Sprintf("BENCH%03d/%d", r, start.UnixNano())
			var done sync.WaitGroup
			lat[r] = make([]time.Duration, per)
			for i := range per {
				done.Add(1)
				sent := time.Now()
				tn.n.Append(jid, int64(i+1), data, func(err error) {
					if err != nil {
						b.Error(err)
					}
					lat[r][i] = time.Since(sent)
					done.Done()
				})
				if wait {
					done.Wait()
				}
			}
			done.Wait()
		}()
	}
	wg.Wait()
	took := time.Since(start)
	b.StopTimer()
	msgs := tn.streamMessages(b) - before
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/took.Seconds(), "entries/s")
	b.ReportMetric(float64(len(all))/float64(max(1, msgs)), "entries/msg")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkTakeOver measures the time from a node's crash to its room
// open on another node, the room a Tower with a few moves played: a
// lease (3 s), the takeover's wait, reading and replaying the journal.
func BenchmarkTakeOver(b *testing.B) {
	ns := startNATS(b)
	var total time.Duration
	for i := range b.N {
		b.StopTimer()
		a := startNode(b, ns.URL(), fmt.Sprintf("a%d", i))
		to := startNode(b, ns.URL(), fmt.Sprintf("b%d", i))
		host, guest := game(b, a)
		play(b, 6, host, guest)
		b.StartTimer()
		crashed := time.Now()
		a.crash()
		poll(b, "the room to open on the other node", func() bool { return to.m.Get(host.code) != nil })
		total += time.Since(crashed)
		b.StopTimer()
		// The next round's room is the next node's alone.
		to.m.Close()
		to.n.Close()
		to.dead = true
		b.StartTimer()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/takeover")
}

// streamMessages returns how many messages the journal stream holds.
func (tn *testNode) streamMessages(tb testing.TB) uint64 {
	tb.Helper()
	info, err := tn.n.stream.Info(tb.Context())
	if err != nil {
		tb.Fatal(err)
	}
	return info.State.Msgs
}
