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
var names = func() []string {
	n := []string{"pile", "centre", "claim", "move", "stock", "won", "over", "tooLate", "gameOver",
		"aside", "ring", "layout", "slot", "lost", "out", "shuffle", "round",
		"facedown", "study", "turned", "row", "hand", "discard", "turn", "flip", "mark", "write", "score", "stop",
		"phase", "secret", "look", "answer", "timeUp"}
	for _, g := range rules.Games() {
		n = append(n, g.Info().Name)
	}
	return n
}()

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

// reuse returns xs emptied, to be read into again: a list, never nil, as
// encoding/json reads [] and the rules make an empty list.
func reuse[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs[:0]
}

// View reads a rules.View into v, reusing its lists: those of the view
// read into v before, which must no longer be in use. It reads every key
// the json tags of rules.View, ZoneView and CardView name, as encoding/
// json reads them, but the seats and the result, which a program playing
// from the view does not need; TestScannerReadsEveryKey reads the keys
// from the tags, so that a field added to a view fails it until it is
// read here. The view's extra, which only some games have, is decoded
// with encoding/json into the game's own type (rules.View.DecodeExtra).
func (s *Scanner) View(v *rules.View) {
	*v = rules.View{Zones: reuse(v.Zones), Seats: v.Seats[:0], Turn: rules.NoSeat}
	var extra []byte
	s.Object(func(k []byte) {
		switch string(k) {
		case "game":
			v.Game = s.Name()
		case "seat":
			v.Seat = s.Int()
		case "version":
			v.Version = uint64(s.Int())
		case "players":
			v.Players = s.Int()
		case "round":
			v.Round = s.Int()
		case "over":
			v.Over = s.Bool()
		case "turn":
			v.Turn = s.Int()
		case "deadline":
			v.Deadline = int64(s.Int())
		case "extra":
			s.space()
			at := s.i
			s.Skip()
			extra = s.b[at:s.i]
		case "zones":
			s.Array(func() {
				v.Zones = grow(v.Zones)
				z := &v.Zones[len(v.Zones)-1]
				*z = rules.ZoneView{Cards: reuse(z.Cards)}
				s.Object(func(k []byte) {
					switch string(k) {
					case "zone":
						z.Zone = s.Int()
					case "kind":
						z.Kind = rules.ZoneKind(s.Name())
					case "seat":
						z.Seat = s.Int()
					case "show":
						if z.Show.UnmarshalText(s.RawString()) != nil {
							s.fail()
						}
					case "count":
						z.Count = s.Int()
					case "cards":
						s.Array(func() {
							z.Cards = grow(z.Cards)
							c := &z.Cards[len(z.Cards)-1]
							*c = rules.CardView{Symbols: reuse(c.Symbols)}
							s.Object(func(k []byte) {
								switch string(k) {
								case "card":
									c.Card = s.Int()
								case "symbols":
									s.Array(func() { c.Symbols = append(c.Symbols, s.Int()) })
								default:
									s.Skip()
								}
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
	if s.err == nil && v.DecodeExtra(extra) != nil {
		s.fail()
	}
}
