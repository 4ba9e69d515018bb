package geom

import "math"

// Stroke returns the outline of the path stroked width wide with the
// given caps and joins, as a path to fill with the NonZero rule: curves
// are flattened to lines within tol, and the outline is the union of a
// quadrilateral for every line, a wedge or disc sector for every join, and
// a disc for every round cap, all wound the same way (counter-clockwise
// when y points up), so that where they overlap they still count once.
// Joins between the lines of one flattened curve are round, so that a
// curve's stroke follows the true curve. A subpath with no length draws a
// dot with round caps and nothing with butt caps, as in SVG.
func (p *Path) Stroke(width float64, c Cap, j Join, tol float64) *Path {
	out := &Path{}
	hw := width / 2
	if !(hw > 0) || !(tol > 0) {
		return out
	}
	s := stroker{out: out, hw: hw, tol: tol, cap: c, join: j}
	var pts []Point
	var corner []bool // whether each vertex is a corner (the end of a command)
	flush := func(closed bool) {
		s.subpath(pts, corner, closed)
		pts, corner = pts[:0], corner[:0]
	}
	add := func(pt Point, isCorner bool) {
		if n := len(pts); n > 0 && pts[n-1] == pt {
			corner[n-1] = corner[n-1] || isCorner
			return
		}
		pts = append(pts, pt)
		corner = append(corner, isCorner)
	}
	for seg := range p.Segments() {
		switch seg.Cmd {
		case MoveToCmd:
			if len(pts) > 0 {
				flush(false)
			}
			add(seg.P[0], true)
		case LineToCmd:
			add(seg.P[0], true)
		case QuadToCmd:
			for _, q := range flattenQuad(nil, seg.Start, seg.P[0], seg.P[1], tol) {
				add(q, false)
			}
			corner[len(corner)-1] = true
		case CubeToCmd:
			for _, q := range flattenCubic(nil, seg.Start, seg.P[0], seg.P[1], seg.P[2], tol) {
				add(q, false)
			}
			corner[len(corner)-1] = true
		case CloseCmd:
			if n := len(pts); n > 1 && pts[n-1] == pts[0] {
				pts, corner = pts[:n-1], corner[:n-1]
			}
			flush(true)
		}
	}
	if len(pts) > 0 {
		flush(false)
	}
	return out
}

type stroker struct {
	out  *Path
	hw   float64 // half the width
	tol  float64
	cap  Cap
	join Join
}

// subpath adds the outline of one flattened subpath, whose consecutive
// points differ.
func (s *stroker) subpath(pts []Point, corner []bool, closed bool) {
	n := len(pts)
	if n == 1 {
		if s.cap == RoundCap {
			s.disc(pts[0])
		}
		return
	}
	segs := n - 1
	if closed {
		segs = n
	}
	for i := 0; i < segs; i++ {
		a, b := pts[i], pts[(i+1)%n]
		nrm := b.Sub(a).Normalize().Rot90().Mul(s.hw)
		s.polygon(a.Add(nrm), b.Add(nrm), b.Sub(nrm), a.Sub(nrm))
	}
	// Joins at the inner vertices, and at the start of a closed subpath.
	for i := 0; i < n; i++ {
		if !closed && (i == 0 || i == n-1) {
			continue
		}
		prev, next := pts[(i+n-1)%n], pts[(i+1)%n]
		j := RoundJoin
		if corner[i] {
			j = s.join
		}
		s.joint(prev, pts[i], next, j)
	}
	if !closed && s.cap == RoundCap {
		s.disc(pts[0])
		s.disc(pts[n-1])
	}
}

// joint adds the join at v between the line from a and the line to b: the
// piece that fills the gap the two lines' quadrilaterals leave on the
// outer side of the turn.
func (s *stroker) joint(a, v, b Point, j Join) {
	d1, d2 := v.Sub(a).Normalize(), b.Sub(v).Normalize()
	cross, dot := d1.Cross(d2), d1.Dot(d2)
	if math.Abs(cross) < 1e-12 {
		if dot > 0 {
			return // straight on
		}
		// Turning right back: a round join is the disc; a miter has no
		// tip and its bevel no area.
		if j == RoundJoin {
			s.disc(v)
		}
		return
	}
	// The outer side is to the right of a left turn, and the other way
	// round.
	side := -1.0
	if cross < 0 {
		side = 1
	}
	n1 := d1.Rot90().Mul(side * s.hw)
	n2 := d2.Rot90().Mul(side * s.hw)
	o1, o2 := v.Add(n1), v.Add(n2)
	if j == RoundJoin {
		s.sector(v, o1, o2)
		return
	}
	// The miter's tip lies along the bisector of the two normals, at
	// hw / cos(φ/2) from the vertex, φ being the turn; SVG's miter limit
	// bounds 1 / cos(φ/2) (the miter length over the width).
	bis := n1.Add(n2)
	cosHalf := math.Sqrt(math.Max(0, (1+dot)/2))
	if bis.Length() < 1e-12*s.hw || cosHalf*MiterLimit < 1 {
		s.polygon(v, o1, o2) // bevel
		return
	}
	tip := v.Add(bis.Normalize().Mul(s.hw / cosHalf))
	s.polygon(v, o1, tip, o2)
}

// arcStep returns the angle step of a polygon that stays within tol of a
// circle of radius hw.
func (s *stroker) arcStep() float64 {
	if s.tol >= s.hw {
		return math.Pi / 2
	}
	return math.Max(2*math.Acos(1-s.tol/s.hw), math.Pi/1024)
}

// sector adds the disc sector about v from o1 to o2 (both hw from v), the
// short way round.
func (s *stroker) sector(v, o1, o2 Point) {
	r1, r2 := o1.Sub(v), o2.Sub(v)
	a1 := math.Atan2(r1.Y, r1.X)
	sweep := math.Atan2(r1.Cross(r2), r1.Dot(r2))
	steps := max(1, int(math.Ceil(math.Abs(sweep)/s.arcStep())))
	pts := make([]Point, 0, steps+2)
	pts = append(pts, v, o1)
	for i := 1; i < steps; i++ {
		sn, cs := math.Sincos(a1 + sweep*float64(i)/float64(steps))
		pts = append(pts, v.Add(Point{cs, sn}.Mul(s.hw)))
	}
	pts = append(pts, o2)
	s.polygon(pts...)
}

// disc adds a disc of radius hw about c.
func (s *stroker) disc(c Point) {
	steps := max(8, int(math.Ceil(2*math.Pi/s.arcStep())))
	pts := make([]Point, steps)
	for i := range pts {
		sn, cs := math.Sincos(2 * math.Pi * float64(i) / float64(steps))
		// The polygon's edges cut inside the circle by up to tol; its
		// vertices lie that far outside, so that it covers the disc.
		pts[i] = c.Add(Point{cs, sn}.Mul(s.hw + s.tol/2))
	}
	s.polygon(pts...)
}

// polygon adds a closed polygon wound counter-clockwise (y up); one with
// no area is left out.
func (s *stroker) polygon(pts ...Point) {
	area := 0.0
	for i, p := range pts {
		area += p.Cross(pts[(i+1)%len(pts)])
	}
	if area == 0 || math.IsNaN(area) {
		return
	}
	if area < 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	s.out.MoveTo(pts[0].X, pts[0].Y)
	for _, p := range pts[1:] {
		s.out.LineTo(p.X, p.Y)
	}
	s.out.Close()
}
