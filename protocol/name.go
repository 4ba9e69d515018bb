package protocol

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// BotPrefix begins the name of every bot's seat ("bot:LEVEL", or
// "bot:LEVEL N" where several bots of a level share a room), in the
// lobby, the records and the history; no person's nickname may read as
// one.
const BotPrefix = "bot:"

// nameRule says what a nickname may be; every refusal of one ends with it.
var nameRule = fmt.Sprintf("a nickname is 1 to %d characters, at least one of them visible (a letter, a digit, a punctuation mark or a symbol), "+
	"with no control or bidirectional formatting characters, and does not begin with %q", MaxName, BotPrefix)

// cleanName checks and trims a nickname (see nameRule). Markup is kept as
// typed: it is text, and every client shows it as text. Invisible
// characters between visible ones are kept (a zero-width joiner makes one
// emoji of several, a non-joiner spells Persian words), but a name must
// show something, and the characters that reorder the text around them
// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are refused
// anywhere: in a list of seats they would turn the names after them.
func cleanName(name string) (string, *Error) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxName {
		return "", Errorf(CodeBadRequest, "a name of %d characters: %s", n, nameRule)
	}
	visible := false
	for _, r := range name {
		switch {
		case r == utf8.RuneError || unicode.IsControl(r):
			return "", Errorf(CodeBadRequest, "the name holds the control character %U: %s", r, nameRule)
		case bidiControl(r):
			return "", Errorf(CodeBadRequest, "the name holds %U, a bidirectional formatting character that reorders the text around it: %s", r, nameRule)
		}
		visible = visible || shows(r)
	}
	if !visible {
		return "", Errorf(CodeBadRequest, "the name %+q shows nothing: %s", name, nameRule)
	}
	if strings.HasPrefix(skeleton(name), BotPrefix) {
		return "", Errorf(CodeBadRequest, "the name %q reads as a bot's (%sLEVEL): %s", name, BotPrefix, nameRule)
	}
	return name, nil
}

// bidiControl reports whether r is one of Unicode's bidirectional
// formatting characters: the embeddings and overrides U+202A–U+202E, the
// isolates U+2066–U+2069 and the marks U+200E, U+200F and U+061C.
func bidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// shows reports whether r is drawn as something on its own: a letter, a
// digit, a punctuation mark or a symbol that is not one of the characters
// Unicode says to draw as nothing (the Hangul fillers among them), nor
// the blank Braille pattern. Spaces, format characters (zero-width ones,
// tags) and combining marks do not show by themselves.
func shows(r rune) bool {
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S) &&
		!unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) && r != 0x2800
}

// skeleton is name as a reader sees it, to compare with the bot's
// prefix: in compatibility form (full-width letters are letters), without
// the characters that do not show between others (format characters,
// combining marks left on their own, fillers), in lower case.
func skeleton(name string) string {
	name = norm.NFKC.String(name)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, name)
}
