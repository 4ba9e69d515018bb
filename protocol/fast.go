package protocol

// readFast reads frame b into r and f when it is a JSON object whose keys
// are fields of a request spelled as the protocol spells them and whose
// values are strings without escapes, whole numbers of at most 18 digits,
// or (for "target") arrays of them: it then sets what readJSON would and
// reports true. For anything else it reports false, leaving r and f in
// any state, and the frame goes to encoding/json. b is valid UTF-8.
func readFast(b []byte, r *Request, f *frame) bool {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return false // no "type": encoding/json says so
	}
	for {
		key, j, ok := plainString(b, i)
		if !ok {
			return false
		}
		i = skipSpace(b, j)
		if i == len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		switch string(key) {
		case "type", "id", "name", "lang", "token", "game", "room":
			v, j, ok := plainString(b, i)
			if !ok {
				return false
			}
			switch string(key) {
			case "type":
				f.typ = v
			case "id":
				r.ID = string(v)
			case "name":
				r.Name = string(v)
			case "lang":
				r.Lang = string(v)
			case "token":
				r.Token = string(v)
			case "game":
				r.Game = string(v)
			case "room":
				f.room = b[i:j]
			}
			i = j
		case "v", "seat", "symbol", "table":
			n, j, ok := wholeNumber(b, i)
			if !ok {
				return false
			}
			switch string(key) {
			case "v":
				r.V = n
			case "seat":
				r.Seat = n
				f.has |= hasSeat
			case "symbol":
				r.Action.Symbol = n
				f.has |= hasSymbol
			case "table":
				r.Table = n
				f.has |= hasTable
			}
			i = j
		case "version":
			n, j, ok := wholeNumber(b, i)
			if !ok || n < 0 {
				return false
			}
			r.Action.Version = uint64(n)
			f.has |= hasVersion
			i = j
		case "target":
			if i == len(b) || b[i] != '[' {
				return false
			}
			f.targets = 0
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			for {
				n, j, ok := wholeNumber(b, i)
				if !ok {
					return false
				}
				f.addTarget(n)
				i = skipSpace(b, j)
				if i == len(b) {
					return false
				}
				if b[i] == ']' {
					i++
					break
				}
				if b[i] != ',' {
					return false
				}
				i = skipSpace(b, i+1)
			}
		default:
			return false
		}
		i = skipSpace(b, i)
		if i == len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
			continue
		case '}':
			return skipSpace(b, i+1) == len(b)
		}
		return false
	}
}

// skipSpace returns the index of the first byte from i on that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a JSON string without escapes or control characters
// at b[i]: its bytes without the quotes, and the index after it.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i == len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// wholeNumber reads a JSON integer of at most 18 digits at b[i], and
// returns the index after it; a number with a fraction or an exponent is
// not one.
func wholeNumber(b []byte, i int) (int, int, bool) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start, n := i, 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int(b[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || digits > 18 || (b[start] == '0' && digits > 1) {
		return 0, 0, false
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0, 0, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}
