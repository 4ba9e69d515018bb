package load

import (
	"encoding/json"

	"github.com/dobble-dev/dobble/internal/clientplay"
	"github.com/dobble-dev/dobble/rules"
)

// The clients read the messages that come by the thousand a second
// (update, refused) with clientplay's scanner instead of encoding/json:
// twenty thousand clients decoding every update through reflection would
// take more of the machine than the server they measure. Every other
// message goes through encoding/json.

// decode reads a server message into m: update and refused messages with
// the scanner, the others with encoding/json. The view of an update is
// read into spare, when given, reusing its lists.
func decode(b []byte, m *message, spare *rules.View) error {
	m.View = nil
	s := clientplay.NewScanner(b)
	// The server writes "type" first.
	s.Expect('{')
	if string(s.RawString()) != "type" {
		return json.Unmarshal(b, m)
	}
	s.Expect(':')
	typ := s.RawString()
	if err := s.Err(); err != nil {
		return err
	}
	switch string(typ) {
	case "update":
		m.Type = "update"
	case "refused":
		m.Type = "refused"
	default:
		return json.Unmarshal(b, m)
	}
	s = clientplay.NewScanner(b)
	s.Object(func(k []byte) {
		switch string(k) {
		case "id":
			m.ID = string(s.RawString())
		case "code":
			m.Code = s.Name()
		case "table":
			m.Table = s.Int()
		case "events":
			m.Events = m.Events[:0]
			s.Array(func() {
				var e event
				s.Object(func(k []byte) {
					switch string(k) {
					case "kind":
						e.Kind = s.Name()
					case "seat":
						e.Seat = s.Int()
					default:
						s.Skip()
					}
				})
				m.Events = append(m.Events, e)
			})
		case "view":
			if spare == nil {
				spare = &rules.View{}
			}
			m.View = spare
			s.View(spare)
		default:
			s.Skip()
		}
	})
	return s.Err()
}
