package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"--save-backlog", "0"}, "dobble: serve: --save-backlog 0: use 1 or more"},
		{[]string{"--save-backlog", "2000000"}, "dobble: serve: save backlog 2000000: use 1 to 1000000 games"},
		{[]string{"extra"}, `dobble: serve: unexpected argument "extra"`},
		{[]string{"--pprof", "0.0.0.0:6060"}, `dobble: serve: --pprof "0.0.0.0:6060": use a loopback address and port`},
		{[]string{"--pprof", "6060"}, `dobble: serve: --pprof "6060": use a loopback address and port`},
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
	for _, want := range []string{"-addr", "DOBBLE_ADDR", "-db", "-seat-hold", "-max-rooms", "-max-conns", "-room-queue", "-conn-queue", "-save-backlog", "DOBBLE_SAVE_BACKLOG", "-lockout", "-rate"} {
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

// TestServeSaveBacklog checks that --save-backlog, or DOBBLE_SAVE_BACKLOG,
// sets the rooms' backlog of games waiting to be stored, the flag winning.
func TestServeSaveBacklog(t *testing.T) {
	t.Setenv("DOBBLE_SAVE_BACKLOG", "7")
	for _, tc := range []struct {
		args []string
		want int
	}{{nil, 7}, {[]string{"--save-backlog", "3"}, 3}} {
		c, err := parseServe(tc.args, io.Discard)
		if err != nil || c.server.Rooms.SaveBacklog != tc.want {
			t.Fatalf("%v: %+v, %v; want a backlog of %d", tc.args, c, err, tc.want)
		}
	}
}
