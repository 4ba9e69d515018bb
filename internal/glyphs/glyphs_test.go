package glyphs

import (
	"errors"
	"math"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

func goBold(t *testing.T) *Font {
	t.Helper()
	f, err := Parse(gobold.TTF)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestOutlineOfA(t *testing.T) {
	f := goBold(t)
	// At 2048 units to the em, Go Bold's own units.
	p, w, err := f.Outline("A", 2048)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Bounds()
	// The A stands on the baseline, reaches the cap height (1480 units)
	// and fits in its advance.
	if b.Y0 != 0 || b.Y1 != 1480 {
		t.Errorf("A spans y %v..%v, want 0..1480", b.Y0, b.Y1)
	}
	if b.X0 < 0 || b.X1 > w || b.W() < 0.9*w {
		t.Errorf("A spans x %v..%v with an advance of %v", b.X0, b.X1, w)
	}
	// Its outline has the outer contour and the hole of the bar.
	contours := 0
	for s := range p.Segments() {
		if s.Cmd == 1 {
			contours++
		}
	}
	if contours != 2 {
		t.Errorf("A has %d contours, want 2", contours)
	}
	// Scaled to 10 units to the em, all of it scales.
	q, w10, _ := f.Outline("A", 10)
	if qb := q.Bounds(); math.Abs(qb.Y1-1480.0*10/2048) > 1e-9 || math.Abs(w10-w*10/2048) > 1e-9 {
		t.Errorf("at size 10: bounds %v, width %v", qb, w10)
	}
}

// TestWidthMatchesAdvances checks that a text's width is the sum of its
// glyphs' advances and kerning, as sfnt gives them, and that the outlines
// of each glyph start at the pen position.
func TestWidthMatchesAdvances(t *testing.T) {
	f := goBold(t)
	sf, _ := sfnt.Parse(gobold.TTF)
	var buf sfnt.Buffer
	ppem := fixed.I(2048)
	for _, s := range []string{"AVATAR Type", "żółw", "кошка", "Æble π", "To yo"} {
		want := fixed.Int26_6(0)
		var prev sfnt.GlyphIndex
		for i, r := range []rune(s) {
			g, _ := sf.GlyphIndex(&buf, r)
			if i > 0 {
				k, err := sf.Kern(&buf, prev, g, ppem, font.HintingNone)
				if err != nil && !errors.Is(err, sfnt.ErrNotFound) {
					t.Fatal(err)
				}
				want += k
			}
			a, _ := sf.GlyphAdvance(&buf, g, ppem, font.HintingNone)
			want += a
			prev = g
		}
		got, err := f.Width(s, 2048)
		if err != nil || got != float64(want)/64 {
			t.Errorf("Width(%q) = %v, %v; want %v", s, got, err, float64(want)/64)
		}
		_, ow, err := f.Outline(s, 2048)
		if err != nil || ow != got {
			t.Errorf("Outline(%q) width %v, %v; want %v", s, ow, err, got)
		}
	}
	// "AV": the V's outline starts one A's advance along.
	pa, wa, _ := f.Outline("A", 100)
	pv, _, _ := f.Outline("V", 100)
	pav, _, _ := f.Outline("AV", 100)
	if got, want := pav.Bounds().X1, wa+pv.Bounds().X1; math.Abs(got-want) > 1e-9 {
		t.Errorf("AV ends at %v, want %v", got, want)
	}
	if pav.Bounds().X0 != pa.Bounds().X0 {
		t.Error("AV does not start where A does")
	}
}

func TestMetricsAndCoverage(t *testing.T) {
	f := goBold(t)
	a, d := f.Metrics(2048)
	if a != 1935 || d != 432 {
		t.Errorf("metrics %v, %v; want Go Bold's 1935 and 432", a, d)
	}
	for _, r := range "Aaż€πЖ" {
		if !f.HasGlyph(r) {
			t.Errorf("no glyph for %q", r)
		}
	}
	for _, r := range "苹\U0001F600" {
		if f.HasGlyph(r) {
			t.Errorf("a glyph for %q", r)
		}
	}
	if _, _, err := f.Outline("a苹", 10); err == nil {
		t.Error("Outline of a character without a glyph succeeded")
	}
	if _, err := Parse([]byte("not a font")); err == nil {
		t.Error("Parse accepted junk")
	}
}
