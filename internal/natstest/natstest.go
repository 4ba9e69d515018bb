// Package natstest runs a NATS server with JetStream for a test: Debian's
// nats-server, on a port and in a folder of the test's own, so that the
// test may stop it and start it again.
package natstest

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// natsBinary is the NATS server the tests run, Debian's package
// nats-server.
const natsBinary = "/usr/sbin/nats-server"

// wait is how long Start and Restart wait for the server to answer.
const wait = 20 * time.Second

// Server is a NATS server with JetStream of the test's own, on a port
// and in a folder of its own, which the test may stop and start again.
type Server struct {
	t    testing.TB
	port int
	dir  string
	cmd  *exec.Cmd
}

// Start starts a NATS server with JetStream for the test, on a free
// loopback port and in a folder of its own; it is stopped when the test
// ends.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := os.Stat(natsBinary); err != nil {
		t.Fatalf("the tests run NATS from Debian's package nats-server (apt-get install nats-server): %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{t: t, port: port, dir: t.TempDir()}
	// Stopped even when it starts but never answers, failing the test.
	t.Cleanup(s.Stop)
	s.Restart()
	return s
}

// URL returns the server's URL.
func (s *Server) URL() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// Restart starts the server again, after Stop, on the same port and
// folder, and waits until it answers JetStream requests.
func (s *Server) Restart() {
	s.t.Helper()
	cmd := exec.Command(natsBinary, "-a", "127.0.0.1", "-p", strconv.Itoa(s.port), "-js", "-sd", s.dir)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd = cmd
	poll(s.t, "NATS to answer JetStream requests", func() bool { return Ready(context.Background(), s.URL()) })
}

// Stop stops the server as a restart does (SIGTERM) and waits for it.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()
	s.cmd = nil
}

// poll calls ok until it reports true, failing the test after wait.
func poll(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", wait, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Ready reports whether the NATS server at u answers JetStream requests
// within a second.
func Ready(ctx context.Context, u string) bool {
	nc, err := nats.Connect(u, nats.Timeout(time.Second))
	if err != nil {
		return false
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err = js.AccountInfo(ctx)
	return err == nil
}
