package art

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
)

// twemojiFS holds the vendored Twemoji files (see twemoji/ATTRIBUTION.md).
//
//go:embed twemoji/*.svg twemoji/ATTRIBUTION.md twemoji/LICENSE-GRAPHICS
var twemojiFS embed.FS

// TwemojiPrefix starts every Art reference to a Twemoji picture.
const TwemojiPrefix = "twemoji:"

// Attribution is the notice that credits the vendored pictures; anything
// that shows them to people should carry it (or a link to it).
const Attribution = "Symbol pictures: Twemoji, © Twitter, Inc and other contributors, © Jason Sofonia, Justine De Caires and other contributors, CC-BY 4.0 (https://creativecommons.org/licenses/by/4.0/)."

var (
	cacheMu sync.Mutex
	cache   = map[string]*Picture{}
)

// Lookup returns the picture an Art reference names, such as
// "twemoji:2693". Pictures are read once and shared.
func Lookup(ref string) (*Picture, error) {
	stem, ok := strings.CutPrefix(ref, TwemojiPrefix)
	if !ok {
		return nil, fmt.Errorf("art reference %q: want %s<file stem>", ref, TwemojiPrefix)
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if p, ok := cache[stem]; ok {
		return p, nil
	}
	src, err := TwemojiSource(stem)
	if err != nil {
		return nil, err
	}
	p, err := ParseSVG(src)
	if err != nil {
		return nil, fmt.Errorf("twemoji/%s.svg %v", stem, err)
	}
	cache[stem] = p
	return p, nil
}

// TwemojiSource returns the vendored SVG file of a Twemoji file stem.
func TwemojiSource(stem string) ([]byte, error) {
	if stem == "" || strings.ContainsAny(stem, "/.") {
		return nil, fmt.Errorf("twemoji file stem %q is not a file name", stem)
	}
	src, err := twemojiFS.ReadFile(path.Join("twemoji", stem+".svg"))
	if err != nil {
		return nil, fmt.Errorf("no vendored Twemoji picture %s.svg; add its stem to symbols/testdata/twemoji-files.txt and run scripts/vendor-art", stem)
	}
	return src, nil
}

// TwemojiStems returns the stems of all vendored Twemoji files, sorted.
func TwemojiStems() []string {
	entries, err := fs.ReadDir(twemojiFS, "twemoji")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	var stems []string
	for _, e := range entries {
		if s, ok := strings.CutSuffix(e.Name(), ".svg"); ok {
			stems = append(stems, s)
		}
	}
	slices.Sort(stems)
	return stems
}

// TwemojiLicense returns the attribution notice and the licence text of
// the vendored pictures, as shipped in twemoji/.
func TwemojiLicense() (attribution, license []byte) {
	a, err := twemojiFS.ReadFile("twemoji/ATTRIBUTION.md")
	if err != nil {
		panic(err)
	}
	l, err := twemojiFS.ReadFile("twemoji/LICENSE-GRAPHICS")
	if err != nil {
		panic(err)
	}
	return a, l
}
