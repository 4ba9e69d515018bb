package geom

import "math"

// Point is a point or a vector.
type Point struct {
	X, Y float64
}

// Add returns p+q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Sub returns p-q.
func (p Point) Sub(q Point) Point { return Point{p.X - q.X, p.Y - q.Y} }

// Mul returns p scaled by k.
func (p Point) Mul(k float64) Point { return Point{p.X * k, p.Y * k} }

// Dot returns the dot product of p and q.
func (p Point) Dot(q Point) float64 { return p.X*q.X + p.Y*q.Y }

// Cross returns the z component of the cross product of p and q: positive
// when q turns counter-clockwise from p in a y-up system.
func (p Point) Cross(q Point) float64 { return p.X*q.Y - p.Y*q.X }

// Length returns the length of p as a vector.
func (p Point) Length() float64 { return math.Hypot(p.X, p.Y) }

// Rot90 returns p turned by 90°: (-y, x).
func (p Point) Rot90() Point { return Point{-p.Y, p.X} }

// Normalize returns p scaled to length 1, or the zero vector for a zero p.
func (p Point) Normalize() Point {
	l := p.Length()
	if l == 0 {
		return Point{}
	}
	return Point{p.X / l, p.Y / l}
}

// Lerp returns the point a fraction t of the way from p to q.
func (p Point) Lerp(q Point, t float64) Point {
	return Point{p.X + (q.X-p.X)*t, p.Y + (q.Y-p.Y)*t}
}

// Rect is an axis-aligned rectangle from (X0, Y0) to (X1, Y1), with
// X0 ≤ X1 and Y0 ≤ Y1.
type Rect struct {
	X0, Y0, X1, Y1 float64
}

// W returns the rectangle's width.
func (r Rect) W() float64 { return r.X1 - r.X0 }

// H returns the rectangle's height.
func (r Rect) H() float64 { return r.Y1 - r.Y0 }

// add grows r to hold p.
func (r Rect) add(p Point) Rect {
	return Rect{math.Min(r.X0, p.X), math.Min(r.Y0, p.Y), math.Max(r.X1, p.X), math.Max(r.Y1, p.Y)}
}
