package art

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dobble-dev/dobble/internal/geom"
)

// MaxSVGSize is the largest SVG source ParseSVG reads, in bytes.
const MaxSVGSize = 8 << 20

// maxDepth bounds the nesting of elements ParseSVG accepts.
const maxDepth = 200

const svgNS = "http://www.w3.org/2000/svg"

// ParseSVG reads a vector picture from SVG source (see the package
// documentation for the subset it draws). Errors complete a sentence that
// starts with the file's name, for example "contains a <script> element;
// SVG files with scripts are refused".
func ParseSVG(data []byte) (*Picture, error) {
	if len(data) > MaxSVGSize {
		return nil, fmt.Errorf("is larger than %d MB; simplify the drawing or save it as PNG", MaxSVGSize>>20)
	}
	if !utf8.Valid(data) {
		return nil, errors.New("is not UTF-8 text, so it is not an SVG file this program can read")
	}
	p := &svgReader{}
	if err := p.read(data); err != nil {
		return nil, err
	}
	pic, err := NewPicture(p.shapes)
	if err != nil {
		return nil, errors.New("draws nothing visible")
	}
	return pic, nil
}

// paintState is the inherited presentation state at an element.
type paintState struct {
	fill, stroke        paint
	fillOpacity         float64
	strokeOpacity       float64
	opacity             float64 // product of the group opacities above
	strokeWidth         float64
	fillRule            geom.FillRule
	roundCap, roundJoin bool
	color               color.NRGBA
	hidden              bool
	transform           geom.Matrix
	// skipSubtree is set inside elements that draw nothing (metadata,
	// definitions); foreign inside elements of other XML vocabularies.
	skipSubtree, foreign bool
	// style is set on a <style> element, whose text is checked when it
	// ends.
	style bool
}

// paint is a fill or stroke value: none, a colour or currentColor.
type paint struct {
	none, current bool
	c             color.NRGBA
}

type svgReader struct {
	shapes    []Shape
	elements  int
	styleText []byte
}

func (p *svgReader) read(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	root := paintState{
		fill:          paint{c: color.NRGBA{A: 255}},
		stroke:        paint{none: true},
		fillOpacity:   1,
		strokeOpacity: 1,
		opacity:       1,
		strokeWidth:   1,
		color:         color.NRGBA{A: 255},
		transform:     geom.Identity,
	}
	var stack []paintState
	sawRoot := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if strings.Contains(err.Error(), "CharsetReader") {
				return errors.New("declares an encoding other than UTF-8; save it as UTF-8")
			}
			return fmt.Errorf("is not well-formed XML (%v)", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.elements++
			if p.elements > 200000 {
				return errors.New("has more than 200000 elements; simplify the drawing or save it as PNG")
			}
			if len(stack) >= maxDepth {
				return fmt.Errorf("nests elements more than %d deep", maxDepth)
			}
			if err := checkSafe(t); err != nil {
				return err
			}
			parent := root
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			} else {
				if t.Name.Local != "svg" || (t.Name.Space != "" && t.Name.Space != svgNS) {
					return fmt.Errorf("is not an SVG file: its root element is <%s>, not <svg>", t.Name.Local)
				}
				sawRoot = true
			}
			st, err := p.start(t, parent, len(stack) == 0)
			if err != nil {
				return err
			}
			stack = append(stack, st)
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1].style {
				p.styleText = append(p.styleText, t...)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				if stack[len(stack)-1].style {
					if err := checkStyleSheet(string(p.styleText)); err != nil {
						return err
					}
					p.styleText = p.styleText[:0]
				}
				stack = stack[:len(stack)-1]
			}
		case xml.Directive:
			if bytes.Contains(bytes.ToUpper(t), []byte("ENTITY")) {
				return errors.New("declares XML entities; SVG files with a DOCTYPE that defines entities are refused")
			}
		}
	}
	if !sawRoot {
		return errors.New("is not an SVG file: it has no <svg> element")
	}
	return nil
}

// checkSafe refuses scripts and references to anything outside the file,
// wherever they appear.
func checkSafe(t xml.StartElement) error {
	name := t.Name.Local
	switch strings.ToLower(name) {
	case "script":
		return errors.New("contains a <script> element; SVG files with scripts are refused")
	case "foreignobject":
		return errors.New("contains a <foreignObject> element (embedded HTML, which can carry scripts); such SVG files are refused")
	}
	for _, a := range t.Attr {
		an := strings.ToLower(a.Name.Local)
		v := strings.TrimSpace(a.Value)
		if strings.HasPrefix(an, "on") {
			return fmt.Errorf("has a script in the %s attribute of <%s>; SVG files with scripts are refused", a.Name.Local, name)
		}
		if an == "href" || an == "src" {
			if strings.HasPrefix(strings.ToLower(v), "javascript:") {
				return fmt.Errorf("has a javascript: link in <%s>; SVG files with scripts are refused", name)
			}
			if !strings.HasPrefix(v, "#") {
				return fmt.Errorf("refers to %q outside the file in <%s>; SVG files with external references are refused", truncate(v), name)
			}
		}
		if ref, ok := externalURL(v); ok {
			return fmt.Errorf("refers to %q outside the file in the %s attribute of <%s>; SVG files with external references are refused", truncate(ref), a.Name.Local, name)
		}
	}
	return nil
}

// checkStyleSheet refuses the text of a <style> element: with a reference
// outside the file as unsafe, otherwise as unsupported unless it is empty.
func checkStyleSheet(css string) error {
	if ref, ok := externalURL(css); ok {
		return fmt.Errorf("refers to %q outside the file in a <style> sheet; SVG files with external references are refused", truncate(ref))
	}
	if strings.TrimSpace(css) != "" {
		return errors.New("uses a <style> sheet, which is not supported; use presentation attributes (fill=…) or save the picture as PNG")
	}
	return nil
}

// externalURL reports a url(…) or @import in s that does not point inside
// the document.
func externalURL(s string) (string, bool) {
	low := strings.ToLower(s)
	if i := strings.Index(low, "@import"); i >= 0 {
		return strings.TrimSpace(s[i:]), true
	}
	for {
		i := strings.Index(low, "url(")
		if i < 0 {
			return "", false
		}
		rest := strings.TrimSpace(s[i+4:])
		rest = strings.TrimLeft(rest, `'"`)
		if !strings.HasPrefix(rest, "#") {
			end := strings.IndexAny(rest, `)'"`)
			if end < 0 {
				end = len(rest)
			}
			return rest[:end], true
		}
		s, low = s[i+4:], low[i+4:]
	}
}

func truncate(s string) string {
	if len(s) > 60 {
		r := []rune(s)
		if len(r) > 60 {
			return string(r[:60]) + "…"
		}
	}
	return s
}

// start handles one start element: it returns the state its children
// inherit and, for shapes, records the shape.
func (p *svgReader) start(t xml.StartElement, parent paintState, isRoot bool) (paintState, error) {
	st := parent
	if parent.skipSubtree {
		// A style sheet inside <defs> still styles the drawing.
		st.style = t.Name.Local == "style" && !parent.foreign
		return st, nil
	}
	if t.Name.Space != "" && t.Name.Space != svgNS {
		// Editor metadata (Inkscape, Sodipodi, RDF…) draws nothing.
		st.skipSubtree, st.foreign = true, true
		return st, nil
	}
	name := t.Name.Local
	switch name {
	case "title", "desc", "metadata":
		st.skipSubtree, st.foreign = true, true
		return st, nil
	case "defs", "linearGradient", "radialGradient", "pattern", "clipPath", "mask",
		"filter", "symbol", "marker":
		// Never rendered by themselves; references to them are refused
		// where they are used (fill="url(#…)", clip-path, mask, filter).
		st.skipSubtree = true
		return st, nil
	case "style":
		st.style, st.skipSubtree = true, true
		return st, nil
	case "svg":
		if !isRoot {
			return st, errors.New("nests an <svg> element inside another, which is not supported; save the picture as PNG")
		}
	case "g", "path", "circle", "ellipse", "rect", "line", "polyline", "polygon":
	case "text", "tspan", "textPath":
		return st, fmt.Errorf("contains text (<%s>), which is not supported; convert the text to paths in your editor, or save the picture as PNG", name)
	case "image":
		return st, errors.New("embeds an <image>, which is not supported; give the picture itself as a PNG or JPEG file")
	case "use":
		return st, errors.New("uses <use> references, which are not supported; flatten them in your editor (Inkscape: Edit › Clone › Unlink Clone) or save the picture as PNG")
	default:
		return st, fmt.Errorf("contains <%s>, which is not supported (supported: svg, g, path, circle, ellipse, rect, line, polyline, polygon with flat colours); save the picture as PNG", name)
	}

	attrs := map[string]string{}
	for _, a := range t.Attr {
		if a.Name.Space != "" && a.Name.Space != svgNS {
			continue // xml:space, xmlns:…, inkscape:…
		}
		attrs[a.Name.Local] = a.Value
	}
	// The style attribute overrides presentation attributes.
	props := map[string]string{}
	for k, v := range attrs {
		props[k] = v
	}
	if s, ok := attrs["style"]; ok {
		for _, decl := range strings.Split(s, ";") {
			k, v, ok := strings.Cut(decl, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
			props[strings.ToLower(strings.TrimSpace(k))] = v
		}
	}
	if err := applyProps(&st, props, name); err != nil {
		return st, err
	}
	if tr, ok := attrs["transform"]; ok && name != "svg" {
		m, err := parseTransform(tr)
		if err != nil {
			return st, fmt.Errorf("has a transform on <%s> that cannot be read (%q: %v)", name, truncate(tr), err)
		}
		st.transform = st.transform.Mul(m)
	}
	if st.hidden {
		st.skipSubtree = true
		return st, nil
	}
	path, err := shapePath(name, attrs)
	if err != nil {
		return st, err
	}
	if path != nil && !path.Empty() {
		p.addShape(path, st, name == "line" || name == "polyline")
	}
	return st, nil
}

// applyProps applies presentation properties to st.
func applyProps(st *paintState, props map[string]string, elem string) error {
	for _, k := range []string{"clip-path", "mask", "filter", "marker-start", "marker-mid", "marker-end", "marker"} {
		if v, ok := props[k]; ok && v != "none" && v != "" {
			return fmt.Errorf("uses %s on <%s>, which is not supported; flatten it in your editor or save the picture as PNG", k, elem)
		}
	}
	if v, ok := props["stroke-dasharray"]; ok && v != "none" && v != "" {
		return fmt.Errorf("uses dashed strokes (stroke-dasharray on <%s>), which are not supported; save the picture as PNG", elem)
	}
	if v, ok := props["display"]; ok && v == "none" {
		st.hidden = true
	}
	if v, ok := props["visibility"]; ok && (v == "hidden" || v == "collapse") {
		st.hidden = true
	}
	if v, ok := props["color"]; ok && v != "inherit" {
		c, err := parseColor(v)
		if err != nil {
			return fmt.Errorf("has a colour that cannot be read on <%s> (color=%q)", elem, truncate(v))
		}
		if !c.none {
			st.color = c.c
		}
	}
	for _, k := range []string{"fill", "stroke"} {
		v, ok := props[k]
		if !ok || v == "inherit" {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(v), "url(") {
			return fmt.Errorf("fills with a gradient or pattern (%s=%q on <%s>), which is not supported; use flat colours or save the picture as PNG", k, truncate(v), elem)
		}
		c, err := parseColor(v)
		if err != nil {
			return fmt.Errorf("has a colour that cannot be read on <%s> (%s=%q)", elem, k, truncate(v))
		}
		if k == "fill" {
			st.fill = c
		} else {
			st.stroke = c
		}
	}
	for _, k := range []string{"fill-opacity", "stroke-opacity", "opacity"} {
		v, ok := props[k]
		if !ok || v == "inherit" {
			continue
		}
		f, err := parseOpacity(v)
		if err != nil {
			return fmt.Errorf("has an opacity that cannot be read on <%s> (%s=%q)", elem, k, truncate(v))
		}
		switch k {
		case "fill-opacity":
			st.fillOpacity = f
		case "stroke-opacity":
			st.strokeOpacity = f
		default:
			st.opacity *= f
		}
	}
	if v, ok := props["fill-rule"]; ok {
		switch v {
		case "evenodd":
			st.fillRule = geom.EvenOdd
		case "nonzero":
			st.fillRule = geom.NonZero
		}
	}
	if v, ok := props["stroke-width"]; ok && v != "inherit" {
		w, err := parseLength(v)
		if err != nil || w < 0 {
			return fmt.Errorf("has a stroke width that cannot be read on <%s> (%q)", elem, truncate(v))
		}
		st.strokeWidth = w
	}
	if v, ok := props["stroke-linecap"]; ok {
		st.roundCap = v == "round"
	}
	if v, ok := props["stroke-linejoin"]; ok {
		st.roundJoin = v == "round"
	}
	return nil
}

// addShape records path, drawn with the paint of st.
func (p *svgReader) addShape(path *geom.Path, st paintState, open bool) {
	path = path.Transform(st.transform)
	s := Shape{Path: path, FillRule: st.fillRule}
	if !st.fill.none && !open {
		s.Fill = withAlpha(st.fill.resolve(st.color), st.fillOpacity*st.opacity)
	}
	if !st.stroke.none && st.strokeWidth > 0 {
		s.Stroke = withAlpha(st.stroke.resolve(st.color), st.strokeOpacity*st.opacity)
		s.StrokeWidth = st.strokeWidth * math.Sqrt(math.Abs(st.transform.Det()))
		s.RoundStroke = st.roundCap || st.roundJoin
	}
	if s.Fill.A == 0 && (s.Stroke.A == 0 || s.StrokeWidth == 0) {
		return
	}
	p.shapes = append(p.shapes, s)
}

func (c paint) resolve(current color.NRGBA) color.NRGBA {
	if c.current {
		return current
	}
	return c.c
}

func withAlpha(c color.NRGBA, f float64) color.NRGBA {
	c.A = uint8(math.Round(float64(c.A) * math.Max(0, math.Min(1, f))))
	return c
}

// shapePath returns the outline of a basic shape or path element, in its
// own coordinates; nil for elements that are not shapes.
func shapePath(name string, a map[string]string) (*geom.Path, error) {
	num := func(k string) (float64, error) {
		v, ok := a[k]
		if !ok {
			return 0, nil
		}
		f, err := parseLength(v)
		if err != nil {
			return 0, fmt.Errorf("has a %s on <%s> that cannot be read (%q: %v)", k, name, truncate(v), err)
		}
		return f, nil
	}
	nums := func(keys ...string) ([]float64, error) {
		out := make([]float64, len(keys))
		for i, k := range keys {
			f, err := num(k)
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	switch name {
	case "path":
		d := strings.TrimSpace(a["d"])
		if d == "" {
			return nil, nil
		}
		path, err := parsePathData(d)
		if err != nil {
			return nil, fmt.Errorf("has path data that cannot be read (%v)", err)
		}
		return path, nil
	case "circle":
		v, err := nums("cx", "cy", "r")
		if err != nil || v[2] <= 0 {
			return nil, err
		}
		return geom.Circle(v[2]).Translate(v[0], v[1]), nil
	case "ellipse":
		v, err := nums("cx", "cy", "rx", "ry")
		if err != nil || v[2] <= 0 || v[3] <= 0 {
			return nil, err
		}
		return geom.Ellipse(v[2], v[3]).Translate(v[0], v[1]), nil
	case "rect":
		v, err := nums("x", "y", "width", "height", "rx", "ry")
		if err != nil || v[2] <= 0 || v[3] <= 0 {
			return nil, err
		}
		return roundedRect(v[0], v[1], v[2], v[3], v[4], v[5], hasKey(a, "rx"), hasKey(a, "ry")), nil
	case "line":
		v, err := nums("x1", "y1", "x2", "y2")
		if err != nil {
			return nil, err
		}
		path := &geom.Path{}
		path.MoveTo(v[0], v[1])
		path.LineTo(v[2], v[3])
		return path, nil
	case "polyline", "polygon":
		pts, err := parseNumbers(a["points"])
		if err != nil {
			return nil, fmt.Errorf("has points on <%s> that cannot be read (%v)", name, err)
		}
		if len(pts) < 4 {
			return nil, nil
		}
		path := &geom.Path{}
		path.MoveTo(pts[0], pts[1])
		for i := 2; i+1 < len(pts); i += 2 {
			path.LineTo(pts[i], pts[i+1])
		}
		if name == "polygon" {
			path.Close()
		}
		return path, nil
	}
	return nil, nil
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// parsePathData parses SVG path data, refusing numbers so large that
// what is made of them (arcs) is no longer finite.
func parsePathData(d string) (*geom.Path, error) {
	path, err := geom.ParseSVGPath(d)
	if err != nil {
		return nil, err
	}
	for _, pt := range path.Coords() {
		if math.IsNaN(pt.X) || math.IsInf(pt.X, 0) || math.IsNaN(pt.Y) || math.IsInf(pt.Y, 0) {
			return nil, errors.New("path data has numbers out of range")
		}
	}
	return path, nil
}

// roundedRect returns an SVG rect outline with corner radii rx, ry (an
// absent one takes the other's value, as SVG says).
func roundedRect(x, y, w, h, rx, ry float64, hasRx, hasRy bool) *geom.Path {
	switch {
	case hasRx && !hasRy:
		ry = rx
	case hasRy && !hasRx:
		rx = ry
	}
	rx = math.Max(0, math.Min(rx, w/2))
	ry = math.Max(0, math.Min(ry, h/2))
	p := &geom.Path{}
	if rx == 0 || ry == 0 {
		p.MoveTo(x, y)
		p.LineTo(x+w, y)
		p.LineTo(x+w, y+h)
		p.LineTo(x, y+h)
		p.Close()
		return p
	}
	p.MoveTo(x+rx, y)
	p.LineTo(x+w-rx, y)
	p.ArcTo(rx, ry, 0, false, true, x+w, y+ry)
	p.LineTo(x+w, y+h-ry)
	p.ArcTo(rx, ry, 0, false, true, x+w-rx, y+h)
	p.LineTo(x+rx, y+h)
	p.ArcTo(rx, ry, 0, false, true, x, y+h-ry)
	p.LineTo(x, y+ry)
	p.ArcTo(rx, ry, 0, false, true, x+rx, y)
	p.Close()
	return p
}

// parseLength reads a length in user units: a number, optionally in px or
// an absolute unit (in, cm, mm, pt, pc) taken at 96 px to the inch.
func parseLength(s string) (float64, error) {
	s = strings.TrimSpace(s)
	scale := 1.0
	for _, u := range []struct {
		unit  string
		scale float64
	}{{"px", 1}, {"in", 96}, {"cm", 96 / 2.54}, {"mm", 96 / 25.4}, {"pt", 96.0 / 72}, {"pc", 16}} {
		if strings.HasSuffix(s, u.unit) {
			s, scale = strings.TrimSpace(strings.TrimSuffix(s, u.unit)), u.scale
			break
		}
	}
	if strings.HasSuffix(s, "%") || strings.HasSuffix(s, "em") || strings.HasSuffix(s, "ex") {
		return 0, errors.New("relative lengths are not supported")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e9 {
		return 0, errors.New("not a number")
	}
	return f * scale, nil
}

// parseOpacity reads an opacity: a number from 0 to 1, or a percentage.
func parseOpacity(s string) (float64, error) {
	s = strings.TrimSpace(s)
	div := 1.0
	if strings.HasSuffix(s, "%") {
		s, div = strings.TrimSuffix(s, "%"), 100
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) {
		return 0, errors.New("not a number")
	}
	return math.Max(0, math.Min(1, f/div)), nil
}

// parseNumbers reads a list of numbers separated by commas and/or spaces.
func parseNumbers(s string) ([]float64, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	out := make([]float64, 0, len(fields))
	for _, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e9 {
			return nil, fmt.Errorf("%q is not a number", truncate(f))
		}
		out = append(out, v)
	}
	return out, nil
}

// parseTransform reads an SVG transform list.
func parseTransform(s string) (geom.Matrix, error) {
	m := geom.Identity
	rest := strings.TrimSpace(s)
	for rest != "" {
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			return m, errors.New("expected a transform function such as translate(…)")
		}
		fn := strings.TrimSpace(rest[:open])
		end := strings.IndexByte(rest, ')')
		if end < open {
			return m, errors.New("missing )")
		}
		args, err := parseNumbers(rest[open+1 : end])
		if err != nil {
			return m, err
		}
		rest = strings.TrimLeft(rest[end+1:], " \t\r\n,")
		bad := fmt.Errorf("%s takes a different number of values", fn)
		switch fn {
		case "matrix":
			if len(args) != 6 {
				return m, bad
			}
			m = m.Mul(geom.Matrix{{args[0], args[2], args[4]}, {args[1], args[3], args[5]}})
		case "translate":
			switch len(args) {
			case 1:
				m = m.Translate(args[0], 0)
			case 2:
				m = m.Translate(args[0], args[1])
			default:
				return m, bad
			}
		case "scale":
			switch len(args) {
			case 1:
				m = m.Scale(args[0], args[0])
			case 2:
				m = m.Scale(args[0], args[1])
			default:
				return m, bad
			}
		case "rotate":
			switch len(args) {
			case 1:
				m = m.Rotate(args[0])
			case 3:
				m = m.RotateAbout(args[0], args[1], args[2])
			default:
				return m, bad
			}
		case "skewX", "skewY":
			if len(args) != 1 {
				return m, bad
			}
			t := math.Tan(args[0] * math.Pi / 180)
			if fn == "skewX" {
				m = m.Shear(t, 0)
			} else {
				m = m.Shear(0, t)
			}
		default:
			return m, fmt.Errorf("unknown transform %q", truncate(fn))
		}
	}
	return m, nil
}

// parseColor reads a CSS colour: none, currentColor, #rgb, #rgba, #rrggbb,
// #rrggbbaa, rgb()/rgba() or a named colour.
func parseColor(s string) (paint, error) {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	switch low {
	case "none", "transparent":
		return paint{none: true}, nil
	case "currentcolor":
		return paint{current: true}, nil
	}
	if strings.HasPrefix(low, "#") {
		hex := low[1:]
		var v [8]uint8
		n := len(hex)
		if n != 3 && n != 4 && n != 6 && n != 8 {
			return paint{}, errors.New("bad hex colour")
		}
		for i := 0; i < n; i++ {
			d, ok := hexDigit(hex[i])
			if !ok {
				return paint{}, errors.New("bad hex colour")
			}
			v[i] = d
		}
		c := color.NRGBA{A: 255}
		if n <= 4 {
			c.R, c.G, c.B = v[0]*17, v[1]*17, v[2]*17
			if n == 4 {
				c.A = v[3] * 17
			}
		} else {
			c.R, c.G, c.B = v[0]<<4|v[1], v[2]<<4|v[3], v[4]<<4|v[5]
			if n == 8 {
				c.A = v[6]<<4 | v[7]
			}
		}
		return paint{c: c}, nil
	}
	if strings.HasPrefix(low, "rgb(") || strings.HasPrefix(low, "rgba(") {
		open, end := strings.IndexByte(low, '('), strings.LastIndexByte(low, ')')
		if end < open {
			return paint{}, errors.New("missing )")
		}
		parts := strings.FieldsFunc(low[open+1:end], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
		if len(parts) != 3 && len(parts) != 4 {
			return paint{}, errors.New("rgb() takes 3 or 4 values")
		}
		var ch [4]float64
		ch[3] = 1
		for i, part := range parts {
			pct := strings.HasSuffix(part, "%")
			f, err := strconv.ParseFloat(strings.TrimSuffix(part, "%"), 64)
			if err != nil || math.IsNaN(f) {
				return paint{}, errors.New("bad rgb() value")
			}
			switch {
			case i == 3 && pct:
				f /= 100
			case i == 3:
			case pct:
				f = f * 255 / 100
			}
			ch[i] = f
		}
		clamp := func(f, hi float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(hi, f)) * 255 / hi)) }
		return paint{c: color.NRGBA{clamp(ch[0], 255), clamp(ch[1], 255), clamp(ch[2], 255), clamp(ch[3], 1)}}, nil
	}
	if c, ok := lookupColour(low); ok {
		return paint{c: c}, nil
	}
	return paint{}, errors.New("unknown colour")
}

func hexDigit(b byte) (uint8, bool) {
	switch {
	case b >= '0' && b <= '9':
		return b - '0', true
	case b >= 'a' && b <= 'f':
		return b - 'a' + 10, true
	}
	return 0, false
}
