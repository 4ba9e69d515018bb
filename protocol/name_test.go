package protocol

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestNames checks the nicknames hello accepts, as they are kept, and
// the ones it refuses, with what the error says.
func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		err        string // a part of the error's message; "" when accepted
	}{
		{"ann", "ann", ""},
		{"  Zoë 🙂 ", "Zoë 🙂", ""},
		{"<b>ann</b>", "<b>ann</b>", ""},
		{"李小龙", "李小龙", ""},
		{"שלום", "שלום", ""},                 // right-to-left letters are letters
		{"سلام‌جان", "سلام‌جان", ""},         // a zero-width non-joiner between Persian words
		{"👨‍👩‍👧", "👨‍👩‍👧", ""},               // an emoji sequence joined by zero-width joiners
		{"❤️", "❤️", ""},                     // a symbol with its variation selector
		{"ann\u200bbob", "ann\u200bbob", ""}, // a zero-width space between visible letters
		{"?", "?", ""},
		{"bot", "bot", ""},
		{"robot:expert", "robot:expert", ""},
		{"bot-expert", "bot-expert", ""},
		{"bot :)", "bot :)", ""},
		{strings.Repeat("é", MaxName), strings.Repeat("é", MaxName), ""},

		{"", "", "a name of 0 characters"},
		{"   ", "", "a name of 0 characters"},
		{strings.Repeat("x", MaxName+1), "", "a name of 25 characters"},
		{"a\tb", "", "control character U+0009"},
		{"a\x00", "", "control character U+0000"},
		{"bot:expert", "", `"bot:"`},
		{"Bot:easy", "", `"bot:"`},
		{"BOT:", "", `"bot:"`},
		{"\u200bbot:expert", "", `"bot:"`},
		{"ｂｏｔ：hard", "", `"bot:"`}, // full-width letters and colon
		{"bot\u200d:hard", "", `"bot:"`},
		{"ann\u202ebob", "", "U+202E"},
		{"\u202e", "", "U+202E"},
		{"\u2066ann\u2069", "", "U+2066"},
		{"ann\u200e", "", "U+200E"},
		{"\u200fann", "", "U+200F"},
		{"ann\u061c", "", "U+061C"},
		{"\u202a\u202b\u202c\u202d", "", "U+202A"},
		{"\u200b", "", "visible"},
		{"\u200b\u200c\u200d\ufeff", "", "visible"},
		{"\u3000\u2800\u3164", "", "visible"}, // an ideographic space, a blank Braille pattern, a Hangul filler
		{"\u00ad\u034f\u115f\ufe0f", "", "visible"},
		{"\u0301\u0302", "", "visible"}, // combining marks with nothing to sit on
		{"\U000e0041\U000e0042", "", "visible"},
	} {
		got, err := cleanName(tc.name)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%+q refused: %v", tc.name, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("%+q kept as %+q, want %+q", tc.name, got, tc.want)
		case tc.err != "" && err == nil:
			t.Errorf("%+q accepted as %+q; want it refused (%s)", tc.name, got, tc.err)
		case tc.err != "" && (err.Code != CodeBadRequest || !strings.Contains(err.Message, tc.err)):
			t.Errorf("%+q: %v; want badRequest saying %s", tc.name, err, tc.err)
		}
	}
}

// TestNameErrorsSayWhatIsAccepted checks that every refusal names what a
// nickname may be.
func TestNameErrorsSayWhatIsAccepted(t *testing.T) {
	for _, name := range []string{"", "bot:easy", "a\u202eb", "\u200b", "a\x01"} {
		_, err := cleanName(name)
		if err == nil || !strings.Contains(err.Message, "a nickname is") {
			t.Errorf("%+q: %v; want the error to say what a nickname is", name, err)
		}
	}
}

// FuzzName checks that whatever the validator accepts is a trimmed
// nickname of 1 to MaxName characters with a visible character, no
// control or bidirectional formatting character and no bot's prefix, that
// it accepts what it returns as it is, and that it never panics.
func FuzzName(f *testing.F) {
	for _, s := range []string{"ann", "bot:expert", "\u202e", "\u200b\u200d", "👨‍👩‍👧", "ｂｏｔ：x", " a ", "\u0301", "a\u0301", "\xff", "\u3164x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := cleanName(s)
		if err != nil {
			if err.Code != CodeBadRequest || err.Message == "" {
				t.Fatalf("%+q: %v", s, err)
			}
			return
		}
		n := utf8.RuneCountInString(got)
		if n < 1 || n > MaxName || !utf8.ValidString(got) || got != strings.TrimSpace(got) {
			t.Fatalf("%+q accepted as %+q (%d characters)", s, got, n)
		}
		visible := false
		for _, r := range got {
			if unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c {
				t.Fatalf("%+q accepted as %+q with %U", s, got, r)
			}
			// Drawn as something: graphic, and neither a space, a format
			// character, a mark, a default-ignorable filler nor blank
			// Braille.
			if unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.In(r, unicode.Cf, unicode.M, unicode.Other_Default_Ignorable_Code_Point) && r != 0x2800 {
				visible = true
			}
		}
		if !visible {
			t.Fatalf("%+q accepted as %+q, which shows nothing", s, got)
		}
		if strings.HasPrefix(strings.ToLower(got), "bot:") || strings.HasPrefix(skeleton(got), "bot:") {
			t.Fatalf("%+q accepted as %+q, which reads as a bot's name", s, got)
		}
		if again, err := cleanName(got); err != nil || again != got {
			t.Fatalf("%+q accepted as %+q, which is then %+q, %v", s, got, again, err)
		}
	})
}
