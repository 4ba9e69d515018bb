package deck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Limits on what Read accepts, so that a hostile or mistaken input cannot
// exhaust memory: 2 GiB of input and 2^28 printed symbols (a full order-500
// deck has 125 million).
const (
	MaxInputBytes = 2 << 30
	MaxIncidences = 1 << 28
)

// File is a deck read from a file in either format that `dobble deck`
// writes.
type File struct {
	// Format is "json" or "text".
	Format string
	// Order, Symbols and Edition are what a JSON file declares (0 or "" when
	// absent, and always for text).
	Order, Symbols int
	Edition        string
	// Cards are the deck's cards.
	Cards *Cards
	// Singles are the JSON "single_cards" (one-symbol cards), or nil.
	Singles *Cards
}

// FormatError is the error for input that is not a deck file: it says where
// and what was expected.
type FormatError struct {
	Where string // e.g. "line 3" or "cards[2][5]"; empty for the whole input
	Msg   string
}

// Error returns "where: what is wrong".
func (e *FormatError) Error() string {
	if e.Where == "" {
		return e.Msg
	}
	return e.Where + ": " + e.Msg
}

// Read reads a deck in JSON form ({"order":Q,"symbols":S,"cards":[[…],…]},
// recognised by its leading '{') or text form (one card a line, symbol ids
// separated by spaces; blank lines and lines starting with '#' are skipped).
// Malformed input gets a *FormatError; an I/O failure is returned as is.
// Read checks the form and the declared metadata, not the one-match rule:
// that is Cards.Verify.
func Read(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInputBytes {
		return nil, &FormatError{Msg: fmt.Sprintf("input is larger than %d bytes", MaxInputBytes)}
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, &FormatError{Msg: "input is empty; expected a deck: JSON {\"cards\":[[…],…]} or one card a line"}
	}
	var f *File
	if trimmed[0] == '{' {
		f, err = readJSON(trimmed)
	} else {
		f, err = readText(data)
	}
	if err != nil {
		return nil, err
	}
	if f.Cards.Len() == 0 {
		return nil, &FormatError{Msg: "the deck has no cards"}
	}
	return f, nil
}

const idHint = "expected symbol ids: whole numbers from 0 to 2147483647"

// readText parses one card a line.
func readText(data []byte) (*File, error) {
	f := &File{Format: "text", Cards: NewCards()}
	c := f.Cards
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, "\r")
		if t := bytes.TrimLeft(line, " \t"); len(t) == 0 || t[0] == '#' {
			continue
		}
		for len(line) > 0 {
			switch line[0] {
			case ' ', '\t':
				line = line[1:]
				continue
			}
			end := bytes.IndexAny(line, " \t")
			if end < 0 {
				end = len(line)
			}
			tok := line[:end]
			line = line[end:]
			id, ok := parseID(tok)
			if !ok {
				return nil, &FormatError{Where: fmt.Sprintf("line %d", lineNo), Msg: fmt.Sprintf("%q is not a symbol id; %s separated by spaces", truncate(tok), idHint)}
			}
			if len(c.syms) >= MaxIncidences {
				return nil, tooManyIncidences()
			}
			c.syms = append(c.syms, id)
		}
		c.start = append(c.start, len(c.syms))
	}
	return f, nil
}

func tooManyIncidences() error {
	return &FormatError{Msg: fmt.Sprintf("the deck prints more than %d symbols in all; for generated decks use `dobble deck verify --order Q`", MaxIncidences)}
}

// parseID parses a non-negative decimal int32 with no sign or leading '+'.
func parseID(tok []byte) (int32, bool) {
	if len(tok) == 0 || len(tok) > 10 {
		return 0, false
	}
	v := int64(0)
	for _, b := range tok {
		if b < '0' || b > '9' {
			return 0, false
		}
		v = v*10 + int64(b-'0')
	}
	if v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}

func truncate(tok []byte) string {
	if len(tok) > 24 {
		return string(tok[:24]) + "…"
	}
	return string(tok)
}

// jsonDeck is the JSON form; the card lists are parsed by parseCardList,
// which is much leaner than decoding [][]int for million-card decks.
type jsonDeck struct {
	Order       *json.RawMessage `json:"order"`
	Symbols     *json.RawMessage `json:"symbols"`
	Edition     string           `json:"edition"`
	Cards       json.RawMessage  `json:"cards"`
	SingleCards json.RawMessage  `json:"single_cards"`
}

// readJSON parses the JSON form and checks its declared metadata.
func readJSON(data []byte) (*File, error) {
	var j jsonDeck
	if err := json.Unmarshal(data, &j); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &FormatError{Where: fmt.Sprintf("byte %d", se.Offset), Msg: "invalid JSON: " + se.Error()}
		}
		return nil, &FormatError{Msg: "invalid deck JSON: " + err.Error()}
	}
	f := &File{Format: "json", Edition: j.Edition}
	var err error
	if f.Order, err = jsonCount(j.Order, "order"); err != nil {
		return nil, err
	}
	if f.Symbols, err = jsonCount(j.Symbols, "symbols"); err != nil {
		return nil, err
	}
	if j.Cards == nil {
		return nil, &FormatError{Msg: `no "cards" field; expected {"cards":[[ids…],…]}`}
	}
	if f.Cards, err = parseCardList(j.Cards, "cards"); err != nil {
		return nil, err
	}
	if j.SingleCards != nil && string(j.SingleCards) != "null" {
		if f.Singles, err = parseCardList(j.SingleCards, "single_cards"); err != nil {
			return nil, err
		}
	}
	for _, list := range []struct {
		name  string
		cards *Cards
	}{{"cards", f.Cards}, {"single_cards", f.Singles}} {
		if list.cards == nil {
			continue
		}
		for i := 0; i < list.cards.Len(); i++ {
			card := list.cards.Card(i)
			if f.Order > 0 && list.name == "cards" && len(card) != f.Order+1 {
				return nil, &FormatError{Where: fmt.Sprintf("cards[%d]", i), Msg: fmt.Sprintf(`has %d symbols, but "order": %d means %d symbols a card`, len(card), f.Order, f.Order+1)}
			}
			for x, s := range card {
				if f.Symbols > 0 && int(s) >= f.Symbols {
					return nil, &FormatError{Where: fmt.Sprintf("%s[%d][%d]", list.name, i, x), Msg: fmt.Sprintf(`symbol id %d is outside 0..%d ("symbols": %d)`, s, f.Symbols-1, f.Symbols)}
				}
			}
		}
	}
	return f, nil
}

// jsonCount decodes an optional non-negative integer field.
func jsonCount(raw *json.RawMessage, name string) (int, error) {
	if raw == nil || string(*raw) == "null" {
		return 0, nil
	}
	id, ok := parseID(*raw)
	if !ok {
		return 0, &FormatError{Where: `"` + name + `"`, Msg: fmt.Sprintf("%s is not a whole number from 0 to 2147483647", truncate(*raw))}
	}
	return int(id), nil
}

// parseCardList parses a JSON array of arrays of symbol ids, such as
// [[0,1,3],[1,2,4]], already known to be valid JSON.
func parseCardList(data []byte, name string) (*Cards, error) {
	c := NewCards()
	p := 0
	ws := func() {
		for p < len(data) && (data[p] == ' ' || data[p] == '\t' || data[p] == '\n' || data[p] == '\r') {
			p++
		}
	}
	shape := func(where string) error {
		return &FormatError{Where: where, Msg: "expected an array of cards, each an array of symbol ids, e.g. [[0,1,3],[1,2,4]]"}
	}
	ws()
	if p >= len(data) || data[p] != '[' {
		return nil, shape(name)
	}
	p++
	ws()
	if p < len(data) && data[p] == ']' {
		return c, nil
	}
	for card := 0; ; card++ {
		where := fmt.Sprintf("%s[%d]", name, card)
		ws()
		if p >= len(data) || data[p] != '[' {
			return nil, shape(where)
		}
		p++
		ws()
		if p < len(data) && data[p] == ']' {
			p++
		} else {
			for x := 0; ; x++ {
				ws()
				start := p
				for p < len(data) && data[p] != ',' && data[p] != ']' && data[p] != ' ' && data[p] != '\t' && data[p] != '\n' && data[p] != '\r' {
					p++
				}
				id, ok := parseID(data[start:p])
				if !ok {
					return nil, &FormatError{Where: fmt.Sprintf("%s[%d]", where, x), Msg: fmt.Sprintf("%s is not a symbol id; %s", truncate(data[start:p]), idHint)}
				}
				if len(c.syms) >= MaxIncidences {
					return nil, tooManyIncidences()
				}
				c.syms = append(c.syms, id)
				ws()
				if p >= len(data) {
					return nil, shape(where)
				}
				if data[p] == ']' {
					p++
					break
				}
				if data[p] != ',' {
					return nil, shape(where)
				}
				p++
			}
		}
		c.start = append(c.start, len(c.syms))
		ws()
		if p >= len(data) {
			return nil, shape(name)
		}
		if data[p] == ']' {
			return c, nil
		}
		if data[p] != ',' {
			return nil, shape(name)
		}
		p++
	}
}
