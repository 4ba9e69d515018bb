package print

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/face"
	"github.com/dobble-dev/dobble/layout"
)

// renderPDF renders every page of a PDF to an image with pdftoppm
// (poppler-utils, installed by scripts/test) at dpi dots per inch.
func renderPDF(t *testing.T, pdf string, dpi int) []image.Image {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("pdftoppm", "-r", strconv.Itoa(dpi), "-png", pdf, filepath.Join(dir, "page"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm %s: %v\n%s", pdf, err, out)
	}
	names, err := filepath.Glob(filepath.Join(dir, "page-*.png"))
	if err != nil {
		t.Fatal(err)
	}
	// pdftoppm pads page numbers to the same width, so names sort.
	slices.Sort(names)
	var pages []image.Image
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		pages = append(pages, img)
	}
	return pages
}

// pdfPages asks pdfinfo for a PDF's page count; it fails the test if
// poppler cannot open the file.
func pdfPages(t *testing.T, pdf string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", pdf).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v\n%s", pdf, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("pdfinfo %s: no page count in\n%s", pdf, out)
	return 0
}

// inked returns the share of pixels in r that are not near-white, and the
// share that are strongly coloured (saturated).
func inked(img image.Image, r image.Rectangle) (ink, colour float64) {
	r = r.Intersect(img.Bounds())
	var n, inkN, colN int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			n++
			lo := min(c.R, c.G, c.B)
			hi := max(c.R, c.G, c.B)
			if lo < 230 {
				inkN++
			}
			if int(hi)-int(lo) > 60 {
				colN++
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(inkN) / float64(n), float64(colN) / float64(n)
}

// slotRect returns the pixels of card slot s of a page rendered at dpi:
// the square the card's outline is inscribed in, mirrored for backs.
func slotRect(t *testing.T, j *Job, s int, mirrored bool, dpi int) image.Rectangle {
	t.Helper()
	cols, _, err := j.Grid()
	if err != nil {
		t.Fatal(err)
	}
	col, row := s%cols, s/cols
	if mirrored {
		col = cols - 1 - col
	}
	gridW := float64(cols)*j.CardSize + float64(cols-1)*Spacing
	x := (j.Paper.Width-gridW)/2 + float64(col)*(j.CardSize+Spacing)
	y := Margin + float64(row)*(j.CardSize+Spacing)
	px := func(mm float64) int { return int(mm / 25.4 * float64(dpi)) }
	return image.Rect(px(x), px(y), px(x+j.CardSize), px(y+j.CardSize))
}

// checkSlots checks every card slot of the rendered pages: slots that hold
// a card are inked (and coloured) at least minInk (minColour), empty ones
// are blank. Back pages, when the job has them, alternate with card pages.
func checkSlots(t *testing.T, name string, j *Job, pages []image.Image, dpi int, minInk, minColour float64) {
	t.Helper()
	cols, rows, _ := j.Grid()
	per := cols * rows
	step := 1
	if j.Backs {
		step = 2
	}
	for p := 0; p*step < len(pages); p++ {
		n := min(per, j.Cards()-p*per)
		for s := 0; s < per; s++ {
			img := pages[p*step]
			ink, col := inked(img, slotRect(t, j, s, false, dpi))
			switch {
			case s < n && (ink < minInk || col < minColour):
				t.Errorf("%s page %d slot %d: %.1f%% inked, %.1f%% coloured: the card looks blank", name, p*step+1, s, 100*ink, 100*col)
			case s >= n && ink > 0.001:
				t.Errorf("%s page %d slot %d: %.1f%% inked, want an empty slot", name, p*step+1, s, 100*ink)
			}
			if !j.Backs {
				continue
			}
			back := pages[p*step+1]
			_, col = inked(back, slotRect(t, j, s, true, dpi))
			switch {
			case s < n && col < 0.6:
				t.Errorf("%s page %d slot %d (mirrored): %.0f%% coloured, want a card back", name, p*step+2, s, 100*col)
			case s >= n && col > 0.001:
				t.Errorf("%s page %d slot %d (mirrored): %.1f%% coloured, want an empty slot", name, p*step+2, s, 100*col)
			}
		}
	}
}

func editionJob(t testing.TB, name string, shape layout.Shape, backs bool) *Job {
	t.Helper()
	e, err := deck.LookupEdition(name)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := face.EditionDeck(e, shape, 1)
	if err != nil {
		t.Fatal(err)
	}
	return jobFor(e, fd, backs)
}

func jobFor(e *deck.Edition, fd *face.Deck, backs bool) *Job {
	a4, _ := LookupPaper("a4")
	j := &Job{Deck: fd, Options: Options{Paper: a4, CardSize: DefaultCardSize, Backs: backs, Title: e.Title}}
	if e.Singles {
		for s := 0; s < e.Symbols.Len(); s++ {
			j.Singles = append(j.Singles, s)
		}
	}
	return j
}

// sharedDecks holds the decks that the tests print, by edition and shape,
// so that a deck printed by several tests is laid out once (a face.Deck
// keeps its layouts).
var sharedDecks sync.Map

// sharedJob is editionJob with the deck laid out by an earlier test where
// there was one.
func sharedJob(t *testing.T, name string, shape layout.Shape, backs bool) *Job {
	t.Helper()
	key := name + "/" + shape.String()
	if j, ok := sharedDecks.Load(key); ok {
		first := j.(*Job)
		e, _ := deck.LookupEdition(name)
		return jobFor(e, first.Deck, backs)
	}
	j := editionJob(t, name, shape, backs)
	sharedDecks.Store(key, j)
	return j
}

func TestGrid(t *testing.T) {
	a4, _ := LookupPaper("a4")
	letter, _ := LookupPaper("LETTER")
	cases := []struct {
		paper      Paper
		size       float64
		cols, rows int
	}{
		{a4, 80, 2, 3}, {letter, 80, 2, 3}, {a4, 60, 3, 4}, {a4, 40, 4, 6}, {a4, 194, 1, 1},
	}
	for _, c := range cases {
		cols, rows, err := Options{Paper: c.paper, CardSize: c.size}.Grid()
		if err != nil || cols != c.cols || rows != c.rows {
			t.Errorf("%s %g mm: %d×%d, %v; want %d×%d", c.paper.Name, c.size, cols, rows, err, c.cols, c.rows)
		}
	}
	if _, _, err := (Options{Paper: a4, CardSize: 195}).Grid(); err == nil || !strings.Contains(err.Error(), "the largest is 194 mm") {
		t.Errorf("195 mm on A4: %v", err)
	}
	if _, _, err := (Options{Paper: a4, CardSize: 10}).Grid(); err == nil || !strings.Contains(err.Error(), "the smallest is 40 mm") {
		t.Errorf("10 mm: %v", err)
	}
	if _, err := LookupPaper("a3"); err == nil {
		t.Error("LookupPaper(a3) succeeded")
	}
}

// TestEditionsPrint writes every edition, opens it with poppler and checks
// the page count and that every page shows cards.
func TestEditionsPrint(t *testing.T) {
	want := map[string]int{"classic": 10, "beach": 10, "kids": 5, "pancakes": 11}
	for _, name := range deck.EditionNames() {
		j := sharedJob(t, name, layout.Round, false)
		out := filepath.Join(t.TempDir(), name+".pdf")
		if err := j.WriteFile(out); err != nil {
			t.Fatal(err)
		}
		n, _ := j.Pages()
		if n != want[name] || pdfPages(t, out) != n {
			t.Errorf("%s: %d pages planned, pdfinfo says %d, want %d", name, n, pdfPages(t, out), want[name])
		}
		pages := renderPDF(t, out, 30)
		if len(pages) != want[name] {
			t.Fatalf("%s: pdftoppm rendered %d pages, want %d", name, len(pages), want[name])
		}
		checkSlots(t, name, j, pages, 30, 0.12, 0.01)
	}
}

// TestBacksAreMirrored prints the classic deck with backs: its last page of
// cards holds one card, top left, so the last page of backs must show one
// back, top right.
func TestBacksAreMirrored(t *testing.T) {
	j := sharedJob(t, "classic", layout.Round, true)
	out := filepath.Join(t.TempDir(), "classic.pdf")
	if err := j.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	pages := renderPDF(t, out, 30)
	if len(pages) != 20 {
		t.Fatalf("%d pages, want 20 (10 of cards, 10 of backs)", len(pages))
	}
	checkSlots(t, "classic with backs", j, pages, 30, 0.12, 0.01)
}

func TestSquareCardsAndLetterPaper(t *testing.T) {
	j := sharedJob(t, "kids", layout.Square, false)
	j.Paper, _ = LookupPaper("letter")
	j.CardSize = 60
	out := filepath.Join(t.TempDir(), "kids.pdf")
	if err := j.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	// 60 mm on Letter: 3 × 4 = 12 a page, 30 cards → 3 pages.
	if n := pdfPages(t, out); n != 3 {
		t.Errorf("%d pages, want 3", n)
	}
	pages := renderPDF(t, out, 20)
	w, h := pages[0].Bounds().Dx(), pages[0].Bounds().Dy()
	// Letter is 8.5 × 11 inches.
	if w != 170 || h != 220 {
		t.Errorf("page rendered %d×%d at 20 dpi, want 170×220 (Letter)", w, h)
	}
}

// failingWriter fails after n bytes.
type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return f.n, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteFileLeavesNothingHalfWritten(t *testing.T) {
	dir := t.TempDir()
	j := sharedJob(t, "kids", layout.Round, false)
	// A folder as output.
	if err := j.WriteFile(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder as output: %v", err)
	}
	// A folder that does not exist, and a path under a regular file.
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, p := range []string{filepath.Join(dir, "missing", "deck.pdf"), filepath.Join(file, "deck.pdf")} {
		var oe *OutputError
		if err := j.WriteFile(p); !errors.As(err, &oe) || !strings.Contains(err.Error(), "cannot be written") {
			t.Errorf("WriteFile(%s): %v", p, err)
		}
	}
	// A job that fails while drawing (a back title the font cannot set)
	// leaves an existing file untouched and no temporary file.
	existing := filepath.Join(dir, "deck.pdf")
	os.WriteFile(existing, []byte("old"), 0o644)
	j.Backs, j.BackTitle = true, "扑克"
	if err := j.WriteFile(existing); err == nil {
		t.Fatal("a job with an unprintable back title succeeded")
	}
	if data, _ := os.ReadFile(existing); string(data) != "old" {
		t.Errorf("the existing file was changed to %d bytes", len(data))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	// Write reports a writer's failure.
	j.Backs, j.BackTitle = false, ""
	if err := j.Write(&failingWriter{n: 1000}); err == nil {
		t.Error("Write to a failing writer succeeded")
	}
}

func TestDeckFor(t *testing.T) {
	cases := []struct {
		n, q, cards int
		order       int
		symbols     int
	}{
		{57, 0, 0, 7, 57}, {60, 0, 0, 7, 57}, {56, 0, 0, 5, 31}, {7, 0, 0, 2, 7}, {13, 0, 0, 3, 13},
		{40, 5, 0, 5, 31}, {200, 13, 0, 13, 183}, {1000, 0, 0, 31, 993},
	}
	for _, c := range cases {
		d, err := DeckFor(c.n, c.q, c.cards)
		if err != nil || d.Order() != c.order || d.Symbols() != c.symbols {
			t.Errorf("DeckFor(%d, %d, %d) = %v, %v; want order %d with %d symbols", c.n, c.q, c.cards, d, err, c.order, c.symbols)
		}
	}
	var few *TooFewError
	if _, err := DeckFor(6, 0, 0); !errors.As(err, &few) || few.Need != 7 || few.Fits != nil {
		t.Errorf("DeckFor(6): %v", err)
	}
	if _, err := DeckFor(40, 7, 0); !errors.As(err, &few) || few.Need != 57 || few.Fits == nil || few.Fits.Order() != 5 {
		t.Errorf("DeckFor(40, order 7): %v", err)
	}
	// With fewer cards, fewer symbols are needed.
	d, err := DeckFor(22, 7, 3)
	if err != nil || d.Order() != 7 || d.Symbols() != 21 {
		t.Errorf("DeckFor(22, order 7, 3 cards) = %v, %v; want order 7 with 21 symbols", d, err)
	}
	if _, err := DeckFor(20, 7, 3); !errors.As(err, &few) || few.Need != 21 {
		t.Errorf("DeckFor(20, order 7, 3 cards): %v, want too few (21 needed)", err)
	}
}

func TestWordsAndImagesPrint(t *testing.T) {
	dir := t.TempDir()
	var words []string
	for i := 0; i < 13; i++ {
		words = append(words, "word "+strconv.Itoa(i))
	}
	wf := filepath.Join(dir, "w.txt")
	os.WriteFile(wf, []byte(strings.Join(words, "\n")), 0o644)
	wsyms, err := face.ReadWords(wf)
	if err != nil {
		t.Fatal(err)
	}
	imgDir := filepath.Join(dir, "pics")
	os.Mkdir(imgDir, 0o755)
	for i := 0; i < 7; i++ {
		img := image.NewNRGBA(image.Rect(0, 0, 24, 24))
		for p := 0; p < len(img.Pix); p += 4 {
			img.Pix[p], img.Pix[p+1], img.Pix[p+2], img.Pix[p+3] = uint8(30*i), 200, uint8(p%256), 255
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		os.WriteFile(filepath.Join(imgDir, "p"+strconv.Itoa(i)+".png"), buf.Bytes(), 0o644)
	}
	isyms, err := face.ReadImages(imgDir)
	if err != nil {
		t.Fatal(err)
	}
	a4, _ := LookupPaper("a4")
	for name, syms := range map[string][]*face.Symbol{"words": wsyms, "images": isyms} {
		d, err := DeckFor(len(syms), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := face.NewDeck(d, syms, layout.Round, 1)
		if err != nil {
			t.Fatal(err)
		}
		j := &Job{Deck: fd, Options: Options{Paper: a4, CardSize: 80, Title: name}}
		out := filepath.Join(dir, name+".pdf")
		if err := j.WriteFile(out); err != nil {
			t.Fatal(err)
		}
		wantPages := (d.Len() + 5) / 6
		pages := renderPDF(t, out, 30)
		if len(pages) != wantPages || pdfPages(t, out) != wantPages {
			t.Fatalf("%s: %d pages rendered, want %d", name, len(pages), wantPages)
		}
		checkSlots(t, name, j, pages, 30, 0.05, 0.01)
	}
}

// BenchmarkClassicPDF writes the 55-card classic deck as a PDF (target:
// under a second), laying out every card.
func BenchmarkClassicPDF(b *testing.B) {
	var size int64
	for b.Loop() {
		j := editionJob(b, "classic", layout.Round, false)
		cw := &countingWriter{}
		if err := j.Write(cw); err != nil {
			b.Fatal(err)
		}
		size = cw.n
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
