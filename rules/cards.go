package rules

import (
	"fmt"
	"math/bits"
	"sync"
)

// Cards is a source of cards: the only thing the rules need to know about a
// deck. Cards are numbered 0..Len()-1 and symbols 0..Symbols()-1, and
// AppendCard appends the symbols of card i to dst. A *deck.Deck satisfies
// Cards, and so does any other source, for example one that adds
// one-symbol cards to a plane (Anarchy Pancakes), because nothing in the
// rules assumes that two cards share exactly one symbol.
type Cards interface {
	// Len returns the number of cards.
	Len() int
	// Symbols returns the number of symbol ids; every symbol on a card is
	// in 0..Symbols()-1.
	Symbols() int
	// AppendCard appends the symbols of card i to dst and returns the
	// extended slice.
	AppendCard(dst []int, i int) []int
}

// Index is a Cards source flattened into bitsets, which is what the rules
// read on the hot path: Has is one load and one shift, Common one AND per
// 64 symbols. An Index is immutable and safe for concurrent use; build it
// once per deck with NewIndex and pass it to New for every game played with
// that deck, so no game pays for the flattening again.
type Index struct {
	cards   int
	symbols int
	words   int      // uint64 words per card bitset
	bits    []uint64 // cards × words
	start   []int32  // card i's symbols are syms[start[i]:start[i+1]]
	syms    []int32

	apartOnce sync.Once
	apart     [2]int32 // Apart's answer, computed on first use
}

// NewIndex flattens cards into an Index. It returns the argument itself when
// cards already is an *Index, and fails when the source has fewer than one
// card, no symbols, a symbol out of range or a symbol twice on one card.
func NewIndex(cards Cards) (*Index, error) {
	if x, ok := cards.(*Index); ok {
		return x, nil
	}
	n, m := cards.Len(), cards.Symbols()
	if n < 1 || m < 1 {
		return nil, fmt.Errorf("rules: a card source needs at least one card and one symbol, got %d cards and %d symbols", n, m)
	}
	x := &Index{cards: n, symbols: m, words: (m + 63) / 64}
	x.bits = make([]uint64, n*x.words)
	x.start = make([]int32, n+1)
	var buf []int
	for i := 0; i < n; i++ {
		buf = cards.AppendCard(buf[:0], i)
		row := x.bits[i*x.words : (i+1)*x.words]
		for _, s := range buf {
			if s < 0 || s >= m {
				return nil, fmt.Errorf("rules: card %d shows symbol %d, outside 0..%d", i, s, m-1)
			}
			if row[s>>6]&(1<<(s&63)) != 0 {
				return nil, fmt.Errorf("rules: card %d shows symbol %d twice", i, s)
			}
			row[s>>6] |= 1 << (s & 63)
			x.syms = append(x.syms, int32(s))
		}
		x.start[i+1] = int32(len(x.syms))
	}
	return x, nil
}

// Len returns the number of cards.
func (x *Index) Len() int { return x.cards }

// Symbols returns the number of symbol ids.
func (x *Index) Symbols() int { return x.symbols }

// CardLen returns the number of symbols on card i.
func (x *Index) CardLen(i int) int { return int(x.start[i+1] - x.start[i]) }

// AppendCard appends the symbols of card i to dst, in the order the source
// gave them, and returns the extended slice.
func (x *Index) AppendCard(dst []int, i int) []int {
	for _, s := range x.syms[x.start[i]:x.start[i+1]] {
		dst = append(dst, int(s))
	}
	return dst
}

// AppendBits appends the symbols of card i as a bit set to dst, symbol s
// being bit s%64 of word s/64, (Symbols()+63)/64 words in all, and
// returns the extended slice.
func (x *Index) AppendBits(dst []uint64, i int) []uint64 {
	return append(dst, x.bits[i*x.words:(i+1)*x.words]...)
}

// Word returns word w of the bit set AppendBits gives for card i: symbols
// 64w to 64w+63, symbol s being bit s%64. Unlike AppendBits it copies
// nothing, for a loop that reads a card a word at a time. O(1).
func (x *Index) Word(i, w int) uint64 { return x.bits[i*x.words+w] }

// Has reports whether card i shows symbol s. A symbol outside
// 0..Symbols()-1 is on no card. O(1).
func (x *Index) Has(i, s int) bool {
	if uint(s) >= uint(x.symbols) {
		return false
	}
	return x.bits[i*x.words+s>>6]>>(s&63)&1 != 0
}

// Common returns the lowest symbol that cards i and j share, or -1 if they
// share none. For two different cards of a projective-plane deck it is the
// one symbol they share.
func (x *Index) Common(i, j int) int {
	if x.words == 1 {
		// Up to 64 symbols, as in every published deck: one word a card.
		if m := x.bits[i] & x.bits[j]; m != 0 {
			return bits.TrailingZeros64(m)
		}
		return -1
	}
	a := x.bits[i*x.words : (i+1)*x.words]
	b := x.bits[j*x.words : (j+1)*x.words]
	for w := range a {
		if m := a[w] & b[w]; m != 0 {
			return w<<6 + bits.TrailingZeros64(m)
		}
	}
	return -1
}

// AppendCommon appends every symbol that cards i and j share, in increasing
// order, to dst and returns the extended slice.
func (x *Index) AppendCommon(dst []int, i, j int) []int {
	a := x.bits[i*x.words : (i+1)*x.words]
	b := x.bits[j*x.words : (j+1)*x.words]
	for w := range a {
		for m := a[w] & b[w]; m != 0; m &= m - 1 {
			dst = append(dst, w<<6+bits.TrailingZeros64(m))
		}
	}
	return dst
}

// Apart returns the first two cards i < j (lowest i, then lowest j) that
// share no symbol, or -1, -1 when every two cards share at least one, as in
// every deck of package deck. Games in which any two cards may be compared
// (Catch Them All, Subway Rescue) refuse a source with such a pair, where a
// card could never be matched. The answer is computed on the first call, in
// O(cards² × symbols/64), and kept.
func (x *Index) Apart() (i, j int) {
	x.apartOnce.Do(func() {
		x.apart = [2]int32{-1, -1}
		w := x.words
		for i := 0; i < x.cards; i++ {
			a := x.bits[i*w : (i+1)*w]
		next:
			for j := i + 1; j < x.cards; j++ {
				b := x.bits[j*w : (j+1)*w]
				for k := range a {
					if a[k]&b[k] != 0 {
						continue next
					}
				}
				x.apart = [2]int32{int32(i), int32(j)}
				return
			}
		}
	})
	return int(x.apart[0]), int(x.apart[1])
}

// shared returns the number of symbols cards i and j share.
func (x *Index) shared(i, j int) int {
	a := x.bits[i*x.words : (i+1)*x.words]
	b := x.bits[j*x.words : (j+1)*x.words]
	n := 0
	for w := range a {
		n += bits.OnesCount64(a[w] & b[w])
	}
	return n
}

// nthShared returns the n-th smallest symbol cards i and j share, counting
// from 0; n must be below shared(i, j).
func (x *Index) nthShared(i, j, n int) int {
	a := x.bits[i*x.words : (i+1)*x.words]
	b := x.bits[j*x.words : (j+1)*x.words]
	for w := range a {
		m := a[w] & b[w]
		if c := bits.OnesCount64(m); n >= c {
			n -= c
			continue
		}
		for ; n > 0; n-- {
			m &= m - 1
		}
		return w<<6 + bits.TrailingZeros64(m)
	}
	panic("rules: nthShared: n out of range")
}
