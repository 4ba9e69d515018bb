package deck

import (
	"fmt"
	"strings"

	"github.com/dobble-dev/dobble/symbols"
)

// Edition is a published deck: a plane order, how many of its cards are
// printed, and the pictures its symbol ids stand for.
type Edition struct {
	// Name is how the edition is asked for: "classic", "beach", "kids", "pancakes".
	Name string
	// Title is a one-line description for listings.
	Title string
	// Order and Cards select the deck: the first Cards lines of the plane of
	// that order.
	Order, Cards int
	// Symbols names symbol id i as Symbols.Symbols[i].
	Symbols symbols.Set
	// Singles is true when the edition also has one card per symbol showing
	// only that symbol (Anarchy Pancakes' one-topping cards).
	Singles bool
}

var editions = []Edition{
	{Name: "classic", Title: "Dobble / Spot it!: 55 cards × 8 symbols", Order: 7, Cards: 55, Symbols: symbols.Classic},
	{Name: "beach", Title: "Dobble Beach: 55 cards × 8 beach symbols", Order: 7, Cards: 55, Symbols: symbols.Beach},
	{Name: "kids", Title: "Dobble Kids: 30 cards × 6 animals", Order: 5, Cards: 30, Symbols: symbols.Kids},
	{Name: "pancakes", Title: "Anarchy Pancakes: 31 six-topping cards + 31 one-topping cards", Order: 5, Cards: 31, Symbols: symbols.Toppings, Singles: true},
}

// Editions returns every edition, classic first.
func Editions() []Edition {
	return append([]Edition(nil), editions...)
}

// EditionNames returns the names of all editions, in the order of Editions.
func EditionNames() []string {
	names := make([]string, len(editions))
	for i, e := range editions {
		names[i] = e.Name
	}
	return names
}

// LookupEdition returns the edition with the given name, or an error that
// lists the known ones.
func LookupEdition(name string) (*Edition, error) {
	for i := range editions {
		if editions[i].Name == name {
			e := editions[i]
			return &e, nil
		}
	}
	return nil, fmt.Errorf("unknown edition %q; known editions: %s", name, strings.Join(EditionNames(), ", "))
}

// Deck builds the edition's deck of cards (without its one-symbol cards).
func (e *Edition) Deck() (*Deck, error) {
	d, err := New(e.Order, e.Cards)
	if err != nil {
		return nil, err
	}
	if d.Symbols() != e.Symbols.Len() {
		return nil, fmt.Errorf("edition %s: the deck has %d symbols but the symbol set %q has %d",
			e.Name, d.Symbols(), e.Symbols.Name, e.Symbols.Len())
	}
	return d, nil
}

// SymbolNames returns the edition's symbols as the JSON "symbol_names" list.
func (e *Edition) SymbolNames() []SymbolName {
	out := make([]SymbolName, e.Symbols.Len())
	for i, s := range e.Symbols.Symbols {
		n := s.Names
		out[i] = SymbolName{ID: i, Key: s.Key, Art: s.Art, En: n.En, Pl: n.Pl, Da: n.Da, Ru: n.Ru, Zh: n.Zh, It: n.It}
	}
	return out
}
