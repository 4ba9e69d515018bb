package hostile

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dobble-dev/dobble/internal/serveproc"
	"github.com/dobble-dev/dobble/load"
)

// Build compiles the dobble command into dir and returns the binary's
// path (serveproc.Build).
func Build(ctx context.Context, dir string) (string, error) { return serveproc.Build(ctx, dir) }

// server is a dobble serve process.
type server struct {
	cmd  *exec.Cmd
	pid  int
	addr string // the HOST:PORT it serves on

	done chan struct{}   // closed when the process has ended
	err  error           // how it ended, once done is closed
	log  *serveproc.Tail // the end of what it wrote on stderr

	http *http.Client // for its metrics and its health
}

// startServer starts bin serve on a free port of 127.0.0.1 with its
// database in dir and the extra flags args, and waits until it serves.
func startServer(ctx context.Context, bin, dir string, args []string) (*server, error) {
	argv := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "dobble.db")}, args...)
	s := &server{done: make(chan struct{}), log: &serveproc.Tail{}, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}}
	serving := make(chan string, 1)
	s.cmd = exec.Command(bin, argv...)
	s.cmd.Stdout = serveproc.Serving(serving)
	s.cmd.Stderr = s.log
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("dobble serve: %w", err)
	}
	s.pid = s.cmd.Process.Pid
	go func() {
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	select {
	case s.addr = <-serving:
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("dobble serve %s ended before it served: %v: %s", strings.Join(argv[1:], " "), s.err, s.log)
	case <-t.C:
		s.kill()
		return nil, fmt.Errorf("dobble serve did not serve within a minute: %s", s.log)
	case <-ctx.Done():
		s.kill()
		return nil, ctx.Err()
	}
}

// alive reports whether the process is still running.
func (s *server) alive() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// kill ends the process at once and waits for it.
func (s *server) kill() {
	s.cmd.Process.Kill()
	<-s.done
}

// stop asks the process to shut down, and kills it if it has not within
// ten seconds.
func (s *server) stop() {
	if !s.alive() {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case <-s.done:
	case <-t.C:
		s.kill()
	}
	s.http.CloseIdleConnections()
}

// healthy reports whether the process runs and answers GET /healthz
// within five seconds.
func (s *server) healthy(ctx context.Context) bool {
	if !s.alive() {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.addr+"/healthz", nil)
	resp, err := s.http.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode == http.StatusOK
}

// exit says how the process ended, or "" while it runs.
func (s *server) exit() string {
	if s.alive() {
		return ""
	}
	if s.err == nil {
		return "exited"
	}
	return s.err.Error()
}

// rss returns the process's resident memory in bytes, from
// /proc/PID/status; 0 where there is none.
func (s *server) rss() int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(s.pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// scrape fetches and parses the server's metrics, within timeout.
func (s *server) scrape(ctx context.Context, timeout time.Duration) (load.Metrics, error) {
	return load.Scrape(ctx, s.http, "http://"+s.addr+"/metrics", timeout)
}

// sampler watches a server: its memory ten times a second, killing it
// when the memory passes the cap, and its metrics every half second.
type sampler struct {
	s   *server
	cap int64

	mu            sync.Mutex
	last, peak    int64   // memory, the peak since mark
	mid           int64   // memory at markMid
	killed        bool    // killed at the cap
	rooms, conns  float64 // the peaks of dobble_rooms and dobble_connections since mark
	metricsFailed int     // scrapes unanswered since mark

	stop chan struct{}
	wg   sync.WaitGroup
}

// watch starts watching s.
func watch(s *server, cap int64) *sampler {
	w := &sampler{s: s, cap: cap, stop: make(chan struct{})}
	w.sampleMemory()
	w.wg.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-s.done:
				return
			case <-t.C:
				w.sampleMemory()
			}
		}
	})
	w.wg.Go(func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-s.done:
				return
			case <-t.C:
				m, err := s.scrape(context.Background(), 2*time.Second)
				w.mu.Lock()
				if err != nil {
					w.metricsFailed++
				} else {
					w.rooms = max(w.rooms, m["dobble_rooms"])
					w.conns = max(w.conns, m["dobble_connections"])
				}
				w.mu.Unlock()
			}
		}
	})
	return w
}

// sampleMemory reads the server's memory once, and kills the server when
// it is over the cap.
func (w *sampler) sampleMemory() {
	rss := w.s.rss()
	if rss == 0 {
		return
	}
	w.mu.Lock()
	w.last = rss
	w.peak = max(w.peak, rss)
	over := w.cap > 0 && rss > w.cap && !w.killed
	if over {
		w.killed = true
	}
	w.mu.Unlock()
	if over {
		w.s.kill()
	}
}

// mark starts a new span: the peaks are counted from now.
func (w *sampler) mark() {
	w.sampleMemory()
	w.mu.Lock()
	w.peak, w.mid, w.rooms, w.conns, w.metricsFailed = w.last, 0, 0, 0, 0
	w.mu.Unlock()
}

// markMid notes the memory half way through the span.
func (w *sampler) markMid() {
	w.sampleMemory()
	w.mu.Lock()
	w.mid = w.last
	w.mu.Unlock()
}

// close stops watching.
func (w *sampler) close() {
	close(w.stop)
	w.wg.Wait()
}
