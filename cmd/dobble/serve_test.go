package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/rules"
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
		{[]string{"--lockout", "9000"}, "dobble: serve: --lockout 9000: use 0 (no lock-out) to 5000 milliseconds"},
		{[]string{"--lockout", "-1"}, "dobble: serve: --lockout -1: use 0 (no lock-out) to 5000 milliseconds"},
		{[]string{"--db", ""}, "dobble: serve: --db is empty"},
		{[]string{"--db", "file://otherhost/dobble.db"}, `dobble: serve: --db: store: "file://otherhost/dobble.db": a file URI names a file of this machine`},
		{[]string{"--db", "postgres://u@h/d", "--journal-file", "postgresql://u:secret@h/d"}, "dobble: serve: --journal-file: server: the journal of the rooms in play is a SQLite file of this machine, not postgresql://u:xxxxx@h/d"},
		{[]string{"--deck-cache", "0"}, "dobble: serve: --deck-cache 0: use 1 or more"},
		{[]string{"--deck-cache", "20000"}, "dobble: serve: deck cache 20000 decks: use 1 to 10000"},
		{[]string{"--card-cache", "0"}, "dobble: serve: --card-cache 0: use 1 or more"},
		{[]string{"--conn-queue", "x"}, "dobble: serve: invalid value"},
		{[]string{"--save-backlog", "0"}, "dobble: serve: --save-backlog 0: use 1 or more"},
		{[]string{"--save-backlog", "2000000"}, "dobble: serve: save backlog 2000000: use 1 to 1000000 games"},
		{[]string{"extra"}, `dobble: serve: unexpected argument "extra"`},
		{[]string{"--pprof", "0.0.0.0:6060"}, `dobble: serve: --pprof "0.0.0.0:6060": use a loopback address and port`},
		{[]string{"--pprof", "6060"}, `dobble: serve: --pprof "6060": use a loopback address and port`},
		{[]string{"--bot-delay", "0s"}, "dobble: serve: --bot-delay 0s: use a positive duration"},
		{[]string{"--bot-delay", "1m"}, "dobble: serve: bot delay 1m0s: use a duration from 1ms to 10s"},
		{[]string{"--bot-rate", "0"}, "dobble: serve: --bot-rate 0: use a positive number of actions a second"},
		{[]string{"--bot-burst", "0"}, "dobble: serve: --bot-burst 0: use 1 or more"},
		{[]string{"--hello-timeout", "0s"}, "dobble: serve: --hello-timeout 0s: use a positive duration"},
		{[]string{"--idle-timeout", "-1s"}, "dobble: serve: --idle-timeout -1s: use a positive duration"},
		{[]string{"--max-conns-per-addr", "-1"}, "dobble: serve: --max-conns-per-addr -1: use 0 (no bound, or the default) or more"},
		{[]string{"--handshake-rate", "-2"}, "dobble: serve: --handshake-rate -2: use 0 (no bound) or a positive number a second"},
		{[]string{"--addr-burst", "0"}, "dobble: serve: --addr-burst 0: use 1 or more"},
		{[]string{"--max-sockets", "50", "--max-conns", "100"}, "dobble: serve: --max-sockets 50 is less than --max-conns 100"},
		{[]string{"--exempt", "127.0.0.0/8,localhost"}, `dobble: serve: --exempt: "localhost" is neither a network`},
		{[]string{"--trusted-proxies", "10.0.0.0/33"}, `dobble: serve: --trusted-proxies: "10.0.0.0/33" is neither a network`},
		{[]string{"--nats", "127.0.0.1:4222"}, `dobble: serve: --nats "127.0.0.1:4222": give a NATS URL such as nats://127.0.0.1:4222`},
		{[]string{"--node", "n1"}, `dobble: serve: --node "n1" without --nats`},
		{[]string{"--nats", "nats://127.0.0.1:4222", "--journal", "off"}, "dobble: serve: --journal off with --nats"},
		{[]string{"--nats", "nats://127.0.0.1:4222", "--journal-file", "j.db"}, "dobble: serve: --journal-file with --nats"},
		{[]string{"--nats", "nats://127.0.0.1:4222", "--node", "n 1"}, `dobble: serve: --node: node name "n 1": ' ' is not allowed`},
		{[]string{"--nats", "nats://127.0.0.1:4222", "--node", "n1", "--max-remote-peers", "0"}, "dobble: serve: --max-remote-peers 0: use 1 or more"},
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

// TestServeLockout checks that --lockout (and DOBBLE_LOCKOUT) speaks as
// a create request's lockout does: 0 is none, N is N ms, and without it
// rooms get the default of 1000 ms; --help says so.
func TestServeLockout(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  string
		want int64 // room.Config.Lockout
	}{
		{nil, "", 1000},
		{[]string{"--lockout", "0"}, "", rules.NoLockout},
		{[]string{"--lockout", "250"}, "", 250},
		{[]string{"--lockout", "5000"}, "", 5000},
		{nil, "0", rules.NoLockout},
		{nil, "300", 300},
		{[]string{"--lockout", "400"}, "0", 400},
	} {
		t.Setenv("DOBBLE_LOCKOUT", tc.env)
		c, err := parseServe(tc.args, io.Discard)
		if err != nil || c.server.Rooms.Lockout != tc.want {
			t.Errorf("%v, DOBBLE_LOCKOUT=%q: %v; want lock-out %d", tc.args, tc.env, err, tc.want)
			continue
		}
		if err := c.server.Rooms.Validate(); err != nil {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
	t.Setenv("DOBBLE_LOCKOUT", "-1")
	code, _, errOut := runCLI(t, "", "serve")
	if code != 2 || !strings.HasPrefix(errOut, "dobble: serve: --lockout -1: use 0 (no lock-out) to 5000 milliseconds") {
		t.Errorf("DOBBLE_LOCKOUT=-1: exit %d, stderr %q", code, errOut)
	}
	t.Setenv("DOBBLE_LOCKOUT", "")
	_, out, _ := runCLI(t, "", "serve", "--help")
	if !strings.Contains(out, "0 (none) to 5000") {
		t.Errorf("serve --help does not say what --lockout takes:\n%s", out)
	}
}

func TestServeHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "serve", "--help")
	for _, want := range []string{"-addr", "DOBBLE_ADDR", "-db", "-seat-hold", "-max-rooms", "-max-conns", "-room-queue", "-conn-queue", "-save-backlog", "DOBBLE_SAVE_BACKLOG", "-lockout", "-rate",
		"postgres://", "-journal-file", "DOBBLE_JOURNAL_FILE", "dobble-journal.db",
		"-deck-cache", "DOBBLE_DECK_CACHE", "-card-cache", "DOBBLE_CARD_CACHE",
		"-bot-delay", "DOBBLE_BOT_DELAY", "-bot-rate", "DOBBLE_BOT_RATE", "-bot-burst", "DOBBLE_BOT_BURST",
		"-max-sockets", "DOBBLE_MAX_SOCKETS", "-max-sockets-per-addr", "-max-conns-per-addr", "-hello-timeout", "DOBBLE_HELLO_TIMEOUT",
		"-handshake-rate", "-handshake-burst", "-addr-rate", "-addr-burst", "-max-addrs", "-exempt", "-trusted-proxies", "X-Forwarded-For",
		"-read-timeout", "-write-timeout", "-idle-timeout", "dobble_connections_refused_total",
		"-nats", "DOBBLE_NATS", "-node", "DOBBLE_NODE", "docs/CLUSTER.md", "-max-remote-peers", "DOBBLE_MAX_REMOTE_PEERS"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("serve --help: exit %d, missing %q:\n%s", code, want, out)
		}
	}
}

// TestServeCacheFlags checks that the caches' bounds reach the rooms'
// configuration, from the flags and from the environment.
func TestServeCacheFlags(t *testing.T) {
	c, err := parseServe([]string{"--deck-cache", "7", "--card-cache", "64"}, nil)
	if err != nil || c.server.Rooms.DeckCache != 7 || c.server.Rooms.CardCache != 64<<20 {
		t.Fatalf("flags: %+v %v", c, err)
	}
	t.Setenv("DOBBLE_DECK_CACHE", "9")
	t.Setenv("DOBBLE_CARD_CACHE", "3")
	c, err = parseServe(nil, nil)
	if err != nil || c.server.Rooms.DeckCache != 9 || c.server.Rooms.CardCache != 3<<20 {
		t.Fatalf("environment: %+v %v", c, err)
	}
}

// TestServeBotPace checks the bounds on the bots of a room: their
// defaults, the flags and the environment variables, a flag winning over
// its variable.
func TestServeBotPace(t *testing.T) {
	c, err := parseServe(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.server.Rooms; r.BotDelay != 250*time.Millisecond || r.BotRate != 50 || r.BotBurst != 100 {
		t.Fatalf("defaults: delay %v, rate %v, burst %d", r.BotDelay, r.BotRate, r.BotBurst)
	}
	t.Setenv("DOBBLE_BOT_DELAY", "40ms")
	t.Setenv("DOBBLE_BOT_RATE", "12.5")
	t.Setenv("DOBBLE_BOT_BURST", "7")
	c, err = parseServe([]string{"--bot-burst", "9"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.server.Rooms; r.BotDelay != 40*time.Millisecond || r.BotRate != 12.5 || r.BotBurst != 9 {
		t.Fatalf("from the environment and a flag: delay %v, rate %v, burst %d", r.BotDelay, r.BotRate, r.BotBurst)
	}
	t.Setenv("DOBBLE_BOT_RATE", "fast")
	if _, err := parseServe(nil, nil); err == nil || !strings.Contains(err.Error(), `DOBBLE_BOT_RATE="fast": not a number`) {
		t.Fatalf("a bad DOBBLE_BOT_RATE: %v", err)
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

// TestServeUnreachablePostgres starts a server on a PostgreSQL URL that
// nothing answers: it exits at once, saying so, showing no password.
func TestServeUnreachablePostgres(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "journal.db")
	code, out, errOut := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", "postgres://postgres:secret@127.0.0.1:1/test", "--journal-file", journal)
	if code != 1 || out != "" || !strings.Contains(errOut, "cannot use the PostgreSQL database postgres://postgres:xxxxx@127.0.0.1:1/test: the database server cannot be reached") ||
		strings.Contains(errOut, "secret") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatalf("the server that did not start left its journal: %v", err)
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

// TestServeClusterFlags checks that --nats and --node (and DOBBLE_NATS,
// DOBBLE_NODE) reach the server's configuration, and that a node without
// a name is named after the host, with a random suffix.
func TestServeClusterFlags(t *testing.T) {
	c, err := parseServe([]string{"--nats", "nats://127.0.0.1:4222"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if c.server.NATS != "nats://127.0.0.1:4222" || !strings.HasPrefix(c.server.Node, host+"-") {
		t.Fatalf("--nats alone: NATS %q, node %q; want the URL and %s-…", c.server.NATS, c.server.Node, host)
	}
	t.Setenv("DOBBLE_NATS", "nats://10.0.0.1:4222")
	t.Setenv("DOBBLE_NODE", "n2")
	if c, err = parseServe(nil, io.Discard); err != nil || c.server.NATS != "nats://10.0.0.1:4222" || c.server.Node != "n2" {
		t.Fatalf("from the environment: %+v, %v", c.server, err)
	}
	if c, err = parseServe([]string{"--node", "n3"}, io.Discard); err != nil || c.server.Node != "n3" {
		t.Fatalf("--node over the environment: %q, %v", c.server.Node, err)
	}
}
