package session

import "fmt"

// enumText returns the name of value v in names, or a placeholder naming
// the type for a value without a name.
func enumText(names []string, v int, typ string) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// enumParse returns the index of text in names, or an error listing the
// accepted names.
func enumParse(names []string, text []byte, typ string) (int, error) {
	for i, n := range names {
		if n == string(text) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("session: %q is not a %s; use one of %q", text, typ, names)
}

// enumMarshal returns the name of v as JSON text, failing for a value
// without a name so that no record ever holds a placeholder.
func enumMarshal(names []string, v int, typ string) ([]byte, error) {
	if v >= 0 && v < len(names) && names[v] != "" {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("session: %s(%d) has no name", typ, v)
}
