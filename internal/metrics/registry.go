package metrics

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Collector gives a Registry metric families when it gathers them. The
// collectors are this package's: Counter, Gauge, CounterVec, Histogram,
// and those of NewGoCollector and NewProcessCollector.
type Collector interface {
	// names returns the names of the families collect writes, or why the
	// collector cannot be registered.
	names() ([]string, error)
	// collect appends the collector's families, as they are now, to fs.
	collect(fs []Family) []Family
}

// Type is the type of a metric family.
type Type uint8

// The types of metric families.
const (
	// CounterType is a counter's: a value that only goes up.
	CounterType Type = iota
	// GaugeType is a gauge's: a value that goes up and down.
	GaugeType
	// HistogramType is a histogram's: observations counted in buckets.
	HistogramType
	// SummaryType is a summary's: the count and sum of observations and
	// some of their quantiles.
	SummaryType
)

// String returns the name of t on a # TYPE line.
func (t Type) String() string {
	switch t {
	case CounterType:
		return "counter"
	case GaugeType:
		return "gauge"
	case HistogramType:
		return "histogram"
	case SummaryType:
		return "summary"
	}
	return "untyped"
}

// A Family is a metric family as it was when gathered: its name,
// description and type, and its series.
type Family struct {
	// Name is the family's name.
	Name string
	// Help describes the family.
	Help string
	// Type is the family's type.
	Type Type
	// Series are the family's series, sorted by their label values.
	Series []Series
}

// A Series is one series of a family: its labels, and its value (a
// counter's or gauge's) or its observations (a histogram's or summary's).
type Series struct {
	// Labels are the series' labels, sorted by name.
	Labels []Label
	// Value is a counter's or gauge's value.
	Value float64
	// Count is the number of a histogram's or summary's observations.
	Count uint64
	// Sum is the sum of a histogram's or summary's observations.
	Sum float64
	// Buckets are a histogram's buckets, cumulative, the last one +Inf's.
	Buckets []Bucket
	// Quantiles are a summary's quantiles.
	Quantiles []Quantile
}

// A Label is a label's name and value.
type Label struct {
	// Name is the label's name.
	Name string
	// Value is the label's value.
	Value string
}

// A Bucket is a histogram's bucket: the observations at most UpperBound.
type Bucket struct {
	// UpperBound is the bucket's upper bound, +Inf for the last one.
	UpperBound float64
	// Count is the number of observations at most UpperBound.
	Count uint64
}

// A Quantile is one of a summary's quantiles.
type Quantile struct {
	// Quantile is which quantile, between 0 and 1.
	Quantile float64
	// Value is the quantile's value.
	Value float64
}

// A Registry holds collectors and serves their metrics, gathered at the
// time of each request, in Prometheus' text exposition format. Its methods
// are safe to call from many goroutines at once.
type Registry struct {
	mu         sync.Mutex
	names      map[string]bool // the families registered
	collectors []Collector
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{names: map[string]bool{}} }

// Register adds c to r. It returns an error, and leaves r as it was, if a
// family of c has the name of one already registered.
func (r *Registry) Register(c Collector) error {
	names, err := c.names()
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, n := range names {
		if r.names[n] || slices.Contains(names[:i], n) {
			return fmt.Errorf("metrics: %s is registered twice", n)
		}
	}
	for _, n := range names {
		r.names[n] = true
	}
	r.collectors = append(r.collectors, c)
	return nil
}

// MustRegister registers each of cs in r, and panics if one cannot be.
func (r *Registry) MustRegister(cs ...Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

// Gather returns the families of r's collectors as they are now, sorted
// by name, those with no series left out.
func (r *Registry) Gather() []Family {
	r.mu.Lock()
	cs := slices.Clone(r.collectors)
	r.mu.Unlock()
	var fs []Family
	for _, c := range cs {
		fs = c.collect(fs)
	}
	fs = slices.DeleteFunc(fs, func(f Family) bool { return len(f.Series) == 0 })
	slices.SortFunc(fs, func(a, b Family) int { return strings.Compare(a.Name, b.Name) })
	return fs
}

// ContentType is the Content-Type of the text exposition format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// WriteText writes the families of r's collectors, as they are now, to w
// in the text exposition format.
func (r *Registry) WriteText(w io.Writer) error {
	_, err := w.Write(AppendText(nil, r.Gather()))
	return err
}

// ServeHTTP answers with r's metrics in the text exposition format.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body := AppendText(nil, r.Gather())
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if req.Method != http.MethodHead {
		w.Write(body)
	}
}

// AppendText appends the families fs to b in the text exposition format
// (version 0.0.4) and returns the result: for each family its # HELP and
// # TYPE lines and then its series, one a line.
func AppendText(b []byte, fs []Family) []byte {
	for _, f := range fs {
		b = append(b, "# HELP "...)
		b = append(b, f.Name...)
		b = append(b, ' ')
		b = appendEscaped(b, f.Help, false)
		b = append(b, "\n# TYPE "...)
		b = append(b, f.Name...)
		b = append(b, ' ')
		b = append(b, f.Type.String()...)
		b = append(b, '\n')
		for _, s := range f.Series {
			switch f.Type {
			case HistogramType:
				for _, k := range s.Buckets {
					b = appendSample(b, f.Name, "_bucket", s.Labels, "le", k.UpperBound)
					b = strconv.AppendUint(b, k.Count, 10)
					b = append(b, '\n')
				}
				b = appendSums(b, f.Name, s)
			case SummaryType:
				for _, q := range s.Quantiles {
					b = appendSample(b, f.Name, "", s.Labels, "quantile", q.Quantile)
					b = appendFloat(b, q.Value)
					b = append(b, '\n')
				}
				b = appendSums(b, f.Name, s)
			default:
				b = appendSample(b, f.Name, "", s.Labels, "", 0)
				b = appendFloat(b, s.Value)
				b = append(b, '\n')
			}
		}
	}
	return b
}

// appendSums appends the _sum and _count lines of a histogram's or
// summary's series s.
func appendSums(b []byte, name string, s Series) []byte {
	b = appendSample(b, name, "_sum", s.Labels, "", 0)
	b = appendFloat(b, s.Sum)
	b = append(b, '\n')
	b = appendSample(b, name, "_count", s.Labels, "", 0)
	b = strconv.AppendUint(b, s.Count, 10)
	return append(b, '\n')
}

// appendSample appends a sample's name, name and suffix, and its labels,
// then extra="v" when extra is not empty, and the space before the value.
func appendSample(b []byte, name, suffix string, labels []Label, extra string, v float64) []byte {
	b = append(b, name...)
	b = append(b, suffix...)
	if len(labels) > 0 || extra != "" {
		b = append(b, '{')
		for i, l := range labels {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, l.Name...)
			b = append(b, `="`...)
			b = appendEscaped(b, l.Value, true)
			b = append(b, '"')
		}
		if extra != "" {
			if len(labels) > 0 {
				b = append(b, ',')
			}
			b = append(b, extra...)
			b = append(b, `="`...)
			b = appendFloat(b, v)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	return append(b, ' ')
}

// appendEscaped appends s with its backslashes and line feeds escaped,
// and its double quotes too if quote.
func appendEscaped(b []byte, s string, quote bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '"' && quote:
			b = append(b, `\"`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendFloat appends v as the format writes values: the shortest
// decimal that reads back as v, or +Inf, -Inf, NaN.
func appendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	case math.IsNaN(v):
		return append(b, "NaN"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}
