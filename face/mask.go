package face

import (
	"image"
	"math"

	"github.com/dobble-dev/dobble/symbols/art"
	"github.com/tdewolff/canvas"
	"golang.org/x/image/vector"
)

// maskTolerance is how far, in pixels, a stroke's outline may stray from
// the true one.
const maskTolerance = 0.05

// drawMask adds the ink of picture p to dst: every pixel that any of its
// shapes (fills and strokes) covers, by coverage. m maps picture
// coordinates to dst's pixels (y down). Paths are filled by
// golang.org/x/image/vector, which draws their curves itself, by coverage,
// so a hole of an even-odd shape counts as ink: a mask may only ever have
// too much ink, never too little.
func drawMask(dst *image.Alpha, p *art.Picture, m canvas.Matrix) {
	b := dst.Bounds()
	z := vector.NewRasterizer(b.Dx(), b.Dy())
	for _, s := range p.Shapes {
		var paths []*canvas.Path
		if s.Fill.A > 0 {
			paths = append(paths, s.Path)
		}
		if s.Stroke.A > 0 && s.StrokeWidth > 0 {
			capper, joiner := canvas.Capper(canvas.ButtCap), canvas.Joiner(canvas.MiterJoin)
			if s.RoundStroke {
				capper, joiner = canvas.RoundCap, canvas.RoundJoin
			}
			// The stroke's outline, with a tolerance finer than a pixel.
			tol := maskTolerance / math.Max(1e-9, math.Sqrt(math.Abs(m.Det())))
			paths = append(paths, s.Path.Stroke(s.StrokeWidth, capper, joiner, tol))
		}
		for _, path := range paths {
			z.Reset(b.Dx(), b.Dy())
			// Arcs become cubic Béziers; vector draws curves itself.
			flat := path.Copy().Transform(m).ReplaceArcs()
			open := false
			for sc := flat.Scanner(); sc.Scan(); {
				e := sc.End()
				switch sc.Cmd() {
				case canvas.MoveToCmd:
					if open {
						z.ClosePath()
					}
					z.MoveTo(float32(e.X), float32(e.Y))
					open = true
				case canvas.CloseCmd:
					z.ClosePath()
					open = false
				case canvas.QuadToCmd:
					c := sc.CP1()
					z.QuadTo(float32(c.X), float32(c.Y), float32(e.X), float32(e.Y))
				case canvas.CubeToCmd:
					c1, c2 := sc.CP1(), sc.CP2()
					z.CubeTo(float32(c1.X), float32(c1.Y), float32(c2.X), float32(c2.Y), float32(e.X), float32(e.Y))
				default:
					z.LineTo(float32(e.X), float32(e.Y))
				}
			}
			if open {
				z.ClosePath()
			}
			z.Draw(dst, b, image.Opaque, image.Point{})
		}
	}
}
