package room

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/store"
)

// This file makes rooms durable. A room is a state machine driven by its
// inputs alone: the requests it is sent, the connections that leave it,
// the moments its timer fires and the random values it draws (a session's
// seed, a seat's token). Each turn of the room's loop is written to the
// journal as one entry holding that turn's input and the time the room
// went on to, and the frames the turn sends are held back until the entry
// is durable: a client never hears of anything a crash could take back.
// At start, Restore feeds each room's entries to a new room, with ghosts
// for its connections, which rebuilds it exactly; its people then find
// their seats held and resume them with their tokens.

// entry is one turn of a room's loop as the journal keeps it.
type entry struct {
	// Open, in a room's first entry, is its specification, Code its code.
	Open *protocol.RoomSpec `json:"open,omitempty"`
	Code string             `json:"code,omitempty"`

	// Req is a request the room handled, as the connection numbered Peer
	// (from 1, in the room) sent it, at At (Unix nanoseconds on the
	// room's clock), with Name its nickname. A resume's token is kept
	// only as its hash, TokenHash.
	Req       json.RawMessage `json:"req,omitempty"`
	Peer      int             `json:"peer,omitempty"`
	Name      string          `json:"name,omitempty"`
	At        int64           `json:"at,omitempty"`
	TokenHash string          `json:"tokenHash,omitempty"`
	// Gone lists the connections that left.
	Gone []int `json:"gone,omitempty"`
	// Restart marks a server's start: every connection gone, every
	// person's seat held, a countdown started again (Room.restart).
	Restart bool `json:"restart,omitempty"`
	// Draws are the random values the turn drew, in order: seeds in
	// decimal, the hashes of new seats' tokens.
	Draws []string `json:"draws,omitempty"`
	// Fair, in the entry of a turn that began a table, is how the table
	// ranks claims (fair.go); RTTs are the round trips, in milliseconds,
	// the turn read for that ranking, in order. A journal written before
	// them has neither: its tables did not rank by reaction.
	Fair *fairSettings `json:"fair,omitempty"`
	RTTs []int64       `json:"rtts,omitempty"`
	// Now is the time the room went on to after the input (its tick),
	// Unix nanoseconds on the room's clock.
	Now int64 `json:"now"`
}

// outFrame is a frame held back until the turn that sent it is durable.
type outFrame struct {
	p      *Peer
	b      []byte
	pooled bool // sent with Peer.SendPooled
}

// send sends frame b to p once the current turn is durable (at once
// without a journal).
func (r *Room) send(p *Peer, b []byte) { r.sendFrame(outFrame{p: p, b: b}) }

// sendPooled is send for a frame from protocol's frame pool sent to p
// alone (Peer.SendPooled).
func (r *Room) sendPooled(p *Peer, b []byte) { r.sendFrame(outFrame{p: p, b: b, pooled: true}) }

// sendFrame sends f once the current turn is durable (at once without a
// journal).
func (r *Room) sendFrame(f outFrame) {
	if r.m.journal == nil || r.replaying {
		if !r.replaying {
			f.send()
		}
		return
	}
	if r.out == nil {
		// Most turns send a frame to each member, or one to a single
		// connection: room for them all at once.
		r.out = make([]outFrame, 0, len(r.members)+1)
	}
	r.out = append(r.out, f)
}

// send queues the frame on its Peer.
func (f *outFrame) send() {
	if f.pooled {
		f.p.SendPooled(f.b)
	} else {
		f.p.Send(f.b)
	}
}

// whenDurable stores the finished game g once the current turn is
// durable (at once without a journal).
func (r *Room) whenDurable(g *store.Game) {
	if r.m.journal == nil {
		r.m.save(g, nil)
		return
	}
	r.saves = append(r.saves, g)
}

// storeGame hands the finished game g to the store, counting it among
// the room's games not stored yet.
func (r *Room) storeGame(g *store.Game) {
	r.unstored.add()
	r.m.save(g, r.unstored.done)
}

// dropWhenStored drops the journal of the closed room once every game it
// handed to the store is stored: until then, a crash leaves the journal
// for the next server to replay and store them again. If a game was
// given up, the journal is kept for the next server.
func (r *Room) dropWhenStored() {
	jid, j := r.jid, r.m.journal
	r.unstored.whenStored(func() { j.Drop(jid, nil) })
}

// pendingSaves counts the finished games of a room handed to the store
// and not stored yet, and runs a function once there are none.
type pendingSaves struct {
	mu   sync.Mutex
	n    int
	lost bool   // a game was given up: then never runs
	then func() // runs once n is 0
}

// add counts one more game handed to the store.
func (ps *pendingSaves) add() {
	ps.mu.Lock()
	ps.n++
	ps.mu.Unlock()
}

// done takes note that a game was stored, or given up.
func (ps *pendingSaves) done(stored bool) {
	ps.mu.Lock()
	ps.n--
	ps.lost = ps.lost || !stored
	var f func()
	if ps.n == 0 && !ps.lost {
		f, ps.then = ps.then, nil
	}
	ps.mu.Unlock()
	if f != nil {
		f()
	}
}

// whenStored runs f once every game handed to the store is stored (at
// once if none waits), and never if one was given up.
func (ps *pendingSaves) whenStored(f func()) {
	ps.mu.Lock()
	if ps.lost {
		ps.mu.Unlock()
		return
	}
	if ps.n > 0 {
		ps.then = f
		ps.mu.Unlock()
		return
	}
	ps.mu.Unlock()
	f()
}

// now returns the time on the room's clock: the Manager's, less the time
// the room spent in a journal while no server ran it; during a replay,
// the time the entry being replayed went on to.
func (r *Room) now() time.Time {
	if r.replaying {
		return r.replayNow
	}
	return r.m.now().Add(-r.offset)
}

// peerNo returns the number of connection p in the room, giving it one
// when it has none yet.
func (r *Room) peerNo(p *Peer) int {
	if n, ok := r.peerNos[p]; ok {
		return n
	}
	r.nextPeer++
	r.peerNos[p] = r.nextPeer
	return r.nextPeer
}

// drawSeed draws a session's seed: from the Manager live, from the entry
// during a replay.
func (r *Room) drawSeed() uint64 {
	if r.replaying {
		v, _ := strconv.ParseUint(r.popDraw(), 10, 64)
		return v
	}
	v := r.m.seed()
	r.cur.Draws = append(r.cur.Draws, strconv.FormatUint(v, 10))
	return v
}

// drawToken draws a new seat's token and returns it with its hash, which
// is all the room keeps; during a replay the token is unknown (its owner
// has it) and only the hash is returned.
func (r *Room) drawToken() (token, hash string) {
	if r.replaying {
		return "", r.popDraw()
	}
	token = newToken()
	hash = tokenHash(token)
	r.cur.Draws = append(r.cur.Draws, hash)
	return token, hash
}

// popDraw returns the next random value of the entry being replayed.
func (r *Room) popDraw() string {
	if len(r.draws) == 0 {
		return ""
	}
	v := r.draws[0]
	r.draws = r.draws[1:]
	return v
}

// tokenHash returns the hash of a seat's token, as the room keeps it.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// sameHash compares two token hashes in constant time.
func sameHash(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// journalID names the room in the journal: its code and when it was
// opened, as a code may be drawn again once its room has closed.
func journalID(code string, opened time.Time) string {
	return code + "/" + strconv.FormatInt(opened.UnixNano(), 36)
}

// commit ends a turn of the room's loop: its entry goes to the journal
// and the frames it sent are sent once the entry is durable. A turn that
// changed nothing (skip) is not written; its frames follow the turn
// before. A room that has closed drops its journal.
func (r *Room) commit(now time.Time) {
	if r.m.journal == nil || r.replaying {
		return
	}
	out, saves := r.out, r.saves
	r.out, r.saves = nil, nil
	// A room that closes writes its last turn like any other, and drops
	// its journal once its games are stored.
	closing := r.closed && !r.stopping
	send := func(err error) {
		if errors.Is(err, ErrFenced) {
			// Another server acts for the room now: nothing of this
			// turn may reach anyone.
			r.m.fenced(r, err)
			return
		}
		if err != nil {
			r.m.journalFailed(r, err)
		} else if r.m.journalErr.Load() != nil {
			r.m.journalRecovered()
		}
		for i := range out {
			out[i].send()
		}
		for _, g := range saves {
			r.storeGame(g)
		}
		if closing {
			r.dropWhenStored()
		}
	}
	switch {
	case r.skip:
		r.m.journal.Append(r.jid, 0, nil, send)
	default:
		r.cur.Now = now.UnixNano()
		data, err := r.cur.appendJSON(nil)
		if err != nil {
			send(err)
			break
		}
		r.seq++
		r.m.journal.Append(r.jid, r.seq, data, send)
	}
	r.cur, r.skip = entry{}, false
}

// record takes note of the input of the current turn: a request from p.
func (r *Room) record(in *input) {
	if r.m.journal == nil || r.replaying {
		return
	}
	r.cur.Peer = r.peerNo(in.peer)
	r.cur.Name = in.name
	r.cur.At = in.at.UnixNano()
	if in.Type == protocol.TypeResume {
		// The token stays with its owner: the journal keeps its hash, and
		// the request a stand-in that decodes.
		r.cur.Req, _ = json.Marshal(map[string]any{"type": "resume", "room": in.Code, "id": in.ID, "token": "-"})
		r.cur.TokenHash = in.tokenHash
		return
	}
	// The frame decoded (protocol.Decode reads nothing but JSON), so it
	// goes into the entry as it came.
	r.cur.Req = in.raw
}

// appendJSON appends the entry to b as the JSON encoding/json would write
// for it (the same fields, the empty ones left out), which is how the
// journal keeps it and what restoreRoom reads back with encoding/json. It
// is written by hand, the request as it came rather than compacted again,
// as a busy server writes an entry for each claim.
func (e *entry) appendJSON(b []byte) ([]byte, error) {
	if b == nil {
		b = make([]byte, 0, 96+len(e.Req)+len(e.Name)+len(e.TokenHash)+len(e.Code))
	}
	b = append(b, '{')
	if e.Open != nil {
		spec, err := json.Marshal(e.Open)
		if err != nil {
			return nil, err
		}
		b = append(b, `"open":`...)
		b = append(append(b, spec...), ',')
	}
	if e.Code != "" {
		b = append(protocol.AppendString(append(b, `"code":`...), e.Code), ',')
	}
	if len(e.Req) > 0 {
		b = append(append(append(b, `"req":`...), e.Req...), ',')
	}
	if e.Peer != 0 {
		b = append(strconv.AppendInt(append(b, `"peer":`...), int64(e.Peer), 10), ',')
	}
	if e.Name != "" {
		b = append(protocol.AppendString(append(b, `"name":`...), e.Name), ',')
	}
	if e.At != 0 {
		b = append(strconv.AppendInt(append(b, `"at":`...), e.At, 10), ',')
	}
	if e.TokenHash != "" {
		b = append(protocol.AppendString(append(b, `"tokenHash":`...), e.TokenHash), ',')
	}
	if len(e.Gone) > 0 {
		b = append(b, `"gone":[`...)
		for i, n := range e.Gone {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		b = append(b, "],"...)
	}
	if e.Restart {
		b = append(b, `"restart":true,`...)
	}
	if len(e.Draws) > 0 {
		b = append(b, `"draws":[`...)
		for i, d := range e.Draws {
			if i > 0 {
				b = append(b, ',')
			}
			b = protocol.AppendString(b, d)
		}
		b = append(b, "],"...)
	}
	if e.Fair != nil {
		fair, err := json.Marshal(e.Fair)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, `"fair":`...), fair...), ',')
	}
	if len(e.RTTs) > 0 {
		b = append(b, `"rtts":[`...)
		for i, d := range e.RTTs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, d, 10)
		}
		b = append(b, "],"...)
	}
	b = strconv.AppendInt(append(b, `"now":`...), e.Now, 10)
	return append(b, '}'), nil
}

// replay feeds entry e to the room, as its loop did live.
func (r *Room) replay(e *entry) error {
	r.replaying = true
	r.replayNow = time.Unix(0, e.Now)
	r.draws = e.Draws
	r.replayFair, r.rtts = e.Fair, e.RTTs
	switch {
	case e.Req != nil:
		in := &input{peer: r.ghost(e.Peer), at: time.Unix(0, e.At), name: e.Name, tokenHash: e.TokenHash}
		if perr := protocol.Decode(e.Req, &in.Request); perr != nil {
			return fmt.Errorf("entry %d: %v", r.seq+1, perr)
		}
		r.handle(in)
	case e.Gone != nil:
		for _, n := range e.Gone {
			r.leave(r.ghost(n), true, r.replayNow)
		}
	case e.Restart:
		r.restart(r.replayNow)
	}
	if !r.closed {
		r.tick(r.replayNow)
	}
	r.seq++
	r.last = r.replayNow
	return nil
}

// storeReplayed stores again the tables that ended during the replay: the
// server before may have stopped before it stored them. The store keeps
// each once, by its key.
func (r *Room) storeReplayed() {
	for _, g := range r.replayed {
		r.storeGame(g)
	}
	r.replayed = nil
}

// ghost returns the stand-in of connection n during a replay: a Peer
// nobody reads, which is never closed.
func (r *Room) ghost(n int) *Peer {
	if p, ok := r.ghosts[n]; ok {
		return p
	}
	p := NewPeer(1)
	p.hello = true
	r.ghosts[n] = p
	r.peerNos[p] = n
	r.nextPeer = max(r.nextPeer, n)
	return p
}

// resumeAfterReplay puts the room back on the clock once its entries are
// replayed: the time no server ran it is taken off its clock, so that
// every deadline keeps the time it had left, and at least restartGrace;
// a countdown starts again; every person's connection is gone and its
// seat held for SeatHold, for them to resume it.
func (r *Room) resumeAfterReplay() {
	r.replaying = false
	now := r.m.now()
	r.offset = now.Sub(r.last)
	if next := r.nextTime(); !next.IsZero() && next.Sub(r.last) < restartGrace {
		r.offset += restartGrace - next.Sub(r.last)
	}
	// The restart is a turn of the room like any other, written to the
	// journal, so that a later replay goes through it too.
	clock := r.now()
	r.cur = entry{Restart: true}
	r.restart(clock)
	r.out = nil
	r.endTurn(clock)
	r.publish()
}

// restart is what a server's start does to the room, at now on its clock:
// every connection is gone, every person's seat is held for SeatHold, and
// a countdown starts again.
func (r *Room) restart(now time.Time) {
	if r.phase == PhaseCountdown {
		r.deadline = now.Add(r.m.cfg.Countdown)
	}
	for p := range r.members {
		delete(r.members, p)
		p.room.CompareAndSwap(r, nil)
	}
	for _, s := range r.seats {
		if s.kind == protocol.KindHuman {
			s.peer, s.held = nil, now.Add(r.m.cfg.SeatHold)
		}
	}
}

// wakeAt returns when something is next due, on the Manager's clock, or
// zero.
func (r *Room) wakeAt() time.Time {
	next := r.nextTime()
	if next.IsZero() {
		return next
	}
	return next.Add(r.offset)
}

// restartGrace is the least time a deadline keeps after a restart, for the
// people to come back to the table.
const restartGrace = 5 * time.Second

// Journal keeps the rooms in play: *journal.Journal in the server's
// SQLite file, or a cluster's stream (package cluster).
type Journal interface {
	// Append adds entry seq of room, holding data, and calls done once
	// the entry is durable, or with the error that kept it from being
	// written. A room numbers its entries from 1; an Append with data nil
	// writes nothing, and its done follows the room's entries before it.
	// done is called in the order of the room's Append calls and must not
	// block. An error that wraps ErrFenced means that the room is no longer
	// this server's: the turn's frames are not sent, and the room stops
	// here.
	Append(room string, seq int64, data []byte, done func(error))
	// Drop removes every entry of room, once it has ended, and calls done
	// as Append does.
	Drop(room string, done func(error))
	// Truncate keeps the first seq entries of room, deleting the others
	// (entries that cannot be replayed), and calls done as Append does;
	// the room's next entry is numbered seq+1.
	Truncate(room string, seq int64, done func(error))
	// Load returns the entries of the rooms to restore at start, by room.
	Load() map[string][]journal.Entry
	// Flush waits until every write asked for before it is durable or
	// failed.
	Flush(ctx context.Context) error
}

// UseJournal makes the Manager keep its rooms in play in j, and restore
// them from it (Restore). It is called before any room opens.
func (m *Manager) UseJournal(j Journal) { m.journal = j }

// Journaled reports whether the Manager keeps its rooms in play in a
// journal (UseJournal), so that they outlive the server.
func (m *Manager) Journaled() bool { return m.journal != nil }

// JournalFailure returns when the journal last failed, and how, or a nil
// error when it never has.
func (m *Manager) JournalFailure() (time.Time, error) {
	if e := m.journalErr.Load(); e != nil {
		return e.at, e.err
	}
	return time.Time{}, nil
}

// Restore rebuilds the rooms the journal holds, as they were when the last
// server stopped, and starts them; it returns how many it restored. A
// room's journal that ends in entries that cannot be replayed (a write cut
// short, bytes changed on the disk, a number missing) is cut after its
// last good entry, logged and counted, and the room restored up to it; a
// room whose first entry cannot be read is logged, counted and dropped.
func (m *Manager) Restore() (int, error) {
	if m.journal == nil {
		return 0, nil
	}
	rooms := m.journal.Load()
	restored := 0
	for jid, es := range rooms {
		r, err := m.restoreRoom(jid, es)
		if err != nil {
			m.cfg.Log.Error("room: a room of the journal could not be restored; it is dropped", "room", jid, "err", err)
			m.metrics.JournalFailures.Inc()
			m.journal.Drop(jid, nil)
			continue
		}
		if r == nil {
			continue
		}
		restored++
	}
	m.metrics.RoomsRestored.Add(float64(restored))
	return restored, nil
}

// restoreRoom replays the entries es of the room jid and starts the room;
// it returns nil for a room that had closed. Entries after the last that
// replays are deleted from the journal.
func (m *Manager) restoreRoom(jid string, es []journal.Entry) (*Room, error) {
	var first entry
	if len(es) == 0 || es[0].Seq != 1 || json.Unmarshal(es[0].Data, &first) != nil || first.Open == nil {
		return nil, fmt.Errorf("its first entry does not open it")
	}
	r, n, why, err := m.replayRoom(jid, &first, es)
	if err != nil {
		return nil, err
	}
	if why != nil {
		m.cfg.Log.Error("room: the journal of a room ends in entries that cannot be replayed; they are deleted and the room goes on from the entry before",
			"room", jid, "seq", es[n].Seq, "kept", n, "cut", len(es)-n, "why", why)
		m.metrics.JournalFailures.Inc()
		m.metrics.JournalCut.Add(float64(len(es) - n))
		if r == nil {
			// The replay broke down in the middle of a turn: the room
			// is built again from the entries before it.
			if r, _, why, err = m.replayRoom(jid, &first, es[:n]); r == nil || why != nil || err != nil {
				return nil, fmt.Errorf("replaying its first %d entries again: %v %v", n, why, err)
			}
		}
		done := make(chan error, 1)
		m.journal.Truncate(jid, int64(n), func(err error) { done <- err })
		if err := <-done; err != nil {
			return nil, fmt.Errorf("deleting its entries after %d: %w", n, err)
		}
	}
	if r.closed {
		// It closed, but the server stopped before its journal was
		// dropped: its games may not all be stored.
		r.replaying = false
		r.storeReplayed()
		r.dropWhenStored()
		return nil, nil
	}
	r.resumeAfterReplay()
	r.storeReplayed()
	m.mu.Lock()
	if m.rooms[r.code] != nil {
		m.mu.Unlock()
		return nil, fmt.Errorf("another room has its code %s", r.code)
	}
	m.rooms[r.code] = r
	m.mu.Unlock()
	m.metrics.Rooms.Inc()
	m.spawn(r)
	return r, nil
}

// replayRoom builds the room jid that the entry first opened and replays
// its entries es after it, until one is missing (a gap in their numbers),
// cannot be decoded or cannot be replayed, or the room closes. It returns
// the room, the number of entries replayed (first included) and why the
// replay stopped before the end, if it did; the room is nil when the
// replay broke down in the middle of an entry (a panic, recovered). err is
// an error of the room's specification.
func (m *Manager) replayRoom(jid string, first *entry, es []journal.Entry) (r *Room, n int, why, err error) {
	cfg, decks, main, own, perr := m.prepare(first.Open)
	if perr != nil {
		return nil, 0, nil, perr
	}
	r = newRoom(m, first.Code, first.Open, cfg, decks, main, own)
	r.jid, r.seq, r.last = jid, 1, time.Unix(0, first.Now)
	defer func() {
		if p := recover(); p != nil {
			r, why = nil, fmt.Errorf("entry %d: the replay failed: %v", es[n].Seq, p)
		}
	}()
	for n = 1; n < len(es); n++ {
		je := es[n]
		if je.Seq != int64(n+1) {
			return r, n, fmt.Errorf("entry %d is missing: the next entry is numbered %d", n+1, je.Seq), nil
		}
		var e entry
		if err := json.Unmarshal(je.Data, &e); err != nil {
			return r, n, fmt.Errorf("entry %d: %v", je.Seq, err), nil
		}
		if err := r.replay(&e); err != nil {
			return r, n, err, nil
		}
		if r.closed {
			return r, n + 1, nil, nil
		}
	}
	return r, n, nil, nil
}

// journalFailed takes note of an entry of room r that could not be
// written: the room goes on (its frames are sent), but what it did may be
// lost to a crash; the failure is logged, counted and shown by /healthz.
func (m *Manager) journalFailed(r *Room, err error) {
	m.metrics.JournalFailures.Inc()
	m.journalErr.Store(&journalError{err: err, at: m.now()})
	m.cfg.Log.Error("room: the journal failed; the room goes on, but a crash would lose what it did since", "room", r.code, "err", err)
}

// journalRecovered takes note of an entry written after a failure: the
// journal works again.
func (m *Manager) journalRecovered() {
	if e := m.journalErr.Swap(nil); e != nil {
		m.cfg.Log.Info("room: the journal works again", "failing_since", e.at)
	}
}

// journalError is the last failure of the journal.
type journalError struct {
	err error
	at  time.Time
}
