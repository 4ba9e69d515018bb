package metrics

import (
	"bufio"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// golden is what testRegistry's metrics expose.
const golden = `# HELP test_claims_total Claims by outcome.
# TYPE test_claims_total counter
test_claims_total{outcome="a\"b\\c\nd"} 1
test_claims_total{outcome="accepted"} 2.5
# HELP test_latency_seconds Time to answer: a "histogram" \\ with a\nsecond line.
# TYPE test_latency_seconds histogram
test_latency_seconds_bucket{le="5e-05"} 1
test_latency_seconds_bucket{le="0.001"} 1
test_latency_seconds_bucket{le="0.5"} 3
test_latency_seconds_bucket{le="+Inf"} 4
test_latency_seconds_sum 3.625030517578125
test_latency_seconds_count 4
# HELP test_requests_total Requests served.
# TYPE test_requests_total counter
test_requests_total 3
# HELP test_rooms Rooms open.
# TYPE test_rooms gauge
test_rooms -1.5
`

// testRegistry returns a registry with a counter, a gauge, a vec of two
// series and a histogram, registered out of order, holding the values of
// golden.
func testRegistry(t *testing.T) *Registry {
	t.Helper()
	reg := NewRegistry()
	requests := NewCounter(Opts{Name: "test_requests_total", Help: "Requests served."})
	rooms := NewGauge(Opts{Name: "test_rooms", Help: "Rooms open."})
	claims := NewCounterVec(Opts{Name: "test_claims_total", Help: "Claims by outcome."}, []string{"outcome"})
	latency := NewHistogram(HistogramOpts{Name: "test_latency_seconds", Help: "Time to answer: a \"histogram\" \\ with a\nsecond line.",
		Buckets: []float64{.00005, .001, .5}})
	empty := NewCounterVec(Opts{Name: "test_empty_total", Help: "No series: not written."}, []string{"x"})
	reg.MustRegister(rooms, requests, latency, claims, empty)

	requests.Inc()
	requests.Add(2)
	rooms.Set(2)
	rooms.Dec()
	rooms.Add(-3)
	rooms.Inc()
	rooms.Add(-.5)
	claims.WithLabelValues("accepted").Add(2.5)
	claims.WithLabelValues("a\"b\\c\nd").Inc()
	for _, v := range []float64{1.0 / 32768, .25, .375, 3} {
		latency.Observe(v)
	}
	return reg
}

// TestExposition checks the text a registry writes, byte for byte.
func TestExposition(t *testing.T) {
	var b strings.Builder
	if err := testRegistry(t).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != golden {
		t.Errorf("the registry wrote\n%s\nwant\n%s", b.String(), golden)
	}
}

// TestHandler checks what a registry answers to GET and HEAD.
func TestHandler(t *testing.T) {
	reg := testRegistry(t)
	rec := httptest.NewRecorder()
	reg.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); ct != "text/plain; version=0.0.4; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if rec.Code != http.StatusOK || rec.Body.String() != golden {
		t.Errorf("GET answered %d:\n%s", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	reg.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/metrics", nil))
	if rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != strconv.Itoa(len(golden)) {
		t.Errorf("HEAD answered %d bytes, Content-Length %s", rec.Body.Len(), rec.Header().Get("Content-Length"))
	}
}

// checkFormat parses the exposition text line by line and returns where
// it breaks the format's rules: each family's # HELP and then # TYPE come
// before its samples, and once; samples are of the family named last;
// families and the series of each are sorted; a histogram's buckets are
// cumulative, their bounds increasing, the last +Inf and equal to _count.
// It returns the families' types by name, and the faults.
func checkFormat(text string) (map[string]string, []string) {
	var faults []string
	types := map[string]string{}
	var (
		family, typ, lastSeries string
		helped                  bool
		lastLe                  = math.Inf(-1)
		lastBucket              = -1.0
		inf                     = -1.0
		open                    bool // a histogram's series whose _count is to come
	)
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func(format string, args ...any) {
			faults = append(faults, fmt.Sprintf("line %d %q: %s", n, line, fmt.Sprintf(format, args...)))
		}
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			name, _, _ := strings.Cut(rest, " ")
			if name <= family {
				fail("family %s after %s", name, family)
			}
			if open {
				fail("the histogram %s ended with no _count", family)
			}
			family, typ, helped, lastSeries, lastLe, lastBucket, inf = name, "", true, "", math.Inf(-1), -1, -1
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, kind, _ := strings.Cut(rest, " ")
			if name != family || !helped || typ != "" {
				fail("# TYPE not right after the # HELP of its family")
			}
			if !slices.Contains([]string{"counter", "gauge", "histogram", "summary"}, kind) {
				fail("type %q", kind)
			}
			typ, types[name] = kind, kind
			continue
		}
		if strings.HasPrefix(line, "#") || line == "" {
			fail("not a sample")
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		series, value := line[:i], line[i+1:]
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			fail("value: %v", err)
		}
		name, labels, _ := strings.Cut(series, "{")
		if typ == "" {
			fail("a sample before its family's # TYPE")
		}
		switch typ {
		case "histogram":
			switch name {
			case family + "_bucket":
				le := labels[strings.LastIndex(labels, `le="`)+4 : len(labels)-2]
				bound, err := strconv.ParseFloat(le, 64)
				if err != nil || bound <= lastLe {
					fail("bucket bound %q after %v", le, lastLe)
				}
				if v < lastBucket {
					fail("buckets not cumulative: %v after %v", v, lastBucket)
				}
				lastLe, lastBucket, open = bound, v, true
				if math.IsInf(bound, 1) {
					inf = v
				}
			case family + "_sum":
			case family + "_count":
				if inf < 0 || v != inf {
					fail("_count %v but the +Inf bucket %v", v, inf)
				}
				lastLe, lastBucket, inf, open = math.Inf(-1), -1, -1, false
			default:
				fail("not a sample of the histogram %s", family)
			}
		case "summary":
			if name != family && name != family+"_sum" && name != family+"_count" {
				fail("not a sample of the summary %s", family)
			}
		default:
			if name != family {
				fail("not a sample of %s", family)
			}
			if series <= lastSeries {
				fail("series out of order after %s", lastSeries)
			}
			lastSeries = series
		}
	}
	if open {
		faults = append(faults, "the last histogram ended with no _count")
	}
	if len(types) == 0 {
		faults = append(faults, "no families")
	}
	return types, faults
}

// TestFormatRules checks the format's rules on the metrics of the test
// registry and of the Go and process collectors.
func TestFormatRules(t *testing.T) {
	reg := testRegistry(t)
	reg.MustRegister(NewGoCollector(), NewProcessCollector())
	var b strings.Builder
	if err := reg.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	types, faults := checkFormat(b.String())
	for _, f := range faults {
		t.Error(f)
	}
	want := map[string]string{
		"test_claims_total": "counter", "test_latency_seconds": "histogram", "test_rooms": "gauge",
		"go_gc_duration_seconds": "summary", "go_goroutines": "gauge", "go_memstats_alloc_bytes_total": "counter",
		"go_memstats_heap_inuse_bytes": "gauge", "go_memstats_stack_inuse_bytes": "gauge", "go_info": "gauge",
	}
	if runtime.GOOS == "linux" {
		want["process_cpu_seconds_total"] = "counter"
		want["process_resident_memory_bytes"] = "gauge"
		want["process_open_fds"] = "gauge"
		want["process_start_time_seconds"] = "gauge"
	}
	for name, typ := range want {
		if types[name] != typ {
			t.Errorf("%s is of type %q, want %q", name, types[name], typ)
		}
	}
	if _, ok := types["test_empty_total"]; ok {
		t.Error("a vec with no series was written")
	}
	// And the checker sees a broken text for what it is.
	for _, text := range []string{
		"# HELP a x\n# TYPE a histogram\na_bucket{le=\"1\"} 2\na_bucket{le=\"+Inf\"} 1\na_sum 1\na_count 1\n",
		"# HELP a x\n# TYPE a histogram\na_bucket{le=\"1\"} 1\na_bucket{le=\"+Inf\"} 2\na_sum 1\na_count 3\n",
		"# HELP a x\n# TYPE a histogram\na_bucket{le=\"1\"} 1\na_sum 1\na_count 1\n",
		"# HELP a x\n# TYPE a histogram\na_bucket{le=\"2\"} 1\na_bucket{le=\"1\"} 1\na_bucket{le=\"+Inf\"} 1\na_sum 1\na_count 1\n",
		"# HELP a x\n# TYPE a histogram\na_bucket{le=\"+Inf\"} 1\na_sum 1\n",
		"# HELP a x\na 1\n",
		"# HELP b x\n# TYPE b gauge\nb 1\n# HELP a x\n# TYPE a gauge\na 1\n",
		"# TYPE a gauge\n# HELP a x\na 1\n",
		"# HELP a x\n# TYPE a counter\na{x=\"2\"} 1\na{x=\"1\"} 1\n",
	} {
		if _, faults := checkFormat(text); len(faults) == 0 {
			t.Errorf("the checker passed a broken text:\n%s", text)
		}
	}
}

// TestRegisterTwice checks that a name cannot be registered twice, and
// that a failed Register leaves the registry as it was.
func TestRegisterTwice(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Register(NewCounter(Opts{Name: "a_total", Help: "A."})); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(NewGauge(Opts{Name: "a_total", Help: "Another."})); err == nil {
		t.Error("a second a_total was registered")
	}
	if err := reg.Register(NewGoCollector()); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(NewGauge(Opts{Name: "go_goroutines", Help: "Again."})); err == nil {
		t.Error("a second go_goroutines was registered")
	}
	vec := NewCounterVec(Opts{Name: "v_total", Help: "V."}, []string{"l"})
	if err := reg.Register(vec.WithLabelValues("x")); err == nil {
		t.Error("a vec's series was registered on its own")
	}
	if err := reg.Register(vec); err != nil {
		t.Error(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustRegister of a name registered did not panic")
		}
	}()
	reg.MustRegister(NewCounter(Opts{Name: "v_total", Help: "V."}))
}

// TestPanics checks the constructors and Add refuse what is not valid.
func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"metric name":      func() { NewCounter(Opts{Name: "a-b"}) },
		"empty name":       func() { NewGauge(Opts{}) },
		"leading digit":    func() { NewHistogram(HistogramOpts{Name: "1a"}) },
		"label name":       func() { NewCounterVec(Opts{Name: "a"}, []string{"a:b"}) },
		"reserved label":   func() { NewCounterVec(Opts{Name: "a"}, []string{"__a"}) },
		"label twice":      func() { NewCounterVec(Opts{Name: "a"}, []string{"x", "x"}) },
		"buckets":          func() { NewHistogram(HistogramOpts{Name: "a", Buckets: []float64{1, 1}}) },
		"negative add":     func() { NewCounter(Opts{Name: "a"}).Add(-1) },
		"label values":     func() { NewCounterVec(Opts{Name: "a"}, []string{"x"}).WithLabelValues("1", "2") },
		"not UTF-8":        func() { NewCounterVec(Opts{Name: "a"}, []string{"x"}).WithLabelValues("\xff") },
		"exponential":      func() { ExponentialBuckets(0, 2, 3) },
		"exponential zero": func() { ExponentialBuckets(1, 2, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestValues checks the values the test helpers read, fractional adds, a
// +Inf last bucket, a vec of two labels, and ExponentialBuckets.
func TestValues(t *testing.T) {
	c := NewCounter(Opts{Name: "c"})
	c.Add(0.25)
	c.Inc()
	c.Add(1 << 40)
	if v := c.Value(); v != 1<<40+1.25 {
		t.Errorf("counter %v", v)
	}
	h := NewHistogram(HistogramOpts{Name: "h", Buckets: []float64{1, 2, math.Inf(1)}})
	h.Observe(1)
	h.Observe(5)
	h.Observe(math.NaN())
	fs := h.collect(nil)
	if b := fs[0].Series[0].Buckets; len(b) != 3 || b[0].Count != 1 || b[1].Count != 1 || b[2].Count != 3 || !math.IsInf(b[2].UpperBound, 1) {
		t.Errorf("buckets %v", b)
	}
	if h.Count() != 3 {
		t.Errorf("count %d", h.Count())
	}
	v := NewCounterVec(Opts{Name: "v", Help: "V."}, []string{"zone", "app"})
	v.WithLabelValues("b", "x").Inc()
	v.WithLabelValues("a", "y").Add(2)
	v.WithLabelValues("a", "y").Inc()
	if v.Len() != 2 || v.WithLabelValues("a", "y").Value() != 3 {
		t.Errorf("%d series, a/y %v", v.Len(), v.WithLabelValues("a", "y").Value())
	}
	got := string(AppendText(nil, v.collect(nil)))
	want := "# HELP v V.\n# TYPE v counter\nv{app=\"x\",zone=\"b\"} 1\nv{app=\"y\",zone=\"a\"} 3\n"
	if got != want {
		t.Errorf("vec wrote\n%s\nwant\n%s", got, want)
	}
	if b := ExponentialBuckets(0.0001, 2, 14); len(b) != 14 || b[0] != 0.0001 || b[13] != 0.8192 {
		t.Errorf("ExponentialBuckets %v", b)
	}
}

// TestConcurrent checks that increments from many goroutines at once all
// count.
func TestConcurrent(t *testing.T) {
	const goroutines, each = 16, 10000
	c := NewCounter(Opts{Name: "c"})
	g := NewGauge(Opts{Name: "g"})
	h := NewHistogram(HistogramOpts{Name: "h", Buckets: []float64{1, 2}})
	v := NewCounterVec(Opts{Name: "v"}, []string{"l"})
	var wg sync.WaitGroup
	for i := range goroutines {
		wg.Go(func() {
			label := strconv.Itoa(i % 4)
			for range each {
				c.Inc()
				c.Add(0.5)
				g.Inc()
				g.Add(2)
				g.Dec()
				h.Observe(1.5)
				v.WithLabelValues(label).Inc()
			}
		})
	}
	wg.Wait()
	const n = goroutines * each
	if c.Value() != 1.5*n || g.Value() != 2*n || h.Count() != n || h.Sum() != 1.5*n {
		t.Errorf("counter %v, gauge %v, histogram %d and %v; want %v, %v, %d and %v", c.Value(), g.Value(), h.Count(), h.Sum(), 1.5*n, 2*n, n, 1.5*n)
	}
	total := 0.0
	for i := range 4 {
		total += v.WithLabelValues(strconv.Itoa(i)).Value()
	}
	if v.Len() != 4 || total != n {
		t.Errorf("vec: %d series, %v in all; want 4 and %d", v.Len(), total, n)
	}
}

// TestNoAllocations checks that the hot paths allocate nothing.
func TestNoAllocations(t *testing.T) {
	c := NewCounter(Opts{Name: "c"})
	g := NewGauge(Opts{Name: "g"})
	h := NewHistogram(HistogramOpts{Name: "h", Buckets: ExponentialBuckets(0.0001, 2, 14)})
	big := NewHistogram(HistogramOpts{Name: "big", Buckets: ExponentialBuckets(0.0001, 1.1, 100)})
	v := NewCounterVec(Opts{Name: "v"}, []string{"outcome"})
	v2 := NewCounterVec(Opts{Name: "v2"}, []string{"a", "b"})
	v.WithLabelValues("accepted")
	v2.WithLabelValues("x", "y")
	label := strings.Repeat("tooLate", 1)
	for name, f := range map[string]func(){
		"Counter.Inc":   c.Inc,
		"Counter.Add":   func() { c.Add(2) },
		"Counter.Add.5": func() { c.Add(.5) },
		"Gauge.Set":     func() { g.Set(3) },
		"Gauge.Inc":     g.Inc,
		"Gauge.Dec":     g.Dec,
		"Gauge.Add":     func() { g.Add(-2) },
		"Observe":       func() { h.Observe(0.003) },
		"Observe.big":   func() { big.Observe(0.003) },
		"WithLabelValues": func() {
			v.WithLabelValues("accepted").Inc()
		},
		"WithLabelValues.2": func() { v2.WithLabelValues("x", "y").Inc() },
	} {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
	v.WithLabelValues(label)
	if n := testing.AllocsPerRun(1000, func() { v.WithLabelValues(label).Inc() }); n != 0 {
		t.Errorf("WithLabelValues of a computed label: %v allocations", n)
	}
}

// gathered returns the value of the family name's one series in reg.
func gathered(t *testing.T, reg *Registry, name string) (float64, bool) {
	t.Helper()
	for _, f := range reg.Gather() {
		if f.Name == name {
			return f.Series[0].Value, true
		}
	}
	return 0, false
}

// TestRuntimeCollectors checks the figures of the Go and process
// collectors: the process's CPU time and resident memory on Linux, and the
// bytes allocated, which grow as the test allocates.
func TestRuntimeCollectors(t *testing.T) {
	reg := NewRegistry()
	reg.MustRegister(NewGoCollector(), NewProcessCollector())
	before, ok := gathered(t, reg, "go_memstats_alloc_bytes_total")
	if !ok || before <= 0 {
		t.Fatalf("go_memstats_alloc_bytes_total %v", before)
	}
	var keep [][]byte
	for range 100 {
		keep = append(keep, make([]byte, 10000))
	}
	runtime.KeepAlive(keep)
	if after, _ := gathered(t, reg, "go_memstats_alloc_bytes_total"); after < before+1e6 {
		t.Errorf("go_memstats_alloc_bytes_total went from %v to %v after 1 MB allocated", before, after)
	}
	for _, name := range []string{"go_goroutines", "go_threads", "go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes", "go_memstats_sys_bytes", "go_memstats_heap_objects"} {
		if v, _ := gathered(t, reg, name); v <= 0 {
			t.Errorf("%s = %v", name, v)
		}
	}
	var version string
	for _, f := range reg.Gather() {
		if f.Name == "go_info" {
			version = f.Series[0].Labels[0].Value
		}
	}
	if version != runtime.Version() {
		t.Errorf("go_info's version %q", version)
	}
	if runtime.GOOS != "linux" {
		return
	}
	for start := 0; start < 1e8; start++ { // burn some CPU time: at least a tick
		if v, _ := gathered(t, reg, "process_cpu_seconds_total"); v > 0 {
			break
		}
	}
	for _, name := range []string{"process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_max_fds"} {
		if v, _ := gathered(t, reg, name); v <= 0 {
			t.Errorf("%s = %v", name, v)
		}
	}
	if v, _ := gathered(t, reg, "process_start_time_seconds"); v < 1.5e9 {
		t.Errorf("process_start_time_seconds = %v", v)
	}
	if rss, _ := gathered(t, reg, "process_resident_memory_bytes"); rss < 1<<20 || rss > 1<<40 {
		t.Errorf("process_resident_memory_bytes = %v", rss)
	}
}

func BenchmarkCounterInc(b *testing.B) {
	c := NewCounter(Opts{Name: "c"})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Inc()
		}
	})
}

func BenchmarkCounterAdd(b *testing.B) {
	c := NewCounter(Opts{Name: "c"})
	b.ReportAllocs()
	for b.Loop() {
		c.Add(0.5)
	}
}

func BenchmarkGaugeInc(b *testing.B) {
	g := NewGauge(Opts{Name: "g"})
	b.ReportAllocs()
	for b.Loop() {
		g.Inc()
	}
}

func BenchmarkHistogramObserve(b *testing.B) {
	h := NewHistogram(HistogramOpts{Name: "h", Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1}})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			h.Observe(0.003)
		}
	})
}

func BenchmarkWithLabelValues(b *testing.B) {
	v := NewCounterVec(Opts{Name: "v"}, []string{"outcome"})
	for _, l := range []string{"accepted", "tooLate", "notAMatch", "busy"} {
		v.WithLabelValues(l)
	}
	b.ReportAllocs()
	for b.Loop() {
		v.WithLabelValues("notAMatch").Inc()
	}
}

func BenchmarkGather(b *testing.B) {
	reg := NewRegistry()
	reg.MustRegister(NewGoCollector(), NewProcessCollector())
	b.ReportAllocs()
	for b.Loop() {
		AppendText(nil, reg.Gather())
	}
}
