// Package face draws card faces: the symbols of a deck placed by a layout
// plan, as a self-contained SVG for the browser client or onto any
// geom.Renderer (the printer's PDF pages).
//
// A Symbol is how one symbol id looks: a vector picture (the editions'
// Twemoji art, or an SVG given by the user), a word or short phrase set in
// the built-in font (Go Bold, drawn as outlines, so neither the SVG nor the
// PDF needs fonts), or a raster image (PNG or JPEG). Every symbol has an
// outline for layout.Fit, made at its first use: its drawing rasterized
// into a mask of 256×256 cells with golang.org/x/image/vector (which draws
// curves exactly; a cell is ink if any ink touches it), or the cells that
// any opaque pixel of an image covers. Symbols are packed by these
// outlines and scaled into their spot's circle about the centre of their
// own smallest enclosing circle, so the layout's guarantees (no two
// symbols' ink closer than layout.InkGap, nothing across the card's edge)
// hold for the drawing itself. Words stay within 40° of upright so they
// can be read, with a little more room around them so that two words do
// not read as one phrase; pictures turn freely, as in the printed game.
//
// Custom decks come from ReadWords (one word or phrase a line) and
// ReadImages (a folder of PNG, JPEG or SVG files); both refuse bad input
// with one line naming the line or file at fault. DefaultSymbols gives
// decks without named symbols their pictures: the classic set's when it
// has enough, numbers otherwise.
package face
