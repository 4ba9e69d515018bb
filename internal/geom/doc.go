// Package geom holds the two-dimensional geometry that symbols and printed
// pages are drawn with: points, affine matrices, and paths made of lines
// and quadratic and cubic Bézier curves.
//
// A Path is built with MoveTo, LineTo, QuadTo, CubeTo, ArcTo and Close, or
// read from SVG path data with ParseSVGPath; elliptical arcs are turned
// into cubic Béziers as they are added, so a path only ever holds lines
// and Bézier curves. Paths can be transformed, measured (Bounds), flattened
// into polylines within a tolerance, written back as SVG path data, and
// stroked: Stroke returns the outline of a stroke as a path to fill.
//
// Style and Renderer describe how a path is painted; the PDF writer and
// the rasterizer implement Renderer, so that a picture draws itself onto
// either. Coordinates are whatever the caller uses: the package has no
// notion of units or of which way y points.
package geom
