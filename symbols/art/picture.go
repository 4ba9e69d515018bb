package art

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"github.com/dobble-dev/dobble/internal/geom"
)

// Shape is one filled and/or stroked path of a Picture. Colours have
// straight (not premultiplied) alpha; a zero alpha means no fill or no
// stroke.
type Shape struct {
	// Path is the outline in picture coordinates, transforms applied.
	Path *geom.Path
	// Fill is the fill colour and FillRule its rule (non-zero or even-odd).
	Fill     color.NRGBA
	FillRule geom.FillRule
	// Stroke is the stroke colour, drawn StrokeWidth wide with round caps
	// and joins when RoundStroke is true, butt caps and miter joins
	// otherwise.
	Stroke      color.NRGBA
	StrokeWidth float64
	RoundStroke bool
}

// Picture is a vector drawing: shapes painted in order, in coordinates
// with y pointing down. Center and Radius give the smallest circle that
// contains all of the drawing's ink (strokes included), so that a picture
// scaled into a circle of radius r by r/Radius about Center stays inside it
// whatever its rotation. A Picture is immutable and safe for concurrent use.
type Picture struct {
	Shapes []Shape
	Center geom.Point
	Radius float64
}

// ErrNoInk is returned for a drawing that paints nothing visible.
var ErrNoInk = errors.New("it draws nothing visible")

// NewPicture returns the picture of the given shapes, with its enclosing
// circle computed from their outlines. Shapes with no visible paint are
// dropped; ErrNoInk is returned if none is left.
func NewPicture(shapes []Shape) (*Picture, error) {
	var kept []Shape
	var pts []geom.Point
	var pad float64  // the largest distance ink may reach beyond its outline
	var flat float64 // the largest flattening tolerance used
	for _, s := range shapes {
		fill := s.Fill.A > 0
		stroke := s.Stroke.A > 0 && s.StrokeWidth > 0
		if !fill && !stroke || s.Path == nil || s.Path.Empty() {
			continue
		}
		kept = append(kept, s)
		b := s.Path.FastBounds()
		tol := math.Max(b.W(), b.H()) * 1e-3
		if tol <= 0 {
			tol = 1e-6
		}
		flat = math.Max(flat, tol)
		pts = append(pts, s.Path.Flatten(tol).Coords()...)
		if stroke {
			// Half the width for round joins; a miter (limit 4) can reach
			// twice as far.
			reach := s.StrokeWidth / 2
			if !s.RoundStroke {
				reach *= 4
			}
			pad = math.Max(pad, reach)
		}
	}
	if len(kept) == 0 || len(pts) == 0 {
		return nil, ErrNoInk
	}
	c, r := enclosingCircle(pts)
	// Flattened curves lie within tol of the true ones.
	r += pad + flat
	if !(r > 0) || math.IsInf(r, 0) || math.IsNaN(c.X) || math.IsNaN(c.Y) {
		return nil, ErrNoInk
	}
	return &Picture{Shapes: kept, Center: c, Radius: r}, nil
}

// Draw paints the picture onto r, with m mapping picture coordinates to
// the renderer's.
func (p *Picture) Draw(r geom.Renderer, m geom.Matrix) {
	for _, s := range p.Shapes {
		style := geom.Style{Fill: s.Fill, FillRule: s.FillRule}
		if s.Stroke.A > 0 && s.StrokeWidth > 0 {
			style.Stroke, style.StrokeWidth = s.Stroke, s.StrokeWidth
			if s.RoundStroke {
				style.Cap, style.Join = geom.RoundCap, geom.RoundJoin
			}
		}
		r.RenderPath(s.Path, style, m)
	}
}

// WriteSVG writes the picture as SVG path elements in picture coordinates,
// one per shape, with presentation attributes only: no ids, classes or
// styles, so the output can be placed inside any SVG document.
func (p *Picture) WriteSVG(w io.Writer) error {
	var buf []byte
	for _, s := range p.Shapes {
		buf = append(buf[:0], `<path d="`...)
		buf = s.Path.AppendSVG(buf)
		buf = append(buf, '"')
		buf = appendPaint(buf, "fill", s.Fill)
		if s.Fill.A > 0 && s.FillRule == geom.EvenOdd {
			buf = append(buf, ` fill-rule="evenodd"`...)
		}
		if s.Stroke.A > 0 && s.StrokeWidth > 0 {
			buf = appendPaint(buf, "stroke", s.Stroke)
			buf = append(buf, ` stroke-width="`...)
			buf = strconv.AppendFloat(buf, s.StrokeWidth, 'g', 6, 64)
			buf = append(buf, '"')
			if s.RoundStroke {
				buf = append(buf, ` stroke-linecap="round" stroke-linejoin="round"`...)
			}
		}
		buf = append(buf, "/>"...)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// appendPaint appends ` name="#rrggbb"` and, for a translucent colour,
// ` name-opacity="a"`; a fully transparent colour is written as "none".
func appendPaint(buf []byte, name string, c color.NRGBA) []byte {
	if c.A == 0 {
		return fmt.Appendf(buf, ` %s="none"`, name)
	}
	buf = fmt.Appendf(buf, ` %s="#%02x%02x%02x"`, name, c.R, c.G, c.B)
	if c.A < 255 {
		buf = fmt.Appendf(buf, ` %s-opacity="%.3g"`, name, float64(c.A)/255)
	}
	return buf
}

// enclosingCircle returns the smallest circle containing all points
// (Welzl's algorithm, iterative form, in expected linear time). The points
// are visited in a fixed pseudo-random order so that the result does not
// depend on anything but the input.
func enclosingCircle(pts []geom.Point) (geom.Point, float64) {
	ps := make([]geom.Point, len(pts))
	copy(ps, pts)
	// Fixed shuffle (xorshift) to get the expected running time on
	// adversarially ordered outlines.
	x := uint64(0x9E3779B97F4A7C15)
	for i := len(ps) - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i+1))
		ps[i], ps[j] = ps[j], ps[i]
	}
	const eps = 1e-9
	inside := func(c geom.Point, r float64, p geom.Point) bool {
		return p.Sub(c).Length() <= r*(1+eps)+eps
	}
	c, r := ps[0], 0.0
	for i := 1; i < len(ps); i++ {
		if inside(c, r, ps[i]) {
			continue
		}
		c, r = ps[i], 0
		for j := 0; j < i; j++ {
			if inside(c, r, ps[j]) {
				continue
			}
			c = ps[i].Add(ps[j]).Mul(0.5)
			r = ps[i].Sub(c).Length()
			for k := 0; k < j; k++ {
				if inside(c, r, ps[k]) {
					continue
				}
				c, r = circumcircle(ps[i], ps[j], ps[k])
			}
		}
	}
	return c, r
}

// circumcircle returns the circle through three points; for (nearly)
// collinear points, the circle on the two farthest apart as diameter.
func circumcircle(a, b, c geom.Point) (geom.Point, float64) {
	bx, by := b.X-a.X, b.Y-a.Y
	cx, cy := c.X-a.X, c.Y-a.Y
	d := 2 * (bx*cy - by*cx)
	if math.Abs(d) < 1e-12 {
		best := [2]geom.Point{a, b}
		if c.Sub(a).Length() > best[1].Sub(best[0]).Length() {
			best = [2]geom.Point{a, c}
		}
		if c.Sub(b).Length() > best[1].Sub(best[0]).Length() {
			best = [2]geom.Point{b, c}
		}
		m := best[0].Add(best[1]).Mul(0.5)
		return m, best[0].Sub(m).Length()
	}
	b2, c2 := bx*bx+by*by, cx*cx+cy*cy
	ux := (cy*b2 - by*c2) / d
	uy := (bx*c2 - cx*b2) / d
	centre := geom.Point{X: a.X + ux, Y: a.Y + uy}
	r := math.Max(centre.Sub(a).Length(), math.Max(centre.Sub(b).Length(), centre.Sub(c).Length()))
	return centre, r
}
