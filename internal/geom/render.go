package geom

import (
	"image"
	"image/color"
)

// FillRule says which points a path's fill covers where its subpaths
// overlap or wind around a point more than once.
type FillRule uint8

// The fill rules of SVG and PDF.
const (
	// NonZero fills every point that the path winds around a non-zero
	// number of times, counting turns one way against the other.
	NonZero FillRule = iota
	// EvenOdd fills every point that the path crosses an odd number of
	// times on the way out to infinity, whatever the direction.
	EvenOdd
)

// Cap is the shape of the ends of a stroke's open subpaths.
type Cap uint8

// The stroke caps.
const (
	// ButtCap ends a stroke square at its end point.
	ButtCap Cap = iota
	// RoundCap ends a stroke with a half disc around its end point.
	RoundCap
)

// Join is the shape of a stroke where two segments meet.
type Join uint8

// The stroke joins.
const (
	// MiterJoin extends the outer edges of the two segments until they
	// meet, or cuts the corner off square (a bevel) where the point they
	// meet at lies farther from the vertex than MiterLimit half widths.
	MiterJoin Join = iota
	// RoundJoin rounds the corner with a disc around the vertex.
	RoundJoin
)

// MiterLimit is the longest a miter join may reach from its vertex, in
// half stroke widths, before it is cut off as a bevel: SVG's default
// stroke-miterlimit.
const MiterLimit = 4

// Style says how a path is painted: filled by FillRule with Fill, then
// stroked StrokeWidth wide with Stroke. Colours have straight (not
// premultiplied) alpha; a zero alpha, or a zero width, paints nothing.
type Style struct {
	Fill        color.NRGBA
	FillRule    FillRule
	Stroke      color.NRGBA
	StrokeWidth float64
	Cap         Cap
	Join        Join
}

// HasFill reports whether the style fills.
func (s Style) HasFill() bool { return s.Fill.A > 0 }

// HasStroke reports whether the style strokes.
func (s Style) HasStroke() bool { return s.Stroke.A > 0 && s.StrokeWidth > 0 }

// Renderer is something paths and images are painted onto, such as a PDF
// page or a raster image.
type Renderer interface {
	// RenderPath paints path with style, with m mapping the path's
	// coordinates (and the stroke's width) to the renderer's.
	RenderPath(path *Path, style Style, m Matrix)
	// RenderImage paints img with m mapping its pixel coordinates to the
	// renderer's: the image covers the rectangle from (0, 0) to its width
	// and height, its first row at the top (y from 0 to 1).
	RenderImage(img image.Image, m Matrix)
}
