package web

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/store/storetest"
)

// startOnFile runs a server like start, its store the SQLite file path
// opened with a short wait for locks, so that a save against a locked
// database fails at once.
func startOnFile(t *testing.T, cfg room.Config, path string) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), path, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	return startOn(t, cfg, st)
}

// TestFailedSaveIsReportedAndRetried finishes a game while another
// process holds the database's write lock (a real SQLite error,
// SQLITE_BUSY): the server keeps playing, /healthz answers 503 saying
// what fails and since when, /metrics counts the failure and the game
// waiting, the player is told the game is not stored yet. Once the lock
// is released the retry stores the game: the player is told its id, it
// is in the history, and /healthz is healthy again.
func TestFailedSaveIsReportedAndRetried(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dobble.db")
	ts := startOnFile(t, fastConfig(), path)

	holder, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	lock, err := holder.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}

	a := ts.connect("alice")
	a.create(msg{"game": "tower", "seats": 2, "games": 1, "bots": []any{nil, "instant"}})
	a.send(msg{"type": "start"})
	if o := a.expect("over"); o.num("table") != 0 {
		t.Fatalf("over %v", o)
	}
	saved := a.expect("saved")
	if saved.str("status") != "retrying" || saved.num("table") != 0 || !strings.Contains(saved.str("reason"), "locked") {
		t.Fatalf("the notice of the failed save: %v", saved)
	}
	var health struct {
		Error string `json:"error"`
		Since string `json:"since"`
	}
	eventually(t, "/healthz reports the failing store", func() bool {
		code, body := ts.get("/healthz")
		return code == http.StatusServiceUnavailable && json.Unmarshal(body, &health) == nil
	})
	if _, err := time.Parse(time.RFC3339, health.Since); err != nil || !strings.Contains(health.Error, "cannot be stored since "+health.Since) ||
		!strings.Contains(health.Error, "locked") {
		t.Fatalf("/healthz: %+v", health)
	}
	if f := ts.metric("dobble_store_failures_total"); f < 1 {
		t.Fatalf("dobble_store_failures_total %v after a failed save", f)
	}
	if w := ts.metric("dobble_store_backlog"); w != 1 {
		t.Fatalf("dobble_store_backlog %v with one game waiting", w)
	}
	if f := ts.metric("dobble_store_failing"); f != 1 {
		t.Fatalf("dobble_store_failing %v", f)
	}
	// The server keeps playing: a rematch starts.
	a.send(msg{"type": "start"})
	a.expect("countdown")

	if _, err := lock.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	// The rematch's game may finish while the first still waits: its
	// players are told so too, and it is stored after the first.
	for {
		s := a.expect("saved")
		if s.num("table") == 1 && s.str("status") == "retrying" {
			continue
		}
		if s.str("status") != "stored" || s.num("table") != 0 || s.num("id") != 1 {
			t.Fatalf("the notice of the retried save: %v", s)
		}
		break
	}
	eventually(t, "/healthz is healthy again", func() bool {
		code, body := ts.get("/healthz")
		return code == http.StatusOK && string(body) == "ok\n"
	})
	if code, body := ts.get("/api/history/1"); code != http.StatusOK || !strings.Contains(string(body), `"tower"`) {
		t.Fatalf("/api/history/1 after the retry: %d %.200s", code, body)
	}
	eventually(t, "no game waits to be stored", func() bool {
		return ts.metric("dobble_store_backlog") == 0 && ts.metric("dobble_store_failing") == 0
	})
}

// TestPostgresUnavailableForAWhile plays on a server whose PostgreSQL
// database goes away (a proxy in front of it stops: its connections are
// cut, new ones refused) and comes back. Two games finish while it is
// away: the server keeps playing, the players are told their games are
// not stored yet because the database cannot be reached (the connection
// lost, then refused), /healthz answers
// 503 saying so, /metrics counts the failures and the games waiting. Once
// the database is back, both games are stored, once each, in order, the
// players told their ids, and the history and the replay serve them.
func TestPostgresUnavailableForAWhile(t *testing.T) {
	proxy, db := storetest.ProxyTo(t, storetest.Postgres(t))
	ts := startOn(t, fastConfig(), storetest.Open(t, db))
	unreachable := func(reason string) bool {
		return strings.Contains(reason, "the database server cannot be reached") || strings.Contains(reason, "the connection to the database was lost")
	}
	proxy.Stop()

	a := ts.connect("alice")
	a.create(msg{"game": "tower", "seats": 2, "games": 1, "bots": []any{nil, "instant"}})
	a.send(msg{"type": "start"})
	if o := a.expect("over"); o.num("table") != 0 {
		t.Fatalf("over %v", o)
	}
	if s := a.expect("saved"); s.str("status") != "retrying" || s.num("table") != 0 || !unreachable(s.str("reason")) {
		t.Fatalf("the notice of the failed save: %v", s)
	}
	var health struct {
		Error string `json:"error"`
	}
	eventually(t, "/healthz reports the failing store", func() bool {
		code, body := ts.get("/healthz")
		return code == http.StatusServiceUnavailable && json.Unmarshal(body, &health) == nil
	})
	if !unreachable(health.Error) {
		t.Fatalf("/healthz: %+v", health)
	}
	// The server keeps playing: a rematch is played to its end, and its
	// game waits behind the first.
	a.send(msg{"type": "start"})
	if o := a.expect("over"); o.num("table") != 1 {
		t.Fatalf("over %v", o)
	}
	if s := a.expect("saved"); s.str("status") != "retrying" || s.num("table") != 1 || !unreachable(s.str("reason")) {
		t.Fatalf("the notice of the rematch's save: %v", s)
	}
	if f := ts.metric("dobble_store_failures_total"); f < 1 {
		t.Fatalf("dobble_store_failures_total %v after a failed save", f)
	}
	if w := ts.metric("dobble_store_backlog"); w != 2 {
		t.Fatalf("dobble_store_backlog %v with two games waiting", w)
	}
	// Once the connections cut are found closed, the server is tried
	// again and refuses them.
	eventually(t, "a second failed try", func() bool { return ts.metric("dobble_store_failures_total") >= 2 })
	if code, body := ts.get("/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(string(body), "the database server cannot be reached") {
		t.Fatalf("/healthz after the second try: %d %s", code, body)
	}

	proxy.Start()
	for table := range 2 {
		if s := a.expect("saved"); s.str("status") != "stored" || s.num("table") != table || s.num("id") != table+1 {
			t.Fatalf("the notice of table %d once the database is back: %v", table, s)
		}
	}
	eventually(t, "/healthz is healthy again", func() bool {
		code, body := ts.get("/healthz")
		return code == http.StatusOK && string(body) == "ok\n"
	})
	if ts.metric("dobble_store_backlog") != 0 || ts.metric("dobble_store_failing") != 0 || ts.metric("dobble_games_lost_total") != 0 {
		t.Fatal("the metrics do not show the store working again")
	}
	var history struct {
		Games []store.Summary `json:"games"`
	}
	if code, body := ts.get("/api/history"); code != http.StatusOK || json.Unmarshal(body, &history) != nil ||
		len(history.Games) != 2 || history.Games[0].ID != 2 || history.Games[1].Table != 0 {
		t.Fatalf("/api/history: %d %.300s", code, body)
	}
	for _, path := range []string{"/api/history/1", "/api/history/2/steps"} {
		if code, body := ts.get(path); code != http.StatusOK || !strings.Contains(string(body), `"tower"`) {
			t.Fatalf("%s: %d %.200s", path, code, body)
		}
	}
}
