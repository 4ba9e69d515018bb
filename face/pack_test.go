package face

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/layout"
	"github.com/tdewolff/canvas"
)

// cardPixels is the side, in pixels, at which the tests rasterize a card:
// a pixel's diagonal is shorter than the gap layout.InkGap keeps between
// symbols, so two symbols that keep it never touch one pixel.
const cardPixels = 256

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

// rasterize draws each placement of a card alone onto a card of side px
// pixels, within the square around its enclosing circle. It draws with
// drawMask, whose curves are exact, so that the tests see the outlines
// that browsers and PDF readers draw.
func rasterize(pls []placement, px int) []symbolRaster {
	n := float64(px)
	m := canvas.Identity.Translate(n/2, n/2).Scale(n/2, n/2)
	out := make([]symbolRaster, len(pls))
	for i, p := range pls {
		_, r := p.sym.circle()
		centre := p.m.Dot(p.sym.pic.Center)
		reach := r * math.Hypot(p.m[0][0], p.m[1][0]) * n / 2
		cx, cy := (centre.X+1)*n/2, (centre.Y+1)*n/2
		rect := image.Rect(int(cx-reach)-2, int(cy-reach)-2, int(cx+reach)+3, int(cy+reach)+3).Intersect(image.Rect(0, 0, px, px))
		mask := image.NewAlpha(image.Rect(0, 0, rect.Dx(), rect.Dy()))
		shift := canvas.Identity.Translate(-float64(rect.Min.X), -float64(rect.Min.Y))
		drawMask(mask, p.sym.pic, shift.Mul(m).Mul(p.m))
		out[i] = symbolRaster{rect: rect, pix: mask.Pix}
	}
	return out
}

// cardInk checks one card's drawing: no pixel is touched by two symbols
// nor by a symbol outside the card. It returns the share of the card's
// area the symbols ink (pixels at least half covered) and the ratio of
// its largest symbol's size to its smallest's, or a description of the
// first violation.
func cardInk(pls []placement, spots []layout.Placement, shape layout.Shape, px int) (ink, ratio float64, bad string) {
	rasters := rasterize(pls, px)
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
					return 0, 0, fmt.Sprintf("symbols %d and %d both ink pixel (%d, %d)", pls[owner].id, pls[i].id, x, y)
				}
				owner, most = i, v
			}
			if owner >= 0 && !in {
				return 0, 0, fmt.Sprintf("symbol %d inks pixel (%d, %d), outside the card", pls[owner].id, x, y)
			}
			if most >= 128 {
				inked++
			}
		}
	}
	lo, hi := math.Inf(1), 0.0
	for _, p := range spots {
		lo, hi = math.Min(lo, p.R), math.Max(hi, p.R)
	}
	return float64(inked) / float64(inside), hi / lo, ""
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

func TestPackedCardsInkHalfTheCard(t *testing.T) {
	names, decks := inkDecks(t)
	var sum float64
	for i, fd := range decks {
		var deckInk float64
		minRatio := math.Inf(1)
		for c := 0; c < fd.Len(); c++ {
			ink, ratio, bad := cardInk(fd.placements(c), fd.plan.Card(c), fd.Shape(), cardPixels)
			if bad != "" {
				t.Fatalf("%s card %d: %s", names[i], c, bad)
			}
			deckInk += ink
			minRatio = math.Min(minRatio, ratio)
		}
		deckInk /= float64(fd.Len())
		t.Logf("%s: %.1f %% of the card inked on average; sizes differ at least %.2f×", names[i], 100*deckInk, minRatio)
		sum += deckInk
	}
	t.Logf("mean: %.1f %%", 100*sum/float64(len(decks)))
}
