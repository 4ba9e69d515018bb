package pdf

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/internal/geom"
)

var (
	red  = color.NRGBA{255, 0, 0, 255}
	blue = color.NRGBA{0, 0, 255, 255}
)

// testDocument writes a two-page document: a red square and shapes that
// exercise the fill rules, strokes and images.
func testDocument(t *testing.T, w *bytes.Buffer, pixels image.Image) {
	t.Helper()
	d := New(w, 100, 50)
	d.SetInfo(Info{Title: "Test × (deck)", Producer: "dobble", Keywords: `a\b`})
	// A red square from (10, 10) to (30, 30) mm, y up.
	d.RenderPath(geom.Rectangle(20, 20), geom.Style{Fill: red}, geom.Identity.Translate(10, 10))
	// Two nested squares wound the same way, filled even-odd: a frame
	// around a hole at (50..60, 20..30).
	sq := geom.Rectangle(30, 30).Translate(40, 10)
	sq.Append(geom.Rectangle(10, 10).Translate(50, 20))
	d.RenderPath(sq, geom.Style{Fill: blue, FillRule: geom.EvenOdd}, geom.Identity)
	// A black line 2 mm wide across y = 45, stroked under a similarity.
	l := &geom.Path{}
	l.MoveTo(0, 0)
	l.LineTo(40, 0)
	d.RenderPath(l, geom.Style{Stroke: color.NRGBA{A: 255}, StrokeWidth: 1}, geom.Identity.Translate(10, 45).Scale(2, 2).Translate(-5, 0))
	d.NewPage(100, 50)
	// The image twice, a millimetre to a pixel, at (0..20, 0..20) and
	// (50..70, 20..40), y down in the image.
	d.RenderImage(pixels, geom.Identity.Translate(0, 20).Scale(1, -1))
	d.RenderImage(pixels, geom.Identity.Translate(50, 40).Scale(1, -1))
	// A half-transparent green square stroked in green under a matrix
	// that does not keep shapes.
	d.RenderPath(geom.Rectangle(1, 1), geom.Style{Fill: color.NRGBA{0, 128, 0, 128}, Stroke: color.NRGBA{0, 128, 0, 255}, StrokeWidth: 0.1},
		geom.Identity.Translate(80, 5).Scale(10, 40))
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

// pixels returns a 20×20 image of four quadrants: red, green, blue and,
// bottom right, transparent.
func pixels() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 20, 20))
	for y := 0; y < 20; y++ {
		for x := 0; x < 20; x++ {
			switch {
			case x < 10 && y < 10:
				img.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
			case y < 10:
				img.SetNRGBA(x, y, color.NRGBA{0, 255, 0, 255})
			case x < 10:
				img.SetNRGBA(x, y, color.NRGBA{0, 0, 255, 255})
			}
		}
	}
	return img
}

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// render renders a page of the PDF with pdftoppm at 25.4 dpi: a pixel a
// millimetre.
func render(t *testing.T, path string, page int) image.Image {
	t.Helper()
	out := filepath.Join(t.TempDir(), "page")
	p := strconv.Itoa(page)
	cmd := exec.Command("pdftoppm", "-r", "25.4", "-f", p, "-l", p, "-singlefile", "-png", path, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, b)
	}
	f, err := os.Open(out + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func rgb(img image.Image, x, y int) [3]uint8 {
	c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	return [3]uint8{c.R, c.G, c.B}
}

// near reports whether two colours differ by at most 12 in any channel.
func near(a, b [3]uint8) bool {
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > 12 || d < -12 {
			return false
		}
	}
	return true
}

func TestPopplerReadsAndDrawsIt(t *testing.T) {
	var buf bytes.Buffer
	testDocument(t, &buf, pixels())
	path := writeFile(t, buf.Bytes())
	out, err := exec.Command("pdfinfo", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	info := string(out)
	for _, want := range []string{"Title:           Test × (deck)", `Keywords:        a\b`, "Producer:        dobble", "Pages:           2", "Page size:       283.465 x 141.732 pts"} {
		if !strings.Contains(info, want) {
			t.Errorf("pdfinfo does not say %q:\n%s", want, info)
		}
	}
	if strings.Contains(info, "Syntax") {
		t.Errorf("pdfinfo complains:\n%s", info)
	}
	white, black := [3]uint8{255, 255, 255}, [3]uint8{0, 0, 0}
	p1 := render(t, path, 1)
	// pdftoppm rounds the page's size in pixels up or down.
	if b := p1.Bounds(); b.Dx() < 100 || b.Dx() > 101 || b.Dy() < 50 || b.Dy() > 51 {
		t.Fatalf("page 1 is %v pixels, want 100×50", b)
	}
	// Pixels count from the top: the square's y 10..30 mm are rows
	// 20..40.
	checks := []struct {
		x, y int
		want [3]uint8
		what string
	}{
		{20, 30, [3]uint8{255, 0, 0}, "the red square"},
		{11, 21, [3]uint8{255, 0, 0}, "the red square's corner"},
		{20, 15, white, "above the square"},
		{8, 30, white, "left of the square"},
		{32, 30, white, "right of the square"},
		{45, 30, [3]uint8{0, 0, 255}, "the even-odd frame"},
		{55, 25, white, "the even-odd hole"},
		{30, 5, black, "the stroked line"},
		{30, 2, white, "above the line"},
		{30, 7, white, "below the line"},
	}
	for _, c := range checks {
		if got := rgb(p1, c.x, c.y); !near(got, c.want) {
			t.Errorf("page 1 (%d, %d), %s: %v, want %v", c.x, c.y, c.what, got, c.want)
		}
	}
	p2 := render(t, path, 2)
	checks = []struct {
		x, y int
		want [3]uint8
		what string
	}{
		// The first image: 20 mm high from the bottom, rows 30..50.
		{5, 35, [3]uint8{255, 0, 0}, "the image's top left pixel"},
		{15, 35, [3]uint8{0, 255, 0}, "its top right pixel"},
		{5, 45, [3]uint8{0, 0, 255}, "its bottom left pixel"},
		{15, 45, white, "its transparent pixel"},
		{55, 15, [3]uint8{255, 0, 0}, "the second copy's top left pixel"},
		{65, 25, white, "the second copy's transparent pixel"},
		{85, 25, [3]uint8{127, 191, 127}, "the half-transparent green"},
		{80, 25, [3]uint8{0, 128, 0}, "its stroke, 1 mm wide across"},
		{85, 5, [3]uint8{0, 128, 0}, "its stroke, 4 mm high along"},
	}
	for _, c := range checks {
		if got := rgb(p2, c.x, c.y); !near(got, c.want) {
			t.Errorf("page 2 (%d, %d), %s: %v, want %v", c.x, c.y, c.what, got, c.want)
		}
	}
	// The image is written once, with its soft mask.
	if n := bytes.Count(buf.Bytes(), []byte("/Subtype /Image")); n != 2 {
		t.Errorf("%d image objects, want 2 (the image and its mask)", n)
	}
	if n := bytes.Count(buf.Bytes(), []byte("/SMask")); n != 1 {
		t.Errorf("%d soft masks, want 1", n)
	}
}

// TestCrossReferences checks that every offset of the cross-reference
// table points to its object's "N 0 obj", that startxref points to the
// table, and that the trailer counts the objects.
func TestCrossReferences(t *testing.T) {
	var buf bytes.Buffer
	testDocument(t, &buf, pixels())
	data := buf.Bytes()
	if !bytes.HasPrefix(data, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(data, []byte("%%EOF\n")) {
		t.Fatal("the header or the end of file marker is missing")
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no startxref")
	}
	off, _ := strconv.Atoi(string(m[1]))
	table := data[off:]
	if !bytes.HasPrefix(table, []byte("xref\n0 ")) {
		t.Fatalf("startxref points to %q", table[:min(20, len(table))])
	}
	lines := strings.Split(string(table), "\n")
	var first, count int
	if _, err := fmtSscan(lines[1], &first, &count); err != nil || first != 0 {
		t.Fatalf("xref subsection %q", lines[1])
	}
	if lines[2] != "0000000000 65535 f " {
		t.Errorf("free entry %q", lines[2])
	}
	for n := 1; n < count; n++ {
		entry := lines[2+n]
		if len(entry)+1 != 20 || !strings.HasSuffix(entry, " 00000 n ") {
			t.Fatalf("entry %d is %q, not 20 bytes", n, entry)
		}
		o, _ := strconv.Atoi(entry[:10])
		want := strconv.Itoa(n) + " 0 obj\n"
		if !bytes.HasPrefix(data[o:], []byte(want)) {
			t.Errorf("object %d: offset %d points to %q", n, o, data[o:min(o+12, len(data))])
		}
	}
	if !bytes.Contains(data, []byte("/Size "+strconv.Itoa(count)+" ")) {
		t.Errorf("the trailer's /Size is not %d", count)
	}
	// Every object is in the table once.
	objs := regexp.MustCompile(`(?m)^(\d+) 0 obj$`).FindAllSubmatch(data, -1)
	var nums []int
	for _, o := range objs {
		n, _ := strconv.Atoi(string(o[1]))
		nums = append(nums, n)
	}
	slices.Sort(nums)
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("objects %v are not numbered 1 to %d", nums, count-1)
		}
	}
	if len(nums) != count-1 {
		t.Errorf("%d objects, the table lists %d", len(nums), count-1)
	}
}

func fmtSscan(s string, a, b *int) (int, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, errors.New("want two numbers")
	}
	var err1, err2 error
	*a, err1 = strconv.Atoi(f[0])
	*b, err2 = strconv.Atoi(f[1])
	return 2, errors.Join(err1, err2)
}

// failing fails every write after the first n bytes.
type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	d := New(&failing{n: 100}, 100, 100)
	for i := 0; i < 50; i++ {
		d.RenderPath(geom.Circle(10), geom.Style{Fill: red}, geom.Identity)
		d.NewPage(100, 100)
	}
	if err := d.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close = %v, want the writer's error", err)
	}
}

func TestNumbersAndStrings(t *testing.T) {
	for _, c := range []struct {
		f    float64
		d    int
		want string
	}{{1.5, 3, "1.5"}, {2, 3, "2"}, {-0.0001, 3, "0"}, {1234.56789, 3, "1234.568"}, {1e-7, 6, "0"}, {-3.25, 1, "-3.2"}} {
		if got := dec(c.f, c.d); got != c.want {
			t.Errorf("dec(%v, %d) = %q, want %q", c.f, c.d, got, c.want)
		}
	}
	if got := textString(`a (b) \c`); got != `(a \(b\) \\c)` {
		t.Errorf("textString = %s", got)
	}
	if got := textString("é€"); got != "<FEFF00E920AC>" {
		t.Errorf("textString = %s", got)
	}
}
