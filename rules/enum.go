package rules

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
		if n != "" && n == string(text) {
			return i, nil
		}
	}
	var valid []string
	for _, n := range names {
		if n != "" {
			valid = append(valid, n)
		}
	}
	return 0, fmt.Errorf("rules: %q is not a %s; use one of %q", text, typ, valid)
}

// enumAppend appends the name of v to b, failing as enumMarshal does: it
// is the encoding.TextAppender of the enums, which an encoder uses to
// write a name without allocating.
func enumAppend(b []byte, names []string, v int, typ string) ([]byte, error) {
	if v >= 0 && v < len(names) && names[v] != "" {
		return append(b, names[v]...), nil
	}
	return b, fmt.Errorf("rules: %s(%d) has no name", typ, v)
}

// enumMarshal returns the name of v as JSON text, failing for a value
// without a name so that no record ever holds a placeholder.
func enumMarshal(names []string, v int, typ string) ([]byte, error) {
	if v >= 0 && v < len(names) && names[v] != "" {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("rules: %s(%d) has no name", typ, v)
}
