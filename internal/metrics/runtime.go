package metrics

import (
	"runtime"
	"runtime/debug"
	"time"
)

// NewGoCollector returns a collector of the Go runtime's figures, read
// when gathered, under the names Prometheus' Go collector gives them:
// go_goroutines, go_threads, go_info, go_gc_duration_seconds (a summary
// of the collections' pauses), go_gc_gomemlimit_bytes,
// go_sched_gomaxprocs_threads, and go_memstats_*, the fields of
// runtime.MemStats (go_memstats_alloc_bytes_total,
// go_memstats_heap_inuse_bytes, go_memstats_stack_inuse_bytes…).
//
// Gathering it calls runtime.ReadMemStats, which stops the world for a
// few microseconds.
func NewGoCollector() Collector { return goCollector{} }

type goCollector struct{}

// memStat is a family of go_memstats_* and how to read it.
type memStat struct {
	name, help string
	typ        Type
	value      func(*runtime.MemStats) float64
}

// memStats returns the families of go_memstats_*.
func memStats() []memStat {
	return []memStat{
		{"go_memstats_alloc_bytes", "Number of bytes allocated in heap and currently in use (runtime.MemStats.Alloc).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.Alloc) }},
		{"go_memstats_alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already (runtime.MemStats.TotalAlloc).", CounterType,
			func(m *runtime.MemStats) float64 { return float64(m.TotalAlloc) }},
		{"go_memstats_buck_hash_sys_bytes", "Number of bytes used by the profiling bucket hash table (runtime.MemStats.BuckHashSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.BuckHashSys) }},
		{"go_memstats_frees_total", "Total number of heap objects frees (runtime.MemStats.Frees).", CounterType,
			func(m *runtime.MemStats) float64 { return float64(m.Frees) }},
		{"go_memstats_gc_cpu_fraction", "The fraction of this program's available CPU time used by the GC since the program started (runtime.MemStats.GCCPUFraction).", GaugeType,
			func(m *runtime.MemStats) float64 { return m.GCCPUFraction }},
		{"go_memstats_gc_sys_bytes", "Number of bytes used for garbage collection system metadata (runtime.MemStats.GCSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.GCSys) }},
		{"go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes (runtime.MemStats.HeapAlloc).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.HeapAlloc) }},
		{"go_memstats_heap_idle_bytes", "Number of heap bytes waiting to be used (runtime.MemStats.HeapIdle).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.HeapIdle) }},
		{"go_memstats_heap_inuse_bytes", "Number of heap bytes that are in use (runtime.MemStats.HeapInuse).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.HeapInuse) }},
		{"go_memstats_heap_objects", "Number of currently allocated objects (runtime.MemStats.HeapObjects).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.HeapObjects) }},
		{"go_memstats_heap_released_bytes", "Number of heap bytes released to OS (runtime.MemStats.HeapReleased).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.HeapReleased) }},
		{"go_memstats_heap_sys_bytes", "Number of heap bytes obtained from system (runtime.MemStats.HeapSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.HeapSys) }},
		{"go_memstats_last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection (runtime.MemStats.LastGC).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.LastGC) / 1e9 }},
		{"go_memstats_mallocs_total", "Total number of heap objects allocated, both live and gc-ed (runtime.MemStats.Mallocs).", CounterType,
			func(m *runtime.MemStats) float64 { return float64(m.Mallocs) }},
		{"go_memstats_mcache_inuse_bytes", "Number of bytes in use by mcache structures (runtime.MemStats.MCacheInuse).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.MCacheInuse) }},
		{"go_memstats_mcache_sys_bytes", "Number of bytes used for mcache structures obtained from system (runtime.MemStats.MCacheSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.MCacheSys) }},
		{"go_memstats_mspan_inuse_bytes", "Number of bytes in use by mspan structures (runtime.MemStats.MSpanInuse).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.MSpanInuse) }},
		{"go_memstats_mspan_sys_bytes", "Number of bytes used for mspan structures obtained from system (runtime.MemStats.MSpanSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.MSpanSys) }},
		{"go_memstats_next_gc_bytes", "Number of heap bytes when next garbage collection will take place (runtime.MemStats.NextGC).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.NextGC) }},
		{"go_memstats_other_sys_bytes", "Number of bytes used for other system allocations (runtime.MemStats.OtherSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.OtherSys) }},
		{"go_memstats_stack_inuse_bytes", "Number of bytes in use by the stack allocator (runtime.MemStats.StackInuse).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.StackInuse) }},
		{"go_memstats_stack_sys_bytes", "Number of bytes obtained from system for stack allocator (runtime.MemStats.StackSys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.StackSys) }},
		{"go_memstats_sys_bytes", "Number of bytes obtained from system (runtime.MemStats.Sys).", GaugeType,
			func(m *runtime.MemStats) float64 { return float64(m.Sys) }},
	}
}

func (goCollector) names() ([]string, error) {
	names := []string{"go_gc_duration_seconds", "go_gc_gomemlimit_bytes", "go_goroutines", "go_info", "go_sched_gomaxprocs_threads", "go_threads"}
	for _, s := range memStats() {
		names = append(names, s.name)
	}
	return names, nil
}

func (goCollector) collect(fs []Family) []Family {
	gauge := func(name, help string, v float64) Family {
		return Family{Name: name, Help: help, Type: GaugeType, Series: []Series{{Value: v}}}
	}
	threads, _ := runtime.ThreadCreateProfile(nil)
	gc := debug.GCStats{PauseQuantiles: make([]time.Duration, 5)}
	debug.ReadGCStats(&gc)
	pauses := Series{Count: uint64(gc.NumGC), Sum: gc.PauseTotal.Seconds()}
	for i, q := range gc.PauseQuantiles {
		pauses.Quantiles = append(pauses.Quantiles, Quantile{Quantile: float64(i) / 4, Value: q.Seconds()})
	}
	fs = append(fs,
		Family{Name: "go_gc_duration_seconds", Help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.",
			Type: SummaryType, Series: []Series{pauses}},
		gauge("go_gc_gomemlimit_bytes", "Go runtime memory limit configured by the user, otherwise math.MaxInt64. This value is set by the GOMEMLIMIT environment variable, and the runtime/debug.SetMemoryLimit function.",
			float64(debug.SetMemoryLimit(-1))),
		gauge("go_goroutines", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine())),
		Family{Name: "go_info", Help: "Information about the Go environment.", Type: GaugeType,
			Series: []Series{{Labels: []Label{{Name: "version", Value: runtime.Version()}}, Value: 1}}},
		gauge("go_sched_gomaxprocs_threads", "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously.",
			float64(runtime.GOMAXPROCS(0))),
		gauge("go_threads", "Number of OS threads created.", float64(threads)),
	)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for _, s := range memStats() {
		fs = append(fs, Family{Name: s.name, Help: s.help, Type: s.typ, Series: []Series{{Value: s.value(&ms)}}})
	}
	return fs
}
