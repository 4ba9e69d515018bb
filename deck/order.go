package deck

import "fmt"

// MinOrder and MaxOrder bound the orders this package builds. Order 2 is the
// smallest plane (7 cards of 3 symbols); at order 4096 a deck has 16,781,313
// cards and its tables take about 70 MB.
const (
	MinOrder = 2
	MaxOrder = 4096
)

// OrderProblem says why an order has no deck.
type OrderProblem int

// The reasons an order is refused.
const (
	// TooSmall: the order is below MinOrder.
	TooSmall OrderProblem = iota + 1
	// TooLarge: the order is above MaxOrder.
	TooLarge
	// NoPlane: no projective plane of this order exists (order 10, or
	// ruled out by the Bruck–Ryser theorem: 6, 14, 21, 22, ...).
	NoPlane
	// Unknown: nobody knows whether a plane of this order exists (12, 15,
	// 18, 20, ...); none is known, so none can be built.
	Unknown
)

// OrderError is the error for an order that has no deck. Below and Above are
// the nearest orders that work (0 where there is none in range).
type OrderError struct {
	Order        int
	Problem      OrderProblem
	Below, Above int
}

// Error says what is wrong with the order and which orders would work, e.g.
// "order 6: no projective plane exists; nearest: 5 (31 cards × 6 symbols) or
// 7 (57 cards × 8)".
func (e *OrderError) Error() string {
	return fmt.Sprintf("order %d: %s; %s", e.Order, e.Reason(), e.Suggestion())
}

// Reason is the first half of Error: what is wrong with the order.
func (e *OrderError) Reason() string {
	switch e.Problem {
	case TooSmall:
		return "too small"
	case TooLarge:
		return "too large"
	case NoPlane:
		return "no projective plane exists"
	default:
		return "nobody knows whether a projective plane exists, so none can be built"
	}
}

// Suggestion is the second half of Error: the orders that would work.
func (e *OrderError) Suggestion() string {
	switch {
	case e.Problem == TooSmall:
		return "the smallest order is " + describeOrder(MinOrder, true)
	case e.Problem == TooLarge:
		return "the largest supported order is " + describeOrder(MaxOrder, true)
	case e.Below != 0 && e.Above != 0:
		return "nearest: " + describeOrder(e.Below, true) + " or " + describeOrder(e.Above, false)
	case e.Below != 0:
		return "nearest: " + describeOrder(e.Below, true)
	default:
		return "nearest: " + describeOrder(e.Above, true)
	}
}

// describeOrder renders "7 (57 cards × 8 symbols)", or "7 (57 cards × 8)"
// when the unit has already been named.
func describeOrder(q int, unit bool) string {
	s := fmt.Sprintf("%d (%d cards × %d", q, q*q+q+1, q+1)
	if unit {
		s += " symbols"
	}
	return s + ")"
}

// CheckOrder returns nil if a deck of order q can be built, and an
// *OrderError saying why not and what would work otherwise.
func CheckOrder(q int) error {
	switch {
	case q < MinOrder:
		return &OrderError{Order: q, Problem: TooSmall}
	case q > MaxOrder:
		return &OrderError{Order: q, Problem: TooLarge}
	case IsPrimePower(q):
		return nil
	}
	e := &OrderError{Order: q, Problem: Unknown}
	if planeRuledOut(q) {
		e.Problem = NoPlane
	}
	for b := q - 1; b >= MinOrder; b-- {
		if IsPrimePower(b) {
			e.Below = b
			break
		}
	}
	for a := q + 1; a <= MaxOrder; a++ {
		if IsPrimePower(a) {
			e.Above = a
			break
		}
	}
	return e
}

// IsPrimePower reports whether n = p^k for a prime p and k >= 1: exactly the
// orders for which this package builds a plane.
func IsPrimePower(n int) bool {
	_, _, ok := primePower(n)
	return ok
}

// planeRuledOut reports whether a plane of order n is known not to exist:
// n = 10 (Lam, Thiel and Swiercz, 1989), or n ≡ 1, 2 (mod 4) and n is not a
// sum of two squares (Bruck–Ryser, 1949).
func planeRuledOut(n int) bool {
	if n == 10 {
		return true
	}
	if n%4 != 1 && n%4 != 2 {
		return false
	}
	for a := 0; a*a <= n; a++ {
		b := n - a*a
		r := isqrt(b)
		if r*r == b {
			return false
		}
	}
	return true
}

// isqrt returns the integer square root of n >= 0.
func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}
