// Package storetest is the conformance suite of package store: Run checks
// every behaviour a history database must have, and the tests run it
// against each kind, a SQLite file (SQLite) and a PostgreSQL database
// (Postgres), so that both behave alike. It also gives the tests of other
// packages a fresh database of either kind, and Proxy, a TCP proxy that
// can make a PostgreSQL server unreachable for a while.
//
// The PostgreSQL database is a real server: the one of
// DOBBLE_TEST_POSTGRES, by default postgres://postgres@127.0.0.1:5432/test
// (the machine's service, trust authentication). Each test gets a schema
// of its own, dropped when it ends, so that tests running at once do not
// meet. A test that needs PostgreSQL fails, saying how to start it, when
// it cannot be reached.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dobble-dev/dobble/store"
)

// DefaultPostgres is the PostgreSQL database of the tests when
// DOBBLE_TEST_POSTGRES is not set.
const DefaultPostgres = "postgres://postgres@127.0.0.1:5432/test"

// SQLite returns the path of a SQLite file in a directory of the test's
// own, not created yet.
func SQLite(t testing.TB) string {
	return filepath.Join(t.TempDir(), "dobble.db")
}

// Postgres creates a schema of the test's own in the tests' PostgreSQL
// database and returns the URL of the database with that schema as its
// search_path; the schema is dropped, with what it holds, when the test
// ends. The test fails when PostgreSQL cannot be reached.
func Postgres(t testing.TB) string {
	t.Helper()
	base := os.Getenv("DOBBLE_TEST_POSTGRES")
	if base == "" {
		base = DefaultPostgres
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("the tests need PostgreSQL at %s (set DOBBLE_TEST_POSTGRES to use another): %v\n"+
			"start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n"+
			"or install it with: apt-get install -y postgresql (./scripts/test does both)", store.Redact(base), err)
	}
	defer conn.Close(context.Background())
	var b [6]byte
	rand.Read(b[:])
	schema := "dobble_test_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating the test's schema in %s: %v", store.Redact(base), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("dropping the test's schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping the test's schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Kind is a kind of history database the suite runs against.
type Kind struct {
	// Name names it, as the subtests do: "sqlite", "postgres".
	Name string
	// New returns the name of a fresh, empty database of that kind for
	// the test, as store.Open takes it.
	New func(t testing.TB) string
}

// Kinds are both kinds of database.
var Kinds = []Kind{{"sqlite", SQLite}, {"postgres", Postgres}}

// ForEach runs f as a subtest for each kind of database.
func ForEach(t *testing.T, f func(t *testing.T, k Kind)) {
	for _, k := range Kinds {
		t.Run(k.Name, func(t *testing.T) { f(t, k) })
	}
}

// Open opens the database db, failing the test if it cannot, and closes
// it when the test ends.
func Open(t testing.TB, db string) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), db, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Run runs every behaviour of the suite, each as a subtest, against
// fresh databases of kind k.
func Run(t *testing.T, k Kind) {
	for _, c := range []struct {
		name string
		f    func(t *testing.T, newDB func(testing.TB) string)
	}{
		{"SaveListGetAcrossReopen", saveListGetAcrossReopen},
		{"ListLeavesOutPrivateGames", listLeavesOutPrivateGames},
		{"SaveKeyStoresOnce", saveKeyStoresOnce},
		{"SaveKeyAtOnce", saveKeyAtOnce},
		{"EmptyLists", emptyLists},
		{"OpenTogether", openTogether},
		{"Closed", closed},
	} {
		t.Run(c.name, func(t *testing.T) { c.f(t, k.New) })
	}
}

// game returns a finished game of room, at table, under key.
func game(room string, table int, key string) *store.Game {
	return &store.Game{Summary: store.Summary{Room: room, Game: "tower", Table: table, Deck: "classic", Seats: []string{"<b>ann</b>", "bot:easy"},
		Scores: []int{30, 25}, Unit: "cards", Winners: []int{0}, Actions: 53, Started: time.UnixMilli(1000), Ended: time.UnixMilli(9000)},
		Record: []byte(`{"type":"game"}` + "\n"), Key: key}
}

// all returns the ids of every game List lists, page by page of size.
func all(t *testing.T, s store.Store, size int) []int64 {
	t.Helper()
	var ids []int64
	for before := int64(0); ; {
		page, err := s.List(context.Background(), before, size)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			return ids
		}
		for _, sm := range page {
			if sm.Room == "" {
				t.Fatalf("the list holds a private game: %+v", sm)
			}
			ids = append(ids, sm.ID)
		}
		before = page[len(page)-1].ID
	}
}

// saveListGetAcrossReopen saves games, closes the database and opens it
// again: the list, page by page, and Get give back every field as saved.
func saveListGetAcrossReopen(t *testing.T, newDB func(testing.TB) string) {
	ctx := context.Background()
	db := newDB(t)
	s, err := store.Open(ctx, db, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		g := game("ABCDEFGH", i, "")
		g.TieBreak = i == 3
		g.Seats[0] = "<b>ann</b> 日本 \u0000 \"q\""
		g.Record = []byte(`{"type":"game","nick":"日本"}` + "\n" + `{"type":"action"}` + "\n")
		g.Started, g.Ended = time.UnixMilli(1_700_000_000_123).In(time.FixedZone("X", 3600)), time.UnixMilli(1_700_000_009_456)
		if id, err := s.Save(ctx, g); err != nil || id != int64(i+1) || g.ID != id {
			t.Fatalf("save %d: id %d (game's %d), %v", i, id, g.ID, err)
		}
	}
	v, err := s.Version(ctx)
	if err != nil || v < 1 {
		t.Fatalf("schema version %d, %v", v, err)
	}
	s.Close()
	s = Open(t, db)
	if v2, err := s.Version(ctx); err != nil || v2 != v {
		t.Fatalf("schema version %d after reopening, was %d: %v", v2, v, err)
	}
	page, err := s.List(ctx, 0, 2)
	if err != nil || len(page) != 2 || page[0].ID != 5 || page[1].ID != 4 {
		t.Fatalf("first page: %+v %v", page, err)
	}
	page, err = s.List(ctx, 4, 10)
	if err != nil || len(page) != 3 || page[0].ID != 3 || page[2].ID != 1 {
		t.Fatalf("second page: %+v %v", page, err)
	}
	sm := page[0]
	if sm.Room != "ABCDEFGH" || sm.Game != "tower" || sm.Table != 2 || sm.TieBreak || sm.Deck != "classic" ||
		strings.Join(sm.Seats, "|") != "<b>ann</b> 日本 \u0000 \"q\"|bot:easy" || len(sm.Scores) != 2 || sm.Scores[1] != 25 ||
		sm.Unit != "cards" || len(sm.Winners) != 1 || sm.Winners[0] != 0 || sm.Actions != 53 ||
		sm.Started.UnixMilli() != 1_700_000_000_123 || sm.Ended.UnixMilli() != 1_700_000_009_456 || sm.Ended.Location() != time.UTC {
		t.Fatalf("game 3 listed as %+v", sm)
	}
	g, err := s.Get(ctx, 4)
	if err != nil || !g.TieBreak || g.Table != 3 || string(g.Record) != `{"type":"game","nick":"日本"}`+"\n"+`{"type":"action"}`+"\n" {
		t.Fatalf("get 4: %+v %v", g, err)
	}
	if _, err := s.Get(ctx, 99); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get 99: %v", err)
	}
}

// listLeavesOutPrivateGames stores games of public rooms and of private
// ones (stored without their code): the list, page by page, holds only
// the public ones, and Get still finds a private one by its id.
func listLeavesOutPrivateGames(t *testing.T, newDB func(testing.TB) string) {
	ctx := context.Background()
	s := Open(t, newDB(t))
	for i := range 6 {
		room := "PUBLIC23"
		if i%2 == 1 {
			room = "" // a private room's game
		}
		if _, err := s.Save(ctx, game(room, i, "")); err != nil {
			t.Fatal(err)
		}
	}
	if ids := all(t, s, 2); len(ids) != 3 || ids[0] != 5 || ids[1] != 3 || ids[2] != 1 {
		t.Fatalf("listed %v; want the public games 5, 3, 1", ids)
	}
	if g, err := s.Get(ctx, 2); err != nil || g.Room != "" || g.Table != 1 {
		t.Fatalf("get 2: %+v %v", g, err)
	}
}

// saveKeyStoresOnce saves one game three times under its key and
// another without one twice: the keyed game is stored once, and each
// save of it returns that game's id; games without a key are all stored.
func saveKeyStoresOnce(t *testing.T, newDB func(testing.TB) string) {
	ctx := context.Background()
	db := newDB(t)
	s := Open(t, db)
	var ids []int64
	for i, key := range []string{"R/x/1", "", "R/x/1", "R/x/2", "", "R/x/1"} {
		id, err := s.Save(ctx, game("R", i, key))
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
	if listed := all(t, s, 100); len(listed) != 4 {
		t.Fatalf("%d games stored (%v); want 4", len(listed), listed)
	}
	if g, err := s.Get(ctx, ids[0]); err != nil || g.Table != 0 {
		t.Fatalf("the keyed game: %+v, %v; want the first one saved", g, err)
	}
	// The key holds across servers: another one on the same database
	// stores the game no more.
	s2 := Open(t, db)
	if id, err := s2.Save(ctx, game("R", 9, "R/x/2")); err != nil || id != ids[3] {
		t.Fatalf("the game saved again by another server: id %d, %v; want %d", id, err, ids[3])
	}
}

// saveKeyAtOnce saves one game under its key from several goroutines at
// once: it is stored once, and every save returns its id.
func saveKeyAtOnce(t *testing.T, newDB func(testing.TB) string) {
	ctx := context.Background()
	s := Open(t, newDB(t))
	const n = 8
	ids := make([]int64, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { ids[i], errs[i] = s.Save(ctx, game("R", i, "R/y/1")) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Fatalf("save %d: id %d, %v; the first's was %d", i, ids[i], errs[i], ids[0])
		}
	}
	if listed := all(t, s, 100); len(listed) != 1 || listed[0] != ids[0] {
		t.Fatalf("stored %v; want the one game %d", listed, ids[0])
	}
}

// emptyLists saves a game with no seats, scores or winners (nil): they
// come back empty, not nil, so that the history's JSON holds [].
func emptyLists(t *testing.T, newDB func(testing.TB) string) {
	ctx := context.Background()
	s := Open(t, newDB(t))
	id, err := s.Save(ctx, &store.Game{Summary: store.Summary{Room: "R", Game: "tower"}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Get(ctx, id)
	if err != nil || g.Seats == nil || g.Scores == nil || g.Winners == nil || len(g.Seats)+len(g.Scores)+len(g.Winners) != 0 || len(g.Record) != 0 {
		t.Fatalf("got %+v, %v", g, err)
	}
}

// openTogether opens a fresh database from several goroutines at once,
// as servers starting together do: each migrates or finds it migrated,
// none fails, and all see the one schema.
func openTogether(t *testing.T, newDB func(testing.TB) string) {
	db := newDB(t)
	const n = 4
	stores := make([]store.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = store.Open(context.Background(), db, 10*time.Second) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("open %d: %v", i, errs[i])
		}
		defer stores[i].Close()
	}
	if _, err := stores[0].Save(context.Background(), game("R", 0, "k")); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if ids := all(t, stores[i], 10); len(ids) != 1 {
			t.Fatalf("store %d lists %v", i, ids)
		}
	}
}

// closed saves to a closed database: the save fails, saying the database
// is closed.
func closed(t *testing.T, newDB func(testing.TB) string) {
	s, err := store.Open(context.Background(), newDB(t), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := s.Save(context.Background(), game("R", 0, "")); store.Cause(err) != "the database is closed" ||
		!strings.Contains(err.Error(), "the database is closed") {
		t.Fatalf("save to a closed database: %v (cause %q)", err, store.Cause(err))
	}
}
