package journal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// open opens a journal in a new file of the test's temporary directory.
func open(t testing.TB, o Options) (*Journal, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dobble.db")
	j, err := Open(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j, path
}

// appendWait appends one entry and waits until it is durable.
func appendWait(t testing.TB, j *Journal, room string, seq int64, data string) {
	t.Helper()
	ch := make(chan error, 1)
	j.Append(room, seq, []byte(data), func(err error) { ch <- err })
	if err := <-ch; err != nil {
		t.Fatal(err)
	}
}

// TestAppendLoadDrop appends entries of several rooms from many goroutines,
// reopens the file and finds each room's entries in order; a dropped room
// is gone.
func TestAppendLoadDrop(t *testing.T) {
	var batches, entries int
	var mu sync.Mutex
	j, path := open(t, Options{Observe: func(n int, _ time.Duration, err error) {
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		batches++
		entries += n
		mu.Unlock()
	}})
	const rooms, each = 20, 50
	var wg sync.WaitGroup
	for r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var acked sync.WaitGroup
			for s := int64(1); s <= each; s++ {
				acked.Add(1)
				j.Append(fmt.Sprintf("room%02d", r), s, []byte(fmt.Sprintf("r%d e%d", r, s)), func(err error) {
					if err != nil {
						t.Error(err)
					}
					acked.Done()
				})
			}
			acked.Wait()
		}()
	}
	wg.Wait()
	dropped := make(chan error, 1)
	j.Drop("room07", func(err error) { dropped <- err })
	if err := <-dropped; err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if entries != rooms*each+1 {
		t.Fatalf("%d writes in %d batches, want %d", entries, batches, rooms*each+1)
	}
	t.Logf("%d writes in %d batches", entries, batches)

	j, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	got := j.Load()
	if len(got) != rooms-1 {
		t.Fatalf("%d rooms, want %d", len(got), rooms-1)
	}
	if _, ok := got["room07"]; ok {
		t.Fatal("the dropped room is still there")
	}
	for r := range rooms {
		if r == 7 {
			continue
		}
		es := got[fmt.Sprintf("room%02d", r)]
		if len(es) != each {
			t.Fatalf("room %d: %d entries, want %d", r, len(es), each)
		}
		for i, e := range es {
			if want := fmt.Sprintf("r%d e%d", r, i+1); e.Seq != int64(i+1) || string(e.Data) != want {
				t.Fatalf("room %d entry %d: %d %q, want %d %q", r, i, e.Seq, e.Data, i+1, want)
			}
		}
	}
}

// TestOneBatch writes one batch that takes every insert statement the
// writer has (127 entries: 64, 32, 16… 1), with writes that hold no entry
// and a drop among them, and finds every entry in its place.
func TestOneBatch(t *testing.T) {
	var sizes []int
	j, path := open(t, Options{Window: time.Hour, Observe: func(n int, _ time.Duration, err error) {
		if err != nil {
			t.Error(err)
		}
		sizes = append(sizes, n)
	}})
	const entries = 1<<insertChunks - 1
	writes := 0
	for i := range entries {
		room := fmt.Sprintf("room%d", i%3)
		j.Append(room, int64(i/3+1), []byte(strconv.Itoa(i)), nil)
		writes++
		if i%10 == 0 {
			j.Append(room, 0, nil, nil) // a turn that wrote nothing
			writes++
		}
		if i == 50 {
			j.Drop("gone", nil)
			writes++
		}
	}
	// The window is an hour: the Flush alone has the batch written.
	if err := j.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 1 || sizes[0] != writes+1 {
		t.Fatalf("batches of %v, want one of %d", sizes, writes+1)
	}
	j, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	got := j.Load()
	for r := range 3 {
		es := got[fmt.Sprintf("room%d", r)]
		for k, e := range es {
			if i := 3*k + r; e.Seq != int64(k+1) || string(e.Data) != strconv.Itoa(i) {
				t.Fatalf("room%d entry %d: %d %q, want %d %q", r, k, e.Seq, e.Data, k+1, strconv.Itoa(i))
			}
		}
		if want := (entries - r + 2) / 3; len(es) != want {
			t.Fatalf("room%d: %d entries, want %d", r, len(es), want)
		}
	}
}

// TestCheckpoints writes more than checkpointAt pages of log and finds
// them copied back into the database file by the checkpointer while the
// journal is open: the writer does not checkpoint, and without the
// checkpointer the log would grow without end.
func TestCheckpoints(t *testing.T) {
	j, path := open(t, Options{Window: -1})
	data := []byte(strings.Repeat("x", 40_000)) // about ten pages
	for i := range 2 * checkpointAt / 10 {
		appendWait(t, j, "big", int64(i+1), string(data))
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() >= 4<<20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the database file holds %d bytes after %d of entries were written: no checkpoint copied the log into it", st.Size(), 2*checkpointAt/10*len(data))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLogStartsOver writes sixteen times checkpointAt pages of log, one
// entry a transaction without a pause, so that the writer writes while
// each checkpoint runs, and finds the log no longer than half of it: the
// log starts over after each checkpoint (it then holds checkpointAt pages
// and what the writer wrote while the checkpoint ran) rather than growing
// by every page written.
func TestLogStartsOver(t *testing.T) {
	j, path := open(t, Options{Window: -1})
	data := strings.Repeat("x", 8000) // about two pages
	entries := 16 * checkpointAt / 2
	for i := range entries {
		appendWait(t, j, "busy", int64(i+1), data)
	}
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if written := int64(entries * len(data)); st.Size() > written/2 {
		t.Fatalf("the log is %d bytes long after %d bytes of entries were written: it never started over", st.Size(), written)
	}
}

// TestCompaction drops rooms until their entries make up half the journal
// and finds them deleted from the file, the live rooms' entries kept.
func TestCompaction(t *testing.T) {
	j, path := open(t, Options{})
	rows := func() int {
		t.Helper()
		if err := j.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := j.db.QueryRow(`SELECT count(*) FROM journal`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const each = 1000
	ch := make(chan error, 10*each)
	for r := range 10 {
		for s := int64(1); s <= each; s++ {
			j.Append(fmt.Sprint("room", r), s, []byte("x"), func(err error) { ch <- err })
		}
	}
	for range 10 * each {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	// Four rooms ended: 4,000 dead entries of 10,000, not yet half.
	for r := range 4 {
		j.Drop(fmt.Sprint("room", r), nil)
	}
	if n := rows(); n != 10*each {
		t.Fatalf("%d entries after 4 of 10 rooms ended, want all %d until they are half", n, 10*each)
	}
	// A fifth: half the journal is dead and is deleted.
	j.Drop("room4", nil)
	if n := rows(); n != 5*each {
		t.Fatalf("%d entries after 5 of 10 rooms ended, want %d", n, 5*each)
	}
	j.Close()
	j2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	if got := j2.Load(); len(got) != 5 || len(got["room9"]) != each || len(got["room0"]) != 0 {
		t.Fatalf("reopened: %d rooms, room9 %d entries", len(got), len(got["room9"]))
	}
}

// TestTruncate keeps the first entries of a room and deletes the others,
// even those numbered out of order, leaves the other rooms alone, and lets
// the room go on from the entry it kept.
func TestTruncate(t *testing.T) {
	j, path := open(t, Options{})
	for s := int64(1); s <= 5; s++ {
		appendWait(t, j, "a", s, fmt.Sprint("a", s))
		appendWait(t, j, "b", s, fmt.Sprint("b", s))
	}
	// A number repeated after entry 5, as a journal gone wrong may hold.
	appendWait(t, j, "a", 2, "a2 again")
	truncate := func(room string, seq int64) {
		t.Helper()
		ch := make(chan error, 1)
		j.Truncate(room, seq, func(err error) { ch <- err })
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	truncate("a", 3)
	truncate("b", 9) // beyond the last entry: nothing is deleted
	appendWait(t, j, "a", 4, "a4 anew")
	j.Close()
	j2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	got := j2.Load()
	var a, b []string
	for _, e := range got["a"] {
		a = append(a, fmt.Sprintf("%d:%s", e.Seq, e.Data))
	}
	for _, e := range got["b"] {
		b = append(b, fmt.Sprintf("%d:%s", e.Seq, e.Data))
	}
	if fmt.Sprint(a) != "[1:a1 2:a2 3:a3 4:a4 anew]" || len(b) != 5 {
		t.Fatalf("after truncating a to 3 entries: a %v, b %v", a, b)
	}
	if j2.live["a"] != 4 || j2.liveTotal != 9 {
		t.Fatalf("the journal counts %d entries of a, %d in all", j2.live["a"], j2.liveTotal)
	}
	// Truncating to no entry deletes them all.
	ch := make(chan error, 1)
	j2.Truncate("a", 0, func(err error) { ch <- err })
	if err := <-ch; err != nil {
		t.Fatal(err)
	}
	// The writer counts a batch after telling its writes; a Flush comes
	// after.
	if err := j2.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if j2.live["a"] != 0 || j2.liveTotal != 5 {
		t.Fatalf("after truncating a to nothing the journal counts %d entries of a, %d in all", j2.live["a"], j2.liveTotal)
	}
}

// TestAfterClose fails the writes asked for after Close with ErrClosed.
func TestAfterClose(t *testing.T) {
	j, _ := open(t, Options{})
	appendWait(t, j, "a", 1, "x")
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan error, 1)
	j.Append("a", 2, []byte("y"), func(err error) { ch <- err })
	if err := <-ch; !errors.Is(err, ErrClosed) {
		t.Fatalf("append after close: %v, want ErrClosed", err)
	}
	if err := j.Flush(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("flush after close: %v, want ErrClosed", err)
	}
}

// TestParseSync reads the two policies and refuses others with the names.
func TestParseSync(t *testing.T) {
	for _, s := range []Sync{SyncNormal, SyncFull} {
		if got, err := ParseSync(s.String()); err != nil || got != s {
			t.Fatalf("ParseSync(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseSync("always"); err == nil || !strings.Contains(err.Error(), "normal") || !strings.Contains(err.Error(), "full") {
		t.Fatalf("ParseSync(always): %v", err)
	}
}

// TestPathAsNamed writes the file named, whatever characters its name
// holds.
func TestPathAsNamed(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a?b#c.db", "pct%41.db", "space name.db"} {
		j, err := Open(context.Background(), filepath.Join(dir, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		appendWait(t, j, "a", 1, "x")
		j.Close()
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 3 {
		var names []string
		for _, f := range files {
			names = append(names, f.Name())
		}
		t.Fatalf("files %q, want the three named", names)
	}
}

// crashEnv names the file the crash test's child process writes to.
const crashEnv = "DOBBLE_JOURNAL_CRASH_CHILD"

// crashRoom names the room the crash test's child appends to: each child
// a new one, as a room's name is never used again once dropped.
const crashRoom = "DOBBLE_JOURNAL_CRASH_ROOM"

// TestMain runs the crash test's child when asked to: it appends entries
// to the journal at $DOBBLE_JOURNAL_CRASH_CHILD for ever, one at a time,
// printing the sequence number of each once it is acknowledged, until it
// is killed.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		j, err := Open(context.Background(), path, Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		// One entry at a time, as a room waiting for each: one
		// transaction, and so one commit frame, per entry.
		ch := make(chan error, 1)
		for s := int64(1); ; s++ {
			j.Append(os.Getenv(crashRoom), s, []byte(strconv.FormatInt(s, 10)), func(err error) { ch <- err })
			if err := <-ch; err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Println(s)
		}
	}
	os.Exit(m.Run())
}

// TestKillLosesNothingAcknowledged kills a process appending to the journal
// with SIGKILL, several times, and finds every entry it had acknowledged
// when the journal is opened again; then cuts the tail of SQLite's log in
// the middle of a frame, as a write torn by a power cut would, and finds
// that the journal opens and holds a whole prefix of the entries.
func TestKillLosesNothingAcknowledged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dobble.db")
	for kill := range 3 {
		room := fmt.Sprint("crash", kill)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path, crashRoom+"="+room)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Read acknowledgements until a few hundred have come, then kill.
		sc := bufio.NewScanner(stdout)
		var acked int64
		for sc.Scan() {
			n, err := strconv.ParseInt(sc.Text(), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			acked = n
			if n >= 300 {
				break
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		if acked < 300 {
			t.Fatalf("kill %d: the child acknowledged only %d entries", kill, acked)
		}
		j, err := Open(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		es := j.Load()[room]
		if int64(len(es)) < acked {
			t.Fatalf("kill %d: %d entries after the kill, %d were acknowledged", kill, len(es), acked)
		}
		for i, e := range es {
			if e.Seq != int64(i+1) {
				t.Fatalf("kill %d: entry %d has number %d", kill, i, e.Seq)
			}
		}
		// Start the next child on an empty room.
		ch := make(chan error, 1)
		j.Drop(room, func(err error) { ch <- err })
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
		j.Close()
	}

	// A torn tail: write entries from a child, kill it so that SQLite's log
	// is not checkpointed, and cut the log in the middle of its last frame.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path, crashRoom+"=torn")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && sc.Text() != "200" {
	}
	cmd.Process.Kill()
	cmd.Wait()
	wal := path + "-wal"
	st, err := os.Stat(wal)
	if err != nil || st.Size() < 8192 {
		t.Fatalf("SQLite's log after the kill: %v, %v", st, err)
	}
	if err := os.Truncate(wal, st.Size()-1000); err != nil {
		t.Fatal(err)
	}
	j, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("open after a torn log: %v", err)
	}
	defer j.Close()
	es := j.Load()["torn"]
	for i, e := range es {
		if e.Seq != int64(i+1) || string(e.Data) != strconv.Itoa(i+1) {
			t.Fatalf("after a torn log, entry %d is %d %q", i, e.Seq, e.Data)
		}
	}
	if len(es) < 100 {
		t.Fatalf("after a torn log: %d entries; tearing the last frame may lose the last transactions, not a hundred", len(es))
	}
	t.Logf("after a torn log: %d whole entries", len(es))
}

// BenchmarkAppend measures the journal's cost per entry with 64 rooms
// appending at once, as a busy server's rooms do: the writes share each
// transaction.
func BenchmarkAppend(b *testing.B) {
	for _, s := range []Sync{SyncNormal, SyncFull} {
		b.Run("sync="+s.String(), func(b *testing.B) {
			j, _ := open(b, Options{Sync: s})
			data := []byte(`{"kind":"claim","seat":2,"symbol":31,"target":[4],"version":118,"at":81234}`)
			var rooms atomic.Int64
			b.SetParallelism(64)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				name := fmt.Sprintf("room%d", rooms.Add(1))
				ch := make(chan error, 1)
				for n := int64(1); pb.Next(); n++ {
					j.Append(name, n, data, func(err error) { ch <- err })
					if err := <-ch; err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
