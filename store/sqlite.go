package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver; its errors carry their codes
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite is a history database in a SQLite file.
type SQLite struct {
	db   *sql.DB
	path string
}

// migrations are the schema changes, in order; migration i brings the
// database from user_version i to i+1. Never change one that has shipped:
// add another.
var migrations = []string{
	`CREATE TABLE games (
		id       INTEGER PRIMARY KEY AUTOINCREMENT,
		room     TEXT    NOT NULL,
		game     TEXT    NOT NULL,
		tbl      INTEGER NOT NULL,
		tiebreak INTEGER NOT NULL,
		deck     TEXT    NOT NULL,
		seats    TEXT    NOT NULL,
		scores   TEXT    NOT NULL,
		unit     TEXT    NOT NULL,
		winners  TEXT    NOT NULL,
		actions  INTEGER NOT NULL,
		started  INTEGER NOT NULL,
		ended    INTEGER NOT NULL,
		record   TEXT    NOT NULL
	)`,
	`CREATE INDEX games_room ON games(room)`,
	`ALTER TABLE games ADD COLUMN key TEXT`,
	`CREATE UNIQUE INDEX games_key ON games(key) WHERE key IS NOT NULL`,
}

// OpenSQLite opens (creating it if needed) the SQLite file at path and
// migrates it to the current schema. It waits up to busy for a lock held
// by another connection before reporting the file as locked.
func OpenSQLite(ctx context.Context, path string, busy time.Duration) (*SQLite, error) {
	if path == "" {
		return nil, errors.New("store: no database path given")
	}
	// Switching a new file to WAL takes a lock that SQLite does not wait
	// for: a server opening the file while another one does is told at
	// once that it is locked. It tries again until busy has passed.
	deadline := time.Now().Add(busy)
	for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		s, err := openSQLite(ctx, path, busy)
		var e *sqlite.Error
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().Add(pause).After(deadline) {
			return s, err
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, err
		}
	}
}

// openSQLite opens the database at path once.
func openSQLite(ctx context.Context, path string, busy time.Duration) (*SQLite, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	dsn, err := fileURI(path, q)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	// One connection: SQLite serialises writers anyway, and a single
	// connection keeps the pragmas and avoids "database is locked" between
	// our own connections.
	db.SetMaxOpenConns(1)
	s := &SQLite{db: db, path: path}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// fileURI returns the SQLite URI of the file at path with the query q:
// file:///ABSOLUTE/PATH?q, the path escaped so that SQLite reads back
// exactly the name given. A name with "?", "#" or "%" in it, put into the
// URI as it is, would end the path early or be decoded into another
// name.
func fileURI(path string, q url.Values) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows path, C:/dir/file: file:///C:/dir/file
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String(), nil
}

// explain turns a driver error at start-up into a sentence about the file.
func (s *SQLite) explain(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") || strings.Contains(msg, "SQLITE_CORRUPT") || strings.Contains(msg, "SQLITE_NOTADB"):
		return fmt.Errorf("store: %s is not a dobble database or is corrupt (%v); move it away or pick another --db", s.path, err)
	case strings.Contains(msg, "locked") || strings.Contains(msg, "SQLITE_BUSY"):
		return fmt.Errorf("store: %s is locked by another process (%w); stop the other server or pick another --db", s.path, err)
	case strings.Contains(msg, "unable to open") || strings.Contains(msg, "SQLITE_CANTOPEN") || strings.Contains(msg, "readonly"):
		return fmt.Errorf("store: cannot open %s for writing (%v); check the directory exists and is writable", s.path, err)
	}
	return fmt.Errorf("store: %s: %w", s.path, err)
}

// migrate applies the migrations the database has not seen, in one
// transaction.
func (s *SQLite) migrate(ctx context.Context) error {
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return s.explain(err)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return s.explain(err)
	}
	defer conn.Close()
	// BEGIN IMMEDIATE takes the write lock at once, so two servers
	// starting on one file do not both migrate it.
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return s.explain(err)
	}
	committed := false
	defer func() {
		if !committed {
			conn.ExecContext(context.Background(), "ROLLBACK")
		}
	}()
	var version int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return s.explain(err)
	}
	if version > len(migrations) {
		return fmt.Errorf("store: %s has schema version %d, newer than this server's %d; run a newer dobble or pick another --db",
			s.path, version, len(migrations))
	}
	if version == 0 {
		// A database someone else made is not ours to change.
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
			return s.explain(err)
		}
		if n > 0 {
			return fmt.Errorf("store: %s holds tables but no dobble schema version; it is not a dobble database, pick another --db", s.path)
		}
	}
	for i := version; i < len(migrations); i++ {
		if _, err := conn.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("store: %s: migration %d: %w", s.path, i+1, err)
		}
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return s.explain(err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return s.explain(err)
	}
	committed = true
	return nil
}

// Version returns the schema version of the open database.
func (s *SQLite) Version(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// Close closes the database.
func (s *SQLite) Close() error { return s.db.Close() }

// Save stores a finished game and returns its id. A game with the Key of
// a game stored already is not stored again: Save returns that game's id.
func (s *SQLite) Save(ctx context.Context, g *Game) (int64, error) {
	tb := 0
	if g.TieBreak {
		tb = 1
	}
	var key any
	if g.Key != "" {
		key = g.Key
	}
	seats, scores, winners := lists(g)
	res, err := s.db.ExecContext(ctx, `INSERT INTO games
		(room, game, tbl, tiebreak, deck, seats, scores, unit, winners, actions, started, ended, record, key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (key) WHERE key IS NOT NULL DO NOTHING`,
		g.Room, g.Game, g.Table, tb, g.Deck, seats, scores, g.Unit, winners,
		g.Actions, g.Started.UnixMilli(), g.Ended.UnixMilli(), string(g.Record), key)
	if err != nil {
		return 0, fmt.Errorf("store: save: %s: %w", Cause(err), err)
	}
	var id int64
	if n, err := res.RowsAffected(); err == nil && n == 0 && g.Key != "" {
		// Stored already, by this server or one before it.
		err = s.db.QueryRowContext(ctx, `SELECT id FROM games WHERE key = ?`, g.Key).Scan(&id)
		if err != nil {
			return 0, fmt.Errorf("store: save: %s: %w", Cause(err), err)
		}
	} else if id, err = res.LastInsertId(); err != nil {
		return 0, fmt.Errorf("store: save: %w", err)
	}
	g.ID = id
	return id, nil
}

// sqliteCause says in a few words what went wrong in err, an error of
// SQLite, or returns "" for another error.
func sqliteCause(err error) string {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return ""
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_FULL:
		return "the server's disk is full"
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return "the database is locked by another process"
	case sqlite3.SQLITE_IOERR:
		return "the server's disk could not be written"
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
		return "the database may not be written"
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return "the database is damaged"
	}
	return ""
}

const summaryColumns = `id, room, game, tbl, tiebreak, deck, seats, scores, unit, winners, actions, started, ended`

// scanSummary reads one row of summaryColumns (and record, if rec is not
// nil).
func scanSummary(row interface{ Scan(...any) error }, rec *string) (Summary, error) {
	var sm Summary
	var tb int
	var seats, scores, winners string
	var started, ended int64
	dest := []any{&sm.ID, &sm.Room, &sm.Game, &sm.Table, &tb, &sm.Deck, &seats, &scores, &sm.Unit, &winners, &sm.Actions, &started, &ended}
	if rec != nil {
		dest = append(dest, rec)
	}
	if err := row.Scan(dest...); err != nil {
		return sm, err
	}
	sm.TieBreak = tb != 0
	sm.Started, sm.Ended = time.UnixMilli(started).UTC(), time.UnixMilli(ended).UTC()
	return sm, readLists(&sm, seats, scores, winners)
}

// List returns up to limit finished games of public rooms (with a Room),
// newest first, with ids below before (0 for the newest).
func (s *SQLite) List(ctx context.Context, before int64, limit int) ([]Summary, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+summaryColumns+` FROM games WHERE id < ? AND room <> '' ORDER BY id DESC LIMIT ?`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list: %w", err)
	}
	defer rows.Close()
	out := []Summary{}
	for rows.Next() {
		sm, err := scanSummary(rows, nil)
		if err != nil {
			return nil, fmt.Errorf("store: list: %w", err)
		}
		out = append(out, sm)
	}
	return out, rows.Err()
}

// Get returns the game with the given id, with its record, or ErrNotFound.
func (s *SQLite) Get(ctx context.Context, id int64) (*Game, error) {
	var rec string
	sm, err := scanSummary(s.db.QueryRowContext(ctx, `SELECT `+summaryColumns+`, record FROM games WHERE id = ?`, id), &rec)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: get %d: %w", id, err)
	}
	return &Game{Summary: sm, Record: []byte(rec)}, nil
}
