package load

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"

	"github.com/dobble-dev/dobble/protocol"
)

// How a client comes back after its connection dropped (Config.Resume).
const (
	// ResumeWithin is how long a client tries to come back after its
	// connection dropped before it gives up.
	ResumeWithin = time.Minute
	// reconnectFirst is the wait before the first try, reconnectMost the
	// longest between two: the wait doubles from one to the other, and
	// each is drawn between half of it and all of it, so that the clients
	// of a server that went away do not all come back at once.
	reconnectFirst = 50 * time.Millisecond
	reconnectMost  = 2 * time.Second
	// refusalsFinal is how many answers in a row that the seat cannot be
	// resumed (noRoom, badToken), the first of them Config.ResumeGrace
	// ago at least, end the tries: a server on its way down may still
	// answer so before the one that replaces it is up.
	refusalsFinal = 3
	// DefaultResumeGrace is Config.ResumeGrace when it is 0.
	DefaultResumeGrace = 2 * time.Second
)

// resumeStats counts what came of the dropped connections.
type resumeStats struct {
	mu     sync.Mutex
	drops  map[string]int64 // by how the connection dropped
	failed map[string]int64 // by why the client gave up

	attempts, reconnects, resumed, unsettled, behind atomic.Int64
	back                                             histogram // from a drop to back in play
}

// report returns the counts as a ResumeReport; part.fill adds the times
// back in play.
func (s *resumeStats) report() *ResumeReport {
	rep := &ResumeReport{DropKinds: map[string]int64{}, FailKinds: map[string]int64{},
		Attempts: s.attempts.Load(), Reconnects: s.reconnects.Load(), Resumed: s.resumed.Load(),
		Unsettled: s.unsettled.Load(), Behind: s.behind.Load()}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, n := range s.drops {
		rep.DropKinds[k] = n
		rep.Drops += n
	}
	for k, n := range s.failed {
		rep.FailKinds[k] = n
		rep.Failed += n
	}
	return rep
}

// background counts one more goroutine of the run that Run waits for
// before it returns; it reports false, counting nothing, once the run is
// closing.
func (r *runner) background() bool {
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	if r.bgClosed {
		return false
	}
	r.bg.Add(1)
	return true
}

// watch tells Config.Watch what the client saw, filling in the client
// and its room.
func (c *client) watch(s Seen) {
	if c.r.cfg.Watch == nil {
		return
	}
	s.Client, s.Room = c.n, c.n/c.r.cfg.PlayersPerRoom
	c.r.cfg.Watch(s)
}

// sawState notes a state the client was sent, in frame b, at now: the
// first after a resume is checked against the last view the client saw
// (it may be further on, never behind). c.mu is held.
func (c *client) sawState(m *message, b []byte, now time.Time) {
	if m.View == nil {
		return
	}
	view, _, err := Fingerprint(b)
	if err != nil {
		c.r.fail("bad message")
		return
	}
	resumed := c.resumed
	c.resumed = false
	if resumed && c.seen && (m.Table < c.seenTable || m.Table == c.seenTable && m.View.Version < c.seenVersion) {
		c.r.res.behind.Add(1)
	}
	c.seen, c.seenTable, c.seenVersion, c.seenView = true, m.Table, m.View.Version, view
	c.watch(Seen{Kind: SeenState, At: now, Table: m.Table, Version: m.View.Version, Seat: m.View.Seat, Over: m.View.Over,
		View: view, Resumed: resumed})
	c.back(now)
}

// sawUpdate notes an update the client was sent, in frame b, at now; own
// says it holds the client's own action. c.mu is held.
func (c *client) sawUpdate(m *message, b []byte, own bool, now time.Time) {
	view, frame, err := Fingerprint(b)
	if err != nil {
		c.r.fail("bad message")
		return
	}
	c.seen, c.seenTable, c.seenVersion, c.seenView = true, m.Table, m.View.Version, view
	if c.r.cfg.Watch == nil {
		return
	}
	events := make([]Event, len(m.Events))
	for i, e := range m.Events {
		events[i] = Event{Kind: e.Kind, Seat: e.Seat}
	}
	c.watch(Seen{Kind: SeenUpdate, At: now, Table: m.Table, Version: m.View.Version, Seat: m.View.Seat, Over: m.View.Over,
		View: view, Frame: frame, Events: events, Own: own})
}

// back marks the client back in play, at now, if it waits to be. c.mu is
// held.
func (c *client) back(now time.Time) {
	if !c.backPending {
		return
	}
	c.backPending = false
	c.r.res.resumed.Add(1)
	c.r.res.back.add(now.Sub(c.dropped))
	c.watch(Seen{Kind: SeenBack, At: now, Since: c.dropped})
}

// reconnect brings the client back after its connection dropped at
// dropped: it dials again, with a growing wait between tries, until it
// has its seat back, the server refuses it for good (refusalsFinal times
// in a row, over Config.ResumeGrace at least), ResumeWithin has passed, or the
// run closes. It runs on its own goroutine, counted by
// r.bg.
func (c *client) reconnect(dropped time.Time) {
	r := c.r
	defer r.bg.Done()
	wait := reconnectFirst
	refusals := 0
	var firstRefusal time.Time
	for {
		d := wait/2 + rand.N(wait/2+1)
		wait = min(2*wait, reconnectMost)
		t := time.NewTimer(d)
		select {
		case <-r.quit:
			t.Stop()
			return
		case <-t.C:
		}
		if time.Since(dropped) > ResumeWithin {
			c.giveUp("gave up after " + ResumeWithin.String())
			return
		}
		conn, code, final := c.rejoin()
		if conn == nil {
			if !final {
				refusals = 0
				continue
			}
			if refusals++; refusals == 1 {
				firstRefusal = time.Now()
			}
			if refusals >= refusalsFinal && time.Since(firstRefusal) >= r.cfg.ResumeGrace {
				c.giveUp(code)
				return
			}
			continue
		}
		c.mu.Lock()
		c.dropped, c.backPending, c.resumed = dropped, true, true
		c.mu.Unlock()
		c.conn.Store(conn)
		c.lost.Store(false)
		// Run closes the connections it finds once closing is set: one
		// stored after that is closed here.
		if r.closing.Load() || !r.background() {
			conn.close()
			return
		}
		go c.read(conn, false)
		return
	}
}

// giveUp counts the client's resume as failed, for why.
func (c *client) giveUp(why string) {
	r := c.r
	r.res.mu.Lock()
	r.res.failed[why]++
	r.res.mu.Unlock()
	c.watch(Seen{Kind: SeenFailed, At: time.Now(), Code: why})
}

// rejoin dials the client's server, says hello and resumes its seat. It
// returns the connection, its seat taken back; or nil, with the server's
// error code or what went wrong, and whether that is final (the server
// knows no such room or seat) rather than worth another try (the server
// is not up yet, or busy).
func (c *client) rejoin() (conn *wsConn, code string, final bool) {
	r := c.r
	r.res.attempts.Add(1)
	ctx, cancel := context.WithTimeout(r.ctx, stepTimeout)
	defer cancel()
	conn, err := dialWS(ctx, r.dial, r.targets[c.target].ws)
	if err != nil {
		// Its server may be gone for good, a node of a cluster whose
		// rooms the others took over: the next try goes to the next.
		c.target = (c.target + 1) % len(r.targets)
		return nil, "connect", false
	}
	r.res.reconnects.Add(1)
	c.mu.Lock()
	room, token := c.code, c.token
	c.mu.Unlock()
	conn.c.SetDeadline(time.Now().Add(stepTimeout))
	steps := []struct {
		req  *protocol.Request
		want string
	}{
		{&protocol.Request{Type: protocol.TypeHello, V: protocol.Version, Name: c.name(), Lang: "en"}, protocol.MsgWelcome},
		{&protocol.Request{Type: protocol.TypeResume, Code: room, Token: token}, protocol.MsgJoined},
	}
	for _, s := range steps {
		if err := conn.write(ws.OpText, protocol.AppendRequest(nil, s.req)); err != nil {
			conn.close()
			return nil, "write", false
		}
		m, err := awaitOn(conn, s.want)
		switch {
		case err != nil:
			conn.close()
			return nil, "connection lost", false
		case m.Type == protocol.MsgError:
			conn.close()
			switch m.Code {
			case protocol.CodeBusy, protocol.CodeRateLimited, protocol.CodeFull:
				return nil, m.Code, false
			}
			// Another server may know the room: a node of a cluster
			// that has taken it over.
			c.target = (c.target + 1) % len(r.targets)
			return nil, m.Code, true
		}
	}
	conn.c.SetDeadline(time.Time{})
	return conn, "", false
}

// awaitOn reads conn until a message of type want or an error comes, and
// returns it; it leaves every later message to be read.
func awaitOn(conn *wsConn, want string) (*message, error) {
	var b []byte
	for {
		var err error
		if b, err = conn.read(b[:0]); err != nil {
			return nil, err
		}
		var m message
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		if m.Type == want || m.Type == protocol.MsgError {
			return &m, nil
		}
	}
}

// name is the client's nickname.
func (c *client) name() string {
	prefix := c.r.cfg.Name
	if prefix == "" {
		prefix = "load"
	}
	return prefix + " " + strconv.Itoa(c.n)
}
