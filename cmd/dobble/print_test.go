package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pagesOf asks poppler's pdfinfo for the page count of a PDF, failing the
// test if the file does not open.
func pagesOf(t *testing.T, pdf string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", pdf).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v\n%s", pdf, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Fatalf("pdfinfo %s: no page count", pdf)
	return 0
}

// writeWords writes n distinct words, one a line, and returns the path.
func writeWords(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("word" + strconv.Itoa(i) + "\n")
	}
	p := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writePictures writes n distinct small PNGs into a new folder.
func writePictures(t *testing.T, dir string, n int) string {
	t.Helper()
	p := filepath.Join(dir, "pictures")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				img.Set(x, y, color.NRGBA{uint8(i * 9), uint8(x * 16), uint8(y * 16), 255})
			}
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		if err := os.WriteFile(filepath.Join(p, "pic"+strconv.Itoa(100+i)+".png"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// leftovers lists the files in dir other than the given ones.
func leftovers(t *testing.T, dir string, keep ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		keepIt := false
		for _, k := range keep {
			if e.Name() == k {
				keepIt = true
			}
		}
		if !keepIt {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestPrint(t *testing.T) {
	dir := t.TempDir()
	words := writeWords(t, dir, 60)
	pics := writePictures(t, dir, 14)
	tests := []struct {
		args   []string
		pages  int
		stdout string // substring
		stderr string // substring, "" for none
	}{
		{[]string{"--edition", "classic"}, 10, "edition classic, 55 cards on 10 pages (A4, 6 a page, 80 mm round cards)", ""},
		{[]string{"--edition", "pancakes", "--backs"}, 22, "62 cards on 22 pages", ""},
		{[]string{"--edition", "kids", "--paper", "letter", "--card-mm", "60", "--shape", "square"}, 3, "30 cards on 3 pages (Letter, 12 a page, 60 mm square cards)", ""},
		{[]string{"--order", "3", "--seed", "9"}, 3, "order 3, 13 cards", ""},
		{[]string{"--symbols-per-card", "4", "--cards", "7"}, 2, "order 3, 7 cards", ""},
		{[]string{"--order", "8"}, 13, "order 8, 73 cards", "dobble: note: order 8 has 73 symbols, more than the 57 classic pictures; the symbols are the numbers 1 to 73\n"},
		{[]string{"--words", words}, 10, "words, 57 cards", "dobble: note: " + words + " has 60 words; the order-7 deck (57 cards × 8 symbols) uses 57, so the last 3 are left out: \"word57\", \"word58\", \"word59\"\n"},
		{[]string{"--words", words, "--order", "5", "--cards", "12"}, 2, "12 cards", "the order-5 deck (12 cards × 6 symbols)"},
		{[]string{"--images", pics}, 3, "pictures, 13 cards", "so the last one is left out: \"pic113\""},
	}
	for i, tc := range tests {
		out := filepath.Join(dir, "out"+strconv.Itoa(i)+".pdf")
		args := append([]string{"print", "--out", out}, tc.args...)
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
			continue
		}
		if !strings.Contains(stdout, tc.stdout) || !strings.HasPrefix(stdout, "wrote "+out+": ") {
			t.Errorf("%v: stdout %q, want %q", tc.args, stdout, tc.stdout)
		}
		if (tc.stderr == "") != (stderr == "") || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") > 1 {
			t.Errorf("%v: stderr %q, want %q", tc.args, stderr, tc.stderr)
		}
		if n := pagesOf(t, out); n != tc.pages {
			t.Errorf("%v: %d pages, want %d", tc.args, n, tc.pages)
		}
	}
}

// TestPrintBadRequests checks every bad request of dobble print: exit
// status 2, nothing on stdout, one line on stderr saying what was wrong and
// what would work, and no PDF (or temporary file) left behind.
func TestPrintBadRequests(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	few := write("few.txt", "cat\ndog\nhen\nfox\nowl\n")
	forty := writeWords(t, t.TempDir(), 40)
	gap := write("gap.txt", "cat\ndog\n\nhen\n")
	dup := write("dup.txt", "cat\ndog\nhen\nDog\n")
	han := write("han.txt", "cat\n苹果\n")
	pics := t.TempDir()
	for _, c := range []struct{ name, content string }{
		{"a.svg", `<svg xmlns="http://www.w3.org/2000/svg"><circle r="5" fill="red"/></svg>`},
		{"b.svg", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" fill="blue"/></svg>`},
	} {
		os.WriteFile(filepath.Join(pics, c.name), []byte(c.content), 0o644)
	}
	badDir := func(name, content string) string {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, "ok.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"><circle r="5"/></svg>`), 0o644)
		os.WriteFile(filepath.Join(d, name), []byte(content), 0o644)
		return d
	}
	gif := badDir("cat.gif", "GIF89a")
	broken := badDir("cat.png", "\x89PNG\r\n\x1a\nbroken")
	script := badDir("cat.svg", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="5"/></svg>`)
	external := badDir("cat.svg", `<svg xmlns="http://www.w3.org/2000/svg"><image href="https://example.org/cat.png"/></svg>`)
	dangling := t.TempDir()
	os.Symlink(filepath.Join(dangling, "nowhere.png"), filepath.Join(dangling, "cat.png"))
	notFile := filepath.Join(write("plain.txt", "x"), "deck.pdf")

	out := filepath.Join(dir, "deck.pdf")
	tests := []struct {
		args []string
		msg  string // the whole stderr line, or a substring when it starts with "~"
	}{
		{[]string{"--out", out}, "dobble: print: say what to print: --edition NAME (classic, beach, kids, pancakes), --order Q, --words FILE or --images DIR"},
		{[]string{"--edition", "classic"}, "dobble: print: say where to write the PDF: --out FILE.pdf"},
		{[]string{"--edition", "classic", "--words", few, "--out", out}, "dobble: print: give only one of --edition, --words and --images"},
		{[]string{"--edition", "space", "--out", out}, `dobble: print: unknown edition "space"; known editions: classic, beach, kids, pancakes`},
		{[]string{"--edition", "classic", "--cards", "10", "--out", out}, "~print: --cards cannot be combined with --edition classic"},
		{[]string{"--order", "6", "--out", out}, "dobble: print: order 6: no projective plane exists; nearest: 5 (31 cards × 6 symbols) or 7 (57 cards × 8)"},
		{[]string{"--order", "37", "--out", out}, "dobble: print: order 37: cards of 38 symbols are too crowded to print; the largest order that prints is 31 (993 cards × 32 symbols)"},
		{[]string{"--order", "7", "--cards", "99", "--out", out}, "dobble: print: --cards 99: a deck of order 7 has only 57 cards; use 2..57, or a larger order"},
		{[]string{"--edition", "classic", "--paper", "a3", "--out", out}, "dobble: print: --paper a3: unknown; use a4 or letter"},
		{[]string{"--edition", "classic", "--card-mm", "300", "--out", out}, "dobble: print: --card-mm 300: a 300 mm card does not fit on A4 paper (210 × 297 mm) with 8 mm margins; the largest is 194 mm"},
		{[]string{"--edition", "classic", "--card-mm", "big", "--out", out}, "~--card-mm big: not a number of millimetres"},
		{[]string{"--edition", "classic", "--card-mm", "10", "--out", out}, "~the smallest is 40 mm"},
		{[]string{"--edition", "classic", "--shape", "oval", "--out", out}, "dobble: print: --shape oval: unknown; use round or square"},
		{[]string{"--edition", "classic", "--seed", "-1", "--out", out}, "~--seed -1: not a whole number"},
		{[]string{"--edition", "classic", "--out", out, "extra"}, `~unexpected argument "extra"`},
		{[]string{"--words", few, "--out", out}, "dobble: print: --words " + few + " has 5 words; the smallest deck (order 2: 7 cards × 3 symbols) needs 7: add 2 more"},
		{[]string{"--words", forty, "--order", "7", "--out", out}, "dobble: print: order 7 needs 57 symbols but --words " + forty + " has 40 words; 40 fill order 5 (31 cards × 6 symbols): use --order 5, or add 17 more"},
		{[]string{"--words", gap, "--out", out}, "dobble: print: --words " + gap + ":3: empty line; write one word or short phrase on every line, with no blank lines between them"},
		{[]string{"--words", dup, "--out", out}, `dobble: print: --words ` + dup + `:4: "Dog" repeats line 2; every symbol must be different`},
		{[]string{"--words", han, "--out", out}, `dobble: print: --words ` + han + `:2: "苹果": the built-in font (Go Bold) cannot draw '苹' (U+82F9); it covers the Latin, Greek and Cyrillic scripts`},
		{[]string{"--words", filepath.Join(dir, "none.txt"), "--out", out}, "dobble: print: --words " + filepath.Join(dir, "none.txt") + ": cannot be read: no such file or directory"},
		{[]string{"--images", pics, "--out", out}, "dobble: print: --images " + pics + " has 2 pictures; the smallest deck (order 2: 7 cards × 3 symbols) needs 7: add 5 more"},
		{[]string{"--images", gif, "--out", out}, "dobble: print: --images " + filepath.Join(gif, "cat.gif") + ": is not a PNG, JPEG or SVG image (by its name); give pictures as .png, .jpg or .svg files"},
		{[]string{"--images", broken, "--out", out}, "~" + filepath.Join(broken, "cat.png") + ": cannot be read as an image"},
		{[]string{"--images", script, "--out", out}, "dobble: print: --images " + filepath.Join(script, "cat.svg") + ": has a script in the onload attribute of <svg>; SVG files with scripts are refused"},
		{[]string{"--images", external, "--out", out}, `dobble: print: --images ` + filepath.Join(external, "cat.svg") + `: refers to "https://example.org/cat.png" outside the file in <image>; SVG files with external references are refused`},
		{[]string{"--images", dangling, "--out", out}, "dobble: print: --images " + filepath.Join(dangling, "cat.png") + ": cannot be read: no such file or directory"},
		{[]string{"--edition", "kids", "--out", filepath.Join(dir, "no", "such", "deck.pdf")}, "dobble: print: --out " + filepath.Join(dir, "no", "such", "deck.pdf") + ": cannot be written: no such file or directory"},
		{[]string{"--edition", "kids", "--out", notFile}, "dobble: print: --out " + notFile + ": cannot be written: not a directory"},
		{[]string{"--edition", "kids", "--out", dir}, "dobble: print: --out " + dir + ": is a folder; give a file name such as deck.pdf"},
	}
	for _, tc := range tests {
		args := append([]string{"print"}, tc.args...)
		checkBadRequest(t, args, tc.msg)
		if strings.HasPrefix(tc.msg, "~") {
			if _, _, stderr := runCLI(t, "", args...); !strings.HasPrefix(stderr, "dobble: print: ") {
				t.Errorf("%v: stderr %q does not start with \"dobble: print: \"", tc.args, stderr)
			}
		}
	}
	// Nothing was written anywhere: no PDF, no temporary file.
	if rest := leftovers(t, dir, "few.txt", "gap.txt", "dup.txt", "han.txt", "plain.txt"); len(rest) != 0 {
		t.Errorf("files left behind: %v", rest)
	}
}

func TestPrintHelp(t *testing.T) {
	code, out, errOut := runCLI(t, "", "print", "--help")
	if code != 0 || !strings.Contains(out, "Usage: dobble print") || !strings.Contains(out, "--words") || errOut != "" {
		t.Errorf("print --help: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
