package face

import (
	"image"
	"math"

	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/symbols/art"
	"golang.org/x/image/vector"
)

// maskTolerance is how far, in pixels, a stroke's outline may stray from
// the true one.
const maskTolerance = 0.05

// drawMask adds the ink of picture p to dst: every pixel that any of its
// shapes (fills and strokes) covers, by coverage. m maps picture
// coordinates to dst's pixels (y down). Strokes become their outlines
// (geom.Path.Stroke), then every path is filled by
// golang.org/x/image/vector, which draws curves itself, by exact area
// coverage and as if by the non-zero rule, so a hole of an even-odd shape
// wound like its outside counts as ink: a mask may only ever have too
// much ink, never too little.
func drawMask(dst *image.Alpha, p *art.Picture, m geom.Matrix) {
	b := dst.Bounds()
	z := vector.NewRasterizer(b.Dx(), b.Dy())
	for _, s := range p.Shapes {
		var paths []*geom.Path
		if s.Fill.A > 0 {
			paths = append(paths, s.Path)
		}
		if s.Stroke.A > 0 && s.StrokeWidth > 0 {
			capper, joiner := geom.ButtCap, geom.MiterJoin
			if s.RoundStroke {
				capper, joiner = geom.RoundCap, geom.RoundJoin
			}
			// The stroke's outline, with a tolerance finer than a pixel.
			tol := maskTolerance / math.Max(1e-9, math.Sqrt(math.Abs(m.Det())))
			paths = append(paths, s.Path.Stroke(s.StrokeWidth, capper, joiner, tol))
		}
		for _, path := range paths {
			z.Reset(b.Dx(), b.Dy())
			open := false
			for sc := range path.Transform(m).Segments() {
				switch sc.Cmd {
				case geom.MoveToCmd:
					if open {
						z.ClosePath()
					}
					z.MoveTo(float32(sc.P[0].X), float32(sc.P[0].Y))
					open = true
				case geom.CloseCmd:
					z.ClosePath()
					open = false
				case geom.LineToCmd:
					z.LineTo(float32(sc.P[0].X), float32(sc.P[0].Y))
				case geom.QuadToCmd:
					c, e := sc.P[0], sc.P[1]
					z.QuadTo(float32(c.X), float32(c.Y), float32(e.X), float32(e.Y))
				case geom.CubeToCmd:
					c1, c2, e := sc.P[0], sc.P[1], sc.P[2]
					z.CubeTo(float32(c1.X), float32(c1.Y), float32(c2.X), float32(c2.Y), float32(e.X), float32(e.Y))
				}
			}
			if open {
				z.ClosePath()
			}
			z.Draw(dst, b, image.Opaque, image.Point{})
		}
	}
}
