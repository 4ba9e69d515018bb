package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSQLiteFile checks what only a SQLite file has: write-ahead logging,
// and the schema version in its user_version.
func TestSQLiteFile(t *testing.T) {
	ctx := context.Background()
	s, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mode string
	var uv int
	s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	s.db.QueryRow("PRAGMA user_version").Scan(&uv)
	if v, _ := s.Version(ctx); v != len(migrations) || uv != v || mode != "wal" {
		t.Fatalf("schema %d, user_version %d, journal %s", v, uv, mode)
	}
}

func TestOpenRefusesWhatIsNotOurs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not sqlite\n", 500)), 0o644)
	if _, err := OpenSQLite(ctx, junk, time.Second); err == nil || !strings.Contains(err.Error(), "is not a dobble database or is corrupt") {
		t.Fatalf("junk file: %v", err)
	}
	// Someone else's SQLite database, and one from a newer dobble.
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite", other)
	db.Exec("CREATE TABLE t (x)")
	db.Close()
	if _, err := OpenSQLite(ctx, other, time.Second); err == nil || !strings.Contains(err.Error(), "not a dobble database") {
		t.Fatalf("foreign database: %v", err)
	}
	newer := filepath.Join(dir, "newer.db")
	db, _ = sql.Open("sqlite", newer)
	db.Exec("PRAGMA user_version = 99")
	db.Close()
	if _, err := OpenSQLite(ctx, newer, time.Second); err == nil || !strings.Contains(err.Error(), "newer than this server's") {
		t.Fatalf("newer schema: %v", err)
	}
	if _, err := Open(ctx, filepath.Join(dir, "no", "such", "dir.db"), time.Second); err == nil || !strings.Contains(err.Error(), "cannot open") {
		t.Fatalf("missing directory: %v", err)
	}
}

func TestOpenReportsALockedFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "locked.db")
	s, err := OpenSQLite(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Another process holding the write lock: an exclusive transaction.
	holder, _ := sql.Open("sqlite", path)
	defer holder.Close()
	conn, _ := holder.Conn(ctx)
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")
	if _, err := OpenSQLite(ctx, path, 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "is locked by another process") {
		t.Fatalf("locked file: %v", err)
	}
}

// TestOpenUsesThePathAsNamed opens databases whose names hold the
// characters a URI gives a meaning to (? # % & = ; a space, an escape
// that decodes to another name) and checks that each name is the file
// written, and no other, and that it holds what was saved.
func TestOpenUsesThePathAsNamed(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"a?b#c.db", "pct%41.db", "mode=ro&x;y z.db", "%2e%2e.db", "?.db", "#", "file:x.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			s, err := Open(ctx, path, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Save(ctx, &Game{Summary: Summary{Room: "R", Game: "tower"}}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			// WAL mode may leave its -wal and -shm files beside the
			// database, under its own name.
			for _, n := range names {
				if n != name && n != name+"-wal" && n != name+"-shm" {
					t.Fatalf("opening %q wrote %q: the directory holds %q", name, n, names)
				}
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("opening %q: %v; the directory holds %q", name, err, names)
			}
			s, err = OpenSQLite(ctx, path, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if games, err := s.List(ctx, 0, 10); err != nil || len(games) != 1 {
				t.Fatalf("reopened %q: %d games, %v", name, len(games), err)
			}
		})
	}
}

// TestSaveOnAFullDatabase fills the database to the most pages SQLite may
// give it (PRAGMA max_page_count: SQLite's own "database or disk is full",
// SQLITE_FULL, as on a full disk): the save fails saying the disk is full,
// stores nothing, and the same game is stored once there is room again.
func TestSaveOnAFullDatabase(t *testing.T) {
	ctx := context.Background()
	s, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "full.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var pages int
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}
	g := &Game{Summary: Summary{Room: "R", Game: "tower"}, Record: []byte(strings.Repeat(`{"type":"action"}`+"\n", 2000))}
	_, err = s.Save(ctx, g)
	if err == nil || Cause(err) != "the server's disk is full" || !strings.Contains(err.Error(), "the server's disk is full") ||
		!strings.Contains(err.Error(), "full (13)") {
		t.Fatalf("save to a full database: %v (cause %q)", err, Cause(err))
	}
	if games, err := s.List(ctx, 0, 10); err != nil || len(games) != 0 {
		t.Fatalf("after the failed save: %d games, %v", len(games), err)
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Save(ctx, g); err != nil || id != 1 {
		t.Fatalf("save once there is room: id %d, %v", id, err)
	}
	// A closed database is said to be closed.
	s.Close()
	if _, err := s.Save(ctx, g); Cause(err) != "the database is closed" {
		t.Fatalf("save to a closed database: %v (cause %q)", err, Cause(err))
	}
}

// TestOpenFileURI opens a SQLite file named by a file:// URI, its escapes
// decoded, and refuses URIs that name no file of this machine.
func TestOpenFileURI(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "a b%.db")
	s, err := Open(ctx, "file://"+filepath.ToSlash(dir)+"/a%20b%25.db", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, &Game{Summary: Summary{Room: "R", Game: "tower"}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = OpenSQLite(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if games, err := s.List(ctx, 0, 10); err != nil || len(games) != 1 {
		t.Fatalf("%s: %d games, %v", path, len(games), err)
	}
	for _, bad := range []string{"file://otherhost/x.db", "file:///x.db?mode=ro", "file://", ""} {
		if _, err := File(bad); err == nil {
			t.Errorf("File(%q) took it", bad)
		}
	}
	for db, want := range map[string]bool{"postgres://u@h/d": true, "POSTGRESQL://u@h/d": true, "postgres.db": false, "./postgres://x": false} {
		if IsPostgres(db) != want {
			t.Errorf("IsPostgres(%q) = %v", db, !want)
		}
	}
}

// TestRedact checks that a PostgreSQL URL is shown without its password,
// whether the URL holds it before the host or as a parameter, as libpq
// takes it too.
func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"./dobble.db":                        "./dobble.db",
		"postgres://dobble@db/dobble":        "postgres://dobble@db/dobble",
		"postgres://dobble:s3cret@db/dobble": "postgres://dobble:xxxxx@db/dobble",
		"postgres://dobble@db/dobble?password=s3cret&sslmode=require": "postgres://dobble@db/dobble?password=xxxxx&sslmode=require",
		"postgresql://db/dobble?sslmode=require&password=s3cret":      "postgresql://db/dobble?sslmode=require&password=xxxxx",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
