// Package store keeps the finished games of a dobble server: each game's
// metadata (room, game, seats, winners, times) and its record in the
// JSON-lines format of package record (docs/RECORD.md), so that the
// history can be listed and any game replayed.
//
// Store is the history database, of one of two kinds that behave alike
// (package storetest is the suite both pass): a SQLite file, the default,
// or a PostgreSQL database, which several servers can share. Open picks
// the kind from its name: a postgres:// or postgresql:// URL, or else the
// path (or file:// URI) of a SQLite file.
//
// SQLite. OpenSQLite creates the file if needed, switches it to
// write-ahead logging and brings its schema up to date with the
// migrations in order, recorded in the database's user_version; a file
// that is not a dobble database, is corrupt, is locked by another process
// or was written by a newer version is refused with an error saying so.
// The file is the one named, whatever characters its name holds. The
// driver is modernc.org/sqlite, in pure Go, so the binary needs no C
// toolchain and no database server.
//
// PostgreSQL. OpenPostgres connects a pool of connections
// (github.com/jackc/pgx/v5) and migrates the schema, its version kept in
// the table dobble_schema, in one transaction under an advisory lock, so
// that of several servers starting together only one migrates; a schema
// newer than the server's, or another program's games table, is refused.
// The tables live in the first schema of the URL's search_path. A
// database that cannot be reached at start is refused saying why; one
// that goes away later fails the saves until it is back, when the pool
// reconnects by itself.
//
// A Save that fails, of either kind, stores nothing and says why in a few
// words first (Cause: the disk is full, the database server cannot be
// reached…), the driver's error after; the caller keeps the game to try
// again (package room does). A game saved under a Key already stored is
// stored once, whichever server saves it.
package store
