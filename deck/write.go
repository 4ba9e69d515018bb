package deck

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"runtime"
	"slices"
	"strconv"
)

// WriteText writes the deck as text: one card a line, symbol ids in
// increasing order separated by single spaces.
func WriteText(w io.Writer, d *Deck) error {
	return writeCards(w, d, cardFormat{sep: ' ', open: "", close: "\n", between: ""}, nil)
}

// jsonHeader is the start of the JSON form, before the cards. Field order is
// the documented one: order, symbols, then the edition's fields, then cards.
type jsonHeader struct {
	Order       int          `json:"order"`
	Symbols     int          `json:"symbols"`
	Edition     string       `json:"edition,omitempty"`
	SymbolNames []SymbolName `json:"symbol_names,omitempty"`
}

// SymbolName is one entry of the JSON "symbol_names" list: a symbol id, its
// stable key, its picture and its name in each language.
type SymbolName struct {
	ID  int    `json:"id"`
	Key string `json:"key"`
	Art string `json:"art"`
	En  string `json:"en"`
	Pl  string `json:"pl"`
	Da  string `json:"da"`
	Ru  string `json:"ru"`
	Zh  string `json:"zh"`
	It  string `json:"it"`
}

// WriteJSON writes the deck as one JSON object:
//
//	{"order":Q,"symbols":S,"cards":[[ids…],…]}
//
// For an edition (e non-nil) it adds "edition" and "symbol_names" before the
// cards and, where the edition has one-symbol cards, "single_cards" after.
func WriteJSON(w io.Writer, d *Deck, e *Edition) error {
	h := jsonHeader{Order: d.Order(), Symbols: d.Symbols()}
	if e != nil {
		h.Edition = e.Name
		h.SymbolNames = e.SymbolNames()
	}
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	// Reopen the object to append the card list.
	head = append(head[:len(head)-1], `,"cards":[`...)
	tail := []byte("]}\n")
	if e != nil && e.Singles {
		tail = []byte(`],"single_cards":[`)
		for s := 0; s < d.Symbols(); s++ {
			if s > 0 {
				tail = append(tail, ',')
			}
			tail = append(tail, '[')
			tail = strconv.AppendInt(tail, int64(s), 10)
			tail = append(tail, ']')
		}
		tail = append(tail, "]}\n"...)
	}
	return writeCards(w, d, cardFormat{sep: ',', open: "[", close: "]", between: ","}, &jsonFrame{head: head, tail: tail})
}

type cardFormat struct {
	sep                  byte
	open, close, between string
}

type jsonFrame struct{ head, tail []byte }

// writeCards formats the cards in chunks on all CPUs and writes the chunks
// in order. Formatting dominates (the order-256 deck is ~98 MB of text), so
// the text of each symbol id plus its separator is precomputed as one
// 8-byte word and stored with a single unaligned write.
func writeCards(w io.Writer, d *Deck, f cardFormat, frame *jsonFrame) error {
	if frame != nil {
		if _, err := w.Write(frame.head); err != nil {
			return err
		}
	}
	t := newIDText(d.Symbols(), f.sep)
	// Chunks of about 1 MB (a small deck is one chunk of its own size),
	// each worker's buffers allocated once: up to three, no more than it
	// has chunks to format.
	cardBytes := t.room*d.SymbolsPerCard() + len(f.open) + len(f.close) + len(f.between) + 8
	cardsPerChunk := max(1, min((1<<20)/cardBytes, d.Len()))
	chunks := (d.Len() + cardsPerChunk - 1) / cardsPerChunk
	workers := min(runtime.GOMAXPROCS(0), max(chunks, 1))
	done := make(chan struct{})
	defer close(done)
	// Worker k formats chunks k, k+workers, ... and hands them over on
	// out[k]; the writer takes them round-robin, so output stays in order.
	out := make([]chan []byte, workers)
	free := make([]chan []byte, workers)
	for k := range workers {
		out[k] = make(chan []byte, 2)
		free[k] = make(chan []byte, 3)
		for range min(3, (chunks-k+workers-1)/workers) {
			free[k] <- make([]byte, 0, cardsPerChunk*cardBytes)
		}
		go func() {
			card := make([]int, 0, d.SymbolsPerCard())
			for c := k; c < chunks; c += workers {
				var buf []byte
				select {
				case buf = <-free[k]:
				case <-done:
					return
				}
				lo := c * cardsPerChunk
				hi := min(lo+cardsPerChunk, d.Len())
				buf, card = t.appendCards(buf[:0], card, d, f, lo, hi)
				select {
				case out[k] <- buf:
				case <-done:
					return
				}
			}
		}()
	}
	for c := 0; c < chunks; c++ {
		buf := <-out[c%workers]
		if _, err := w.Write(buf); err != nil {
			return err
		}
		free[c%workers] <- buf
	}
	if frame != nil {
		if _, err := w.Write(frame.tail); err != nil {
			return err
		}
	}
	return nil
}

// idText is the decimal text of the symbol ids 0..n−1, each followed by a
// separator, packed little-endian into a uint64 with its length. Ids of up
// to 7 digits fit; larger ones are formatted with strconv.
type idText struct {
	sep  byte
	word []uint64
	size []uint8
	// room is the most bytes one symbol can take in the buffer.
	room int
}

// maxTextID bounds the precomputed ids: 10⁷ would fit, 2²⁰ (9 MB of
// tables) covers every order up to 1023.
const maxTextID = 1 << 20

func newIDText(n int, sep byte) *idText {
	t := &idText{sep: sep, room: 8}
	if n > maxTextID {
		n, t.room = maxTextID, len("2147483647,")
	}
	t.word, t.size = make([]uint64, n), make([]uint8, n)
	var b [16]byte
	for s := range n {
		text := append(strconv.AppendInt(b[:0], int64(s), 10), sep)
		var pad [8]byte
		copy(pad[:], text)
		t.word[s] = binary.LittleEndian.Uint64(pad[:])
		t.size[s] = uint8(len(text))
	}
	return t
}

// appendCards appends cards lo..hi−1 in format f to dst. card is scratch
// space, returned for reuse.
func (t *idText) appendCards(dst []byte, card []int, d *Deck, f cardFormat, lo, hi int) ([]byte, []int) {
	for i := lo; i < hi; i++ {
		if i > 0 {
			dst = append(dst, f.between...)
		}
		dst = append(dst, f.open...)
		card = d.AppendCard(card[:0], i)
		// Room for a whole word per symbol, since each store writes 8 bytes,
		// or for the longest id and separator where ids go past the table.
		dst = slices.Grow(dst, t.room*len(card)+8)
		n := len(dst)
		b := dst[:cap(dst)]
		for _, s := range card {
			if s < len(t.word) {
				binary.LittleEndian.PutUint64(b[n:], t.word[s])
				n += int(t.size[s])
				continue
			}
			n += len(append(strconv.AppendInt(b[n:n], int64(s), 10), t.sep))
		}
		// Replace the last separator by the card's closing text.
		dst = append(b[:n-1], f.close...)
	}
	return dst, card
}
