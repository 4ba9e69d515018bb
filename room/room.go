package room

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/table"
)

// The phases of a room.
const (
	PhaseLobby     = "lobby"     // seats filling, the host may start
	PhaseCountdown = "countdown" // a game starts when the countdown ends
	PhasePlay      = "play"      // a game is being played
	PhasePick      = "pick"      // the picker chooses the next mini-game
	PhaseOver      = "over"      // the session is over; the host may start a rematch
)

// input is one request for a room: the Request as the protocol read it
// from the frame, the connection that sent it, when it arrived, and for
// create and join the sender's nickname.
type input struct {
	protocol.Request
	peer *Peer
	at   time.Time
	name string
	// raw is the frame as it arrived, for the journal; tokenHash is a
	// resume's token hashed.
	raw       []byte
	tokenHash string
}

// Room is one room: its seats, its spectators and its session, owned by
// one goroutine (run). Other goroutines reach it only through submit and
// gone.
//
// The room's state changes only in handle (a request), departures (the
// connections gone) and tick (whatever has come due by a given time), each
// given the time from the Manager's clock; run calls them as requests
// arrive and its one timer fires, and sets the timer for wake.
type Room struct {
	m    *Manager
	code string
	spec *protocol.RoomSpec
	cfg  session.Config

	decks session.Decks
	main  *Deck
	own   map[string]*Deck // the decks of the games played only with their own cards, by name

	in      chan *input
	goneMu  sync.Mutex
	goneQ   []*Peer
	notes   [][]byte // frames for everyone, from outside (notify)
	goneSig chan struct{}
	quit    chan struct{}
	quitOne sync.Once

	listing atomic.Pointer[Listing]

	// Owned by run.
	phase    string
	host     int
	seats    []*seatState
	members  map[*Peer]int // seat, or -1 for a spectator
	play     play
	base     int       // tables played in the room's earlier sessions
	seed     uint64    // the session's secret seed (session.Config.Seed): never sent, never stored
	deadline time.Time // end of the countdown, or of the pick
	buf      []byte    // scratch space for encoding refusals
	upd      protocol.Updates
	closed   bool
	wake     time.Time // when something is next due (tick), on the Manager's clock; zero for never

	// The table being played, from beginTable on (PhasePlay) and until
	// the next countdown.
	tab      *table.Driver
	start    time.Time // when the table began: the time 0 of its game
	at       []int     // the session seats at the table, by seat of its game
	tableNo  int       // the table's number in the room (table)
	rec      *tableRecord
	fair     *fairTable // the ranking of its people's actions by reaction (fair.go)
	deferred int        // the bots' actions the driver put off, counted in the metrics

	// The room's journal (durable.go): its name there, the number of its
	// last entry, the entry of the current turn (skip when the turn
	// changed nothing worth writing), the frames held until it is durable,
	// the connections' numbers, and how far the room's clock is behind
	// the Manager's after a restart. stopping is set when the server stops
	// it, to be restored.
	addr     string // the address of the connection that created it (Peer.SetAddress)
	jid      string
	seq      int64
	cur      entry
	skip     bool
	out      []outFrame
	saves    []*store.Game // finished games to store once the turn is durable
	unstored pendingSaves  // finished games handed to the store and not stored yet
	peerNos  map[*Peer]int
	nextPeer int
	offset   time.Duration
	stopping bool
	// evicted is set when the room stops because another server acts for
	// it (Manager.Evict): its people are sent to reconnect.
	evicted atomic.Bool
	// During a replay: the time of the entry, its draws, the ghosts of
	// the connections and the time of the last entry replayed.
	replaying bool
	replayNow time.Time
	draws     []string
	ghosts    map[int]*Peer
	// The ranking's settings and round trips of the entry (fair.go).
	replayFair *fairSettings
	rtts       []int64
	last       time.Time
	replayed   []*store.Game // the tables that ended during the replay
}

func newRoom(m *Manager, code string, spec *protocol.RoomSpec, cfg session.Config, decks session.Decks, main *Deck, own map[string]*Deck) *Room {
	r := &Room{
		m: m, code: code, spec: spec, cfg: cfg, decks: decks, main: main, own: own,
		in: make(chan *input, m.cfg.RoomQueue), goneSig: make(chan struct{}, 1), quit: make(chan struct{}),
		phase: PhaseLobby, members: map[*Peer]int{}, peerNos: map[*Peer]int{}, ghosts: map[int]*Peer{},
	}
	r.seats = make([]*seatState, spec.Seats)
	for i := range r.seats {
		r.seats[i] = &seatState{kind: protocol.KindFree}
		if i < len(spec.Bots) && spec.Bots[i] != nil {
			r.seats[i] = &seatState{kind: protocol.KindBot, level: *spec.Bots[i], name: "bot:" + *spec.Bots[i]}
		}
	}
	r.publish()
	return r
}

// Code returns the room's code.
func (r *Room) Code() string { return r.code }

// submit queues in for the room, or answers busy when the queue is full.
func (r *Room) submit(in *input) *protocol.Error {
	select {
	case r.in <- in:
		return nil
	default:
		r.m.metrics.Busy.Inc()
		return protocol.Errorf(protocol.CodeBusy, "room %s is busy; the request was dropped, try again", r.code)
	}
}

// gone queues the departure of p; it never drops.
func (r *Room) gone(p *Peer) {
	r.goneMu.Lock()
	r.goneQ = append(r.goneQ, p)
	r.goneMu.Unlock()
	select {
	case r.goneSig <- struct{}{}:
	default:
	}
}

// notify queues frame b for everyone in the room, from any goroutine;
// the room sends it with the departures. It never drops.
func (r *Room) notify(b []byte) {
	r.goneMu.Lock()
	r.notes = append(r.notes, b)
	r.goneMu.Unlock()
	select {
	case r.goneSig <- struct{}{}:
	default:
	}
}

// stop closes the room from outside (server shutdown).
func (r *Room) stop() { r.quitOne.Do(func() { close(r.quit) }) }

// run is the room's goroutine: it hands each request, departure and
// expiry of its timer to the room, then sets the timer for the next thing
// due.
func (r *Room) run() {
	defer r.m.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var armed time.Time // when the timer fires, zero when it is stopped
	for !r.closed {
		select {
		case in := <-r.in:
			r.request(in)
		case <-r.goneSig:
			r.departures()
		case <-timer.C:
			armed = time.Time{}
		case <-r.quit:
			r.shutdown()
		}
		now := r.now()
		r.endTurn(now)
		if r.closed {
			break
		}
		// Most requests (a person's claim at a table without bots) change
		// nothing that is due: the timer is left as it is.
		switch {
		case r.wake.Equal(armed):
		case r.wake.IsZero():
			timer.Stop()
			armed = time.Time{}
		default:
			timer.Reset(max(0, r.wake.Sub(r.m.now())))
			armed = r.wake
		}
	}
}

// request handles a request, as a turn of the room's loop: its arrival
// on the room's clock, and its entry in the journal.
func (r *Room) request(in *input) {
	in.at = in.at.Add(-r.offset)
	if in.Type == protocol.TypeResume {
		in.tokenHash = tokenHash(in.Token)
	}
	r.record(in)
	r.handle(in)
}

// endTurn ends a turn of the room's loop: whatever is due by now is done,
// and the turn is written to the journal (commit).
func (r *Room) endTurn(now time.Time) {
	if !r.closed {
		r.tick(now)
	}
	r.commit(now)
}

// departures takes note of the connections gone since the last call,
// and sends everyone the frames queued by notify.
func (r *Room) departures() {
	r.goneMu.Lock()
	q, notes := r.goneQ, r.notes
	r.goneQ, r.notes = nil, nil
	r.goneMu.Unlock()
	now := r.now()
	if r.m.journal != nil {
		r.cur.At = now.UnixNano()
	}
	for _, p := range q {
		if r.m.journal != nil {
			r.cur.Gone = append(r.cur.Gone, r.peerNo(p))
		}
		r.leave(p, true, now)
	}
	for _, b := range notes {
		r.broadcast(b, nil)
	}
}

// open writes the room's first entry to the journal, its specification,
// when it is new.
func (r *Room) open() {
	if r.m.journal == nil || r.seq > 0 {
		return
	}
	r.cur = entry{Open: r.spec, Code: r.code}
	r.commit(r.now())
}

// shutdown stops the room for the server's shutdown, or because another
// server acts for it (evicted). With a journal the
// room is kept there, to be restored by the next server, and its people
// are not told it closed (their connections are closed as the server
// restarts); without one it closes, telling them why.
func (r *Room) shutdown() {
	if r.m.journal == nil {
		r.close("the server is shutting down")
		return
	}
	r.stopping, r.skip = true, true
	if r.evicted.Load() {
		for p := range r.members {
			p.Close(StatusRestart, "the room moved to another server; reconnect and resume your seat")
		}
	}
	r.close("")
}

// close ends the room: everyone is told why and detached.
func (r *Room) close(reason string) {
	if r.closed {
		return
	}
	r.closed = true
	b := protocol.Encode(protocol.Closed{Reason: reason})
	for p := range r.members {
		if !r.stopping {
			r.send(p, b)
		}
		p.room.CompareAndSwap(r, nil)
	}
	r.members = nil
	r.listing.Store(nil)
	r.m.remove(r)
}

// tick does everything whose time has come by now, then sets wake for the
// next such moment.
func (r *Room) tick(now time.Time) {
	for step := 0; step < 1000 && !r.closed && r.due(now); step++ {
	}
	// Whatever happened, a room with nobody seated or held closes: it
	// could otherwise keep its place under MaxRooms for good.
	r.closeIfEmpty()
	if !r.closed {
		r.wake = r.wakeAt()
	}
}

// due does the first thing whose time has come, or the table's whole
// course up to now, and reports whether that moved the room on to
// something else that may be due.
func (r *Room) due(now time.Time) bool {
	for i, s := range r.seats {
		if s.kind == protocol.KindHuman && s.peer == nil && !s.held.IsZero() && !now.Before(s.held) {
			r.expire(i)
			return true
		}
	}
	switch r.phase {
	case PhaseCountdown:
		if !now.Before(r.deadline) {
			r.beginTable(now)
			return true
		}
	case PhasePick:
		if !now.Before(r.deadline) {
			r.autoPick(now)
			return true
		}
	case PhasePlay:
		r.advance(now)
		return r.phase != PhasePlay
	}
	return false
}

// nextTime returns when something is next due, or zero: a seat's hold
// ending, the countdown or the pick running out, or whatever the table's
// driver does next.
func (r *Room) nextTime() time.Time {
	var next time.Time
	earlier := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	for _, s := range r.seats {
		if s.kind == protocol.KindHuman && s.peer == nil && !s.held.IsZero() {
			earlier(s.held)
		}
	}
	switch r.phase {
	case PhaseCountdown, PhasePick:
		earlier(r.deadline)
	case PhasePlay:
		if ms, ok := r.tab.Next(); ok {
			earlier(r.wallTime(ms + r.window()))
		}
		if t, ok := r.nextHeld(); ok {
			earlier(t)
		}
	}
	return next
}
