package room

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/record"
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

// TestRestoreCutsABadTail plays five rooms, then damages the journal of
// four in the SQLite file as a disk or a crash might: the last entry's data
// cut in half, an entry turned to garbage bytes, one that decodes but holds
// a request that cannot be replayed, one missing. The next server restores
// each of the four as its entries before the damage make it (the phase,
// the version and the record a journal cut there by hand restores), deletes the entries from the damage
// on, logs and counts what it cut, and numbers the room's next entry after
// the last it kept; the fifth room is restored whole.
func TestRestoreCutsABadTail(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dobble.db")
	h := newHarness(t, testConfig())
	j := openJournal(t, path)
	h.useJournal(j)
	var codes []string
	var hosts []*client
	for range 5 {
		host := startRoom(h, `{"game": "tower", "seats": 2, "bots": [null, "easy"], "deck": "order-3"}`)[0]
		hosts = append(hosts, host)
		codes = append(codes, h.room().code)
	}
	for range 6 {
		h.advance(700 * time.Millisecond)
		for i, r := range h.rooms {
			if st := r.tab.State(); !st.Over() {
				hosts[i].act(st.Moves(0, nil)[0], 0)
			}
		}
	}
	versions := map[string]uint64{}
	for _, r := range h.rooms {
		versions[r.code] = r.tab.State().Version()
	}
	h.flush()
	j.Close()

	// The damage, each to one room, at an entry near its end.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(code string) []int64 {
		t.Helper()
		rows, err := db.Query(`SELECT id FROM journal WHERE room LIKE ? ORDER BY id`, code+"/%")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []int64
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			out = append(out, id)
		}
		if len(out) < 8 {
			t.Fatalf("room %s has %d entries; the test damages one of its last four", code, len(out))
		}
		return out
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	kept := map[string]int{} // by room, the entries restored
	entries := map[string]int{}
	for i, code := range codes {
		es := ids(code)
		entries[code] = len(es)
		switch i {
		case 0: // a write cut in half
			kept[code] = len(es) - 1
			exec(`UPDATE journal SET data = substr(data, 1, length(data)/2) WHERE id = ?`, es[kept[code]])
		case 1: // garbage
			kept[code] = len(es) - 3
			exec(`UPDATE journal SET data = x'00ff13fe7b22' WHERE id = ?`, es[kept[code]])
		case 2: // an entry that decodes, with a request that does not
			kept[code] = len(es) - 2
			exec(`UPDATE journal SET data = '{"req":{"type":"fly","to":"moon"},"peer":1,"now":1}' WHERE id = ?`, es[kept[code]])
		case 3: // a missing entry
			kept[code] = len(es) - 4
			exec(`DELETE FROM journal WHERE id = ?`, es[kept[code]])
		default:
			kept[code] = len(es)
		}
	}
	// The same journal, cut by hand where each room's damage begins.
	clean := filepath.Join(dir, "clean.db")
	exec(`VACUUM INTO ?`, clean)
	db.Close()
	cdb, err := sql.Open("sqlite", clean)
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range codes {
		if _, err := cdb.Exec(`DELETE FROM journal WHERE room LIKE ? AND seq > ?`, code+"/%", kept[code]); err != nil {
			t.Fatal(err)
		}
	}
	cdb.Close()

	restore := func(path string, logs *bytes.Buffer) (*harness, map[string]*Room) {
		t.Helper()
		cfg := testConfig()
		cfg.Log = slog.New(slog.NewTextHandler(logs, nil))
		h2 := newHarness(t, cfg)
		h2.now = h.now.Add(time.Minute)
		h2.useJournal(openJournal(t, path))
		if n, err := h2.m.Restore(); n != 5 || err != nil {
			t.Fatalf("%s: restored %d rooms (%v), want 5; the log:\n%s", path, n, err, logs)
		}
		h2.flush()
		rooms := map[string]*Room{}
		for _, r := range h2.rooms {
			rooms[r.code] = r
		}
		return h2, rooms
	}
	var logs, cleanLogs bytes.Buffer
	h2, got := restore(path, &logs)
	_, want := restore(clean, &cleanLogs)
	if cleanLogs.Len() != 0 {
		t.Fatalf("restoring the journal cut by hand logged:\n%s", &cleanLogs)
	}
	for i, code := range codes {
		g, w := got[code], want[code]
		if g == nil || w == nil {
			t.Fatalf("room %s: restored %v, from the journal cut by hand %v", code, g != nil, w != nil)
		}
		if g.phase != w.phase || g.tab.State().Version() != w.tab.State().Version() || g.rec.buf.String() != w.rec.buf.String() {
			t.Fatalf("room %s: restored in phase %s at version %d; cut by hand, %s at %d (or another record)", code,
				g.phase, g.tab.State().Version(), w.phase, w.tab.State().Version())
		}
		if i == 4 && g.tab.State().Version() != versions[code] {
			t.Fatalf("the undamaged room %s is restored at version %d, it was at %d", code, g.tab.State().Version(), versions[code])
		}
		if i < 4 && !strings.Contains(logs.String(), "room="+code+"/") {
			t.Fatalf("nothing logged of room %s:\n%s", code, &logs)
		}
	}
	for _, why := range []string{"unexpected end of JSON input", "invalid character", "fly", "entry " + fmt.Sprint(kept[codes[3]]+1) + " is missing"} {
		if !strings.Contains(logs.String(), why) {
			t.Fatalf("the log does not say %q:\n%s", why, &logs)
		}
	}
	cut := 0
	for _, code := range codes {
		cut += entries[code] - kept[code]
	}
	cut-- // the missing entry was not there to delete
	if n := h2.metric("dobble_journal_entries_cut_total"); n != float64(cut) {
		t.Fatalf("dobble_journal_entries_cut_total %v, want %d", n, cut)
	}
	if n := h2.metric("dobble_journal_failures_total"); n != 4 {
		t.Fatalf("dobble_journal_failures_total %v, want 4", n)
	}
	// The journal now holds each room's entries up to the damage, then
	// the restart, numbered on.
	h2.journal.Close()
	j3 := openJournal(t, path)
	for jid, es := range j3.Load() {
		code := jid[:strings.Index(jid, "/")]
		if len(es) != kept[code]+1 {
			t.Fatalf("room %s keeps %d entries, want %d and the restart", code, len(es), kept[code])
		}
		for i, e := range es {
			if e.Seq != int64(i+1) {
				t.Fatalf("room %s: entry %d is numbered %d", code, i+1, e.Seq)
			}
		}
	}
}

// TestRoomRecordsSession plays a session of two mini-games in a room of a
// person and two hard bots on the order-2 deck, one of whose mini-games
// ends in a tie that a tie-break breaks (as the harness's seeds deal it);
// the person claims nothing, and lets its time to pick run out should it
// pick. The three stored games each end with their session line, and
// together, in the order of their tables, check as a session
// (record.CheckSession).
func TestRoomRecordsSession(t *testing.T) {
	h := newHarness(t, testConfig())
	startRoom(h, `{"game": "tower", "seats": 3, "bots": [null, "hard", "hard"], "deck": "order-2", "games": 2}`)
	r := h.room()
	h.advanceUntil("the session's end", 250*time.Millisecond, 10*time.Minute, func() bool { return r.phase == PhaseOver })
	h.m.saves.Wait()
	games, err := h.store.List(context.Background(), 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]*record.Record, len(games))
	tieBreaks := 0
	for _, sum := range games {
		g, err := h.store.Get(context.Background(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := record.ReadAll(bytesReader(g.Record))
		if err != nil || len(rs) != 1 || rs[0].Session == nil || sum.Table >= len(recs) {
			t.Fatalf("the record of table %d: %d records, %v", sum.Table, len(rs), err)
		}
		recs[sum.Table] = rs[0]
		if sum.TieBreak {
			tieBreaks++
		}
	}
	if len(recs) != 3 || tieBreaks != 1 {
		t.Fatalf("%d tables stored, %d tie-breaks; the test wants a tie broken", len(recs), tieBreaks)
	}
	if err := record.CheckSession(recs); err != nil {
		t.Fatal(err)
	}
	if last := recs[2].Session; !last.Over || !slices.Equal(last.Standings.Winners, r.play.Standings().Winners) {
		t.Fatalf("the last session line: over %v, winners %v; the room's winners %v", last.Over, last.Standings.Winners, r.play.Standings().Winners)
	}
}
