// Package serveproc holds what the harnesses that run a real `dobble
// serve` process (internal/crash, internal/hostile, the cluster's tests)
// share: building the binary (once for the tests of a package), reading the process's output line by line
// while keeping its last lines for a report, and finding where it serves.
package serveproc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Build compiles the dobble command into dir and returns the binary's
// path. It runs the go command, and must be called from inside the
// module's tree.
func Build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "dobble")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/dobble-dev/dobble/cmd/dobble").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/dobble: %v\n%s", err, out)
	}
	return bin, nil
}

// TB is what Binary needs of a test; *testing.T and testing.TB have it.
type TB interface {
	Helper()
	Fatal(args ...any)
}

// Binary is the dobble binary built once for the tests of a package, in
// a temporary folder that Run removes once they have run. A test package
// holds one in a variable, calls Path from its tests, and Run from its
// TestMain: os.Exit(bin.Run(m)).
type Binary struct {
	// Prefix starts the temporary folder's name.
	Prefix string

	once sync.Once
	dir  string
	path string
	err  error
}

// Path returns the binary, building it the first time; it fails t where
// the build fails (the go command missing among them).
func (b *Binary) Path(t TB) string {
	t.Helper()
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", b.Prefix); b.err == nil {
			b.path, b.err = Build(context.Background(), b.dir)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Run runs the tests of m, then removes the folder of the binary where
// one was built, and returns m's exit code.
func (b *Binary) Run(m interface{ Run() int }) int {
	code := m.Run()
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
	return code
}

// tailSize is how much of a process's output a Tail keeps.
const tailSize = 8192

// Tail keeps the last 8 KB written to it. It is safe for concurrent use.
type Tail struct {
	mu sync.Mutex
	b  []byte
}

// Write keeps p, dropping what falls out of the last 8 KB.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > tailSize {
		t.b = append(t.b[:0], t.b[len(t.b)-tailSize:]...)
	}
	return len(p), nil
}

// String returns what is kept, without surrounding space.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}

// Lines calls F with every line written to it, without its newline; a
// line longer than 64 KB is dropped.
type Lines struct {
	F   func(line string)
	buf []byte
}

// Write passes on every whole line of p and keeps the rest.
func (l *Lines) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.F(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > 64<<10 {
		l.buf = l.buf[:0]
	}
	return len(p), nil
}

// Serving returns a writer for the standard output of dobble serve that
// sends on addrs the HOST:PORT of the line saying where it serves
// ("dobble: serving on http://127.0.0.1:PORT/ …"), without waiting: addrs
// should have room for one.
func Serving(addrs chan<- string) *Lines {
	return &Lines{F: func(line string) {
		if _, rest, ok := strings.Cut(line, "serving on http://"); ok {
			host, _, _ := strings.Cut(rest, "/")
			select {
			case addrs <- host:
			default:
			}
		}
	}}
}
