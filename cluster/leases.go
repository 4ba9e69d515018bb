package cluster

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/room"
)

// Owner is the value of a room's key in the directory: the node that owns
// the room, the room's journal id (its subject in the stream is
// SubjectPrefix and the id escaped), and the boot id of the node's run
// that owns it. A key whose boot id is not the one its node's key holds
// is a room of a run of the node that is over (or one the node gave up):
// it is taken over.
type Owner struct {
	Node    string `json:"node"`
	Journal string `json:"journal"`
	Boot    string `json:"boot,omitempty"`
}

// Alive is the value of a node's key in the bucket NodeBucket: the boot
// id of its run, drawn when it starts (and again when it gives its rooms
// up), and when it started.
type Alive struct {
	Boot    string    `json:"boot"`
	Started time.Time `json:"started"`
}

// lease is a room this node holds: its journal id and the revision of
// its key that the node wrote.
type lease struct {
	jid string
	rev uint64
}

// seen is a room's key as the watch last received it.
type seen struct {
	owner Owner
	rev   uint64
	at    time.Time // when the watch received it; zero once given up (ReleasedSubject)
}

// seenNode is a node's key as the watch last received it.
type seenNode struct {
	boot string
	rev  uint64
	at   time.Time // when the watch received it
}

// takeoverWorkers is how many takeovers a node runs at once.
const takeoverWorkers = 16

// codeOf returns the code of the room of journal id jid.
func codeOf(jid string) string {
	code, _, _ := strings.Cut(jid, "/")
	return code
}

// newBoot draws a boot id.
func newBoot() string {
	var b [8]byte
	crand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// value returns the directory's value for this node's run boot owning
// room jid.
func (n *Node) value(jid, boot string) []byte {
	b, _ := json.Marshal(Owner{Node: n.o.Node, Journal: jid, Boot: boot})
	return b
}

// alive returns the value of the node's key for its run boot.
func (n *Node) alive(boot string) []byte {
	b, _ := json.Marshal(Alive{Boot: boot, Started: n.started})
	return b
}

// Claim creates the key of a new room, owned by this node
// (room.Directory); it fails with room.ErrCodeTaken when the key exists,
// and while the node's own key is not renewed.
func (n *Node) Claim(code, jid string) error {
	n.mu.Lock()
	boot, live := n.boot, !n.lapsed && time.Since(n.renewed) <= n.keep()
	n.mu.Unlock()
	if !live {
		return fmt.Errorf("cluster: claiming room %s: node %s cannot renew its key in the bucket %s", code, n.o.Node, NodeBucket)
	}
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Timeout)
	defer cancel()
	rev, err := n.kv.Create(ctx, code, n.value(jid, boot))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("%w: %s", room.ErrCodeTaken, code)
	}
	if err != nil {
		return fmt.Errorf("cluster: claiming room %s: %w", code, err)
	}
	n.mu.Lock()
	if n.boot != boot {
		// The node gave its rooms up meanwhile: the key, of a run over,
		// is taken over.
		n.mu.Unlock()
		return fmt.Errorf("cluster: claiming room %s: node %s gave its rooms up as it claimed it", code, n.o.Node)
	}
	n.leases[code] = &lease{jid: jid, rev: rev}
	n.metrics.Leases.Set(float64(len(n.leases)))
	n.mu.Unlock()
	return nil
}

// Release deletes the key of room code, if this node still holds it
// (room.Directory).
func (n *Node) Release(code, jid string) {
	n.mu.Lock()
	l := n.leases[code]
	if l == nil || l.jid != jid {
		n.mu.Unlock()
		return
	}
	delete(n.leases, code)
	n.metrics.Leases.Set(float64(len(n.leases)))
	rev := l.rev
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), n.o.Timeout)
	defer cancel()
	if err := n.kv.Delete(ctx, code, jetstream.LastRevision(rev)); err != nil {
		// The key stays: the next owner finds the journal dropped.
		n.log.Warn("cluster: the key of a room that ended could not be deleted; another node takes it over once this node is gone", "room", code, "err", err)
	}
}

// keep is how long the node acts for its rooms after it sent the last
// renewal of its key that succeeded: Lease less Lease/3.
func (n *Node) keep() time.Duration { return n.o.Lease - n.o.Lease/3 }

// lose gives up room code, kept for journal jid, while the node goes
// on: the node fails the room's writes and stops the room, whose people
// reconnect to the node that takes it over. Unless another node took
// the key ("taken"), the node writes it again without its boot id, for
// the other nodes to take the room over a lease later.
func (n *Node) lose(code, jid, reason string) {
	n.mu.Lock()
	l := n.leases[code]
	if l == nil || l.jid != jid {
		n.mu.Unlock()
		return
	}
	delete(n.leases, code)
	n.metrics.Leases.Set(float64(len(n.leases)))
	n.mu.Unlock()
	n.metrics.LeaseLosses.WithLabelValues(reason).Inc()
	n.log.Warn("cluster: a room is lost; the room stops here and its players reconnect", "room", code, "reason", reason)
	n.fence(jid, "its lease is lost ("+reason+")")
	n.m.Evict(code)
	if reason != "taken" {
		go func() {
			ctx, cancel := context.WithTimeout(n.ctx, n.o.Timeout)
			defer cancel()
			if _, err := n.kv.Update(ctx, code, n.value(jid, ""), l.rev); err != nil && n.ctx.Err() == nil && !conflict(err) {
				n.log.Warn("cluster: a room given up could not be marked so; it is taken over once this node is gone", "room", code, "err", err)
			}
		}()
	}
}

// giveUpAll gives up every room of the node, whose key was not renewed
// in time (reason "lapsed") or was written by another process under the
// node's name ("taken"), and draws a new boot id: the keys of the rooms
// given up name the run that is over, and the other nodes take them over
// as soon as the node's key shows the new run, or lapses.
func (n *Node) giveUpAll(reason string) {
	n.mu.Lock()
	lost := n.leases
	n.leases = map[string]*lease{}
	n.boot = newBoot()
	n.metrics.Leases.Set(0)
	renewed := n.renewed
	n.mu.Unlock()
	if len(lost) == 0 {
		return
	}
	n.metrics.LeaseLosses.WithLabelValues(reason).Add(float64(len(lost)))
	n.log.Warn("cluster: the node's key is not renewed; all its rooms stop here and their players reconnect", "rooms", len(lost), "reason", reason,
		"renewed_ago", time.Since(renewed))
	for code, l := range lost {
		n.fence(l.jid, "the node's lease is lost ("+reason+")")
		n.m.Evict(code)
	}
}

// renew renews the node's key every Renew.
func (n *Node) renew() {
	defer n.wg.Done()
	tick := time.NewTicker(n.o.Renew)
	defer tick.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-tick.C:
		}
		n.renewNode()
	}
}

// renewNode renews the node's key by an update that expects the revision
// the node wrote last.
func (n *Node) renewNode() {
	n.mu.Lock()
	boot, rev := n.boot, n.nodeRev
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Renew)
	defer cancel()
	sent := time.Now()
	next, err := n.nkv.Update(ctx, n.o.Node, n.alive(boot), rev)
	if err == nil {
		n.mu.Lock()
		n.nodeRev = next
		if n.boot == boot {
			n.renewed, n.lapsed = sent, false
		}
		n.mu.Unlock()
		n.metrics.NodeRenewals.Inc()
		return
	}
	if n.ctx.Err() != nil {
		return
	}
	n.metrics.NodeRenewFailures.Inc()
	if !conflict(err) {
		// NATS away or slow: check gives the rooms up if it lasts.
		return
	}
	// The key has a revision the node did not see acknowledged: a
	// renewal of its own whose answer was lost, or another process's.
	e, err := n.nkv.Get(ctx, n.o.Node)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		if next, err = n.nkv.Create(ctx, n.o.Node, n.alive(boot)); err == nil {
			n.mu.Lock()
			n.nodeRev = next
			n.mu.Unlock()
		}
		return
	}
	if err != nil {
		return
	}
	var a Alive
	json.Unmarshal(e.Value(), &a)
	n.mu.Lock()
	n.nodeRev = e.Revision()
	n.mu.Unlock()
	if a.Boot != boot && a.Boot != "" {
		n.log.Error("cluster: another process writes this node's key; node names must be unique in the cluster", "key", n.o.Node, "boot", a.Boot)
		n.giveUpAll("taken")
	}
}

// holds reports whether the node holds the lease of room code for
// journal jid.
func (n *Node) holds(code, jid string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.leases[code]
	return l != nil && l.jid == jid
}

// takeoverJitter bounds the random wait of a node before it tries to take
// a lapsed lease over.
const takeoverJitter = 300 * time.Millisecond

// checkEvery is how often the node looks whether its own key is lapsing
// and for rooms whose node is gone.
const checkEvery = 100 * time.Millisecond

// check gives up the node's rooms once its key has not been renewed for
// Lease less Lease/3, and takes over the rooms whose node is gone.
func (n *Node) check() {
	defer n.wg.Done()
	tick := time.NewTicker(checkEvery)
	defer tick.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		type item struct {
			code string
			s    seen
		}
		var lapsed []item
		n.mu.Lock()
		lapsing := !n.lapsed && now.Sub(n.renewed) > n.keep()
		if lapsing {
			n.lapsed = true
		}
		for code, s := range n.seen {
			if n.leases[code] == nil && !n.taking[code] && n.orphaned(s, now) {
				n.taking[code] = true
				lapsed = append(lapsed, item{code: code, s: *s})
			}
		}
		n.mu.Unlock()
		if lapsing {
			n.giveUpAll("lapsed")
		}
		for _, it := range lapsed {
			n.wg.Add(1)
			go n.takeOver(it.code, it.s)
		}
	}
}

// orphaned reports whether the room of key s, as the watch last received
// it, is to be taken over: its node gave it up as it closed, or its
// node's run is gone, its key not renewed for Lease (counted from when
// the watch received its last revision, so that the nodes' clocks need
// not agree), or the room's key names a run its node's key does not
// (a run over, or a room given up) and has not changed for Lease. A key
// of this node's run that it does not hold (a write whose answer was
// lost) is taken back once it has not changed for Lease. n.mu is held.
func (n *Node) orphaned(s *seen, now time.Time) bool {
	if s.at.IsZero() {
		return true
	}
	if s.owner.Node == n.o.Node && s.owner.Boot == n.boot {
		return now.Sub(s.at) > n.o.Lease
	}
	if ns := n.nodes[s.owner.Node]; ns != nil && s.owner.Boot != "" && ns.boot == s.owner.Boot {
		return now.Sub(ns.at) > n.o.Lease
	}
	return now.Sub(s.at) > n.o.Lease
}

// watch keeps what the watch of kv delivers, through apply, starting
// with w; it starts a new watch when NATS comes back (a watch may
// otherwise take long to notice that NATS restarted) or when one ends.
func (n *Node) watch(kv jetstream.KeyValue, w jetstream.KeyWatcher, rewatch chan struct{}, apply applier) {
	defer n.wg.Done()
	for {
		if w != nil {
			n.follow(w, rewatch, apply)
			w.Stop()
			w = nil
		}
		select {
		case <-n.ctx.Done():
			return
		default:
		}
		var err error
		if w, err = kv.WatchAll(n.ctx); err != nil {
			select {
			case <-n.ctx.Done():
				return
			case <-time.After(retryWait):
			}
		}
	}
}

// applier applies what a watch delivers: a key put (value and revision)
// or deleted (value nil), or, with keys nil, the end of the keys there
// were when the watch began, the keys it delivered then listed in
// initial. n.mu is held; it returns the rooms the node lost, by code
// and journal id.
type applier func(key string, value []byte, rev uint64, deleted bool, initial map[string]bool) map[string]string

// follow applies the keys w delivers, until the node closes, NATS comes
// back after a loss (rewatch), or w ends.
func (n *Node) follow(w jetstream.KeyWatcher, rewatch chan struct{}, apply applier) {
	initial := map[string]bool{}
	for {
		var lost map[string]string
		select {
		case <-n.ctx.Done():
			return
		case <-rewatch:
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			n.mu.Lock()
			switch {
			case e == nil:
				apply("", nil, 0, false, initial)
				initial = nil
			case e.Operation() == jetstream.KeyValuePut:
				if initial != nil {
					initial[e.Key()] = true
				}
				lost = apply(e.Key(), e.Value(), e.Revision(), false, nil)
			default:
				lost = apply(e.Key(), nil, e.Revision(), true, nil)
			}
			n.mu.Unlock()
		}
		for code, jid := range lost {
			n.lose(code, jid, "taken")
		}
	}
}

// applyRoom keeps n.seen, the directory as its watch delivers it (an
// applier). A room the node holds whose key names another node, or
// another run of this one, or is deleted, is lost.
func (n *Node) applyRoom(code string, value []byte, rev uint64, deleted bool, initial map[string]bool) map[string]string {
	if initial != nil {
		for code := range n.seen {
			if !initial[code] {
				delete(n.seen, code)
			}
		}
		return nil
	}
	s := n.seen[code]
	if deleted {
		if s != nil {
			n.forget(s.owner.Journal)
		}
		delete(n.seen, code)
		if l := n.leases[code]; l != nil {
			return map[string]string{code: l.jid}
		}
		return nil
	}
	n.see(code, value, rev)
	s = n.seen[code]
	if s == nil || (s.owner.Node == n.o.Node && s.owner.Boot == n.boot) {
		return nil
	}
	if s.owner.Node != n.o.Node {
		n.forget(s.owner.Journal)
	}
	if l := n.leases[code]; l != nil && rev != l.rev {
		return map[string]string{code: l.jid}
	}
	return nil
}

// applyNode keeps n.nodes, the nodes' keys as their watch delivers them
// (an applier); a revision seen before keeps the time it was first
// received.
func (n *Node) applyNode(name string, value []byte, rev uint64, deleted bool, initial map[string]bool) map[string]string {
	switch {
	case initial != nil:
		for name := range n.nodes {
			if !initial[name] {
				delete(n.nodes, name)
			}
		}
	case deleted:
		delete(n.nodes, name)
	default:
		if ns := n.nodes[name]; ns != nil && ns.rev == rev {
			return nil
		}
		var a Alive
		if json.Unmarshal(value, &a) != nil || a.Boot == "" {
			n.log.Error("cluster: a key of the nodes' bucket does not hold a boot id; it is ignored", "key", name, "value", string(value))
			delete(n.nodes, name)
			return nil
		}
		n.nodes[name] = &seenNode{boot: a.Boot, rev: rev, at: time.Now()}
	}
	return nil
}

// see takes note of revision rev of room code's key, holding value; a
// revision seen before keeps the time it was first received. n.mu is
// held.
func (n *Node) see(code string, value []byte, rev uint64) {
	if s := n.seen[code]; s != nil && s.rev == rev {
		return
	}
	var o Owner
	if json.Unmarshal(value, &o) != nil || o.Journal == "" || codeOf(o.Journal) != code {
		n.log.Error("cluster: a key of the directory does not name a node and a journal of its room; it is ignored", "key", code, "value", string(value))
		delete(n.seen, code)
		return
	}
	n.seen[code] = &seen{owner: o, rev: rev, at: time.Now()}
}

// refresh reads room code's key, after a takeover refused for a revision
// the watch had not delivered yet, into n.seen.
func (n *Node) refresh(code string) {
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Timeout)
	defer cancel()
	e, err := n.kv.Get(ctx, code)
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		delete(n.seen, code)
	case err == nil:
		n.see(code, e.Value(), e.Revision())
	}
}

// takeOver takes room code, whose key as last seen is s, by an update
// that expects s's revision, replays the room from its journal and
// serves it. Another node may win the key: then nothing is done.
func (n *Node) takeOver(code string, s seen) {
	defer n.wg.Done()
	defer func() {
		n.mu.Lock()
		delete(n.taking, code)
		n.mu.Unlock()
	}()
	// A short wait, different on every node, lets one of them win the
	// key rather than all of them trying at once.
	select {
	case <-n.ctx.Done():
		return
	case <-time.After(rand.N(takeoverJitter)):
	}
	select {
	case <-n.ctx.Done():
		return
	case n.takers <- struct{}{}:
	}
	defer func() { <-n.takers }()
	n.mu.Lock()
	cur, boot := n.seen[code], n.boot
	live := !n.lapsed
	n.mu.Unlock()
	if cur == nil || cur.rev != s.rev || !live {
		return // changed, or gone, meanwhile; or this node is not renewing its own key
	}
	jid := s.owner.Journal
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Timeout)
	rev, err := n.kv.Update(ctx, code, n.value(jid, boot), s.rev)
	cancel()
	if conflict(err) {
		// The key has a revision the watch has not delivered: it counts
		// from now.
		n.refresh(code)
	}
	if err != nil {
		return
	}
	start := time.Now()
	n.mu.Lock()
	if n.boot != boot {
		// The node gave its rooms up meanwhile: the key names a run
		// that is over, for a later takeover.
		n.mu.Unlock()
		return
	}
	n.leases[code] = &lease{jid: jid, rev: rev}
	n.metrics.Leases.Set(float64(len(n.leases)))
	n.mu.Unlock()
	ctx, cancel = context.WithTimeout(n.ctx, 2*n.o.Timeout)
	es, last, err := n.read(ctx, jid)
	cancel()
	if err != nil {
		n.log.Error("cluster: the journal of a room to take over could not be read; the room is given up for a later takeover", "room", code, "from", s.owner.Node, "err", err)
		n.lose(code, jid, "failed")
		return
	}
	if len(es) == 0 {
		// The room's node died between claiming its code and writing
		// its first entry: there is nothing to take over.
		n.Release(code, jid)
		return
	}
	if !n.holds(code, jid) {
		return // lost while the journal was read
	}
	n.adopt(jid, last)
	open, err := n.m.TakeOver(jid, es)
	if !n.holds(code, jid) {
		// Lost while the room was replayed: the room stops again.
		n.fence(jid, "its lease was lost as it was taken over")
		n.m.Evict(code)
		return
	}
	if errors.Is(err, room.ErrNotTaken) {
		// The node is closing, or its own room of that code has not
		// stopped yet: the room is given up again, for a later
		// takeover.
		n.lose(code, jid, "failed")
		return
	}
	if err != nil {
		return // logged, and the journal dropped, by the Manager
	}
	n.metrics.Takeovers.Inc()
	n.log.Info("cluster: room taken over", "room", code, "from", s.owner.Node, "entries", len(es), "open", open,
		"seen_for", time.Since(s.at), "took", time.Since(start))
}
