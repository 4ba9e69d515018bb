package wsframe

import (
	"bytes"
	"testing"
)

// TestAppendHeader checks the three length forms of RFC 6455 §5.2 at
// their bounds, masked and not.
func TestAppendHeader(t *testing.T) {
	for _, tc := range []struct {
		op     byte
		n      int
		masked bool
		want   []byte
	}{
		{Text, 0, false, []byte{0x81, 0}},
		{Text, 125, false, []byte{0x81, 125}},
		{Text, 126, false, []byte{0x81, 126, 0, 126}},
		{Text, 65535, true, []byte{0x81, 0x80 | 126, 0xff, 0xff}},
		{Text, 65536, false, []byte{0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}},
		{0x8, 2, true, []byte{0x88, 0x82}}, // close
		{0xa, 4, true, []byte{0x8a, 0x84}}, // pong
	} {
		if got := AppendHeader([]byte{9}, tc.op, tc.n, tc.masked); !bytes.Equal(got, append([]byte{9}, tc.want...)) {
			t.Errorf("AppendHeader(op %#x, %d, masked %v) = % x, want % x", tc.op, tc.n, tc.masked, got[1:], tc.want)
		}
	}
}
