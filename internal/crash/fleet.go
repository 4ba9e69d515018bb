package crash

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dobble-dev/dobble/internal/natstest"
	"github.com/dobble-dev/dobble/internal/serveproc"
	"github.com/dobble-dev/dobble/store"
)

// DefaultNATSServer is the NATS server a cluster runs on, Debian's
// package nats-server.
const DefaultNATSServer = "/usr/sbin/nats-server"

// maxNodes is the most nodes of a cluster under test.
const maxNodes = 16

// fleet is the server under test: one dobble serve process, or the
// nodes of a cluster with their NATS server and PostgreSQL schema.
type fleet struct {
	opts  Options
	db    string    // every node's --db
	names []string  // the nodes' names
	addrs []string  // the HOST:PORT each node serves on, kept across restarts
	nodes []*server // the processes, nil while down
	log   *serveproc.Tail

	natsURL    string
	nats       *exec.Cmd
	dropSchema func()
}

// startFleet starts the server of opts: a single one on a SQLite file in
// opts.Dir, or opts.Nodes nodes on a NATS server of their own and a
// PostgreSQL schema of their own.
func startFleet(ctx context.Context, opts Options) (*fleet, error) {
	f := &fleet{opts: opts, log: &serveproc.Tail{}}
	n := max(opts.Nodes, 1)
	f.names, f.addrs, f.nodes = make([]string, n), make([]string, n), make([]*server, n)
	if n == 1 {
		f.db = filepath.Join(opts.Dir, "dobble.db")
	} else {
		var err error
		if err = f.startNATS(ctx); err == nil {
			f.db, f.dropSchema, err = newSchema(ctx, opts.Postgres)
		}
		if err != nil {
			f.close()
			return nil, err
		}
	}
	for i := range n {
		f.addrs[i] = "127.0.0.1:0"
		if n > 1 {
			f.names[i] = "n" + strconv.Itoa(i+1)
		}
		if err := f.start(ctx, i); err != nil {
			f.close()
			return nil, err
		}
		f.addrs[i] = f.nodes[i].addr
	}
	return f, nil
}

// start starts node i on its address.
func (f *fleet) start(ctx context.Context, i int) error {
	args := f.opts.ServeArgs
	if len(f.nodes) > 1 {
		args = append(slices.Clip(args), "--nats", f.natsURL, "--node", f.names[i])
	}
	s, err := startServer(ctx, f.opts.Dobble, f.addrs[i], f.db, args, f.log)
	if err != nil {
		return err
	}
	f.nodes[i] = s
	return nil
}

// kill kills node i with SIGKILL, if it is up.
func (f *fleet) kill(i int) {
	if f.nodes[i] != nil {
		f.nodes[i].kill()
		f.nodes[i] = nil
	}
}

// stop stops node i with SIGTERM, if it is up.
func (f *fleet) stop(i int) error {
	if f.nodes[i] == nil {
		return nil
	}
	err := f.nodes[i].stop()
	f.nodes[i] = nil
	return err
}

// close kills every node still up, stops the NATS server and drops the
// PostgreSQL schema.
func (f *fleet) close() {
	for i := range f.nodes {
		f.kill(i)
	}
	if f.nats != nil {
		f.nats.Process.Signal(syscall.SIGTERM)
		f.nats.Wait()
		f.nats = nil
	}
	if f.dropSchema != nil {
		f.dropSchema()
		f.dropSchema = nil
	}
}

// takeovers sums the rooms the nodes up, but for those of except, have
// taken over (dobble_cluster_takeovers_total); −1 when one does not
// answer.
func (f *fleet) takeovers(ctx context.Context, except []int) int {
	sum := 0
	for i, s := range f.nodes {
		if s == nil || slices.Contains(except, i) {
			continue
		}
		m, err := s.scrape(ctx)
		if err != nil {
			return -1
		}
		sum += int(m["dobble_cluster_takeovers_total"])
	}
	return sum
}

// readGames reads every finished game the server stored.
func (f *fleet) readGames(ctx context.Context) ([]storedGame, error) {
	if len(f.nodes) == 1 {
		return readGames(ctx, f.db)
	}
	return readPostgresGames(ctx, f.db)
}

// natsWithin bounds the wait for the NATS server to answer.
const natsWithin = 30 * time.Second

// startNATS starts a NATS server with JetStream on a free loopback port,
// its store in a folder of opts.Dir, and waits until it answers
// JetStream requests.
func (f *fleet) startNATS(ctx context.Context) error {
	bin := f.opts.NATSServer
	if bin == "" {
		bin = DefaultNATSServer
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("crash: a cluster runs on NATS (Debian: apt-get install nats-server): %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir := filepath.Join(f.opts.Dir, "nats")
	f.natsURL = "nats://127.0.0.1:" + strconv.Itoa(port)
	f.nats = exec.Command(bin, "-a", "127.0.0.1", "-p", strconv.Itoa(port), "-js", "-sd", dir)
	f.nats.Stdout, f.nats.Stderr = io.Discard, f.log
	if err := f.nats.Start(); err != nil {
		f.nats = nil
		return fmt.Errorf("crash: %s: %w", bin, err)
	}
	deadline := time.Now().Add(natsWithin)
	for {
		if natstest.Ready(ctx, f.natsURL) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("crash: NATS did not answer JetStream requests within %v: %s", natsWithin, f.log)
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
}

// newSchema makes a schema of its own in the PostgreSQL database of base
// and returns the URL of the database with that schema as its
// search_path, and a function that drops it with what it holds.
func newSchema(ctx context.Context, base string) (string, func(), error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("crash: PostgreSQL URL %q: %w", store.Redact(base), err)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(cctx, base)
	if err != nil {
		return "", nil, fmt.Errorf("crash: a cluster stores its games in PostgreSQL at %s: %w", store.Redact(base), err)
	}
	defer conn.Close(context.Background())
	var b [6]byte
	rand.Read(b[:])
	schema := "dobble_crash_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(cctx, "CREATE SCHEMA "+schema); err != nil {
		return "", nil, fmt.Errorf("crash: making a schema in %s: %w", store.Redact(base), err)
	}
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, base); err == nil {
			conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			conn.Close(context.Background())
		}
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}

// readPostgresGames reads every finished game of the PostgreSQL database
// of db (whose search_path names the cluster's schema).
func readPostgresGames(ctx context.Context, db string) ([]storedGame, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("crash: %s: %w", store.Redact(db), err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, `SELECT id, tbl, seats, record FROM games ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("crash: reading the games of %s: %w", store.Redact(db), err)
	}
	defer rows.Close()
	var games []storedGame
	for rows.Next() {
		var g storedGame
		var seats string
		var table int32
		if err := rows.Scan(&g.id, &table, &seats, &g.record); err != nil {
			return nil, fmt.Errorf("crash: reading the games of %s: %w", store.Redact(db), err)
		}
		g.table = int(table)
		if err := json.Unmarshal([]byte(seats), &g.seats); err != nil {
			return nil, fmt.Errorf("crash: game %d: seats %q: %w", g.id, seats, err)
		}
		games = append(games, g)
	}
	return games, rows.Err()
}
