// Package symbols holds the symbol sets of the Dobble editions and of
// Anarchy Pancakes: the classic set, the Beach set, the animals of Dobble
// Kids and the pancake toppings.
//
// A Set is an ordered list of symbols; a symbol's id is its index in the
// set, so a deck built from a projective plane of order n uses the first
// n²+n+1 symbols of a set of at least that size. Every symbol has a stable
// key, a name in each language of Languages and a reference to a picture.
//
// The Polish and Danish names of the Beach set are the names printed on the
// Beach rule sheet (seed 000), with obvious scanning errors corrected and,
// where the sheet offers several names, the first one taken. The Russian
// names of the classic set follow the Russian rule sheet (seed 002) where it
// names the symbol. All other names are translations.
//
// Pictures are referenced as "twemoji:<file stem>", the stem of an SVG file
// of the npm package @twemoji/svg (Twemoji graphics, licensed under CC-BY
// 4.0); the files themselves are vendored separately. Where no emoji shows
// the symbol exactly, the closest emoji that is distinct within its set
// stands in for it, and the symbol keeps the name it has in the game.
package symbols
