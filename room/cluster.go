package room

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dobble-dev/dobble/journal"
)

// This file lets a Manager run as one node of a cluster (package
// cluster): the cluster's directory says which node owns each room, a new
// room claims its code there, and the node hands the Manager the rooms it
// takes over from a node that died, and takes away the rooms it can no
// longer prove it owns.

// Directory is the cluster's directory of rooms, which a Manager claims
// the code of each new room in.
type Directory interface {
	// Claim makes this node the owner of the new room code, kept in the
	// journal as jid; it returns an error wrapping ErrCodeTaken when
	// another room has the code.
	Claim(code, jid string) error
	// Release gives up a code claimed for a room that did not open.
	Release(code, jid string)
}

// ErrCodeTaken is the error of a Directory's Claim for a code that
// another room of the cluster has: the Manager draws another.
var ErrCodeTaken = errors.New("room: the code is taken")

// ErrFenced is wrapped by the errors of a Journal's writes refused
// because the room is no longer this server's: another has written to its
// journal, or this one cannot prove it still owns it.
var ErrFenced = errors.New("room: another server acts for the room")

// ErrNotTaken is wrapped by the error of TakeOver for a room it did not
// take over and left as it was, for now.
var ErrNotTaken = errors.New("room: not taken over")

// UseDirectory makes the Manager claim the code of each new room in d. It
// is called before any room opens.
func (m *Manager) UseDirectory(d Directory) { m.dir = d }

// Evict stops the open room with the given code, if there is one, as
// this server no longer owns it: its journal is kept for the server that
// takes it over, and its people's connections are closed with 1012
// (StatusRestart), for them to reconnect and resume their seats there.
// It reports whether there was such a room; the room stops on its own
// goroutine, soon after.
func (m *Manager) Evict(code string) bool {
	m.mu.Lock()
	r := m.rooms[code]
	m.mu.Unlock()
	if r == nil {
		return false
	}
	r.evicted.Store(true)
	r.stop()
	return true
}

// TakeOver rebuilds the room whose journal jid holds the entries es,
// written by another server of the cluster, and starts it here, as
// Restore does at start. It reports whether the room is open: a room that
// had closed is not, and its journal is dropped once its games are
// stored. A room whose entries cannot be replayed is logged, counted and
// dropped, and its error returned. While the Manager is closing, or while
// a room of the same code is still open here, the room is not taken over
// and the error wraps ErrNotTaken.
func (m *Manager) TakeOver(jid string, es []journal.Entry) (bool, error) {
	code, _, _ := strings.Cut(jid, "/") // journalID
	m.mu.Lock()
	closed, open := m.closed, m.rooms[code] != nil
	m.mu.Unlock()
	switch {
	case closed:
		return false, fmt.Errorf("%w: the server is shutting down", ErrNotTaken)
	case open:
		return false, fmt.Errorf("%w: room %s is still open here", ErrNotTaken, code)
	}
	r, err := m.restoreRoom(jid, es)
	if err != nil {
		m.cfg.Log.Error("room: a room taken over could not be restored; it is dropped", "room", jid, "err", err)
		m.metrics.JournalFailures.Inc()
		m.journal.Drop(jid, nil)
		return false, err
	}
	return r != nil, nil
}

// fenced stops room r, whose journal refused a turn because another
// server acts for it now.
func (m *Manager) fenced(r *Room, err error) {
	if r.evicted.CompareAndSwap(false, true) {
		m.cfg.Log.Warn("room: another server acts for the room; it stops here", "room", r.code, "err", err)
	}
	r.stop()
}
