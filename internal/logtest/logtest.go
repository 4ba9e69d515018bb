// Package logtest holds what tests use to read a log that the code under
// test writes from goroutines of its own.
package logtest

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer that several goroutines may write and read at
// once: give it to a logger (slog.NewTextHandler(&buf, nil)) and read what
// was logged with String while the code under test goes on. The zero
// Buffer is empty and ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
