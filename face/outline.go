package face

import (
	"image"
	"sync"

	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/layout"
)

// outlineSide returns the side, in cells, of the masks that the outlines
// of a deck with k symbols a card are made from: 256 for 8 symbols, fewer
// for more (and smaller) symbols, so that a cell is about as large on the
// card and a deck's outlines take a few megabytes at most.
func outlineSide(k int) int {
	return min(256, max(64, 2048/k/16*16))
}

// textTurn is how far words may turn either way from upright, in degrees.
const textTurn = 40

// textGap is the room kept around a word's ink, as a share of its
// enclosing circle's radius, so that words on a card keep clear of each
// other and do not read as one phrase.
const textGap = 0.06

// lazyOutline is a symbol's outline in one deck, made at its first use.
type lazyOutline struct {
	once sync.Once
	o    *layout.Outline
}

// outline returns the outline of symbol s for layout.Fit: its drawing
// rasterized into a mask the first time it is asked for.
func (d *Deck) outline(s int) *layout.Outline {
	l := &d.outlines[s]
	l.once.Do(func() { l.o = d.symbols[s].outline(d.side) })
	return l.o
}

// outline returns the outline of the symbol's ink from a mask of n×n
// cells.
func (s *Symbol) outline(n int) *layout.Outline {
	inked := make([]bool, n*n)
	c, r := s.circle()
	if s.pic != nil {
		k := float64(n) / 2 / r
		mask := image.NewAlpha(image.Rect(0, 0, n, n))
		// The enclosing circle fills the mask.
		drawMask(mask, s.pic, geom.Identity.Translate(float64(n)/2, float64(n)/2).Scale(k, k).Translate(-c.X, -c.Y))
		for i, a := range mask.Pix {
			inked[i] = a > 0
		}
	} else {
		// Every cell that a pixel with any opacity overlaps.
		img := s.img.img
		b := img.Bounds()
		cell := 2 * r / float64(n) // in pixels
		for py := b.Min.Y; py < b.Max.Y; py++ {
			for px := b.Min.X; px < b.Max.X; px++ {
				if _, _, _, a := img.At(px, py).RGBA(); a == 0 {
					continue
				}
				x0, x1 := cellOf(float64(px-b.Min.X), c.X, r, cell, n), cellOf(float64(px-b.Min.X+1), c.X, r, cell, n)
				y0, y1 := cellOf(float64(py-b.Min.Y), c.Y, r, cell, n), cellOf(float64(py-b.Min.Y+1), c.Y, r, cell, n)
				for y := y0; y <= y1; y++ {
					for x := x0; x <= x1; x++ {
						inked[y*n+x] = true
					}
				}
			}
		}
	}
	pad, turn := 0.0, 180.0
	if s.upright {
		pad, turn = textGap, textTurn
	}
	o, err := layout.NewOutline(n, inked, pad, turn)
	if err != nil {
		// No ink the mask can see (a drawing too fine for it): the
		// enclosing circle is a safe outline.
		return layout.Disc()
	}
	return o
}

// cellOf returns the mask cell, clamped to the mask, of pixel coordinate
// p for a circle centred on c with radius r and cells cell pixels wide.
func cellOf(p, c, r, cell float64, n int) int {
	i := int((p - c + r) / cell)
	return min(max(i, 0), n-1)
}
