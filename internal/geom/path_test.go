package geom

import (
	"math"
	"strings"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func nearPt(a, b Point, eps float64) bool { return near(a.X, b.X, eps) && near(a.Y, b.Y, eps) }

// segments returns the path's segments as a slice.
func segments(p *Path) []Segment {
	var out []Segment
	for s := range p.Segments() {
		out = append(out, s)
	}
	return out
}

func TestMatrix(t *testing.T) {
	p := Point{1, 2}
	cases := []struct {
		name string
		m    Matrix
		want Point
	}{
		{"identity", Identity, Point{1, 2}},
		{"translate", Identity.Translate(3, -1), Point{4, 1}},
		{"scale", Identity.Scale(2, -3), Point{2, -6}},
		{"rotate 90", Identity.Rotate(90), Point{-2, 1}},
		{"rotate about", Identity.RotateAbout(180, 1, 1), Point{1, 0}},
		{"shear", Identity.Shear(1, 0), Point{3, 2}},
		// Translate then scale: the scale applies to points first.
		{"chain", Identity.Translate(10, 0).Scale(2, 2), Point{12, 4}},
		{"mul", Identity.Translate(10, 0).Mul(Identity.Scale(2, 2)), Point{12, 4}},
	}
	for _, c := range cases {
		if got := c.m.Dot(p); !nearPt(got, c.want, 1e-12) {
			t.Errorf("%s: %v maps to %v, want %v", c.name, p, got, c.want)
		}
	}
	if d := Identity.Scale(2, 3).Rotate(30).Det(); !near(d, 6, 1e-12) {
		t.Errorf("Det = %v, want 6", d)
	}
	if d := Identity.Scale(1, -1).Det(); d != -1 {
		t.Errorf("a mirror's Det = %v, want -1", d)
	}
	for _, m := range []Matrix{Identity, Identity.Rotate(33).Scale(2, 2).Translate(4, 5), Identity.Scale(3, -3)} {
		if !m.IsSimilarity() {
			t.Errorf("%v is a similarity", m)
		}
	}
	for _, m := range []Matrix{Identity.Scale(2, 1), Identity.Shear(0.5, 0), Identity.Scale(0, 0)} {
		if m.IsSimilarity() {
			t.Errorf("%v is not a similarity", m)
		}
	}
}

func TestParseSVGPathCommands(t *testing.T) {
	cases := []struct {
		d    string
		want string // the path written back
	}{
		{"M1 2 L3 4", "M1 2L3 4"},
		{"m1 2 l3 4", "M1 2L4 6"},
		{"M1,2 3,4 5,6", "M1 2L3 4L5 6"},
		{"m1 2 3 4 5 6", "M1 2L4 6L9 12"},
		{"M0 0H5V7h-2v-1", "M0 0H5V7H3V6"},
		{"M0 0C1 2 3 4 5 6", "M0 0C1 2 3 4 5 6"},
		{"M1 1c1 2 3 4 5 6", "M1 1C2 3 4 5 6 7"},
		// S reflects the previous control point; after a non-curve it
		// starts at the current point.
		{"M0 0C1 1 2 1 3 0S5-1 6 0", "M0 0C1 1 2 1 3 0C4-1 5-1 6 0"},
		{"M0 0s1 1 2 0", "M0 0C0 0 1 1 2 0"},
		{"M0 0Q1 2 3 0T6 0", "M0 0Q1 2 3 0Q5-2 6 0"},
		{"M0 0q1 2 3 0t3 0", "M0 0Q1 2 3 0Q5-2 6 0"},
		{"M0 0T2 2", "M0 0Q0 0 2 2"},
		// Close returns to the subpath's start; relative moves after it
		// count from there.
		{"M1 1L3 1L3 3zl1 0", "M1 1H3V3zM1 1H2"},
		{"M1 1h2zm1 1h1", "M1 1H3zM2 2H3"},
		{"M.5-.5L1e1 2E-1", "M.5-.5L10 .2"},
		{"M0 0L1.5.5", "M0 0L1.5 .5"},
		{"L1 1", "M0 0L1 1"},
		{"", ""},
	}
	for _, c := range cases {
		p, err := ParseSVGPath(c.d)
		if err != nil {
			t.Errorf("ParseSVGPath(%q): %v", c.d, err)
			continue
		}
		if got := p.ToSVG(); got != c.want {
			t.Errorf("ParseSVGPath(%q) = %q, want %q", c.d, got, c.want)
		}
	}
	for _, bad := range []string{"M 0 0 L x y", "M0", "M0 0 L1", "M0 0z1 1", "X", "M0 0A1 1 0 2 0 1 1", "M1e999 0", "5 5"} {
		if _, err := ParseSVGPath(bad); err == nil {
			t.Errorf("ParseSVGPath(%q) succeeded", bad)
		}
	}
}

// onEllipse returns how far p is from the ellipse with centre c, radii rx
// and ry, turned by rot degrees, as |(x/rx)² + (y/ry)² - 1|.
func onEllipse(p, c Point, rx, ry, rot float64) float64 {
	q := Identity.Rotate(-rot).Dot(p.Sub(c))
	return math.Abs(q.X*q.X/(rx*rx) + q.Y*q.Y/(ry*ry) - 1)
}

func TestParseSVGPathArcs(t *testing.T) {
	cases := []struct {
		d                string
		c                Point
		rx, ry, rot      float64
		end              Point
		curves, maxQuart int
	}{
		// A half circle of radius 5 from (0,0) to (10,0), both ways.
		{"M0 0A5 5 0 0 1 10 0", Point{5, 0}, 5, 5, 0, Point{10, 0}, 2, 2},
		{"M0 0A5 5 0 0 0 10 0", Point{5, 0}, 5, 5, 0, Point{10, 0}, 2, 2},
		// A quarter of an ellipse, relative.
		{"M10 0a10 5 0 0 1-10 5", Point{0, 0}, 10, 5, 0, Point{0, 5}, 1, 1},
		// Three quarters (large arc) of a circle about the origin.
		{"M5 0A5 5 0 1 1 0-5", Point{0, 0}, 5, 5, 0, Point{0, -5}, 3, 3},
		// A turned ellipse, large arc.
		{"M0 0A8 4 30 1 0 6 3", Point{}, 8, 4, 30, Point{6, 3}, 0, 4},
		// Radii too small: scaled up to a half ellipse.
		{"M0 0A1 1 0 0 1 10 0", Point{5, 0}, 5, 5, 0, Point{10, 0}, 2, 2},
	}
	for _, c := range cases {
		p, err := ParseSVGPath(c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.d, err)
		}
		segs := segments(p)
		last := segs[len(segs)-1]
		if last.End() != c.end {
			t.Errorf("%s: ends at %v, want exactly %v", c.d, last.End(), c.end)
		}
		curves := len(segs) - 1
		if c.curves > 0 && curves != c.curves || curves > c.maxQuart {
			t.Errorf("%s: %d curves, want %d (at most %d)", c.d, curves, c.curves, c.maxQuart)
		}
		centre := c.c
		if c.curves == 0 {
			// Find the centre: the one for which the ends lie on the
			// ellipse is what the other checks are for; here check the
			// midpoints against each other through the ends.
			centre = ellipseCentre(t, segs, c.rx, c.ry, c.rot)
		}
		for _, s := range segs[1:] {
			if s.Cmd != CubeToCmd {
				t.Fatalf("%s: %v is not a cubic curve", c.d, s.Cmd)
			}
			for _, tt := range []float64{0, 0.25, 0.5, 0.75, 1} {
				pt := cubicAt(s.Start, s.P[0], s.P[1], s.P[2], tt)
				if e := onEllipse(pt, centre, c.rx, c.ry, c.rot); e > 1e-3 {
					t.Errorf("%s: point %v at t=%v is off the ellipse by %.2g", c.d, pt, tt, e)
				}
			}
		}
	}
	// Zero radii draw a line; the same end point draws nothing.
	p, _ := ParseSVGPath("M0 0A0 5 0 0 1 10 0A5 5 0 0 1 10 0")
	if got := p.ToSVG(); got != "M0 0H10" {
		t.Errorf("degenerate arcs: %q", got)
	}
}

// ellipseCentre returns the centre of the ellipse through the arc's
// start, found from its first curve's start and tangent.
func ellipseCentre(t *testing.T, segs []Segment, rx, ry, rot float64) Point {
	t.Helper()
	// In the ellipse's own frame, scaled to a unit circle, the centre is
	// a unit step from the start along the inward normal of the tangent.
	toUnit := Identity.Scale(1/rx, 1/ry).Rotate(-rot)
	s := segs[1]
	p0 := toUnit.Dot(s.Start)
	d := toUnit.Dot(s.P[0]).Sub(p0).Normalize()
	best, bestErr := Point{}, math.Inf(1)
	for _, n := range []Point{d.Rot90(), d.Rot90().Mul(-1)} {
		c := p0.Add(n)
		back := Identity.Rotate(rot).Scale(rx, ry).Dot(c)
		e := onEllipse(segs[len(segs)-1].End(), back, rx, ry, rot)
		if e < bestErr {
			best, bestErr = back, e
		}
	}
	return best
}

func TestBounds(t *testing.T) {
	c := Circle(2).Translate(5, 5)
	b := c.Bounds()
	if !near(b.X0, 3, 1e-9) || !near(b.X1, 7, 1e-9) || !near(b.Y0, 3, 1e-9) || !near(b.Y1, 7, 1e-9) {
		t.Errorf("circle bounds %v, want 3..7", b)
	}
	fb := c.FastBounds()
	if fb.X0 > b.X0 || fb.Y1 < b.Y1 {
		t.Errorf("fast bounds %v do not contain %v", fb, b)
	}
	// A curve's bounds reach its extremes, not its control points.
	q, _ := ParseSVGPath("M0 0Q5 10 10 0")
	if b := q.Bounds(); !near(b.Y1, 5, 1e-12) || b.X1 != 10 {
		t.Errorf("quad bounds %v, want y up to 5", b)
	}
	cu, _ := ParseSVGPath("M0 0C0 8 10 8 10 0")
	if b := cu.Bounds(); !near(b.Y1, 6, 1e-12) {
		t.Errorf("cubic bounds %v, want y up to 6", b)
	}
	if r := Rectangle(3, 4).Translate(1, 1).Bounds(); r != (Rect{1, 1, 4, 5}) {
		t.Errorf("rectangle bounds %v", r)
	}
}

func TestFlatten(t *testing.T) {
	const tol = 0.01
	c := Circle(10)
	pls := c.Polylines(tol)
	if len(pls) != 1 || !pls[0].Closed {
		t.Fatalf("a circle flattens to %d polylines", len(pls))
	}
	pts := pls[0].Points
	for i, p := range pts {
		if r := p.Length(); !near(r, 10, 0.003) {
			t.Fatalf("vertex %v at radius %v", p, r)
		}
		// The middle of each line is within tol of the circle.
		q := pts[(i+1)%len(pts)]
		if r := p.Lerp(q, 0.5).Length(); 10-r > tol {
			t.Fatalf("line %v–%v strays %v from the circle", p, q, 10-r)
		}
	}
	if len(pts) > 200 {
		t.Errorf("%d vertices for a circle at tolerance %v", len(pts), tol)
	}
	f := c.Flatten(tol)
	for s := range f.Segments() {
		if s.Cmd == QuadToCmd || s.Cmd == CubeToCmd {
			t.Fatal("Flatten left a curve")
		}
	}
}

func TestAppendAndTransform(t *testing.T) {
	a := Rectangle(1, 1)
	b := Circle(1)
	n := len(segments(a))
	a.Append(b)
	if got := len(segments(a)); got != n+len(segments(b)) {
		t.Errorf("Append: %d segments", got)
	}
	moved := a.Transform(Identity.Translate(10, 0))
	if a.Bounds().X0 != -1 || !near(moved.Bounds().X0, 9, 1e-12) {
		t.Error("Transform changed the original or did not move the copy")
	}
	// Drawing after Close starts again at the subpath's start.
	p := &Path{}
	p.MoveTo(1, 1)
	p.LineTo(2, 1)
	p.Close()
	p.LineTo(1, 2)
	if got := p.ToSVG(); got != "M1 1H2zM1 1V2" {
		t.Errorf("after Close: %q", got)
	}
	if !(&Path{}).Empty() || Circle(1).Empty() {
		t.Error("Empty is wrong")
	}
	e := &Path{}
	e.MoveTo(1, 1)
	if !e.Empty() {
		t.Error("a lone MoveTo is not empty")
	}
}

func TestSVGRoundTrip(t *testing.T) {
	p := Circle(3.25).Transform(Identity.Rotate(10).Translate(0.5, -7))
	q, err := ParseSVGPath(p.ToSVG())
	if err != nil {
		t.Fatal(err)
	}
	a, b := segments(p), segments(q)
	if len(a) != len(b) {
		t.Fatalf("%d segments back, want %d", len(b), len(a))
	}
	for i := range a {
		if a[i].Cmd != b[i].Cmd || !nearPt(a[i].End(), b[i].End(), 1e-5) {
			t.Errorf("segment %d: %v became %v", i, a[i], b[i])
		}
	}
	if s := appendNum(nil, -0.000012345678); string(s) != "-1.234568e-05" {
		t.Errorf("appendNum = %s", s)
	}
	if s := string(appendNum(nil, -0.5)); s != "-.5" {
		t.Errorf("appendNum(-0.5) = %s", s)
	}
	if strings.Contains(Circle(1).ToSVG(), " -") {
		t.Error("a space before a minus sign")
	}
}
