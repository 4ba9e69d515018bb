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

// Decks builds decks and card pictures by name and keeps them: every room
// shares one Index per deck, and every card picture is drawn once.
type Decks struct {
	mu    sync.Mutex
	decks map[string]*Deck
	faces map[string]*face.Deck
	svgs  map[string][]byte
}

// NewDecks returns an empty cache.
func NewDecks() *Decks {
	return &Decks{decks: map[string]*Deck{}, faces: map[string]*face.Deck{}, svgs: map[string][]byte{}}
}

// parseDeck reads a deck name: an edition, order-Q or order-Q-M.
func parseDeck(name string) (record.Deck, error) {
	if rest, ok := strings.CutPrefix(name, "order-"); ok {
		q, m, two := strings.Cut(rest, "-")
		order, err := strconv.Atoi(q)
		if err != nil || order < 2 || order > MaxOrder {
			return record.Deck{}, fmt.Errorf("deck %q: order-Q takes an order Q from 2 to %d", name, MaxOrder)
		}
		d := record.Deck{Order: order}
		if two {
			cards, err := strconv.Atoi(m)
			if err != nil || cards < 2 || cards > order*order+order+1 {
				return record.Deck{}, fmt.Errorf("deck %q: order-%d-M keeps M cards, 2 to %d", name, order, order*order+order+1)
			}
			d.Cards = cards
		}
		return d, nil
	}
	if _, err := deck.LookupEdition(name); err != nil {
		return record.Deck{}, fmt.Errorf("deck %q: use an edition (%s), order-Q or order-Q-M", name, strings.Join(deck.EditionNames(), ", "))
	}
	return record.Deck{Edition: name}, nil
}

// Get returns the deck called name, with one-symbol cards added when
// singles is set (a game's own deck, rules.DeckSpec).
func (c *Decks) Get(name string, singles bool) (*Deck, error) {
	key := name
	if singles {
		key += "+singles"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.decks[key]; ok {
		return d, nil
	}
	desc, err := parseDeck(name)
	if err != nil {
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
	d := &Deck{Name: name, Desc: desc, Cards: x, Plane: plane}
	c.decks[key] = d
	return d, nil
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
	if b, ok := c.svgs[key]; ok {
		c.mu.Unlock()
		return b, nil
	}
	c.mu.Unlock()
	d, err := c.Get(name, false)
	if err != nil {
		return nil, err
	}
	fd, err := c.face(name, d)
	if err != nil {
		return nil, err
	}
	n := d.Plane.Len()
	var buf bytes.Buffer
	switch {
	case card >= 0 && card < n:
		err = fd.WriteSVG(&buf, card)
	case card >= n && card < n+d.Plane.Symbols():
		err = fd.WriteSingleSVG(&buf, card-n)
	default:
		return nil, fmt.Errorf("deck %q has cards 0 to %d (and %d to %d showing one symbol)", name, n-1, n, n+d.Plane.Symbols()-1)
	}
	if err != nil {
		return nil, err
	}
	b := buf.Bytes()
	c.mu.Lock()
	c.svgs[key] = b
	c.mu.Unlock()
	return b, nil
}

// FaceSeed is the layout seed of the cards served to browsers, the same as
// dobble print's default, so the screen shows the printed cards.
const FaceSeed = 1

// face returns the drawing of deck d.
func (c *Decks) face(name string, d *Deck) (*face.Deck, error) {
	c.mu.Lock()
	fd, ok := c.faces[name]
	c.mu.Unlock()
	if ok {
		return fd, nil
	}
	var err error
	if d.Desc.Edition != "" {
		e, _ := deck.LookupEdition(d.Desc.Edition)
		fd, err = face.EditionDeck(e, layout.Round, FaceSeed)
	} else {
		syms, _, serr := face.DefaultSymbols(d.Plane.Symbols())
		if serr != nil {
			return nil, serr
		}
		fd, err = face.NewDeck(d.Plane, syms, layout.Round, FaceSeed)
	}
	if err != nil {
		return nil, fmt.Errorf("deck %q: %v", name, err)
	}
	c.mu.Lock()
	c.faces[name] = fd
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
