// Package glyphs turns text into the outlines of its glyphs, from a
// TrueType or OpenType font read with golang.org/x/image/font/sfnt: each
// character's glyph placed at its advance, with the font's kerning, so
// that text can be drawn as plain paths (SVG and PDF then need no fonts).
// It does no shaping beyond kerning: no ligatures, no right-to-left
// scripts and no mark positioning, which the Latin, Greek and Cyrillic
// text it sets in precomposed (NFC) form does not need.
package glyphs

import (
	"errors"
	"fmt"

	"github.com/dobble-dev/dobble/internal/geom"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Font is a parsed font. It is safe for concurrent use.
type Font struct {
	f *sfnt.Font
	// ppem is the size glyphs are loaded at: one unit per font unit,
	// so outlines and advances come exact.
	ppem fixed.Int26_6
	// upem is the number of font units in an em.
	upem float64
	// ascent and descent are the font's line metrics in font units,
	// both positive.
	ascent, descent float64
}

// Parse reads a TrueType or OpenType font.
func Parse(data []byte) (*Font, error) {
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, err
	}
	upem := int(f.UnitsPerEm())
	if upem <= 0 {
		return nil, errors.New("the font has no units per em")
	}
	ft := &Font{f: f, ppem: fixed.I(upem), upem: float64(upem)}
	var buf sfnt.Buffer
	m, err := f.Metrics(&buf, ft.ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	ft.ascent, ft.descent = fromFixed(m.Ascent), fromFixed(m.Descent)
	return ft, nil
}

func fromFixed(v fixed.Int26_6) float64 { return float64(v) / 64 }

// HasGlyph reports whether the font has a glyph for r.
func (f *Font) HasGlyph(r rune) bool {
	var buf sfnt.Buffer
	g, err := f.f.GlyphIndex(&buf, r)
	return err == nil && g != 0
}

// Metrics returns the font's ascent (above the baseline) and descent
// (below it, positive) at a font size of size units to the em.
func (f *Font) Metrics(size float64) (ascent, descent float64) {
	k := size / f.upem
	return f.ascent * k, f.descent * k
}

// glyph is one character of a text, placed.
type glyph struct {
	index sfnt.GlyphIndex
	r     rune
	x     float64 // the pen position, in font units
}

// layout places the characters of s: each at the pen position, which
// moves on by the glyph's advance plus the kerning with the next one. It
// returns the glyphs and the advance width of the whole text, in font
// units.
func (f *Font) layout(buf *sfnt.Buffer, s string) ([]glyph, float64, error) {
	var gs []glyph
	x := 0.0
	var prev sfnt.GlyphIndex
	for i, r := range []rune(s) {
		g, err := f.f.GlyphIndex(buf, r)
		if err != nil {
			return nil, 0, err
		}
		if g == 0 {
			return nil, 0, fmt.Errorf("the font has no glyph for %q (U+%04X)", r, r)
		}
		if i > 0 {
			k, err := f.f.Kern(buf, prev, g, f.ppem, font.HintingNone)
			if err == nil {
				x += fromFixed(k)
			} else if !errors.Is(err, sfnt.ErrNotFound) {
				return nil, 0, err
			}
		}
		adv, err := f.f.GlyphAdvance(buf, g, f.ppem, font.HintingNone)
		if err != nil {
			return nil, 0, err
		}
		gs = append(gs, glyph{index: g, r: r, x: x})
		x += fromFixed(adv)
		prev = g
	}
	return gs, x, nil
}

// Width returns the advance width of s at a font size of size units to
// the em: the sum of its glyphs' advances and of the kerning between them.
func (f *Font) Width(s string, size float64) (float64, error) {
	var buf sfnt.Buffer
	_, w, err := f.layout(&buf, s)
	return w * size / f.upem, err
}

// Outline returns the outlines of the glyphs of s at a font size of size
// units to the em, y up with the baseline at y = 0 and the text starting
// at x = 0, and the text's advance width. The outlines are those of the
// font, quadratic (TrueType) or cubic (CFF) curves, one closed subpath a
// contour, wound as the font winds them: fill them with the non-zero rule.
func (f *Font) Outline(s string, size float64) (*geom.Path, float64, error) {
	var buf sfnt.Buffer
	gs, w, err := f.layout(&buf, s)
	if err != nil {
		return nil, 0, err
	}
	k := size / f.upem
	p := &geom.Path{}
	for _, g := range gs {
		segs, err := f.f.LoadGlyph(&buf, g.index, f.ppem, nil)
		if err != nil {
			return nil, 0, fmt.Errorf("glyph of %q: %v", g.r, err)
		}
		// sfnt's y points down.
		pt := func(a fixed.Point26_6) (float64, float64) {
			return (g.x + fromFixed(a.X)) * k, -fromFixed(a.Y) * k
		}
		open := false
		for _, s := range segs {
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				if open {
					p.Close()
				}
				p.MoveTo(pt(s.Args[0]))
				open = true
			case sfnt.SegmentOpLineTo:
				p.LineTo(pt(s.Args[0]))
			case sfnt.SegmentOpQuadTo:
				cx, cy := pt(s.Args[0])
				x, y := pt(s.Args[1])
				p.QuadTo(cx, cy, x, y)
			case sfnt.SegmentOpCubeTo:
				c1x, c1y := pt(s.Args[0])
				c2x, c2y := pt(s.Args[1])
				x, y := pt(s.Args[2])
				p.CubeTo(c1x, c1y, c2x, c2y, x, y)
			}
		}
		if open {
			p.Close()
		}
	}
	return p, w * k, nil
}
