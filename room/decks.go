package room

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/face"
	"github.com/dobble-dev/dobble/layout"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/symbols"
)

// MaxOrder is the largest plane order a room may ask for with order-Q.
const MaxOrder = 13

// Deck is a deck ready to play: its name as rooms and card URLs give it,
// its description for records, and its cards.
type Deck struct {
	// Name is "classic", "order-5", "order-7-30"...
	Name string
	// Desc describes the cards for a record.
	Desc record.Deck
	// Cards are the cards, flattened for the rules.
	Cards *rules.Index
	// Plane is the projective-plane part of the cards.
	Plane *deck.Deck
}

// Decks builds decks and card pictures by name and keeps the most recently
// used: every room shares one Index per deck while it is kept, and each
// card picture is drawn once while it is kept. NewManager bounds the
// caches by its Config's DeckCache and CardCache; NewDecks alone keeps
// DefaultConfig's.
type Decks struct {
	mu      sync.Mutex
	decks   *lru[string, *cachedDeck] // by name, "+singles" added for a game's own deck
	svgs    *lru[string, []byte]      // by "name/card"
	metrics *Metrics                  // nil until NewManager sets it
}

// cachedDeck is a deck kept, with its drawing once a picture of it has
// been asked for.
type cachedDeck struct {
	d    *Deck
	face *face.Deck
}

// NewDecks returns an empty cache with the bounds of DefaultConfig.
func NewDecks() *Decks {
	c := &Decks{}
	d := DefaultConfig()
	c.limit(d.DeckCache, d.CardCache, nil)
	return c
}

// limit empties the caches and bounds them to decks decks (with their
// drawings) and cards bytes of card pictures, counting in metrics, when
// not nil, what they drop and the deck names refused.
func (c *Decks) limit(decks int, cards int64, metrics *Metrics) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.metrics = metrics
	dropped := func(cache string) func() {
		if metrics == nil {
			return nil
		}
		n := metrics.DeckCacheDrops.WithLabelValues(cache)
		return n.Inc
	}
	c.decks = newLRU[string](int64(decks), func(*cachedDeck) int64 { return 1 }, dropped("decks"))
	c.svgs = newLRU[string](cards, func(b []byte) int64 { return int64(len(b)) }, dropped("cards"))
}

// maxDeckName is the length of the longest deck name.
var maxDeckName = len(fmt.Sprintf("order-%d-%d", MaxOrder, MaxOrder*MaxOrder+MaxOrder))

// DeckError is the error for a deck name that names no deck, or not in
// the one way that deck is named. Its message says which names are
// accepted.
type DeckError struct {
	// Name is the name given, cut short when it is long.
	Name string
	// Reason says what is wrong with it and what is accepted.
	Reason string
}

// Error returns "deck NAME: REASON".
func (e *DeckError) Error() string { return fmt.Sprintf("deck %q: %s", e.Name, e.Reason) }

// parseDeck reads a deck name: an edition, order-Q or order-Q-M, each
// spelled in one way only (lower case, numbers in decimal without sign or
// leading zeros, and order-Q for all the cards of order Q), so that one
// deck has one name and the caches one entry for it. Any other spelling is
// a *DeckError naming the accepted ones, the deck's own name when it has
// one.
func parseDeck(name string) (record.Deck, error) {
	accepted := fmt.Sprintf("a deck is an edition (%s), order-Q (Q from 2 to %d) or order-Q-M (its first M cards, 2 to all but one)",
		strings.Join(deck.EditionNames(), ", "), MaxOrder)
	refuse := func(format string, args ...any) error {
		shown := name
		if len(shown) > maxDeckName+4 {
			shown = shown[:maxDeckName] + "…"
		}
		return &DeckError{Name: shown, Reason: fmt.Sprintf(format, args...)}
	}
	if len(name) > maxDeckName {
		return record.Deck{}, refuse("%d bytes; a deck name has at most %d, and %s", len(name), maxDeckName, accepted)
	}
	rest, ok := strings.CutPrefix(name, "order-")
	if !ok {
		if _, err := deck.LookupEdition(name); err == nil {
			return record.Deck{Edition: name}, nil
		}
		if _, err := deck.LookupEdition(strings.ToLower(name)); err == nil {
			return record.Deck{}, refuse("write it %s", strings.ToLower(name))
		}
		return record.Deck{}, refuse("%s", accepted)
	}
	q, m, two := strings.Cut(rest, "-")
	order, canon := number(q)
	if order < 2 || order > MaxOrder {
		return record.Deck{}, refuse("order-Q takes an order Q from 2 to %d; %s", MaxOrder, accepted)
	}
	d := record.Deck{Order: order}
	if two {
		all := order*order + order + 1
		cards, ok := number(m)
		switch {
		case cards < 2 || cards > all:
			return record.Deck{}, refuse("order-%d-M keeps M cards, 2 to %d", order, all-1)
		case cards == all:
			return record.Deck{}, refuse("all %d cards of order %d are the deck order-%d", all, order, order)
		}
		canon = canon && ok
		d.Cards = cards
	}
	if !canon {
		want := fmt.Sprintf("order-%d", order)
		if two {
			want += fmt.Sprintf("-%d", d.Cards)
		}
		return record.Deck{}, refuse("write it %s (numbers without sign or leading zeros)", want)
	}
	return d, nil
}

// number reads a whole number of at most three digits, and reports
// whether it is written as strconv.Itoa writes it; -1 when it is no
// number.
func number(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 999 {
		return -1, false
	}
	return n, strconv.Itoa(n) == s
}

// Get returns the deck called name, with one-symbol cards added when
// singles is set (a game's own deck, rules.DeckSpec). A name that is not
// a deck's (parseDeck) is a *DeckError.
func (c *Decks) Get(name string, singles bool) (*Deck, error) {
	e, err := c.entry(name, singles)
	if err != nil {
		return nil, err
	}
	return e.d, nil
}

// entry returns the cache's entry of the deck called name, building it
// when it is not kept.
func (c *Decks) entry(name string, singles bool) (*cachedDeck, error) {
	key := name
	if singles {
		key += "+singles"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.decks.get(key); ok {
		return e, nil
	}
	desc, err := parseDeck(name)
	if err != nil {
		if c.metrics != nil {
			c.metrics.DeckNamesRefused.Inc()
		}
		return nil, err
	}
	desc.Singles = singles
	desc, x, err := desc.Build()
	if err != nil {
		return nil, fmt.Errorf("deck %q: %v", name, err)
	}
	var plane *deck.Deck
	if desc.Edition != "" {
		e, _ := deck.LookupEdition(desc.Edition)
		plane, err = e.Deck()
	} else {
		plane, err = deck.New(desc.Order, desc.Cards)
	}
	if err != nil {
		return nil, fmt.Errorf("deck %q: %v", name, err)
	}
	e := &cachedDeck{d: &Deck{Name: name, Desc: desc, Cards: x, Plane: plane}}
	c.decks.add(key, e)
	return e, nil
}

// Own returns the decks of the games played only with their own cards
// (rules.Info.Deck), by game name.
func (c *Decks) Own() (map[string]*Deck, error) {
	own := map[string]*Deck{}
	for _, g := range rules.Games() {
		info := g.Info()
		if info.Deck == nil || !info.Deck.Only {
			continue
		}
		d, err := c.Get(info.Deck.Edition, info.Deck.Singles)
		if err != nil {
			return nil, fmt.Errorf("the deck of %s: %v", info.Name, err)
		}
		own[info.Name] = d
	}
	return own, nil
}

// CardSVG returns card number card of the deck called name as SVG (package
// face). Card numbers past the plane's cards are the one-symbol cards of
// a game's own deck with singles (Anarchy Pancakes): card planeCards+s
// shows symbol s alone.
func (c *Decks) CardSVG(name string, card int) ([]byte, error) {
	key := name + "/" + strconv.Itoa(card)
	c.mu.Lock()
	b, ok := c.svgs.get(key)
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	e, err := c.entry(name, false)
	if err != nil {
		return nil, err
	}
	d := e.d
	n := d.Plane.Len()
	if card < 0 || card >= n+d.Plane.Symbols() {
		return nil, fmt.Errorf("deck %q has cards 0 to %d (and %d to %d showing one symbol)", name, n-1, n, n+d.Plane.Symbols()-1)
	}
	fd, err := c.face(e)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if card < n {
		err = fd.WriteSVG(&buf, card)
	} else {
		err = fd.WriteSingleSVG(&buf, card-n)
	}
	if err != nil {
		return nil, err
	}
	b = buf.Bytes()
	c.mu.Lock()
	c.svgs.add(key, b)
	c.mu.Unlock()
	return b, nil
}

// FaceSeed is the layout seed of the cards served to browsers, the same as
// dobble print's default, so the screen shows the printed cards.
const FaceSeed = 1

// face returns the drawing of the deck kept in e, drawing it the first
// time.
func (c *Decks) face(e *cachedDeck) (*face.Deck, error) {
	c.mu.Lock()
	fd := e.face
	c.mu.Unlock()
	if fd != nil {
		return fd, nil
	}
	d := e.d
	var err error
	if d.Desc.Edition != "" {
		ed, _ := deck.LookupEdition(d.Desc.Edition)
		fd, err = face.EditionDeck(ed, layout.Round, FaceSeed)
	} else {
		syms, _, serr := face.DefaultSymbols(d.Plane.Symbols())
		if serr != nil {
			return nil, serr
		}
		fd, err = face.NewDeck(d.Plane, syms, layout.Round, FaceSeed)
	}
	if err != nil {
		return nil, fmt.Errorf("deck %q: %v", d.Name, err)
	}
	c.mu.Lock()
	e.face = fd
	c.mu.Unlock()
	return fd, nil
}

// SymbolInfo is one symbol of a deck as GET /api/decks/{deck} gives it: its
// id, its stable key and its name in every language of the interface.
type SymbolInfo struct {
	ID    int               `json:"id"`
	Key   string            `json:"key"`
	Names map[string]string `json:"names"`
}

// DeckInfo describes a deck for the browser: its shape and its symbols'
// names, so that a symbol can be named in the player's language.
type DeckInfo struct {
	Deck           string       `json:"deck"`
	Cards          int          `json:"cards"`
	SymbolsPerCard int          `json:"symbolsPerCard"`
	Symbols        []SymbolInfo `json:"symbols"`
}

// Info returns the deck called name with its symbols' names. An edition
// names its own symbols; an order-Q deck shows the classic pictures while
// it has at most as many symbols as the classic set, named as those are,
// and numbers otherwise, named by their number in every language (as
// dobble print draws them).
func (c *Decks) Info(name string) (*DeckInfo, error) {
	d, err := c.Get(name, false)
	if err != nil {
		return nil, err
	}
	info := &DeckInfo{Deck: name, Cards: d.Plane.Len(), SymbolsPerCard: d.Plane.SymbolsPerCard()}
	set := symbols.Classic
	if d.Desc.Edition != "" {
		e, _ := deck.LookupEdition(d.Desc.Edition)
		set = e.Symbols
	}
	n := d.Plane.Symbols()
	for id := 0; id < n; id++ {
		s := SymbolInfo{ID: id, Names: make(map[string]string, len(symbols.Languages))}
		if n <= set.Len() {
			sym := set.Symbols[id]
			s.Key = sym.Key
			for _, lang := range symbols.Languages {
				s.Names[lang], _ = sym.Names.Get(lang)
			}
		} else {
			s.Key = strconv.Itoa(id + 1)
			for _, lang := range symbols.Languages {
				s.Names[lang] = s.Key
			}
		}
		info.Symbols = append(info.Symbols, s)
	}
	return info, nil
}
