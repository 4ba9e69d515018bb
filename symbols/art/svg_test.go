package art

import (
	"bytes"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/internal/geom"
)

func svgDoc(body string) []byte {
	return []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` + body + `</svg>`)
}

func mustParse(t *testing.T, src []byte) *Picture {
	t.Helper()
	p, err := ParseSVG(src)
	if err != nil {
		t.Fatalf("ParseSVG: %v\n%s", err, src)
	}
	return p
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestParseCircleGivesItsOwnCircle(t *testing.T) {
	p := mustParse(t, svgDoc(`<circle cx="30" cy="40" r="10" fill="#f00"/>`))
	if len(p.Shapes) != 1 {
		t.Fatalf("%d shapes, want 1", len(p.Shapes))
	}
	if math.Abs(p.Center.X-30) > 0.05 || math.Abs(p.Center.Y-40) > 0.05 || math.Abs(p.Radius-10) > 0.05 {
		t.Errorf("circle (30,40) r10 read as centre %v radius %v", p.Center, p.Radius)
	}
	if p.Radius < 10 {
		t.Errorf("radius %v is smaller than the circle's", p.Radius)
	}
	if got := p.Shapes[0].Fill; got != (color.NRGBA{255, 0, 0, 255}) {
		t.Errorf("fill = %v, want red", got)
	}
}

func TestParseTransformsAndInheritance(t *testing.T) {
	// A 10×10 square moved by nested transforms: translate(50 0) then
	// rotate(90) about the origin then scale(2): the square (0..10)²
	// becomes (0..20)² scaled, rotated to x in [-20,0], then moved right by
	// 50: x in [30,50], y in [0,20].
	src := svgDoc(`<g fill="blue" transform="translate(50,0)"><g transform="rotate(90)"><rect width="10" height="10" transform="scale(2)"/></g></g>`)
	p := mustParse(t, src)
	b := p.Shapes[0].Path.Bounds()
	if !near(b.X0, 30) || !near(b.X1, 50) || !near(b.Y0, 0) || !near(b.Y1, 20) {
		t.Errorf("bounds %v, want x 30..50, y 0..20", b)
	}
	if p.Shapes[0].Fill != (color.NRGBA{0, 0, 255, 255}) {
		t.Errorf("inherited fill = %v, want blue", p.Shapes[0].Fill)
	}
	m := mustParse(t, svgDoc(`<rect width="10" height="10" transform="matrix(1 0 0 1 5 7)"/>`))
	if b := m.Shapes[0].Path.Bounds(); !near(b.X0, 5) || !near(b.Y0, 7) {
		t.Errorf("matrix() bounds %v, want origin (5,7)", b)
	}
}

func TestParseColoursAndOpacity(t *testing.T) {
	cases := []struct {
		body string
		want color.NRGBA
	}{
		{`<rect width="1" height="1" fill="#abc"/>`, color.NRGBA{0xaa, 0xbb, 0xcc, 255}},
		{`<rect width="1" height="1" fill="#AABBCC80"/>`, color.NRGBA{0xaa, 0xbb, 0xcc, 0x80}},
		{`<rect width="1" height="1" fill="rgb(10, 20, 30)"/>`, color.NRGBA{10, 20, 30, 255}},
		{`<rect width="1" height="1" fill="rgb(100%,0%,0%)"/>`, color.NRGBA{255, 0, 0, 255}},
		{`<rect width="1" height="1" fill="darkgreen"/>`, color.NRGBA{0, 100, 0, 255}},
		{`<rect width="1" height="1" style="fill: #00ff00 ; fill-opacity:0.5" fill="red"/>`, color.NRGBA{0, 255, 0, 128}},
		{`<g color="#123456"><rect width="1" height="1" fill="currentColor"/></g>`, color.NRGBA{0x12, 0x34, 0x56, 255}},
		{`<g opacity=".5"><g opacity=".5"><rect width="1" height="1" fill="#fff"/></g></g>`, color.NRGBA{255, 255, 255, 64}},
		{`<rect width="1" height="1"/>`, color.NRGBA{0, 0, 0, 255}},
	}
	for _, c := range cases {
		p := mustParse(t, svgDoc(c.body))
		if got := p.Shapes[0].Fill; got != c.want {
			t.Errorf("%s: fill %v, want %v", c.body, got, c.want)
		}
	}
}

func TestParseStrokesAndHiddenElements(t *testing.T) {
	p := mustParse(t, svgDoc(`<line x1="0" y1="0" x2="10" y2="0" stroke="black" stroke-width="2" stroke-linecap="round"/>`+
		`<rect width="5" height="5" display="none"/><g visibility="hidden"><circle r="50"/></g>`+
		`<path d="M0 0 L1 1" fill="none"/>`))
	if len(p.Shapes) != 1 {
		t.Fatalf("%d shapes, want only the line", len(p.Shapes))
	}
	s := p.Shapes[0]
	if s.Fill.A != 0 || s.Stroke.A != 255 || s.StrokeWidth != 2 || !s.RoundStroke {
		t.Errorf("line shape = fill %v stroke %v width %v round %v", s.Fill, s.Stroke, s.StrokeWidth, s.RoundStroke)
	}
	// The ink circle includes half the stroke width beyond the ends.
	if p.Radius < 6-1e-6 {
		t.Errorf("stroked line radius %v, want ≥ 6 (length 10 plus round caps)", p.Radius)
	}
}

func TestParseIgnoresEditorMetadataAndUnusedDefinitions(t *testing.T) {
	src := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<!-- made in an editor -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="100mm" height="100mm" viewBox="0 0 100 100">
  <title>a cat</title><desc>drawn by a teacher</desc>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <sodipodi:namedview inkscape:zoom="1"/>
  <defs><linearGradient id="unused"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer"><ellipse cx="50" cy="50" rx="40" ry="20" style="fill:#ffcc00;stroke:none"/></g>
</svg>`)
	p := mustParse(t, src)
	if len(p.Shapes) != 1 || p.Shapes[0].Fill != (color.NRGBA{0xff, 0xcc, 0, 255}) {
		t.Errorf("shapes = %+v, want one yellow ellipse", p.Shapes)
	}
}

func TestParseRefusals(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"script element", string(svgDoc(`<script>alert(1)</script><circle r="5"/>`)), "scripts are refused"},
		{"script in defs", string(svgDoc(`<defs><script>alert(1)</script></defs><circle r="5"/>`)), "scripts are refused"},
		{"event handler", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="5"/></svg>`, "script in the onload attribute"},
		{"javascript link", string(svgDoc(`<a href="javascript:alert(1)"><circle r="5"/></a>`)), "javascript: link"},
		{"external image", string(svgDoc(`<image href="https://example.org/cat.png" width="10" height="10"/>`)), "external references are refused"},
		{"external use", string(svgDoc(`<use href="other.svg#cat"/>`)), "external references are refused"},
		{"xlink external", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="file:///etc/passwd"/></svg>`, "external references are refused"},
		{"external url in style", string(svgDoc(`<rect width="5" height="5" style="fill:url(http://example.org/p.svg#g)"/>`)), "external references are refused"},
		{"import in style sheet", string(svgDoc(`<style>@import url(https://example.org/a.css);</style><circle r="5"/>`)), "external references are refused"},
		{"foreign object", string(svgDoc(`<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>`)), "foreignObject"},
		{"entities", `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><circle r="5"/></svg>`, "entities"},
		{"gradient fill", string(svgDoc(`<defs><linearGradient id="g"/></defs><rect width="5" height="5" fill="url(#g)"/>`)), "gradient or pattern"},
		{"text", string(svgDoc(`<text x="0" y="10">cat</text>`)), "contains text"},
		{"inline image", string(svgDoc(`<image href="#x" width="10" height="10"/>`)), "embeds an <image>"},
		{"local use", string(svgDoc(`<defs><circle id="c" r="5"/></defs><use href="#c"/>`)), "<use>"},
		{"style sheet", string(svgDoc(`<style>.a{fill:red}</style><circle class="a" r="5"/>`)), "<style> sheet"},
		{"clip path", string(svgDoc(`<clipPath id="c"><rect width="5" height="5"/></clipPath><circle r="5" clip-path="url(#c)"/>`)), "clip-path"},
		{"filter", string(svgDoc(`<circle r="5" filter="url(#f)"/>`)), "filter"},
		{"dashes", string(svgDoc(`<line x2="5" stroke="red" stroke-dasharray="1 1"/>`)), "dashed"},
		{"animation", string(svgDoc(`<circle r="5"><animate attributeName="r" to="10"/></circle>`)), "<animate>"},
		{"nested svg", string(svgDoc(`<svg><circle r="5"/></svg>`)), "nests an <svg>"},
		{"not svg", `<html><body/></html>`, "not an SVG file"},
		{"not xml", `this is not xml`, "not an SVG file"},
		{"broken xml", `<svg xmlns="http://www.w3.org/2000/svg"><circle r="5">`, "not well-formed XML"},
		{"latin-1", `<?xml version="1.0" encoding="ISO-8859-1"?><svg xmlns="http://www.w3.org/2000/svg"><circle r="5"/></svg>`, "encoding other than UTF-8"},
		{"empty", string(svgDoc(``)), "draws nothing"},
		{"invisible", string(svgDoc(`<circle r="5" fill="none"/>`)), "draws nothing"},
		{"bad path", string(svgDoc(`<path d="M 0 0 L x y"/>`)), "path data"},
		{"bad colour", string(svgDoc(`<circle r="5" fill="#12"/>`)), "colour"},
		{"bad transform", string(svgDoc(`<circle r="5" transform="spin(3)"/>`)), "transform"},
		{"percent length", string(svgDoc(`<circle r="50%"/>`)), "relative lengths"},
	}
	for _, c := range cases {
		_, err := ParseSVG([]byte(c.src))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not say %q", c.name, err, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans several lines: %q", c.name, err)
		}
	}
	if _, err := ParseSVG([]byte{0xff, 0xfe, '<'}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("binary input: error %v", err)
	}
	big := bytes.Repeat([]byte(" "), MaxSVGSize+1)
	if _, err := ParseSVG(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized input: error %v", err)
	}
}

func TestWriteSVGRoundTrips(t *testing.T) {
	src, err := TwemojiSource("1f6d6") // hut: groups, opacities
	if err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, src)
	var buf bytes.Buffer
	buf.WriteString(`<svg xmlns="http://www.w3.org/2000/svg">`)
	if err := p.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	buf.WriteString(`</svg>`)
	out := buf.String()
	for _, bad := range []string{" id=", " class=", "<style", "<script"} {
		if strings.Contains(out, bad) {
			t.Errorf("written SVG contains %q", bad)
		}
	}
	q := mustParse(t, buf.Bytes())
	if len(q.Shapes) != len(p.Shapes) {
		t.Fatalf("round trip: %d shapes, want %d", len(q.Shapes), len(p.Shapes))
	}
	for i := range p.Shapes {
		a, b := p.Shapes[i], q.Shapes[i]
		if a.Fill != b.Fill && absDiff(a.Fill.A, b.Fill.A) > 1 {
			t.Errorf("shape %d: fill %v became %v", i, a.Fill, b.Fill)
		}
	}
	if math.Abs(p.Radius-q.Radius) > 0.01 || p.Center.Sub(q.Center).Length() > 0.01 {
		t.Errorf("round trip moved the ink circle: %v r%v → %v r%v", p.Center, p.Radius, q.Center, q.Radius)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func TestEnclosingCircleContainsEveryPoint(t *testing.T) {
	x := uint64(1)
	next := func() float64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x%10000) / 100
	}
	for round := 0; round < 200; round++ {
		n := 1 + round%40
		pts := make([]geom.Point, n)
		for i := range pts {
			pts[i] = geom.Point{X: next(), Y: next()}
		}
		c, r := enclosingCircle(pts)
		far := 0.0
		for _, p := range pts {
			d := p.Sub(c).Length()
			far = math.Max(far, d)
			if d > r*(1+1e-7)+1e-7 {
				t.Fatalf("round %d: point %v at %v outside circle %v r%v", round, p, d, c, r)
			}
		}
		// Smallest: some point lies on the circle.
		if far < r*(1-1e-6) {
			t.Fatalf("round %d: circle r%v is not tight (farthest point at %v)", round, r, far)
		}
	}
}

func FuzzParseSVG(f *testing.F) {
	for _, stem := range []string{"2693", "1f6d6", "1fab8", "1f576"} {
		src, err := TwemojiSource(stem)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add(svgDoc(`<g transform="rotate(30 5 5) skewX(10)" opacity=".5"><rect x="1" y="1" width="8" height="4" rx="1"/><polygon points="0,0 5,5 0,5"/></g>`))
	f.Add(svgDoc(`<script/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseSVG(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if !(p.Radius > 0) || math.IsInf(p.Radius, 0) || math.IsNaN(p.Center.X) || math.IsNaN(p.Center.Y) || len(p.Shapes) == 0 {
			t.Errorf("accepted picture with circle %v r%v and %d shapes", p.Center, p.Radius, len(p.Shapes))
		}
		if err := p.WriteSVG(&bytes.Buffer{}); err != nil {
			t.Error(err)
		}
	})
}
