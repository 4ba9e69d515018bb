package raster

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/dobble-dev/dobble/internal/geom"
)

// area returns the sum of a mask's coverage, in pixels.
func area(m *image.Alpha) float64 {
	s := 0
	for _, a := range m.Pix {
		s += int(a)
	}
	return float64(s) / 255
}

func fill(p *geom.Path, rule geom.FillRule, size int) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, size, size))
	Fill(m, p, rule)
	return m
}

func square(x, y, side float64, clockwise bool) *geom.Path {
	p := &geom.Path{}
	p.MoveTo(x, y)
	if clockwise {
		p.LineTo(x, y+side)
		p.LineTo(x+side, y+side)
		p.LineTo(x+side, y)
	} else {
		p.LineTo(x+side, y)
		p.LineTo(x+side, y+side)
		p.LineTo(x, y+side)
	}
	p.Close()
	return p
}

func TestFillSquare(t *testing.T) {
	m := fill(square(2, 3, 10, false), geom.NonZero, 20)
	for y := 0; y < 20; y++ {
		for x := 0; x < 20; x++ {
			want := uint8(0)
			if x >= 2 && x < 12 && y >= 3 && y < 13 {
				want = 255
			}
			if got := m.AlphaAt(x, y).A; got != want {
				t.Fatalf("pixel (%d, %d) = %d, want %d", x, y, got, want)
			}
		}
	}
	// Half a pixel off the grid: the edge pixels are half covered.
	h := fill(square(2.5, 2.5, 10, true), geom.NonZero, 20)
	if a := area(h); math.Abs(a-100) > 0.1 {
		t.Errorf("area %v, want 100", a)
	}
	if got := h.AlphaAt(2, 5).A; got < 126 || got > 129 {
		t.Errorf("edge pixel %d, want about 128", got)
	}
	if got := h.AlphaAt(2, 2).A; got < 62 || got > 66 {
		t.Errorf("corner pixel %d, want about 64", got)
	}
}

// TestFillRules fills two nested squares wound the same way: the non-zero
// rule fills the inner one too, the even-odd rule leaves it a hole. Wound
// opposite ways, both leave the hole.
func TestFillRules(t *testing.T) {
	for _, c := range []struct {
		opposite bool
		rule     geom.FillRule
		want     float64
	}{
		{false, geom.NonZero, 400},
		{false, geom.EvenOdd, 300},
		{true, geom.NonZero, 300},
		{true, geom.EvenOdd, 300},
	} {
		p := square(5, 5, 20, false)
		p.Append(square(10, 10, 10, c.opposite))
		m := fill(p, c.rule, 30)
		if a := area(m); a != c.want {
			t.Errorf("rule %d, inner wound opposite %v: area %v, want %v", c.rule, c.opposite, a, c.want)
		}
		inner := m.AlphaAt(15, 15).A
		if (c.want == 400) != (inner == 255) || inner != 0 && inner != 255 {
			t.Errorf("rule %d, inner wound opposite %v: the centre is %d", c.rule, c.opposite, inner)
		}
	}
}

func TestFillCircleAndClipping(t *testing.T) {
	m := fill(geom.Circle(20).Translate(32, 32), geom.NonZero, 64)
	if a, want := area(m), math.Pi*400; math.Abs(a-want) > want*0.003 {
		t.Errorf("circle area %v, want %v", a, want)
	}
	// Half outside the image: half the area.
	h := fill(geom.Circle(20).Translate(0, 32), geom.NonZero, 64)
	if a, want := area(h), math.Pi*200; math.Abs(a-want) > want*0.005 {
		t.Errorf("clipped circle area %v, want %v", a, want)
	}
	// Coverage adds up as a union: the same square twice is still one.
	p := square(1, 1, 5, false)
	twice := fill(p, geom.NonZero, 10)
	Fill(twice, p, geom.NonZero)
	if a := area(twice); a != 25 {
		t.Errorf("a square filled twice covers %v", a)
	}
}

func line(pts ...geom.Point) *geom.Path {
	p := &geom.Path{}
	p.MoveTo(pts[0].X, pts[0].Y)
	for _, q := range pts[1:] {
		p.LineTo(q.X, q.Y)
	}
	return p
}

func strokeArea(p *geom.Path, w float64, c geom.Cap, j geom.Join) float64 {
	return area(fill(p.Stroke(w, c, j, Tolerance), geom.NonZero, 64))
}

func TestStroke(t *testing.T) {
	h := line(geom.Point{X: 10, Y: 20}, geom.Point{X: 50, Y: 20})
	// Width 4 by 40 long.
	if a := strokeArea(h, 4, geom.ButtCap, geom.MiterJoin); math.Abs(a-160) > 0.01 {
		t.Errorf("butt-capped line: %v pixels, want 160", a)
	}
	m := fill(h.Stroke(4, geom.ButtCap, geom.MiterJoin, Tolerance), geom.NonZero, 64)
	if m.AlphaAt(30, 17).A != 0 || m.AlphaAt(30, 18).A != 255 || m.AlphaAt(30, 21).A != 255 || m.AlphaAt(30, 22).A != 0 {
		t.Error("the line's stroke does not cover rows 18 to 21 exactly")
	}
	// Round caps add two half discs of radius 2.
	if a, want := strokeArea(h, 4, geom.RoundCap, geom.RoundJoin), 160+math.Pi*4; math.Abs(a-want) > 0.2 {
		t.Errorf("round-capped line: %v pixels, want %v", a, want)
	}
	// A right angle, 20 + 20 long, 4 wide: the miter fills the outer
	// corner square, a round join a quarter disc of it.
	corner := line(geom.Point{X: 10, Y: 10}, geom.Point{X: 30, Y: 10}, geom.Point{X: 30, Y: 30})
	if a := strokeArea(corner, 4, geom.ButtCap, geom.MiterJoin); math.Abs(a-160) > 0.01 {
		t.Errorf("mitred corner: %v pixels, want 160", a)
	}
	if a, want := strokeArea(corner, 4, geom.ButtCap, geom.RoundJoin), 156+math.Pi; math.Abs(a-want) > 0.1 {
		t.Errorf("round corner: %v pixels, want %v", a, want)
	}
	// A closed square's stroke is a frame with mitred corners.
	if a := strokeArea(square(10, 10, 20, true), 2, geom.ButtCap, geom.MiterJoin); math.Abs(a-160) > 0.01 {
		t.Errorf("square frame: %v pixels, want 22² - 18² = 160", a)
	}
	// A turn sharper than the miter limit allows is bevelled: nothing
	// reaches further than 4 half widths from the vertex.
	sharp := line(geom.Point{X: 10, Y: 30}, geom.Point{X: 50, Y: 32}, geom.Point{X: 10, Y: 34})
	b := sharp.Stroke(4, geom.ButtCap, geom.MiterJoin, Tolerance).Bounds()
	if b.X1 > 50+4*2 || b.X1 < 50 {
		t.Errorf("sharp turn reaches x = %v", b.X1)
	}
	// A dot: nothing with butt caps, a disc with round ones.
	dot := line(geom.Point{X: 20, Y: 20}, geom.Point{X: 20, Y: 20})
	if a := strokeArea(dot, 6, geom.ButtCap, geom.MiterJoin); a != 0 {
		t.Errorf("a butt-capped dot covers %v", a)
	}
	if a, want := strokeArea(dot, 6, geom.RoundCap, geom.RoundJoin), math.Pi*9; math.Abs(a-want) > 0.3 {
		t.Errorf("a round dot covers %v, want %v", a, want)
	}
	// A curve's stroke is a band of the curve's length times the width.
	arc := &geom.Path{}
	arc.MoveTo(52, 32)
	arc.ArcTo(20, 20, 0, false, true, 12, 32) // half a circle about (32, 32)
	if a, want := strokeArea(arc, 2, geom.ButtCap, geom.MiterJoin), math.Pi*20*2; math.Abs(a-want) > want*0.01 {
		t.Errorf("stroked half circle: %v pixels, want %v", a, want)
	}
}

func TestRenderer(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 20, 20))
	r := NewRenderer(img)
	white := geom.Style{Fill: color.NRGBA{255, 255, 255, 255}}
	r.RenderPath(geom.Rectangle(20, 20), white, geom.Identity)
	// A half-transparent red square, scaled up from a unit one.
	red := geom.Style{Fill: color.NRGBA{255, 0, 0, 128}}
	r.RenderPath(geom.Rectangle(1, 1), red, geom.Identity.Translate(2, 2).Scale(6, 6))
	if got := img.RGBAAt(5, 5); got.R != 255 || got.G < 125 || got.G > 129 || got.B != got.G {
		t.Errorf("half red over white = %v", got)
	}
	if got := img.RGBAAt(9, 9); got != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("outside the square = %v", got)
	}
	// A blue stroke, 2 wide after scaling.
	blue := geom.Style{Stroke: color.NRGBA{0, 0, 255, 255}, StrokeWidth: 1}
	r.RenderPath(line(geom.Point{X: 0, Y: 8}, geom.Point{X: 10, Y: 8}), blue, geom.Identity.Translate(5, 0).Scale(1, 2).Translate(0, -0.5).Scale(2, 1))
	if got := img.RGBAAt(10, 15); got != (color.RGBA{0, 0, 255, 255}) {
		t.Errorf("stroke pixel = %v", got)
	}
	// An image of 2×1 pixels, scaled 4 times.
	src := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	src.SetNRGBA(0, 0, color.NRGBA{0, 200, 0, 255})
	src.SetNRGBA(1, 0, color.NRGBA{0, 0, 0, 0})
	r.RenderImage(src, geom.Identity.Translate(12, 0).Scale(4, 4))
	if got := img.RGBAAt(12, 1); got.G < 150 || got.R > 60 {
		t.Errorf("image pixel = %v, want green", got)
	}
	if got := img.RGBAAt(19, 3); got != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("transparent image pixel = %v, want the white below", got)
	}
}
