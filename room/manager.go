package room

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/store"
)

// Saver stores finished games; *store.Store is one.
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

	wg    sync.WaitGroup // room goroutines
	saves sync.WaitGroup // saves in flight

	// now is the rooms' clock, seed draws a session's seed and spawn
	// starts a new room's goroutine: time.Now, crypto/rand and Room.run,
	// but for the tests that drive rooms by hand.
	now   func() time.Time
	seed  func() uint64
	spawn func(r *Room)
}

// NewManager returns a Manager with the given limits, saving finished games
// to saver and counting in metrics. server names the server in welcome.
func NewManager(cfg Config, saver Saver, decks *Decks, metrics *Metrics, server string) (*Manager, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Manager{cfg: cfg.withDefaults(), saver: saver, decks: decks, metrics: metrics, server: server,
		rooms: map[string]*Room{}, peers: map[*Peer]struct{}{}, now: time.Now, seed: randomSeed}
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

// Close closes every room, telling its people the server is shutting
// down, waits for the rooms to stop and the finished games to be saved,
// then closes every connection with StatusGoingAway.
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
	m.saves.Wait()
	m.mu.Lock()
	peers := make([]*Peer, 0, len(m.peers))
	for p := range m.peers {
		peers = append(peers, p)
	}
	m.mu.Unlock()
	for _, p := range peers {
		p.Close(StatusGoingAway, "the server is shutting down")
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
	}
	m.mu.Unlock()
}

// save stores a finished game in the background.
func (m *Manager) save(g *store.Game) {
	m.metrics.Games.Inc()
	if m.saver == nil {
		return
	}
	m.saves.Add(1)
	go func() {
		defer m.saves.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		m.saver.Save(ctx, g)
	}()
}

// Gone tells the Manager that p's connection has ended: its room, if any,
// holds its seat or drops it as a spectator.
func (m *Manager) Gone(p *Peer) {
	p.Close(StatusNormal, "")
	m.mu.Lock()
	delete(m.peers, p)
	m.mu.Unlock()
	if r := p.Room(); r != nil {
		r.gone(p)
	}
}

// Handle answers one frame from p, which arrived at time at. It never
// blocks on a room: a request for a room whose queue is full is answered
// with the error "busy".
func (m *Manager) Handle(p *Peer, frame []byte, at time.Time) {
	if !m.allow(p, at) {
		p.strike++
		if p.strike > m.cfg.FloodLimit {
			p.Close(StatusPolicy, "flood: too many messages refused for the rate limit")
			return
		}
		p.Send(errorFrame(errf(CodeRateLimited, "more than %g messages a second (bursts of %d); slow down", m.cfg.Rate, m.cfg.Burst), ""))
		return
	}
	p.strike = 0
	req, perr := parse(frame)
	if perr != nil {
		if !p.hello {
			p.Send(errorFrame(perr, ""))
			p.Close(StatusPolicy, "the first message must be hello")
			return
		}
		p.Send(errorFrame(perr, ""))
		return
	}
	if !p.hello && req.Type != "hello" {
		p.Send(errorFrame(errf(CodeNotAllowed, "the first message must be hello, not %q", req.Type), req.ID))
		p.Close(StatusPolicy, "the first message must be hello")
		return
	}
	if perr := m.handle(p, req, at); perr != nil {
		p.Send(errorFrame(perr, req.ID))
	}
}

// HandleBinary answers a binary frame from p, which the protocol does not
// use, with the error badMessage (counting against the rate limit like any
// frame).
func (m *Manager) HandleBinary(p *Peer, at time.Time) {
	if !p.hello {
		p.Send(errorFrame(errf(CodeBadMessage, "binary frames are not part of the protocol; send hello as a text frame"), ""))
		p.Close(StatusPolicy, "the first message must be hello")
		return
	}
	if !m.allow(p, at) {
		p.Send(errorFrame(errf(CodeRateLimited, "more than %g messages a second (bursts of %d); slow down", m.cfg.Rate, m.cfg.Burst), ""))
		return
	}
	p.Send(errorFrame(errf(CodeBadMessage, "binary frames are not part of the protocol; send JSON in text frames"), ""))
}

// allow takes a token from p's bucket.
func (m *Manager) allow(p *Peer, at time.Time) bool {
	if !p.last.IsZero() {
		p.tokens = min(float64(m.cfg.Burst), p.tokens+at.Sub(p.last).Seconds()*m.cfg.Rate)
	}
	p.last = at
	if p.tokens < 1 {
		return false
	}
	p.tokens--
	return true
}

// handle dispatches a parsed request.
func (m *Manager) handle(p *Peer, req *request, at time.Time) *protoError {
	switch req.Type {
	case "hello":
		if p.hello {
			return errf(CodeNotAllowed, "hello was already said")
		}
		if req.V != Version {
			return errf(CodeBadRequest, "protocol version %d; this server speaks version %d", req.V, Version)
		}
		name, perr := cleanName(req.Name)
		if perr != nil {
			return perr
		}
		lang := req.Lang
		if lang == "" {
			lang = "en"
		}
		if !slices.Contains(Languages, lang) {
			return errf(CodeBadRequest, "language %q; use one of %s", req.Lang, strings.Join(Languages, " "))
		}
		p.hello, p.name, p.lang = true, name, lang
		p.Send(encode(msgWelcome{Type: "welcome", ID: req.ID, V: Version, Server: m.server, Name: name}))
		return nil
	case "ping":
		if len(req.Nonce) > 128 {
			return errf(CodeBadRequest, "a nonce is at most 128 bytes of JSON")
		}
		nonce := req.Nonce
		if len(nonce) == 0 {
			nonce = json.RawMessage("null")
		}
		p.Send(encode(msgPong{Type: "pong", ID: req.ID, Nonce: nonce}))
		return nil
	case "create":
		if r := p.Room(); r != nil {
			return errf(CodeNotAllowed, "you are in room %s; leave it first", r.code)
		}
		var spec RoomSpec
		if len(req.Room) == 0 || json.Unmarshal(req.Room, &spec) != nil {
			return errf(CodeBadMessage, "create needs \"room\": an object with game, deck, seats, bots…")
		}
		r, perr := m.create(&spec)
		if perr != nil {
			return perr
		}
		return r.submit(&input{kind: "create", peer: p, id: req.ID, at: at, name: p.name})
	case "join", "watch", "resume":
		if r := p.Room(); r != nil {
			return errf(CodeNotAllowed, "you are in room %s; leave it first", r.code)
		}
		var code string
		if len(req.Room) == 0 || json.Unmarshal(req.Room, &code) != nil {
			return errf(CodeBadMessage, "%s needs \"room\": the room's code as a string", req.Type)
		}
		if req.Type == "resume" && req.Token == "" {
			return errf(CodeBadMessage, "resume needs \"token\", the seat's token from joined")
		}
		r := m.Get(code)
		if r == nil {
			return errf(CodeNoRoom, "no open room has the code %q", code)
		}
		return r.submit(&input{kind: req.Type, peer: p, id: req.ID, at: at, name: p.name, token: req.Token})
	}
	// Everything else acts in the room the connection is in.
	r := p.Room()
	if r == nil {
		return errf(CodeNotAllowed, "%s: you are not in a room; create, join or watch one first", req.Type)
	}
	in := &input{kind: req.Type, peer: p, id: req.ID, at: at}
	switch req.Type {
	case "seat":
		if req.Seat == nil {
			return errf(CodeBadMessage, "seat needs \"seat\", a seat number")
		}
		in.seat = *req.Seat
		switch b := strings.TrimSpace(string(req.Bot)); {
		case b == "" || b == "null":
		default:
			var level string
			if json.Unmarshal(req.Bot, &level) != nil {
				return errf(CodeBadMessage, "field \"bot\": a bot level (%s) or null", strings.Join(bot.LevelNames(), ", "))
			}
			in.bot = &level
		}
	case "pick":
		if req.Game == "" {
			return errf(CodeBadMessage, "pick needs \"game\", the next mini-game")
		}
		in.game = req.Game
	default:
		if _, ok := actionTypes[req.Type]; ok {
			if perr := actionInput(req, in); perr != nil {
				return perr
			}
		}
	}
	return r.submit(in)
}

// actionInput reads a seat's action (claim, draw, flip…) from req into in,
// or says which field is missing: every action names its table and
// version, a claim, a flip, a write and a guess their symbol, a flip, a
// lay and a take the zone they point at.
func actionInput(req *request, in *input) *protoError {
	kind := actionTypes[req.Type]
	if req.Version == nil {
		return errf(CodeBadMessage, "%s needs \"version\", the version of the view it was made against", req.Type)
	}
	if req.Table == nil {
		return errf(CodeBadMessage, "%s needs \"table\", the table of the view it was made against", req.Type)
	}
	in.action, in.version, in.table = kind, *req.Version, *req.Table
	if kind.HasSymbol() {
		if req.Symbol == nil {
			return errf(CodeBadMessage, "%s needs \"symbol\", the symbol's number", req.Type)
		}
		in.symbol = *req.Symbol
	}
	switch kind {
	case rules.ActionFlip, rules.ActionLay, rules.ActionTake:
		if req.Target == nil {
			return errf(CodeBadMessage, "%s needs \"target\", an array holding the zone it points at", req.Type)
		}
	case rules.ActionDraw, rules.ActionStop, rules.ActionDiscard:
		req.Target = nil // these point at nothing; a target sent along is ignored
	}
	if len(req.Target) > rules.MaxTargets {
		return errf(CodeBadMessage, "\"target\" names at most %d zones", rules.MaxTargets)
	}
	in.target = req.Target
	in.seat = -2
	if req.Seat != nil {
		in.seat = *req.Seat
	}
	return nil
}

// create checks a room specification and opens the room.
func (m *Manager) create(spec *RoomSpec) (*Room, *protoError) {
	if spec.Game == "" {
		spec.Game = session.DefaultFirst
	}
	g, err := rules.Lookup(spec.Game)
	if err != nil {
		return nil, errf(CodeBadRequest, "%v", err)
	}
	info := g.Info()
	spec.Game = info.Name
	if spec.Deck == "" {
		spec.Deck = "classic"
	}
	if info.Deck != nil && info.Deck.Only {
		spec.Deck = info.Deck.Edition
	}
	main, err := m.decks.Get(spec.Deck, false)
	if err != nil {
		return nil, errf(CodeBadRequest, "%v", err)
	}
	switch {
	case spec.Seats < 1 || spec.Seats > rules.DobbleMaxPlayers:
		return nil, errf(CodeBadRequest, "seats %d: a room has 1 to %d seats", spec.Seats, rules.DobbleMaxPlayers)
	case spec.Seats == 1 && info.MinPlayers > 1:
		return nil, errf(CodeBadRequest, "one seat plays only a game for one (learning); %s takes %d to %d", info.Name, info.MinPlayers, info.MaxPlayers)
	case spec.Seats < info.MinPlayers || spec.Seats > info.MaxPlayers:
		return nil, errf(CodeBadRequest, "seats %d: %s takes %d to %d players", spec.Seats, info.Name, info.MinPlayers, info.MaxPlayers)
	}
	if len(spec.Bots) > spec.Seats {
		return nil, errf(CodeBadRequest, "bots lists %d seats; the room has %d", len(spec.Bots), spec.Seats)
	}
	for i, b := range spec.Bots {
		if b == nil {
			continue
		}
		if i == 0 {
			return nil, errf(CodeBadRequest, "seat 0 is the host's; bots may sit on seats 1 to %d", spec.Seats-1)
		}
		if _, err := bot.LookupLevel(*b); err != nil {
			return nil, errf(CodeBadRequest, "bots[%d]: %v", i, err)
		}
	}
	scoring := session.ByWins
	if spec.Scoring == "" {
		spec.Scoring = "wins"
	}
	if err := scoring.UnmarshalText([]byte(spec.Scoring)); err != nil {
		return nil, errf(CodeBadRequest, "scoring %q: use wins or points", spec.Scoring)
	}
	if spec.Games == 0 {
		spec.Games = session.DefaultGames
	}
	if spec.Games < 1 || spec.Games > 20 {
		return nil, errf(CodeBadRequest, "games %d: a session plays 1 to 20 mini-games", spec.Games)
	}
	lockout := m.cfg.Lockout
	if spec.Lockout != nil {
		if *spec.Lockout < 0 || *spec.Lockout > MaxLockout {
			return nil, errf(CodeBadRequest, "lockout %d ms: use 0 (none) to %d", *spec.Lockout, MaxLockout)
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
			return nil, errf(CodeBadRequest, "gameOptions: %v", err)
		}
		options[og.Info().Name] = o
	}
	if len(spec.Options) > 0 {
		options[info.Name] = spec.Options
	}
	own, err := m.decks.Own()
	if err != nil {
		return nil, errf(CodeBadRequest, "%v", err)
	}
	decks := session.Decks{Cards: main.Cards, Games: map[string]rules.Cards{}}
	for name, d := range own {
		decks.Games[name] = d.Cards
	}
	cfg := session.Config{Players: spec.Seats, Games: spec.Games, First: info.Name, Scoring: scoring, Lockout: lockout, Options: options}
	if spec.Seats == 1 {
		cfg.Games = 1
		spec.Games = 1
		if _, err := rules.New(g, main.Cards, rules.Config{Players: 1, Lockout: lockout, Options: options[info.Name]}); err != nil {
			return nil, errf(CodeBadRequest, "%v", err)
		}
	} else if _, err := session.New(cfg, decks); err != nil {
		return nil, errf(CodeBadRequest, "%v", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errf(CodeNotAllowed, "the server is shutting down")
	}
	if len(m.rooms) >= m.cfg.MaxRooms {
		return nil, errf(CodeFull, "the server has its most rooms open (%d); try again later", m.cfg.MaxRooms)
	}
	code := newCode()
	for m.rooms[code] != nil {
		code = newCode()
	}
	r := newRoom(m, code, spec, cfg, decks, main, own)
	m.rooms[code] = r
	m.metrics.Rooms.Inc()
	m.spawn(r)
	return r, nil
}

// errNotAllowed formats a notAllowed error.
func errNotAllowed(format string, args ...any) *protoError {
	return errf(CodeNotAllowed, format, args...)
}
