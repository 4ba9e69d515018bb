package face

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/layout"
	"github.com/dobble-dev/dobble/symbols"
	"github.com/dobble-dev/dobble/symbols/art"
)

func TestWords(t *testing.T) {
	for i, w := range []string{"cat", "ice cream cone", "żółw", "кошка", "Æble", "π", "x"} {
		s, err := Word(w, i)
		if err != nil {
			t.Fatalf("Word(%q): %v", w, err)
		}
		if s.Name != w || !s.IsText() || s.Picture() == nil || s.Picture().Radius <= 0 {
			t.Errorf("Word(%q) = %+v", w, s)
		}
	}
	// Decomposed accents are composed: "é" as e + U+0301.
	s, err := Word("cafe\u0301", 0)
	if err != nil || s.Name != "café" {
		t.Errorf("Word(decomposed café) = %v, %v", s, err)
	}
	var ge *GlyphError
	if _, err := Word("苹果", 0); !errors.As(err, &ge) || ge.Rune != '苹' || !strings.Contains(err.Error(), "U+82F9") || !strings.Contains(err.Error(), FontScripts) {
		t.Errorf(`Word("苹果"): %v, want a GlyphError for U+82F9 naming the scripts covered`, err)
	}
	for _, bad := range []string{"", "   ", "tab\there", strings.Repeat("a", MaxWordLength+1)} {
		if _, err := Word(bad, 0); err == nil {
			t.Errorf("Word(%q) succeeded", bad)
		}
	}
	// A phrase is broken into lines: its picture is less wide than the
	// same words on one line would be.
	one, _ := Word("water", 0)
	three, _ := Word("water water water", 0)
	b := three.Picture().Shapes[0].Path.Bounds()
	if b.W() > 2*one.Picture().Shapes[0].Path.Bounds().W() {
		t.Errorf("a three-word phrase stayed on one line: %.1f wide", b.W())
	}
}

func TestNumbers(t *testing.T) {
	cases := map[string]bool{"6": true, "9": true, "16": true, "18": true, "69": false, "8": false, "7": false, "11": false, "60": true, "101": false}
	for s, want := range cases {
		if got := turnsInto(s); got != want {
			t.Errorf("turnsInto(%q) = %v, want %v", s, got, want)
		}
	}
	// The underline makes 6 taller than 5.
	five, err := Number(5)
	if err != nil {
		t.Fatal(err)
	}
	six, err := Number(6)
	if err != nil {
		t.Fatal(err)
	}
	h5 := five.Picture().Shapes[0].Path.Bounds().H()
	h6 := six.Picture().Shapes[0].Path.Bounds().H()
	if h6 < h5*1.1 {
		t.Errorf("6 is %.1f high, 5 is %.1f: 6 is not underlined", h6, h5)
	}
}

func TestParseWords(t *testing.T) {
	good := "\xef\xbb\xbfcat\r\n  dog  \r\nice cream\n\n\n"
	words, err := ParseWords("w.txt", []byte(good))
	if err != nil || strings.Join(words, "|") != "cat|dog|ice cream" {
		t.Errorf("ParseWords(good) = %q, %v", words, err)
	}
	bad := []struct{ src, want string }{
		{"cat\n\ndog\n", "w.txt:2: empty line"},
		{"cat\n   \ndog\n", "w.txt:2: empty line"},
		{"cat\ndog\nCat\n", `w.txt:3: "Cat" repeats line 1`},
		{"cat\ndog\xff\n", "w.txt:2: is not UTF-8"},
		{"cat\n苹果\n", "w.txt:2: \"苹果\": the built-in font (Go Bold) cannot draw '苹' (U+82F9)"},
		{"cat\n" + strings.Repeat("b", 40) + "\n", "w.txt:2: \"" + strings.Repeat("b", 40) + "\" has 40 characters"},
		{"\n\n", "w.txt: has no words"},
		{"", "w.txt: has no words"},
		{"a\tb\n", "w.txt:1: \"a\\tb\" contains the control or space character U+0009"},
	}
	for _, c := range bad {
		_, err := ParseWords("w.txt", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseWords(%q): %v, want %q…", c.src, err, c.want)
		}
	}
}

func TestReadWords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "animals.txt")
	if err := os.WriteFile(path, []byte("cat\ndog\nhen\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	syms, err := ReadWords(path)
	if err != nil || len(syms) != 3 || syms[2].Name != "hen" {
		t.Fatalf("ReadWords = %v, %v", syms, err)
	}
	if syms[0].Picture().Shapes[0].Fill == syms[1].Picture().Shapes[0].Fill {
		t.Error("neighbouring words have the same colour")
	}
	for _, p := range []string{filepath.Join(dir, "missing.txt"), dir} {
		if _, err := ReadWords(p); err == nil || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("ReadWords(%s): %v", p, err)
		}
	}
}

// pngBytes returns a w×h PNG filled with c, with a dark square in it so
// that pictures differ.
func pngBytes(t *testing.T, w, h int, c color.NRGBA, seed int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
			if (x+seed)%7 == 0 && y < h/2 {
				img.Set(x, y, color.NRGBA{0, 0, 0, 255})
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func jpegBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestImage(t *testing.T) {
	p := pngBytes(t, 40, 20, color.NRGBA{200, 0, 0, 255}, 0)
	s, err := Image("photos/Red Car.PNG", p)
	if err != nil || s.Name != "Red Car" || s.img == nil || s.img.mime != "image/png" {
		t.Fatalf("Image(png) = %+v, %v", s, err)
	}
	if c, r := s.circle(); c.X != 20 || c.Y != 10 || math.Abs(r-math.Hypot(40, 20)/2) > 1e-9 {
		t.Errorf("png circle %v r%v", c, r)
	}
	j, err := Image("cat.jpeg", jpegBytes(t, 1600, 900))
	if err != nil || j.img.mime != "image/jpeg" {
		t.Fatalf("Image(jpeg) = %+v, %v", j, err)
	}
	if b := j.img.img.Bounds(); b.Dx() != MaxImageSide || b.Dy() != 450 {
		t.Errorf("a 1600×900 image was reduced to %v, want %d×450", b, MaxImageSide)
	}
	svg, err := Image("star.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><circle r="5" fill="gold"/></svg>`))
	if err != nil || svg.Picture() == nil {
		t.Fatalf("Image(svg) = %+v, %v", svg, err)
	}
	bad := []struct {
		name string
		data []byte
		want string
	}{
		{"a.gif", []byte("GIF89a"), "is not a PNG, JPEG or SVG image"},
		{"a.png", []byte("not a png at all"), "cannot be read as an image"},
		{"a.jpg", p, "is named .jpg but holds a PNG image"},
		{"a.png", pngBytes(t, 4, 4, color.NRGBA{A: 255}, 0), "is only 4×4 pixels"},
		{"a.png", p[:len(p)/2], "cannot be read as an image"},
		{"a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>`), "scripts are refused"},
		{"a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.org/x.png"/></svg>`), "external references are refused"},
	}
	for _, c := range bad {
		if _, err := Image(c.name, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Image(%s): %v, want %q", c.name, err, c.want)
		}
	}
}

func TestReadImages(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.png", pngBytes(t, 30, 30, color.NRGBA{0, 0, 200, 255}, 1))
	write("a.jpg", jpegBytes(t, 30, 20))
	write("c.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="3" height="4" fill="green"/></svg>`))
	write(".DS_Store", []byte("junk"))
	if err := os.Mkdir(filepath.Join(dir, "originals"), 0o755); err != nil {
		t.Fatal(err)
	}
	syms, err := ReadImages(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range syms {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "a,b,c" {
		t.Errorf("ReadImages names = %v, want a,b,c", names)
	}
	// The same picture twice.
	write("d.png", pngBytes(t, 30, 30, color.NRGBA{0, 0, 200, 255}, 1))
	if _, err := ReadImages(dir); err == nil || !strings.Contains(err.Error(), "d.png: is the same picture as b.png") {
		t.Errorf("duplicate: %v", err)
	}
	os.Remove(filepath.Join(dir, "d.png"))
	// A file that cannot be read: a link to nothing.
	if err := os.Symlink(filepath.Join(dir, "gone.png"), filepath.Join(dir, "e.png")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadImages(dir); err == nil || !strings.Contains(err.Error(), "e.png: cannot be read") {
		t.Errorf("dangling link: %v", err)
	}
	empty := t.TempDir()
	if _, err := ReadImages(empty); err == nil || !strings.Contains(err.Error(), "has no picture files") {
		t.Errorf("empty folder: %v", err)
	}
	file := filepath.Join(empty, "x.png")
	os.WriteFile(file, pngBytes(t, 9, 9, color.NRGBA{A: 255}, 0), 0o644)
	if _, err := ReadImages(file); err == nil || !strings.Contains(err.Error(), "is not a folder") {
		t.Errorf("file as folder: %v", err)
	}
}

func TestDefaultSymbols(t *testing.T) {
	syms, which, err := DefaultSymbols(13)
	if err != nil || len(syms) != 13 || !strings.Contains(which, "classic") || syms[0].Name != symbols.Classic.Symbols[0].Names.En {
		t.Errorf("DefaultSymbols(13) = %d symbols, %q, %v", len(syms), which, err)
	}
	syms, which, err = DefaultSymbols(73)
	if err != nil || len(syms) != 73 || which != "the numbers 1 to 73" || syms[72].Name != "73" {
		t.Errorf("DefaultSymbols(73) = %d symbols, %q, %v", len(syms), which, err)
	}
}

// svgGroup is one symbol of a card's SVG.
type svgGroup struct {
	Symbol    int    `xml:"data-symbol,attr"`
	Transform string `xml:"transform,attr"`
	Title     string `xml:"title"`
	Inner     []byte `xml:",innerxml"`
}

type svgCard struct {
	ViewBox string     `xml:"viewBox,attr"`
	Groups  []svgGroup `xml:"g"`
}

// readBack reads one symbol group back with the art package's SVG reader,
// in card SVG units.
func readBack(t *testing.T, g svgGroup) *art.Picture {
	t.Helper()
	doc := `<svg xmlns="http://www.w3.org/2000/svg"><g transform="` + g.Transform + `">` + string(g.Inner) + `</g></svg>`
	p, err := art.ParseSVG([]byte(doc))
	if err != nil {
		t.Fatalf("symbol %d: its SVG cannot be read back: %v", g.Symbol, err)
	}
	return p
}

func TestCardSVG(t *testing.T) {
	for _, name := range []string{"classic", "kids"} {
		for _, shape := range []layout.Shape{layout.Round, layout.Square} {
			e, err := deck.LookupEdition(name)
			if err != nil {
				t.Fatal(err)
			}
			fd, err := EditionDeck(e, shape, 5)
			if err != nil {
				t.Fatal(err)
			}
			d, _ := e.Deck()
			for _, c := range []int{0, 7, d.Len() - 1} {
				var buf bytes.Buffer
				if err := fd.WriteSVG(&buf, c); err != nil {
					t.Fatal(err)
				}
				src := buf.String()
				for _, bad := range []string{" id=", " class=", "<style", "<script", "http://example", "<text"} {
					if strings.Contains(src, bad) {
						t.Errorf("%s card %d SVG contains %q", name, c, bad)
					}
				}
				var card svgCard
				if err := xml.Unmarshal(buf.Bytes(), &card); err != nil {
					t.Fatalf("%s card %d: SVG is not well-formed: %v", name, c, err)
				}
				if card.ViewBox != "-100 -100 200 200" {
					t.Errorf("viewBox %q", card.ViewBox)
				}
				want := d.Card(c)
				if len(card.Groups) != len(want) {
					t.Fatalf("%s card %d: %d symbols in the SVG, want %d", name, c, len(card.Groups), len(want))
				}
				var ds []drawn
				for i, g := range card.Groups {
					if g.Symbol != want[i] || g.Title != e.Symbols.Symbols[want[i]].Names.En {
						t.Errorf("%s card %d: group %d is symbol %d %q, want %d", name, c, i, g.Symbol, g.Title, want[i])
					}
					ds = append(ds, drawn{id: g.Symbol, pic: readBack(t, g), m: geom.Identity.Scale(1.0/svgScale, 1.0/svgScale)})
				}
				// The ink drawn from the SVG stays inside the card and
				// symbols do not touch.
				if _, bad := cardInk(ds, shape, cardPixels); bad != "" {
					t.Errorf("%s %s card %d: %s", name, shape, c, bad)
				}
			}
		}
	}
}

func TestCardSVGIsDeterministic(t *testing.T) {
	e, _ := deck.LookupEdition("beach")
	a, _ := EditionDeck(e, layout.Round, 3)
	b, _ := EditionDeck(e, layout.Round, 3)
	var x, y bytes.Buffer
	a.WriteSVG(&x, 12)
	b.WriteSVG(&y, 12)
	if x.String() != y.String() {
		t.Error("the same card with the same seed gives different SVGs")
	}
}

func TestCardSVGWithImagesAndWords(t *testing.T) {
	d, err := deck.New(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	var syms []*Symbol
	for i := 0; i < 4; i++ {
		s, err := Image("p"+strconv.Itoa(i)+".png", pngBytes(t, 20+i, 20, color.NRGBA{uint8(50 * i), 100, 0, 255}, i))
		if err != nil {
			t.Fatal(err)
		}
		syms = append(syms, s)
	}
	for _, w := range []string{"one", "two", "three"} {
		s, err := Word(w, len(syms))
		if err != nil {
			t.Fatal(err)
		}
		syms = append(syms, s)
	}
	fd, err := NewDeck(d, syms, layout.Round, 1)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; c < d.Len(); c++ {
		var buf bytes.Buffer
		if err := fd.WriteSVG(&buf, c); err != nil {
			t.Fatal(err)
		}
		var card svgCard
		if err := xml.Unmarshal(buf.Bytes(), &card); err != nil {
			t.Fatalf("card %d: %v", c, err)
		}
		images := regexp.MustCompile(`href="data:image/png;base64,[A-Za-z0-9+/=]+"`).FindAllString(buf.String(), -1)
		wantImages := 0
		for _, s := range d.Card(c) {
			if s < 4 {
				wantImages++
			}
		}
		if len(images) != wantImages {
			t.Errorf("card %d: %d embedded images, want %d", c, len(images), wantImages)
		}
	}
	if _, err := NewDeck(d, syms[:5], layout.Round, 1); err == nil {
		t.Error("NewDeck accepted 5 pictures for 7 symbols")
	}
}

func TestNum(t *testing.T) {
	for f, want := range map[float64]string{0: "0", -0.000001: "0", 1.5: "1.5", -2.123456: "-2.12346", 100: "100"} {
		if got := num(f); got != want {
			t.Errorf("num(%v) = %q, want %q", f, got, want)
		}
	}
}
