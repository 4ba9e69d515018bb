package deck

import (
	"errors"
	"testing"
)

func TestCheckOrder(t *testing.T) {
	tests := []struct {
		order   int
		problem OrderProblem
		msg     string
	}{
		{6, NoPlane, "order 6: no projective plane exists; nearest: 5 (31 cards × 6 symbols) or 7 (57 cards × 8)"},
		{10, NoPlane, "order 10: no projective plane exists; nearest: 9 (91 cards × 10 symbols) or 11 (133 cards × 12)"},
		{14, NoPlane, "order 14: no projective plane exists; nearest: 13 (183 cards × 14 symbols) or 16 (273 cards × 17)"},
		{21, NoPlane, "order 21: no projective plane exists; nearest: 19 (381 cards × 20 symbols) or 23 (553 cards × 24)"},
		{12, Unknown, "order 12: nobody knows whether a projective plane exists, so none can be built; nearest: 11 (133 cards × 12 symbols) or 13 (183 cards × 14)"},
		{15, Unknown, ""},
		{20, Unknown, ""},
		{1, TooSmall, "order 1: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{0, TooSmall, ""},
		{-7, TooSmall, ""},
		{4097, TooLarge, "order 4097: too large; the largest supported order is 4096 (16781313 cards × 4097 symbols)"},
		{1 << 40, TooLarge, ""},
	}
	for _, tt := range tests {
		err := CheckOrder(tt.order)
		var oe *OrderError
		if !errors.As(err, &oe) {
			t.Fatalf("CheckOrder(%d) = %v, want an *OrderError", tt.order, err)
		}
		if oe.Problem != tt.problem {
			t.Errorf("CheckOrder(%d).Problem = %d, want %d", tt.order, oe.Problem, tt.problem)
		}
		if tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("CheckOrder(%d) = %q\nwant %q", tt.order, err, tt.msg)
		}
	}
	for _, q := range primePowersUpTo(MaxOrder) {
		if err := CheckOrder(q); err != nil {
			t.Fatalf("CheckOrder(%d) = %v", q, err)
		}
	}
	// Every non-prime-power order is refused with a working suggestion.
	for q := MinOrder; q <= MaxOrder; q++ {
		var oe *OrderError
		if err := CheckOrder(q); errors.As(err, &oe) {
			for _, near := range []int{oe.Below, oe.Above} {
				if near != 0 && CheckOrder(near) != nil {
					t.Fatalf("order %d suggests %d, which does not work", q, near)
				}
			}
			if oe.Below == 0 && oe.Above == 0 {
				t.Fatalf("order %d suggests nothing", q)
			}
		}
	}
}

func TestBruckRyser(t *testing.T) {
	// Orders ≤ 50 for which no plane exists.
	want := map[int]bool{6: true, 10: true, 14: true, 21: true, 22: true, 30: true, 33: true, 38: true, 42: true, 46: true}
	for n := 2; n <= 50; n++ {
		if got := planeRuledOut(n); got != want[n] {
			t.Errorf("planeRuledOut(%d) = %v, want %v", n, got, want[n])
		}
	}
}
