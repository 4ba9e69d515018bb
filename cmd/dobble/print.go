package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/face"
	"github.com/dobble-dev/dobble/layout"
	"github.com/dobble-dev/dobble/print"
	"github.com/dobble-dev/dobble/symbols"
	"github.com/dobble-dev/dobble/symbols/art"
)

const printSynopsis = `dobble print --edition NAME | --order Q | --words FILE | --images DIR --out FILE.pdf
       [--cards M] [--paper a4|letter] [--card-mm 80] [--shape round|square] [--seed S] [--backs]

Writes a printable deck as a PDF: as many cards a page as fit, each with its
cut line; --backs adds mirrored card backs on every other page for
double-sided printing (flip on the long edge).

--edition prints a published deck with its pictures. --order Q prints the
plane of order Q with the classic pictures (Q ≤ 7) or numbers (Q > 7).
--words FILE makes a deck from a list of words or short phrases, one a line
(UTF-8; Latin, Greek and Cyrillic scripts); --images DIR from a folder of
PNG, JPEG or SVG files, one per symbol. For those two, the order is the
largest whose deck the symbols fill, or --order Q; extra symbols are left
out with a note.`

func runPrint(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("print", printSynopsis, stdout)
	var req deckRequest
	req.register(fs)
	words := fs.String("words", "", "make a deck from FILE: one word or short phrase a line")
	images := fs.String("images", "", "make a deck from the PNG, JPEG or SVG files in folder DIR, one per symbol")
	out := fs.String("out", "", "the PDF file to write (required)")
	paperName := fs.String("paper", "a4", "paper size: a4 or letter")
	cardMM := fs.String("card-mm", strconv.Itoa(print.DefaultCardSize), "card diameter (round) or side (square) in millimetres")
	shapeName := fs.String("shape", "round", "card shape: round or square")
	seedText := fs.String("seed", "1", "layout seed: the same seed prints the same cards")
	backs := fs.Bool("backs", false, "add card backs, mirrored for double-sided printing")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("print: unexpected argument %q; name the output with --out FILE.pdf", fs.Arg(0))
	}
	sources := 0
	for _, v := range []string{req.edition, *words, *images} {
		if v != "" {
			sources++
		}
	}
	if sources > 1 {
		return usagef("print: give only one of --edition, --words and --images")
	}
	if sources == 0 && req.order == "" && req.perCard == "" {
		return usagef("print: say what to print: --edition NAME (%s), --order Q, --words FILE or --images DIR", strings.Join(deck.EditionNames(), ", "))
	}
	if *out == "" {
		return usagef("print: say where to write the PDF: --out FILE.pdf")
	}
	paper, err := print.LookupPaper(*paperName)
	if err != nil {
		return usagef("print: --paper %s: unknown; use a4 or letter", *paperName)
	}
	shape, err := layout.ParseShape(*shapeName)
	if err != nil {
		return usagef("print: --shape %s: unknown; use round or square", *shapeName)
	}
	size, err := strconv.ParseFloat(strings.TrimSpace(*cardMM), 64)
	if err != nil {
		return usagef("print: --card-mm %s: not a number of millimetres; the printed game's cards are about 80", *cardMM)
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(*seedText), 10, 64)
	if err != nil {
		return usagef("print: --seed %s: not a whole number from 0 to 18446744073709551615", *seedText)
	}
	opts := print.Options{Paper: paper, CardSize: size, Backs: *backs}
	if _, _, err := opts.Grid(); err != nil {
		return usagef("print: --card-mm %s: %v", *cardMM, err)
	}

	job := &print.Job{Options: opts}
	var what string
	switch {
	case req.edition != "":
		d, e, err := req.build()
		if err != nil {
			return reprefix(err)
		}
		fd, err := face.EditionDeck(e, shape, seed)
		if err != nil {
			return err
		}
		job.Deck, job.Title, job.Credit = fd, e.Title, art.Attribution
		job.BackTitle, _, _ = strings.Cut(e.Title, ":")
		if e.Singles {
			for s := 0; s < d.Symbols(); s++ {
				job.Singles = append(job.Singles, s)
			}
		}
		what = "edition " + e.Name
	case *words != "" || *images != "":
		if err := customDeck(job, &req, *words, *images, shape, seed, stderr); err != nil {
			return err
		}
		what = job.Title
	default:
		if err := checkPrintOrder(&req); err != nil {
			return err
		}
		d, _, err := req.build()
		if err != nil {
			return reprefix(err)
		}
		syms, which, err := face.DefaultSymbols(d.Symbols())
		if err != nil {
			return err
		}
		if d.Symbols() > symbols.Classic.Len() {
			fmt.Fprintf(stderr, "dobble: note: order %d has %d symbols, more than the %d classic pictures; the symbols are %s\n",
				d.Order(), d.Symbols(), symbols.Classic.Len(), which)
		} else {
			job.Credit = art.Attribution
		}
		fd, err := face.NewDeck(d, syms, shape, seed)
		if err != nil {
			return err
		}
		job.Deck = fd
		job.Title = fmt.Sprintf("order %d, %d cards × %d symbols", d.Order(), d.Len(), d.SymbolsPerCard())
		job.BackTitle = fmt.Sprintf("order %d", d.Order())
		what = "order " + strconv.Itoa(d.Order())
	}
	if err := job.WriteFile(*out); err != nil {
		var oe *print.OutputError
		if errors.As(err, &oe) {
			return usagef("print: --out %v", oe)
		}
		return err
	}
	cols, rows, _ := job.Grid()
	pages, _ := job.Pages()
	backNote := ""
	if job.Backs {
		backNote = "; every other page holds the mirrored backs: print double-sided, flipping on the long edge"
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %d cards on %d pages (%s, %d a page, %g mm %s cards)%s\n",
		*out, what, job.Cards(), pages, paper.Label(), cols*rows, size, shape, backNote)
	return nil
}

// reprefix turns a deck request's "deck: …" usage error into a "print: …"
// one.
func reprefix(err error) error {
	var ue *usageError
	if errors.As(err, &ue) {
		if rest, ok := strings.CutPrefix(ue.msg, "deck: "); ok {
			return usagef("print: %s", rest)
		}
	}
	return err
}

// requestedOrder returns the order that --order or --symbols-per-card asks
// for, or 0 when neither is given.
func requestedOrder(req *deckRequest) (int, error) {
	switch {
	case req.order != "" && req.perCard != "":
		return 0, usagef("print: give only one of --order and --symbols-per-card")
	case req.order != "":
		q, err := parseOrder(req.order)
		return q, reprefix(err)
	case req.perCard != "":
		k, err := parseSymbolsPerCard(req.perCard)
		return k - 1, reprefix(err)
	}
	return 0, nil
}

// checkPrintOrder refuses orders whose cards are too crowded to print.
func checkPrintOrder(req *deckRequest) error {
	q, err := requestedOrder(req)
	if err != nil {
		return err
	}
	if q > print.MaxOrder {
		m := print.MaxOrder
		return usagef("print: order %d: cards of %d symbols are too crowded to print; the largest order that prints is %d (%d cards × %d symbols)",
			q, q+1, m, m*m+m+1, m+1)
	}
	return nil
}

// customDeck prepares a deck from a words file or an images folder: the
// order is the one asked for or the largest the symbols fill; symbols
// beyond the deck's needs are left out with a note on stderr.
func customDeck(job *print.Job, req *deckRequest, words, images string, shape layout.Shape, seed uint64, stderr io.Writer) error {
	var syms []*face.Symbol
	var err error
	flag, source, unit := "--words", words, "words"
	if words != "" {
		syms, err = face.ReadWords(words)
	} else {
		flag, source, unit = "--images", images, "pictures"
		syms, err = face.ReadImages(images)
	}
	if err != nil {
		return usagef("print: %s %v", flag, err)
	}
	if err := checkPrintOrder(req); err != nil {
		return err
	}
	q, err := requestedOrder(req)
	if err != nil {
		return err
	}
	cards := 0
	if req.cards != "" {
		v, err := strconv.Atoi(req.cards)
		if err != nil || v < 2 {
			return usagef("print: --cards %s: not a card count; use a whole number of at least 2", req.cards)
		}
		cards = v
	}
	d, err := print.DeckFor(len(syms), q, cards)
	var few *print.TooFewError
	var ce *deck.CardsError
	switch {
	case errors.As(err, &few):
		return usagef("print: %s", tooFew(few, flag, source, unit, q))
	case errors.As(err, &ce):
		return usagef("print: %v", ce)
	case err != nil:
		return usagef("print: %v", err)
	}
	if extra := len(syms) - d.Symbols(); extra > 0 {
		var names []string
		for i, s := range syms[d.Symbols():] {
			if i == 5 {
				names = append(names, "…")
				break
			}
			names = append(names, strconv.Quote(s.Name))
		}
		left := fmt.Sprintf("the last %d are left out", extra)
		if extra == 1 {
			left = "the last one is left out"
		}
		fmt.Fprintf(stderr, "dobble: note: %s has %d %s; the order-%d deck (%d cards × %d symbols) uses %d, so %s: %s\n",
			source, len(syms), unit, d.Order(), d.Len(), d.SymbolsPerCard(), d.Symbols(), left, strings.Join(names, ", "))
	}
	fd, err := face.NewDeck(d, syms, shape, seed)
	if err != nil {
		return err
	}
	job.Deck = fd
	job.Title = deckTitle(source)
	return nil
}

// tooFew explains a custom deck with too few symbols: how many are needed,
// and which order the symbols given would fill.
func tooFew(e *print.TooFewError, flag, source, unit string, q int) string {
	if q == 0 {
		return fmt.Sprintf("%s %s has %d %s; the smallest deck (order 2: 7 cards × 3 symbols) needs %d: add %d more",
			flag, source, e.Have, unit, e.Need, e.Need-e.Have)
	}
	msg := fmt.Sprintf("order %d needs %d symbols but %s %s has %d %s", q, e.Need, flag, source, e.Have, unit)
	if e.Fits != nil {
		return msg + fmt.Sprintf("; %d fill order %d (%d cards × %d symbols): use --order %d, or add %d more",
			e.Have, e.Fits.Order(), e.Fits.Len(), e.Fits.SymbolsPerCard(), e.Fits.Order(), e.Need-e.Have)
	}
	return msg + fmt.Sprintf("; add %d more", e.Need-e.Have)
}

// deckTitle names a custom deck after its source file or folder.
func deckTitle(source string) string {
	base := strings.TrimRight(source, "/\\")
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if base == "" {
		return "custom deck"
	}
	return base
}
