package room

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/store"
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
// game; one more restart stores it no second time.
func TestRestoreStoresUnstoredGames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dobble.db")
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

	stored := func(s *store.Store) int {
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
		st, err := store.Open(context.Background(), filepath.Join(dir, "history.db"), time.Second)
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

// TestEntryJSON checks the entry's own encoder against encoding/json, which
// wrote the journal's entries before it and still reads them: the same
// bytes for every kind of entry; a request that is not compact, or holds
// what encoding/json would escape, kept as it came, and read back as the
// same request.
func TestEntryJSON(t *testing.T) {
	bot := "easy"
	for _, e := range []entry{
		{Open: &protocol.RoomSpec{Game: "tower", Seats: 2, Bots: []*string{nil, &bot}}, Code: "ABCD", Now: 1},
		{Req: json.RawMessage(`{"type":"claim","symbol":3,"target":[1],"table":0,"version":7,"id":"9"}`), Peer: 2, Name: "ann", At: 1_700_000_000_123, Now: 1_700_000_000_124},
		{Req: json.RawMessage(`{"type":"hello","v":1,"name":"\u00e9t\u00e9 \"q\""}`), Peer: 1, Name: "été <b> & \"q\"\n\u2028", At: -5, Now: -4},
		{Req: json.RawMessage(`{"type":"resume","room":"ABCD","id":"","token":"-"}`), Peer: 3, TokenHash: "ab12", Now: 7},
		{Gone: []int{1, 4}, At: 9, Now: 10},
		{Restart: true, Now: 11},
		{Req: json.RawMessage(`{"type":"start"}`), Peer: 1, Draws: []string{"18446744073709551615", "deadbeef"}, Now: 12},
		{Now: 0},
	} {
		got, err := e.appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("entry %+v:\n got %s\nwant %s", e, got, want)
		}
	}

	// A request as a client may send it, spaces and escapes included.
	raw := []byte("{ \"type\" : \"claim\",\n\"symbol\": 3, \"target\": [ 1 ], \"table\": 0, \"version\": 7, \"id\": \"<\\u0039>\" }")
	var req protocol.Request
	if perr := protocol.Decode(raw, &req); perr != nil {
		t.Fatal(perr)
	}
	b, err := (&entry{Req: raw, Peer: 1, Now: 3}).appendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	var back entry
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	var again protocol.Request
	if perr := protocol.Decode(back.Req, &again); perr != nil || !reflect.DeepEqual(again, req) {
		t.Fatalf("the request read back from %s is %+v (%v), want %+v", b, again, perr, req)
	}
}

// TestJournalReplaysEntriesOfEncodingJSON restores a room from a journal
// whose entries encoding/json wrote, as servers did before the entry had
// an encoder of its own (the request compacted again): the room comes back
// at the same version with the same seats, and its host resumes it.
func TestJournalReplaysEntriesOfEncodingJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dobble.db")
	h := newHarness(t, testConfig())
	h.useJournal(openJournal(t, path))
	host := h.connect("host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2, "bots": [null, "easy"]}}`)
	joined := host.take("joined")
	code, token := joined.str("room"), joined.str("token")
	host.send(`{"type": "start"}`)
	h.advance(testConfig().Countdown)
	r := h.room()
	for range 4 {
		h.advance(500 * time.Millisecond)
		if st := r.tab.State(); !st.Over() {
			host.act(st.Moves(0, nil)[0], 0)
		}
	}
	if err := h.m.journal.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	version := r.tab.State().Version()

	// The same entries, written again by encoding/json, into a journal of
	// their own.
	rooms := openJournal(t, path).Load()
	if len(rooms) != 1 {
		t.Fatalf("the journal holds %d rooms, want 1", len(rooms))
	}
	old := openJournal(t, filepath.Join(dir, "old.db"))
	for jid, es := range rooms {
		for _, je := range es {
			var e entry
			if err := json.Unmarshal(je.Data, &e); err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(&e)
			if err != nil {
				t.Fatal(err)
			}
			old.Append(jid, je.Seq, data, nil)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	h2 := newHarness(t, testConfig())
	h2.now = h.now.Add(time.Minute)
	h2.useJournal(openJournal(t, filepath.Join(dir, "old.db")))
	if n, err := h2.m.Restore(); n != 1 || err != nil {
		t.Fatalf("restored %d rooms (%v), want 1", n, err)
	}
	r2 := h2.room()
	if r2.code != code || r2.tab.State().Version() != version || version < 4 {
		t.Fatalf("restored room %s at version %d; want %s at %d (4 claims at least)", r2.code, r2.tab.State().Version(), code, version)
	}
	back := h2.connect("host")
	back.send(`{"type": "resume", "room": %q, "token": %q}`, code, token)
	if j := back.take("joined"); j.num("seat") != 0 {
		t.Fatalf("resumed: %v", j)
	}
}
