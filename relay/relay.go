package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/room"
)

// Bucket is the JetStream key-value bucket of the room directory: the key
// is a room code, the value names the node that holds the room (Entry).
const Bucket = "dobble_rooms"

// Entry is the value of a room's key in the room directory.
type Entry struct {
	// Node is the name of the node that holds the room.
	Node string `json:"node"`
	// Journal names the room's journal (the durability of the rooms in
	// play); the relay does not read it.
	Journal string `json:"journal,omitempty"`
}

// The headers of the relay's messages.
const (
	// HeaderKind is what a message is: open, frame, gone or close.
	HeaderKind = "Dobble-Kind"
	// HeaderEntry names the node the connection was made to.
	HeaderEntry = "Dobble-Entry"
	// HeaderOwner names the node that holds the connection's room.
	HeaderOwner = "Dobble-Owner"
	// HeaderConn is the connection's id, unique on its entry node.
	HeaderConn = "Dobble-Conn"
	// HeaderName and HeaderLang are the nickname and language of an open
	// connection's hello, HeaderAddr its client's address as the
	// per-address bounds count it (absent when exempt).
	HeaderName = "Dobble-Name"
	HeaderLang = "Dobble-Lang"
	HeaderAddr = "Dobble-Addr"
	// HeaderStatus and HeaderReason are a close's WebSocket status and
	// reason.
	HeaderStatus = "Dobble-Status"
	HeaderReason = "Dobble-Reason"
	// HeaderRefused, in the answer to an open, says why the owner refused
	// the connection; an answer without it accepts it.
	HeaderRefused = "Dobble-Refused"
	// HeaderRTT, in an open or a frame, is the connection's round trip
	// as its entry node estimates it (room.Peer.RTT), in microseconds:
	// the owner ranks the connection's claims by it (room/fair.go).
	HeaderRTT = "Dobble-RTT"
	// HeaderBoot, in an open and in the answer to it, tells the run of
	// the node that sent it (the entry's, the owner's) from an earlier or
	// later run of a node of the same name; a node's heartbeat carries
	// it too, so that a node restarted under its name is known for a new
	// one, whose rooms and connections are not the old one's.
	HeaderBoot = "Dobble-Boot"
)

// The kinds of messages (HeaderKind).
const (
	kindOpen  = "open"  // entry → owner, a request: a connection's first frame for the room
	kindFrame = "frame" // either way: one frame of the connection
	kindGone  = "gone"  // entry → owner: the connection has ended
	kindClose = "close" // owner → entry: the owner closed the connection
)

// inSubject is where node's remote Peers' frames go, outSubject where the
// frames for the connections entered at node go, and aliveSubject where
// node's heartbeat goes.
func inSubject(node string) string    { return "dobble.node." + token(node) + ".in" }
func outSubject(node string) string   { return "dobble.node." + token(node) + ".out" }
func aliveSubject(node string) string { return "dobble.alive." + token(node) }

// token writes a node's name as one token of a subject: its dots, which
// would separate tokens, as %2E (a name has no '%').
func token(node string) string { return strings.ReplaceAll(node, ".", "%2E") }

// pendingMsgs and pendingBytes bound the messages a subscription of the
// relay keeps waiting for its goroutine.
const (
	pendingMsgs  = 1 << 20
	pendingBytes = 256 << 20
)

// Config is how a Relay runs.
type Config struct {
	// Node is this node's name, unique in the cluster: letters, digits,
	// '.', '-' and '_'.
	Node string
	// Heartbeat is how often the node publishes its heartbeat; Timeout is
	// how long a node may be silent before it is taken for dead.
	Heartbeat, Timeout time.Duration
	// OpenTimeout is how long an entry node waits for the owner to accept
	// a connection.
	OpenTimeout time.Duration
	// MaxRemote is the most remote Peers the node holds at once.
	MaxRemote int
	// Bucket is the room directory's bucket: Bucket, but in tests that
	// keep their own.
	Bucket string
	// Log is where failures are logged; nil logs nothing.
	Log *slog.Logger
}

// DefaultConfig returns a heartbeat every second, a node taken for dead
// after 5 s without one, 2 s to open a connection on its owner and 20,000
// remote Peers; Node is to be set.
func DefaultConfig() Config {
	return Config{Heartbeat: time.Second, Timeout: 5 * time.Second, OpenTimeout: 2 * time.Second, MaxRemote: 20000, Bucket: Bucket}
}

// Validate reports what is wrong with c, if anything.
func (c Config) Validate() error {
	if !ValidName(c.Node) {
		return fmt.Errorf("relay: node name %q: use 1 to 64 letters, digits, '.', '-' or '_'", c.Node)
	}
	switch {
	case c.Heartbeat <= 0 || c.Timeout <= 0 || c.OpenTimeout <= 0:
		return errors.New("relay: the heartbeat, the timeout and the open timeout must be positive durations")
	case c.Timeout < 2*c.Heartbeat:
		return fmt.Errorf("relay: a timeout of %v takes a node for dead before it missed two heartbeats of %v; make it 2 heartbeats at least", c.Timeout, c.Heartbeat)
	case c.MaxRemote < 1:
		return fmt.Errorf("relay: max remote peers %d: use 1 or more", c.MaxRemote)
	case c.Bucket == "":
		return errors.New("relay: no directory bucket named")
	}
	return nil
}

// ValidName reports whether s may name a node: letters, digits, '.', '-'
// and '_'.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// validCode reports whether s may be a room code, and so a key of the
// directory: letters and digits, no longer than a room code.
func validCode(s string) bool {
	if len(s) == 0 || len(s) > room.CodeLen {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Metrics are the relay's Prometheus metrics.
type Metrics struct {
	// Frames counts the frames relayed, by way: "to_owner" (published by
	// an entry node) or "to_entry" (published by an owner).
	Frames *metrics.CounterVec
	// RemotePeers is the number of remote Peers this node holds.
	RemotePeers *metrics.Gauge
	// Routed is the number of this node's connections routed to others.
	Routed *metrics.Gauge
	// Errors counts the relay's failures, by reason.
	Errors *metrics.CounterVec
}

// The reasons Metrics.Errors counts.
const (
	errLookup       = "lookup"            // the directory could not be read
	errNoResponders = "no_responders"     // the owner named in the directory does not listen
	errOpenTimeout  = "open_timeout"      // the owner did not answer an open in time
	errRefused      = "max_remote_peers"  // the owner held its most remote Peers
	errPublish      = "publish"           // a message could not be published
	errUnknown      = "unknown_conn"      // a message for a connection the node no longer has
	errEntryLost    = "entry_lost"        // an entry node stopped its heartbeat
	errOwnerLost    = "owner_lost"        // an owner stopped its heartbeat
	errOwnerChanged = "owner_changed"     // another node took a routed room over
	errDisconnected = "nats_disconnected" // the node lost its NATS connection
	errSlow         = "slow_consumer"     // NATS dropped messages the node did not take in time
	errNATS         = "nats_error"        // NATS reported another error
)

// NewMetrics returns the relay's metrics, registered in reg, every reason
// of failure at 0.
func NewMetrics(reg *metrics.Registry) *Metrics {
	m := &Metrics{
		Frames: metrics.NewCounterVec(metrics.Opts{Name: "dobble_relay_frames_total",
			Help: "Frames relayed between nodes, by way: to_owner (from an entry node) or to_entry (from a room's owner)."}, []string{"way"}),
		RemotePeers: metrics.NewGauge(metrics.Opts{Name: "dobble_relay_remote_peers",
			Help: "Connections made to other nodes that this node holds for its rooms."}),
		Routed: metrics.NewGauge(metrics.Opts{Name: "dobble_relay_routed_connections",
			Help: "Connections to this node routed to the rooms of other nodes."}),
		Errors: metrics.NewCounterVec(metrics.Opts{Name: "dobble_relay_errors_total",
			Help: "Failures of the relay between nodes, by reason."}, []string{"reason"}),
	}
	reg.MustRegister(m.Frames, m.RemotePeers, m.Routed, m.Errors)
	m.Frames.WithLabelValues("to_owner")
	m.Frames.WithLabelValues("to_entry")
	for _, r := range []string{errLookup, errNoResponders, errOpenTimeout, errRefused, errPublish, errUnknown,
		errEntryLost, errOwnerLost, errOwnerChanged, errDisconnected, errSlow, errNATS} {
		m.Errors.WithLabelValues(r)
	}
	return m
}

// Relay routes the connections of one node to the rooms other nodes hold,
// and holds the connections other nodes route to its rooms. It is the
// room.Router of its Manager.
type Relay struct {
	cfg     Config
	m       *room.Manager
	nc      *nats.Conn
	js      jetstream.JetStream
	metrics *Metrics
	log     *slog.Logger
	boot    string        // tells this run's connection ids from an earlier run's
	next    atomic.Uint64 // the last connection id given
	toOwner *metrics.Counter
	toEntry *metrics.Counter

	kvMu sync.Mutex
	kv   jetstream.KeyValue // the directory, once it exists

	mu      sync.Mutex
	links   map[string]*link              // the connections routed to other nodes, by id
	byPeer  map[*room.Peer]*link          // the same, by Peer
	remotes map[string]map[string]*remote // the remote Peers, by entry node and connection id
	nremote int
	seen    map[string]time.Time // when each node was last heard from
	boots   map[string]string    // the run each node was last heard from, by its heartbeat
	down    time.Time            // when the NATS connection was lost, zero while it is up

	// hmu is held while a remote Peer's frame or departure is handed to
	// the Manager, which takes them from one goroutine at a time.
	hmu sync.Mutex

	subs   []*nats.Subscription
	ctx    context.Context // done once the relay is closed
	cancel context.CancelFunc
	wg     sync.WaitGroup
	owned  bool // the relay made nc (Dial), and closes it

	notesMu sync.Mutex
	notes   map[string]*note // the failures logged, by kind (fail)
}

// link is a connection of this node routed to the owner of its room.
type link struct {
	id, owner, code string
	ownerBoot       string // the owner's run that accepted it ("" from a node that does not say)
	p               *room.Peer
}

// remote is a remote Peer: a connection of another node, the entry.
type remote struct {
	entry, id string
	entryBoot string // the entry's run that opened it ("" from a node that does not say)
	p         *room.Peer
}

// New starts the relay of node cfg.Node on nc, for the rooms of m, and
// makes it m's Router; metrics count what it does.
func New(nc *nats.Conn, m *room.Manager, cfg Config, metrics *Metrics) (*Relay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Relay{cfg: cfg, m: m, nc: nc, js: js, metrics: metrics, log: log,
		boot:    strconv.FormatInt(time.Now().UnixNano(), 36),
		toOwner: metrics.Frames.WithLabelValues("to_owner"), toEntry: metrics.Frames.WithLabelValues("to_entry"),
		links: map[string]*link{}, byPeer: map[*room.Peer]*link{}, remotes: map[string]map[string]*remote{}, seen: map[string]time.Time{}, boots: map[string]string{}, notes: map[string]*note{}}
	for subj, h := range map[string]nats.MsgHandler{inSubject(cfg.Node): r.in, outSubject(cfg.Node): r.out, aliveSubject("*"): r.alive} {
		s, err := nc.Subscribe(subj, h)
		if err != nil {
			r.unsubscribe()
			return nil, fmt.Errorf("relay: subscribe to %s: %w", subj, err)
		}
		// A node that falls behind its messages keeps them in memory, up
		// to a bound far above what its connections' rate limits let
		// through; beyond it NATS drops them, and the relay counts and
		// logs it (slow_consumer).
		s.SetPendingLimits(pendingMsgs, pendingBytes)
		r.subs = append(r.subs, s)
	}
	if err := nc.Flush(); err != nil {
		r.unsubscribe()
		return nil, fmt.Errorf("relay: %w", err)
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.wg.Add(1)
	go r.beat(r.ctx)
	m.SetRouter(r)
	return r, nil
}

// Dial connects to the NATS server at url and starts there the relay of
// node cfg.Node for the rooms of m (New); the relay closes the connection
// when it is closed. A lost connection closes the connections it routes
// (Disconnected), and NATS is reconnected to for as long as it takes.
func Dial(url string, m *room.Manager, cfg Config, metrics *Metrics) (*Relay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var started atomic.Pointer[Relay]
	nc, err := nats.Connect(url, nats.Name("dobble relay "+cfg.Node), nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if r := started.Load(); r != nil {
				r.Disconnected(err)
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) {
			if r := started.Load(); r != nil {
				r.Reconnected()
			}
		}),
		nats.ErrorHandler(func(_ *nats.Conn, s *nats.Subscription, err error) {
			r := started.Load()
			switch {
			case r == nil:
			case errors.Is(err, nats.ErrSlowConsumer):
				r.fail(errSlow, "relay: NATS dropped messages this node did not take in time", "subject", s.Subject, "err", err)
			default:
				r.fail(errNATS, "relay: NATS reported an error", "err", err)
			}
		}))
	if err != nil {
		// The URL may hold credentials: the node, which connected to
		// it first, has named it without them (cluster.Redact).
		return nil, fmt.Errorf("relay: cannot connect to NATS: %w", err)
	}
	r, err := New(nc, m, cfg, metrics)
	if err != nil {
		nc.Close()
		return nil, err
	}
	r.owned = true
	started.Store(r)
	return r, nil
}

// unsubscribe ends the relay's subscriptions.
func (r *Relay) unsubscribe() {
	for _, s := range r.subs {
		s.Unsubscribe()
	}
	r.subs = nil
}

// Close stops the heartbeat and the subscriptions, and the NATS
// connection that Dial made; the Manager is closed first, so that its
// remote Peers' close frames have gone out.
func (r *Relay) Close() {
	r.cancel()
	r.wg.Wait()
	r.nc.Flush()
	r.unsubscribe()
	if r.owned {
		r.nc.Close()
	}
}

// Health returns what keeps the relay from working, or nil: the NATS
// connection down.
func (r *Relay) Health() error {
	if r.nc.IsConnected() {
		return nil
	}
	r.mu.Lock()
	down := r.down
	r.mu.Unlock()
	if down.IsZero() {
		return fmt.Errorf("the NATS connection is %v", r.nc.Status())
	}
	return fmt.Errorf("the NATS connection is %v since %s: players cannot reach the rooms of other nodes", r.nc.Status(), down.UTC().Format(time.RFC3339))
}

// Disconnected tells the relay that its NATS connection is lost: the
// connections it routes are closed with 1012, to reconnect to a node that
// reaches the room. It is nats.Options.DisconnectedErrCB's work.
func (r *Relay) Disconnected(err error) {
	if r.ctx.Err() != nil {
		// The relay closed its connection itself.
		return
	}
	r.mu.Lock()
	if r.down.IsZero() {
		r.down = time.Now()
	}
	links := make([]*link, 0, len(r.links))
	for _, l := range r.links {
		links = append(links, l)
	}
	r.mu.Unlock()
	r.fail(errDisconnected, "relay: lost the NATS connection; closing the connections routed to other nodes", "err", err, "routed", len(links))
	for _, l := range links {
		r.detach(l, false)
		l.p.Close(room.StatusRestart, "the server lost its way to the room's node; reconnect and resume your seat")
	}
}

// Reconnected tells the relay that its NATS connection is back.
func (r *Relay) Reconnected() {
	r.mu.Lock()
	r.down = time.Time{}
	r.mu.Unlock()
	r.log.Info("relay: the NATS connection is back", "node", r.cfg.Node)
}

// Route opens p's connection on the owner of room code, named by the
// directory, with frame (a join, watch or resume: typ) as its first frame.
func (r *Relay) Route(p *room.Peer, typ protocol.Type, code string, frame []byte) *protocol.Error {
	code = strings.ToUpper(strings.TrimSpace(code))
	noRoom := protocol.Errorf(protocol.CodeNoRoom, "no open room has the code %q", code)
	if !validCode(code) {
		return noRoom
	}
	owner, err := r.owner(code)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return noRoom
	case err != nil:
		r.fail(errLookup, "relay: cannot read the room directory", "room", code, "err", err)
		if typ == protocol.TypeResume {
			// The browser comes back, maybe to a node that can read it.
			p.Close(room.StatusRestart, "this server cannot tell where room "+code+" is; reconnect and resume your seat")
			return nil
		}
		return protocol.Errorf(protocol.CodeBusy, "the servers cannot tell where room %s is (%v); try again", code, err)
	case owner == r.cfg.Node:
		// The directory names this node for a room it does not hold: a
		// room it is taking over and has not restored yet, or one it
		// has just closed, whose key goes next. A seat's owner comes
		// back to resume; others are told to try again.
		if typ == protocol.TypeResume {
			p.Close(room.StatusRestart, "room "+code+" is not ready on this server yet; reconnect and resume your seat")
			return nil
		}
		return protocol.Errorf(protocol.CodeBusy, "room %s is not ready on this server yet; try again in a moment", code)
	}
	l := &link{id: r.boot + "." + strconv.FormatUint(r.next.Add(1), 36), owner: owner, code: code, p: p}
	r.mu.Lock()
	r.links[l.id], r.byPeer[p] = l, l
	r.mu.Unlock()
	r.metrics.Routed.Inc()
	msg := r.message(inSubject(owner), kindOpen, l.id, owner, frame)
	msg.Header.Set(HeaderName, p.Name())
	msg.Header.Set(HeaderLang, p.Lang())
	msg.Header.Set(HeaderRTT, strconv.FormatInt(p.RTT().Microseconds(), 10))
	msg.Header.Set(HeaderBoot, r.boot)
	if a := p.Address(); a != "" {
		msg.Header.Set(HeaderAddr, a)
	}
	reply, err := r.nc.RequestMsg(msg, r.cfg.OpenTimeout)
	if err == nil && reply.Header.Get(HeaderRefused) != "" {
		r.drop(l)
		r.fail(errRefused, "relay: the room's node refused a connection", "owner", owner, "room", code, "reason", reply.Header.Get(HeaderRefused))
		return protocol.Errorf(protocol.CodeFull, "the server of room %s has its most connections open (%s); try again later", code, reply.Header.Get(HeaderRefused))
	}
	if err != nil {
		r.drop(l)
		why := errPublish
		switch {
		case errors.Is(err, nats.ErrNoResponders):
			why = errNoResponders
		case errors.Is(err, nats.ErrTimeout):
			why = errOpenTimeout
		}
		r.fail(why, "relay: the room's node does not answer", "owner", owner, "room", code, "err", err)
		// The room is on its way to another node, or will be: the
		// browser reconnects and resumes.
		p.Close(room.StatusRestart, "the server of room "+code+" does not answer; reconnect and resume your seat")
		return nil
	}
	r.mu.Lock()
	r.seen[owner] = time.Now()
	l.ownerBoot = reply.Header.Get(HeaderBoot)
	r.mu.Unlock()
	r.toOwner.Inc()
	return nil
}

// noteEvery is how often a kind of failure is logged at most: one line,
// with the number of the same failures since the last.
const noteEvery = 10 * time.Second

// fail counts a failure of kind why and logs it, msg with args, unless
// one of its kind was logged within noteEvery.
func (r *Relay) fail(why, msg string, args ...any) {
	r.metrics.Errors.WithLabelValues(why).Inc()
	now := time.Now()
	r.notesMu.Lock()
	k := r.notes[why]
	if k == nil {
		k = &note{}
		r.notes[why] = k
	}
	if !k.last.IsZero() && now.Sub(k.last) < noteEvery {
		k.skipped++
		r.notesMu.Unlock()
		return
	}
	skipped := k.skipped
	k.last, k.skipped = now, 0
	r.notesMu.Unlock()
	args = append([]any{"node", r.cfg.Node, "reason", why}, args...)
	if skipped > 0 {
		args = append(args, "more_since_last_line", skipped)
	}
	r.log.Warn(msg, args...)
}

// note is the state of the log of one kind of failure.
type note struct {
	last    time.Time
	skipped int
}

// drop forgets a link whose open failed.
func (r *Relay) drop(l *link) {
	r.mu.Lock()
	delete(r.links, l.id)
	delete(r.byPeer, l.p)
	r.mu.Unlock()
	r.metrics.Routed.Dec()
}

// message returns a message of kind for connection id to subject, from
// or to owner, holding data.
func (r *Relay) message(subject, kind, id, owner string, data []byte) *nats.Msg {
	msg := nats.NewMsg(subject)
	msg.Header.Set(HeaderKind, kind)
	msg.Header.Set(HeaderEntry, r.cfg.Node)
	msg.Header.Set(HeaderOwner, owner)
	msg.Header.Set(HeaderConn, id)
	msg.Data = data
	return msg
}

// Relay sends a frame of p's connection to its room's owner, and returns
// true, or returns false when the connection is no longer routed.
func (r *Relay) Relay(p *room.Peer, frame []byte) bool {
	r.mu.Lock()
	l := r.byPeer[p]
	r.mu.Unlock()
	if l == nil {
		return false
	}
	msg := r.message(inSubject(l.owner), kindFrame, l.id, l.owner, frame)
	msg.Header.Set(HeaderRTT, strconv.FormatInt(p.RTT().Microseconds(), 10))
	if err := r.nc.PublishMsg(msg); err != nil {
		r.fail(errPublish, "relay: cannot send a frame to the room's node", "owner", l.owner, "room", l.code, "err", err)
		p.Close(room.StatusRestart, "the server lost its way to the room's node; reconnect and resume your seat")
		return true
	}
	r.toOwner.Inc()
	return true
}

// Left tells the owner that p's connection has ended.
func (r *Relay) Left(p *room.Peer) {
	r.mu.Lock()
	l := r.byPeer[p]
	r.mu.Unlock()
	if l != nil {
		r.detach(l, true)
	}
}

// detach ends the routing of l's connection, once, and tells the owner
// when tell is set, which forgets its remote Peer then.
func (r *Relay) detach(l *link, tell bool) {
	r.mu.Lock()
	ours := r.links[l.id] == l
	if ours {
		delete(r.byPeer, l.p)
		delete(r.links, l.id)
	}
	r.mu.Unlock()
	if !ours {
		return
	}
	r.metrics.Routed.Dec()
	if !tell {
		return
	}
	if err := r.nc.PublishMsg(r.message(inSubject(l.owner), kindGone, l.id, l.owner, nil)); err != nil {
		// The owner takes the connection for gone when this node's
		// heartbeat stops; until then it holds it.
		r.fail(errPublish, "relay: cannot tell the room's node a connection has ended", "owner", l.owner, "room", l.code, "err", err)
	}
}

// closedPrefix begins the message closed (protocol.Closed), which a room
// sends a connection it lets go.
var closedPrefix = []byte(`{"type":"` + protocol.MsgClosed + `"`)

// out takes a message from an owner for a connection of this node.
func (r *Relay) out(msg *nats.Msg) {
	id, owner := msg.Header.Get(HeaderConn), msg.Header.Get(HeaderOwner)
	r.mu.Lock()
	l := r.links[id]
	r.mu.Unlock()
	if l == nil {
		if msg.Header.Get(HeaderKind) == kindFrame && ValidName(owner) {
			// The connection ended here and the owner missed it.
			r.fail(errUnknown, "relay: a frame for a connection that has ended here; telling its room's node", "owner", owner)
			r.nc.PublishMsg(r.message(inSubject(owner), kindGone, id, owner, nil))
		}
		return
	}
	switch msg.Header.Get(HeaderKind) {
	case kindFrame:
		if bytes.HasPrefix(msg.Data, closedPrefix) {
			// The room let the connection go (it left, the room
			// closed, its seat was resumed elsewhere); it stays open for
			// another room, which may be anywhere: its next frames are
			// answered here, and routed again by their own request.
			r.detach(l, true)
		}
		l.p.Send(msg.Data)
	case kindClose:
		code, err := strconv.Atoi(msg.Header.Get(HeaderStatus))
		if err != nil {
			code = room.StatusRestart
		}
		// The connection ends, and Left tells the owner, which forgets
		// its remote Peer then.
		l.p.Close(code, msg.Header.Get(HeaderReason))
	}
}

// in takes a message from an entry node for a remote Peer of this node.
func (r *Relay) in(msg *nats.Msg) {
	entry, id := msg.Header.Get(HeaderEntry), msg.Header.Get(HeaderConn)
	if !ValidName(entry) || id == "" {
		r.fail(errUnknown, "relay: a message without its entry node or connection", "subject", msg.Subject)
		return
	}
	switch msg.Header.Get(HeaderKind) {
	case kindOpen:
		r.open(msg, entry, id)
	case kindFrame:
		r.mu.Lock()
		rm := r.remotes[entry][id]
		r.mu.Unlock()
		if rm == nil {
			// This node no longer holds the connection (it restarted, or
			// took the entry node for dead): the entry closes it, and the
			// browser reconnects and resumes.
			r.fail(errUnknown, "relay: a frame for a connection this node no longer holds; closing it", "entry", entry)
			r.closeRemote(entry, id, room.StatusRestart, "the room's server lost this connection; reconnect and resume your seat")
			return
		}
		setRTT(rm.p, msg)
		r.hmu.Lock()
		r.m.Handle(rm.p, msg.Data, time.Now())
		r.hmu.Unlock()
	case kindGone:
		r.mu.Lock()
		rm := r.remotes[entry][id]
		if rm != nil {
			r.forget(rm)
		}
		r.mu.Unlock()
		if rm != nil {
			r.hmu.Lock()
			r.m.Gone(rm.p)
			r.hmu.Unlock()
		}
	}
}

// open makes a remote Peer for a connection of entry, unless this node
// holds its most, and hands it its first frame.
func (r *Relay) open(msg *nats.Msg, entry, id string) {
	answer := nats.NewMsg(msg.Reply)
	answer.Header.Set(HeaderBoot, r.boot)
	r.mu.Lock()
	r.seen[entry] = time.Now()
	if r.remotes[entry][id] != nil {
		r.mu.Unlock()
		return
	}
	if r.nremote >= r.cfg.MaxRemote {
		r.mu.Unlock()
		r.fail(errRefused, "relay: refused a connection from another node (--max-remote-peers)", "entry", entry, "max", r.cfg.MaxRemote)
		answer.Header.Set(HeaderRefused, "--max-remote-peers "+strconv.Itoa(r.cfg.MaxRemote))
		msg.RespondMsg(answer)
		return
	}
	rm := &remote{entry: entry, id: id, entryBoot: msg.Header.Get(HeaderBoot), p: r.m.NewRemotePeer(msg.Header.Get(HeaderName), msg.Header.Get(HeaderLang), msg.Header.Get(HeaderAddr))}
	if r.remotes[entry] == nil {
		r.remotes[entry] = map[string]*remote{}
	}
	r.remotes[entry][id] = rm
	r.nremote++
	r.mu.Unlock()
	r.metrics.RemotePeers.Inc()
	rm.p.SetWriter(func() { go r.write(rm) })
	if err := msg.RespondMsg(answer); err != nil {
		r.fail(errPublish, "relay: cannot answer an open", "entry", entry, "err", err)
	}
	setRTT(rm.p, msg)
	r.hmu.Lock()
	r.m.Handle(rm.p, msg.Data, time.Now())
	r.hmu.Unlock()
}

// setRTT gives the remote Peer p the round trip its entry node sent with
// msg, if any.
func setRTT(p *room.Peer, msg *nats.Msg) {
	if us, err := strconv.ParseInt(msg.Header.Get(HeaderRTT), 10, 64); err == nil && us >= 0 && us <= int64(time.Minute/time.Microsecond) {
		p.SetRTT(time.Duration(us) * time.Microsecond)
	}
}

// forget drops a remote Peer from the relay's tables; r.mu is held.
func (r *Relay) forget(rm *remote) {
	peers := r.remotes[rm.entry]
	delete(peers, rm.id)
	if len(peers) == 0 {
		delete(r.remotes, rm.entry)
	}
	r.nremote--
	r.metrics.RemotePeers.Dec()
}

// write is the writer of a remote Peer: it publishes its frames to the
// entry node, and its close once it is closed.
func (r *Relay) write(rm *remote) {
	msg := r.message(outSubject(rm.entry), kindFrame, rm.id, r.cfg.Node, nil)
	msg.Header.Set(HeaderEntry, rm.entry)
	var held [8][]byte
	batch := held[:0]
	for {
		var last bool
		batch, last = rm.p.Take(batch)
		if last {
			code, reason := rm.p.CloseStatus()
			r.closeRemote(rm.entry, rm.id, code, reason)
			r.closed(rm)
			return
		}
		if len(batch) == 0 {
			return
		}
		for _, b := range batch {
			msg.Data = b
			if err := r.nc.PublishMsg(msg); err != nil {
				r.fail(errPublish, "relay: cannot send a frame to a connection's node", "entry", rm.entry, "err", err)
				rm.p.Close(room.StatusRestart, "the room's server lost its way to this connection; reconnect and resume your seat")
				break
			}
			r.toEntry.Inc()
		}
	}
}

// closed forgets a remote Peer once its close has gone to its entry node,
// as a connection of this node's own is forgotten once its close frame is
// written: its room sees it leave, and a server shutting down does not
// wait for the entry node to answer. The entry node's gone, when it
// comes, finds nothing left to do.
func (r *Relay) closed(rm *remote) {
	r.mu.Lock()
	ours := r.remotes[rm.entry][rm.id] == rm
	if ours {
		r.forget(rm)
	}
	r.mu.Unlock()
	if ours {
		r.hmu.Lock()
		r.m.Gone(rm.p)
		r.hmu.Unlock()
	}
}

// closeRemote tells entry to close its connection id with a WebSocket
// status and reason.
func (r *Relay) closeRemote(entry, id string, code int, reason string) {
	msg := r.message(outSubject(entry), kindClose, id, r.cfg.Node, nil)
	msg.Header.Set(HeaderEntry, entry)
	msg.Header.Set(HeaderStatus, strconv.Itoa(code))
	msg.Header.Set(HeaderReason, reason)
	if err := r.nc.PublishMsg(msg); err != nil {
		r.fail(errPublish, "relay: cannot close a connection of another node", "entry", entry, "err", err)
	}
}

// alive takes a node's heartbeat, which holds the node's run (its
// boot). A node heard from in another run than before was restarted
// under its name, and quicker than Timeout: the connections routed to
// its earlier run are closed with 1012, to resume wherever their rooms
// are now, and the remote Peers of its earlier run are gone, their seats
// held, as a dead node's are.
func (r *Relay) alive(msg *nats.Msg) {
	node := strings.ReplaceAll(strings.TrimPrefix(msg.Subject, "dobble.alive."), "%2E", ".")
	boot := string(msg.Data)
	var lost []*link
	var gone []*remote
	r.mu.Lock()
	r.seen[node] = time.Now()
	if boot != "" && r.boots[node] != boot {
		r.boots[node] = boot
		for _, l := range r.links {
			if l.owner == node && l.ownerBoot != "" && l.ownerBoot != boot {
				lost = append(lost, l)
			}
		}
		for _, rm := range r.remotes[node] {
			if rm.entryBoot != "" && rm.entryBoot != boot {
				gone = append(gone, rm)
			}
		}
		for _, rm := range gone {
			r.forget(rm)
		}
	}
	r.mu.Unlock()
	if len(gone) > 0 {
		r.fail(errEntryLost, "relay: an entry node restarted; its earlier run's connections are gone, their seats held",
			"entry", node, "connections", len(gone))
		r.hmu.Lock()
		for _, rm := range gone {
			r.m.Gone(rm.p)
		}
		r.hmu.Unlock()
	}
	if len(lost) > 0 {
		r.fail(errOwnerLost, "relay: a room's node restarted; the players routed to its earlier run reconnect",
			"owner", node, "connections", len(lost))
		for _, l := range lost {
			r.detach(l, false)
			l.p.Close(room.StatusRestart, "the server of room "+l.code+" restarted; reconnect and resume your seat")
		}
	}
}

// owner returns the node the directory names for room code.
func (r *Relay) owner(code string) (string, error) {
	kv, err := r.bucket()
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		// No node has opened a room yet.
		return "", jetstream.ErrKeyNotFound
	}
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.OpenTimeout)
	defer cancel()
	e, err := kv.Get(ctx, code)
	if err != nil {
		return "", err
	}
	var v Entry
	if err := json.Unmarshal(e.Value(), &v); err != nil || !ValidName(v.Node) {
		return "", fmt.Errorf("the directory's entry for room %s is not {\"node\": NAME, ...}: %.100q", code, e.Value())
	}
	return v.Node, nil
}

// bucket returns the directory, and starts watching it for the rooms
// another node takes over, once it exists.
func (r *Relay) bucket() (jetstream.KeyValue, error) {
	r.kvMu.Lock()
	defer r.kvMu.Unlock()
	if r.kv != nil {
		return r.kv, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.OpenTimeout)
	defer cancel()
	kv, err := r.js.KeyValue(ctx, r.cfg.Bucket)
	if err != nil {
		return nil, err
	}
	w, err := kv.WatchAll(context.Background(), jetstream.UpdatesOnly(), jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	r.kv = kv
	r.wg.Add(1)
	go r.watch(w)
	return kv, nil
}

// watch closes, with 1012, the connections routed to a room that another
// node has taken over from their owner, so that they resume there.
func (r *Relay) watch(w jetstream.KeyWatcher) {
	defer r.wg.Done()
	defer w.Stop()
	for {
		var e jetstream.KeyValueEntry
		var ok bool
		select {
		case e, ok = <-w.Updates():
		case <-r.ctx.Done():
			return
		}
		if !ok {
			return
		}
		if e == nil {
			continue
		}
		var v Entry
		if json.Unmarshal(e.Value(), &v) != nil {
			continue
		}
		var moved []*link
		r.mu.Lock()
		for _, l := range r.links {
			if l.code == e.Key() && l.owner != v.Node {
				moved = append(moved, l)
			}
		}
		r.mu.Unlock()
		for _, l := range moved {
			r.fail(errOwnerChanged, "relay: another node took a room over; its routed players reconnect", "room", l.code, "from", l.owner, "to", v.Node)
			r.detach(l, true)
			l.p.Close(room.StatusRestart, "room "+l.code+" moved to another server; reconnect and resume your seat")
		}
	}
}

// beat publishes the node's heartbeat every Heartbeat, and takes the
// nodes silent for Timeout for dead: the remote Peers of a dead entry node
// are gone, and the connections routed to a dead owner are closed with
// 1012.
func (r *Relay) beat(ctx context.Context) {
	defer r.wg.Done()
	t := time.NewTicker(r.cfg.Heartbeat)
	defer t.Stop()
	for {
		r.nc.Publish(aliveSubject(r.cfg.Node), []byte(r.boot))
		r.sweep(time.Now())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweep finds the nodes silent since before now - Timeout.
func (r *Relay) sweep(now time.Time) {
	if !r.nc.IsConnected() {
		// The silence is this node's: the others are judged once it
		// hears them again.
		return
	}
	dead := func(node string) bool { return now.Sub(r.seen[node]) > r.cfg.Timeout }
	gone := map[string][]*remote{}
	lost := map[string][]*link{}
	r.mu.Lock()
	for entry, peers := range r.remotes {
		if dead(entry) {
			for _, rm := range peers {
				gone[entry] = append(gone[entry], rm)
			}
		}
	}
	for _, peers := range gone {
		for _, rm := range peers {
			r.forget(rm)
		}
	}
	for _, l := range r.links {
		if dead(l.owner) {
			lost[l.owner] = append(lost[l.owner], l)
		}
	}
	r.mu.Unlock()
	for entry, peers := range gone {
		r.fail(errEntryLost, "relay: an entry node is silent; its connections are gone, their seats held",
			"entry", entry, "connections", len(peers), "silent_for", r.cfg.Timeout)
		r.hmu.Lock()
		for _, rm := range peers {
			r.m.Gone(rm.p)
		}
		r.hmu.Unlock()
	}
	for owner, links := range lost {
		r.fail(errOwnerLost, "relay: a room's node is silent; its routed players reconnect",
			"owner", owner, "connections", len(links), "silent_for", r.cfg.Timeout)
		for _, l := range links {
			r.detach(l, false)
			l.p.Close(room.StatusRestart, "the server of room "+l.code+" is silent; reconnect and resume your seat")
		}
	}
}
