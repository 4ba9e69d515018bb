package geom

import "math"

// Matrix is an affine transformation: the point (x, y) maps to
// (m[0][0]x + m[0][1]y + m[0][2], m[1][0]x + m[1][1]y + m[1][2]).
type Matrix [2][3]float64

// Identity is the transformation that changes nothing.
var Identity = Matrix{{1, 0, 0}, {0, 1, 0}}

// Mul returns the transformation that applies q first, then m.
func (m Matrix) Mul(q Matrix) Matrix {
	return Matrix{{
		m[0][0]*q[0][0] + m[0][1]*q[1][0],
		m[0][0]*q[0][1] + m[0][1]*q[1][1],
		m[0][0]*q[0][2] + m[0][1]*q[1][2] + m[0][2],
	}, {
		m[1][0]*q[0][0] + m[1][1]*q[1][0],
		m[1][0]*q[0][1] + m[1][1]*q[1][1],
		m[1][0]*q[0][2] + m[1][1]*q[1][2] + m[1][2],
	}}
}

// Dot returns p transformed by m.
func (m Matrix) Dot(p Point) Point {
	return Point{
		m[0][0]*p.X + m[0][1]*p.Y + m[0][2],
		m[1][0]*p.X + m[1][1]*p.Y + m[1][2],
	}
}

// Translate returns m preceded by a translation by (x, y): the
// translation applies to points first.
func (m Matrix) Translate(x, y float64) Matrix {
	return m.Mul(Matrix{{1, 0, x}, {0, 1, y}})
}

// Scale returns m preceded by a scaling by sx and sy about the origin.
func (m Matrix) Scale(sx, sy float64) Matrix {
	return m.Mul(Matrix{{sx, 0, 0}, {0, sy, 0}})
}

// Rotate returns m preceded by a rotation by deg degrees about the origin,
// from the x axis towards the y axis: counter-clockwise when y points up,
// clockwise when y points down (as SVG's rotate()).
func (m Matrix) Rotate(deg float64) Matrix {
	s, c := math.Sincos(deg * math.Pi / 180)
	return m.Mul(Matrix{{c, -s, 0}, {s, c, 0}})
}

// RotateAbout returns m preceded by a rotation by deg degrees about (x, y).
func (m Matrix) RotateAbout(deg, x, y float64) Matrix {
	return m.Translate(x, y).Rotate(deg).Translate(-x, -y)
}

// Shear returns m preceded by a shear: x grows by sx·y and y by sy·x.
func (m Matrix) Shear(sx, sy float64) Matrix {
	return m.Mul(Matrix{{1, sx, 0}, {sy, 1, 0}})
}

// Det returns the determinant of m's linear part: the factor by which it
// scales areas (negative when it mirrors).
func (m Matrix) Det() float64 {
	return m[0][0]*m[1][1] - m[0][1]*m[1][0]
}

// IsSimilarity reports whether m keeps shapes (it scales equally in every
// direction, with any rotation, mirroring and translation), so that a
// stroke's width scales by one factor, the square root of |Det|.
func (m Matrix) IsSimilarity() bool {
	a, b, c, d := m[0][0], m[0][1], m[1][0], m[1][1]
	scale := math.Abs(a*a + b*b + c*c + d*d)
	if scale == 0 {
		return false
	}
	const eps = 1e-9
	// The columns are orthogonal and of equal length.
	return math.Abs(a*b+c*d) <= eps*scale && math.Abs(a*a+c*c-b*b-d*d) <= eps*scale
}
