package face

import (
	"fmt"
	"image"
	"math"

	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/symbols"
	"github.com/dobble-dev/dobble/symbols/art"
)

// Symbol is how one symbol looks on a card. Exactly one of its picture and
// its raster image is set. A Symbol is immutable and safe for concurrent
// use.
type Symbol struct {
	// Name says what the symbol is: its English name, the word itself, or
	// the image's file name.
	Name string
	pic  *art.Picture
	img  *raster
	// upright keeps the symbol within 40° of upright (text).
	upright bool
}

// raster is a decoded image, already reduced to print resolution, with its
// encoded form for SVG.
type raster struct {
	img  image.Image
	mime string
	data []byte
}

// Picture returns the symbol's vector picture, or nil for a raster image.
func (s *Symbol) Picture() *art.Picture { return s.pic }

// IsText reports whether the symbol is a word set in the built-in font.
func (s *Symbol) IsText() bool { return s.upright }

// circle returns the centre and radius of the symbol's smallest enclosing
// circle in its own coordinates (y down).
func (s *Symbol) circle() (geom.Point, float64) {
	if s.pic != nil {
		return s.pic.Center, s.pic.Radius
	}
	b := s.img.img.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	return geom.Point{X: w / 2, Y: h / 2}, math.Hypot(w, h) / 2
}

// angle returns the rotation to draw the symbol at, in degrees clockwise,
// for a spot turned freely by a (0 ≤ a < 360): as is for pictures, mapped
// evenly onto -textTurn..textTurn for text.
func (s *Symbol) angle(a float64) float64 {
	if s.upright {
		return a/360*2*textTurn - textTurn
	}
	return a
}

// FromArt returns the symbol drawn with the picture an Art reference
// names, such as "twemoji:2693".
func FromArt(name, ref string) (*Symbol, error) {
	p, err := art.Lookup(ref)
	if err != nil {
		return nil, err
	}
	return &Symbol{Name: name, pic: p}, nil
}

// FromSet returns the symbols of a symbol set, in id order, named in
// English.
func FromSet(set symbols.Set) ([]*Symbol, error) {
	out := make([]*Symbol, set.Len())
	for i, sym := range set.Symbols {
		s, err := FromArt(sym.Names.En, sym.Art)
		if err != nil {
			return nil, fmt.Errorf("symbol %s of set %s: %v", sym.Key, set.Name, err)
		}
		out[i] = s
	}
	return out, nil
}

// DefaultSymbols returns pictures for a deck of n symbols that has none of
// its own (dobble print --order Q): the classic set's first n pictures when
// n is at most its 57, and the numbers 1..n otherwise. The string says
// which, for messages.
func DefaultSymbols(n int) ([]*Symbol, string, error) {
	if n <= symbols.Classic.Len() {
		all, err := FromSet(symbols.Classic)
		if err != nil {
			return nil, "", err
		}
		return all[:n], "the classic pictures", nil
	}
	out := make([]*Symbol, n)
	for i := range out {
		s, err := Number(i + 1)
		if err != nil {
			return nil, "", err
		}
		out[i] = s
	}
	return out, fmt.Sprintf("the numbers 1 to %d", n), nil
}
