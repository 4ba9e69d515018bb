// Package store keeps the finished games of a dobble server in a local
// SQLite file: each game's metadata (room, game, seats, winners, times) and
// its record in the JSON-lines format of package record (docs/RECORD.md),
// so that the history can be listed and any game replayed.
//
// Open creates the file if needed, switches it to write-ahead logging and
// brings its schema up to date with the migrations in order, recorded in
// the database's user_version; a file that is not a dobble database, is
// corrupt, is locked by another process or was written by a newer version
// is refused with an error saying so. The file is the one named, whatever
// characters its name holds. A Save that fails says why in a few words
// first (Cause: the disk is full, the file is locked…), the driver's
// error after; the caller keeps the game to try again (package room
// does). The driver is modernc.org/sqlite, in
// pure Go, so the binary needs no C toolchain and no database server.
package store
