package load

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"
)

// Latencies are kept in microseconds in a log-linear histogram: exact below
// 1024 µs, then 64 buckets for every doubling (at most 1.6% wide), up to
// 2⁴⁰ µs. Adding is lock-free, so every client records its own claims.
const (
	histLinear = 1024
	histSub    = 64
	histShift  = 6 // log2(histSub)
	histTop    = 40
	histSize   = histLinear + (histTop-10)*histSub
)

// histogram counts durations.
type histogram struct {
	counts [histSize]atomic.Int64
	n      atomic.Int64
	max    atomic.Int64 // µs
}

// bucket returns the bucket of us microseconds.
func bucket(us int64) int {
	if us < histLinear {
		return int(max(us, 0))
	}
	e := bits.Len64(uint64(us)) - 1 // 10 or more
	if e >= histTop {
		return histSize - 1
	}
	return histLinear + (e-10)*histSub + int(uint64(us)>>(e-histShift)&(histSub-1))
}

// upper returns the largest value, in µs, that falls in bucket i.
func upper(i int) int64 {
	if i < histLinear {
		return int64(i)
	}
	e := (i-histLinear)/histSub + 10
	sub := int64((i - histLinear) % histSub)
	width := int64(1) << (e - histShift)
	return int64(1)<<e + (sub+1)*width - 1
}

// add counts d.
func (h *histogram) add(d time.Duration) {
	us := d.Microseconds()
	h.counts[bucket(us)].Add(1)
	h.n.Add(1)
	for {
		m := h.max.Load()
		if us <= m || h.max.CompareAndSwap(m, us) {
			return
		}
	}
}

// quantile returns the duration below which a fraction q of the counted
// durations fall: the upper end of the bucket holding it, never more than
// the largest duration counted. It is 0 when nothing was counted.
func (h *histogram) quantile(q float64) time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := int64(q*float64(n) + 0.5)
	rank = min(max(rank, 1), n)
	var seen int64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			return time.Duration(min(upper(i), h.max.Load())) * time.Microsecond
		}
	}
	return time.Duration(h.max.Load()) * time.Microsecond
}

// merge adds the durations counted by o to h.
func (h *histogram) merge(o *histogram) {
	for i := range o.counts {
		if n := o.counts[i].Load(); n > 0 {
			h.counts[i].Add(n)
		}
	}
	h.n.Add(o.n.Load())
	if m := o.max.Load(); m > h.max.Load() {
		h.max.Store(m)
	}
}

// histJSON is the form of a histogram that a process of a run split over
// several (RunSplit) sends to the one merging them: the count, the largest
// duration, and the counted buckets as [bucket, count] pairs, in order.
type histJSON struct {
	N       int64      `json:"n"`
	Max     int64      `json:"max_us"`
	Buckets [][2]int64 `json:"buckets"`
}

// MarshalJSON writes the histogram's buckets, so that it can be merged
// with another's exactly.
func (h *histogram) MarshalJSON() ([]byte, error) {
	j := histJSON{N: h.n.Load(), Max: h.max.Load(), Buckets: [][2]int64{}}
	for i := range h.counts {
		if n := h.counts[i].Load(); n > 0 {
			j.Buckets = append(j.Buckets, [2]int64{int64(i), n})
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a histogram written by MarshalJSON into h, which
// must be empty. It refuses buckets out of range, negative counts, and
// counts that do not add up to the total.
func (h *histogram) UnmarshalJSON(b []byte) error {
	var j histJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	var sum int64
	for _, p := range j.Buckets {
		if p[0] < 0 || p[0] >= histSize || p[1] < 0 {
			return fmt.Errorf("histogram: bucket %d of %d counts: use buckets 0 to %d, counts of 0 or more", p[0], p[1], histSize-1)
		}
		h.counts[p[0]].Add(p[1])
		sum += p[1]
	}
	if sum != j.N || j.Max < 0 {
		return fmt.Errorf("histogram: the buckets count %d durations, the total says %d (largest %d µs)", sum, j.N, j.Max)
	}
	h.n.Store(j.N)
	h.max.Store(j.Max)
	return nil
}
