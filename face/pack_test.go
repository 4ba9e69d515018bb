package face

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/layout"
	"github.com/dobble-dev/dobble/symbols/art"
)

// cardPixels is the side, in pixels, at which the tests rasterize a card:
// a pixel's diagonal is shorter than the gap layout.InkGap keeps between
// symbols (on the card's inset), so two symbols that keep it never touch
// one pixel.
const cardPixels = 320

// drawn is one symbol of a card as drawn: its picture and the matrix from
// the picture's coordinates to card units (the unit card, y down).
type drawn struct {
	id  int
	pic *art.Picture
	m   geom.Matrix
}

func fromPlacements(pls []placement) []drawn {
	out := make([]drawn, len(pls))
	for i, p := range pls {
		out[i] = drawn{id: p.id, pic: p.sym.pic, m: p.m}
	}
	return out
}

// symbolRaster is one symbol of a card drawn alone: the alpha of the
// pixels of rect, by row.
type symbolRaster struct {
	rect image.Rectangle
	pix  []uint8
}

func (r symbolRaster) at(x, y int) uint8 {
	if !(image.Point{x, y}).In(r.rect) {
		return 0
	}
	return r.pix[(y-r.rect.Min.Y)*r.rect.Dx()+x-r.rect.Min.X]
}

// rasterize draws each symbol of a card alone onto a card of side px
// pixels, within the square around its enclosing circle. It draws with
// drawMask, whose curves are exact, so that the tests see the outlines
// that browsers and PDF readers draw.
func rasterize(ds []drawn, px int) []symbolRaster {
	n := float64(px)
	m := geom.Identity.Translate(n/2, n/2).Scale(n/2, n/2)
	out := make([]symbolRaster, len(ds))
	for i, d := range ds {
		centre := d.m.Dot(d.pic.Center)
		reach := d.pic.Radius * math.Sqrt(math.Abs(d.m.Det())) * n / 2
		cx, cy := (centre.X+1)*n/2, (centre.Y+1)*n/2
		rect := image.Rect(int(cx-reach)-2, int(cy-reach)-2, int(cx+reach)+3, int(cy+reach)+3).Intersect(image.Rect(0, 0, px, px))
		mask := image.NewAlpha(image.Rect(0, 0, rect.Dx(), rect.Dy()))
		shift := geom.Identity.Translate(-float64(rect.Min.X), -float64(rect.Min.Y))
		drawMask(mask, d.pic, shift.Mul(m).Mul(d.m))
		out[i] = symbolRaster{rect: rect, pix: mask.Pix}
	}
	return out
}

// cardInk checks one card's drawing: no pixel is touched by two symbols
// nor by a symbol outside the card. It returns the share of the card's
// area the symbols ink (pixels at least half covered), or a description
// of the first violation.
func cardInk(ds []drawn, shape layout.Shape, px int) (float64, string) {
	rasters := rasterize(ds, px)
	inked, inside := 0, 0
	half := float64(px) / 2
	for y := 0; y < px; y++ {
		for x := 0; x < px; x++ {
			cx, cy := float64(x)+0.5-half, float64(y)+0.5-half
			var in bool
			if shape == layout.Round {
				in = math.Hypot(cx, cy) <= half-math.Sqrt2/2
			} else {
				in = math.Max(math.Abs(cx), math.Abs(cy)) <= half-0.5
			}
			if in {
				inside++
			}
			owner := -1
			var most uint8
			for i, r := range rasters {
				v := r.at(x, y)
				if v == 0 {
					continue
				}
				if owner >= 0 {
					return 0, fmt.Sprintf("symbols %d and %d both ink pixel (%d, %d)", ds[owner].id, ds[i].id, x, y)
				}
				owner, most = i, v
			}
			if owner >= 0 && !in {
				return 0, fmt.Sprintf("symbol %d inks pixel (%d, %d), outside the card", ds[owner].id, x, y)
			}
			if most >= 128 {
				inked++
			}
		}
	}
	return float64(inked) / float64(inside), ""
}

// sizeRatio returns the ratio of the largest symbol's size to the
// smallest's on a card.
func sizeRatio(pls []layout.Placement) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, p := range pls {
		lo, hi = math.Min(lo, p.R), math.Max(hi, p.R)
	}
	return hi / lo
}

// inkDecks returns the decks whose ink the tests measure: the editions,
// and the planes of orders 2 to 7 with the default pictures.
func inkDecks(t testing.TB) ([]string, []*Deck) {
	var names []string
	var decks []*Deck
	for _, name := range []string{"classic", "beach", "kids", "pancakes"} {
		e, err := deck.LookupEdition(name)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := EditionDeck(e, layout.Round, 1)
		if err != nil {
			t.Fatal(err)
		}
		names, decks = append(names, name), append(decks, fd)
	}
	for _, q := range []int{2, 3, 4, 5, 7} {
		d, err := deck.New(q, 0)
		if err != nil {
			t.Fatal(err)
		}
		syms, _, err := DefaultSymbols(d.Symbols())
		if err != nil {
			t.Fatal(err)
		}
		fd, err := NewDeck(d, syms, layout.Round, 1)
		if err != nil {
			t.Fatal(err)
		}
		names, decks = append(names, fmt.Sprintf("order %d", q)), append(decks, fd)
	}
	return names, decks
}

// minMeanInk is the least share of a card's area that the symbols ink,
// averaged over the decks of TestPackedCardsInkHalfTheCard.
const minMeanInk = 0.5

// drawnEvery is how far apart, in cards, the cards are that
// TestPackedCardsInkHalfTheCard draws pixel by pixel (every card of a small
// deck, and a deterministic sample of each larger one); with -short it
// draws a third as many.
const drawnEvery = 4

// inkPixels is the side, in pixels, of the square around a symbol's
// enclosing circle at which symbolInk measures its ink.
const inkPixels = 256

// symbolInk returns the share of a symbol's enclosing circle that its
// ink covers: the area its drawing covers, by coverage.
func symbolInk(t testing.TB, s *Symbol) float64 {
	if s.pic == nil {
		t.Fatalf("symbol %q is not a picture", s.Name)
	}
	c, r := s.circle()
	k := inkPixels / 2 / r
	mask := image.NewAlpha(image.Rect(0, 0, inkPixels, inkPixels))
	drawMask(mask, s.pic, geom.Identity.Translate(inkPixels/2, inkPixels/2).Scale(k, k).Translate(-c.X, -c.Y))
	inked := 0
	for _, a := range mask.Pix {
		inked += int(a)
	}
	return float64(inked) / 255 / (math.Pi * inkPixels * inkPixels / 4)
}

// layoutInk returns the share of the card's area that the symbols of a
// layout ink, from each symbol's own ink (symbolInk) and its size: the
// symbols' ink never overlaps, so the card's ink is the sum of theirs.
func layoutInk(pls []layout.Placement, shape layout.Shape, ink []float64) float64 {
	area := 4.0
	if shape == layout.Round {
		area = math.Pi
	}
	sum := 0.0
	for _, p := range pls {
		r := p.R * Inset
		sum += ink[p.Symbol] * math.Pi * r * r
	}
	return sum / area
}

// TestPackedCardsInkHalfTheCard checks the packing of the editions and of
// the planes of orders 2 to 7. It draws every drawnEvery-th card (every
// third of those with -short) and the last, pixel by pixel, and checks that
// no two symbols touch one pixel and that none crosses the card's edge.
// Over every card, from the layouts, it checks that the largest symbol is
// at least layout.SizeRatio times the smallest and that on average half
// the card is inked, as the drawing counts ink (pixels at least half
// covered): the ink area every layout gives (layoutInk), plus how much more
// the drawn cards show than their layouts give (the pixels on the ink's
// edge), which the drawn cards measure for their whole deck.
func TestPackedCardsInkHalfTheCard(t *testing.T) {
	every := drawnEvery
	if testing.Short() {
		every *= 3
	}
	names, decks := inkDecks(t)
	var sum float64
	for i, fd := range decks {
		fd.LayOutAll()
		ink := make([]float64, len(fd.symbols))
		for s, sym := range fd.symbols {
			ink[s] = symbolInk(t, sym)
		}
		var areaInk, drawnInk, drawnArea float64
		drawn := 0
		minRatio := math.Inf(1)
		for c := 0; c < fd.Len(); c++ {
			pls := fd.Layout(c)
			ratio := sizeRatio(pls)
			if ratio < layout.SizeRatio-1e-9 {
				t.Errorf("%s card %d: the largest symbol is %.2f times the smallest, want ≥ %d", names[i], c, ratio, layout.SizeRatio)
			}
			minRatio = math.Min(minRatio, ratio)
			area := layoutInk(pls, fd.Shape(), ink)
			areaInk += area
			if c%every != 0 && c != fd.Len()-1 {
				continue
			}
			pixels, bad := cardInk(fromPlacements(fd.placements(c)), fd.Shape(), cardPixels)
			if bad != "" {
				t.Fatalf("%s card %d: %s", names[i], c, bad)
			}
			// The ink's edge pixels are all that tell the two apart.
			if math.Abs(pixels-area) > 0.02 {
				t.Errorf("%s card %d: the drawing inks %.1f %% of the card, the layout %.1f %%", names[i], c, 100*pixels, 100*area)
			}
			drawnInk += pixels
			drawnArea += area
			drawn++
		}
		deckInk := areaInk/float64(fd.Len()) + (drawnInk-drawnArea)/float64(drawn)
		t.Logf("%s: %.1f %% of the card inked on average (%.1f %% by area; %d cards drawn); sizes differ at least %.2f×", names[i], 100*deckInk, 100*areaInk/float64(fd.Len()), drawn, minRatio)
		sum += deckInk
	}
	mean := sum / float64(len(decks))
	t.Logf("mean: %.1f %%", 100*mean)
	if mean < minMeanInk {
		t.Errorf("the cards ink %.1f %% of their area on average, want ≥ %.0f %%", 100*mean, 100*minMeanInk)
	}
}
