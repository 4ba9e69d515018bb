package print

import (
	"bufio"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/dobble-dev/dobble/face"
	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/internal/pdf"
	"github.com/dobble-dev/dobble/layout"
)

// Paper is a paper size in millimetres, portrait.
type Paper struct {
	Name          string
	Width, Height float64
}

// Papers lists the paper sizes that can be printed on.
var Papers = []Paper{
	{Name: "a4", Width: 210, Height: 297},
	{Name: "letter", Width: 215.9, Height: 279.4},
}

// LookupPaper returns the paper of the given name (a4 or letter).
func LookupPaper(name string) (Paper, error) {
	for _, p := range Papers {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	return Paper{}, fmt.Errorf("unknown paper %q; use a4 or letter", name)
}

// Label is the paper's name as printed: "A4" or "Letter".
func (p Paper) Label() string {
	if p.Name == "a4" {
		return "A4"
	}
	return strings.ToUpper(p.Name[:1]) + p.Name[1:]
}

// Page geometry, in millimetres.
const (
	// Margin is kept free along every edge of the paper, which most
	// printers cannot reach.
	Margin = 8.0
	// Spacing separates neighbouring cards, room for scissors.
	Spacing = 4.0
	// DefaultCardSize is the diameter (or side) of a card, near the
	// printed game's.
	DefaultCardSize = 80.0
	// MinCardSize is the smallest card size accepted.
	MinCardSize = 40.0
	// footer is the height kept at the bottom of each page for its
	// caption.
	footer = 5.0
)

// Options says how to print a deck.
type Options struct {
	Paper Paper
	// CardSize is the card's diameter (round) or side (square) in mm.
	CardSize float64
	// Backs adds a page of card backs after every page of cards, mirrored
	// for double-sided printing.
	Backs bool
	// Title names the deck in the PDF's metadata, the page captions and
	// on the card backs.
	Title string
	// Credit is added to the first page's caption, for the pictures'
	// attribution.
	Credit string
	// BackTitle is written on the card backs; Title when empty.
	BackTitle string
}

// Grid returns how many cards fit across and down a page, or an error that
// names the largest card size that fits.
func (o Options) Grid() (cols, rows int, err error) {
	if !(o.CardSize >= MinCardSize) {
		return 0, 0, fmt.Errorf("card size %g mm is too small; the smallest is %g mm", o.CardSize, MinCardSize)
	}
	w := o.Paper.Width - 2*Margin
	h := o.Paper.Height - 2*Margin - footer
	cols = int(math.Floor((w + Spacing) / (o.CardSize + Spacing)))
	rows = int(math.Floor((h + Spacing) / (o.CardSize + Spacing)))
	if cols < 1 || rows < 1 {
		return 0, 0, fmt.Errorf("a %g mm card does not fit on %s paper (%g × %g mm) with %g mm margins; the largest is %g mm",
			o.CardSize, o.Paper.Label(), o.Paper.Width, o.Paper.Height, Margin, math.Floor(math.Min(w, h)))
	}
	return cols, rows, nil
}

// Job is what to print: a deck ready to draw and, for decks with
// one-symbol cards (Anarchy Pancakes), the symbols that get one.
type Job struct {
	Deck    *face.Deck
	Singles []int
	Options
}

// Cards returns the number of cards the job prints.
func (j *Job) Cards() int { return j.Deck.Len() + len(j.Singles) }

// Pages returns the number of pages the job prints (backs included).
func (j *Job) Pages() (int, error) {
	cols, rows, err := j.Grid()
	if err != nil {
		return 0, err
	}
	per := cols * rows
	n := (j.Cards() + per - 1) / per
	if j.Backs {
		n *= 2
	}
	return n, nil
}

// Colours of the print.
var (
	cutColour    = color.NRGBA{0x99, 0x99, 0x99, 0xff}
	footerColour = color.NRGBA{0x77, 0x77, 0x77, 0xff}
	backColour   = color.NRGBA{0x1f, 0x4e, 0x9c, 0xff}
	backRing     = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

// cutWidth is the width of cut lines in mm.
const cutWidth = 0.25

// bleed is how far a card back's colour reaches beyond its cut line, in
// mm, so that double-sided prints slightly out of register show no white
// edge.
const bleed = 1.5

// Write writes the job as a PDF to w.
func (j *Job) Write(w io.Writer) error {
	cols, rows, err := j.Grid()
	if err != nil {
		return err
	}
	pages, _ := j.Pages()
	o := j.Options
	size := o.CardSize
	// Centre the grid horizontally so that mirrored backs line up.
	gridW := float64(cols)*size + float64(cols-1)*Spacing
	left := (o.Paper.Width - gridW) / 2
	top := Margin // from the top edge
	per := cols * rows
	doc := pdf.New(w, o.Paper.Width, o.Paper.Height)
	doc.SetInfo(pdf.Info{Title: o.Title, Subject: "printable Dobble deck", Keywords: "dobble, spot it, cards", Creator: "dobble", Producer: "dobble"})
	back, err := j.backDesign()
	if err != nil {
		return err
	}
	page := 0
	newPage := func() {
		if page > 0 {
			doc.NewPage(o.Paper.Width, o.Paper.Height)
		}
		page++
	}
	// slot returns the centre of card slot s of a page, in PDF coordinates
	// (mm, y up), mirrored left to right for backs.
	slot := func(s int, mirrored bool) (float64, float64) {
		col, row := s%cols, s/cols
		if mirrored {
			col = cols - 1 - col
		}
		x := left + float64(col)*(size+Spacing) + size/2
		y := o.Paper.Height - top - float64(row)*(size+Spacing) - size/2
		return x, y
	}
	j.Deck.LayOutAll()
	total := j.Cards()
	for first := 0; first < total; first += per {
		n := min(per, total-first)
		newPage()
		for s := 0; s < n; s++ {
			x, y := slot(s, false)
			m := geom.Identity.Translate(x, y).Scale(size/2, -size/2)
			if c := first + s; c < j.Deck.Len() {
				j.Deck.Draw(doc, m, c)
			} else {
				j.Deck.DrawSingle(doc, m, j.Singles[c-j.Deck.Len()])
			}
			j.drawCut(doc, x, y)
		}
		if err := j.drawFooter(doc, page, pages, false); err != nil {
			return err
		}
		if o.Backs {
			newPage()
			for s := 0; s < n; s++ {
				x, y := slot(s, true)
				back(doc, x, y)
				j.drawCut(doc, x, y)
			}
			if err := j.drawFooter(doc, page, pages, true); err != nil {
				return err
			}
		}
	}
	return doc.Close()
}

// outline returns a card's outline centred on (x, y), grown by d mm.
func (j *Job) outline(x, y, d float64) *geom.Path {
	r := j.CardSize/2 + d
	if j.Deck.Shape() == layout.Square {
		return geom.Rectangle(2*r, 2*r).Translate(x-r, y-r)
	}
	return geom.Circle(r).Translate(x, y)
}

// drawCut draws the cut line of the card centred on (x, y).
func (j *Job) drawCut(r geom.Renderer, x, y float64) {
	style := geom.Style{Stroke: cutColour, StrokeWidth: cutWidth}
	r.RenderPath(j.outline(x, y, 0), style, geom.Identity)
}

// drawFooter writes the page caption along the bottom margin.
func (j *Job) drawFooter(r geom.Renderer, page, pages int, backs bool) error {
	what := "cut along the grey lines"
	if backs {
		what = "card backs, mirrored: print double-sided, flipping on the long edge"
	}
	text := fmt.Sprintf("%s · page %d of %d · %s", j.Title, page, pages, what)
	if !backs && page == 1 && j.Credit != "" {
		text += " · " + j.Credit
	}
	return j.caption(r, text, j.Paper.Width/2, Margin+1, 2.2, footerColour, j.Paper.Width-2*Margin)
}

// caption draws text centred on x with its baseline at y, at most maxW mm
// wide (the font shrinks to fit).
func (j *Job) caption(r geom.Renderer, text string, x, y, sizeMM float64, c color.NRGBA, maxW float64) error {
	p, w, err := face.TextOutline(text, sizeMM)
	if err != nil {
		return fmt.Errorf("caption %q: %v", text, err)
	}
	scale := 1.0
	if w > maxW {
		scale = maxW / w
	}
	r.RenderPath(p, geom.Style{Fill: c}, geom.Identity.Translate(x-w*scale/2, y).Scale(scale, scale))
	return nil
}

// backDesign returns the function that draws one card back centred on
// (x, y): a coloured card (bleeding past the cut line), a white ring and
// the deck's title.
func (j *Job) backDesign() (func(r geom.Renderer, x, y float64), error) {
	title := j.BackTitle
	if title == "" {
		title = j.Title
	}
	if title == "" {
		title = "dobble"
	}
	text, w, err := face.TextOutline(title, 10)
	if err != nil {
		return nil, fmt.Errorf("card back title %q: %v", title, err)
	}
	size := j.CardSize
	return func(r geom.Renderer, x, y float64) {
		r.RenderPath(j.outline(x, y, bleed), geom.Style{Fill: backColour}, geom.Identity)
		ring := geom.Style{Stroke: backRing, StrokeWidth: size * 0.02}
		r.RenderPath(j.outline(x, y, -size*0.08), ring, geom.Identity)
		// The title fills 60% of the card's width, with letters at most
		// an eighth of the card high.
		scale := math.Min(size*0.6/w, size/8/10)
		r.RenderPath(text, geom.Style{Fill: backRing}, geom.Identity.Translate(x-w*scale/2, y-3.5*scale).Scale(scale, scale))
	}, nil
}

// WriteFile writes the job's PDF to path: into a temporary file in the
// same folder, renamed into place once complete, so that no half-written
// file is ever left at path or beside it. Errors name the path.
func (j *Job) WriteFile(path string) (err error) {
	if info, statErr := os.Stat(path); statErr == nil && info.IsDir() {
		return &OutputError{Path: path, Msg: "is a folder; give a file name such as deck.pdf"}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return &OutputError{Path: path, Msg: "cannot be written: " + reason(err)}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := j.Write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return &OutputError{Path: path, Msg: "cannot be written: " + reason(err)}
	}
	if err := tmp.Chmod(0o644); err != nil {
		return &OutputError{Path: path, Msg: "cannot be written: " + reason(err)}
	}
	if err := tmp.Close(); err != nil {
		return &OutputError{Path: path, Msg: "cannot be written: " + reason(err)}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return &OutputError{Path: path, Msg: "cannot be written: " + reason(err)}
	}
	return nil
}

// OutputError is a PDF that could not be written.
type OutputError struct {
	Path, Msg string
}

// Error reads "PATH: MSG".
func (e *OutputError) Error() string { return e.Path + ": " + e.Msg }

// reason returns an error's cause without the path it names.
func reason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
