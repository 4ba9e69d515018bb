// Package art holds the pictures that symbols are drawn with, and reads
// vector pictures from SVG.
//
// The pictures of the symbol sets are Twemoji graphics (CC-BY 4.0), vendored
// in the folder twemoji/ with their licence and attribution and embedded in
// the binary; Lookup returns the one a symbol's Art reference
// ("twemoji:<file stem>") names. scripts/vendor-art regenerates the folder
// from the npm package @twemoji/svg.
//
// A Picture is a list of filled and stroked shapes with flat colours, in the
// coordinates of the SVG it was read from (y pointing down), together with
// the smallest circle that holds all of its ink. Layouts place symbols as
// circles, so that circle is what a card scales and rotates a picture into.
// A Picture draws itself onto any geom.Renderer (PDF pages, rasterizers)
// and writes itself back out as plain SVG paths, with no ids, classes or
// style sheets that could clash with the rest of a document.
//
// ParseSVG reads the subset of SVG that flat-colour drawings use: the
// elements svg, g, path, circle, ellipse, rect, line, polyline and polygon;
// fill, stroke and opacity attributes (also inside style="…"); and
// transforms. A picture is placed by its ink, so the viewBox and the size
// attributes are not needed, and shapes outside the viewBox are drawn too.
// Everything the Twemoji files use is in that subset. It refuses
// SVGs with scripts, event handlers or references to anything outside the
// file, and says which element or attribute it cannot draw (gradients,
// text, embedded images, clip paths, style sheets…).
package art
