package symbols_test

import (
	"fmt"

	"github.com/dobble-dev/dobble/symbols"
)

// Example prints the Polish and the English name of Beach symbol 0.
func Example() {
	sym := symbols.Beach.Symbols[0]
	pl, _ := sym.Names.Get("pl")
	en, _ := sym.Names.Get("en")
	fmt.Printf("%s: %s / %s (%s)\n", sym.Key, pl, en, sym.Art)
	// Output:
	// water-pistol: pistolet na wodę / water pistol (twemoji:1f52b)
}

// ExampleSet_ByKey looks a symbol up by its key and prints its name in
// every language.
func ExampleSet_ByKey() {
	id, ok := symbols.Classic.ByKey("anchor")
	fmt.Println(id, ok)
	for _, lang := range symbols.Languages {
		name, _ := symbols.Classic.Symbols[id].Names.Get(lang)
		fmt.Printf("%s: %s\n", lang, name)
	}
	// Output:
	// 0 true
	// en: anchor
	// pl: kotwica
	// da: anker
	// ru: якорь
	// zh: 锚
	// it: ancora
}
