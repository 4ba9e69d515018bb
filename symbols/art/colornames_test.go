package art

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/colornames"
)

func TestNamedColours(t *testing.T) {
	// A sample against the values of the CSS Color specification.
	for name, want := range map[string]color.NRGBA{
		"aliceblue":            {240, 248, 255, 255},
		"black":                {0, 0, 0, 255},
		"cornflowerblue":       {100, 149, 237, 255},
		"darkgreen":            {0, 100, 0, 255},
		"gold":                 {255, 215, 0, 255},
		"grey":                 {128, 128, 128, 255},
		"lightgoldenrodyellow": {250, 250, 210, 255},
		"rebeccapurple":        {},
		"tomato":               {255, 99, 71, 255},
		"yellowgreen":          {154, 205, 50, 255},
		"Red":                  {},
		"":                     {},
		"zzz":                  {},
	} {
		got, ok := lookupColour(name)
		if ok != (want.A > 0) || got != want {
			t.Errorf("lookupColour(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	// The whole table: the 147 names of SVG 1.1, in order, as
	// golang.org/x/image/colornames has them.
	if len(namedColours) != 147 || len(colornames.Map) != 147 {
		t.Fatalf("%d names, colornames has %d; want 147", len(namedColours), len(colornames.Map))
	}
	if !slices.IsSortedFunc(namedColours[:], func(a, b namedColour) int { return strings.Compare(a.name, b.name) }) {
		t.Error("the table is not sorted by name")
	}
	for name, c := range colornames.Map {
		if got, ok := lookupColour(name); !ok || got != (color.NRGBA{c.R, c.G, c.B, c.A}) {
			t.Errorf("lookupColour(%q) = %v, %v; want %v", name, got, ok, c)
		}
	}
	// Colour keywords are case-insensitive in SVG documents.
	p := mustParse(t, svgDoc(`<rect width="1" height="1" fill="DarkOrange"/>`))
	if p.Shapes[0].Fill != (color.NRGBA{255, 140, 0, 255}) {
		t.Errorf("DarkOrange = %v", p.Shapes[0].Fill)
	}
}
