// Package pdf writes PDF documents of vector drawings: pages of a given
// size in millimetres, painted with filled and stroked paths in RGB
// colours with transparency, and raster images with an alpha channel.
//
// A Document implements geom.Renderer with the page's coordinates in
// millimetres, y pointing up from the bottom-left corner, as in PDF. It
// writes PDF 1.4 with FlateDecode-compressed content streams, and each
// image once (as an 8-bit DeviceRGB XObject with a DeviceGray soft mask
// for its alpha), however many pages draw it. Objects go out as soon as
// they are complete, so memory holds only the page being drawn; Close
// writes the page tree, the cross-reference table and the trailer. It
// embeds no fonts: text is drawn as glyph outlines.
package pdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/dobble-dev/dobble/internal/geom"
)

// ptPerMM is the number of PDF points (1/72 inch) in a millimetre.
const ptPerMM = 72 / 25.4

// The objects every document has, by number.
const (
	catalogObj = 1
	infoObj    = 2
	pagesObj   = 3
)

// Info is the document's metadata; empty fields are left out.
type Info struct {
	Title, Subject, Keywords, Author, Creator, Producer string
}

// Document is a PDF being written. Its methods do nothing after a write
// has failed; Close reports the failure. A Document is not safe for
// concurrent use.
type Document struct {
	w   io.Writer
	pos int64
	err error
	// offsets[i] is where object i+1 starts; 0 until it is written.
	offsets []int64
	pages   []int
	images  map[image.Image]int
	info    Info
	page    *page
	zbuf    bytes.Buffer
	zw      *zlib.Writer
}

// state is the part of the graphics state a page tracks, so that it sets
// only what changes.
type state struct {
	fill, stroke           [3]uint8
	fillAlpha, strokeAlpha uint8
	width                  float64
	cap                    geom.Cap
	join                   geom.Join
	miterLimit             float64
}

// page is the page being drawn.
type page struct {
	width, height float64 // in millimetres
	content       []byte
	st            state
	// alphas holds the names of the graphics states used, xobjects the
	// images by name.
	alphas   map[string]bool
	xobjects map[string]int
}

// New starts a document on w with a first page of width × height
// millimetres.
func New(w io.Writer, width, height float64) *Document {
	d := &Document{w: w, offsets: make([]int64, pagesObj), images: map[image.Image]int{}}
	d.printf("%%PDF-1.4\n%%\xe2\xe3\xcf\xd3\n")
	d.NewPage(width, height)
	return d
}

// SetInfo sets the document's metadata.
func (d *Document) SetInfo(info Info) { d.info = info }

func (d *Document) write(b []byte) {
	if d.err != nil {
		return
	}
	n, err := d.w.Write(b)
	d.pos += int64(n)
	d.err = err
}

func (d *Document) printf(format string, args ...any) {
	d.write(fmt.Appendf(nil, format, args...))
}

// newObject reserves the next object number.
func (d *Document) newObject() int {
	d.offsets = append(d.offsets, 0)
	return len(d.offsets)
}

// begin starts object n.
func (d *Document) begin(n int) {
	d.offsets[n-1] = d.pos
	d.printf("%d 0 obj\n", n)
}

// writeObject writes object n with the given body (a dictionary or
// another value).
func (d *Document) writeObject(n int, body string) {
	d.begin(n)
	d.printf("%s\nendobj\n", body)
}

// writeStream writes object n as a stream with the given dictionary
// entries, its data compressed with FlateDecode.
func (d *Document) writeStream(n int, dict string, data []byte) {
	d.zbuf.Reset()
	if d.zw == nil {
		d.zw = zlib.NewWriter(&d.zbuf)
	} else {
		d.zw.Reset(&d.zbuf)
	}
	d.zw.Write(data)
	d.zw.Close()
	d.begin(n)
	d.printf("<<%s /Filter /FlateDecode /Length %d>>\nstream\n", dict, d.zbuf.Len())
	d.write(d.zbuf.Bytes())
	d.printf("\nendstream\nendobj\n")
}

// NewPage ends the current page and starts a new one of width × height
// millimetres.
func (d *Document) NewPage(width, height float64) {
	d.endPage()
	d.page = &page{
		width: width, height: height,
		st:       state{width: 1, miterLimit: 10, fillAlpha: 255, strokeAlpha: 255},
		alphas:   map[string]bool{},
		xobjects: map[string]int{},
	}
	// Millimetres from here on.
	d.page.content = fmt.Appendf(d.page.content, "%s 0 0 %s 0 0 cm\n", dec(ptPerMM, 6), dec(ptPerMM, 6))
}

// endPage writes the page being drawn, if any.
func (d *Document) endPage() {
	pg := d.page
	if pg == nil {
		return
	}
	d.page = nil
	content := d.newObject()
	d.writeStream(content, "", pg.content)
	var res []byte
	if len(pg.alphas) > 0 {
		res = append(res, " /ExtGState <<"...)
		for _, name := range sortedKeys(pg.alphas) {
			// "Fa128" sets the fill alpha to 128/255, "Sa128" the
			// stroke's.
			a, _ := strconv.Atoi(name[2:])
			key := "ca"
			if name[0] == 'S' {
				key = "CA"
			}
			res = fmt.Appendf(res, " /%s << /%s %s >>", name, key, dec(float64(a)/255, 4))
		}
		res = append(res, " >>"...)
	}
	if len(pg.xobjects) > 0 {
		res = append(res, " /XObject <<"...)
		for _, name := range sortedKeys(pg.xobjects) {
			res = fmt.Appendf(res, " /%s %d 0 R", name, pg.xobjects[name])
		}
		res = append(res, " >>"...)
	}
	n := d.newObject()
	d.writeObject(n, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %s %s] /Contents %d 0 R /Resources <<%s >> /Group << /Type /Group /S /Transparency /CS /DeviceRGB /I true >> >>",
		pagesObj, dec(pg.width*ptPerMM, 3), dec(pg.height*ptPerMM, 3), content, res))
	d.pages = append(d.pages, n)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Close ends the last page and writes the page tree, the catalog, the
// metadata, the cross-reference table and the trailer. It returns the
// first error writing met.
func (d *Document) Close() error {
	d.endPage()
	kids := make([]byte, 0, 8*len(d.pages))
	for i, n := range d.pages {
		if i > 0 {
			kids = append(kids, ' ')
		}
		kids = fmt.Appendf(kids, "%d 0 R", n)
	}
	d.writeObject(pagesObj, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, len(d.pages)))
	d.writeObject(catalogObj, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj))
	var info []byte
	for _, f := range []struct{ key, val string }{
		{"Title", d.info.Title}, {"Subject", d.info.Subject}, {"Keywords", d.info.Keywords},
		{"Author", d.info.Author}, {"Creator", d.info.Creator}, {"Producer", d.info.Producer},
	} {
		if f.val != "" {
			info = fmt.Appendf(info, " /%s %s", f.key, textString(f.val))
		}
	}
	d.writeObject(infoObj, fmt.Sprintf("<<%s >>", info))
	xref := d.pos
	d.printf("xref\n0 %d\n0000000000 65535 f \n", len(d.offsets)+1)
	for _, off := range d.offsets {
		d.printf("%010d 00000 n \n", off)
	}
	d.printf("trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(d.offsets)+1, catalogObj, infoObj, xref)
	return d.err
}

// textString returns s as a PDF text string: a literal string for
// printable ASCII, UTF-16 with a byte order mark otherwise.
func textString(s string) string {
	ascii := true
	for _, r := range s {
		if r < 0x20 || r > 0x7e {
			ascii = false
			break
		}
	}
	if ascii {
		b := []byte{'('}
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == '(' || c == ')' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, s[i])
		}
		return string(append(b, ')'))
	}
	b := []byte("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		b = fmt.Appendf(b, "%04X", u)
	}
	return string(append(b, '>'))
}

// dec formats f with at most the given number of decimals and no
// exponent, as PDF numbers are written.
func dec(f float64, decimals int) string {
	return string(appendDec(nil, f, decimals))
}

func appendDec(b []byte, f float64, decimals int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'f', decimals, 64)
	if decimals > 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	if string(b[start:]) == "-0" {
		b = append(b[:start], '0')
	}
	return b
}

// coordDecimals is the precision of coordinates in content streams: a
// micrometre.
const coordDecimals = 3

func (pg *page) num(f float64) {
	pg.content = appendDec(pg.content, f, coordDecimals)
	pg.content = append(pg.content, ' ')
}

func (pg *page) op(s string) {
	pg.content = append(pg.content, s...)
	pg.content = append(pg.content, '\n')
}

// path writes the path's construction operators, transformed by m.
// Quadratic curves become the cubic ones they equal.
func (pg *page) path(p *geom.Path, m geom.Matrix) {
	pt := func(q geom.Point) {
		q = m.Dot(q)
		pg.num(q.X)
		pg.num(q.Y)
	}
	for s := range p.Segments() {
		switch s.Cmd {
		case geom.MoveToCmd:
			pt(s.P[0])
			pg.op("m")
		case geom.LineToCmd:
			pt(s.P[0])
			pg.op("l")
		case geom.QuadToCmd:
			pt(s.Start.Lerp(s.P[0], 2.0/3))
			pt(s.P[1].Lerp(s.P[0], 2.0/3))
			pt(s.P[1])
			pg.op("c")
		case geom.CubeToCmd:
			pt(s.P[0])
			pt(s.P[1])
			pt(s.P[2])
			pg.op("c")
		case geom.CloseCmd:
			pg.op("h")
		}
	}
}

func (pg *page) setAlpha(stroke bool, a uint8) {
	cur, prefix := &pg.st.fillAlpha, "Fa"
	if stroke {
		cur, prefix = &pg.st.strokeAlpha, "Sa"
	}
	if *cur == a {
		return
	}
	name := prefix + strconv.Itoa(int(a))
	pg.alphas[name] = true
	pg.op("/" + name + " gs")
	*cur = a
}

func (pg *page) setColour(stroke bool, c color.NRGBA) {
	rgb, opName := &pg.st.fill, "rg"
	if stroke {
		rgb, opName = &pg.st.stroke, "RG"
	}
	if v := [3]uint8{c.R, c.G, c.B}; *rgb != v {
		for _, ch := range v {
			pg.content = appendDec(pg.content, float64(ch)/255, 4)
			pg.content = append(pg.content, ' ')
		}
		pg.op(opName)
		*rgb = v
	}
	pg.setAlpha(stroke, c.A)
}

func (pg *page) setLine(width float64, c geom.Cap, j geom.Join) {
	if width != pg.st.width {
		pg.num(width)
		pg.op("w")
		pg.st.width = width
	}
	// PDF's cap and join numbers are those of geom's constants: butt 0,
	// round 1; miter 0, round 1.
	if c != pg.st.cap {
		pg.op(strconv.Itoa(int(c)) + " J")
		pg.st.cap = c
	}
	if j != pg.st.join {
		pg.op(strconv.Itoa(int(j)) + " j")
		pg.st.join = j
	}
	if j == geom.MiterJoin && pg.st.miterLimit != geom.MiterLimit {
		pg.op(dec(geom.MiterLimit, 0) + " M")
		pg.st.miterLimit = geom.MiterLimit
	}
}

// RenderPath paints the path on the current page: filled by the style's
// rule, then stroked. m maps the path's coordinates to the page's
// millimetres. Under a matrix that keeps shapes the stroke is drawn with
// PDF's own line width, caps and joins; under another, the path is
// stroked in its own coordinates under that matrix, so the width is
// transformed as SVG does.
func (d *Document) RenderPath(p *geom.Path, style geom.Style, m geom.Matrix) {
	pg := d.page
	fill, stroke := style.HasFill(), style.HasStroke()
	if pg == nil || d.err != nil || p.Empty() || !fill && !stroke {
		return
	}
	fillOp := "f"
	if style.FillRule == geom.EvenOdd {
		fillOp = "f*"
	}
	if stroke && m.IsSimilarity() {
		scale := math.Sqrt(math.Abs(m.Det()))
		if fill {
			pg.setColour(false, style.Fill)
		}
		pg.setColour(true, style.Stroke)
		pg.setLine(style.StrokeWidth*scale, style.Cap, style.Join)
		pg.path(p, m)
		switch {
		case !fill:
			pg.op("S")
		case style.Stroke.A == 255:
			// B strokes over the fill; it differs from f then S only
			// where a translucent stroke would show the fill through.
			if style.FillRule == geom.EvenOdd {
				pg.op("B*")
			} else {
				pg.op("B")
			}
		default:
			pg.op(fillOp)
			pg.path(p, m)
			pg.op("S")
		}
		return
	}
	if fill {
		pg.setColour(false, style.Fill)
		pg.path(p, m)
		pg.op(fillOp)
	}
	if stroke {
		pg.setColour(true, style.Stroke)
		saved := pg.st
		pg.op("q")
		pg.matrix(m)
		pg.setLine(style.StrokeWidth, style.Cap, style.Join)
		pg.path(p, geom.Identity)
		pg.op("S")
		pg.op("Q")
		pg.st = saved
	}
}

// matrix concatenates m to the current transformation.
func (pg *page) matrix(m geom.Matrix) {
	for _, v := range []float64{m[0][0], m[1][0], m[0][1], m[1][1], m[0][2], m[1][2]} {
		pg.content = appendDec(pg.content, v, 6)
		pg.content = append(pg.content, ' ')
	}
	pg.op("cm")
}

// RenderImage paints img on the current page, with m mapping its pixel
// coordinates (y down, (0, 0) to its width and height) to the page's
// millimetres. The image is clipped to its own outline, so that viewers
// that smooth it do not bleed past its edges. Images are told apart by
// identity: every image type of the standard library is a pointer, and
// drawing the same one again refers to the one written.
func (d *Document) RenderImage(img image.Image, m geom.Matrix) {
	pg := d.page
	b := img.Bounds()
	if pg == nil || d.err != nil || b.Empty() {
		return
	}
	ref, ok := d.images[img]
	if !ok {
		ref = d.writeImage(img)
		d.images[img] = ref
	}
	name := "Im" + strconv.Itoa(ref)
	pg.xobjects[name] = ref
	w, h := float64(b.Dx()), float64(b.Dy())
	// Images take the fill alpha too.
	pg.setAlpha(false, 255)
	pg.op("q")
	for i, c := range []geom.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}} {
		q := m.Dot(c)
		pg.num(q.X)
		pg.num(q.Y)
		if i == 0 {
			pg.op("m")
		} else {
			pg.op("l")
		}
	}
	pg.op("h W n")
	// PDF draws an image into the unit square, its first row at the top.
	pg.matrix(m.Mul(geom.Matrix{{w, 0, 0}, {0, -h, h}}))
	pg.op("/" + name + " Do")
	pg.op("Q")
}

// writeImage writes img as an image XObject, with a soft mask if it has
// any transparency, and returns its object number.
func (d *Document) writeImage(img image.Image) int {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	rgb := make([]byte, 0, 3*w*h)
	alpha := make([]byte, 0, w*h)
	opaque := true
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var c color.NRGBA
			if n, ok := img.(*image.NRGBA); ok {
				i := n.PixOffset(x, y)
				c = color.NRGBA{n.Pix[i], n.Pix[i+1], n.Pix[i+2], n.Pix[i+3]}
			} else {
				c = color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			}
			if c.A == 0 {
				c = color.NRGBA{}
			}
			rgb = append(rgb, c.R, c.G, c.B)
			alpha = append(alpha, c.A)
			opaque = opaque && c.A == 255
		}
	}
	dict := fmt.Sprintf(" /Type /XObject /Subtype /Image /Width %d /Height %d /BitsPerComponent 8 /Interpolate true", w, h)
	smask := ""
	if !opaque {
		mask := d.newObject()
		d.writeStream(mask, dict+" /ColorSpace /DeviceGray", alpha)
		smask = fmt.Sprintf(" /SMask %d 0 R", mask)
	}
	n := d.newObject()
	d.writeStream(n, dict+" /ColorSpace /DeviceRGB"+smask, rgb)
	return n
}
