package clientplay

import (
	"errors"

	"github.com/dobble-dev/dobble/rules"
)

// The load tool's clients read the messages that come by the thousand a
// second (update, refused) with the small scanner below instead of
// encoding/json: twenty thousand clients decoding every update through
// reflection would take more of the machine than the server they
// measure. It reads in place, without allocating, and reuses the lists of
// the View it reads into.

// ErrSyntax is a message the scanner could not read.
var ErrSyntax = errors.New("malformed JSON from the server")

// Scanner reads one JSON text from the front of a message. Once it meets
// what it cannot read it consumes the rest and Err reports ErrSyntax; its
// methods then return zero values.
type Scanner struct {
	b   []byte
	i   int
	err error
}

// NewScanner returns a Scanner at the start of b.
func NewScanner(b []byte) Scanner { return Scanner{b: b} }

// Err returns ErrSyntax once the scanner met what it could not read, nil
// until then.
func (s *Scanner) Err() error { return s.err }

func (s *Scanner) fail() {
	if s.err == nil {
		s.err = ErrSyntax
	}
	s.i = len(s.b)
}

func (s *Scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte that is not space, or 0 at the end.
func (s *Scanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// Expect consumes byte c, after any space.
func (s *Scanner) Expect(c byte) {
	if s.peek() != c {
		s.fail()
		return
	}
	s.i++
}

// Object calls f for each key of an object; f must consume the value.
func (s *Scanner) Object(f func(key []byte)) {
	s.Expect('{')
	if s.peek() == '}' {
		s.i++
		return
	}
	for s.err == nil {
		k := s.RawString()
		s.Expect(':')
		f(k)
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return
		default:
			s.fail()
		}
	}
}

// Array calls f for each element of an array; f must consume it.
func (s *Scanner) Array(f func()) {
	s.Expect('[')
	if s.peek() == ']' {
		s.i++
		return
	}
	for s.err == nil {
		f()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return
		default:
			s.fail()
		}
	}
}

// RawString returns the bytes of a string without its quotes, escapes
// left as they are (the keys and codes a client compares have none). The
// bytes are the message's own.
func (s *Scanner) RawString() []byte {
	s.Expect('"')
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
		case '"':
			s.i++
			return s.b[start : s.i-1]
		default:
			s.i++
		}
	}
	s.fail()
	return nil
}

// Name reads a string, as RawString does, and returns it as a string
// without allocating when it is one the server writes again and again: a
// game's name, a zone's or an event's kind, a refusal's code, a phase.
func (s *Scanner) Name() string {
	b := s.RawString()
	for _, n := range names {
		if string(b) == n {
			return n
		}
	}
	return string(b)
}

// names are the strings Name keeps once rather than allocating them for
// every message. Those of the claim games' updates come first, the most
// frequent first.
var names = []string{"pile", "centre", "claim", "move", "tower", "stock", "won", "over", "tooLate", "gameOver",
	"well", "duel", "hot-potato", "poisoned-gift", "catch-them-all", "subway-rescue", "triplets", "learning",
	"anarchy-pancakes", "tower-7", "aside", "ring", "layout", "slot", "lost", "out", "shuffle", "round",
	"reflection", "guess", "memory", "false-poker", "collect-symbols", "facedown", "study", "turned", "row",
	"hand", "discard", "turn", "flip", "mark", "write", "score", "stop", "phase", "secret", "look", "answer", "timeUp"}

// Int reads an integer.
func (s *Scanner) Int() int {
	s.space()
	neg := false
	if s.i < len(s.b) && s.b[s.i] == '-' {
		neg = true
		s.i++
	}
	n, digits := 0, 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		n = n*10 + int(s.b[s.i]-'0')
		s.i++
		digits++
	}
	if digits == 0 {
		s.fail()
	}
	if neg {
		return -n
	}
	return n
}

// Bool reads true or false.
func (s *Scanner) Bool() bool {
	s.space()
	switch {
	case len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true":
		s.i += 4
		return true
	case len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false":
		s.i += 5
		return false
	}
	s.fail()
	return false
}

// Skip consumes any value.
func (s *Scanner) Skip() {
	switch s.peek() {
	case '{':
		s.Object(func([]byte) { s.Skip() })
	case '[':
		s.Array(s.Skip)
	case '"':
		s.RawString()
	case 0:
		s.fail()
	default:
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			s.i++
		}
	}
}

// grow returns xs one element longer, reusing the element beyond its
// length when its array has one.
func grow[T any](xs []T) []T {
	if len(xs) < cap(xs) {
		return xs[:len(xs)+1]
	}
	var zero T
	return append(xs, zero)
}

// View reads a rules.View into v, reusing its lists: those of the view
// read into v before, which must no longer be in use.
func (s *Scanner) View(v *View) {
	x := v.Extra
	*v = View{Zones: v.Zones[:0], Turn: -1, Extra: Extra{
		Marked: x.Marked[:0], LastZone: -1, Symbols: x.Symbols[:0], Answers: x.Answers[:0], Host: -1,
		Flips: x.Flips[:0], Eliminated: x.Eliminated[:0], Out: x.Out[:0], Free: x.Free[:0], Tokens: x.Tokens[:0],
	}}
	// The extra is read once the game is known (extra), which the server
	// writes first; where it comes after the extra (encoding/json writes
	// a map's keys in order), the extra is read at the end.
	extraAt := -1
	s.Object(func(k []byte) {
		switch string(k) {
		case "game":
			v.Game = s.Name()
		case "seat":
			v.Seat = s.Int()
		case "version":
			v.Version = uint64(s.Int())
		case "round":
			v.Round = s.Int()
		case "over":
			v.Over = s.Bool()
		case "turn":
			v.Turn = s.Int()
		case "deadline":
			v.Deadline = int64(s.Int())
		case "extra":
			if v.Game == "" {
				s.space()
				extraAt = s.i
				s.Skip()
				return
			}
			s.extra(v.Game, &v.Extra)
		case "zones":
			v.Zones = v.Zones[:0]
			s.Array(func() {
				v.Zones = grow(v.Zones)
				z := &v.Zones[len(v.Zones)-1]
				*z = Zone{Cards: z.Cards[:0]}
				s.Object(func(k []byte) {
					switch string(k) {
					case "kind":
						z.Kind = rules.ZoneKind(s.Name())
					case "seat":
						z.Seat = s.Int()
					case "count":
						z.Count = s.Int()
					case "cards":
						z.Cards = z.Cards[:0]
						s.Array(func() {
							z.Cards = grow(z.Cards)
							c := &z.Cards[len(z.Cards)-1]
							c.Symbols = c.Symbols[:0]
							s.Object(func(k []byte) {
								if string(k) != "symbols" {
									s.Skip()
									return
								}
								s.Array(func() { c.Symbols = append(c.Symbols, s.Int()) })
							})
						})
					default:
						s.Skip()
					}
				})
			})
		default:
			s.Skip()
		}
	})
	if extraAt >= 0 && s.err == nil {
		e := Scanner{b: s.b[:s.i], i: extraAt}
		e.extra(v.Game, &v.Extra)
		if e.err != nil {
			s.fail()
		}
	}
}

// ints reads an array of integers into xs, reusing it.
func (s *Scanner) ints(xs []int) []int {
	xs = xs[:0]
	s.Array(func() { xs = append(xs, s.Int()) })
	return xs
}

// extra reads the "extra" of a view of game into x: the fields of the
// extra mini-games' views (rules.MemoryView and the others) that Decide
// uses. A key means different things in different games (Memory's "last"
// is the card flipped last, Guess's the last secret), so the game says
// which to read.
func (s *Scanner) extra(game string, x *Extra) {
	if s.peek() != '{' {
		s.Skip()
		return
	}
	s.Object(func(k []byte) {
		switch string(k) {
		case "marked":
			x.Marked = s.ints(x.Marked)
		case "last":
			if game != "memory" || s.peek() != '{' {
				s.Skip()
				return
			}
			s.Object(func(k []byte) {
				switch string(k) {
				case "zone":
					x.LastZone = s.Int()
				case "taken":
					x.LastTaken = s.Bool()
				default:
					s.Skip()
				}
			})
		case "symbols":
			x.Symbols = s.ints(x.Symbols)
		case "phase":
			x.Phase = s.Name()
		case "answers":
			x.Answers = s.ints(x.Answers)
		case "host":
			x.Host = s.Int()
		case "flips":
			x.Flips = x.Flips[:0]
			s.Array(func() {
				secret := false
				s.Object(func(k []byte) {
					if string(k) == "secret" {
						secret = s.Bool()
						return
					}
					s.Skip()
				})
				x.Flips = append(x.Flips, secret)
			})
		case "eliminated":
			x.Eliminated = s.ints(x.Eliminated)
		case "out":
			x.Out = s.ints(x.Out)
		case "free":
			x.Free = s.ints(x.Free)
		case "tokens":
			x.Tokens = s.ints(x.Tokens)
		default:
			s.Skip()
		}
	})
}

// UnmarshalJSON reads a view with the scanner, for the messages decoded
// with encoding/json (state).
func (v *View) UnmarshalJSON(b []byte) error {
	s := NewScanner(b)
	s.View(v)
	return s.err
}
