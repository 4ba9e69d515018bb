package deck

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func cardsEqual(a, b *Cards) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := 0; i < a.Len(); i++ {
		if !slicesEqual32(a.Card(i), b.Card(i)) {
			return false
		}
	}
	return true
}

func slicesEqual32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadRoundTrip(t *testing.T) {
	for _, q := range []int{2, 4, 9, 16} {
		for _, m := range []int{0, 5} {
			d, _ := New(q, m)
			want := CardsOf(d)
			var text, js bytes.Buffer
			if err := WriteText(&text, d); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&js, d, nil); err != nil {
				t.Fatal(err)
			}
			for _, in := range []struct {
				format string
				data   []byte
			}{{"text", text.Bytes()}, {"json", js.Bytes()}} {
				f, err := Read(bytes.NewReader(in.data))
				if err != nil {
					t.Fatalf("order %d %s: %v", q, in.format, err)
				}
				if f.Format != in.format || !cardsEqual(f.Cards, want) {
					t.Fatalf("order %d %s: read back %d cards in format %s", q, in.format, f.Cards.Len(), f.Format)
				}
				if in.format == "json" && (f.Order != q || f.Symbols != d.Symbols()) {
					t.Fatalf("order %d: read order %d, symbols %d", q, f.Order, f.Symbols)
				}
			}
		}
	}
}

func TestReadLenientText(t *testing.T) {
	in := "# a deck\n\n0 1 2\r\n  0\t3 4 \n\n0 5 6\n1 3 5\n1 4 6\n2 3 6\n2 4 5"
	f, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if f.Cards.Len() != 7 {
		t.Fatalf("%d cards", f.Cards.Len())
	}
	if _, err := f.Cards.Verify(); err != nil {
		t.Fatal(err)
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"", "input is empty; expected a deck: JSON {\"cards\":[[…],…]} or one card a line"},
		{"  \n\n", "input is empty; expected a deck: JSON {\"cards\":[[…],…]} or one card a line"},
		{"# only a comment\n", "the deck has no cards"},
		{"0 1 2\n0 x 4\n", `line 2: "x" is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647 separated by spaces`},
		{"0 -1 2\n", `line 1: "-1" is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647 separated by spaces`},
		{"0 1,2\n", `line 1: "1,2" is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647 separated by spaces`},
		{"0 99999999999\n", `line 1: "99999999999" is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647 separated by spaces`},
		{`{"cards":[[0,1],[1,2]`, "byte 21: invalid JSON: unexpected end of JSON input"},
		{`{"order":7}`, `no "cards" field; expected {"cards":[[ids…],…]}`},
		{`{"cards":"0 1 2"}`, "cards: expected an array of cards, each an array of symbol ids, e.g. [[0,1,3],[1,2,4]]"},
		{`{"cards":[0,1,2]}`, "cards[0]: expected an array of cards, each an array of symbol ids, e.g. [[0,1,3],[1,2,4]]"},
		{`{"cards":[[0,1.5]]}`, "cards[0][1]: 1.5 is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647"},
		{`{"cards":[[0,"a"]]}`, `cards[0][1]: "a" is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647`},
		{`{"cards":[[0,[1]]]}`, "cards[0][1]: [1 is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647"},
		{`{"cards":[]}`, "the deck has no cards"},
		{`{"order":-2,"cards":[[0]]}`, `"order": -2 is not a whole number from 0 to 2147483647`},
		{`{"order":2,"cards":[[0,1]]}`, `cards[0]: has 2 symbols, but "order": 2 means 3 symbols a card`},
		{`{"symbols":3,"cards":[[0,1,3]]}`, `cards[0][2]: symbol id 3 is outside 0..2 ("symbols": 3)`},
		{`{"cards":[[0]],"single_cards":[[5],[1,2}`, "byte 40: invalid JSON: invalid character '}' after array element"},
		{`[[0,1],[1,2]]`, `line 1: "[[0,1],[1,2]]" is not a symbol id; expected symbol ids: whole numbers from 0 to 2147483647 separated by spaces`},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in))
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("Read(%q) = %v, want a *FormatError", tt.in, err)
			continue
		}
		if err.Error() != tt.msg {
			t.Errorf("Read(%q):\n got %q\nwant %q", tt.in, err, tt.msg)
		}
	}
}

func TestReadSingles(t *testing.T) {
	e, err := LookupEdition("pancakes")
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Deck()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, d, e); err != nil {
		t.Fatal(err)
	}
	f, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if f.Edition != "pancakes" || f.Singles == nil || f.Singles.Len() != 31 {
		t.Fatalf("edition %q, singles %v", f.Edition, f.Singles)
	}
	if err := VerifySingles(f.Cards, f.Singles); err != nil {
		t.Fatal(err)
	}
}

// FuzzRead feeds arbitrary bytes to the deck file reader: it must never
// panic, and whatever it accepts must verify without panicking and survive a
// round trip through the text form.
func FuzzRead(f *testing.F) {
	d, _ := New(3, 0)
	var text, js bytes.Buffer
	WriteText(&text, d)
	WriteJSON(&js, d, nil)
	for _, seed := range []string{
		text.String(), js.String(), "", "0 1 2\n", "# c\n0 1\n1 2\n", `{"cards":[[0,1],[1,2]]}`,
		`{"order":2,"symbols":7,"cards":[[0,1,3],[1,2,4]],"single_cards":[[0],[1]]}`,
		`{"cards":[[]]}`, `{"cards":[[0,0]]}`, "0 2147483647\n5 2147483647", "\xff\xfe", `{"cards":[[1e3]]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Read returned a %T, want *FormatError: %v", err, err)
			}
			return
		}
		if file.Cards.Len() == 0 {
			t.Fatal("accepted a deck with no cards")
		}
		_, verr := file.Cards.Verify()
		if file.Singles != nil {
			VerifySingles(file.Cards, file.Singles)
		}
		// Text round trip of what was read.
		var out bytes.Buffer
		for i := 0; i < file.Cards.Len(); i++ {
			card := file.Cards.Card(i)
			if len(card) == 0 {
				continue // an empty JSON card has no text form
			}
			for x, s := range card {
				if x > 0 {
					out.WriteByte(' ')
				}
				out.WriteString(strconv.Itoa(int(s)))
			}
			out.WriteByte('\n')
		}
		if out.Len() == 0 {
			return
		}
		again, err := Read(&out)
		if err != nil {
			t.Fatalf("re-reading the text form failed: %v", err)
		}
		if _, err2 := again.Cards.Verify(); (err2 == nil) != (verr == nil) && !hasEmptyCard(file.Cards) {
			t.Fatalf("verification differs after a round trip: %v vs %v", verr, err2)
		}
	})
}

func hasEmptyCard(c *Cards) bool {
	for i := 0; i < c.Len(); i++ {
		if len(c.Card(i)) == 0 {
			return true
		}
	}
	return false
}
