package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/dobble-dev/dobble/deck"
)

const deckSynopsis = `dobble deck --order Q | --symbols-per-card K | --edition NAME [--cards M] [--format json|text]
       dobble deck verify FILE | - | --order Q [--cards M] | --symbols-per-card K | --edition NAME

Writes a deck to standard output: every two cards share exactly one symbol.
JSON: {"order":Q,"symbols":S,"cards":[[ids…],…]} (editions add "edition",
"symbol_names" and, for pancakes, "single_cards"). Text: one card a line.

verify checks a deck file in either format (- for standard input), or a
generated deck: exit 0 and a summary if valid, 1 and the first bad pair if
not, 2 if the input is unreadable or malformed.`

// deckRequest is the deck selected by --order, --symbols-per-card or
// --edition, plus --cards.
type deckRequest struct {
	order, perCard, edition, cards string
}

func (r *deckRequest) register(fs interface {
	StringVar(p *string, name, value, usage string)
}) {
	fs.StringVar(&r.order, "order", "", "plane order Q, a prime power (2, 3, 4, 5, 7, 8, 9, 11, …): Q²+Q+1 cards of Q+1 symbols")
	fs.StringVar(&r.perCard, "symbols-per-card", "", "symbols per card K; the same as --order K-1")
	fs.StringVar(&r.edition, "edition", "", "a published edition: "+strings.Join(deck.EditionNames(), ", "))
	fs.StringVar(&r.cards, "cards", "", "keep only the first M cards (2..Q²+Q+1); any subset keeps the one-match rule")
}

func (r *deckRequest) given() bool {
	return r.order != "" || r.perCard != "" || r.edition != ""
}

// build resolves the request to a deck (and its edition, if one was named).
func (r *deckRequest) build() (*deck.Deck, *deck.Edition, error) {
	n := 0
	for _, v := range []string{r.order, r.perCard, r.edition} {
		if v != "" {
			n++
		}
	}
	if n == 0 {
		return nil, nil, usagef("deck: say which deck: --order Q, --symbols-per-card K or --edition NAME (%s)", strings.Join(deck.EditionNames(), ", "))
	}
	if n > 1 {
		return nil, nil, usagef("deck: give only one of --order, --symbols-per-card and --edition")
	}
	if r.edition != "" {
		if r.cards != "" {
			return nil, nil, usagef("deck: --cards cannot be combined with --edition %s: an edition has a fixed set of cards; use --order instead", r.edition)
		}
		e, err := deck.LookupEdition(r.edition)
		if err != nil {
			return nil, nil, usagef("deck: %v", err)
		}
		d, err := e.Deck()
		if err != nil {
			return nil, nil, err
		}
		return d, e, nil
	}
	var q int
	if r.order != "" {
		v, err := parseOrder(r.order)
		if err != nil {
			return nil, nil, err
		}
		q = v
	} else {
		k, err := parseSymbolsPerCard(r.perCard)
		if err != nil {
			return nil, nil, err
		}
		q = k - 1
	}
	cards := 0
	if r.cards != "" {
		v, err := strconv.Atoi(r.cards)
		if err != nil || v < 2 {
			return nil, nil, usagef("deck: --cards %s: not a card count; use a whole number from 2 to %d", r.cards, q*q+q+1)
		}
		cards = v
	}
	d, err := deck.New(q, cards)
	if err != nil {
		return nil, nil, usagef("deck: %v", err)
	}
	return d, nil, nil
}

// parseOrder parses --order, refusing with the reason and the orders that
// would work.
func parseOrder(s string) (int, error) {
	q, err := parseWhole(s)
	if err != nil {
		return 0, usagef("deck: order %s: not a whole number; use a prime power such as 2, 3, 4, 5, 7, 8, 9, 11, 13, 16", s)
	}
	var oe *deck.OrderError
	if err := deck.CheckOrder(q); errors.As(err, &oe) {
		// Echo the order as given: parseWhole saturates huge values.
		return 0, usagef("deck: order %s: %s; %s", s, oe.Reason(), oe.Suggestion())
	}
	return q, nil
}

// parseSymbolsPerCard parses --symbols-per-card and explains a K for which
// no deck exists in terms of symbols per card.
func parseSymbolsPerCard(s string) (int, error) {
	k, err := parseWhole(s)
	if err != nil {
		return 0, usagef("deck: --symbols-per-card %s: not a whole number; use one more than a prime power: 3, 4, 5, 6, 8, 9, 10, 12, 14, 17", s)
	}
	err = deck.CheckOrder(k - 1)
	if err == nil {
		return k, nil
	}
	var oe *deck.OrderError
	if !errors.As(err, &oe) {
		return 0, err
	}
	per := func(q int) string { return fmt.Sprintf("%d (order %d, %d cards)", q+1, q, q*q+q+1) }
	switch oe.Problem {
	case deck.TooSmall:
		return 0, usagef("deck: --symbols-per-card %s: too small; the smallest is %s", s, per(deck.MinOrder))
	case deck.TooLarge:
		return 0, usagef("deck: --symbols-per-card %s: too large; the largest is %s", s, per(deck.MaxOrder))
	}
	var near []string
	for _, q := range []int{oe.Below, oe.Above} {
		if q != 0 {
			near = append(near, per(q))
		}
	}
	return 0, usagef("deck: --symbols-per-card %s needs order %d: %s; nearest: %s symbols a card",
		s, k-1, oe.Reason(), strings.Join(near, " or "))
}

// parseWhole parses a decimal integer; values beyond int range saturate so
// that "99999999999999999999" is reported as too large, not as garbage.
func parseWhole(s string) (int, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	var ne *strconv.NumError
	if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
		return int(v), nil // ParseInt returns the saturated value
	}
	return int(v), err
}

func runDeck(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "verify" {
		return runDeckVerify(args[1:], stdin, stdout)
	}
	fs := newFlags("deck", deckSynopsis, stdout)
	var req deckRequest
	req.register(fs)
	format := fs.String("format", "json", "output format: json or text")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("deck: unexpected argument %q; to check a file use: dobble deck verify FILE", fs.Arg(0))
	}
	if *format != "json" && *format != "text" {
		return usagef("deck: --format %s: unknown; use json or text", *format)
	}
	d, e, err := req.build()
	if err != nil {
		return err
	}
	if *format == "text" {
		return deck.WriteText(stdout, d)
	}
	return deck.WriteJSON(stdout, d, e)
}

func runDeckVerify(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlags("deck verify", deckSynopsis, stdout)
	var req deckRequest
	req.register(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if req.given() {
		if fs.NArg() > 0 {
			return usagef("deck verify: give a FILE or a deck (--order, --symbols-per-card, --edition), not both")
		}
		return verifyGenerated(&req, stdout)
	}
	if req.cards != "" {
		return usagef("deck verify: --cards goes with --order or --symbols-per-card")
	}
	if fs.NArg() != 1 {
		return usagef("deck verify: give one FILE (or - for standard input), or a deck: --order Q, --symbols-per-card K or --edition NAME")
	}
	name := fs.Arg(0)
	var in io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return usagef("deck verify: cannot read %s: %v", name, unwrapPath(err))
		}
		defer f.Close()
		in = f
	} else {
		name = "standard input"
	}
	file, err := deck.Read(in)
	if err != nil {
		var fe *deck.FormatError
		if errors.As(err, &fe) {
			return usagef("deck verify: %s is not a deck file: %v", name, fe)
		}
		return usagef("deck verify: cannot read %s: %v", name, err)
	}
	rep, err := file.Cards.Verify()
	if err != nil {
		var flaw *deck.Flaw
		if errors.As(err, &flaw) {
			return &exitError{code: 1, msg: "invalid: " + flaw.Error()}
		}
		return &exitError{code: 1, msg: "invalid: " + err.Error()}
	}
	summary := describeReport(rep)
	if file.Singles != nil {
		if err := deck.VerifySingles(file.Cards, file.Singles); err != nil {
			return &exitError{code: 1, msg: "invalid: " + err.Error()}
		}
		summary += fmt.Sprintf("; plus %d one-symbol cards, each symbol at most once", file.Singles.Len())
	}
	fmt.Fprintln(stdout, "valid: "+summary)
	return nil
}

// describeReport renders a verification summary on one line.
func describeReport(r *deck.Report) string {
	span := func(lo, hi int) string {
		if lo == hi {
			return strconv.Itoa(lo)
		}
		return fmt.Sprintf("%d to %d", lo, hi)
	}
	s := fmt.Sprintf("%d cards, %d symbols, %s symbols a card, each symbol on %s cards; every two cards share exactly one symbol",
		r.Cards, r.Symbols, span(r.MinPerCard, r.MaxPerCard), span(r.MinPerSymbol, r.MaxPerSymbol))
	if r.Cyclic {
		s += fmt.Sprintf(" (lines of the cyclic plane of order %d: its %d differences are distinct)", r.MaxPerCard-1, r.MaxPerCard*(r.MaxPerCard-1))
	}
	return s
}

// verifyGenerated builds the requested deck and verifies it from its
// structure, without writing it out.
func verifyGenerated(req *deckRequest, stdout io.Writer) error {
	d, e, err := req.build()
	if err != nil {
		return err
	}
	if err := d.Verify(); err != nil {
		return &exitError{code: 1, msg: "invalid: " + err.Error()}
	}
	name := fmt.Sprintf("order %d", d.Order())
	if e != nil {
		name = "edition " + e.Name + ", " + name
	}
	k := d.SymbolsPerCard()
	fmt.Fprintf(stdout, "valid: %s, %d cards, %d symbols, %d symbols a card; every two cards share exactly one symbol (the %d differences of the plane's difference set are distinct)\n",
		name, d.Len(), d.Symbols(), k, k*(k-1))
	return nil
}

// unwrapPath drops the path from an *os.PathError, which the message
// already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
