// Package raster paints paths into images: an anti-aliasing scanline
// rasterizer that fills by the non-zero or the even-odd rule, and a
// Renderer that paints pictures onto an RGBA image, for the tests that look
// at what a drawing covers (symbols/art's checks of the vendored pictures,
// down to the thumbnails that tell look-alike symbols apart). The cards
// themselves are rasterized by package face.
//
// The rasterizer flattens curves into lines, then samples every pixel row
// on 16 evenly spaced scanlines. On each scanline it finds where the edges
// cross, applies the fill rule to the winding numbers between crossings,
// and adds the covered spans with their exact horizontal extent, so a
// pixel's coverage is exact across and within 1/16 of a pixel down.
package raster

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/dobble-dev/dobble/internal/geom"
)

// subsamples is the number of scanlines sampled per pixel row.
const subsamples = 16

// Tolerance is how far, in pixels, the lines that curves are flattened
// into may stray from them.
const Tolerance = 0.05

// edge is one line of a flattened path, from top to bottom (y0 < y1), with
// the direction it was drawn in: +1 downwards, -1 upwards.
type edge struct {
	x0, y0, x1, y1 float64
	dir            int
}

// edges returns the lines of the path's flattened subpaths, each closed.
func edges(p *geom.Path) []edge {
	var out []edge
	for _, pl := range p.Polylines(Tolerance) {
		pts := pl.Points
		for i, a := range pts {
			b := pts[(i+1)%len(pts)]
			switch {
			case a.Y < b.Y:
				out = append(out, edge{a.X, a.Y, b.X, b.Y, 1})
			case a.Y > b.Y:
				out = append(out, edge{b.X, b.Y, a.X, a.Y, -1})
			}
		}
	}
	return out
}

// crossing is where an edge crosses a scanline.
type crossing struct {
	x   float64
	dir int
}

// Fill adds the coverage of path, in dst's pixel coordinates and filled
// by rule, to dst: each pixel becomes the union of what it held and what
// the path covers (a + c - a·c).
func Fill(dst *image.Alpha, path *geom.Path, rule geom.FillRule) {
	b := dst.Bounds()
	es := edges(path)
	if len(es) == 0 || b.Empty() {
		return
	}
	slices.SortFunc(es, func(a, b edge) int { return cmp.Compare(a.y0, b.y0) })
	ymin, ymax := es[0].y0, es[0].y1
	for _, e := range es {
		ymax = math.Max(ymax, e.y1)
	}
	row0 := max(b.Min.Y, int(math.Floor(ymin)))
	row1 := min(b.Max.Y, int(math.Ceil(ymax)))
	w := b.Dx()
	// partial holds the coverage of pixels that spans cover in part; run
	// the changes of full coverage along the row (a running sum).
	partial := make([]float64, w)
	run := make([]float64, w+1)
	var active []edge
	var xs []crossing
	next := 0
	const weight = 1.0 / subsamples
	for row := row0; row < row1; row++ {
		touched := false
		for k := 0; k < subsamples; k++ {
			y := float64(row) + (float64(k)+0.5)/subsamples
			for next < len(es) && es[next].y0 <= y {
				active = append(active, es[next])
				next++
			}
			active = slices.DeleteFunc(active, func(e edge) bool { return e.y1 <= y })
			xs = xs[:0]
			for _, e := range active {
				if e.y0 > y {
					continue
				}
				x := e.x0 + (y-e.y0)*(e.x1-e.x0)/(e.y1-e.y0)
				xs = append(xs, crossing{x, e.dir})
			}
			if len(xs) < 2 {
				continue
			}
			slices.SortFunc(xs, func(a, b crossing) int { return cmp.Compare(a.x, b.x) })
			winding := 0
			for i := 0; i+1 < len(xs); i++ {
				winding += xs[i].dir
				inside := winding != 0
				if rule == geom.EvenOdd {
					inside = winding%2 != 0
				}
				if inside {
					addSpan(partial, run, xs[i].x-float64(b.Min.X), xs[i+1].x-float64(b.Min.X), weight)
					touched = true
				}
			}
		}
		if !touched {
			continue
		}
		sum := 0.0
		pix := dst.Pix[dst.PixOffset(b.Min.X, row):]
		for x := 0; x < w; x++ {
			sum += run[x]
			c := math.Min(1, math.Max(0, partial[x]+sum))
			a := float64(pix[x]) / 255
			pix[x] = uint8(math.Round(255 * (a + c - a*c)))
			partial[x], run[x] = 0, 0
		}
		run[w] = 0
	}
}

// addSpan adds coverage weight to the pixels from x0 to x1 (in pixels
// from the row's start), the ones at the ends in part.
func addSpan(partial, run []float64, x0, x1, weight float64) {
	w := float64(len(partial))
	x0, x1 = math.Max(0, x0), math.Min(w, x1)
	if !(x1 > x0) {
		return
	}
	i0, i1 := int(x0), int(x1)
	if i0 == i1 {
		partial[i0] += (x1 - x0) * weight
		return
	}
	partial[i0] += (float64(i0+1) - x0) * weight
	// Pixels i0+1 to i1-1 are covered in full.
	run[i0+1] += weight
	run[i1] -= weight
	if i1 < len(partial) {
		partial[i1] += (x1 - float64(i1)) * weight
	}
}
