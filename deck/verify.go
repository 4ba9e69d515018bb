package deck

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Cards is a deck given card by card, such as one read from a file: card i
// is a list of symbol ids. It is stored flat, so a large deck costs four
// bytes a symbol.
type Cards struct {
	start []int   // card i is syms[start[i]:start[i+1]]; start[0] = 0
	syms  []int32 // symbol ids, >= 0
}

// NewCards returns an empty card list.
func NewCards() *Cards { return &Cards{start: []int{0}} }

// CardsOf returns the explicit list of the deck's cards.
func CardsOf(d *Deck) *Cards {
	c := &Cards{start: make([]int, 1, d.Len()+1), syms: make([]int32, 0, d.Len()*d.SymbolsPerCard())}
	card := make([]int, 0, d.SymbolsPerCard())
	for i := 0; i < d.Len(); i++ {
		card = d.AppendCard(card[:0], i)
		c.Add(card)
	}
	return c
}

// Add appends a card with the given symbol ids. It panics if an id is
// outside 0..2³¹−1, which no deck file can express.
func (c *Cards) Add(card []int) {
	if c.start == nil {
		c.start = []int{0}
	}
	for _, s := range card {
		if s < 0 || s > math.MaxInt32 {
			panic(fmt.Sprintf("deck: symbol id %d out of range", s))
		}
		c.syms = append(c.syms, int32(s))
	}
	c.start = append(c.start, len(c.syms))
}

// Len returns the number of cards.
func (c *Cards) Len() int {
	if c.start == nil {
		return 0
	}
	return len(c.start) - 1
}

// Card returns the symbol ids of card i as stored (the slice aliases the list).
func (c *Cards) Card(i int) []int32 { return c.syms[c.start[i]:c.start[i+1]] }

// Incidences returns the total number of symbols printed on all cards.
func (c *Cards) Incidences() int { return len(c.syms) }

// Flaw is the first place where a deck breaks the one-match rule: two cards
// that share no symbol or more than one, or one card that shows a symbol
// twice (then A == B).
type Flaw struct {
	A, B   int   // card indices, A <= B, counted from 0
	Shared []int // the symbols A and B share (for A == B: the repeated symbol)
}

// Error describes the flaw, e.g. "cards 3 and 17 share 2 symbols (5, 12)".
func (f *Flaw) Error() string {
	if f.A == f.B {
		return fmt.Sprintf("card %d shows symbol %d twice", f.A, f.Shared[0])
	}
	if len(f.Shared) == 0 {
		return fmt.Sprintf("cards %d and %d share no symbol", f.A, f.B)
	}
	ids := make([]string, len(f.Shared))
	for i, s := range f.Shared {
		ids[i] = fmt.Sprint(s)
	}
	return fmt.Sprintf("cards %d and %d share %d symbols (%s)", f.A, f.B, len(f.Shared), strings.Join(ids, ", "))
}

// Report summarises a deck that passed verification.
type Report struct {
	Cards, Symbols             int
	MinPerCard, MaxPerCard     int // symbols on a card
	MinPerSymbol, MaxPerSymbol int // cards showing a symbol
	// Cyclic is true when the cards are translates of one difference set
	// (as `dobble deck` writes full planes), verified in O(k²).
	Cyclic bool
}

// Verify checks that every two cards share exactly one symbol and that no
// card shows a symbol twice. It returns a summary, or the first flaw: the
// pair (A, B) with the smallest B, then the smallest A.
//
// The cost is far below comparing all pairs of cards symbol by symbol
// (O(C²k) for C cards of k symbols): every card i walks the earlier cards
// through each of its symbols and counts how often it meets each, which
// costs one counter increment per (pair, shared symbol), C(C−1)/2 in all
// for a valid deck. Decks in the cyclic form `dobble deck` writes (card j =
// card 0 + j mod N) are recognised in O(Ck) and verified by checking that
// card 0 is a perfect difference set, O(k²).
func (c *Cards) Verify() (*Report, error) {
	n := c.Len()
	if n == 0 {
		return nil, fmt.Errorf("the deck has no cards")
	}
	// Dense symbol numbering, whatever ids the file used.
	dense, symbols := denseIDs(c.syms)
	freq := make([]int32, symbols)
	for _, ds := range dense {
		freq[ds]++
	}
	rep := &Report{Cards: n, Symbols: len(freq), MinPerCard: -1, MinPerSymbol: -1}
	for _, f := range freq {
		rep.MinPerSymbol = minOrFirst(rep.MinPerSymbol, int(f))
		rep.MaxPerSymbol = max(rep.MaxPerSymbol, int(f))
	}
	// Repeated symbols within a card, found by stamping.
	stamp := make([]int32, len(freq))
	for i := range stamp {
		stamp[i] = -1
	}
	for i := 0; i < n; i++ {
		card := c.Card(i)
		rep.MinPerCard = minOrFirst(rep.MinPerCard, len(card))
		rep.MaxPerCard = max(rep.MaxPerCard, len(card))
		for x, ds := range dense[c.start[i]:c.start[i+1]] {
			if stamp[ds] == int32(i) {
				return nil, &Flaw{A: i, B: i, Shared: []int{int(card[x])}}
			}
			stamp[ds] = int32(i)
		}
	}
	if n == 1 {
		return rep, nil
	}
	if c.isCyclic() {
		rep.Cyclic = true
		return rep, nil
	}
	if flaw := c.firstFlaw(dense, freq); flaw != nil {
		return nil, flaw
	}
	return rep, nil
}

func minOrFirst(cur, v int) int {
	if cur < 0 || v < cur {
		return v
	}
	return cur
}

// isCyclic reports whether card j is {s + j mod N : s ∈ card 0} for every j,
// with N = k²−k+1 for cards of k symbols, and card 0 a perfect difference set
// mod N; such a deck is a set of distinct lines of a cyclic plane.
func (c *Cards) isCyclic() bool {
	k := len(c.Card(0))
	if k < 3 || c.Len() > k*k-k+1 {
		return false
	}
	n := k*k - k + 1
	base := &Plane{order: k - 1, n: n, base: make([]int32, 0, k)}
	for _, s := range c.Card(0) {
		if int(s) >= n {
			return false
		}
		base.base = append(base.base, s)
	}
	slices.Sort(base.base)
	if base.index() != nil {
		return false
	}
	for j := 1; j < c.Len(); j++ {
		card := c.Card(j)
		if len(card) != k {
			return false
		}
		// No card repeats a symbol (checked before), so k distinct symbols
		// that all lie on line j are exactly line j.
		for _, s := range card {
			if int(s) >= n || !base.OnLine(j, int(s)) {
				return false
			}
		}
	}
	return true
}

// firstFlaw runs the counting check: card i meets every earlier card j once
// per shared symbol, walking the incidence lists of its symbols.
func (c *Cards) firstFlaw(dense, freq []int32) *Flaw {
	n := c.Len()
	// on[s] lists the cards showing dense symbol s, in card order (CSR).
	head := make([]int, len(freq)+1)
	for s, f := range freq {
		head[s+1] = head[s] + int(f)
	}
	fill := slices.Clone(head[:len(freq)])
	on := make([]int32, len(c.syms))
	for i := 0; i < n; i++ {
		for _, ds := range dense[c.start[i]:c.start[i+1]] {
			on[fill[ds]] = int32(i)
			fill[ds]++
		}
	}
	// seen[j] = i once card i has met j; twice[j] = i if it met j again.
	seen := make([]int32, n)
	twice := make([]int32, n)
	for j := range seen {
		seen[j], twice[j] = -1, -1
	}
	for i := 1; i < n; i++ {
		met, again := 0, false
		for _, ds := range dense[c.start[i]:c.start[i+1]] {
			for _, j := range on[head[ds]:head[ds+1]] {
				if int(j) >= i {
					break
				}
				if seen[j] == int32(i) {
					twice[j] = int32(i)
					again = true
				} else {
					seen[j] = int32(i)
					met++
				}
			}
		}
		if met == i && !again {
			continue
		}
		for j := 0; j < i; j++ {
			if seen[j] != int32(i) || twice[j] == int32(i) {
				return &Flaw{A: j, B: i, Shared: c.shared(j, i)}
			}
		}
	}
	return nil
}

// shared returns the symbols cards a and b have in common, in increasing order.
func (c *Cards) shared(a, b int) []int {
	out := []int{}
	for _, s := range c.Card(a) {
		if slices.Contains(c.Card(b), s) {
			out = append(out, int(s))
		}
	}
	slices.Sort(out)
	return out
}

// denseIDs renumbers symbol ids to 0..count−1 in order of first appearance
// and returns the new id of every stored symbol. Ids may be sparse and large
// (a foreign file's), so a table indexed by id is used only when it is small.
func denseIDs(syms []int32) (dense []int32, count int) {
	dense = make([]int32, len(syms))
	maxID := int32(-1)
	for _, s := range syms {
		maxID = max(maxID, s)
	}
	if int(maxID) < 4*len(syms)+1024 {
		table := make([]int32, int(maxID)+1)
		for i := range table {
			table[i] = -1
		}
		for x, s := range syms {
			if table[s] < 0 {
				table[s] = int32(count)
				count++
			}
			dense[x] = table[s]
		}
		return dense, count
	}
	ids := make(map[int32]int32)
	for x, s := range syms {
		d, ok := ids[s]
		if !ok {
			d = int32(len(ids))
			ids[s] = d
		}
		dense[x] = d
	}
	return dense, len(ids)
}

// VerifySingles checks one-symbol cards (Anarchy Pancakes' one-topping
// cards) against the deck they go with: each shows exactly one symbol, no
// two show the same one, and each symbol is on some card of the deck, so
// every one-symbol card can be matched.
func VerifySingles(cards, singles *Cards) error {
	onDeck := make(map[int32]bool, cards.Incidences())
	for _, s := range cards.syms {
		onDeck[s] = true
	}
	seen := make(map[int32]int, singles.Len())
	for i := 0; i < singles.Len(); i++ {
		card := singles.Card(i)
		if len(card) != 1 {
			return fmt.Errorf("one-symbol card %d shows %d symbols; it must show exactly one", i, len(card))
		}
		s := card[0]
		if j, dup := seen[s]; dup {
			return fmt.Errorf("one-symbol cards %d and %d both show symbol %d", j, i, s)
		}
		seen[s] = i
		if !onDeck[s] {
			return fmt.Errorf("one-symbol card %d shows symbol %d, which no card of the deck shows", i, s)
		}
	}
	return nil
}
