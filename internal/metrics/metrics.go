// Package metrics is the server's metrics: counters, gauges, counters by
// label values, histograms, the Go runtime's and the process's figures,
// and a Registry that serves them all in Prometheus' text exposition
// format (version 0.0.4), so that any Prometheus server scrapes them.
//
// It exists for a lean start-up. The Prometheus client library's package
// inits, and the fifteen or so packages it pulls in (protocol buffers,
// procfs, YAML, expvar…), cost their time on every run of the binary,
// dobble --help included, while the server needs only this small part of
// it. The package does no work when it is initialised: no maps are built
// and nothing is registered until the server asks.
//
// The hot paths (Counter.Inc and Add, Gauge.Set, Inc, Dec and Add,
// Histogram.Observe, CounterVec.WithLabelValues for label values already
// seen) take no lock and allocate nothing; the work of a scrape is done
// when a Registry gathers its collectors.
package metrics

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Opts name a counter, gauge or counter vec and describe it.
type Opts struct {
	// Name is the metric's name, such as dobble_rooms; it must match
	// [a-zA-Z_:][a-zA-Z0-9_:]*.
	Name string
	// Help is the metric's description, written on its # HELP line.
	Help string
}

// HistogramOpts name a histogram, describe it and give its buckets.
type HistogramOpts struct {
	// Name is the histogram's name; it must match [a-zA-Z_:][a-zA-Z0-9_:]*.
	Name string
	// Help is the histogram's description, written on its # HELP line.
	Help string
	// Buckets are the buckets' upper bounds, in increasing order. The
	// +Inf bucket is always added; a last bound of +Inf is taken as it.
	Buckets []float64
}

// addFloat adds v to the float64 whose bits *bits holds.
func addFloat(bits *atomic.Uint64, v float64) {
	for {
		old := bits.Load()
		if bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// A Counter is a value that only goes up. Its methods are safe to call
// from many goroutines at once.
type Counter struct {
	n    atomic.Uint64 // the whole increments
	frac atomic.Uint64 // the bits of the float64 sum of the other increments
	opts Opts
	vec  bool // a series of a CounterVec, not to be registered on its own
}

// NewCounter returns a counter at 0. It panics if o.Name is not a valid
// metric name.
func NewCounter(o Opts) *Counter {
	mustName(o.Name)
	return &Counter{opts: o}
}

// Inc adds 1 to c.
func (c *Counter) Inc() { c.n.Add(1) }

// Add adds v to c. It panics if v is negative.
func (c *Counter) Add(v float64) {
	if v < 0 {
		panic("metrics: a counter cannot decrease")
	}
	if u := uint64(v); float64(u) == v {
		c.n.Add(u)
		return
	}
	addFloat(&c.frac, v)
}

// Value returns c's value, as /metrics shows it.
func (c *Counter) Value() float64 {
	return float64(c.n.Load()) + math.Float64frombits(c.frac.Load())
}

func (c *Counter) names() ([]string, error) {
	if c.vec {
		return nil, fmt.Errorf("metrics: a series of %s is registered with its vec", c.opts.Name)
	}
	return []string{c.opts.Name}, nil
}

func (c *Counter) collect(fs []Family) []Family {
	return append(fs, Family{Name: c.opts.Name, Help: c.opts.Help, Type: CounterType, Series: []Series{{Value: c.Value()}}})
}

// A Gauge is a value that goes up and down. Its methods are safe to call
// from many goroutines at once.
type Gauge struct {
	bits atomic.Uint64 // the float64's
	opts Opts
}

// NewGauge returns a gauge at 0. It panics if o.Name is not a valid metric
// name.
func NewGauge(o Opts) *Gauge {
	mustName(o.Name)
	return &Gauge{opts: o}
}

// Set sets g to v.
func (g *Gauge) Set(v float64) { g.bits.Store(math.Float64bits(v)) }

// Inc adds 1 to g.
func (g *Gauge) Inc() { addFloat(&g.bits, 1) }

// Dec takes 1 from g.
func (g *Gauge) Dec() { addFloat(&g.bits, -1) }

// Add adds v to g; v may be negative.
func (g *Gauge) Add(v float64) { addFloat(&g.bits, v) }

// Value returns g's value, as /metrics shows it.
func (g *Gauge) Value() float64 { return math.Float64frombits(g.bits.Load()) }

func (g *Gauge) names() ([]string, error) { return []string{g.opts.Name}, nil }

func (g *Gauge) collect(fs []Family) []Family {
	return append(fs, Family{Name: g.opts.Name, Help: g.opts.Help, Type: GaugeType, Series: []Series{{Value: g.Value()}}})
}

// A CounterVec is a family of counters with the same name, one a tuple of
// label values. Its methods are safe to call from many goroutines at once.
type CounterVec struct {
	opts   Opts
	labels []string
	mu     sync.Mutex                        // held to add a series
	series atomic.Pointer[map[string]*entry] // never changed once stored: a new series stores a copy
}

// entry is a series of a CounterVec.
type entry struct {
	values []string // the label values, in the order of the vec's labels
	c      Counter
}

// NewCounterVec returns a counter vec with the label names labels and no
// series yet. It panics if o.Name is not a valid metric name, or a label
// name is not valid ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __) or
// given twice.
func NewCounterVec(o Opts, labels []string) *CounterVec {
	mustName(o.Name)
	if len(labels) == 0 {
		panic("metrics: " + o.Name + ": a vec needs labels")
	}
	for i, l := range labels {
		if !validLabel(l) || slices.Contains(labels[:i], l) {
			panic(fmt.Sprintf("metrics: %s: label name %q is not valid or given twice", o.Name, l))
		}
	}
	return &CounterVec{opts: o, labels: slices.Clone(labels)}
}

// WithLabelValues returns the counter of the label values values, given in
// the order of the vec's label names, making it at 0 the first time. It
// panics if the number of values is not the number of labels, or a value
// is not valid UTF-8.
func (v *CounterVec) WithLabelValues(values ...string) *Counter {
	if len(values) != len(v.labels) {
		panic("metrics: " + v.opts.Name + ": wrong number of label values")
	}
	var key string
	if len(values) == 1 {
		key = values[0]
		if m := v.series.Load(); m != nil {
			if e, ok := (*m)[key]; ok {
				return &e.c
			}
		}
	} else {
		var buf [128]byte
		b := buf[:0]
		for i, s := range values {
			if i > 0 {
				b = append(b, 0xff) // in no valid UTF-8 string
			}
			b = append(b, s...)
		}
		if m := v.series.Load(); m != nil {
			if e, ok := (*m)[string(b)]; ok {
				return &e.c
			}
		}
		key = string(b)
	}
	return v.add(key, values)
}

// add makes the series of the label values values, of key key, unless
// another goroutine just did.
func (v *CounterVec) add(key string, values []string) *Counter {
	for _, s := range values {
		if !utf8.ValidString(s) {
			panic("metrics: " + v.opts.Name + ": a label value is not valid UTF-8")
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	old := v.series.Load()
	if old != nil {
		if e, ok := (*old)[key]; ok {
			return &e.c
		}
	}
	m := make(map[string]*entry, 1)
	if old != nil {
		m = make(map[string]*entry, len(*old)+1)
		for k, e := range *old {
			m[k] = e
		}
	}
	e := &entry{values: slices.Clone(values)}
	e.c.opts, e.c.vec = v.opts, true
	m[key] = e
	v.series.Store(&m)
	return &e.c
}

// Len returns the number of series v holds: the tuples of label values it
// was given.
func (v *CounterVec) Len() int {
	if m := v.series.Load(); m != nil {
		return len(*m)
	}
	return 0
}

func (v *CounterVec) names() ([]string, error) { return []string{v.opts.Name}, nil }

func (v *CounterVec) collect(fs []Family) []Family {
	m := v.series.Load()
	if m == nil {
		return fs
	}
	// The labels are written sorted by name, the series sorted by the
	// values in that order.
	order := make([]int, len(v.labels))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return v.labels[order[i]] < v.labels[order[j]] })
	series := make([]Series, 0, len(*m))
	for _, e := range *m {
		ls := make([]Label, len(order))
		for i, k := range order {
			ls[i] = Label{Name: v.labels[k], Value: e.values[k]}
		}
		series = append(series, Series{Labels: ls, Value: e.c.Value()})
	}
	sort.Slice(series, func(i, j int) bool { return lessLabels(series[i].Labels, series[j].Labels) })
	return append(fs, Family{Name: v.opts.Name, Help: v.opts.Help, Type: CounterType, Series: series})
}

// lessLabels orders two series of the same family by their label values.
func lessLabels(a, b []Label) bool {
	for i := range min(len(a), len(b)) {
		if a[i].Value != b[i].Value {
			return a[i].Value < b[i].Value
		}
	}
	return len(a) < len(b)
}

// A Histogram counts observations in buckets, and sums them. Its methods
// are safe to call from many goroutines at once.
type Histogram struct {
	upper  []float64       // the buckets' upper bounds, +Inf left out
	counts []atomic.Uint64 // the observations in each bucket, not cumulative; the last is +Inf's
	sum    atomic.Uint64   // the bits of the float64 sum of the observations
	opts   HistogramOpts
}

// NewHistogram returns a histogram with no observations. It panics if
// o.Name is not a valid metric name or o.Buckets are not in strictly
// increasing order.
func NewHistogram(o HistogramOpts) *Histogram {
	mustName(o.Name)
	upper := slices.Clone(o.Buckets)
	if n := len(upper); n > 0 && math.IsInf(upper[n-1], 1) {
		upper = upper[:n-1]
	}
	for i, u := range upper {
		if math.IsNaN(u) || i > 0 && u <= upper[i-1] {
			panic("metrics: " + o.Name + ": the buckets are not in strictly increasing order")
		}
	}
	o.Buckets = upper
	return &Histogram{upper: upper, counts: make([]atomic.Uint64, len(upper)+1), opts: o}
}

// ExponentialBuckets returns count bucket bounds, the first start, each
// next one factor times the last. It panics if count < 1, start <= 0 or
// factor <= 1.
func ExponentialBuckets(start, factor float64, count int) []float64 {
	if count < 1 || start <= 0 || factor <= 1 {
		panic("metrics: ExponentialBuckets needs count >= 1, start > 0 and factor > 1")
	}
	b := make([]float64, count)
	for i := range b {
		b[i] = start
		start *= factor
	}
	return b
}

// Observe adds the observation v to h: to the first bucket whose upper
// bound is at least v, and to the sum.
func (h *Histogram) Observe(v float64) {
	var i int
	if len(h.upper) < 32 {
		for i < len(h.upper) && !(v <= h.upper[i]) {
			i++
		}
	} else {
		i = sort.SearchFloat64s(h.upper, v)
		if math.IsNaN(v) {
			i = len(h.upper)
		}
	}
	h.counts[i].Add(1)
	addFloat(&h.sum, v)
}

// Count returns the number of observations h holds.
func (h *Histogram) Count() uint64 {
	var n uint64
	for i := range h.counts {
		n += h.counts[i].Load()
	}
	return n
}

// Sum returns the sum of the observations h holds.
func (h *Histogram) Sum() float64 { return math.Float64frombits(h.sum.Load()) }

func (h *Histogram) names() ([]string, error) { return []string{h.opts.Name}, nil }

func (h *Histogram) collect(fs []Family) []Family {
	s := Series{Buckets: make([]Bucket, len(h.upper)+1)}
	for i := range h.counts {
		s.Count += h.counts[i].Load()
		s.Buckets[i].Count = s.Count
		if i < len(h.upper) {
			s.Buckets[i].UpperBound = h.upper[i]
		} else {
			s.Buckets[i].UpperBound = math.Inf(1)
		}
	}
	s.Sum = h.Sum()
	return append(fs, Family{Name: h.opts.Name, Help: h.opts.Help, Type: HistogramType, Series: []Series{s}})
}

// validName reports whether s is a valid metric name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == ':' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// validLabel reports whether s is a valid label name that is not
// reserved.
func validLabel(s string) bool {
	return validName(s) && !strings.Contains(s, ":") && !strings.HasPrefix(s, "__")
}

// mustName panics if name is not a valid metric name.
func mustName(name string) {
	if !validName(name) {
		panic(fmt.Sprintf("metrics: %q is not a valid metric name", name))
	}
}
