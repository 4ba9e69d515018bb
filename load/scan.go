package load

import (
	"encoding/json"
	"errors"
)

// The clients read the messages that come by the thousand a second
// (update, refused) with the small scanner below instead of encoding/json:
// twenty thousand clients decoding every update through reflection would
// take more of the machine than the server they measure. Every other
// message goes through encoding/json.

// errSyntax is a message the scanner could not read.
var errSyntax = errors.New("load: malformed JSON from the server")

// scanner reads one JSON text from the front of b.
type scanner struct {
	b   []byte
	i   int
	err error
}

func (s *scanner) fail() {
	if s.err == nil {
		s.err = errSyntax
	}
	s.i = len(s.b)
}

func (s *scanner) space() {
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
func (s *scanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// expect consumes byte c.
func (s *scanner) expect(c byte) {
	if s.peek() != c {
		s.fail()
		return
	}
	s.i++
}

// object calls f for each key of an object; f must consume the value.
func (s *scanner) object(f func(key []byte)) {
	s.expect('{')
	if s.peek() == '}' {
		s.i++
		return
	}
	for s.err == nil {
		k := s.rawString()
		s.expect(':')
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

// array calls f for each element of an array; f must consume it.
func (s *scanner) array(f func()) {
	s.expect('[')
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

// rawString returns the bytes of a string without its quotes, escapes
// left as they are (the keys and codes the clients compare have none).
func (s *scanner) rawString() []byte {
	s.expect('"')
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

// int reads an integer.
func (s *scanner) int() int {
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

// bool reads true or false.
func (s *scanner) bool() bool {
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

// skip consumes any value.
func (s *scanner) skip() {
	switch s.peek() {
	case '{':
		s.object(func([]byte) { s.skip() })
	case '[':
		s.array(s.skip)
	case '"':
		s.rawString()
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

// names are the strings the scanner meets again and again: game names and
// zone and event kinds, kept once rather than allocated for every message.
// Those of the claim games' updates come first, the most frequent first.
var names = []string{"pile", "centre", "claim", "move", "tower", "stock", "won", "over", "tooLate", "gameOver",
	"well", "duel", "hot-potato", "poisoned-gift", "catch-them-all", "subway-rescue", "triplets", "learning",
	"anarchy-pancakes", "tower-7", "aside", "ring", "layout", "slot", "lost", "out", "shuffle", "round",
	"reflection", "guess", "memory", "false-poker", "collect-symbols", "facedown", "study", "turned", "row",
	"hand", "discard", "turn", "flip", "mark", "write", "score", "stop", "phase", "secret", "look", "answer", "timeUp"}

// name returns b as a string, one of names when it is.
func name(b []byte) string {
	for _, n := range names {
		if string(b) == n {
			return n
		}
	}
	return string(b)
}

// decode reads a server message into m: update and refused messages with
// the scanner, the others with encoding/json. The view of an update is
// read into spare, when given, reusing its lists.
func decode(b []byte, m *message, spare *view) error {
	m.View = nil
	s := scanner{b: b}
	// The server writes "type" first.
	s.expect('{')
	if string(s.rawString()) != "type" {
		return json.Unmarshal(b, m)
	}
	s.expect(':')
	typ := s.rawString()
	if s.err != nil {
		return s.err
	}
	switch string(typ) {
	case "update":
		m.Type = "update"
	case "refused":
		m.Type = "refused"
	default:
		return json.Unmarshal(b, m)
	}
	s = scanner{b: b}
	s.object(func(k []byte) {
		switch string(k) {
		case "id":
			m.ID = string(s.rawString())
		case "code":
			m.Code = name(s.rawString())
		case "table":
			m.Table = s.int()
		case "events":
			m.Events = m.Events[:0]
			s.array(func() {
				var e event
				s.object(func(k []byte) {
					switch string(k) {
					case "kind":
						e.Kind = name(s.rawString())
					case "seat":
						e.Seat = s.int()
					default:
						s.skip()
					}
				})
				m.Events = append(m.Events, e)
			})
		case "view":
			if spare == nil {
				spare = &view{}
			}
			m.View = spare
			s.view(spare)
		default:
			s.skip()
		}
	})
	return s.err
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

// view reads a rules.View into v, reusing its lists.
func (s *scanner) view(v *view) {
	x := v.Extra
	*v = view{Zones: v.Zones[:0], Turn: -1, Extra: extra{
		Marked: x.Marked[:0], LastZone: -1, Symbols: x.Symbols[:0], Answers: x.Answers[:0], Host: -1,
		Flips: x.Flips[:0], Eliminated: x.Eliminated[:0], Out: x.Out[:0], Free: x.Free[:0], Tokens: x.Tokens[:0],
	}}
	s.object(func(k []byte) {
		switch string(k) {
		case "game":
			v.Game = name(s.rawString())
		case "seat":
			v.Seat = s.int()
		case "version":
			v.Version = uint64(s.int())
		case "round":
			v.Round = s.int()
		case "over":
			v.Over = s.bool()
		case "turn":
			v.Turn = s.int()
		case "deadline":
			v.Deadline = int64(s.int())
		case "extra":
			s.extra(v.Game, &v.Extra)
		case "zones":
			v.Zones = v.Zones[:0]
			s.array(func() {
				v.Zones = grow(v.Zones)
				z := &v.Zones[len(v.Zones)-1]
				*z = zone{Cards: z.Cards[:0]}
				s.object(func(k []byte) {
					switch string(k) {
					case "kind":
						z.Kind = name(s.rawString())
					case "seat":
						z.Seat = s.int()
					case "count":
						z.Count = s.int()
					case "cards":
						z.Cards = z.Cards[:0]
						s.array(func() {
							z.Cards = grow(z.Cards)
							c := &z.Cards[len(z.Cards)-1]
							c.Symbols = c.Symbols[:0]
							s.object(func(k []byte) {
								if string(k) != "symbols" {
									s.skip()
									return
								}
								s.array(func() { c.Symbols = append(c.Symbols, s.int()) })
							})
						})
					default:
						s.skip()
					}
				})
			})
		default:
			s.skip()
		}
	})
}

// ints reads an array of integers into xs, reusing it.
func (s *scanner) ints(xs []int) []int {
	xs = xs[:0]
	s.array(func() { xs = append(xs, s.int()) })
	return xs
}

// extra reads the "extra" of a view of game into x: the fields of the
// extra mini-games' views (rules.MemoryView and the others) that the
// clients use. A key means different things in different games (Memory's
// "last" is the card flipped last, Guess's the last secret), so the game,
// which the server writes before "extra", says which to read.
func (s *scanner) extra(game string, x *extra) {
	if s.peek() != '{' {
		s.skip()
		return
	}
	s.object(func(k []byte) {
		switch string(k) {
		case "marked":
			x.Marked = s.ints(x.Marked)
		case "last":
			if game != "memory" || s.peek() != '{' {
				s.skip()
				return
			}
			s.object(func(k []byte) {
				switch string(k) {
				case "zone":
					x.LastZone = s.int()
				case "taken":
					x.LastTaken = s.bool()
				default:
					s.skip()
				}
			})
		case "symbols":
			x.Symbols = s.ints(x.Symbols)
		case "phase":
			x.Phase = name(s.rawString())
		case "answers":
			x.Answers = s.ints(x.Answers)
		case "host":
			x.Host = s.int()
		case "flips":
			x.Flips = x.Flips[:0]
			s.array(func() {
				secret := false
				s.object(func(k []byte) {
					if string(k) == "secret" {
						secret = s.bool()
						return
					}
					s.skip()
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
			s.skip()
		}
	})
}

// UnmarshalJSON reads a view with the scanner, for the messages decoded
// with encoding/json (state).
func (v *view) UnmarshalJSON(b []byte) error {
	s := scanner{b: b}
	s.view(v)
	return s.err
}
