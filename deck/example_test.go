package deck_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/dobble-dev/dobble/deck"
)

func Example() {
	d, err := deck.New(7, 55) // the classic shape: order 7, 55 of 57 cards
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Len(), "cards of", d.SymbolsPerCard(), "symbols")
	fmt.Println("card 0:", d.Card(0))
	fmt.Println("card 1:", d.Card(1))
	fmt.Println("they share symbol", d.Common(0, 1))
	// Output:
	// 55 cards of 8 symbols
	// card 0: [0 1 3 13 32 36 43 52]
	// card 1: [1 2 4 14 33 37 44 53]
	// they share symbol 1
}

func ExampleCheckOrder() {
	fmt.Println(deck.CheckOrder(6))
	fmt.Println(deck.CheckOrder(9))
	// Output:
	// order 6: no projective plane exists; nearest: 5 (31 cards × 6 symbols) or 7 (57 cards × 8)
	// <nil>
}

func ExampleCards_Verify() {
	f, err := deck.Read(strings.NewReader("0 1 2\n0 3 4\n1 3 5\n2 4 6\n0 5 6\n"))
	if err != nil {
		panic(err)
	}
	_, err = f.Cards.Verify()
	fmt.Println(err)
	// Output:
	// cards 2 and 3 share no symbol
}

func ExampleLookupEdition() {
	e, _ := deck.LookupEdition("beach")
	d, _ := e.Deck()
	s := e.Symbols.Symbols[d.Common(0, 1)]
	fmt.Println(d.Len(), "cards; cards 0 and 1 share:", s.Names.En, "/", s.Names.Pl, "/", s.Names.Da)
	// Output:
	// 55 cards; cards 0 and 1 share: sun hat / kapelusz / solhat
}

func ExampleWriteText() {
	d, _ := deck.New(2, 0)
	deck.WriteText(os.Stdout, d)
	// Output:
	// 0 1 3
	// 1 2 4
	// 2 3 5
	// 3 4 6
	// 0 4 5
	// 1 5 6
	// 0 2 6
}
