package room

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/store"
)

// Saver stores finished games; store.Store is one.
type Saver interface {
	Save(ctx context.Context, g *store.Game) (int64, error)
}

// Manager holds the open rooms and answers every connection's requests.
type Manager struct {
	cfg     Config
	saver   Saver
	decks   *Decks
	metrics *Metrics
	server  string

	mu     sync.Mutex
	rooms  map[string]*Room
	peers  map[*Peer]struct{} // open connections, to close on shutdown
	closed bool
	// byAddr counts the open rooms each client address created.
	byAddr map[string]int

	wg    sync.WaitGroup // room goroutines
	saves saveQueue      // finished games on their way to the store (saves.go)

	// journal keeps the rooms in play (durable.go); nil keeps them in
	// memory only. journalErr is its last failure.
	journal    Journal
	journalErr atomic.Pointer[journalError]
	// dir, in a cluster, is the directory of the rooms the nodes own
	// (cluster.go); nil for a server on its own.
	dir Directory

	// router carries the connections of rooms other nodes hold
	// (route.go); nil answers noRoom for them.
	router Router

	// now is the rooms' clock, seed draws a session's seed and spawn
	// starts a new room's goroutine: time.Now, crypto/rand and Room.run,
	// but for the tests that drive rooms by hand.
	now   func() time.Time
	seed  func() uint64
	spawn func(r *Room)
}

// NewManager returns a Manager with the given limits, saving finished games
// to saver and counting in metrics; it bounds decks' caches by cfg's
// DeckCache and CardCache. server names the server in welcome.
func NewManager(cfg Config, saver Saver, decks *Decks, metrics *Metrics, server string) (*Manager, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Manager{cfg: cfg.withDefaults(), saver: saver, decks: decks, metrics: metrics, server: server,
		rooms: map[string]*Room{}, peers: map[*Peer]struct{}{}, byAddr: map[string]int{}, now: time.Now, seed: randomSeed}
	decks.limit(m.cfg.DeckCache, m.cfg.CardCache, metrics)
	m.saves.log = m.cfg.Log
	m.spawn = func(r *Room) {
		m.wg.Add(1)
		go r.run()
	}
	return m, nil
}

// Config returns the Manager's limits, defaults filled in.
func (m *Manager) Config() Config { return m.cfg }

// NewPeer returns a Peer for a new connection, with the Manager's queue
// length and rate limit.
func (m *Manager) NewPeer() *Peer {
	p := NewPeer(m.cfg.PeerQueue)
	p.tokens = float64(m.cfg.Burst)
	p.onSlow = func() { m.metrics.SlowConsumers.Inc() }
	m.mu.Lock()
	closed := m.closed
	if !closed {
		m.peers[p] = struct{}{}
	}
	m.mu.Unlock()
	if closed {
		p.Close(StatusGoingAway, "the server is shutting down")
	}
	return p
}

// codeAlphabet is the alphabet of room codes: no 0/O, 1/I/L.
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// CodeLen is the length of a room code.
const CodeLen = 8

// newCode draws a room code with crypto/rand.
func newCode() string {
	b := make([]byte, CodeLen)
	for i := range b {
		b[i] = codeAlphabet[randN(len(codeAlphabet))]
	}
	return string(b)
}

// randN returns a uniform number in 0..n-1 from crypto/rand.
func randN(n int) int {
	var b [1]byte
	limit := 256 - 256%n
	for {
		rand.Read(b[:])
		if int(b[0]) < limit {
			return int(b[0]) % n
		}
	}
}

// randomSeed returns 64 bits from crypto/rand.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// Get returns the open room with the given code (case and spaces
// ignored), or nil.
func (m *Manager) Get(code string) *Room {
	code = strings.ToUpper(strings.TrimSpace(code))
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rooms[code]
}

// Listing is one public room in its lobby, as GET /api/rooms lists it.
type Listing struct {
	Code  string `json:"code"`
	Game  string `json:"game"`
	Deck  string `json:"deck"`
	Seats int    `json:"seats"`
	Taken int    `json:"taken"`
	Free  int    `json:"free"`
	Host  string `json:"host"`
}

// Public lists the public rooms in their lobby with a free seat, by code.
func (m *Manager) Public() []Listing {
	m.mu.Lock()
	rooms := make([]*Room, 0, len(m.rooms))
	for _, r := range m.rooms {
		rooms = append(rooms, r)
	}
	m.mu.Unlock()
	out := []Listing{}
	for _, r := range rooms {
		if l := r.listing.Load(); l != nil && l.Free > 0 {
			out = append(out, *l)
		}
	}
	slices.SortFunc(out, func(a, b Listing) int { return strings.Compare(a.Code, b.Code) })
	return out
}

// Rooms returns the number of open rooms.
func (m *Manager) Rooms() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.rooms)
}

// Close stops every room (one kept in a journal stays there, for the next
// server to restore; any other closes, telling its people the server is
// shutting down), waits for the rooms to stop and the finished games to
// be saved, then closes every connection: with StatusRestart when the
// rooms are kept in a journal, for the clients to reconnect and resume,
// and with StatusGoingAway otherwise.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	rooms := make([]*Room, 0, len(m.rooms))
	for _, r := range m.rooms {
		rooms = append(rooms, r)
	}
	m.mu.Unlock()
	for _, r := range rooms {
		r.stop()
	}
	m.wg.Wait()
	if m.journal != nil {
		// The rooms' last entries durable, their last frames go out
		// before the connections close.
		flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		m.journal.Flush(flush)
		cancel()
	}
	m.saves.Wait()
	m.mu.Lock()
	peers := make([]*Peer, 0, len(m.peers))
	for p := range m.peers {
		peers = append(peers, p)
	}
	m.mu.Unlock()
	for _, p := range peers {
		if m.journal != nil {
			p.Close(StatusRestart, "the server is restarting; reconnect and resume your seat")
		} else {
			p.Close(StatusGoingAway, "the server is shutting down")
		}
	}
}

// WaitGone waits until every connection has gone (the transport called
// Gone), so that their close frames are on their way before the process
// ends, or until ctx is done; it returns ctx's error in that case.
func (m *Manager) WaitGone(ctx context.Context) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		m.mu.Lock()
		n := len(m.peers)
		m.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// remove forgets a closed room.
func (m *Manager) remove(r *Room) {
	m.mu.Lock()
	if m.rooms[r.code] == r {
		delete(m.rooms, r.code)
		m.metrics.Rooms.Dec()
		if r.addr != "" {
			if m.byAddr[r.addr]--; m.byAddr[r.addr] <= 0 {
				delete(m.byAddr, r.addr)
			}
		}
	}
	m.mu.Unlock()
}

// Gone tells the Manager that p's connection has ended: its room, if any,
// holds its seat or drops it as a spectator.
func (m *Manager) Gone(p *Peer) {
	p.Close(StatusNormal, "")
	m.mu.Lock()
	delete(m.peers, p)
	m.mu.Unlock()
	if p.routed {
		m.router.Left(p)
	}
	if r := p.Room(); r != nil {
		r.gone(p)
	}
}

// Handle answers one frame from p, which arrived at time at. It never
// blocks on a room: a request for a room whose queue is full is answered
// with the error "busy".
func (m *Manager) Handle(p *Peer, frame []byte, at time.Time) {
	if perr := m.allow(p, at); perr != nil {
		p.strike++
		if p.strike > m.cfg.FloodLimit {
			p.Close(StatusPolicy, "flood: too many messages refused for the rate limit")
			return
		}
		p.Send(protocol.ErrorFrame(perr, ""))
		return
	}
	p.strike = 0
	if p.routed {
		if m.router.Relay(p, frame) {
			return
		}
		p.routed = false
	}
	in := &input{peer: p, at: at, raw: frame}
	perr := protocol.Decode(frame, &in.Request)
	switch {
	case in.Type == protocol.TypeNone:
		// Not a request at all: the answer cannot echo an id.
		p.Send(protocol.ErrorFrame(perr, ""))
		if !p.hello {
			p.Close(StatusPolicy, "the first message must be hello")
		}
		return
	case !p.hello && in.Type != protocol.TypeHello:
		p.Send(protocol.ErrorFrame(protocol.Errorf(protocol.CodeNotAllowed, "the first message must be hello, not %q", in.TypeName()), in.ID))
		p.Close(StatusPolicy, "the first message must be hello")
		return
	case perr == nil:
		perr = m.handle(in)
	}
	if perr != nil {
		p.Send(protocol.ErrorFrame(perr, in.ID))
	}
}

// HandleBinary answers a binary frame from p, which the protocol does not
// use, with the error badMessage (counting against the rate limit like any
// frame).
func (m *Manager) HandleBinary(p *Peer, at time.Time) {
	if !p.hello {
		p.Send(protocol.ErrorFrame(protocol.Errorf(protocol.CodeBadMessage, "binary frames are not part of the protocol; send hello as a text frame"), ""))
		p.Close(StatusPolicy, "the first message must be hello")
		return
	}
	if perr := m.allow(p, at); perr != nil {
		p.Send(protocol.ErrorFrame(perr, ""))
		return
	}
	p.Send(protocol.ErrorFrame(protocol.Errorf(protocol.CodeBadMessage, "binary frames are not part of the protocol; send JSON in text frames"), ""))
}

// Control counts a control frame from p (a ping, a pong, a close) that
// arrived at time at against p's budget, like a message, and reports
// whether it may be answered. Refused frames count as refused messages:
// more than FloodLimit of them in a row close p for a flood.
func (m *Manager) Control(p *Peer, at time.Time) bool {
	if m.allow(p, at) == nil {
		p.strike = 0
		return true
	}
	p.strike++
	if p.strike > m.cfg.FloodLimit {
		p.Close(StatusPolicy, "flood: too many frames refused for the rate limit")
	}
	return false
}

// allow takes a message from p's bucket and from its address's budget, if
// it shares one; it returns the error rateLimited, and counts it, when
// either is empty.
func (m *Manager) allow(p *Peer, at time.Time) *protocol.Error {
	if !p.last.IsZero() {
		p.tokens = min(float64(m.cfg.Burst), p.tokens+at.Sub(p.last).Seconds()*m.cfg.Rate)
	}
	p.last = at
	if p.tokens < 1 {
		m.metrics.limitedConn.Inc()
		return protocol.Errorf(protocol.CodeRateLimited, "more than %g messages a second (bursts of %d); slow down", m.cfg.Rate, m.cfg.Burst)
	}
	if p.budget != nil && !p.budget.Take(at) {
		m.metrics.limitedAddr.Inc()
		return protocol.Errorf(protocol.CodeRateLimited, "more than %g messages a second (bursts of %.0f) from your address, all its connections together; slow down", p.budget.rate, p.budget.burst)
	}
	p.tokens--
	return nil
}

// handle answers what the connection asks for itself (hello, ping), opens
// or finds the room a create, join, watch or resume is for, and queues
// everything else for the connection's room.
func (m *Manager) handle(in *input) *protocol.Error {
	p := in.peer
	switch in.Type {
	case protocol.TypeHello:
		if p.hello {
			return protocol.Errorf(protocol.CodeNotAllowed, "hello was already said")
		}
		name, lang, perr := protocol.CheckHello(&in.Request)
		if perr != nil {
			return perr
		}
		p.hello, p.name, p.lang = true, name, lang
		p.Send(protocol.Encode(protocol.Welcome{ID: in.ID, V: protocol.Version, Server: m.server, Name: name}))
		return nil
	case protocol.TypePing:
		// The round trip in whole milliseconds, rounded up: a measured
		// one is never 0, which stands for none yet.
		rtt := (p.RTT() + time.Millisecond - 1).Milliseconds()
		p.Send(protocol.Encode(protocol.Pong{ID: in.ID, Nonce: in.Nonce, RTT: rtt}))
		return nil
	case protocol.TypeCreate, protocol.TypeJoin, protocol.TypeWatch, protocol.TypeResume:
		if r := p.Room(); r != nil {
			return protocol.Errorf(protocol.CodeNotAllowed, "you are in room %s; leave it first", r.code)
		}
		in.name = p.name
		var r *Room
		if in.Type == protocol.TypeCreate {
			var perr *protocol.Error
			if r, perr = m.create(in.Spec, p.addr); perr != nil {
				return perr
			}
		} else if r = m.Get(in.Code); r == nil {
			return m.route(in)
		}
		return r.submit(m.keep(in))
	}
	// Everything else acts in the room the connection is in.
	r := p.Room()
	if r == nil {
		return protocol.Errorf(protocol.CodeNotAllowed, "%s: you are not in a room; create, join or watch one first", in.TypeName())
	}
	return r.submit(m.keep(in))
}

// keep copies the frame of a request for a room, which the journal writes
// after the connection has read its next frame into the same buffer.
func (m *Manager) keep(in *input) *input {
	if m.journal != nil {
		in.raw = slices.Clone(in.raw)
	} else {
		in.raw = nil
	}
	return in
}

// refusedRoomsPerAddr is the reason dobble_connections_refused_total
// counts a room refused for MaxRoomsPerAddr.
const refusedRoomsPerAddr = "max_rooms_per_addr"

// create checks a room specification and opens the room, created by a
// connection of the client address addr ("" for one not bounded).
func (m *Manager) create(spec *protocol.RoomSpec, addr string) (*Room, *protocol.Error) {
	cfg, decks, main, own, perr := m.prepare(spec)
	if perr != nil {
		return nil, perr
	}
	if perr := m.mayOpen(addr); perr != nil {
		return nil, perr
	}
	code, jid, perr := m.drawCode()
	if perr != nil {
		return nil, perr
	}
	m.mu.Lock()
	// The bounds are checked again: other rooms may have opened while the
	// code was claimed.
	if perr := m.mayOpenLocked(addr); perr != nil || m.rooms[code] != nil {
		m.mu.Unlock()
		if m.dir != nil {
			m.dir.Release(code, jid)
		}
		if perr == nil {
			perr = protocol.Errorf(protocol.CodeBusy, "the room code drawn was taken meanwhile; try again")
		}
		return nil, perr
	}
	defer m.mu.Unlock()
	r := newRoom(m, code, spec, cfg, decks, main, own)
	r.jid = jid
	r.open()
	if addr != "" {
		r.addr = addr
		m.byAddr[addr]++
	}
	m.rooms[code] = r
	m.metrics.Rooms.Inc()
	m.spawn(r)
	return r, nil
}

// mayOpen checks that a room may open now, for a connection of the
// client address addr.
func (m *Manager) mayOpen(addr string) *protocol.Error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mayOpenLocked(addr)
}

// mayOpenLocked is mayOpen with m.mu held; a refusal for the address is
// counted.
func (m *Manager) mayOpenLocked(addr string) *protocol.Error {
	if m.closed {
		return protocol.Errorf(protocol.CodeNotAllowed, "the server is shutting down")
	}
	if len(m.rooms) >= m.cfg.MaxRooms {
		return protocol.Errorf(protocol.CodeFull, "the server has its most rooms open (%d); try again later", m.cfg.MaxRooms)
	}
	if addr != "" && m.byAddr[addr] >= m.cfg.MaxRoomsPerAddr {
		m.metrics.Refused.WithLabelValues(refusedRoomsPerAddr).Inc()
		return protocol.Errorf(protocol.CodeFull, "your address has %d rooms open, the most one address may; leave or finish one first", m.cfg.MaxRoomsPerAddr)
	}
	return nil
}

// claimTries is how many codes a new room draws, in a cluster, before it
// gives up: each is taken with a chance of the rooms open over 31^8.
const claimTries = 8

// drawCode draws the code of a new room, one no open room of this server
// has and, in a cluster, one the directory lets it claim, and returns it
// with the room's name in the journal.
func (m *Manager) drawCode() (code, jid string, perr *protocol.Error) {
	for range claimTries {
		m.mu.Lock()
		code = newCode()
		for m.rooms[code] != nil {
			code = newCode()
		}
		m.mu.Unlock()
		jid = journalID(code, m.now())
		if m.dir == nil {
			return code, jid, nil
		}
		err := m.dir.Claim(code, jid)
		if err == nil {
			return code, jid, nil
		}
		if !errors.Is(err, ErrCodeTaken) {
			m.cfg.Log.Error("room: a new room's code could not be claimed in the cluster's directory", "room", code, "err", err)
			return "", "", protocol.Errorf(protocol.CodeBusy, "the cluster cannot open a room now (%v); try again in a moment", err)
		}
	}
	return "", "", protocol.Errorf(protocol.CodeBusy, "%d room codes drawn in a row were taken; try again", claimTries)
}

// prepare checks a room specification, filling in its defaults, and
// returns what a room of it plays with: its session's configuration and
// its decks.
func (m *Manager) prepare(spec *protocol.RoomSpec) (cfg session.Config, decks session.Decks, main *Deck, own map[string]*Deck, perr *protocol.Error) {
	fail := func(p *protocol.Error) (session.Config, session.Decks, *Deck, map[string]*Deck, *protocol.Error) {
		return session.Config{}, session.Decks{}, nil, nil, p
	}
	if spec.Game == "" {
		spec.Game = session.DefaultFirst
	}
	g, err := rules.Lookup(spec.Game)
	if err != nil {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "%v", err))
	}
	info := g.Info()
	spec.Game = info.Name
	if spec.Deck == "" {
		spec.Deck = "classic"
	}
	if info.Deck != nil && info.Deck.Only {
		spec.Deck = info.Deck.Edition
	}
	main, err = m.decks.Get(spec.Deck, false)
	if err != nil {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "%v", err))
	}
	switch {
	case spec.Seats < 1 || spec.Seats > rules.DobbleMaxPlayers:
		return fail(protocol.Errorf(protocol.CodeBadRequest, "seats %d: a room has 1 to %d seats", spec.Seats, rules.DobbleMaxPlayers))
	case spec.Seats == 1 && info.MinPlayers > 1:
		return fail(protocol.Errorf(protocol.CodeBadRequest, "one seat plays only a game for one (learning); %s takes %d to %d", info.Name, info.MinPlayers, info.MaxPlayers))
	case spec.Seats < info.MinPlayers || spec.Seats > info.MaxPlayers:
		return fail(protocol.Errorf(protocol.CodeBadRequest, "seats %d: %s takes %d to %d players", spec.Seats, info.Name, info.MinPlayers, info.MaxPlayers))
	}
	if len(spec.Bots) > spec.Seats {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "bots lists %d seats; the room has %d", len(spec.Bots), spec.Seats))
	}
	for i, b := range spec.Bots {
		if b == nil {
			continue
		}
		if i == 0 {
			return fail(protocol.Errorf(protocol.CodeBadRequest, "seat 0 is the host's; bots may sit on seats 1 to %d", spec.Seats-1))
		}
		if _, err := bot.LookupLevel(*b); err != nil {
			return fail(protocol.Errorf(protocol.CodeBadRequest, "bots[%d]: %v", i, err))
		}
	}
	scoring := session.ByWins
	if spec.Scoring == "" {
		spec.Scoring = "wins"
	}
	if err := scoring.UnmarshalText([]byte(spec.Scoring)); err != nil {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "scoring %q: use wins or points", spec.Scoring))
	}
	if spec.Games == 0 {
		spec.Games = session.DefaultGames
	}
	if spec.Games < 1 || spec.Games > 20 {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "games %d: a session plays 1 to 20 mini-games", spec.Games))
	}
	lockout := m.cfg.Lockout
	if spec.Lockout != nil {
		if *spec.Lockout < 0 || *spec.Lockout > MaxLockout {
			return fail(protocol.Errorf(protocol.CodeBadRequest, "lockout %d ms: use 0 (none) to %d", *spec.Lockout, MaxLockout))
		}
		lockout = *spec.Lockout
	}
	if lockout == 0 {
		lockout = rules.NoLockout
	}
	options := map[string]map[string]string{}
	for name, o := range spec.GameOptions {
		og, err := rules.Lookup(name)
		if err != nil {
			return fail(protocol.Errorf(protocol.CodeBadRequest, "gameOptions: %v", err))
		}
		options[og.Info().Name] = o
	}
	if len(spec.Options) > 0 {
		options[info.Name] = spec.Options
	}
	own, err = m.decks.Own()
	if err != nil {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "%v", err))
	}
	decks = session.Decks{Cards: main.Cards, Games: map[string]rules.Cards{}}
	for name, d := range own {
		decks.Games[name] = d.Cards
	}
	cfg = session.Config{Players: spec.Seats, Games: spec.Games, First: info.Name, Scoring: scoring, Lockout: lockout, Options: options}
	if spec.Seats == 1 {
		cfg.Games = 1
		spec.Games = 1
		if _, err := rules.New(g, main.Cards, rules.Config{Players: 1, Lockout: lockout, Options: options[info.Name]}); err != nil {
			return fail(protocol.Errorf(protocol.CodeBadRequest, "%v", err))
		}
	} else if _, err := session.New(cfg, decks); err != nil {
		return fail(protocol.Errorf(protocol.CodeBadRequest, "%v", err))
	}
	return cfg, decks, main, own, nil
}

// errNotAllowed formats a notAllowed error.
func errNotAllowed(format string, args ...any) *protocol.Error {
	return protocol.Errorf(protocol.CodeNotAllowed, format, args...)
}
