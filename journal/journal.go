// Package journal keeps the rooms in play durable: a room appends an entry
// for everything that changes it (an accepted action, a tick, a seat that
// joins or leaves, a step of its session), the journal writes the entries
// of every room to the server's SQLite file in batches (group commit), and
// tells each room once its entries are durable, so that the room tells its
// clients only what a crash cannot take back. When a room ends, its entries
// are dropped. At start, Load returns the entries of every room that had not
// ended, in order, for the server to rebuild them; a room whose entries end
// in some that cannot be replayed has them deleted (Truncate) and goes on
// from the last good one.
//
// Durability. The journal shares the SQLite file of finished games (package
// store), in write-ahead-log mode. With SyncNormal (the default) a batch is
// durable once SQLite has written it to its log: a crash or a kill of the
// server loses nothing acknowledged, and a power cut or an operating-system
// crash may lose the batches written since the log was last synced (SQLite
// syncs it at each checkpoint, which a connection of the journal's own
// makes, off the writer's path), never leaving the file inconsistent. With
// SyncFull every batch is synced to the disk before it is acknowledged, so
// that a power cut loses nothing acknowledged either, at the price of one
// fsync per batch. A write cut in half by a crash is never seen: SQLite
// checks each frame of its log and ignores a torn tail when the file is next
// opened.
package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Sync is how far a batch is written before it is acknowledged.
type Sync int

const (
	// SyncNormal acknowledges a batch once it is in SQLite's write-ahead
	// log: safe against a crash of the server, not against a power cut.
	SyncNormal Sync = iota
	// SyncFull acknowledges a batch once it is synced to the disk.
	SyncFull
)

// String returns the name --journal-sync takes.
func (s Sync) String() string {
	if s == SyncFull {
		return "full"
	}
	return "normal"
}

// ParseSync reads the name of a Sync: "normal" or "full".
func ParseSync(name string) (Sync, error) {
	switch name {
	case "normal":
		return SyncNormal, nil
	case "full":
		return SyncFull, nil
	}
	return 0, fmt.Errorf("journal sync %q: use normal (safe against a crash of the server) or full (also against a power cut)", name)
}

// Options tune a Journal.
type Options struct {
	// Sync is how far a batch is written before it is acknowledged.
	Sync Sync
	// MaxBatch is the most entries written in one transaction; 0 means
	// 4096.
	MaxBatch int
	// Window is how long the writer waits, after the first write of a
	// batch, for more to join it: a transaction costs far more than an
	// entry, so a busy server writes a few large batches rather than many
	// small ones, for at most Window of latency. The first write to come
	// once the window has passed wakes the writer; its own timer does only
	// when none comes. 0 means 4 ms; a negative Window does not wait.
	Window time.Duration
	// Busy is how long a write waits for a lock another connection to the
	// file holds; 0 means 5 s.
	Busy time.Duration
	// Observe, when not nil, is called after each batch with its size, how
	// long its transaction took and its error, and with no entries for
	// each failure of a checkpoint or a compaction; the writer and the
	// checkpointer may call it at once.
	Observe func(entries int, took time.Duration, err error)
}

// Journal is an open journal. It is safe for concurrent use.
type Journal struct {
	db   *sql.DB
	ckpt *sql.DB // the checkpointer's connection
	path string
	opts Options
	reqs chan request
	kick chan struct{} // cuts the writer's window short
	done chan struct{}
	// epoch is when the journal was opened; opened, when not 0, is when
	// the writer's window opened, in nanoseconds since epoch plus 1.
	epoch   time.Time
	opened  atomic.Int64
	mu      sync.Mutex
	closed  bool
	pending sync.WaitGroup

	// loaded holds the entries found at Open, until Load hands them over.
	loaded map[string][]Entry

	// Owned by the writer: the entries each live room holds, and the
	// entries of ended rooms not deleted yet.
	live      map[string]int
	liveTotal int
	dead      int
	// Owned by the writer: the statements of its transactions, prepared
	// once (insert[k] writes 1<<k entries), and the arguments of the
	// insert being made.
	insert [insertChunks]*sql.Stmt
	ended  *sql.Stmt
	args   []any
	// pages is about how many pages of log the writer has written since
	// it last asked the checkpointer (ckptReqs) for a checkpoint.
	pages    int
	ckptReqs chan struct{}
	ckptDone chan struct{}
	// copied is set by the checkpointer once a checkpoint has copied the
	// whole log as it found it; the writer then copies what it wrote
	// meanwhile (catchUp), so that its next transaction starts the log
	// over. ckptMu keeps their checkpoints apart, as SQLite runs one at a
	// time.
	copied atomic.Bool
	ckptMu sync.Mutex
}

// insertChunks is how many insert statements the writer prepares: they
// write 1, 2, 4… 1<<(insertChunks-1) entries, and a batch is written in
// as few of them as add up to its size, each a single statement, which
// costs SQLite and database/sql far less than one statement an entry.
const insertChunks = 7

// request is one write for the journal's writer: an entry to append, a
// room to drop (data nil and drop set), or a room's entries after seq to
// delete (truncate set).
type request struct {
	room     string
	seq      int64
	data     []byte
	drop     bool
	truncate bool
	// cut is set by the writer to the number of entries a truncate
	// deleted.
	cut int
	// flush is set for a Flush: the batch it joins is written at once.
	flush bool
	done  func(error)
}

// schema creates the journal's tables: the entries, in the order they
// were written (appending at the end of the table keeps a batch to a few
// pages, whichever rooms it holds), and the rooms that have ended, whose
// entries are deleted in bulk when they are half the table (compact).
const schema = `CREATE TABLE IF NOT EXISTS journal (
	id   INTEGER PRIMARY KEY,
	room TEXT    NOT NULL,
	seq  INTEGER NOT NULL,
	data BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_ended (
	room TEXT PRIMARY KEY
) WITHOUT ROWID`

// Open opens the journal in the SQLite file at path, creating its table if
// needed.
func Open(ctx context.Context, path string, o Options) (*Journal, error) {
	if path == "" {
		return nil, errors.New("journal: no database path given")
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 4096
	}
	if o.Busy <= 0 {
		o.Busy = 5 * time.Second
	}
	if o.Window == 0 {
		o.Window = 4 * time.Millisecond
	}
	// dsn names the file with the pragmas of each connection, and more.
	dsn := func(more ...string) string {
		q := url.Values{}
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.Busy.Milliseconds()))
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous("+map[Sync]string{SyncNormal: "NORMAL", SyncFull: "FULL"}[o.Sync]+")")
		for _, p := range more {
			q.Add("_pragma", p)
		}
		u := url.URL{Scheme: "file", Opaque: url.PathEscape(path), RawQuery: q.Encode()}
		return u.String()
	}
	// The writer's connection does not checkpoint (copy the log back
	// into the database and sync both), which would hold its batches up
	// while the disk syncs: the checkpointer's does.
	db, err := sql.Open("sqlite", dsn("wal_autocheckpoint(0)"))
	if err != nil {
		return nil, fmt.Errorf("journal: %s: %w", path, err)
	}
	// One connection: the writer's batches are the journal's only writes.
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("journal: %s: %w", path, err)
	}
	ckpt, err := sql.Open("sqlite", dsn())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("journal: %s: %w", path, err)
	}
	ckpt.SetMaxOpenConns(1)
	j := &Journal{db: db, ckpt: ckpt, path: path, opts: o, reqs: make(chan request, o.MaxBatch), kick: make(chan struct{}, 1),
		done: make(chan struct{}), live: map[string]int{}, epoch: time.Now(),
		ckptReqs: make(chan struct{}, 1), ckptDone: make(chan struct{})}
	if err := j.prepare(ctx); err != nil {
		j.closeDBs()
		return nil, err
	}
	if j.loaded, err = j.read(ctx); err != nil {
		j.closeDBs()
		return nil, err
	}
	for room, es := range j.loaded {
		j.live[room] = len(es)
		j.liveTotal += len(es)
	}
	// Entries of rooms that ended before the last compaction count as
	// dead until the next.
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM journal WHERE room IN (SELECT room FROM journal_ended)`).Scan(&j.dead); err != nil {
		j.closeDBs()
		return nil, fmt.Errorf("journal: %s: %w", path, err)
	}
	go j.write()
	go j.checkpoint()
	return j, nil
}

// closeDBs closes the journal's connections to its file.
func (j *Journal) closeDBs() error {
	for _, st := range append(j.insert[:], j.ended) {
		if st != nil {
			st.Close()
		}
	}
	j.ckpt.Close()
	return j.db.Close()
}

// checkpointAt is about how many pages of log the writer writes between
// two checkpoints: SQLite's own default for a connection that checkpoints
// by itself (wal_autocheckpoint).
const checkpointAt = 1000

// checkpoint is the journal's checkpointer: asked by the writer every
// checkpointAt pages or so, it copies the log back into the database
// (SQLite's passive checkpoint, which waits for no one), on a connection
// of its own, while the writer goes on writing batches. With
// synchronous=NORMAL, the log is synced to the disk then.
//
// SQLite starts the log over from its beginning only when a transaction
// begins with the whole log copied, which a writer that never stops
// never finds: the batches written while the checkpoint ran are always
// left. So once a checkpoint has copied all it found, the writer copies
// those few pages itself (catchUp), and its next transaction starts the
// log over: the log stays about checkpointAt pages long, rather than
// growing by all a busy server writes.
func (j *Journal) checkpoint() {
	defer close(j.ckptDone)
	for range j.ckptReqs {
		var busy, log, done int
		j.ckptMu.Lock()
		err := j.ckpt.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &log, &done)
		switch {
		case err != nil && j.opts.Observe != nil:
			j.opts.Observe(0, 0, fmt.Errorf("journal: %s: checkpoint: %w", j.path, err))
		case err == nil && busy == 0 && log > 0 && done == log:
			j.copied.Store(true)
		}
		j.ckptMu.Unlock()
	}
}

// catchUp copies into the database, on the writer's connection, the pages
// of log written while the checkpointer's last checkpoint ran, once that
// checkpoint copied all it found; the writer's next transaction then
// starts the log over. A reader of an older snapshot may keep the log
// from being wholly copied: then it grows on, until a later checkpoint.
// While the checkpointer runs its next checkpoint, the writer tries again
// after its next batch; another connection's checkpoint under way (the
// store's, on the same file) has it give up until the next checkpoint.
func (j *Journal) catchUp() {
	if !j.copied.Load() || !j.ckptMu.TryLock() {
		return
	}
	defer j.ckptMu.Unlock()
	j.copied.Store(false)
	_, err := j.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
	if err != nil && j.opts.Observe != nil {
		j.opts.Observe(0, 0, fmt.Errorf("journal: %s: checkpoint: %w", j.path, err))
	}
}

// prepare prepares the statements of the writer's transactions.
func (j *Journal) prepare(ctx context.Context) error {
	var err error
	if j.ended, err = j.db.PrepareContext(ctx, `INSERT OR IGNORE INTO journal_ended (room) VALUES (?)`); err != nil {
		return fmt.Errorf("journal: %s: %w", j.path, err)
	}
	q := []byte(`INSERT INTO journal (room, seq, data) VALUES (?, ?, ?)`)
	for k := range j.insert {
		if k > 0 {
			// From 1<<(k-1) rows to 1<<k.
			for range 1 << (k - 1) {
				q = append(q, ", (?, ?, ?)"...)
			}
		}
		if j.insert[k], err = j.db.PrepareContext(ctx, string(q)); err != nil {
			return fmt.Errorf("journal: %s: %w", j.path, err)
		}
	}
	return nil
}

// Entry is one entry of a room's journal.
type Entry struct {
	// Seq is the entry's number in its room, from 1.
	Seq int64
	// Data is what the room wrote.
	Data []byte
}

// Load returns the entries of every room that had not ended when the
// journal was opened, in order, by room. It hands them over: a second call
// returns none.
func (j *Journal) Load() map[string][]Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	rooms := j.loaded
	j.loaded = nil
	if rooms == nil {
		rooms = map[string][]Entry{}
	}
	return rooms
}

// read reads the entries of every room that has not ended.
func (j *Journal) read(ctx context.Context) (map[string][]Entry, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT room, seq, data FROM journal
		WHERE room NOT IN (SELECT room FROM journal_ended) ORDER BY room, id`)
	if err != nil {
		return nil, fmt.Errorf("journal: %s: %w", j.path, err)
	}
	defer rows.Close()
	rooms := map[string][]Entry{}
	for rows.Next() {
		var room string
		var e Entry
		if err := rows.Scan(&room, &e.Seq, &e.Data); err != nil {
			return nil, fmt.Errorf("journal: %s: %w", j.path, err)
		}
		rooms[room] = append(rooms[room], e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal: %s: %w", j.path, err)
	}
	return rooms, nil
}

// ErrClosed is given to the writes asked for after Close.
var ErrClosed = errors.New("journal: closed")

// Append adds entry seq of room, holding data, and calls done once the
// entry is durable, or with the error that kept it from being written.
// done is called on the journal's writer, in the order of the Append
// calls: it must not block. A room numbers its entries from 1 and appends
// them in order; Append keeps data, which must not change afterwards. A
// room's name is never used again once it has been dropped.
func (j *Journal) Append(room string, seq int64, data []byte, done func(error)) {
	j.send(request{room: room, seq: seq, data: data, done: done})
}

// Drop removes every entry of room, once it has ended, and calls done as
// Append does. The room is marked as ended at once, and its entries are
// deleted with those of other ended rooms once they make up half the
// journal.
func (j *Journal) Drop(room string, done func(error)) {
	j.send(request{room: room, drop: true, done: done})
}

// Truncate keeps the first seq entries of room, in the order they were
// written (entries 1 to seq, as Load returned them), deletes the others,
// and calls done as Append does. A server uses it at start on a room whose
// journal ends in entries it cannot replay (a write cut short, bytes
// changed on the disk, a number missing or repeated): the room goes on
// from its last good entry, and its next entry is numbered seq+1.
func (j *Journal) Truncate(room string, seq int64, done func(error)) {
	j.send(request{room: room, seq: seq, truncate: true, done: done})
}

// send queues r for the writer, or fails it once the journal is closed.
func (j *Journal) send(r request) {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		if r.done != nil {
			r.done(ErrClosed)
		}
		return
	}
	j.pending.Add(1)
	j.mu.Unlock()
	j.reqs <- r
	// A write that comes once the writer's window has passed wakes the
	// writer: on a busy server the rooms close the batches, and the
	// writer's timer, whose wake-up costs an idle process dearly, seldom
	// fires.
	if o := j.opened.Load(); o != 0 && time.Since(j.epoch) >= time.Duration(o-1)+j.opts.Window {
		j.hurry()
	}
}

// Flush waits until every write asked for before it is durable or failed.
func (j *Journal) Flush(ctx context.Context) error {
	ch := make(chan error, 1)
	j.send(request{flush: true, done: func(err error) { ch <- err }})
	j.hurry()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close writes what is queued, stops the writer and closes the database.
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil
	}
	j.closed = true
	j.mu.Unlock()
	j.hurry()
	j.pending.Wait()
	close(j.reqs)
	<-j.done
	close(j.ckptReqs)
	<-j.ckptDone
	return j.closeDBs()
}

// hurry has the writer write what is queued without waiting for the rest
// of its window. A kick left over from a batch already written only makes
// the next one smaller.
func (j *Journal) hurry() {
	select {
	case j.kick <- struct{}{}:
	default:
	}
}

// write is the journal's writer: it takes the queued writes in batches of
// up to MaxBatch, writes each batch in one transaction and calls their done
// functions with its outcome.
func (j *Journal) write() {
	defer close(j.done)
	batch := make([]request, 0, j.opts.MaxBatch)
	window := time.NewTimer(time.Hour)
	window.Stop()
	for r := range j.reqs {
		batch = append(batch[:0], r)
		// The writes that come within the window join the batch. The
		// writer sleeps through it, rather than waking for each write as
		// it comes, and then takes what is queued. The first write after
		// the window, or a Flush (or Close), wakes it (send); its timer
		// does when none comes.
		if j.opts.Window > 0 && !r.flush {
			j.opened.Store(int64(time.Since(j.epoch)) + 1)
			window.Reset(j.opts.Window)
			select {
			case <-window.C:
			case <-j.kick:
				// Since Go 1.23 a stopped timer delivers nothing stale.
				window.Stop()
			}
			j.opened.Store(0)
		}
	more:
		for len(batch) < j.opts.MaxBatch {
			select {
			case r, ok := <-j.reqs:
				if !ok {
					break more
				}
				batch = append(batch, r)
			default:
				break more
			}
		}
		start := time.Now()
		err := j.commit(batch)
		if j.opts.Observe != nil {
			j.opts.Observe(len(batch), time.Since(start), err)
		}
		for i := range batch {
			if done := batch[i].done; done != nil {
				done(err)
			}
			j.pending.Done()
		}
		if err == nil {
			j.count(batch)
			j.compact()
			j.catchUp()
			j.checkpointSoon(batch)
		}
		// The batch's writes are done with: let the collector have their
		// data and functions.
		clear(batch)
	}
}

// count takes note of a written batch: the entries of each live room, and
// those of the rooms dropped, dead from now on.
func (j *Journal) count(batch []request) {
	for _, r := range batch {
		switch {
		case r.drop:
			j.dead += j.live[r.room]
			j.liveTotal -= j.live[r.room]
			delete(j.live, r.room)
		case r.truncate:
			j.live[r.room] -= r.cut
			j.liveTotal -= r.cut
		case r.data != nil:
			j.live[r.room]++
			j.liveTotal++
		}
	}
}

// checkpointSoon counts the pages of log a written batch took, about, and
// asks the checkpointer for a checkpoint once they reach checkpointAt.
func (j *Journal) checkpointSoon(batch []request) {
	bytes := 0
	for i := range batch {
		bytes += len(batch[i].data)
	}
	// A page holds about 4,000 bytes of entries, and each transaction
	// writes the last page of the table again.
	j.pages += 1 + bytes/4000
	if j.pages < checkpointAt {
		return
	}
	select {
	case j.ckptReqs <- struct{}{}:
		j.pages = 0
	default:
		// A checkpoint is under way: the next batch asks again.
	}
}

// compactAt is the fewest dead entries worth a compaction.
const compactAt = 4096

// compact deletes the entries of the rooms that have ended once they make
// up half the journal or more, so that the work of deleting them, a pass
// over the table, is paid for by as many entries written. A compaction
// that fails is tried again after the next batch.
func (j *Journal) compact() {
	if j.dead < compactAt || j.dead < j.liveTotal {
		return
	}
	ctx := context.Background()
	tx, err := j.db.BeginTx(ctx, nil)
	if err == nil {
		_, err = tx.ExecContext(ctx, `DELETE FROM journal WHERE room IN (SELECT room FROM journal_ended)`)
		if err == nil {
			_, err = tx.ExecContext(ctx, `DELETE FROM journal_ended`)
		}
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
	}
	if j.opts.Observe != nil && err != nil {
		j.opts.Observe(0, 0, fmt.Errorf("journal: %s: compaction: %w", j.path, err))
	}
	if err == nil {
		j.dead = 0
	}
}

// commit writes batch in one transaction: its entries in as few insert
// statements as add up to their number, then the rooms it drops. Order
// within the transaction does not matter: it is written whole or not at
// all, and an ended room's entries are never read again.
func (j *Journal) commit(batch []request) error {
	ctx := context.Background()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("journal: %s: %w", j.path, err)
	}
	fail := func(err error) error {
		tx.Rollback()
		return fmt.Errorf("journal: %s: %w", j.path, err)
	}
	// A room's entries are cut (a restored room's damaged tail) before
	// any of its new entries is written: a room is truncated only as it
	// is restored, before its next entry.
	for i := range batch {
		r := &batch[i]
		if !r.truncate {
			continue
		}
		q, args := `DELETE FROM journal WHERE room = ?1`, []any{r.room}
		if r.seq > 0 {
			q += ` AND id > (SELECT id FROM journal WHERE room = ?1 ORDER BY id LIMIT 1 OFFSET ?2)`
			args = append(args, r.seq-1)
		}
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return fail(fmt.Errorf("room %s: %w", r.room, err))
		}
		n, _ := res.RowsAffected()
		r.cut = int(n)
	}
	entries := 0
	for i := range batch {
		if batch[i].data != nil {
			entries++
		}
	}
	next := 0 // the first request of batch not written yet
	for k := len(j.insert) - 1; k >= 0; k-- {
		for n := 1 << k; entries >= n; entries -= n {
			args := j.args[:0]
			for len(args) < 3*n {
				if r := &batch[next]; r.data != nil {
					args = append(args, r.room, r.seq, r.data)
				}
				next++
			}
			_, err := tx.StmtContext(ctx, j.insert[k]).ExecContext(ctx, args...)
			clear(args)
			j.args = args
			if err != nil {
				return fail(err)
			}
		}
	}
	for i := range batch {
		if r := &batch[i]; r.drop {
			if _, err := tx.StmtContext(ctx, j.ended).ExecContext(ctx, r.room); err != nil {
				return fail(fmt.Errorf("room %s: %w", r.room, err))
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("journal: %s: %w", j.path, err)
	}
	return nil
}
