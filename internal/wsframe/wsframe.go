// Package wsframe writes the header of a WebSocket frame (RFC 6455 §5.2),
// for the server's and the load tool's connections, which frame their
// messages themselves to write each in one system call.
package wsframe

import "encoding/binary"

// Text is the opcode of a text frame.
const Text = 0x1

// AppendHeader appends to b the header of a final, extension-free frame
// of opcode op whose payload is n bytes: the opcode byte, the payload
// length in its shortest form and, when masked (a client's frames), the
// mask bit, the 4-byte mask key not included.
func AppendHeader(b []byte, op byte, n int, masked bool) []byte {
	var m byte
	if masked {
		m = 0x80
	}
	b = append(b, 0x80|op)
	switch {
	case n < 126:
		return append(b, m|byte(n))
	case n < 1<<16:
		return append(b, m|126, byte(n>>8), byte(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, m|127), uint64(n))
	}
}
