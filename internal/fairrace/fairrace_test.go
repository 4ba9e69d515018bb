package fairrace

import (
	"io"
	"math"
	"net"
	"testing"
	"time"
)

func TestShareInterval(t *testing.T) {
	r := Result{Wins: [2]int{500, 500}}
	p, lo, hi := r.Share()
	if p != 0.5 || math.Abs(lo-0.469) > 0.001 || math.Abs(hi-0.531) > 0.001 {
		t.Fatalf("500 of 1000: %.3f (%.3f–%.3f); want 0.500 (0.469–0.531)", p, lo, hi)
	}
	if p, lo, hi := (Result{}).Share(); p != 0 || lo != 0 || hi != 0 {
		t.Fatalf("no race: %v %v %v", p, lo, hi)
	}
}

func TestHistogramQuantiles(t *testing.T) {
	bounds := []float64{0, .05, .1, .15, math.Inf(1)}
	before := histogram{bounds, []float64{10, 10, 10, 10, 10}}
	// 100 more observations: 50 at 0, 40 in (0.1, 0.15], 10 above.
	after := histogram{bounds, []float64{60, 60, 60, 100, 110}}
	n, p50, p99 := after.sub(before)
	if n != 100 || p50 != 0 || math.Abs(p99-0.15) > 1e-9 {
		t.Fatalf("n %d, p50 %v, p99 %v; want 100, 0 and the last finite bound, 0.15", n, p50, p99)
	}
	if n, _, _ := before.sub(before); n != 0 {
		t.Fatalf("no observation between: %d", n)
	}
}

// TestDelayConn checks that what one side writes reaches the other no
// sooner than half the round trip, whole and in order.
func TestDelayConn(t *testing.T) {
	a, b := net.Pipe()
	d := delay(a, 60*time.Millisecond)
	defer d.Close()
	start := time.Now()
	go func() {
		d.Write([]byte("one "))
		d.Write([]byte("two"))
	}()
	buf := make([]byte, 7)
	if _, err := io.ReadFull(b, buf); err != nil || string(buf) != "one two" {
		t.Fatalf("read %q (%v)", buf, err)
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Fatalf("the bytes took %v; want half the round trip, 30ms, at least", took)
	}
	start = time.Now()
	go b.Write([]byte("back"))
	buf = buf[:4]
	if _, err := io.ReadFull(d, buf); err != nil || string(buf) != "back" {
		t.Fatalf("read back %q (%v)", buf, err)
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Fatalf("the bytes back took %v; want 30ms at least", took)
	}
}
