package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/server"
	"github.com/dobble-dev/dobble/web"
)

func TestServeBadAddress(t *testing.T) {
	code, out, errOut := runCLI(t, "", "serve", "--addr", "not-an-address")
	if code != 2 || out != "" || !strings.HasPrefix(errOut, "dobble: serve: cannot listen on not-an-address: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestServeBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--seat-hold", "0s"}, "dobble: serve: --seat-hold 0s: use a positive duration"},
		{[]string{"--max-rooms", "0"}, "dobble: serve: --max-rooms 0: use 1 or more"},
		{[]string{"--max-rooms", "2000000"}, "dobble: serve: max rooms 2000000: use 1 to 1000000"},
		{[]string{"--lockout", "9000"}, "dobble: serve: lock-out 9000 ms: use 0 to 5000"},
		{[]string{"--db", ""}, "dobble: serve: --db is empty"},
		{[]string{"--conn-queue", "x"}, "dobble: serve: invalid value"},
		{[]string{"extra"}, `dobble: serve: unexpected argument "extra"`},
		{[]string{"--pprof", "0.0.0.0:6060"}, `dobble: serve: --pprof "0.0.0.0:6060": use a loopback address and port`},
		{[]string{"--pprof", "6060"}, `dobble: serve: --pprof "6060": use a loopback address and port`},
		{[]string{"--hello-timeout", "0s"}, "dobble: serve: --hello-timeout 0s: use a positive duration"},
		{[]string{"--idle-timeout", "-1s"}, "dobble: serve: --idle-timeout -1s: use a positive duration"},
		{[]string{"--max-conns-per-addr", "-1"}, "dobble: serve: --max-conns-per-addr -1: use 0 (no bound, or the default) or more"},
		{[]string{"--handshake-rate", "-2"}, "dobble: serve: --handshake-rate -2: use 0 (no bound) or a positive number a second"},
		{[]string{"--addr-burst", "0"}, "dobble: serve: --addr-burst 0: use 1 or more"},
		{[]string{"--max-sockets", "50", "--max-conns", "100"}, "dobble: serve: --max-sockets 50 is less than --max-conns 100"},
		{[]string{"--exempt", "127.0.0.0/8,localhost"}, `dobble: serve: --exempt: "localhost" is neither a network`},
		{[]string{"--trusted-proxies", "10.0.0.0/33"}, `dobble: serve: --trusted-proxies: "10.0.0.0/33" is neither a network`},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"serve"}, tc.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	t.Setenv("DOBBLE_SEAT_HOLD", "soon")
	code, _, errOut := runCLI(t, "", "serve")
	if code != 2 || !strings.HasPrefix(errOut, `dobble: serve: DOBBLE_SEAT_HOLD="soon": not a duration`) {
		t.Errorf("bad env: exit %d, stderr %q", code, errOut)
	}
}

func TestServeHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "serve", "--help")
	for _, want := range []string{"-addr", "DOBBLE_ADDR", "-db", "-seat-hold", "-max-rooms", "-max-conns", "-room-queue", "-conn-queue", "-lockout", "-rate",
		"-max-sockets", "DOBBLE_MAX_SOCKETS", "-max-sockets-per-addr", "-max-conns-per-addr", "-hello-timeout", "DOBBLE_HELLO_TIMEOUT",
		"-handshake-rate", "-handshake-burst", "-addr-rate", "-addr-burst", "-max-addrs", "-exempt", "-trusted-proxies", "X-Forwarded-For",
		"-read-timeout", "-write-timeout", "-idle-timeout", "dobble_connections_refused_total"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("serve --help: exit %d, missing %q:\n%s", code, want, out)
		}
	}
}

func TestServeCorruptDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(db, []byte(strings.Repeat("this is not a database\n", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", db)
	if code != 1 || out != "" || !strings.Contains(errOut, "is not a dobble database or is corrupt") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestServeLimitFlags reads the bounds from flags and the environment.
func TestServeLimitFlags(t *testing.T) {
	t.Setenv("DOBBLE_MAX_CONNS_PER_ADDR", "7")
	t.Setenv("DOBBLE_TRUSTED_PROXIES", "10.0.0.0/8, fd00::1")
	c, err := parseServe([]string{"--hello-timeout", "3s", "--exempt", "none", "--max-conns", "200", "--idle-timeout", "45s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	l := c.server.Limits
	if l.MaxConnsPerAddr != 7 || l.HelloTimeout != 3*time.Second || l.Exempt != nil || web.FormatNets(l.TrustedProxies) != "10.0.0.0/8,fd00::1/128" ||
		c.server.IdleTimeout != 45*time.Second || c.server.Sockets() != 200+server.ExtraSockets {
		t.Fatalf("limits %+v, idle timeout %v, sockets %d", l, c.server.IdleTimeout, c.server.Sockets())
	}
	d, err := parseServe(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := web.FormatNets(d.server.Limits.Exempt); got != "127.0.0.0/8,::1/128" {
		t.Fatalf("exempt by default: %s", got)
	}
}

// TestFileLimitBoundsTheSockets asks for more files than the hard limit
// allows: raiseFileLimit says so and returns the limit the process has,
// which bounds the sockets of dobble serve.
func TestFileLimitBoundsTheSockets(t *testing.T) {
	have, err := raiseFileLimit(1 << 40)
	if err == nil && have == 1<<40 {
		t.Skip("no open-file limit on " + runtime.GOOS)
	}
	if err == nil || have == 0 || have >= 1<<40 || !strings.Contains(err.Error(), "ulimit -n") {
		t.Fatalf("raiseFileLimit beyond the hard limit: %d, %v", have, err)
	}
	if again, err := raiseFileLimit(have); err != nil || again != have {
		t.Fatalf("raiseFileLimit within the limit: %d, %v", again, err)
	}
}
