package rules

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rulesDoc is the project's rules reference, which the games cite.
const rulesDoc = "../docs/RULES.md"

// ruleSections reads docs/RULES.md: the numbers of its numbered headings
// ("### 3.1 The Tower" is 3.1) and its anchors (<a id="tower"></a>), each
// with the number of the heading it stands before.
func ruleSections(t *testing.T) (sections map[string]bool, anchors map[string]string, doc string) {
	t.Helper()
	b, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`^#{2,4} (\d+(?:\.\d+)*) \S`)
	anchor := regexp.MustCompile(`^<a id="([^"]+)"></a>$`)
	sections, anchors = map[string]bool{}, map[string]string{}
	pending := ""
	for i, line := range strings.Split(string(b), "\n") {
		if m := anchor.FindStringSubmatch(line); m != nil {
			if _, dup := anchors[m[1]]; dup {
				t.Errorf("docs/RULES.md:%d: anchor %q twice", i+1, m[1])
			}
			anchors[m[1]], pending = "", m[1]
			continue
		}
		m := heading.FindStringSubmatch(line)
		if m != nil {
			if sections[m[1]] {
				t.Errorf("docs/RULES.md:%d: section %s twice", i+1, m[1])
			}
			sections[m[1]] = true
		}
		if pending != "" {
			if m == nil {
				t.Errorf("docs/RULES.md:%d: anchor %q is not followed by a numbered heading", i+1, pending)
			} else {
				anchors[pending] = m[1]
			}
			pending = ""
		}
	}
	return sections, anchors, string(b)
}

// citation matches a citation of the rules reference: "RULES.md" and one
// or more section numbers ("RULES.md §2, §5"), or "#" and an anchor
// right after it. A comment's line break may fall inside it.
var citation = regexp.MustCompile(`RULES\.md(?:#([\w-]+)|((?:(?:\s|//|\*)*(?:,|and)?(?:\s|//|\*)*§\d+(?:\.\d+)*)+))`)

// sectionNumber picks the section numbers out of a citation's list.
var sectionNumber = regexp.MustCompile(`§(\d+(?:\.\d+)*)`)

// citedLink matches a Markdown link to a section of the rules reference
// from another document: [RULES.md §3.1](RULES.md#tower).
var citedLink = regexp.MustCompile(`\[RULES\.md §(\d+(?:\.\d+)*)\]\((?:\.\./docs/|docs/)?RULES\.md#([\w-]+)\)`)

// checkCitations reports every citation in text whose section or anchor
// docs/RULES.md lacks, and every link whose text names another section
// than its anchor stands before; where says where text comes from. It
// returns how many citations it checked.
func checkCitations(t *testing.T, where, text string, sections map[string]bool, anchors map[string]string) int {
	t.Helper()
	for _, m := range citedLink.FindAllStringSubmatch(text, -1) {
		if at, ok := anchors[m[2]]; ok && at != m[1] {
			t.Errorf("%s links to RULES.md §%s as #%s, which is §%s", where, m[1], m[2], at)
		}
	}
	n := 0
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		if m[1] != "" {
			n++
			if _, ok := anchors[m[1]]; !ok {
				t.Errorf("%s cites RULES.md#%s, which docs/RULES.md does not have", where, m[1])
			}
			continue
		}
		for _, s := range sectionNumber.FindAllStringSubmatch(m[2], -1) {
			n++
			if !sections[s[1]] {
				t.Errorf("%s cites RULES.md §%s, which docs/RULES.md does not have", where, s[1])
			}
		}
	}
	return n
}

// TestRuleCitations checks that every citation of the rules reference
// names a section docs/RULES.md has: each game's Section (served by GET
// /api/games), everything else its Info and its texts say, and every
// "RULES.md §N" or link to one of its anchors in the repository's files (code,
// comments, documents, the browser client). docs/RULES.md's own links to
// its sections must name the section they point at.
func TestRuleCitations(t *testing.T) {
	sections, anchors, doc := ruleSections(t)
	if len(sections) < 30 {
		t.Fatalf("docs/RULES.md has %d numbered sections; is it the rules reference?", len(sections))
	}
	section := regexp.MustCompile(`^docs/RULES\.md §(\d+(?:\.\d+)*)$`)
	for _, g := range Games() {
		info := g.Info()
		if m := section.FindStringSubmatch(info.Section); m == nil || !sections[m[1]] {
			t.Errorf("%s: Section %q is not \"docs/RULES.md §N\" with N a section of docs/RULES.md", info.Name, info.Section)
		}
		served, err := json.Marshal(struct {
			Info
			Texts any `json:"texts"`
		}{info, Texts(info.Name)})
		if err != nil {
			t.Fatal(err)
		}
		// Whatever else is served must cite sections too, never the
		// document as a whole.
		for _, s := range strings.Split(string(served), "RULES.md")[1:] {
			if !strings.HasPrefix(s, " §") && !strings.HasPrefix(s, "#") {
				t.Errorf("%s: GET /api/games says RULES.md%.20s…, not a section of it", info.Name, s)
			}
		}
		checkCitations(t, info.Name+" in GET /api/games", string(served), sections, anchors)
	}

	// docs/RULES.md's links to itself: [§N](#anchor) names the section the
	// anchor stands before, and every (#anchor) exists.
	self := regexp.MustCompile(`\[(§\d+(?:\.\d+)*)?[^\]]*\]\(#([\w-]+)\)`)
	for _, m := range self.FindAllStringSubmatch(doc, -1) {
		at, ok := anchors[m[2]]
		switch {
		case !ok:
			t.Errorf("docs/RULES.md links to #%s, which it does not have", m[2])
		case m[1] != "" && m[1] != "§"+at:
			t.Errorf("docs/RULES.md links to %s as #%s, which is §%s", m[1], m[2], at)
		}
	}

	cited := 0
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if path == rulesDoc || !d.Type().IsRegular() || strings.HasSuffix(path, ".svg") || strings.HasSuffix(path, ".db") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if len(b) > 1<<20 || bytes.IndexByte(b, 0) >= 0 || !bytes.Contains(b, []byte("RULES.md")) {
			return nil
		}
		files++
		cited += checkCitations(t, filepath.ToSlash(strings.TrimPrefix(path, "../")), string(b), sections, anchors)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The games' files cite their sections; finding none means the
	// pattern no longer matches how citations are written.
	if cited < len(Games()) || files < 10 {
		t.Fatalf("%d citations in %d files; the rules cite more", cited, files)
	}
	t.Logf("%d citations of docs/RULES.md in %d files, %d sections, %d anchors", cited, files, len(sections), len(anchors))
}
