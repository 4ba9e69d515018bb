package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// ErrNotFound is returned by Get for an id no stored game has.
var ErrNotFound = errors.New("store: no such game")

// Summary is what the history list shows of a finished game.
type Summary struct {
	// ID is the game's number in the store, increasing with each game saved.
	ID int64 `json:"id"`
	// Room is the code of the room it was played in; empty for a game of
	// a private room, which List leaves out.
	Room string `json:"room"`
	// Game is the game's canonical name, e.g. "tower".
	Game string `json:"game"`
	// Table is the number of the table in the room's session (mini-games
	// and tie-breaks count alike).
	Table int `json:"table"`
	// TieBreak is set when the game was a tie-break.
	TieBreak bool `json:"tieBreak,omitzero"`
	// Deck names the cards, as a room names them ("classic", "order-5").
	Deck string `json:"deck"`
	// Seats says who played each seat of the game: a nickname, or
	// "bot:LEVEL" ("bot:LEVEL N" where several bots of a level played).
	Seats []string `json:"seats"`
	// Scores are the final scores, one per seat, in the game's unit.
	Scores []int `json:"scores"`
	// Unit is what the scores count, e.g. "cards".
	Unit string `json:"unit"`
	// Winners are the seats that won (several on a tie).
	Winners []int `json:"winners"`
	// Actions is the number of accepted actions.
	Actions int `json:"actions"`
	// Started and Ended are when the game began and ended, to the
	// millisecond.
	Started time.Time `json:"started"`
	// Ended is when the game ended.
	Ended time.Time `json:"ended"`
}

// Game is a finished game as stored: its summary and its record.
type Game struct {
	Summary
	// Record is the game's record, JSON lines as docs/RECORD.md describes.
	Record []byte `json:"-"`
	// Key, when set, names the game for good (its room's journal name and
	// its table number): a game saved again under a key already stored
	// is not stored twice, so that a server restored from its journal
	// can save again every game it is not sure was stored.
	Key string `json:"-"`
}

// Store is an open history database: a SQLite file (SQLite) or a
// PostgreSQL database (Postgres), which behave alike. It is safe for
// concurrent use.
type Store interface {
	// Save stores a finished game, sets its ID and returns it. A game
	// with the Key of a game stored already is not stored again: Save
	// returns that game's id. A failed Save stores nothing and says why
	// in a few words first (Cause).
	Save(ctx context.Context, g *Game) (int64, error)
	// List returns up to limit finished games of public rooms (with a
	// Room), newest first, with ids below before (0 for the newest).
	List(ctx context.Context, before int64, limit int) ([]Summary, error)
	// Get returns the game with the given id, with its record, or
	// ErrNotFound.
	Get(ctx context.Context, id int64) (*Game, error)
	// Version returns the schema version of the open database: the
	// number of its kind's migrations applied.
	Version(ctx context.Context) (int, error)
	// Close closes the database.
	Close() error
}

// Open opens the history database db names and brings its schema up to
// date: a PostgreSQL database for a URL beginning postgres:// or
// postgresql:// (OpenPostgres), otherwise a SQLite file, named by its
// path or a file:// URI and created if missing (OpenSQLite), which waits
// up to busy for a lock held by another process.
func Open(ctx context.Context, db string, busy time.Duration) (Store, error) {
	if IsPostgres(db) {
		return OpenPostgres(ctx, db)
	}
	path, err := File(db)
	if err != nil {
		return nil, err
	}
	return OpenSQLite(ctx, path, busy)
}

// IsPostgres says whether db is a PostgreSQL URL rather than a SQLite
// file.
func IsPostgres(db string) bool {
	scheme, _, ok := strings.Cut(db, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// File returns the path of the SQLite file db names: db itself, or the
// path of a file:// URI (file:///var/lib/dobble.db). A name such as
// file:x.db, without the slashes, is a file of that name.
func File(db string) (string, error) {
	if db == "" {
		return "", errors.New("store: no database given; give the path of a SQLite file or a postgres:// URL")
	}
	if IsPostgres(db) {
		return "", fmt.Errorf("store: %s is a PostgreSQL database, not a SQLite file", Redact(db))
	}
	if len(db) < len("file://") || !strings.EqualFold(db[:len("file://")], "file://") {
		return db, nil
	}
	u, err := url.Parse(db)
	if err != nil {
		return "", fmt.Errorf("store: %q is not a file URI (%v); use file:///ABSOLUTE/PATH or a plain path", db, err)
	}
	if u.Host != "" && u.Host != "localhost" || u.Path == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("store: %q: a file URI names a file of this machine, as file:///ABSOLUTE/PATH, with no host, query or fragment", db)
	}
	return u.Path, nil
}

// Redact returns db with any password it holds replaced, to be shown:
// the password before the host, and the parameter password, which libpq
// takes too.
func Redact(db string) string {
	if !IsPostgres(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "the PostgreSQL URL given (it cannot be parsed)"
	}
	params := strings.Split(u.RawQuery, "&")
	for i, p := range params {
		if k, _, ok := strings.Cut(p, "="); ok && k == "password" {
			params[i] = "password=xxxxx"
		}
	}
	u.RawQuery = strings.Join(params, "&")
	return u.Redacted()
}

// Cause says in a few words what went wrong with the database in err, a
// failed Save: the disk is full, the database server cannot be
// reached… It names no file or server, so that it can be told to the
// players whose game was not stored.
func Cause(err error) string {
	if c := sqliteCause(err); c != "" {
		return c
	}
	if c := postgresCause(err); c != "" {
		return c
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the database did not answer in time"
	case err != nil && strings.Contains(err.Error(), "database is closed"):
		return "the database is closed"
	}
	return "the database refused the game"
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// lists returns the JSON texts of g's seats, scores and winners, as both
// kinds of database keep them.
func lists(g *Game) (seats, scores, winners string) {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	return js(nonNil(g.Seats)), js(nonNilInts(g.Scores)), js(nonNilInts(g.Winners))
}

// readLists sets sm's seats, scores and winners from their JSON texts.
func readLists(sm *Summary, seats, scores, winners string) error {
	for _, f := range []struct {
		text string
		v    any
	}{{seats, &sm.Seats}, {scores, &sm.Scores}, {winners, &sm.Winners}} {
		if err := json.Unmarshal([]byte(f.text), f.v); err != nil {
			return fmt.Errorf("store: game %d: %w", sm.ID, err)
		}
	}
	return nil
}
