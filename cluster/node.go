package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/internal/metrics"
	"github.com/dobble-dev/dobble/room"
)

// The names the cluster keeps its state under in JetStream.
const (
	// StreamName is the stream of the rooms' journals.
	StreamName = "DOBBLE_JOURNAL"
	// SubjectPrefix begins the subject of each room's journal.
	SubjectPrefix = "dobble.journal."
	// Bucket is the key-value bucket of the directory of rooms.
	Bucket = "dobble_rooms"
	// NodeBucket is the key-value bucket of the nodes alive: a key per
	// node, its name, which the node renews every Renew.
	NodeBucket = "dobble_nodes"
	// ReleasedSubject is the subject a node that closes announces the
	// rooms it gives up on, for the other nodes to take them over at once
	// rather than when the node's key lapses.
	ReleasedSubject = "dobble.cluster.released"
)

// duplicateWindow is how long the stream remembers the id of a message,
// to keep once a message sent again: NATS away, a message is sent again
// within a lease of its first try (after that the node has given its room
// up), and a short window keeps the server's memory of ids small. A
// message sent again after the window, having been written the first
// time, is refused by its expected sequence: the node gives the room up
// and another takes it over, with nothing lost.
const duplicateWindow = 20 * time.Second

// Options are what a node runs with.
type Options struct {
	// URL is the NATS server's, such as nats://127.0.0.1:4222.
	URL string
	// Node names the node in the directory; it must be unique in the
	// cluster (DefaultName draws one).
	Node string
	// Manager runs the node's rooms; Start makes it journal them in the
	// cluster's stream and claim their codes in its directory.
	Manager *room.Manager
	// Log is where the node logs; nil is slog.Default().
	Log *slog.Logger
	// Registerer, when not nil, registers the node's metrics.
	Registerer *metrics.Registry
	// Lease is how long a node's key lasts unrenewed before the other
	// nodes take its rooms over, Renew how often the node renews it; 0
	// means 3 s and 1 s.
	Lease, Renew time.Duration
	// Timeout bounds each request to NATS; 0 means 2 s.
	Timeout time.Duration
}

// DefaultName returns a node name: the host's name and a random suffix.
func DefaultName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "node"
	}
	var b [3]byte
	rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}

// CheckName checks a node name: a short name of letters, digits, dots,
// dashes and underscores.
func CheckName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("node name %q: use 1 to 64 letters, digits, dots, dashes or underscores", name)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return fmt.Errorf("node name %q: %q is not allowed; use letters, digits, dots, dashes or underscores", name, c)
		}
	}
	return nil
}

// Node is one node of the cluster: its connection to NATS, the journal of
// its rooms in the stream, its key among the nodes alive, and its rooms'
// keys in the directory.
type Node struct {
	o       Options
	where   string // o.URL without its credentials (Redact)
	m       *room.Manager
	log     *slog.Logger
	metrics *Metrics
	nc      *nats.Conn
	js      jetstream.JetStream
	stream  jetstream.Stream
	kv      jetstream.KeyValue // the directory of rooms (Bucket)
	nkv     jetstream.KeyValue // the nodes alive (NodeBucket)
	started time.Time
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	// The journal (journal.go).
	jmu     sync.Mutex
	logs    map[string]*roomLog
	pending int           // appends and drops not done
	idle    chan struct{} // closed while pending is 0
	jclosed bool

	// The directory (leases.go).
	mu       sync.Mutex
	boot     string               // the boot id of the node's run
	nodeRev  uint64               // the revision of the node's key it wrote last
	renewed  time.Time            // when the node sent the last renewal of its key that succeeded
	lapsed   bool                 // the node gave its rooms up, its key not renewed since
	leases   map[string]*lease    // the rooms this node holds, by code
	seen     map[string]*seen     // the directory as the watch last saw it, by code
	nodes    map[string]*seenNode // the nodes' keys as their watch last saw them, by name
	taking   map[string]bool      // the codes this node is taking over
	takers   chan struct{}        // a token for each takeover under way
	rewatch  chan struct{}        // NATS is back: watch the directory afresh
	renodes  chan struct{}        // NATS is back: watch the nodes afresh
	downAt   time.Time            // when the connection to NATS was lost; zero while connected
	pubErr   error                // the last failed write to the journal, until one succeeds
	pubErrAt time.Time
}

// Start connects to NATS, makes the stream and the bucket if they are
// missing, has o.Manager journal its rooms in the stream and claim their
// codes in the directory, and starts renewing the node's key and
// watching the nodes and the directory for rooms to take over. It is called before any
// room opens. Close stops it.
func Start(ctx context.Context, o Options) (*Node, error) {
	if err := CheckName(o.Node); err != nil {
		return nil, err
	}
	if o.Lease <= 0 {
		o.Lease = 3 * time.Second
	}
	if o.Renew <= 0 {
		o.Renew = time.Second
	}
	if o.Renew >= o.Lease/2 {
		return nil, fmt.Errorf("cluster: renewing the node's key every %v does not keep a lease of %v: renew at most every third of a lease", o.Renew, o.Lease)
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	n := &Node{o: o, where: Redact(o.URL), m: o.Manager, log: o.Log.With("node", o.Node), metrics: newMetrics(o.Registerer),
		logs: map[string]*roomLog{}, idle: make(chan struct{}),
		started: time.Now(), boot: newBoot(), leases: map[string]*lease{}, seen: map[string]*seen{}, nodes: map[string]*seenNode{},
		taking: map[string]bool{}, takers: make(chan struct{}, takeoverWorkers), rewatch: make(chan struct{}, 1), renodes: make(chan struct{}, 1)}
	close(n.idle)
	nc, err := nats.Connect(o.URL, nats.Name("dobble "+o.Node), nats.Timeout(o.Timeout),
		nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond), nats.ReconnectJitter(100*time.Millisecond, 0),
		// Nothing is kept to send once NATS is back: a renewal of a key
		// the node has meanwhile given up must not reach NATS late; the
		// journal's writes are sent again by the node itself.
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(n.disconnected), nats.ReconnectHandler(n.reconnected))
	if err != nil {
		return nil, fmt.Errorf("cluster: cannot connect to NATS at %s: %w", n.where, err)
	}
	n.nc = nc
	n.metrics.Connected.Set(1)
	fail := func(err error) (*Node, error) {
		nc.Close()
		return nil, err
	}
	if n.js, err = jetstream.New(nc, jetstream.WithPublishAsyncTimeout(o.Timeout)); err != nil {
		return fail(fmt.Errorf("cluster: %w", err))
	}
	setup, cancel := context.WithTimeout(ctx, 2*o.Timeout)
	defer cancel()
	n.stream, err = n.js.CreateOrUpdateStream(setup, jetstream.StreamConfig{Name: StreamName, Subjects: []string{SubjectPrefix + ">"},
		Description: "The journals of the dobble rooms in play, a subject a room.", Storage: jetstream.FileStorage,
		Duplicates: duplicateWindow})
	if err != nil {
		return fail(fmt.Errorf("cluster: NATS at %s: the stream %s: %w (is JetStream enabled, nats-server -js?)", n.where, StreamName, err))
	}
	n.kv, err = n.js.CreateOrUpdateKeyValue(setup, jetstream.KeyValueConfig{Bucket: Bucket, History: 1, Storage: jetstream.FileStorage,
		Description: "The dobble rooms open in the cluster: code -> {node, journal, boot}."})
	if err != nil {
		return fail(fmt.Errorf("cluster: NATS at %s: the bucket %s: %w", n.where, Bucket, err))
	}
	n.nkv, err = n.js.CreateOrUpdateKeyValue(setup, jetstream.KeyValueConfig{Bucket: NodeBucket, History: 1, Storage: jetstream.FileStorage,
		Description: "The dobble nodes alive: name -> {boot, started}, renewed every second."})
	if err != nil {
		return fail(fmt.Errorf("cluster: NATS at %s: the bucket %s: %w", n.where, NodeBucket, err))
	}
	// The node's key names its run: the rooms of a run of the node that
	// is over are taken over, not taken for alive.
	sent := time.Now()
	if n.nodeRev, err = n.nkv.Put(setup, o.Node, n.alive(n.boot)); err != nil {
		return fail(fmt.Errorf("cluster: NATS at %s: writing the node's key in %s: %w", n.where, NodeBucket, err))
	}
	n.renewed = sent
	n.ctx, n.cancel = context.WithCancel(context.Background())
	nodeWatcher, err := n.nkv.WatchAll(n.ctx)
	if err != nil {
		n.cancel()
		return fail(fmt.Errorf("cluster: NATS at %s: watching the bucket %s: %w", n.where, NodeBucket, err))
	}
	watcher, err := n.kv.WatchAll(n.ctx)
	if err != nil {
		n.cancel()
		return fail(fmt.Errorf("cluster: NATS at %s: watching the bucket %s: %w", n.where, Bucket, err))
	}
	if _, err := nc.Subscribe(ReleasedSubject, n.released); err != nil {
		n.cancel()
		return fail(fmt.Errorf("cluster: NATS at %s: subscribing to %s: %w", n.where, ReleasedSubject, err))
	}
	n.m.UseJournal(n)
	n.m.UseDirectory(n)
	n.wg.Add(4)
	go n.watch(n.nkv, nodeWatcher, n.renodes, n.applyNode)
	go n.watch(n.kv, watcher, n.rewatch, n.applyRoom)
	go n.renew()
	go n.check()
	n.log.Info("cluster: node started", "nats", n.where, "lease", o.Lease, "renew", o.Renew)
	return n, nil
}

// Name returns the node's name.
func (n *Node) Name() string { return n.o.Node }

// Close stops the node: it stops renewing its key, fails the journal's
// writes still waiting, tells the other nodes that it gives its rooms up
// (ReleasedSubject) and deletes its key, for them to take its rooms over
// at once, and closes the connection to NATS. The Manager is closed first: its rooms have
// stopped, their last entries written.
func (n *Node) Close() error {
	n.cancel()
	n.wg.Wait()
	n.closeJournal()
	n.mu.Lock()
	gone := make([]released, 0, len(n.leases))
	for code, l := range n.leases {
		gone = append(gone, released{Room: code, Revision: l.rev})
	}
	n.leases = map[string]*lease{}
	rev := n.nodeRev
	n.mu.Unlock()
	if n.nc.IsConnected() {
		if len(gone) > 0 {
			b, _ := json.Marshal(gone)
			n.nc.Publish(ReleasedSubject, b)
			n.nc.FlushTimeout(n.o.Timeout)
			n.log.Info("cluster: the node's rooms are given up for the other nodes to take over", "rooms", len(gone))
		}
		ctx, cancel := context.WithTimeout(context.Background(), n.o.Timeout)
		if err := n.nkv.Delete(ctx, n.o.Node, jetstream.LastRevision(rev)); err != nil {
			n.log.Warn("cluster: the node's key could not be deleted; it lapses", "err", err)
		}
		cancel()
	}
	n.metrics.Leases.Set(0)
	n.nc.Close()
	n.metrics.Connected.Set(0)
	return nil
}

// released is a room a closing node gives up: the room's code and the
// revision of its key that the node wrote.
type released struct {
	Room     string `json:"room"`
	Revision uint64 `json:"revision"`
}

// released takes note of the rooms another node gave up as it closed:
// those whose keys are still at the revision it names are taken over
// now.
func (n *Node) released(msg *nats.Msg) {
	var gone []released
	if err := json.Unmarshal(msg.Data, &gone); err != nil {
		n.log.Error("cluster: a message on "+ReleasedSubject+" is not a list of rooms; it is ignored", "err", err)
		return
	}
	n.mu.Lock()
	for _, g := range gone {
		if s := n.seen[g.Room]; s != nil && s.rev == g.Revision {
			s.at = time.Time{}
		}
	}
	n.mu.Unlock()
}

// disconnected takes note of the connection to NATS lost.
func (n *Node) disconnected(nc *nats.Conn, err error) {
	if nc.IsClosed() {
		return // Close
	}
	n.mu.Lock()
	if n.downAt.IsZero() {
		n.downAt = time.Now()
	}
	n.mu.Unlock()
	n.metrics.Connected.Set(0)
	n.log.Warn("cluster: the connection to NATS is lost; the rooms wait for it, and stop here if the node's key lapses", "err", err)
}

// reconnected takes note of the connection to NATS back.
func (n *Node) reconnected(nc *nats.Conn) {
	n.mu.Lock()
	since := n.downAt
	n.downAt = time.Time{}
	n.mu.Unlock()
	n.metrics.Connected.Set(1)
	for _, c := range []chan struct{}{n.rewatch, n.renodes} {
		select {
		case c <- struct{}{}:
		default:
		}
	}
	n.log.Info("cluster: the connection to NATS is back", "url", Redact(nc.ConnectedUrl()), "down_for", time.Since(since))
}

// Health says how the node is: its name, whether it is connected to
// NATS, the rooms it holds; the error is not nil while it cannot serve
// its rooms safely (cut off from NATS, its key not renewed, or its
// journal's writes failing).
func (n *Node) Health() (map[string]any, error) {
	n.mu.Lock()
	leases, down, pubErr, pubAt := len(n.leases), n.downAt, n.pubErr, n.pubErrAt
	renewed, lapsed := n.renewed, n.lapsed || time.Since(n.renewed) > n.keep()
	n.mu.Unlock()
	info := map[string]any{"node": n.o.Node, "nats": n.where, "connected": n.nc.IsConnected(), "leases": leases}
	switch {
	case !n.nc.IsConnected():
		if down.IsZero() {
			down = time.Now()
		}
		info["since"] = down.UTC().Format(time.RFC3339)
		return info, fmt.Errorf("node %s is cut off from NATS at %s since %s: its rooms wait, and move to another node once its key lapses",
			n.o.Node, n.where, down.UTC().Format(time.RFC3339))
	case lapsed:
		info["since"] = renewed.UTC().Format(time.RFC3339)
		return info, fmt.Errorf("node %s has not renewed its key in %s since %s: it has given its rooms up to the other nodes", n.o.Node, NodeBucket,
			renewed.UTC().Format(time.RFC3339))
	case pubErr != nil:
		info["since"] = pubAt.UTC().Format(time.RFC3339)
		return info, fmt.Errorf("node %s cannot write the rooms' journal since %s: %v; the rooms wait", n.o.Node, pubAt.UTC().Format(time.RFC3339), pubErr)
	}
	return info, nil
}

// Redact returns the NATS URL u, or each of its comma-separated server
// URLs, without the credentials it holds (a user and password, or a
// token), which become xxxxx: what the node shows and logs of its NATS
// server.
func Redact(u string) string {
	servers := strings.Split(u, ",")
	for i, s := range servers {
		p, err := url.Parse(strings.TrimSpace(s))
		if err != nil {
			return "the NATS URL given (it cannot be parsed)"
		}
		if p.User != nil {
			p.User = url.User("xxxxx")
		}
		servers[i] = p.String()
	}
	return strings.Join(servers, ",")
}

// escape makes s a token of a NATS subject: letters, digits, '-' and '_'
// stay, every other byte is written %XX.
func escape(s string) string {
	var b strings.Builder
	for i := range len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// subject returns the subject of the journal of room jid.
func subject(jid string) string { return SubjectPrefix + escape(jid) }

// conflict reports whether err is JetStream's refusal of a write that
// expected another last sequence: another node wrote first.
func conflict(err error) bool {
	var api *jetstream.APIError
	return errors.As(err, &api) && (api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
