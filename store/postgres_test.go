package store_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/store/storetest"
)

// exec runs sql on the database db, failing the test if it fails.
func exec(t *testing.T, db, sql string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresRefusesWhatIsNotOurs opens a database whose schema holds
// another program's games table, and one migrated by a newer dobble:
// both are refused, saying why, and left as they were.
func TestPostgresRefusesWhatIsNotOurs(t *testing.T) {
	ctx := context.Background()
	other := storetest.Postgres(t)
	exec(t, other, `CREATE TABLE games (x integer)`)
	if _, err := store.Open(ctx, other, time.Second); err == nil || !strings.Contains(err.Error(), "holds a games table but no dobble schema version") {
		t.Fatalf("another program's games table: %v", err)
	}
	newer := storetest.Postgres(t)
	storetest.Open(t, newer).Close()
	exec(t, newer, `UPDATE dobble_schema SET version = 99`)
	if _, err := store.Open(ctx, newer, time.Second); err == nil || !strings.Contains(err.Error(), "has schema version 99, newer than this server's 1") {
		t.Fatalf("a newer schema: %v", err)
	}
	missing := strings.Replace(storetest.Postgres(t), "search_path=", "search_path=no_such_schema_", 1)
	if _, err := store.Open(ctx, missing, time.Second); err == nil || !strings.Contains(err.Error(), "no schema of the search_path exists") {
		t.Fatalf("a search_path naming no schema: %v", err)
	}
}

// TestPostgresOpenErrors opens URLs that are not right, and a server
// that does not answer: each is refused with what was wrong, and no
// password is shown.
func TestPostgresOpenErrors(t *testing.T) {
	ctx := context.Background()
	db := storetest.Postgres(t)
	proxy, via := storetest.ProxyTo(t, db)
	proxy.Stop()
	for _, c := range []struct{ db, want string }{
		{"postgres://u:secret@127.0.0.1:5432/test?sslmode=bogus", "is not a PostgreSQL URL this server understands"},
		{"postgres://u:secret@127.0.0.1:99999/test", "is not a PostgreSQL URL this server understands"},
		{withPassword(t, via), "the database server cannot be reached"},
		{strings.Replace(db, "/test?", "/no_such_database_here?", 1), "the database does not exist"},
	} {
		_, err := store.Open(ctx, c.db, time.Second)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("open %s: %v; want an error saying %q and no password", c.db, err, c.want)
		}
	}
}

// withPassword returns the URL db with the password "secret".
func withPassword(t *testing.T, db string) string {
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "secret")
	return u.String()
}

// TestPostgresUnreachableThenBack saves through a proxy that is stopped:
// the save fails saying the server cannot be reached and stores nothing;
// once the proxy is started again, the pool reconnects by itself and the
// same game is stored.
func TestPostgresUnreachableThenBack(t *testing.T) {
	ctx := context.Background()
	db := storetest.Postgres(t)
	proxy, via := storetest.ProxyTo(t, db)
	s := storetest.Open(t, via)
	g := &store.Game{Summary: store.Summary{Room: "R", Game: "tower"}, Key: "R/z/0"}
	proxy.Stop()
	_, err := s.Save(ctx, g)
	if c := store.Cause(err); c != "the database server cannot be reached" && c != "the connection to the database was lost" {
		t.Fatalf("save while unreachable: %v (cause %q)", err, c)
	}
	if _, err := s.Save(ctx, g); store.Cause(err) != "the database server cannot be reached" || !strings.HasPrefix(err.Error(), "store: save: the database server cannot be reached: ") {
		t.Fatalf("save again while unreachable: %v (cause %q)", err, store.Cause(err))
	}
	if games, err := storetest.Open(t, db).List(ctx, 0, 10); err != nil || len(games) != 0 {
		t.Fatalf("while unreachable %d games were stored, %v", len(games), err)
	}
	proxy.Start()
	if id, err := s.Save(ctx, g); err != nil || id != 1 {
		t.Fatalf("save once back: id %d, %v", id, err)
	}
}

// TestPostgresLocked saves while another connection holds the games
// table locked, the store waiting at most lock_timeout (set in its URL):
// the save fails saying the database is locked, and works once the lock
// is let go.
func TestPostgresLocked(t *testing.T) {
	ctx := context.Background()
	db := storetest.Postgres(t)
	s := storetest.Open(t, db+"&lock_timeout=50")
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE games IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	g := &store.Game{Summary: store.Summary{Room: "R", Game: "tower"}}
	if _, err := s.Save(ctx, g); store.Cause(err) != "the database is locked by another process" {
		t.Fatalf("save to a locked table: %v (cause %q)", err, store.Cause(err))
	}
	tx.Rollback(ctx)
	if _, err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresCause checks the few words said of the errors of
// PostgreSQL that a test cannot bring about on a shared server (a full
// disk, a server shutting down): each names what went wrong.
func TestPostgresCause(t *testing.T) {
	for code, want := range map[string]string{
		"53100": "the database server's disk is full",
		"53200": "the database server is out of memory",
		"53300": "the database server has too many connections",
		"53400": "the database server is out of resources",
		"57P01": "the database server is shutting down",
		"57P03": "the database server is starting up",
		"25006": "the database may not be written",
		"28P01": "the database server refused the login",
		"08006": "the connection to the database was lost",
		"XX001": "the database server failed",
		"40P01": "the database is too busy",
		"23514": "the database refused the game",
	} {
		err := fmt.Errorf("store: save: %w", &pgconn.PgError{Code: code})
		if got := store.Cause(err); got != want {
			t.Errorf("code %s: %q, want %q", code, got, want)
		}
	}
	if got := store.Cause(errors.New("something else")); got != "the database refused the game" {
		t.Errorf("another error: %q", got)
	}
}
