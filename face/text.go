package face

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dobble-dev/dobble/internal/geom"
	"github.com/dobble-dev/dobble/internal/glyphs"
	"github.com/dobble-dev/dobble/symbols/art"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/text/unicode/norm"
)

// FontName names the built-in font that words are set in.
const FontName = "Go Bold"

// FontScripts says which writing systems the built-in font covers.
const FontScripts = "Latin, Greek and Cyrillic"

// MaxWordLength is the longest word or phrase, in characters, that a text
// symbol holds: longer ones would be too small to read on a card.
const MaxWordLength = 32

// MaxWordsFileSize bounds a words file, in bytes.
const MaxWordsFileSize = 1 << 20

// palette colours text symbols, in turn: dark, saturated colours that
// read well on white and differ from each other.
var palette = []color.NRGBA{
	{0x1f, 0x4e, 0x9c, 255},  // blue
	{0xc0, 0x39, 0x2b, 255},  // red
	{0x1e, 0x84, 0x49, 255},  // green
	{0x7d, 0x3c, 0x98, 255},  // purple
	{0xd3, 0x54, 0x00, 255},  // orange
	{0x11, 0x7a, 0x65, 255},  // teal
	{0x2c, 0x3e, 0x50, 255},  // slate
	{0xa0, 0x40, 0x00, 255},  // brown
	{0xb0, 0x1e, 0x6e, 255},  // magenta
	{0x42, 0x4b, 0x1a, 0xff}, // olive
}

// loadFont returns the built-in font, parsed at its first use.
var loadFont = sync.OnceValues(func() (*glyphs.Font, error) {
	return glyphs.Parse(gobold.TTF)
})

// wordSize is the font size, in picture units (millimetres), that words
// are set at: 100 points. A picture is scaled to its spot, so the size
// only sets the scale of its coordinates.
const wordSize = 100 * mmPerPt

// mmPerPt is the size of a typographic point in millimetres.
const mmPerPt = 25.4 / 72

// GlyphError reports a character that the built-in font cannot draw.
type GlyphError struct {
	Text string
	Rune rune
}

// Error names the character, its code point and what the font covers.
func (e *GlyphError) Error() string {
	return fmt.Sprintf("%q: the built-in font (%s) cannot draw %q (U+%04X); it covers the %s scripts",
		e.Text, FontName, e.Rune, e.Rune, FontScripts)
}

// CheckText reports whether the built-in font can set s: a *GlyphError for
// the first character it has no glyph for, or another error for control
// characters and tabs. s should be in NFC form.
func CheckText(s string) error {
	f, err := loadFont()
	if err != nil {
		return err
	}
	for _, r := range s {
		switch {
		case r == ' ':
			continue
		case r == utf8.RuneError:
			return fmt.Errorf("%q is not valid UTF-8 text", s)
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return fmt.Errorf("%q contains the control or space character U+%04X; use plain spaces", s, r)
		}
		if !f.HasGlyph(r) {
			return &GlyphError{Text: s, Rune: r}
		}
	}
	return nil
}

// Word returns a text symbol: the word or phrase s set in the built-in
// font in a colour picked by index (so neighbouring words in a list get
// different colours). Phrases are broken into up to three lines, whichever
// makes the text largest in its circle.
func Word(s string, index int) (*Symbol, error) {
	return word(s, palette[((index%len(palette))+len(palette))%len(palette)], false)
}

// Number returns the text symbol for n. Numbers that read as another
// number upside down (6 and 9, 16 and 91…) are underlined.
func Number(n int) (*Symbol, error) {
	s := strconv.Itoa(n)
	return word(s, palette[(n-1+len(palette))%len(palette)], turnsInto(s))
}

// turnsInto reports whether the digits s, turned upside down, read as a
// different number.
func turnsInto(s string) bool {
	turned := map[rune]rune{'0': '0', '1': '1', '6': '9', '8': '8', '9': '6'}
	r := []rune(s)
	out := make([]rune, len(r))
	for i, c := range r {
		t, ok := turned[c]
		if !ok {
			return false
		}
		out[len(r)-1-i] = t
	}
	return string(out) != s
}

func word(s string, c color.NRGBA, underline bool) (*Symbol, error) {
	s = norm.NFC.String(strings.TrimSpace(s))
	if s == "" {
		return nil, errors.New("empty word")
	}
	if n := utf8.RuneCountInString(s); n > MaxWordLength {
		return nil, fmt.Errorf("%q has %d characters; a symbol holds at most %d", s, n, MaxWordLength)
	}
	if err := CheckText(s); err != nil {
		return nil, err
	}
	f, err := loadFont()
	if err != nil {
		return nil, err
	}
	ascent, descent := f.Metrics(wordSize)
	lineHeight := ascent + descent
	textWidth := func(s string) float64 {
		w, _ := f.Width(s, wordSize)
		return w
	}
	lines := bestLines(strings.Fields(s), textWidth, lineHeight)
	path := &geom.Path{}
	for i, line := range lines {
		p, width, err := f.Outline(line, wordSize)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		// Glyph outlines are y-up with the baseline at 0: flip them and
		// stack the lines, each centred.
		baseline := float64(i)*lineHeight + ascent
		path.Append(p.Transform(geom.Identity.Translate(-width/2, baseline).Scale(1, -1)))
		if underline && i == len(lines)-1 {
			thick := lineHeight * 0.07
			path.Append(geom.Rectangle(width, thick).Translate(-width/2, baseline+descent*0.55))
		}
	}
	pic, err := art.NewPicture([]art.Shape{{Path: path, Fill: c}})
	if err != nil {
		return nil, fmt.Errorf("%q: %v", s, err)
	}
	return &Symbol{Name: s, pic: pic, upright: true}, nil
}

// bestLines breaks words into one, two or three lines so that the text's
// box has the smallest half-diagonal for its font size, which makes it the
// largest when scaled into a circle.
func bestLines(words []string, width func(string) float64, lineHeight float64) []string {
	best, bestSize := []string{strings.Join(words, " ")}, math.Inf(1)
	try := func(lines []string) {
		w := 0.0
		for _, l := range lines {
			w = math.Max(w, width(l))
		}
		h := float64(len(lines)) * lineHeight
		if size := math.Hypot(w, h); size < bestSize {
			best, bestSize = lines, size
		}
	}
	n := len(words)
	try([]string{strings.Join(words, " ")})
	for i := 1; i < n; i++ {
		try([]string{strings.Join(words[:i], " "), strings.Join(words[i:], " ")})
		for j := i + 1; j < n; j++ {
			try([]string{strings.Join(words[:i], " "), strings.Join(words[i:j], " "), strings.Join(words[j:], " ")})
		}
	}
	return best
}

// InputError is a problem with a words file or an images folder: it names
// the file, and the line where there is one.
type InputError struct {
	File string
	Line int // 0 when the problem is not on one line
	Msg  string
}

// Error reads "FILE:LINE: MSG" or "FILE: MSG".
func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ParseWords reads a words list: UTF-8 text with one word or short phrase
// a line. Surrounding spaces are trimmed and blank lines at the end are
// ignored; a blank line between words, a duplicate (ignoring case), a line
// longer than MaxWordLength or a character the built-in font cannot draw
// is refused with the line number. name is the file name for messages.
func ParseWords(name string, data []byte) ([]string, error) {
	bad := func(line int, format string, args ...any) error {
		return &InputError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxWordsFileSize {
		return nil, bad(0, "is larger than %d KB; a words list needs one short line a symbol", MaxWordsFileSize>>10)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // byte order mark
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		return nil, bad(line, "is not UTF-8 text; save the list as UTF-8")
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil, bad(0, "has no words; write one word or short phrase a line")
	}
	seen := map[string]int{}
	words := make([]string, len(lines))
	for i, raw := range lines {
		n := i + 1
		w := norm.NFC.String(strings.TrimSpace(raw))
		if w == "" {
			return nil, bad(n, "empty line; write one word or short phrase on every line, with no blank lines between them")
		}
		if c := utf8.RuneCountInString(w); c > MaxWordLength {
			return nil, bad(n, "%q has %d characters; a symbol holds at most %d", w, c, MaxWordLength)
		}
		if err := CheckText(w); err != nil {
			return nil, bad(n, "%v", err)
		}
		key := strings.ToLower(w)
		if first, dup := seen[key]; dup {
			return nil, bad(n, "%q repeats line %d; every symbol must be different", w, first)
		}
		seen[key] = n
		words[i] = w
	}
	return words, nil
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// ReadWords reads a words file (see ParseWords) and returns its words as
// text symbols, coloured in turn.
func ReadWords(path string) ([]*Symbol, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: "cannot be read: " + pathErr(err)}
	}
	if info.IsDir() {
		return nil, &InputError{File: path, Msg: "is a folder; --words takes a text file with one word a line (--images takes a folder)"}
	}
	if info.Size() > MaxWordsFileSize {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("is larger than %d KB; a words list needs one short line a symbol", MaxWordsFileSize>>10)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: "cannot be read: " + pathErr(err)}
	}
	words, err := ParseWords(path, data)
	if err != nil {
		return nil, err
	}
	out := make([]*Symbol, len(words))
	for i, w := range words {
		s, err := Word(w, i)
		if err != nil {
			return nil, &InputError{File: path, Line: i + 1, Msg: err.Error()}
		}
		out[i] = s
	}
	return out, nil
}

// pathErr returns the reason of a file error without the path, which the
// message already names.
func pathErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// TextOutline returns the glyph outlines of s set in the built-in font at
// a font size of sizeMM millimetres, y up with the baseline at y = 0 and
// starting at x = 0, and the text's advance width. It is for captions such
// as page footers and card backs.
func TextOutline(s string, sizeMM float64) (*geom.Path, float64, error) {
	s = norm.NFC.String(s)
	if err := CheckText(s); err != nil {
		return nil, 0, err
	}
	f, err := loadFont()
	if err != nil {
		return nil, 0, err
	}
	return f.Outline(s, sizeMM)
}
