package room

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/store"
)

// The phases of a room.
const (
	PhaseLobby     = "lobby"     // seats filling, the host may start
	PhaseCountdown = "countdown" // a game starts when the countdown ends
	PhasePlay      = "play"      // a game is being played
	PhasePick      = "pick"      // the picker chooses the next mini-game
	PhaseOver      = "over"      // the session is over; the host may start a rematch
)

// input is one request for a room.
type input struct {
	kind    string
	peer    *Peer
	id      string
	at      time.Time
	name    string
	token   string
	seat    int
	bot     *string
	action  rules.ActionKind
	symbol  int
	target  []int
	version uint64
	table   int
	game    string
}

// seatState is one seat of a room.
type seatState struct {
	kind  string // KindHuman, KindBot or KindFree
	level string
	name  string
	token string
	peer  *Peer
	// held is when a disconnected person's hold ends; zero while
	// connected, or once the hold has expired.
	held time.Time
}

// botSeat is a bot playing a session seat at the current table.
type botSeat struct {
	seat int // session seat
	b    *bot.Bot
	plan bot.Plan
	has  bool
}

// Room is one room: its seats, its spectators and its session, owned by
// one goroutine (run). Other goroutines reach it only through submit and
// gone.
type Room struct {
	m    *Manager
	code string
	spec *RoomSpec
	cfg  session.Config

	decks session.Decks
	main  *Deck
	own   map[string]*Deck // the decks of the games played only with their own cards, by name

	in      chan *input
	goneMu  sync.Mutex
	goneQ   []*Peer
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
	base     int // tables played in the room's earlier sessions
	seed     uint64
	start    time.Time // when the current table began
	deadline time.Time // end of the countdown, or of the pick
	bots     []*botSeat
	rec      *tableRecord
	ev       []rules.Event
	buf      []byte // scratch space for encoding frames
	closed   bool
	timer    *time.Timer
	armed    time.Time // when the timer fires, zero when it is stopped
}

// tableRecord is the record of the table being played.
type tableRecord struct {
	buf      bytes.Buffer
	w        *record.Writer
	started  time.Time
	seats    []string
	deck     string
	tieBreak bool
}

func newRoom(m *Manager, code string, spec *RoomSpec, cfg session.Config, decks session.Decks, main *Deck, own map[string]*Deck) *Room {
	r := &Room{
		m: m, code: code, spec: spec, cfg: cfg, decks: decks, main: main, own: own,
		in: make(chan *input, m.cfg.RoomQueue), goneSig: make(chan struct{}, 1), quit: make(chan struct{}),
		phase: PhaseLobby, members: map[*Peer]int{},
	}
	r.seats = make([]*seatState, spec.Seats)
	for i := range r.seats {
		r.seats[i] = &seatState{kind: KindFree}
		if i < len(spec.Bots) && spec.Bots[i] != nil {
			r.seats[i] = &seatState{kind: KindBot, level: *spec.Bots[i], name: "bot:" + *spec.Bots[i]}
		}
	}
	r.publish()
	return r
}

// Code returns the room's code.
func (r *Room) Code() string { return r.code }

// submit queues in for the room, or answers busy when the queue is full.
func (r *Room) submit(in *input) *protoError {
	select {
	case r.in <- in:
		return nil
	default:
		r.m.metrics.Busy.Inc()
		return errf(CodeBusy, "room %s is busy; the request was dropped, try again", r.code)
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

// stop closes the room from outside (server shutdown).
func (r *Room) stop() { r.quitOne.Do(func() { close(r.quit) }) }

// run is the room's goroutine.
func (r *Room) run() {
	defer r.m.wg.Done()
	r.timer = time.NewTimer(time.Hour)
	r.timer.Stop()
	defer r.timer.Stop()
	for !r.closed {
		select {
		case in := <-r.in:
			r.handle(in)
		case <-r.goneSig:
			r.goneMu.Lock()
			q := r.goneQ
			r.goneQ = nil
			r.goneMu.Unlock()
			for _, p := range q {
				r.leave(p, true, time.Now())
			}
		case <-r.timer.C:
			r.armed = time.Time{}
		case <-r.quit:
			r.close("the server is shutting down")
		}
		if !r.closed {
			r.tick(time.Now())
		}
	}
}

// close ends the room: everyone is told why and detached.
func (r *Room) close(reason string) {
	if r.closed {
		return
	}
	r.closed = true
	b := encode(msgClosed{Type: "closed", Reason: reason})
	for p := range r.members {
		p.Send(b)
		p.room.CompareAndSwap(r, nil)
	}
	r.members = nil
	r.listing.Store(nil)
	r.m.remove(r)
}

// elapsed returns the milliseconds since the current table began.
func (r *Room) elapsed(now time.Time) int64 {
	return max(0, now.Sub(r.start).Milliseconds())
}

// tick does everything whose time has come, then sets the timer for the
// next such moment.
func (r *Room) tick(now time.Time) {
	for step := 0; step < 1000 && !r.closed; step++ {
		if !r.due(now) {
			break
		}
	}
	if r.closed {
		return
	}
	// Most requests (a person's claim at a table without bots) change no
	// deadline: the timer is left as it is.
	next := r.nextTime()
	switch {
	case next.Equal(r.armed):
	case next.IsZero():
		r.timer.Stop()
		r.armed = time.Time{}
	default:
		r.timer.Reset(max(0, next.Sub(time.Now())))
		r.armed = next
	}
}

// due does the first thing whose time has come and reports whether there
// was one.
func (r *Room) due(now time.Time) bool {
	for i, s := range r.seats {
		if s.kind == KindHuman && s.peer == nil && !s.held.IsZero() && !now.Before(s.held) {
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
		if r.clockDue(now) {
			return true
		}
		for _, b := range r.bots {
			if b.has && !now.Before(r.start.Add(time.Duration(b.plan.Action.At)*time.Millisecond)) {
				b.has = false
				a := b.plan.Action
				a.At, a.Seat = r.elapsed(now), b.seat
				r.apply(nil, b.seat, r.play.Table(), a, "", now)
				return true
			}
		}
	}
	return false
}

// nextTime returns when something is next due, or zero.
func (r *Room) nextTime() time.Time {
	var next time.Time
	earlier := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	for _, s := range r.seats {
		if s.kind == KindHuman && s.peer == nil && !s.held.IsZero() {
			earlier(s.held)
		}
	}
	switch r.phase {
	case PhaseCountdown, PhasePick:
		earlier(r.deadline)
	case PhasePlay:
		if d, ok := r.play.State().Deadline(); ok {
			earlier(r.start.Add(time.Duration(d) * time.Millisecond))
		}
		for _, b := range r.bots {
			if b.has {
				earlier(r.start.Add(time.Duration(b.plan.Action.At) * time.Millisecond))
			}
		}
	}
	return next
}

// clockDue applies the tick of a timed game's clock once the game's
// deadline (State.Deadline) has come, and reports whether it did. The
// clock goes before any bot's action due at the same moment, so that the
// time is settled first, as the rules require; the tick arrives when the
// room applies it, no earlier than the deadline.
func (r *Room) clockDue(now time.Time) bool {
	st := r.play.State()
	d, ok := st.Deadline()
	if !ok || r.elapsed(now) < d {
		return false
	}
	tick, _ := st.Tick()
	tick.At = max(d, r.elapsed(now))
	r.apply(nil, rules.NoSeat, r.play.Table(), tick, "", now)
	return true
}

// handle answers one request.
func (r *Room) handle(in *input) {
	if perr := r.serve(in); perr != nil {
		in.peer.Send(errorFrame(perr, in.id))
	}
}

func (r *Room) serve(in *input) *protoError {
	p := in.peer
	if in.kind == "create" || in.kind == "join" || in.kind == "watch" || in.kind == "resume" {
		select {
		case <-p.Done():
			return nil
		default:
		}
		if !p.room.CompareAndSwap(nil, r) {
			return errNotAllowed("you are already in a room; leave it first")
		}
		var perr *protoError
		switch in.kind {
		case "create":
			perr = r.doJoin(in, 0)
		case "join":
			perr = r.doJoin(in, -1)
		case "watch":
			r.members[p] = -1
			p.Send(encode(msgJoined{Type: "joined", ID: in.id, Room: r.code, Seat: -1, Host: r.host}))
			r.sendSituation(p)
		case "resume":
			perr = r.doResume(in)
		}
		if perr != nil {
			p.room.CompareAndSwap(r, nil)
			if in.kind == "create" {
				// A room that could not seat its creator is of no use.
				r.close("the room could not seat its host")
			}
		}
		return perr
	}
	seat, ok := r.members[p]
	if !ok {
		return errNotAllowed("%s: you are not in room %s", in.kind, r.code)
	}
	if _, ok := actionTypes[in.kind]; ok {
		return r.doAction(seat, in)
	}
	switch in.kind {
	case "leave":
		r.leave(p, false, in.at)
		p.Send(encode(msgClosed{Type: "closed", Reason: "you left the room"}))
		return nil
	case "seat":
		return r.doSeat(seat, in)
	case "start":
		return r.doStart(seat, in.at)
	case "pick":
		if seat < 0 {
			return errNotAllowed("spectators cannot pick")
		}
		if r.phase != PhasePick {
			return errNotAllowed("no pick is due now (the room is in phase %s)", r.phase)
		}
		if err := r.play.Pick(seat, in.game); err != nil {
			var pe *session.PickError
			if errors.As(err, &pe) {
				if seat != r.play.Picker() {
					return errNotAllowed("%s", pe.Reason)
				}
				return errf(CodeBadRequest, "%s", pe.Reason)
			}
			return errf(CodeBadRequest, "%v", err)
		}
		r.startCountdown(in.at)
		return nil
	}
	return errf(CodeBadMessage, "unknown request %q", in.kind)
}

// doJoin seats in.peer at seat (or the first free seat for -1).
func (r *Room) doJoin(in *input, seat int) *protoError {
	if r.phase != PhaseLobby {
		return errNotAllowed("room %s has started; watch it instead", r.code)
	}
	if seat < 0 {
		seat = slices.IndexFunc(r.seats, func(s *seatState) bool { return s.kind == KindFree })
		if seat < 0 {
			return errf(CodeRoomFull, "room %s has no free seat; watch it instead", r.code)
		}
	}
	s := r.seats[seat]
	*s = seatState{kind: KindHuman, name: in.name, token: newToken(), peer: in.peer}
	r.members[in.peer] = seat
	in.peer.Send(encode(msgJoined{Type: "joined", ID: in.id, Room: r.code, Seat: seat, Token: s.token, Host: r.host}))
	r.broadcastLobby()
	return nil
}

// doResume gives a seat back to the connection holding its token.
func (r *Room) doResume(in *input) *protoError {
	seat := -1
	for i, s := range r.seats {
		if s.kind == KindHuman && s.token != "" && subtle.ConstantTimeCompare([]byte(s.token), []byte(in.token)) == 1 {
			seat = i
		}
	}
	if seat < 0 {
		return errf(CodeBadToken, "that token holds no seat of room %s (a hold that expired is lost)", r.code)
	}
	s := r.seats[seat]
	if old := s.peer; old != nil && old != in.peer {
		delete(r.members, old)
		old.room.CompareAndSwap(r, nil)
		old.Send(encode(msgClosed{Type: "closed", Reason: "your seat was resumed by another connection"}))
	}
	s.peer, s.held = in.peer, time.Time{}
	r.members[in.peer] = seat
	in.peer.Send(encode(msgJoined{Type: "joined", ID: in.id, Room: r.code, Seat: seat, Token: s.token, Host: r.host}))
	r.broadcast(encode(msgPresence{Type: "presence", Seat: seat, Connected: true}), in.peer)
	r.sendSituation(in.peer)
	return nil
}

// sendSituation sends p what it needs to pick up the room where it is:
// the lobby, and the table (with the pick or the countdown) once started.
func (r *Room) sendSituation(p *Peer) {
	p.Send(encode(msgLobby{Type: "lobby", Room: r.lobbyInfo()}))
	if r.play == nil {
		return
	}
	seat := r.members[p]
	switch r.phase {
	case PhaseCountdown:
		p.Send(encode(msgCountdown{Type: "countdown", Ms: max(0, time.Until(r.deadline).Milliseconds()), Table: r.table(), Game: r.play.State().Info().Name}))
	case PhasePlay, PhasePick, PhaseOver:
		p.Send(r.stateFrame(r.gameSeat(seat), time.Now()))
		if r.phase == PhasePick {
			p.Send(r.pickFrame())
		}
	}
}

// table returns the number of the current table in the room: the
// session's own, counted on from the tables of earlier sessions.
func (r *Room) table() int { return r.base + r.play.Table() }

// gameSeat returns the seat at the current table of a member's session
// seat (-1 for spectators and seats not at the table).
func (r *Room) gameSeat(seat int) int {
	if seat < 0 || r.play == nil {
		return rules.Spectator
	}
	return r.play.GameSeat(seat)
}

// leave removes p from the room: a spectator goes; a person's seat is held
// when they disconnected or the game is on, and freed when they leave the
// lobby.
func (r *Room) leave(p *Peer, disconnected bool, now time.Time) {
	seat, ok := r.members[p]
	if !ok {
		return
	}
	delete(r.members, p)
	p.room.CompareAndSwap(r, nil)
	if seat >= 0 {
		s := r.seats[seat]
		if s.peer == p {
			s.peer = nil
			if r.phase == PhaseLobby && !disconnected {
				*s = seatState{kind: KindFree}
			} else {
				s.held = now.Add(r.m.cfg.SeatHold)
			}
			if r.phase == PhaseLobby {
				r.moveHost()
				r.broadcastLobby()
			} else {
				r.broadcast(encode(msgPresence{Type: "presence", Seat: seat, Connected: false}), nil)
			}
		}
	}
	r.closeIfEmpty()
}

// expire ends the hold of a disconnected person's seat.
func (r *Room) expire(seat int) {
	s := r.seats[seat]
	if r.phase == PhaseLobby {
		*s = seatState{kind: KindFree}
		r.moveHost()
		r.broadcastLobby()
	} else {
		s.held, s.token = time.Time{}, ""
	}
	r.closeIfEmpty()
}

// moveHost passes the host's role to the first seated person when the host
// has gone from the lobby.
func (r *Room) moveHost() {
	if h := r.seats[r.host]; h.kind == KindHuman && (h.peer != nil || !h.held.IsZero()) {
		return
	}
	for i, s := range r.seats {
		if s.kind == KindHuman && s.peer != nil {
			r.host = i
			return
		}
	}
}

// closeIfEmpty closes the room once no person is seated or held.
func (r *Room) closeIfEmpty() {
	for _, s := range r.seats {
		if s.kind == KindHuman && (s.peer != nil || !s.held.IsZero()) {
			return
		}
	}
	r.close("everyone left")
}

// doSeat puts a bot on a seat or frees it (host, lobby).
func (r *Room) doSeat(seat int, in *input) *protoError {
	switch {
	case seat != r.host:
		return errNotAllowed("only the host (seat %d) seats bots", r.host)
	case r.phase != PhaseLobby:
		return errNotAllowed("seats change only in the lobby")
	case in.seat < 0 || in.seat >= len(r.seats):
		return errf(CodeBadRequest, "seat %d: the room has seats 0 to %d", in.seat, len(r.seats)-1)
	}
	s := r.seats[in.seat]
	if s.kind == KindHuman {
		return errNotAllowed("seat %d is %s's", in.seat, s.name)
	}
	if in.bot == nil {
		*s = seatState{kind: KindFree}
	} else {
		if _, err := bot.LookupLevel(*in.bot); err != nil {
			return errf(CodeBadRequest, "%v", err)
		}
		*s = seatState{kind: KindBot, level: *in.bot, name: "bot:" + *in.bot}
	}
	r.broadcastLobby()
	return nil
}

// doStart starts the session, or a rematch once it is over (host).
func (r *Room) doStart(seat int, now time.Time) *protoError {
	switch {
	case seat != r.host:
		return errNotAllowed("only the host (seat %d) starts the game", r.host)
	case r.phase != PhaseLobby && r.phase != PhaseOver:
		return errNotAllowed("the session is already running")
	}
	for i, s := range r.seats {
		if s.kind == KindFree {
			return errNotAllowed("seat %d is free: wait for someone to join or put a bot on it", i)
		}
	}
	var b [8]byte
	rand.Read(b[:])
	r.seed = binary.LittleEndian.Uint64(b[:])
	cfg := r.cfg
	cfg.Seed = r.seed
	if r.play != nil {
		// A rematch: its tables are numbered on from the last one, so
		// that a claim made at the last session's table is too late.
		r.base = r.table() + 1
	}
	if len(r.seats) == 1 {
		g, _ := rules.Lookup(r.spec.Game)
		st, err := rules.New(g, r.main.Cards, rules.Config{Players: 1, Seed: r.seed, Lockout: cfg.Lockout, Options: cfg.Options[r.spec.Game]})
		if err != nil {
			return errf(CodeBadRequest, "%v", err)
		}
		r.play = &solo{st: st, seed: r.seed}
	} else {
		s, err := session.New(cfg, r.decks)
		if err != nil {
			return errf(CodeBadRequest, "%v", err)
		}
		r.play = s
	}
	r.startCountdown(now)
	r.publish()
	return nil
}

// startCountdown announces the table just set up and starts it after the
// countdown.
func (r *Room) startCountdown(now time.Time) {
	r.phase, r.deadline = PhaseCountdown, now.Add(r.m.cfg.Countdown)
	r.bots = nil
	r.broadcast(encode(msgCountdown{Type: "countdown", Ms: r.m.cfg.Countdown.Milliseconds(), Table: r.table(), Game: r.play.State().Info().Name}), nil)
}

// deckOf returns the deck the game called name plays with.
func (r *Room) deckOf(name string) *Deck {
	if d, ok := r.own[name]; ok {
		return d
	}
	return r.main
}

// beginTable starts play at the current table: the clock, the bots, the
// record, and everyone's state.
func (r *Room) beginTable(now time.Time) {
	r.phase, r.start = PhasePlay, now
	st := r.play.State()
	table := r.play.Table()
	at := r.play.Seats()
	r.bots = nil
	names := make([]string, len(at))
	for gs, seat := range at {
		s := r.seats[seat]
		names[gs] = s.name
		if s.kind == KindBot {
			level, _ := bot.LookupLevel(s.level)
			r.bots = append(r.bots, &botSeat{seat: seat, b: bot.New(level, gs, r.seed^uint64(table+1)*0x9e3779b97f4a7c15)})
		}
	}
	d := r.deckOf(st.Info().Name)
	rec := &tableRecord{started: now, seats: names, deck: d.Name, tieBreak: r.play.Phase() == session.PhaseTieBreak}
	rec.w = record.NewWriter(&rec.buf)
	rec.w.Begin(record.Header{Game: st.Info().Name, Config: st.Config(), Deck: d.Desc, Seats: names})
	r.rec = rec
	r.broadcastState(now)
	r.replan(now, -1)
}

// replan asks every bot whose plan the change of table made void (or that
// has none, or whose own action was just answered: seat) for a new plan.
func (r *Room) replan(now time.Time, seat int) {
	st := r.play.State()
	el := r.elapsed(now)
	for _, b := range r.bots {
		if b.has && b.seat != seat && b.plan.Action.Version == st.Version() {
			continue
		}
		if b.has && b.seat != seat && b.plan.Committed(el) {
			continue // on its way: it arrives and is refused as too late
		}
		b.has = false
		if st.Over() {
			continue
		}
		gs := r.play.GameSeat(b.seat)
		if gs == rules.NoSeat {
			continue
		}
		b.plan, b.has = b.b.Plan(st, el)
	}
}

// doAction handles a person's action at the table: a claim, a draw, a
// flip… (actionTypes).
func (r *Room) doAction(seat int, in *input) *protoError {
	if seat < 0 {
		return errNotAllowed("spectators cannot %s", in.kind)
	}
	if in.seat != -2 && in.seat != seat {
		return errNotAllowed("you play seat %d; nobody can act for seat %d", seat, in.seat)
	}
	if r.play == nil {
		return errNotAllowed("no game is being played now (the room is in phase %s)", r.phase)
	}
	if in.table > r.table() || in.table < 0 {
		return errf(CodeBadRequest, "table %d does not exist; the current table is %d", in.table, r.table())
	}
	if r.phase != PhasePlay || in.table < r.base {
		// A claim that crossed the end of its game is refused like any
		// late claim; one for a table not started yet is an error.
		st := r.play.State()
		var code rules.Code
		var reason string
		switch {
		case in.table < r.table():
			code, reason = rules.CodeTooLate, "too late: that game is over"
		case r.phase != PhaseCountdown:
			code, reason = rules.CodeGameOver, "the game is over"
		default:
			return errNotAllowed("the game has not started (the room is in phase %s)", r.phase)
		}
		r.m.metrics.Claims.WithLabelValues(code.String()).Inc()
		in.peer.Send(r.refusedFrame(&msgRefused{ID: in.id, Table: r.table(), Code: code,
			Reason: reason, Version: in.version, Current: st.Version()}))
		return nil
	}
	if len(in.target) > rules.MaxTargets {
		return errf(CodeBadMessage, "\"target\" names at most %d zones", rules.MaxTargets)
	}
	a := rules.Action{Kind: in.action, Seat: seat, Symbol: in.symbol, Target: rules.To(in.target...), Version: in.version, At: r.elapsed(in.at)}
	r.apply(in.peer, seat, in.table-r.base, a, in.id, in.at)
	r.m.metrics.ClaimLatency.Observe(time.Since(in.at).Seconds())
	return nil
}

// apply applies an action of session seat made at table (the session's
// own number; a person's action, from p, a bot's when p is nil, or the
// tick of a timed game's clock, of seat rules.NoSeat) and tells everyone
// what it did.
func (r *Room) apply(p *Peer, seat, table int, a rules.Action, id string, now time.Time) {
	st := r.play.State()
	at := r.play.Seats()
	gs := r.play.GameSeat(seat)
	current := r.play.Table()
	ev, err := r.play.Apply(table, a, r.ev[:0])
	r.ev = ev
	if err != nil {
		var ref *rules.Refusal
		if !errors.As(err, &ref) {
			if p != nil {
				p.Send(errorFrame(errf(CodeBadRequest, "%v", err), id))
			}
			return
		}
		r.m.metrics.Claims.WithLabelValues(ref.Code.String()).Inc()
		// A refusal changes the state only when it locks its seat out;
		// the record keeps exactly those, for a replay to rebuild.
		if ref.LocksOut() && table == current {
			ga, gr := a, *ref
			ga.Seat, gr.Seat = gs, gs
			r.rec.w.Refused(ga, &gr)
		}
		if p != nil {
			p.Send(r.refusedFrame(&msgRefused{ID: id, Table: r.base + current, Code: ref.Code, Reason: ref.Reason(),
				Version: ref.Version, Current: st.Version(), LockedUntil: ref.LockedUntil}))
		}
		r.replan(now, seat)
		return
	}
	if a.Kind != rules.ActionTick {
		r.m.metrics.accepted.Inc()
	}
	ga := a
	ga.Seat = gs
	r.rec.w.Accepted(ga, ev)
	r.broadcastUpdate(st, at, r.base+table, a.At, ev)
	if st.Over() {
		r.finishTable(st, at, r.base+table, now)
		return
	}
	r.replan(now, seat)
}

// finishTable stores the finished table's record, tells everyone how it
// ended and moves on to what the session does next.
func (r *Room) finishTable(st *rules.State, at []int, table int, now time.Time) {
	rec := r.rec
	rec.w.End(st)
	res := st.Result()
	r.m.save(&store.Game{Summary: store.Summary{
		Room: r.code, Game: st.Info().Name, Table: table, TieBreak: rec.tieBreak, Deck: rec.deck,
		Seats: rec.seats, Scores: res.Scores, Unit: res.Unit, Winners: res.Winners, Actions: int(st.Version()),
		Started: rec.started, Ended: now,
	}, Record: slices.Clone(rec.buf.Bytes())})
	r.bots = nil
	r.broadcast(encode(msgOver{Type: "over", Table: table, Game: st.Info().Name, Players: at, Result: res, Session: r.sessionInfo()}), nil)
	switch r.play.Phase() {
	case session.PhasePick:
		r.phase = PhasePick
		wait := r.m.cfg.PickTime
		if r.seats[r.play.Picker()].kind == KindBot {
			wait = r.m.cfg.BotPick
		}
		r.deadline = now.Add(wait)
		r.broadcast(r.pickFrame(), nil)
	case session.PhaseOver:
		r.phase = PhaseOver
		r.broadcastLobby()
	default: // a tie-break was set up
		r.startCountdown(now)
	}
}

// autoPick picks the next mini-game for a bot, or for a person whose time
// to pick ran out: the first game the session has not played yet among
// those a session may pick by itself (rules.Info.NoAutoPick), else the
// first choice.
func (r *Room) autoPick(now time.Time) {
	choices := r.play.Choices()
	played := map[string]bool{}
	for _, h := range r.play.History() {
		played[h.Game] = true
	}
	game := choices[0]
	for _, c := range choices {
		if g, err := rules.Lookup(c); err == nil && !g.Info().NoAutoPick && !played[c] {
			game = c
			break
		}
	}
	if err := r.play.Pick(r.play.Picker(), game); err != nil {
		r.close(fmt.Sprintf("the session could not go on: %v", err))
		return
	}
	r.startCountdown(now)
}

// pickFrame is the encoded pick message.
func (r *Room) pickFrame() []byte {
	return encode(msgPick{Type: "pick", Picker: r.play.Picker(), Choices: r.play.Choices(), Ms: max(0, time.Until(r.deadline).Milliseconds())})
}

// sessionInfo describes the session for state and over messages.
func (r *Room) sessionInfo() SessionInfo {
	h := r.play.History()
	return SessionInfo{Phase: r.play.Phase(), Game: r.play.State().Info().Name, Picker: r.play.Picker(),
		Games: r.play.Config().Games, Played: len(h), Standings: r.play.Standings(), History: h}
}

// seatInfos describes the seats.
func (r *Room) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(r.seats))
	for i, s := range r.seats {
		out[i] = SeatInfo{Seat: i, Name: s.name, Kind: s.kind, Level: s.level, Connected: s.kind == KindBot || s.peer != nil}
	}
	return out
}

// lobbyInfo describes the room for lobby messages.
func (r *Room) lobbyInfo() LobbyInfo {
	lockout := r.cfg.Lockout
	if lockout == rules.NoLockout {
		lockout = 0
	}
	return LobbyInfo{Code: r.code, Phase: r.phase, Game: r.spec.Game, Options: r.spec.Options, Deck: r.main.Name,
		Private: r.spec.Private, Scoring: r.spec.Scoring, Games: r.spec.Games, Lockout: lockout, Seats: r.seatInfos(), Host: r.host}
}

// publish updates the room's entry in the public list.
func (r *Room) publish() {
	if r.spec.Private || r.phase != PhaseLobby || r.closed {
		r.listing.Store(nil)
		return
	}
	l := &Listing{Code: r.code, Game: r.spec.Game, Deck: r.main.Name, Seats: len(r.seats)}
	for _, s := range r.seats {
		if s.kind == KindFree {
			l.Free++
		} else {
			l.Taken++
		}
	}
	if h := r.seats[r.host]; h.kind == KindHuman {
		l.Host = h.name
	}
	r.listing.Store(l)
}

// broadcast sends one encoded frame to every member but except.
func (r *Room) broadcast(b []byte, except *Peer) {
	for p := range r.members {
		if p != except {
			p.Send(b)
		}
	}
}

// broadcastLobby sends everyone the lobby.
func (r *Room) broadcastLobby() {
	r.publish()
	r.broadcast(encode(msgLobby{Type: "lobby", Room: r.lobbyInfo()}), nil)
}

// perView sends every member a frame built for its seat at the table,
// building and encoding it once per distinct seat (spectators, and seats
// not at the table, share one).
func (r *Room) perView(seatOf func(member int) int, build func(gs int) []byte) {
	// Frames by seat: index 0 for the spectators' view, seat+1 for a seat.
	var frames [rules.DobbleMaxPlayers + 1][]byte
	for p, member := range r.members {
		gs := seatOf(member)
		i := gs + 1
		if gs < 0 {
			i = 0
		}
		if frames[i] == nil {
			frames[i] = build(gs)
		}
		p.Send(frames[i])
	}
}

// stateFrame is the encoded state message for seat gs of the table.
func (r *Room) stateFrame(gs int, now time.Time) []byte {
	st := r.play.State()
	return encode(msgState{Type: "state", Table: r.table(), Game: st.Info().Name, Deck: r.deckOf(st.Info().Name).Name,
		Elapsed: r.elapsed(now), Players: r.play.Seats(), Seat: gs, View: st.View(gs), Seats: r.seatInfos(), Session: r.sessionInfo()})
}

// broadcastState sends everyone the table.
func (r *Room) broadcastState(now time.Time) {
	r.perView(r.gameSeat, func(gs int) []byte { return r.stateFrame(gs, now) })
}

// broadcastUpdate sends everyone the events of an accepted action at st,
// whose seats are the session seats at.
func (r *Room) broadcastUpdate(st *rules.State, at []int, table int, atMs int64, ev []rules.Event) {
	seatOf := func(member int) int {
		if member < 0 {
			return rules.Spectator
		}
		return slices.Index(at, member)
	}
	u := newUpdateFrames(st, table, atMs, ev, r.buf)
	r.perView(seatOf, u.frame)
	r.buf = u.buf
}

// refusedFrame is the encoded refused message m.
func (r *Room) refusedFrame(m *msgRefused) []byte {
	m.Type = "refused"
	r.buf = appendRefused(r.buf[:0], m)
	return slices.Clone(r.buf)
}

// newToken returns a seat's secret token: 128 bits from crypto/rand.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
