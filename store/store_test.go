package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSaveListGetAcrossReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		g := &Game{Summary: Summary{Room: "ABCDEFGH", Game: "tower", Table: i, Deck: "classic", Seats: []string{"<b>ann</b>", "bot:easy"},
			Scores: []int{30, 25}, Unit: "cards", Winners: []int{0}, Actions: 53, Started: time.UnixMilli(1000), Ended: time.UnixMilli(9000)},
			Record: []byte(`{"type":"game"}` + "\n")}
		if id, err := s.Save(ctx, g); err != nil || id != int64(i+1) {
			t.Fatalf("save %d: id %d, %v", i, id, err)
		}
	}
	s.Close()
	s, err = Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page, err := s.List(ctx, 0, 2)
	if err != nil || len(page) != 2 || page[0].ID != 5 || page[1].ID != 4 {
		t.Fatalf("first page: %+v %v", page, err)
	}
	page, _ = s.List(ctx, 4, 10)
	if len(page) != 3 || page[0].ID != 3 || page[0].Seats[0] != "<b>ann</b>" || page[0].Ended.UnixMilli() != 9000 {
		t.Fatalf("second page: %+v", page)
	}
	g, err := s.Get(ctx, 2)
	if err != nil || string(g.Record) != `{"type":"game"}`+"\n" || g.Table != 1 {
		t.Fatalf("get: %+v %v", g, err)
	}
	if _, err := s.Get(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get 99: %v", err)
	}
	var mode string
	s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if v, _ := s.Version(ctx); v != len(migrations) || mode != "wal" {
		t.Fatalf("schema %d, journal %s", v, mode)
	}
}

func TestOpenRefusesWhatIsNotOurs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not sqlite\n", 500)), 0o644)
	if _, err := Open(ctx, junk, time.Second); err == nil || !strings.Contains(err.Error(), "is not a dobble database or is corrupt") {
		t.Fatalf("junk file: %v", err)
	}
	// Someone else's SQLite database, and one from a newer dobble.
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite", other)
	db.Exec("CREATE TABLE t (x)")
	db.Close()
	if _, err := Open(ctx, other, time.Second); err == nil || !strings.Contains(err.Error(), "not a dobble database") {
		t.Fatalf("foreign database: %v", err)
	}
	newer := filepath.Join(dir, "newer.db")
	db, _ = sql.Open("sqlite", newer)
	db.Exec("PRAGMA user_version = 99")
	db.Close()
	if _, err := Open(ctx, newer, time.Second); err == nil || !strings.Contains(err.Error(), "newer than this server's") {
		t.Fatalf("newer schema: %v", err)
	}
	if _, err := Open(ctx, filepath.Join(dir, "no", "such", "dir.db"), time.Second); err == nil || !strings.Contains(err.Error(), "cannot open") {
		t.Fatalf("missing directory: %v", err)
	}
}

func TestOpenReportsALockedFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "locked.db")
	s, err := Open(ctx, path, time.Second)
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
	if _, err := Open(ctx, path, 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "is locked by another process") {
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
			s, err = Open(ctx, path, time.Second)
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
	s, err := Open(ctx, filepath.Join(t.TempDir(), "full.db"), time.Second)
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

// TestListLeavesOutPrivateGames stores games of public rooms and of
// private ones (stored without their code): the list, page by page, holds
// only the public ones, and Get still finds a private one by its id.
func TestListLeavesOutPrivateGames(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 6 {
		room := "PUBLIC23"
		if i%2 == 1 {
			room = "" // a private room's game
		}
		g := &Game{Summary: Summary{Room: room, Game: "tower", Table: i, Deck: "classic", Seats: []string{"ann", "bot:easy"},
			Scores: []int{30, 25}, Unit: "cards", Winners: []int{0}}, Record: []byte(`{"type":"game"}` + "\n")}
		if _, err := s.Save(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	var ids []int64
	for before := int64(0); ; {
		page, err := s.List(ctx, before, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, sm := range page {
			if sm.Room == "" {
				t.Fatalf("the list holds a private game: %+v", sm)
			}
			ids = append(ids, sm.ID)
		}
		before = page[len(page)-1].ID
	}
	if len(ids) != 3 || ids[0] != 5 || ids[1] != 3 || ids[2] != 1 {
		t.Fatalf("listed %v; want the public games 5, 3, 1", ids)
	}
	if g, err := s.Get(ctx, 2); err != nil || g.Room != "" {
		t.Fatalf("get 2: %+v %v", g, err)
	}
}

// TestSaveKeyStoresOnce saves one game three times under its key and
// another without one twice: the keyed game is stored once, and each
// save of it returns that game's id; games without a key are all stored.
func TestSaveKeyStoresOnce(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "k.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	game := func(key string) *Game {
		return &Game{Summary: Summary{Room: "R", Game: "tower", Seats: []string{"ann"}}, Record: []byte("{}\n"), Key: key}
	}
	var ids []int64
	for _, key := range []string{"R/x/1", "", "R/x/1", "R/x/2", "", "R/x/1"} {
		id, err := s.Save(ctx, game(key))
		if err != nil {
			t.Fatalf("save %q: %v", key, err)
		}
		ids = append(ids, id)
	}
	// Ids grow with each game stored; a save stored already returns the
	// first one's.
	if ids[2] != ids[0] || ids[5] != ids[0] || !(ids[0] < ids[1] && ids[1] < ids[3] && ids[3] < ids[4]) {
		t.Fatalf("ids %v; want the 1st, 3rd and 6th equal, the others growing", ids)
	}
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM games").Scan(&n); err != nil || n != 4 {
		t.Fatalf("%d games stored (%v); want 4", n, err)
	}
}
