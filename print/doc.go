// Package print writes printable decks: PDF pages with as many cards as fit
// on the paper, each with its cut line, optionally followed on every other
// page by the card backs, mirrored so that double-sided printing (flipping
// on the long edge) puts each back behind its card.
//
// Pages are A4 or US Letter with 8 mm margins and 4 mm between cards;
// cards are round (cut along the circle) or square, 80 mm by default.
// Everything is drawn as vectors: the Twemoji pictures as their paths,
// words and captions as glyph outlines of the built-in font; only raster
// pictures of custom decks are embedded as images (each once, however
// many cards show it). WriteFile writes to a temporary file in the target
// folder and renames it into place, so a failed run never leaves a
// half-written PDF behind.
package print
