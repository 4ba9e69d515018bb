package art

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/internal/raster"
	"github.com/dobble-dev/dobble/symbols"
)

// listedStems reads symbols/testdata/twemoji-files.txt.
func listedStems(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "twemoji-files.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stems []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			stems = append(stems, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(stems)
	return stems
}

func TestVendoredFilesAreExactlyTheListedOnes(t *testing.T) {
	listed, vendored := listedStems(t), TwemojiStems()
	if !slices.Equal(listed, vendored) {
		for _, s := range listed {
			if _, ok := slices.BinarySearch(vendored, s); !ok {
				t.Errorf("%s.svg is listed in symbols/testdata/twemoji-files.txt but not vendored; run scripts/vendor-art", s)
			}
		}
		for _, s := range vendored {
			if _, ok := slices.BinarySearch(listed, s); !ok {
				t.Errorf("twemoji/%s.svg is vendored but not listed; run scripts/vendor-art", s)
			}
		}
	}
	if len(vendored) < 100 {
		t.Errorf("only %d vendored files", len(vendored))
	}
}

func TestEverySymbolHasItsPicture(t *testing.T) {
	for _, set := range symbols.Sets() {
		for _, sym := range set.Symbols {
			p, err := Lookup(sym.Art)
			if err != nil {
				t.Errorf("%s/%s: %v", set.Name, sym.Key, err)
				continue
			}
			// Twemoji draw inside a 36×36 view box: the ink circle must
			// sit in it and fill a good part of it.
			if p.Radius < 12 || p.Radius > 36/math.Sqrt2+0.5 {
				t.Errorf("%s/%s: ink circle radius %.2f, want 12..25.9 for a 36×36 drawing", set.Name, sym.Key, p.Radius)
			}
			if p.Center.X < 0 || p.Center.X > 36 || p.Center.Y < 0 || p.Center.Y > 36 {
				t.Errorf("%s/%s: ink circle centre %v outside the 36×36 view box", set.Name, sym.Key, p.Center)
			}
			if again, _ := Lookup(sym.Art); again != p {
				t.Errorf("%s/%s: Lookup did not return the cached picture", set.Name, sym.Key)
			}
		}
	}
}

func TestLicenceAndAttributionAreEmbedded(t *testing.T) {
	attr, lic := TwemojiLicense()
	if !bytes.Contains(attr, []byte("CC-BY 4.0")) || !bytes.Contains(attr, []byte("@twemoji/svg")) {
		t.Errorf("ATTRIBUTION.md does not name the licence and the package:\n%s", attr)
	}
	if !bytes.HasPrefix(lic, []byte("Creative Commons Attribution 4.0 International")) || len(lic) < 10000 {
		t.Errorf("LICENSE-GRAPHICS is not the full CC-BY 4.0 text (%d bytes)", len(lic))
	}
	if !strings.Contains(Attribution, "CC-BY 4.0") {
		t.Errorf("Attribution = %q does not name the licence", Attribution)
	}
}

func TestLookupRejectsBadReferences(t *testing.T) {
	for _, ref := range []string{"2693", "openmoji:2693", "twemoji:", "twemoji:../doc", "twemoji:ffff"} {
		if _, err := Lookup(ref); err == nil {
			t.Errorf("Lookup(%q) succeeded", ref)
		}
	}
}

// supported lists every element and attribute the reader draws; the
// vendored files must use nothing else, so that nothing in them is
// silently dropped.
var supported = struct{ elements, attrs map[string]bool }{
	elements: map[string]bool{"svg": true, "g": true, "path": true, "circle": true, "ellipse": true, "rect": true,
		"line": true, "polyline": true, "polygon": true},
	attrs: map[string]bool{"xmlns": true, "viewBox": true, "space": true, "d": true, "cx": true, "cy": true, "r": true,
		"rx": true, "ry": true, "x": true, "y": true, "width": true, "height": true, "x1": true, "y1": true, "x2": true,
		"y2": true, "points": true, "fill": true, "fill-opacity": true, "fill-rule": true, "clip-rule": true,
		"opacity": true, "stroke": true, "stroke-width": true, "stroke-opacity": true, "stroke-linecap": true,
		"stroke-linejoin": true, "transform": true},
}

func TestVendoredFilesUseOnlySupportedSVG(t *testing.T) {
	used := map[string]int{}
	for _, stem := range TwemojiStems() {
		src, err := TwemojiSource(stem)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(src))
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s.svg: %v", stem, err)
			}
			se, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			used["<"+se.Name.Local+">"]++
			if !supported.elements[se.Name.Local] {
				t.Errorf("%s.svg uses <%s>, which the reader does not draw", stem, se.Name.Local)
			}
			for _, a := range se.Attr {
				used[a.Name.Local]++
				if !supported.attrs[a.Name.Local] {
					t.Errorf("%s.svg uses the attribute %s on <%s>, which the reader does not handle", stem, a.Name.Local, se.Name.Local)
				}
				if strings.Contains(a.Value, "url(") {
					t.Errorf("%s.svg references a paint server: %s=%q", stem, a.Name.Local, a.Value)
				}
			}
		}
		if _, err := ParseSVG(src); err != nil {
			t.Errorf("%s.svg %v", stem, err)
		}
	}
	if used["<path>"] == 0 || used["<circle>"] == 0 {
		t.Errorf("element census looks wrong: %v", used)
	}
}

// thumbnail renders a picture into an n×n image on white, scaled so its
// ink circle fills the image: drawn at 4n×4n and averaged down, so that
// small shifts of an outline change little.
func thumbnail(p *Picture, n int) *image.RGBA {
	big := render(p, 4*n)
	out := image.NewRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			var sum [4]int
			for dy := 0; dy < 4; dy++ {
				for dx := 0; dx < 4; dx++ {
					o := big.PixOffset(4*x+dx, 4*y+dy)
					for c := 0; c < 4; c++ {
						sum[c] += int(big.Pix[o+c])
					}
				}
			}
			o := out.PixOffset(x, y)
			for c := 0; c < 4; c++ {
				out.Pix[o+c] = uint8(sum[c] / 16)
			}
		}
	}
	return out
}

// render draws a picture into an n×n image on white, its ink circle
// filling the image.
func render(p *Picture, n int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	r := raster.NewRenderer(img)
	r.RenderPath(geom.Rectangle(float64(n), float64(n)), geom.Style{Fill: color.NRGBA{255, 255, 255, 255}}, geom.Identity)
	s := float64(n) / 2 / p.Radius
	p.Draw(r, geom.Identity.Translate(float64(n)/2, float64(n)/2).Scale(s, s).Translate(-p.Center.X, -p.Center.Y))
	return img
}

// difference compares two same-sized thumbnails on white: the summed
// colour difference of their pixels over the summed ink of the two (a
// pixel's ink is how far its darkest channel is from white). 0 means
// identical; two drawings that share no inked pixel score about 1.
func difference(a, b *image.RGBA) float64 {
	var diff, ink float64
	for i := 0; i < len(a.Pix); i += 4 {
		inkA, inkB := 0.0, 0.0
		for c := 0; c < 3; c++ {
			diff += math.Abs(float64(a.Pix[i+c]) - float64(b.Pix[i+c]))
			inkA = math.Max(inkA, 255-float64(a.Pix[i+c]))
			inkB = math.Max(inkB, 255-float64(b.Pix[i+c]))
		}
		ink += 3 * math.Max(inkA, inkB)
	}
	if ink == 0 {
		return 0
	}
	return diff / ink
}

// lookAlike is the thumbnail difference below which two pictures count as
// look-alikes: a picture and the same drawing with its reds nudged by
// 10/255, moved by 2% and enlarged by 2% differ by less (see
// TestLookAlikeMeasure). Real pairs of different symbols, such as the
// classic apple and heart (both red and round), score above 0.17.
const lookAlike = 0.12

func TestLookAlikeMeasure(t *testing.T) {
	p, err := Lookup("twemoji:1f40e") // horse
	if err != nil {
		t.Fatal(err)
	}
	// The same drawing with every red nudged, moved and enlarged a
	// little: it must count as a look-alike.
	var tinted []Shape
	for _, s := range p.Shapes {
		s.Fill.R = uint8(min(255, int(s.Fill.R)+10))
		tinted = append(tinted, s)
	}
	q := &Picture{Shapes: tinted, Center: geom.Point{X: p.Center.X + 0.4, Y: p.Center.Y}, Radius: p.Radius * 1.02}
	d := difference(thumbnail(p, 12), thumbnail(q, 12))
	t.Logf("recoloured, shifted copy: difference %.3f", d)
	if d >= lookAlike {
		t.Errorf("a recoloured, shifted copy differs by %.3f, not counted as a look-alike (< %.2f)", d, lookAlike)
	}
}

func TestNoLookAlikesWithinASet(t *testing.T) {
	for _, set := range symbols.Sets() {
		thumbs := make([]*image.RGBA, set.Len())
		for i, sym := range set.Symbols {
			p, err := Lookup(sym.Art)
			if err != nil {
				t.Fatal(err)
			}
			thumbs[i] = thumbnail(p, 12)
		}
		closest, pair := 1.0, [2]int{}
		for i := range thumbs {
			for j := i + 1; j < len(thumbs); j++ {
				d := difference(thumbs[i], thumbs[j])
				if d < closest {
					closest, pair = d, [2]int{i, j}
				}
				if d < lookAlike {
					t.Errorf("%s: %s and %s look alike (difference %.3f < %.2f)", set.Name,
						set.Symbols[i].Key, set.Symbols[j].Key, d, lookAlike)
				}
			}
		}
		t.Logf("%s: closest pair %s / %s, difference %.3f", set.Name,
			set.Symbols[pair[0]].Key, set.Symbols[pair[1]].Key, closest)
	}
}

func TestThumbnailIsNotBlank(t *testing.T) {
	p, err := Lookup("twemoji:2693")
	if err != nil {
		t.Fatal(err)
	}
	img := thumbnail(p, 32)
	white := 0
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			if img.At(x, y) == (color.RGBA{255, 255, 255, 255}) {
				white++
			}
		}
	}
	if white > 32*32*9/10 || white < 32*32/10 {
		t.Errorf("anchor thumbnail has %d of %d white pixels", white, 32*32)
	}
}
