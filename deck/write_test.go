package deck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/symbols"
)

func TestWriteTextFormat(t *testing.T) {
	d, _ := New(2, 0)
	var buf bytes.Buffer
	if err := WriteText(&buf, d); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	for i, line := range lines {
		want := strings.Trim(fmt.Sprint(d.Card(i)), "[]")
		if line != want {
			t.Fatalf("line %d = %q, want %q", i, line, want)
		}
	}
}

// TestWriteJSONContract decodes the JSON with encoding/json and checks the
// documented shape: order, symbols, cards with ids 0..S−1.
func TestWriteJSONContract(t *testing.T) {
	d, _ := New(7, 10)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, d, nil); err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	if len(got) != 3 {
		t.Fatalf("fields %v, want order, symbols, cards", keys(got))
	}
	var v struct {
		Order, Symbols int
		Cards          [][]int
	}
	json.Unmarshal(buf.Bytes(), &v)
	if v.Order != 7 || v.Symbols != d.Symbols() || len(v.Cards) != 10 {
		t.Fatalf("order %d, symbols %d, %d cards", v.Order, v.Symbols, len(v.Cards))
	}
	used := make([]bool, v.Symbols)
	for i, card := range v.Cards {
		if fmt.Sprint(card) != fmt.Sprint(d.Card(i)) {
			t.Fatalf("card %d = %v, want %v", i, card, d.Card(i))
		}
		for _, s := range card {
			used[s] = true
		}
	}
	for s, u := range used {
		if !u {
			t.Fatalf("symbol %d of 0..%d is unused", s, v.Symbols-1)
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestWriteJSONEditions(t *testing.T) {
	for _, e := range Editions() {
		d, err := e.Deck()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, d, &e); err != nil {
			t.Fatal(err)
		}
		var v struct {
			Order       int                 `json:"order"`
			Symbols     int                 `json:"symbols"`
			Edition     string              `json:"edition"`
			SymbolNames []map[string]any    `json:"symbol_names"`
			Cards       [][]int             `json:"cards"`
			SingleCards [][]int             `json:"single_cards"`
			Extra       map[string]struct{} `json:"-"`
		}
		if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if v.Edition != e.Name || v.Order != e.Order || len(v.Cards) != e.Cards || v.Symbols != e.Symbols.Len() {
			t.Fatalf("%s: edition %q order %d, %d cards, %d symbols", e.Name, v.Edition, v.Order, len(v.Cards), v.Symbols)
		}
		if len(v.SymbolNames) != v.Symbols {
			t.Fatalf("%s: %d symbol names for %d symbols", e.Name, len(v.SymbolNames), v.Symbols)
		}
		for id, sn := range v.SymbolNames {
			if sn["id"] != float64(id) {
				t.Fatalf("%s: symbol_names[%d].id = %v", e.Name, id, sn["id"])
			}
			for _, lang := range symbols.Languages {
				if name, _ := sn[lang].(string); name == "" {
					t.Fatalf("%s: symbol %d has no %s name", e.Name, id, lang)
				}
			}
		}
		if e.Singles != (v.SingleCards != nil) {
			t.Fatalf("%s: single_cards present = %v", e.Name, v.SingleCards != nil)
		}
		for s, card := range v.SingleCards {
			if len(card) != 1 || card[0] != s {
				t.Fatalf("%s: single card %d = %v", e.Name, s, card)
			}
		}
	}
}

func TestEditions(t *testing.T) {
	want := map[string][3]int{"classic": {7, 55, 57}, "beach": {7, 55, 57}, "kids": {5, 30, 31}, "pancakes": {5, 31, 31}}
	if len(Editions()) != len(want) {
		t.Fatalf("%d editions", len(Editions()))
	}
	for name, w := range want {
		e, err := LookupEdition(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Deck()
		if err != nil {
			t.Fatal(err)
		}
		if d.Order() != w[0] || d.Len() != w[1] || d.Symbols() != w[2] {
			t.Fatalf("%s: order %d, %d cards, %d symbols; want %v", name, d.Order(), d.Len(), d.Symbols(), w)
		}
		checkAllPairs(t, d)
	}
	_, err := LookupEdition("space")
	if err == nil || err.Error() != `unknown edition "space"; known editions: classic, beach, kids, pancakes` {
		t.Fatalf("err = %v", err)
	}
}

// TestWriteLargeIDs formats cards through the path for ids beyond the
// precomputed table, as order 1024 and above need, by using a table that
// covers only the ids below 5.
func TestWriteLargeIDs(t *testing.T) {
	d, _ := New(7, 0)
	small := newIDText(5, ' ')
	small.room = len("2147483647 ")
	got, _ := small.appendCards(nil, nil, d, cardFormat{sep: ' ', close: "\n"}, 0, d.Len())
	var want bytes.Buffer
	WriteText(&want, d)
	if string(got) != want.String() {
		t.Fatalf("got\n%s\nwant\n%s", got, want.String())
	}
}
