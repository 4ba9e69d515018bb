package room

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/internal/logtest"
	"github.com/dobble-dev/dobble/store"
)

// waitFor polls cond until it holds, failing the test after a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// awaitSaved has the rooms send what they are told until c has a saved
// message of the given status waiting, failing the test after a deadline.
func (h *harness) awaitSaved(c *client, status string) {
	h.t.Helper()
	waitFor(h.t, c.name+" is told a game is "+status, func() bool {
		h.pump()
		for _, f := range c.frames {
			if f.str("type") == "saved" && f.str("status") == status {
				return true
			}
		}
		return false
	})
}

// holdWriteLock takes the write lock of the SQLite database at path from
// another connection, as another process would, until release is called
// or the test ends.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			conn.ExecContext(context.Background(), "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// TestSavesThatFail finishes games while another connection holds the
// database's write lock, so that every save fails with SQLite's own
// error, with a backlog of one game: the first game waits to be tried
// again and its room is told so; the second, the backlog full, is lost at
// once and its room is told that; both are logged and counted, and the
// Manager reports the failure. Closing the Manager gives the waiting game
// its last try, which fails: it is lost too, logged and counted, and
// nothing is stored.
func TestSavesThatFail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dobble.db")
	st, err := store.Open(context.Background(), path, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.SaveBacklog = 1
	h := newHarnessOn(t, cfg, st)
	var logs logtest.Buffer
	h.m.saves.log = slog.New(slog.NewTextHandler(&logs, nil))
	// No retry before the Manager closes: the pause is an hour.
	h.m.saves.pauses = [2]time.Duration{time.Hour, time.Hour}
	release := holdWriteLock(t, path)

	spec := `{"game": "tower", "seats": 2, "bots": [null, "instant"], "games": 1}`
	a := startRoom(h, spec)[0]
	a.await("over")
	h.awaitSaved(a, "retrying")
	if s := a.take("saved"); s.str("status") != "retrying" || s.num("table") != 0 || s.str("game") != "tower" ||
		!strings.Contains(s.str("reason"), "locked by another process") {
		t.Fatalf("the first game's room was told %v", s)
	}
	if hl := h.m.SaveHealth(); !hl.Failing || hl.Since.IsZero() || hl.Waiting != 1 || hl.Lost != 0 || !strings.Contains(hl.Err.Error(), "SQLITE_BUSY") {
		t.Fatalf("after the first failure: %+v", hl)
	}

	b := startRoom(h, spec)[0]
	b.await("over")
	h.pump()
	if s := b.take("saved"); s.str("status") != "lost" || s.num("table") != 0 || !strings.Contains(s.str("reason"), "too many wait") {
		t.Fatalf("the second game's room was told %v", s)
	}
	a.none("saved")
	if hl := h.m.SaveHealth(); !hl.Failing || hl.Waiting != 1 || hl.Lost != 1 {
		t.Fatalf("after the second game: %+v", hl)
	}
	for name, want := range map[string]float64{"dobble_games_total": 2, "dobble_games_lost_total": 1, "dobble_store_backlog": 1,
		"dobble_store_failing": 1, "dobble_store_failures_total": 1, "dobble_games_stored_total": 0} {
		if got := h.metric(name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	for _, want := range []string{"could not be stored; it is kept and tried again", "SQLITE_BUSY", "room=" + h.rooms[0].code,
		"lost: too many games wait to be stored already", "room=" + h.rooms[1].code} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs.String())
		}
	}

	h.m.Close()
	if hl := h.m.SaveHealth(); hl.Waiting != 0 || hl.Lost != 2 || hl.Failures != 2 {
		t.Fatalf("after closing: %+v", hl)
	}
	if got := h.metric("dobble_games_lost_total"); got != 2 {
		t.Errorf("dobble_games_lost_total = %v after closing, want 2", got)
	}
	if !strings.Contains(logs.String(), "could not be stored before the server stopped") {
		t.Errorf("the log does not say the waiting game was lost on closing:\n%s", logs.String())
	}
	release()
	if games, err := st.List(context.Background(), 0, 10); err != nil || len(games) != 0 {
		t.Fatalf("%d games stored, %v", len(games), err)
	}
}

// TestSaveRetriedUntilItWorks holds the write lock while a game finishes,
// then lets go of it: the game is tried again until it is stored, its
// room told so with its id, the log says saving works again and the
// Manager is healthy.
func TestSaveRetriedUntilItWorks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dobble.db")
	st, err := store.Open(context.Background(), path, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessOn(t, testConfig(), st)
	var logs logtest.Buffer
	h.m.saves.log = slog.New(slog.NewTextHandler(&logs, nil))
	h.m.saves.pauses = [2]time.Duration{time.Millisecond, 4 * time.Millisecond}
	release := holdWriteLock(t, path)

	a := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "instant"], "games": 1}`)[0]
	a.await("over")
	waitFor(t, "the save fails twice", func() bool { return h.m.SaveHealth().Failures >= 2 })
	release()
	h.awaitSaved(a, "stored")
	if s := a.take("saved"); s.str("status") != "retrying" {
		t.Fatalf("first told %v", s)
	}
	if s := a.take("saved"); s.str("status") != "stored" || s.num("id") != 1 || s.num("table") != 0 {
		t.Fatalf("then told %v", s)
	}
	a.none("saved")
	if hl := h.m.SaveHealth(); hl.Failing || hl.Waiting != 0 || hl.Lost != 0 || hl.Err != nil {
		t.Fatalf("once stored: %+v", hl)
	}
	if h.metric("dobble_store_failing") != 0 || h.metric("dobble_store_backlog") != 0 || h.metric("dobble_store_failures_total") < 2 {
		t.Fatal("the metrics do not show the store working again")
	}
	if !strings.Contains(logs.String(), "finished games are stored again") {
		t.Errorf("the log does not say saving works again:\n%s", logs.String())
	}
	if g, err := st.Get(context.Background(), 1); err != nil || g.Room != h.rooms[0].code {
		t.Fatalf("the stored game: %+v, %v", g, err)
	}
}
