package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns its exit status,
// standard output and standard error.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// checkBadRequest runs args, which must be refused as a bad request: exit
// status 2, nothing on stdout, and one line on stderr equal to msg, or
// containing it when msg starts with "~".
func checkBadRequest(t *testing.T, args []string, msg string) {
	t.Helper()
	code, out, errOut := runCLI(t, "", args...)
	if code != 2 || out != "" {
		t.Errorf("%v: exit %d, stdout %q; want exit 2 and no output", args, code, out)
	}
	line := strings.TrimSuffix(errOut, "\n")
	if strings.Contains(line, "\n") {
		t.Errorf("%v: stderr has more than one line: %q", args, errOut)
	}
	if sub, ok := strings.CutPrefix(msg, "~"); ok {
		if !strings.Contains(line, sub) {
			t.Errorf("%v: stderr %q does not contain %q", args, line, sub)
		}
	} else if line != msg {
		t.Errorf("%v:\n got %q\nwant %q", args, line, msg)
	}
}

// TestDeckBadRequests checks every bad request of the deck command: exit
// status 2, nothing on stdout, and exactly one line on stderr that says why
// and what would work.
func TestDeckBadRequests(t *testing.T) {
	tests := []struct {
		args []string
		msg  string // the whole stderr line, or a substring when it starts with "~"
	}{
		{[]string{"deck", "--order", "6"}, "dobble: deck: order 6: no projective plane exists; nearest: 5 (31 cards × 6 symbols) or 7 (57 cards × 8)"},
		{[]string{"deck", "--order", "10"}, "dobble: deck: order 10: no projective plane exists; nearest: 9 (91 cards × 10 symbols) or 11 (133 cards × 12)"},
		{[]string{"deck", "--order", "14"}, "dobble: deck: order 14: no projective plane exists; nearest: 13 (183 cards × 14 symbols) or 16 (273 cards × 17)"},
		{[]string{"deck", "--order", "12"}, "dobble: deck: order 12: nobody knows whether a projective plane exists, so none can be built; nearest: 11 (133 cards × 12 symbols) or 13 (183 cards × 14)"},
		{[]string{"deck", "--order", "0"}, "dobble: deck: order 0: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{[]string{"deck", "--order", "1"}, "dobble: deck: order 1: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{[]string{"deck", "--order", "-5"}, "dobble: deck: order -5: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{[]string{"deck", "--order=-5"}, "dobble: deck: order -5: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{[]string{"deck", "--order", "seven"}, "dobble: deck: order seven: not a whole number; use a prime power such as 2, 3, 4, 5, 7, 8, 9, 11, 13, 16"},
		{[]string{"deck", "--order", "7.5"}, "dobble: deck: order 7.5: not a whole number; use a prime power such as 2, 3, 4, 5, 7, 8, 9, 11, 13, 16"},
		{[]string{"deck", "--order", ""}, "dobble: deck: say which deck: --order Q, --symbols-per-card K or --edition NAME (classic, beach, kids, pancakes)"},
		{[]string{"deck", "--order", "5000"}, "dobble: deck: order 5000: too large; the largest supported order is 4096 (16781313 cards × 4097 symbols)"},
		{[]string{"deck", "--order", "99999999999999999999"}, "dobble: deck: order 99999999999999999999: too large; the largest supported order is 4096 (16781313 cards × 4097 symbols)"},
		{[]string{"deck", "--order", "-99999999999999999999"}, "dobble: deck: order -99999999999999999999: too small; the smallest order is 2 (7 cards × 3 symbols)"},
		{[]string{"deck", "--symbols-per-card", "7"}, "dobble: deck: --symbols-per-card 7 needs order 6: no projective plane exists; nearest: 6 (order 5, 31 cards) or 8 (order 7, 57 cards) symbols a card"},
		{[]string{"deck", "--symbols-per-card", "13"}, "dobble: deck: --symbols-per-card 13 needs order 12: nobody knows whether a projective plane exists, so none can be built; nearest: 12 (order 11, 133 cards) or 14 (order 13, 183 cards) symbols a card"},
		{[]string{"deck", "--symbols-per-card", "2"}, "dobble: deck: --symbols-per-card 2: too small; the smallest is 3 (order 2, 7 cards)"},
		{[]string{"deck", "--symbols-per-card", "x"}, "~not a whole number; use one more than a prime power"},
		{[]string{"deck", "--order", "7", "--cards", "58"}, "dobble: deck: --cards 58: a deck of order 7 has only 57 cards; use 2..57, or a larger order"},
		{[]string{"deck", "--order", "7", "--cards", "1"}, "dobble: deck: --cards 1: not a card count; use a whole number from 2 to 57"},
		{[]string{"deck", "--order", "7", "--cards", "many"}, "dobble: deck: --cards many: not a card count; use a whole number from 2 to 57"},
		{[]string{"deck", "--edition", "space"}, `dobble: deck: unknown edition "space"; known editions: classic, beach, kids, pancakes`},
		{[]string{"deck", "--edition", "classic", "--cards", "10"}, "~--cards cannot be combined with --edition classic"},
		{[]string{"deck", "--order", "7", "--edition", "classic"}, "dobble: deck: give only one of --order, --symbols-per-card and --edition"},
		{[]string{"deck"}, "dobble: deck: say which deck: --order Q, --symbols-per-card K or --edition NAME (classic, beach, kids, pancakes)"},
		{[]string{"deck", "--order", "7", "--format", "xml"}, "dobble: deck: --format xml: unknown; use json or text"},
		{[]string{"deck", "--colour", "red"}, "dobble: deck: flag provided but not defined: -colour (see dobble deck --help)"},
		{[]string{"deck", "--order"}, "dobble: deck: flag needs an argument: -order (see dobble deck --help)"},
		{[]string{"deck", "--order", "7", "extra"}, `~unexpected argument "extra"`},
		{[]string{"dek"}, `~dobble: unknown command "dek"; commands: serve, deck`},
		{[]string{"deck", "verify"}, "~give one FILE (or - for standard input)"},
		{[]string{"deck", "verify", "/nonexistent/deck.txt"}, "dobble: deck verify: cannot read /nonexistent/deck.txt: no such file or directory"},
		{[]string{"deck", "verify", "--order", "6"}, "~order 6: no projective plane exists"},
	}
	for _, tt := range tests {
		checkBadRequest(t, tt.args, tt.msg)
	}
}

func TestDeckOutput(t *testing.T) {
	code, out, _ := runCLI(t, "", "deck", "--order", "2", "--format", "text")
	if code != 0 || out != "0 1 3\n1 2 4\n2 3 5\n3 4 6\n0 4 5\n1 5 6\n0 2 6\n" {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "deck", "--symbols-per-card", "3")
	if code != 0 || out != `{"order":2,"symbols":7,"cards":[[0,1,3],[1,2,4],[2,3,5],[3,4,6],[0,4,5],[1,5,6],[0,2,6]]}`+"\n" {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "deck", "--edition", "beach")
	var v struct {
		Edition     string
		Symbols     int
		SymbolNames []struct {
			ID     int
			Pl, Da string
		} `json:"symbol_names"`
		Cards [][]int
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if v.Edition != "beach" || len(v.Cards) != 55 || v.Symbols != 57 || v.SymbolNames[0].Pl != "pistolet na wodę" || v.SymbolNames[0].Da != "vandpistol" {
		t.Fatalf("beach edition: %+v", v.SymbolNames[0])
	}
}

// TestDeckVerify checks the exit statuses of verify: 0 and a summary for a
// valid deck (ours, in both formats, from a file and from stdin), 1 and the
// first bad pair for an invalid one, 2 for malformed input.
func TestDeckVerify(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, text, _ := runCLI(t, "", "deck", "--order", "4", "--cards", "15", "--format", "text")
	_, js, _ := runCLI(t, "", "deck", "--edition", "classic")
	_, pancakes, _ := runCLI(t, "", "deck", "--edition", "pancakes")

	tests := []struct {
		args  []string
		stdin string
		code  int
		out   string
	}{
		{[]string{"deck", "verify", write("subset.txt", text)}, "", 0, "valid: 15 cards, 21 symbols, 5 symbols a card, each symbol on 2 to 5 cards; every two cards share exactly one symbol (lines of the cyclic plane of order 4: its 20 differences are distinct)\n"},
		{[]string{"deck", "verify", "-"}, js, 0, "valid: 55 cards, 57 symbols, 8 symbols a card, each symbol on 6 to 8 cards; every two cards share exactly one symbol (lines of the cyclic plane of order 7: its 56 differences are distinct)\n"},
		{[]string{"deck", "verify", "-"}, pancakes, 0, "valid: 31 cards, 31 symbols, 6 symbols a card, each symbol on 6 cards; every two cards share exactly one symbol (lines of the cyclic plane of order 5: its 30 differences are distinct); plus 31 one-symbol cards, each symbol at most once\n"},
		{[]string{"deck", "verify", "-"}, "0 1 2\n0 3 4\n0 1 4\n", 1, "invalid: cards 0 and 2 share 2 symbols (0, 1)\n"},
		{[]string{"deck", "verify", "-"}, "0 1 2\n3 4 5\n", 1, "invalid: cards 0 and 1 share no symbol\n"},
		{[]string{"deck", "verify", "-"}, `{"cards":[[0,1],[1,2]],"single_cards":[[7]]}`, 1, "invalid: one-symbol card 0 shows symbol 7, which no card of the deck shows\n"},
		{[]string{"deck", "verify", "--order", "1009"}, "", 0, "valid: order 1009, 1019091 cards, 1019091 symbols, 1010 symbols a card; every two cards share exactly one symbol (the 1019090 differences of the plane's difference set are distinct)\n"},
		{[]string{"deck", "verify", "--edition", "kids"}, "", 0, "valid: edition kids, order 5, 30 cards, 31 symbols, 6 symbols a card; every two cards share exactly one symbol (the 30 differences of the plane's difference set are distinct)\n"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, tt.stdin, tt.args...)
		if code != tt.code || out != tt.out || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q", tt.args, code, out, errOut, tt.code, tt.out)
		}
	}
	// The integer-mod-4 construction, as a file.
	var mod4 strings.Builder
	n := 4
	for m := 0; m < n; m++ {
		for b := 0; b < n; b++ {
			mod4.WriteString(strconv.Itoa(n*n + m))
			for x := 0; x < n; x++ {
				mod4.WriteString(" " + strconv.Itoa(x*n+(m*x+b)%n))
			}
			mod4.WriteString("\n")
		}
	}
	code, out, _ := runCLI(t, "", "deck", "verify", write("mod4.txt", mod4.String()))
	if code != 1 || out != "invalid: cards 0 and 8 share 2 symbols (0, 8)\n" {
		t.Errorf("mod-4 deck: exit %d, %q", code, out)
	}
	for _, bad := range []string{"", "0 1 x\n", `{"cards":[[0,1],`, `{"cards":5}`} {
		code, out, errOut := runCLI(t, bad, "deck", "verify", "-")
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "dobble: deck verify: standard input is not a deck file: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("malformed %q: exit %d, stdout %q, stderr %q", bad, code, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"deck", "--help"}, {"deck", "verify", "-h"}, {"serve", "--help"}} {
		code, out, errOut := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out, "Usage") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, _, _ := runCLI(t, ""); code != 2 {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
}
