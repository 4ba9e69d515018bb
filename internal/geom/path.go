package geom

import (
	"iter"
	"math"
	"strconv"
)

// Cmd is the kind of one command of a path.
type Cmd uint8

// The commands of a path. MoveToCmd starts a subpath; every subpath of a
// Path starts with one. CloseCmd draws a line back to the subpath's start
// and ends the subpath.
const (
	MoveToCmd Cmd = iota + 1
	LineToCmd
	QuadToCmd
	CubeToCmd
	CloseCmd
)

// points returns how many points a command holds.
func (c Cmd) points() int {
	switch c {
	case MoveToCmd, LineToCmd:
		return 1
	case QuadToCmd:
		return 2
	case CubeToCmd:
		return 3
	}
	return 0
}

// Path is a sequence of subpaths made of lines and quadratic and cubic
// Bézier curves. The zero Path is empty and ready to use. Building methods
// (MoveTo, LineTo, …, Append) change the path; Transform, Translate,
// Flatten and Stroke return new paths and leave it as it is.
type Path struct {
	cmds []Cmd
	pts  []Point
	// start is the start of the last subpath.
	start Point
}

// Segment is one command of a path with the points it needs: Start is the
// current point before it, and P holds its points (the control points,
// then the end point) as far as the command has them. For CloseCmd, End
// is the subpath's start.
type Segment struct {
	Cmd   Cmd
	Start Point
	P     [3]Point
}

// End returns the point the segment ends at.
func (s Segment) End() Point {
	switch s.Cmd {
	case QuadToCmd:
		return s.P[1]
	case CubeToCmd:
		return s.P[2]
	}
	return s.P[0]
}

// Segments returns the path's commands in order.
func (p *Path) Segments() iter.Seq[Segment] {
	return func(yield func(Segment) bool) {
		var cur, start Point
		j := 0
		for _, c := range p.cmds {
			s := Segment{Cmd: c, Start: cur}
			n := c.points()
			copy(s.P[:], p.pts[j:j+n])
			j += n
			switch c {
			case MoveToCmd:
				start = s.P[0]
			case CloseCmd:
				s.P[0] = start
			}
			cur = s.End()
			if !yield(s) {
				return
			}
		}
	}
}

// Empty reports whether the path draws nothing: it has no commands other
// than MoveTo.
func (p *Path) Empty() bool {
	for _, c := range p.cmds {
		if c != MoveToCmd {
			return false
		}
	}
	return true
}

// current returns the current point.
func (p *Path) current() Point {
	if len(p.cmds) == 0 || p.cmds[len(p.cmds)-1] == CloseCmd {
		return p.start
	}
	return p.pts[len(p.pts)-1]
}

// ensureSubpath starts a subpath at the current point when a drawing
// command comes first or after a Close, as SVG does.
func (p *Path) ensureSubpath() {
	if len(p.cmds) == 0 || p.cmds[len(p.cmds)-1] == CloseCmd {
		s := p.start
		p.cmds = append(p.cmds, MoveToCmd)
		p.pts = append(p.pts, s)
	}
}

// MoveTo starts a new subpath at (x, y). A MoveTo right after another
// replaces it.
func (p *Path) MoveTo(x, y float64) {
	pt := Point{x, y}
	p.start = pt
	if n := len(p.cmds); n > 0 && p.cmds[n-1] == MoveToCmd {
		p.pts[len(p.pts)-1] = pt
		return
	}
	p.cmds = append(p.cmds, MoveToCmd)
	p.pts = append(p.pts, pt)
}

// LineTo draws a line to (x, y).
func (p *Path) LineTo(x, y float64) {
	p.ensureSubpath()
	p.cmds = append(p.cmds, LineToCmd)
	p.pts = append(p.pts, Point{x, y})
}

// QuadTo draws a quadratic Bézier curve with control point (cx, cy) to
// (x, y).
func (p *Path) QuadTo(cx, cy, x, y float64) {
	p.ensureSubpath()
	p.cmds = append(p.cmds, QuadToCmd)
	p.pts = append(p.pts, Point{cx, cy}, Point{x, y})
}

// CubeTo draws a cubic Bézier curve with control points (c1x, c1y) and
// (c2x, c2y) to (x, y).
func (p *Path) CubeTo(c1x, c1y, c2x, c2y, x, y float64) {
	p.ensureSubpath()
	p.cmds = append(p.cmds, CubeToCmd)
	p.pts = append(p.pts, Point{c1x, c1y}, Point{c2x, c2y}, Point{x, y})
}

// Close draws a line back to the start of the subpath and ends it. It
// does nothing on an empty path or right after another Close.
func (p *Path) Close() {
	if n := len(p.cmds); n == 0 || p.cmds[n-1] == CloseCmd {
		return
	}
	p.cmds = append(p.cmds, CloseCmd)
}

// ArcTo draws an elliptical arc to (x, y) as SVG's A command does: on the
// ellipse with radii rx and ry turned by rot degrees, the large or the
// small arc, drawn in the direction of increasing angle when sweep is
// true. The arc is added as cubic Bézier curves, one for every quarter
// turn or less, which stray from the true arc by less than 0.03 % of the
// radius; the end point is exactly (x, y). Radii too small to reach
// (x, y) are scaled up, and a zero radius draws a line, as in SVG.
func (p *Path) ArcTo(rx, ry, rot float64, large, sweep bool, x, y float64) {
	p.ensureSubpath()
	p0, p1 := p.current(), Point{x, y}
	if p0 == p1 {
		return
	}
	rx, ry = math.Abs(rx), math.Abs(ry)
	if rx == 0 || ry == 0 {
		p.LineTo(x, y)
		return
	}
	sinPhi, cosPhi := math.Sincos(rot * math.Pi / 180)
	// The end-point to centre conversion of the SVG specification
	// (appendix B.2.4).
	dx, dy := (p0.X-p1.X)/2, (p0.Y-p1.Y)/2
	x1 := cosPhi*dx + sinPhi*dy
	y1 := -sinPhi*dx + cosPhi*dy
	if l := x1*x1/(rx*rx) + y1*y1/(ry*ry); l > 1 {
		s := math.Sqrt(l)
		rx, ry = rx*s, ry*s
	}
	num := rx*rx*ry*ry - rx*rx*y1*y1 - ry*ry*x1*x1
	den := rx*rx*y1*y1 + ry*ry*x1*x1
	coef := 0.0
	if den > 0 && num > 0 {
		coef = math.Sqrt(num / den)
	}
	if large == sweep {
		coef = -coef
	}
	cx1, cy1 := coef*rx*y1/ry, -coef*ry*x1/rx
	cx := cosPhi*cx1 - sinPhi*cy1 + (p0.X+p1.X)/2
	cy := sinPhi*cx1 + cosPhi*cy1 + (p0.Y+p1.Y)/2
	u := Point{(x1 - cx1) / rx, (y1 - cy1) / ry}
	v := Point{(-x1 - cx1) / rx, (-y1 - cy1) / ry}
	theta := math.Atan2(u.Y, u.X)
	delta := math.Atan2(u.Cross(v), u.Dot(v))
	if !sweep && delta > 0 {
		delta -= 2 * math.Pi
	} else if sweep && delta < 0 {
		delta += 2 * math.Pi
	}
	if math.IsNaN(theta) || math.IsNaN(delta) {
		p.LineTo(x, y)
		return
	}
	n := max(1, int(math.Ceil(math.Abs(delta)/(math.Pi/2)-1e-9)))
	step := delta / float64(n)
	k := 4.0 / 3 * math.Tan(step/4)
	at := func(t float64) (Point, Point) {
		s, c := math.Sincos(t)
		pt := Point{cx + rx*c*cosPhi - ry*s*sinPhi, cy + rx*c*sinPhi + ry*s*cosPhi}
		d := Point{-rx*s*cosPhi - ry*c*sinPhi, -rx*s*sinPhi + ry*c*cosPhi}
		return pt, d
	}
	start := p0
	_, d0 := at(theta)
	for i := 1; i <= n; i++ {
		t := theta + float64(i)*step
		end, d1 := at(t)
		if i == n {
			end = p1
		}
		c1 := start.Add(d0.Mul(k))
		c2 := end.Sub(d1.Mul(k))
		p.CubeTo(c1.X, c1.Y, c2.X, c2.Y, end.X, end.Y)
		start, d0 = end, d1
	}
}

// Append adds the subpaths of q to p and returns p.
func (p *Path) Append(q *Path) *Path {
	j := 0
	for _, c := range q.cmds {
		n := c.points()
		switch c {
		case MoveToCmd:
			p.MoveTo(q.pts[j].X, q.pts[j].Y)
		case CloseCmd:
			p.Close()
		default:
			p.ensureSubpath()
			p.cmds = append(p.cmds, c)
			p.pts = append(p.pts, q.pts[j:j+n]...)
		}
		j += n
	}
	return p
}

// Copy returns a copy of the path.
func (p *Path) Copy() *Path {
	return &Path{cmds: append([]Cmd(nil), p.cmds...), pts: append([]Point(nil), p.pts...), start: p.start}
}

// Transform returns the path transformed by m. Bézier curves transform
// exactly, by their points.
func (p *Path) Transform(m Matrix) *Path {
	q := &Path{cmds: append([]Cmd(nil), p.cmds...), pts: make([]Point, len(p.pts)), start: m.Dot(p.start)}
	for i, pt := range p.pts {
		q.pts[i] = m.Dot(pt)
	}
	return q
}

// Translate returns the path moved by (x, y).
func (p *Path) Translate(x, y float64) *Path {
	return p.Transform(Identity.Translate(x, y))
}

// Coords returns every point the path holds, control points included; for
// a flattened path, these are the vertices of its polylines.
func (p *Path) Coords() []Point {
	return append([]Point(nil), p.pts...)
}

// FastBounds returns the bounds of every point the path holds, control
// points included: a rectangle that contains the path, quick to compute.
func (p *Path) FastBounds() Rect {
	if len(p.pts) == 0 {
		return Rect{}
	}
	r := Rect{p.pts[0].X, p.pts[0].Y, p.pts[0].X, p.pts[0].Y}
	for _, pt := range p.pts[1:] {
		r = r.add(pt)
	}
	return r
}

// Bounds returns the smallest rectangle that contains what the path draws:
// its segments, curves included exactly. A MoveTo that nothing follows
// does not count.
func (p *Path) Bounds() Rect {
	var r Rect
	first := true
	add := func(pt Point) {
		if first {
			r, first = Rect{pt.X, pt.Y, pt.X, pt.Y}, false
			return
		}
		r = r.add(pt)
	}
	for s := range p.Segments() {
		switch s.Cmd {
		case MoveToCmd:
			continue
		case QuadToCmd:
			for _, t := range quadExtrema(s.Start, s.P[0], s.P[1]) {
				add(quadAt(s.Start, s.P[0], s.P[1], t))
			}
		case CubeToCmd:
			for _, t := range cubicExtrema(s.Start, s.P[0], s.P[1], s.P[2]) {
				add(cubicAt(s.Start, s.P[0], s.P[1], s.P[2], t))
			}
		}
		add(s.Start)
		add(s.End())
	}
	return r
}

func quadAt(p0, p1, p2 Point, t float64) Point {
	u := 1 - t
	return p0.Mul(u * u).Add(p1.Mul(2 * u * t)).Add(p2.Mul(t * t))
}

func cubicAt(p0, p1, p2, p3 Point, t float64) Point {
	u := 1 - t
	return p0.Mul(u * u * u).Add(p1.Mul(3 * u * u * t)).Add(p2.Mul(3 * u * t * t)).Add(p3.Mul(t * t * t))
}

// quadExtrema returns the parameters in (0, 1) where a quadratic Bézier
// curve turns in x or in y.
func quadExtrema(p0, p1, p2 Point) []float64 {
	var ts []float64
	for _, c := range [2][3]float64{{p0.X, p1.X, p2.X}, {p0.Y, p1.Y, p2.Y}} {
		if d := c[0] - 2*c[1] + c[2]; d != 0 {
			if t := (c[0] - c[1]) / d; t > 0 && t < 1 {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// cubicExtrema returns the parameters in (0, 1) where a cubic Bézier curve
// turns in x or in y.
func cubicExtrema(p0, p1, p2, p3 Point) []float64 {
	var ts []float64
	for _, c := range [2][4]float64{{p0.X, p1.X, p2.X, p3.X}, {p0.Y, p1.Y, p2.Y, p3.Y}} {
		// The derivative is 3(a t² + b t + c).
		a := -c[0] + 3*c[1] - 3*c[2] + c[3]
		b := 2 * (c[0] - 2*c[1] + c[2])
		k := c[1] - c[0]
		for _, t := range quadRoots(a, b, k) {
			if t > 0 && t < 1 {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// quadRoots returns the real roots of a t² + b t + c.
func quadRoots(a, b, c float64) []float64 {
	scale := math.Max(math.Abs(a), math.Max(math.Abs(b), math.Abs(c)))
	if scale == 0 {
		return nil
	}
	if math.Abs(a) <= 1e-12*scale {
		if b == 0 {
			return nil
		}
		return []float64{-c / b}
	}
	disc := b*b - 4*a*c
	if disc < 0 {
		return nil
	}
	sq := math.Sqrt(disc)
	// The numerically stable form.
	q := -0.5 * (b + math.Copysign(sq, b))
	roots := []float64{q / a}
	if q != 0 {
		roots = append(roots, c/q)
	}
	return roots
}

// Polyline is one subpath of a flattened path: its vertices, and whether
// it was closed.
type Polyline struct {
	Points []Point
	Closed bool
}

// maxPieces bounds the number of lines one curve is flattened into.
const maxPieces = 1 << 12

// Polylines returns the path's subpaths as polylines whose lines stray
// from the curves by at most tol. A closed subpath's polyline does not
// repeat its first point at the end.
func (p *Path) Polylines(tol float64) []Polyline {
	var out []Polyline
	var cur *Polyline
	for s := range p.Segments() {
		switch s.Cmd {
		case MoveToCmd:
			out = append(out, Polyline{Points: []Point{s.P[0]}})
			cur = &out[len(out)-1]
		case LineToCmd:
			cur.Points = append(cur.Points, s.P[0])
		case QuadToCmd:
			cur.Points = flattenQuad(cur.Points, s.Start, s.P[0], s.P[1], tol)
		case CubeToCmd:
			cur.Points = flattenCubic(cur.Points, s.Start, s.P[0], s.P[1], s.P[2], tol)
		case CloseCmd:
			if n := len(cur.Points); n > 1 && cur.Points[n-1] == cur.Points[0] {
				cur.Points = cur.Points[:n-1]
			}
			cur.Closed = true
		}
	}
	return out
}

// flattenQuad appends the points after p0 of a quadratic Bézier curve cut
// into equal steps of the parameter, enough for the lines to stay within
// tol of the curve: its second derivative is constant, 2(p0-2p1+p2), and
// n steps stray by at most |p0-2p1+p2|/(4n²).
func flattenQuad(dst []Point, p0, p1, p2 Point, tol float64) []Point {
	dd := p0.Sub(p1.Mul(2)).Add(p2).Length()
	n := pieces(math.Sqrt(dd / (4 * tol)))
	for i := 1; i < n; i++ {
		dst = append(dst, quadAt(p0, p1, p2, float64(i)/float64(n)))
	}
	return append(dst, p2)
}

// flattenCubic appends the points after p0 of a cubic Bézier curve cut
// into equal steps of the parameter: its second derivative is at most 6L,
// with L the larger of |p0-2p1+p2| and |p1-2p2+p3|, so n steps stray by at
// most 3L/(4n²).
func flattenCubic(dst []Point, p0, p1, p2, p3 Point, tol float64) []Point {
	l := math.Max(p0.Sub(p1.Mul(2)).Add(p2).Length(), p1.Sub(p2.Mul(2)).Add(p3).Length())
	n := pieces(math.Sqrt(3 * l / (4 * tol)))
	for i := 1; i < n; i++ {
		dst = append(dst, cubicAt(p0, p1, p2, p3, float64(i)/float64(n)))
	}
	return append(dst, p3)
}

func pieces(f float64) int {
	if !(f >= 1) { // NaN too
		return 1
	}
	if f >= maxPieces {
		return maxPieces
	}
	return int(math.Ceil(f))
}

// Flatten returns the path with its curves replaced by lines that stray
// from them by at most tol.
func (p *Path) Flatten(tol float64) *Path {
	q := &Path{}
	for _, pl := range p.Polylines(tol) {
		q.MoveTo(pl.Points[0].X, pl.Points[0].Y)
		for _, pt := range pl.Points[1:] {
			q.LineTo(pt.X, pt.Y)
		}
		if pl.Closed {
			q.Close()
		}
	}
	return q
}

// ToSVG returns the path as SVG path data, with absolute coordinates.
func (p *Path) ToSVG() string {
	return string(p.AppendSVG(nil))
}

// AppendSVG appends the path as SVG path data to buf, with coordinates of
// at most seven significant digits.
func (p *Path) AppendSVG(buf []byte) []byte {
	for s := range p.Segments() {
		switch s.Cmd {
		case MoveToCmd:
			buf = appendCmd(buf, 'M', s.P[0].X, s.P[0].Y)
		case LineToCmd:
			e := s.P[0]
			switch {
			case e == s.Start:
				buf = appendCmd(buf, 'L', e.X, e.Y)
			case e.X == s.Start.X:
				buf = appendCmd(buf, 'V', e.Y)
			case e.Y == s.Start.Y:
				buf = appendCmd(buf, 'H', e.X)
			default:
				buf = appendCmd(buf, 'L', e.X, e.Y)
			}
		case QuadToCmd:
			buf = appendCmd(buf, 'Q', s.P[0].X, s.P[0].Y, s.P[1].X, s.P[1].Y)
		case CubeToCmd:
			buf = appendCmd(buf, 'C', s.P[0].X, s.P[0].Y, s.P[1].X, s.P[1].Y, s.P[2].X, s.P[2].Y)
		case CloseCmd:
			buf = append(buf, 'z')
		}
	}
	return buf
}

func appendCmd(buf []byte, c byte, nums ...float64) []byte {
	buf = append(buf, c)
	for i, f := range nums {
		if i > 0 {
			buf = append(buf, ' ')
		}
		start := len(buf)
		buf = appendNum(buf, f)
		if i > 0 && buf[start] == '-' {
			// A minus sign separates numbers by itself.
			copy(buf[start-1:], buf[start:])
			buf = buf[:len(buf)-1]
		}
	}
	return buf
}

// appendNum appends f with at most seven significant digits and without
// a leading zero before the decimal point.
func appendNum(buf []byte, f float64) []byte {
	start := len(buf)
	buf = strconv.AppendFloat(buf, f, 'g', 7, 64)
	s := buf[start:]
	switch {
	case string(s) == "-0":
		return append(buf[:start], '0')
	case len(s) > 2 && s[0] == '0' && s[1] == '.':
		return append(buf[:start], s[1:]...)
	case len(s) > 3 && s[0] == '-' && s[1] == '0' && s[2] == '.':
		return append(append(buf[:start], '-'), s[2:]...)
	}
	return buf
}

// Rectangle returns a rectangle of width w and height h with a corner at
// the origin.
func Rectangle(w, h float64) *Path {
	p := &Path{}
	p.MoveTo(0, 0)
	p.LineTo(w, 0)
	p.LineTo(w, h)
	p.LineTo(0, h)
	p.Close()
	return p
}

// Circle returns a circle of radius r about the origin.
func Circle(r float64) *Path {
	return Ellipse(r, r)
}

// Ellipse returns an ellipse with radii rx and ry about the origin, drawn
// from (rx, 0) in the direction of increasing angle. Zero radii give an
// empty path.
func Ellipse(rx, ry float64) *Path {
	p := &Path{}
	if rx == 0 || ry == 0 {
		return p
	}
	p.MoveTo(rx, 0)
	p.ArcTo(rx, ry, 0, false, true, -rx, 0)
	p.ArcTo(rx, ry, 0, false, true, rx, 0)
	p.Close()
	return p
}
