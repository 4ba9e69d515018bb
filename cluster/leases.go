package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/room"
)

// Owner is the value of a room's key in the directory: the node that owns
// the room and the room's journal id (its subject in the stream is
// SubjectPrefix and the id escaped).
type Owner struct {
	Node    string `json:"node"`
	Journal string `json:"journal"`
}

// lease is a room's lease this node holds.
type lease struct {
	jid string
	rev uint64
	// renewed is when the node sent the last renewal that succeeded (or
	// the create or takeover).
	renewed time.Time
}

// seen is a room's key as the watch last received it.
type seen struct {
	owner Owner
	rev   uint64
	at    time.Time // when the watch received it
}

// renewWorkers is how many renewals are under way at once.
const renewWorkers = 32

// codeOf returns the code of the room of journal id jid.
func codeOf(jid string) string {
	code, _, _ := strings.Cut(jid, "/")
	return code
}

// value returns the directory's value for this node owning room jid.
func (n *Node) value(jid string) []byte {
	b, _ := json.Marshal(Owner{Node: n.o.Node, Journal: jid})
	return b
}

// Claim creates the key of a new room, owned by this node
// (room.Directory); it fails with room.ErrCodeTaken when the key exists.
func (n *Node) Claim(code, jid string) error {
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Timeout)
	defer cancel()
	sent := time.Now()
	rev, err := n.kv.Create(ctx, code, n.value(jid))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("%w: %s", room.ErrCodeTaken, code)
	}
	if err != nil {
		return fmt.Errorf("cluster: claiming room %s: %w", code, err)
	}
	n.mu.Lock()
	n.leases[code] = &lease{jid: jid, rev: rev, renewed: sent}
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
		// The lease lapses: the next owner finds the journal dropped.
		n.log.Warn("cluster: the lease of a room that ended could not be deleted; it lapses", "room", code, "err", err)
	}
}

// lose gives up the lease of room code, kept for journal jid: the node
// stops renewing it, fails the room's writes and stops the room, whose
// people reconnect to the node that takes it over.
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
	n.log.Warn("cluster: the lease of a room is lost; the room stops here and its players reconnect", "room", code, "reason", reason,
		"renewed_ago", time.Since(l.renewed))
	n.fence(jid, "its lease is lost ("+reason+")")
	n.m.Evict(code)
}

// renew renews the node's leases every Renew.
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
		n.mu.Lock()
		type job struct {
			code string
			l    lease
		}
		jobs := make([]job, 0, len(n.leases))
		for code, l := range n.leases {
			jobs = append(jobs, job{code, *l})
		}
		n.mu.Unlock()
		work := make(chan job)
		var wg sync.WaitGroup
		for range min(renewWorkers, len(jobs)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range work {
					n.renewOne(j.code, j.l)
				}
			}()
		}
		for _, j := range jobs {
			work <- j
		}
		close(work)
		wg.Wait()
	}
}

// renewOne renews the lease l of room code.
func (n *Node) renewOne(code string, l lease) {
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Renew)
	defer cancel()
	sent := time.Now()
	rev, err := n.kv.Update(ctx, code, n.value(l.jid), l.rev)
	if err != nil {
		if n.ctx.Err() != nil {
			return
		}
		n.metrics.RenewFailures.Inc()
		if conflict(err) || errors.Is(err, jetstream.ErrKeyNotFound) {
			n.lose(code, l.jid, "taken")
		}
		return
	}
	n.mu.Lock()
	if cur := n.leases[code]; cur != nil && cur.jid == l.jid && cur.rev == l.rev {
		cur.rev, cur.renewed = rev, sent
	}
	n.mu.Unlock()
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

// checkEvery is how often the node looks for leases of its own that are
// lapsing and for others' that have lapsed.
const checkEvery = 100 * time.Millisecond

// check gives up the node's leases not renewed for Lease less Lease/3,
// and takes over the rooms whose keys no node has renewed for Lease.
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
		keep := n.o.Lease - n.o.Lease/3
		type item struct {
			code string
			jid  string
			s    seen
		}
		var lapsing, lapsed []item
		n.mu.Lock()
		for code, l := range n.leases {
			if now.Sub(l.renewed) > keep {
				lapsing = append(lapsing, item{code: code, jid: l.jid})
			}
		}
		for code, s := range n.seen {
			if n.leases[code] == nil && !n.taking[code] && now.Sub(s.at) > n.o.Lease {
				n.taking[code] = true
				lapsed = append(lapsed, item{code: code, s: *s})
			}
		}
		n.mu.Unlock()
		for _, it := range lapsing {
			n.lose(it.code, it.jid, "lapsed")
		}
		for _, it := range lapsed {
			n.wg.Add(1)
			go n.takeOver(it.code, it.s)
		}
	}
}

// watch keeps n.seen, the directory as the bucket's watch delivers it,
// starting with w; it starts a new watch when NATS comes back (a watch
// may otherwise take long to notice that NATS restarted) or when one
// ends.
func (n *Node) watch(w jetstream.KeyWatcher) {
	defer n.wg.Done()
	for {
		if w != nil {
			n.follow(w)
			w.Stop()
			w = nil
		}
		select {
		case <-n.ctx.Done():
			return
		default:
		}
		var err error
		if w, err = n.kv.WatchAll(n.ctx); err != nil {
			select {
			case <-n.ctx.Done():
				return
			case <-time.After(retryWait):
			}
		}
	}
}

// follow applies the keys w delivers to n.seen, until the node closes,
// NATS comes back after a loss, or w ends. The keys w begins with are
// the whole directory: those seen before and not among them are gone.
func (n *Node) follow(w jetstream.KeyWatcher) {
	initial := map[string]bool{}
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-n.rewatch:
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			n.mu.Lock()
			switch {
			case e == nil:
				// The end of the keys there were when the watch began.
				for code := range n.seen {
					if !initial[code] {
						delete(n.seen, code)
					}
				}
				initial = nil
			case e.Operation() == jetstream.KeyValuePut:
				if initial != nil {
					initial[e.Key()] = true
				}
				n.see(e.Key(), e.Value(), e.Revision())
				if s := n.seen[e.Key()]; s != nil && s.owner.Node != n.o.Node {
					n.forget(s.owner.Journal)
				}
			default:
				if s := n.seen[e.Key()]; s != nil {
					n.forget(s.owner.Journal)
				}
				delete(n.seen, e.Key())
			}
			n.mu.Unlock()
		}
	}
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

// takeOver takes the lease of room code, which s, its key as last seen,
// shows lapsed, replays the room from its journal and serves it. Another
// node may win the lease: then nothing is done.
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
	n.mu.Lock()
	cur := n.seen[code]
	n.mu.Unlock()
	if cur == nil || cur.rev != s.rev {
		return // renewed, or gone, meanwhile
	}
	jid := s.owner.Journal
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Timeout)
	sent := time.Now()
	rev, err := n.kv.Update(ctx, code, n.value(jid), s.rev)
	cancel()
	if conflict(err) {
		// The key has a revision the watch has not delivered (a renewal
		// that reached NATS as it came back, say): it counts from now.
		n.refresh(code)
	}
	if err != nil {
		return
	}
	start := time.Now()
	n.mu.Lock()
	n.leases[code] = &lease{jid: jid, rev: rev, renewed: sent}
	n.metrics.Leases.Set(float64(len(n.leases)))
	n.mu.Unlock()
	ctx, cancel = context.WithTimeout(n.ctx, 2*n.o.Timeout)
	es, last, err := n.read(ctx, jid)
	cancel()
	if err != nil {
		n.log.Error("cluster: the journal of a room to take over could not be read; its lease is left to lapse", "room", code, "from", s.owner.Node, "err", err)
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
		// stopped yet: the lease lapses again, for a later takeover.
		n.lose(code, jid, "failed")
		return
	}
	if err != nil {
		return // logged, and the journal dropped, by the Manager
	}
	n.metrics.Takeovers.Inc()
	n.log.Info("cluster: room taken over", "room", code, "from", s.owner.Node, "entries", len(es), "open", open,
		"lapsed_for", time.Since(s.at)-n.o.Lease, "took", time.Since(start))
}
