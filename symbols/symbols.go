package symbols

// Languages lists the language codes every symbol is named in, in display
// order: English, Polish, Danish, Russian, Chinese (simplified) and Italian.
var Languages = []string{"en", "pl", "da", "ru", "zh", "it"}

// Names holds a symbol's name in each supported language. Common nouns are
// written in lower case; proper names such as "Dobble" keep their capitals.
type Names struct{ En, Pl, Da, Ru, Zh, It string }

// Get returns the name in lang, which should be one of Languages, and
// whether lang is known. For an unknown lang it returns "" and false.
func (n Names) Get(lang string) (string, bool) {
	switch lang {
	case "en":
		return n.En, true
	case "pl":
		return n.Pl, true
	case "da":
		return n.Da, true
	case "ru":
		return n.Ru, true
	case "zh":
		return n.Zh, true
	case "it":
		return n.It, true
	}
	return "", false
}

// Symbol is one picture that can appear on a card.
type Symbol struct {
	// Key is a stable lowercase ASCII slug, unique within its set,
	// such as "anchor" or "beach-ball".
	Key string
	// Names holds the symbol's name in every language of Languages.
	Names Names
	// Art references an open-licensed picture as "twemoji:<file stem>",
	// for example "twemoji:2693" or "twemoji:1f3c4-200d-2640-fe0f".
	Art string
}

// Set is an ordered symbol set; a symbol's id is its index in Symbols.
type Set struct {
	// Name is the set's name: "classic", "beach", "kids" or "toppings".
	Name string
	// Symbols lists the set's symbols in id order.
	Symbols []Symbol
}

// Len returns the number of symbols in the set.
func (s Set) Len() int { return len(s.Symbols) }

// ByKey returns the id of the symbol with the given key and whether the set
// has such a symbol.
func (s Set) ByKey(key string) (id int, ok bool) {
	for i, sym := range s.Symbols {
		if sym.Key == key {
			return i, true
		}
	}
	return -1, false
}

// Sets returns all symbol sets: Classic, Beach, Kids and Toppings, in that
// order.
func Sets() []Set {
	return []Set{Classic, Beach, Kids, Toppings}
}

// ByName returns the set with the given name and whether there is one.
func ByName(name string) (Set, bool) {
	for _, s := range Sets() {
		if s.Name == name {
			return s, true
		}
	}
	return Set{}, false
}
