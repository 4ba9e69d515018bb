package raster

import (
	"image"
	"image/color"
	"math"

	"github.com/dobble-dev/dobble/internal/geom"
	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"
)

// Renderer paints onto an RGBA image; it implements geom.Renderer, with
// the image's pixel coordinates (y down) as its own.
type Renderer struct {
	dst *image.RGBA
}

// NewRenderer returns a renderer that paints onto dst.
func NewRenderer(dst *image.RGBA) *Renderer {
	return &Renderer{dst: dst}
}

// RenderPath fills the path by its style's rule, then strokes it: the
// stroke's outline (geom.Path.Stroke) made in the path's coordinates, so
// that a matrix that does not keep shapes widens it as it should.
func (r *Renderer) RenderPath(path *geom.Path, style geom.Style, m geom.Matrix) {
	if style.HasFill() {
		r.paint(path.Transform(m), style.FillRule, style.Fill)
	}
	if style.HasStroke() {
		scale := math.Sqrt(math.Abs(m.Det()))
		if !(scale > 0) {
			return
		}
		outline := path.Stroke(style.StrokeWidth, style.Cap, style.Join, Tolerance/scale)
		r.paint(outline.Transform(m), geom.NonZero, style.Stroke)
	}
}

// paint composites colour c over the pixels that path (in pixels) covers.
func (r *Renderer) paint(path *geom.Path, rule geom.FillRule, c color.NRGBA) {
	fb := path.FastBounds()
	rect := image.Rect(int(math.Floor(fb.X0)), int(math.Floor(fb.Y0)), int(math.Ceil(fb.X1))+1, int(math.Ceil(fb.Y1))+1)
	rect = rect.Intersect(r.dst.Bounds())
	if rect.Empty() {
		return
	}
	mask := image.NewAlpha(rect)
	Fill(mask, path, rule)
	draw.DrawMask(r.dst, rect, image.NewUniform(c), image.Point{}, mask, rect.Min, draw.Over)
}

// RenderImage paints img, interpolated bilinearly, with m mapping its
// pixel coordinates to the destination's.
func (r *Renderer) RenderImage(img image.Image, m geom.Matrix) {
	b := img.Bounds()
	s2d := m.Translate(-float64(b.Min.X), -float64(b.Min.Y))
	draw.BiLinear.Transform(r.dst, f64.Aff3{s2d[0][0], s2d[0][1], s2d[0][2], s2d[1][0], s2d[1][1], s2d[1][2]}, img, b, draw.Over, nil)
}
