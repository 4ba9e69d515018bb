package face

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"runtime"
	"strconv"
	"sync"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/layout"
)

// Inset is the share of the card's radius (or half side) that the layout
// fills: the rest is a margin along the edge, so that a cut slightly off
// the line still leaves every symbol whole.
const Inset = 0.99

// Deck is a deck ready to be drawn: its layout plan and the symbol that
// stands for each symbol id. A Deck is immutable and safe for concurrent
// use.
type Deck struct {
	plan    *layout.Plan
	symbols []*Symbol
	seed    uint64
	// cards keeps every card's layout once it is made.
	cards []cardLayout
	// outlines keeps every symbol's outline once it is made, from masks
	// of side×side cells.
	outlines []lazyOutline
	side     int
}

// cardLayout is one card's layout, made at its first use.
type cardLayout struct {
	once sync.Once
	pl   []layout.Placement
}

// NewDeck prepares a deck for drawing with the given symbols (symbol id i
// is drawn as syms[i]; extra symbols are unused), card shape and layout
// seed.
func NewDeck(d *deck.Deck, syms []*Symbol, shape layout.Shape, seed uint64) (*Deck, error) {
	if len(syms) < d.Symbols() {
		return nil, fmt.Errorf("the deck has %d symbols but only %d pictures were given", d.Symbols(), len(syms))
	}
	for i, s := range syms[:d.Symbols()] {
		if s == nil || (s.pic == nil && s.img == nil) {
			return nil, fmt.Errorf("symbol %d has no picture", i)
		}
	}
	p, err := layout.NewPlan(d, shape, seed)
	if err != nil {
		return nil, err
	}
	fd := &Deck{symbols: syms[:d.Symbols()], seed: seed, cards: make([]cardLayout, d.Len()),
		outlines: make([]lazyOutline, d.Symbols()), side: outlineSide(d.SymbolsPerCard())}
	fd.plan = p.WithOutlines(fd.outline)
	return fd, nil
}

// EditionDeck prepares a published edition for drawing, with its own
// pictures.
func EditionDeck(e *deck.Edition, shape layout.Shape, seed uint64) (*Deck, error) {
	d, err := e.Deck()
	if err != nil {
		return nil, err
	}
	syms, err := FromSet(e.Symbols)
	if err != nil {
		return nil, err
	}
	return NewDeck(d, syms, shape, seed)
}

// Plan returns the deck's layout plan.
func (d *Deck) Plan() *layout.Plan { return d.plan }

// Len returns the number of cards.
func (d *Deck) Len() int { return d.plan.Deck().Len() }

// Shape returns the card shape.
func (d *Deck) Shape() layout.Shape { return d.plan.Shape() }

// Symbol returns the symbol drawn for id s.
func (d *Deck) Symbol(s int) *Symbol { return d.symbols[s] }

// placement is a symbol in its spot.
type placement struct {
	id  int
	sym *Symbol
	m   geom.Matrix // symbol coordinates → card units (y down)
}

// Layout returns the layout of card i, made the first time it is asked
// for.
func (d *Deck) Layout(card int) []layout.Placement {
	c := &d.cards[card]
	c.once.Do(func() { c.pl = d.plan.Card(card) })
	return c.pl
}

// LayOutAll makes the layout of every card, on as many goroutines as the
// program may run at once, so that drawing the whole deck afterwards
// takes less time.
func (d *Deck) LayOutAll() {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				d.Layout(c)
			}
		}()
	}
	for c := range d.cards {
		next <- c
	}
	close(next)
	wg.Wait()
}

func (d *Deck) placements(card int) []placement {
	pl := d.Layout(card)
	out := make([]placement, len(pl))
	for i, p := range pl {
		s := d.symbols[p.Symbol]
		out[i] = placement{id: p.Symbol, sym: s, m: symbolMatrix(s, p.Spot, p.Angle)}
	}
	return out
}

func (d *Deck) single(symbol int) []placement {
	s := d.symbols[symbol]
	spot := layout.Single(d.Shape(), d.seed, symbol)
	return []placement{{id: symbol, sym: s, m: symbolMatrix(s, spot, s.angle(spot.Angle))}}
}

// symbolMatrix maps a symbol's own coordinates to card units: its
// enclosing circle onto the spot's circle (inside the card's inset), turned
// by angle degrees.
func symbolMatrix(s *Symbol, spot layout.Spot, angle float64) geom.Matrix {
	c, r := s.circle()
	k := spot.R * Inset / r
	return geom.Identity.
		Translate(spot.X*Inset, spot.Y*Inset).
		Rotate(angle).
		Scale(k, k).
		Translate(-c.X, -c.Y)
}

// Draw paints the symbols of card i onto r; m maps card units (the unit
// disc or square, y down) to the renderer's coordinates. It draws no
// outline: the printer draws cut lines, a screen its own frame.
func (d *Deck) Draw(r geom.Renderer, m geom.Matrix, card int) {
	drawPlacements(r, m, d.placements(card))
}

// DrawSingle paints a one-symbol card (Anarchy Pancakes' topping cards)
// showing symbol s.
func (d *Deck) DrawSingle(r geom.Renderer, m geom.Matrix, s int) {
	drawPlacements(r, m, d.single(s))
}

func drawPlacements(r geom.Renderer, m geom.Matrix, pls []placement) {
	for _, p := range pls {
		sm := m.Mul(p.m)
		if p.sym.pic != nil {
			p.sym.pic.Draw(r, sm)
			continue
		}
		// A raster symbol's own coordinates are its pixels.
		r.RenderImage(p.sym.img.img, sm)
	}
}

// svgScale is how many SVG user units a card unit is: a card's viewBox is
// -100..100 in both directions.
const svgScale = 100

// WriteSVG writes card i as a self-contained SVG document: the card's
// outline and every symbol as plain paths (words as glyph outlines, raster
// images as data: URIs), each symbol in a <g> with a data-symbol attribute
// holding its id and a <title> with its name. The document uses no ids,
// classes, style sheets, fonts or external references, so it can be
// inlined into any page. The viewBox is -100 -100 200 200.
func (d *Deck) WriteSVG(w io.Writer, card int) error {
	return d.writeSVG(w, fmt.Sprintf("card %d", card), d.placements(card))
}

// WriteSingleSVG writes the one-symbol card of symbol s like WriteSVG.
func (d *Deck) WriteSingleSVG(w io.Writer, s int) error {
	return d.writeSVG(w, "card of "+d.symbols[s].Name, d.single(s))
}

func (d *Deck) writeSVG(w io.Writer, label string, pls []placement) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-100 -100 200 200" role="img" aria-label="%s">`, html.EscapeString(label))
	if d.Shape() == layout.Square {
		bw.WriteString(`<rect x="-99.5" y="-99.5" width="199" height="199" rx="8" fill="#fff" stroke="#444" stroke-width="1"/>`)
	} else {
		bw.WriteString(`<circle r="99.5" fill="#fff" stroke="#444" stroke-width="1"/>`)
	}
	scale := geom.Identity.Scale(svgScale, svgScale)
	for _, p := range pls {
		m := scale.Mul(p.m)
		fmt.Fprintf(bw, `<g data-symbol="%d" transform="matrix(%s %s %s %s %s %s)"><title>%s</title>`,
			p.id, num(m[0][0]), num(m[1][0]), num(m[0][1]), num(m[1][1]), num(m[0][2]), num(m[1][2]),
			html.EscapeString(p.sym.Name))
		if p.sym.pic != nil {
			if err := p.sym.pic.WriteSVG(bw); err != nil {
				return err
			}
		} else {
			b := p.sym.img.img.Bounds()
			fmt.Fprintf(bw, `<image width="%d" height="%d" preserveAspectRatio="none" href="data:%s;base64,`, b.Dx(), b.Dy(), p.sym.img.mime)
			enc := base64.NewEncoder(base64.StdEncoding, bw)
			enc.Write(p.sym.img.data)
			enc.Close()
			bw.WriteString(`"/>`)
		}
		bw.WriteString(`</g>`)
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// num formats a coordinate with at most five decimals.
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 5, 64)
	// Trim trailing zeros and a bare point.
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
