package crash

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/dobble-dev/dobble/internal/serveproc"
	"github.com/dobble-dev/dobble/load"
)

// Build compiles the dobble command into dir and returns the binary's
// path (serveproc.Build).
func Build(ctx context.Context, dir string) (string, error) { return serveproc.Build(ctx, dir) }

// startWithin bounds the wait for a server to serve.
const startWithin = time.Minute

// server is one dobble serve process.
type server struct {
	cmd  *exec.Cmd
	addr string // the HOST:PORT it serves on

	done chan struct{}   // closed when the process has ended
	err  error           // how it ended, once done is closed
	log  *serveproc.Tail // the end of what it wrote on stderr

	http *http.Client
}

// startServer starts bin serve on addr (127.0.0.1:0 for a free port) with
// the database db and the extra flags args, and waits until it serves. log
// keeps the end of what it writes on stderr, across restarts.
func startServer(ctx context.Context, bin, addr, db string, args []string, log *serveproc.Tail) (*server, error) {
	argv := append([]string{"serve", "--addr", addr, "--db", db}, args...)
	s := &server{done: make(chan struct{}), log: log, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}}
	serving := make(chan string, 1)
	s.cmd = exec.Command(bin, argv...)
	s.cmd.Stdout = serveproc.Serving(serving)
	s.cmd.Stderr = log
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("dobble serve: %w", err)
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	t := time.NewTimer(startWithin)
	defer t.Stop()
	select {
	case s.addr = <-serving:
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("dobble %s ended before it served: %v: %s", strings.Join(argv, " "), s.err, log)
	case <-t.C:
		s.kill()
		return nil, fmt.Errorf("dobble serve did not serve within %v: %s", startWithin, log)
	case <-ctx.Done():
		s.kill()
		return nil, ctx.Err()
	}
}

// kill ends the process at once with SIGKILL, as a crash would, and waits
// for it.
func (s *server) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
	s.http.CloseIdleConnections()
}

// stop asks the process to shut down with SIGTERM, as a deploy would, and
// waits for it; it kills it if it has not ended within a minute, and says
// so.
func (s *server) stop() error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	defer s.http.CloseIdleConnections()
	select {
	case <-s.done:
		if s.err != nil {
			return fmt.Errorf("dobble serve ended with %v after SIGTERM: %s", s.err, s.log)
		}
		return nil
	case <-t.C:
		s.kill()
		return fmt.Errorf("dobble serve had not ended a minute after SIGTERM, and was killed: %s", s.log)
	}
}

// scrape fetches and parses the server's metrics.
func (s *server) scrape(ctx context.Context) (load.Metrics, error) {
	return load.Scrape(ctx, s.http, "http://"+s.addr+"/metrics", 30*time.Second)
}
