package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/deck"
	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/store"
)

// Options are what the handler serves.
type Options struct {
	// Manager runs the rooms.
	Manager *room.Manager
	// Store holds the finished games.
	Store store.Store
	// Decks draws the card pictures.
	Decks *room.Decks
	// Registry is what /metrics exposes.
	Registry *metrics.Registry
	// Metrics counts connections.
	Metrics *room.Metrics
	// MaxConns is the most WebSocket connections open at once.
	MaxConns int
	// PingEvery is how long a connection may be quiet before the server
	// pings it; one that has not answered a ping, or has taken no data,
	// within twice that is closed.
	PingEvery time.Duration
	// RTTEvery is how often each connection is pinged to measure its
	// round trip, which the rooms credit to its claims; 0 measures none.
	RTTEvery time.Duration
	// TCPCheck checks the round trips measured by pings against the
	// kernel's measure of the TCP connection's, so that a client holding
	// back its pongs is not credited for it. Behind a proxy, where the
	// TCP connection ends at the proxy, it must be off.
	TCPCheck bool
	// Limits bound each client's connections (the handler keeps all but
	// the sockets' bounds, which are Listen's).
	Limits Limits
	// Log is where connections refused or closed by a bound are logged;
	// nil logs nothing.
	Log *slog.Logger
	// Checks are more of what /healthz checks: each returns what fails,
	// or nil (the relay between a cluster's nodes, package relay).
	Checks []func() error
	// Cluster, when not nil, is the health of the server's node of a
	// cluster (cluster.Node.Health), which /healthz shows: what it says
	// of the node, and an error while the node cannot serve its rooms.
	Cluster func() (map[string]any, error)
}

// server is the handler's state.
type server struct {
	o     Options
	conns atomic.Int64
	addrs *addrTable // the client addresses, for the per-address bounds
	notes *notes
	site  *site // the browser client's files
	// gamesAnswer is GET /api/games' answer, made once (gamesOnce): the
	// games and editions do not change while the server runs.
	gamesOnce   sync.Once
	gamesAnswer *asset
	sw          sweeper
	sweeps      atomic.Int64 // sweeps made so far: the connections' clock
	// closeWait bounds the write of a close frame and the wait for the
	// client's: closeTimeout.
	closeWait time.Duration
}

// Handler returns the HTTP handler of a dobble server.
func Handler(o Options) (http.Handler, error) {
	_, h, err := newServer(o)
	return h, err
}

// newServer returns the handler's state and the handler.
func newServer(o Options) (*server, http.Handler, error) {
	if o.PingEvery <= 0 {
		o.PingEvery = 20 * time.Second
	}
	site, err := clientFiles()
	if err != nil {
		return nil, nil, err
	}
	s := &server{o: o, site: site, closeWait: closeTimeout, addrs: newAddrTable(o.Limits, o.Metrics), notes: newNotes(o.Log)}
	// Every reason of refusal is in /metrics from the start, at 0.
	for _, why := range []string{refusedSockets, refusedSocketsPerAddr, refusedConns, refusedConnsPerAddr, refusedHandshakes, refusedAddrs} {
		o.Metrics.Refused.WithLabelValues(why)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", site)
	mux.HandleFunc("GET /r/{code}", s.page)
	mux.HandleFunc("GET /ws", s.ws)
	mux.HandleFunc("GET /api/games", s.games)
	mux.HandleFunc("GET /api/rooms", s.rooms)
	mux.HandleFunc("GET /api/cards/{deck}/{file}", s.card)
	mux.HandleFunc("GET /api/decks/{deck}", s.deck)
	mux.HandleFunc("GET /api/history", s.history)
	mux.HandleFunc("GET /api/history/{id}", s.game)
	mux.HandleFunc("GET /api/history/{id}/steps", s.steps)
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.Handle("GET /metrics", o.Registry)
	return s, mux, nil
}

// page serves the client's page for a share link: index.html, as at /.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	serveAsset(w, r, s.site.index, cacheRevalid)
}

// healthz answers "ok", or 503 while finished games cannot be stored:
// from a failed save until a save succeeds again (Manager.SaveHealth),
// while the journal of the rooms in play fails (Manager.JournalFailure),
// while one of Options.Checks fails, with what fails and since when. A
// node of a cluster answers in JSON what its node is (its name, whether
// it is connected to NATS, the leases it holds), with 503 while it cannot
// serve its rooms.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	if h := s.o.Manager.SaveHealth(); h.Failing {
		since := h.Since.UTC().Format(time.RFC3339)
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{
			"error": fmt.Sprintf("finished games cannot be stored since %s: %v (%d failed tries; %d games waiting to be stored, %d lost)",
				since, h.Err, h.Failures, h.Waiting, h.Lost),
			"since": since, "waiting": h.Waiting, "lost": h.Lost,
		})
		return
	}
	if at, err := s.o.Manager.JournalFailure(); err != nil {
		since := at.UTC().Format(time.RFC3339)
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{
			"error": fmt.Sprintf("the rooms in play cannot be written to the journal since %s: %v; they go on, but a crash would lose what they did since",
				since, err),
			"since": since,
		})
		return
	}
	var info map[string]any
	var failing []string
	if s.o.Cluster != nil {
		var err error
		if info, err = s.o.Cluster(); err != nil {
			failing = append(failing, err.Error())
		}
	}
	for _, check := range s.o.Checks {
		if err := check(); err != nil {
			failing = append(failing, err.Error())
		}
	}
	if len(failing) > 0 {
		if info == nil {
			info = map[string]any{}
		}
		info["error"] = strings.Join(failing, "; ")
		writeJSON(w, http.StatusServiceUnavailable, info)
		return
	}
	if info != nil {
		info["status"] = "ok"
		writeJSON(w, http.StatusOK, info)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

// writeJSON sends v as JSON with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// httpError sends {"error": msg} with status code.
func httpError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// edition is one edition as /api/games lists it.
type edition struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Order   int    `json:"order"`
	Cards   int    `json:"cards"`
	Symbols int    `json:"symbols"`
}

// gameEntry is one game as /api/games lists it: its Info and its texts
// in every language it has them (rules.Texts), which the browser shows
// instead of the English Title and options' Doc.
type gameEntry struct {
	rules.Info
	Texts map[string]rules.GameText `json:"texts,omitempty"`
}

// games serves GET /api/games: the same answer all the server's life,
// compressed and revalidated (ETag) like the client's files, so that a
// page loaded again gets a 304.
func (s *server) games(w http.ResponseWriter, r *http.Request) {
	s.gamesOnce.Do(func() {
		var b bytes.Buffer
		json.NewEncoder(&b).Encode(gamesList())
		s.gamesAnswer = newAsset("games.json", b.Bytes())
	})
	serveAsset(w, r, s.gamesAnswer, cacheRevalid)
}

// gamesList is GET /api/games' answer.
func gamesList() map[string]any {
	var games []gameEntry
	practice := ""
	for _, g := range rules.Games() {
		info := g.Info()
		games = append(games, gameEntry{Info: info, Texts: rules.Texts(info.Name)})
		if info.Practice && practice == "" {
			practice = info.Name
		}
	}
	var eds []edition
	for _, e := range deck.Editions() {
		eds = append(eds, edition{Name: e.Name, Title: e.Title, Order: e.Order, Cards: e.Cards, Symbols: e.Order*e.Order + e.Order + 1})
	}
	return map[string]any{
		"games": games, "editions": eds, "levels": bot.LevelNames(), "languages": protocol.Languages,
		"maxOrder": room.MaxOrder, "maxLockout": room.MaxLockout,
		"first": session.DefaultFirst, "practice": practice,
	}
}

func (s *server) rooms(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"rooms": s.o.Manager.Public()})
}

func (s *server) card(w http.ResponseWriter, r *http.Request) {
	name, file := r.PathValue("deck"), r.PathValue("file")
	num, ok := strings.CutSuffix(file, ".svg")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 || strconv.Itoa(n) != num {
		httpError(w, http.StatusNotFound, "a card is /api/cards/DECK/N.svg, N a card number without sign or leading zeros")
		return
	}
	b, err := s.o.Decks.CardSVG(name, n)
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(b)
}

func (s *server) deck(w http.ResponseWriter, r *http.Request) {
	info, err := s.o.Decks.Info(r.PathValue("deck"))
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	writeJSON(w, http.StatusOK, info)
}

// MaxHistory is the most games one history page lists.
const MaxHistory = 100

func (s *server) history(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	before, limit := int64(0), 20
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			httpError(w, http.StatusBadRequest, "before: a game id, a whole number from 1")
			return
		}
		before = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxHistory {
			httpError(w, http.StatusBadRequest, "limit: a whole number from 1 to "+strconv.Itoa(MaxHistory))
			return
		}
		limit = n
	}
	games, err := s.o.Store.List(r.Context(), before, limit)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

// stored looks up the game of the request's {id}, answering the errors.
// A game of a private room (stored without its code) is not served: the
// history is public, and what is played in a private room is not.
func (s *server) stored(w http.ResponseWriter, r *http.Request) *store.Game {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		httpError(w, http.StatusBadRequest, "a game id is a whole number from 1")
		return nil
	}
	g, err := s.o.Store.Get(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && g.Room == "" {
		httpError(w, http.StatusNotFound, "no game of a public room has id "+strconv.FormatInt(id, 10))
		return nil
	}
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return nil
	}
	return g
}

func (s *server) game(w http.ResponseWriter, r *http.Request) {
	if g := s.stored(w, r); g != nil {
		w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
		w.Write(g.Record)
	}
}

func (s *server) steps(w http.ResponseWriter, r *http.Request) {
	g := s.stored(w, r)
	if g == nil {
		return
	}
	rep, err := Steps(g)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// ws upgrades to a WebSocket and runs the connection on a goroutine of its
// own, so that the request's goroutine and everything it holds end here.
// A handshake is refused (and logged and counted) beyond the handshake
// rate or the connections of its client's address, or the connections of
// the server.
func (s *server) ws(w http.ResponseWriter, r *http.Request) {
	var e *addrEntry
	client, ok := clientAddr(r, s.o.Limits.TrustedProxies)
	if ok && !within(s.o.Limits.Exempt, client) {
		var why string
		if e, why = s.addrs.acquire(addrKey(client), time.Now()); e == nil {
			s.refuse(w, why, addrKey(client).String())
			return
		}
	}
	release := func() {
		if e != nil {
			s.addrs.release(e)
		}
	}
	if n := s.conns.Add(1); s.o.MaxConns > 0 && n > int64(s.o.MaxConns) {
		s.conns.Add(-1)
		release()
		s.refuse(w, refusedConns, client.String())
		return
	}
	if !sameOrigin(r) {
		s.conns.Add(-1)
		release()
		httpError(w, http.StatusForbidden, "a WebSocket to this server is opened from its own pages: Origin "+r.Header.Get("Origin")+" is not "+r.Host)
		return
	}
	cn, err := s.accept(w, r)
	if err != nil {
		s.conns.Add(-1)
		release()
		return
	}
	cn.addr, cn.entry = client, e
	if e != nil && e.msgs != nil {
		cn.p.ShareBudget(e.msgs)
	}
	if e != nil {
		cn.p.SetAddress(e.key.String())
	}
	s.o.Metrics.Connections.Inc()
	s.watch(cn)
	cn.p.SetWriter(func() { go cn.write() })
	go cn.run()
}

// refuse answers a handshake that a bound refuses (why, one of the
// refused… reasons), logs it and counts it; who is the client's address.
func (s *server) refuse(w http.ResponseWriter, why, who string) {
	s.o.Metrics.Refused.WithLabelValues(why).Inc()
	l := s.o.Limits
	var code int
	var msg, flag string
	switch why {
	case refusedHandshakes:
		code, flag = http.StatusTooManyRequests, "--handshake-rate "+strconv.FormatFloat(l.HandshakeRate, 'g', -1, 64)
		msg = "more than " + strconv.FormatFloat(l.HandshakeRate, 'g', -1, 64) + " WebSocket handshakes a second (bursts of " +
			strconv.Itoa(l.HandshakeBurst) + ") from your address; try again in a few seconds"
		w.Header().Set("Retry-After", "1")
	case refusedConnsPerAddr:
		code, flag = http.StatusTooManyRequests, "--max-conns-per-addr "+strconv.Itoa(l.MaxConnsPerAddr)
		msg = "your address has " + strconv.Itoa(l.MaxConnsPerAddr) + " WebSocket connections open, the most one address may; close one first"
	case refusedAddrs:
		code, flag = http.StatusServiceUnavailable, "--max-addrs "+strconv.Itoa(l.MaxAddrs)
		msg = "the server has connections from its most client addresses; try again later"
	default:
		code, flag = http.StatusServiceUnavailable, "--max-conns "+strconv.Itoa(s.o.MaxConns)
		msg = "the server has its most connections open; try again later"
	}
	s.notes.note(why, "refused a WebSocket handshake ("+flag+")", "reason", why, "addr", who)
	httpError(w, code, msg)
}

// sameOrigin reports whether r comes from a page of this server, or from
// no page at all (a request without Origin, which browsers always send):
// a page of another site may not act for the player who visits it.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}
