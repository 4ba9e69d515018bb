package room

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/store/storetest"
)

// openJournal opens the journal in the SQLite file at path for the test.
func openJournal(t *testing.T, path string) *journal.Journal {
	t.Helper()
	j, err := journal.Open(context.Background(), path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// TestJournalRestoresRooms plays a Tower between two people a few claims
// in, then leaves the Manager as a crash would and opens a new one on the
// same journal: it restores the room with its code, its table at the same
// version and its seats held; each person resumes with its token and gets
// the table as it was, and play goes on from there. A frame is only ever
// sent once its turn is in the journal.
func TestJournalRestoresRooms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dobble.db")
	h := newHarness(t, testConfig())
	h.useJournal(openJournal(t, path))
	host := h.connect("host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2, "bots": [null, "easy"]}}`)
	joined := host.take("joined")
	code, token := joined.str("room"), joined.str("token")
	guest := h.connect("guest")
	guest.send(`{"type": "watch", "room": %q}`, code)
	guest.take("joined")
	host.send(`{"type": "start"}`)
	h.advance(testConfig().Countdown)
	r := h.room()
	// The host claims four times, half a second apart; the bot plays too.
	for range 4 {
		h.advance(500 * time.Millisecond)
		st := r.tab.State()
		if st.Over() {
			break
		}
		host.act(st.Moves(0, nil)[0], 0)
	}
	version := r.tab.State().Version()
	if version < 4 {
		t.Fatalf("the table is at version %d after four claims", version)
	}
	var seen uint64
	for _, f := range host.frames {
		if f.str("type") == "update" {
			seen = max(seen, uint64(f.num("version")))
		}
	}
	if seen != version {
		t.Fatalf("the host saw version %d, the table is at %d", seen, version)
	}

	// The crash: the first Manager stops taking anything; its journal is
	// all there is. A new server opens it.
	h2 := newHarness(t, testConfig())
	h2.now = h.now.Add(time.Minute)
	h2.useJournal(openJournal(t, path))
	if n, err := h2.m.Restore(); n != 1 || err != nil {
		t.Fatalf("restored %d rooms (%v), want 1", n, err)
	}
	r2 := h2.room()
	if r2.code != code || r2.phase != PhasePlay || r2.tab.State().Version() != version {
		t.Fatalf("restored room %s in phase %s at version %d; want %s in play at %d", r2.code, r2.phase, r2.tab.State().Version(), code, version)
	}
	if s := r2.seats[0]; s.peer != nil || s.held.IsZero() {
		t.Fatalf("the host's seat after the restart: %+v, want held", s)
	}
	back := h2.connect("host")
	back.send(`{"type": "resume", "room": %q, "token": %q}`, code, token)
	if j := back.take("joined"); j.num("seat") != 0 || j.str("token") != token {
		t.Fatalf("resumed: %v", j)
	}
	st := back.take("state")
	if v := st["view"].(map[string]any)["version"]; v != float64(version) {
		t.Fatalf("the state on resuming is at version %v, want %d", v, version)
	}
	// A wrong token resumes nothing.
	other := h2.connect("mallory")
	other.send(`{"type": "resume", "room": %q, "token": %q}`, code, "00"+token[2:])
	if e := other.take("error"); e.str("code") != "badToken" {
		t.Fatalf("a wrong token: %v", e)
	}
	// Play goes on from the version the host saw.
	h2.advance(restartGrace)
	if !r2.tab.State().Over() {
		back.act(r2.tab.State().Moves(0, nil)[0], 0)
		if u := back.take("update"); uint64(u.num("version")) <= version {
			t.Fatalf("the first update after the restart: %v", u)
		}
	}
	// A second crash: the journal now holds the resume too, and replays it.
	version = r2.tab.State().Version()
	h3 := newHarness(t, testConfig())
	h3.now = h2.now.Add(time.Minute)
	h3.useJournal(openJournal(t, path))
	if n, err := h3.m.Restore(); n != 1 || err != nil {
		t.Fatalf("the second restart restored %d rooms (%v), want 1", n, err)
	}
	if r3 := h3.room(); r3.tab.State().Version() != version {
		t.Fatalf("after the second restart the table is at version %d, want %d", r3.tab.State().Version(), version)
	}
	third := h3.connect("host")
	third.send(`{"type": "resume", "room": %q, "token": %q}`, code, token)
	third.take("joined")
}

// refusingSaver fails every save, as a store that cannot be reached does.
type refusingSaver struct{}

func (refusingSaver) Save(context.Context, *store.Game) (int64, error) {
	return 0, errors.New("store: the disk is full")
}

// TestRestoreStoresUnstoredGames ends a Tower whose game the store cannot
// take, so that it is durable in the journal and nowhere else, and crashes;
// the next server, on a store that works, restores the room and stores the
// game; one more restart stores it no second time. The history is a
// SQLite file or a PostgreSQL database, the journal a file of its own.
func TestRestoreStoresUnstoredGames(t *testing.T) {
	storetest.ForEach(t, restoreStoresUnstoredGames)
}

func restoreStoresUnstoredGames(t *testing.T, kind storetest.Kind) {
	history := kind.New(t)
	path := filepath.Join(t.TempDir(), "dobble.db")
	h := newHarness(t, testConfig())
	h.m.saver = refusingSaver{}
	h.useJournal(openJournal(t, path))
	host := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "easy"], "deck": "order-2", "games": 2}`)[0]
	r := h.room()
	h.advanceUntil("the first table ends", 500*time.Millisecond, 10*time.Minute, func() bool {
		if st := r.tab.State(); !st.Over() {
			if moves := st.Moves(0, nil); len(moves) > 0 {
				host.act(moves[0], 0)
			}
		}
		return r.tableNo > 0 || r.tab.State().Over()
	})
	host.await("over")

	stored := func(s store.Store) int {
		t.Helper()
		games, err := s.List(context.Background(), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		return len(games)
	}
	if n := stored(h.store); n != 0 {
		t.Fatalf("%d games stored by a store that refuses them", n)
	}
	for restart := 1; restart <= 2; restart++ {
		h2 := newHarness(t, testConfig())
		h2.store.Close()
		st, err := store.Open(context.Background(), history, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		h2.m.saver = st
		h2.now = h.now.Add(time.Duration(restart) * time.Minute)
		h2.useJournal(openJournal(t, path))
		if n, err := h2.m.Restore(); n != 1 || err != nil {
			t.Fatalf("restart %d restored %d rooms (%v), want 1", restart, n, err)
		}
		h2.m.saves.Wait()
		if n := stored(st); n != 1 {
			t.Fatalf("after restart %d, %d games stored; want the 1 that ended", restart, n)
		}
		h2.m.Close()
	}
}
