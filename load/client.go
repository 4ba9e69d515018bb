package load

import (
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// message is a server message, with the fields the clients use.
type message struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Reason  string          `json:"reason"`
	Status  string          `json:"status"`
	Room    json.RawMessage `json:"room"`
	Token   string          `json:"token"`
	Seat    int             `json:"seat"`
	Table   int             `json:"table"`
	Elapsed int64           `json:"elapsed"`
	Events  []event         `json:"events"`
	View    *rules.View     `json:"view"`
	Picker  int             `json:"picker"`
	Choices []string        `json:"choices"`
}

// event is the part of a rules.Event that tells whose action it was.
type event struct {
	Kind string `json:"kind"`
	Seat int    `json:"seat"`
}

// lobbyRoom is the part of a lobby message's room a host needs.
type lobbyRoom struct {
	Phase string `json:"phase"`
	Host  int    `json:"host"`
}

// client is one player: a WebSocket connection, read by its own goroutine,
// and a timer that sends its next action when its reaction time is up.
type client struct {
	r *runner
	n int // the client's number, from 0
	// target is the server of Config.URL the client dials, by its index;
	// a client that comes back after a drop moves on to the next server
	// when its own does not answer, or does not know its room (rejoin).
	target int
	// other says the client joined its room through another server than
	// the one its room was created on (Config.Spread SpreadPlayers).
	other bool
	conn  atomic.Pointer[wsConn] // the connection, replaced when it resumes
	ctl   chan *message          // ramp-up answers: welcome, joined, errors
	lost  atomic.Bool            // the connection ended

	mu    sync.Mutex
	seat  int          // the session seat, from joined
	code  string       // the room's code, from joined
	token string       // the seat's token, from joined
	table int          // the table being played
	view  *rules.View  // the latest view of that table, nil between tables
	start time.Time    // when the table began, by this machine's clock
	mind  rules.Player // how the player plays the table's game, and what it remembers of it
	game  string       // the game mind plays
	// spare is a view no longer in use, whose lists the next update is
	// read into; it belongs to the goroutine reading the connection.
	spare *rules.View
	timer *time.Timer
	// The planned action: the frame to send, the action, its id, when,
	// and its plan number (plan counts plans; a plan is void once plan
	// has moved on).
	next    []byte
	nextAct rules.Action
	nextID  string
	due     time.Time
	plan    uint64
	planned uint64
	// The action in flight: its kind, id and when it was sent.
	pending bool
	kind    rules.ActionKind
	id      string
	sent    time.Time
	ids     uint64
	// With Config.Resume: the table and version of the last view the
	// client was sent, and the fingerprint of that view (seen is false
	// before the first); when it dropped; whether it waits to be back in
	// play, and whether the next table it is sent is the one it resumed
	// at.
	seen        bool
	seenTable   int
	seenVersion uint64
	seenView    uint64
	dropped     time.Time
	backPending bool
	resumed     bool
}

// send writes one frame; a failure counts as an error unless the run is
// closing or the connection is gone. With Config.Resume it is the
// connection's reader that notices a connection gone, and comes back.
func (c *client) send(b []byte) {
	if err := c.conn.Load().write(ws.OpText, b); err != nil && !c.r.closing.Load() && !c.lost.Load() && !c.r.cfg.Resume {
		c.r.fail("write")
	}
}

// await waits for the ramp-up answer of type typ; kind names what went
// wrong instead, with the server's error message when it answered one.
func (c *client) await(typ string) (*message, string) {
	t := time.NewTimer(stepTimeout)
	defer t.Stop()
	select {
	case m, ok := <-c.ctl:
		switch {
		case !ok:
			return nil, typ + ": connection closed"
		case m.Type == protocol.MsgError:
			return m, typ + ": error " + m.Code + " (" + m.Message + ")"
		case m.Type != typ:
			return nil, typ + ": got " + m.Type
		}
		return m, ""
	case <-t.C:
		return nil, typ + ": no answer in " + stepTimeout.String()
	}
}

// answer hands a ramp-up answer to await, unless the run closes first.
func (c *client) answer(m *message) {
	select {
	case c.ctl <- m:
	case <-c.r.quit:
	}
}

// read reads conn until it ends; the first connection's reader closes
// ctl when it returns, for the ramp-up's await.
func (c *client) read(conn *wsConn, first bool) {
	defer c.r.bg.Done()
	if first {
		defer close(c.ctl)
	}
	buf := make([]byte, 0, 2048)
	var events []event
	for {
		var err error
		buf, err = conn.read(buf[:0])
		if err != nil {
			c.drop(err)
			return
		}
		now := time.Now()
		m := message{Events: events}
		spare := c.spare
		c.spare = nil
		err = decode(buf, &m, spare)
		if m.View != spare {
			c.spare = spare
		}
		events = m.Events[:0]
		if err != nil {
			c.r.fail("bad message")
			continue
		}
		c.handle(&m, buf, now)
	}
}

// drop ends the connection that failed with err: the action in flight is
// unsettled, and with Config.Resume a client whose room plays tries to
// come back (reconnect); otherwise the drop counts as an error.
func (c *client) drop(err error) {
	r := c.r
	c.lost.Store(true)
	resume := r.cfg.Resume && r.playing.Load() && !r.stopping.Load() && !r.closing.Load()
	c.mu.Lock()
	pending := c.pending
	c.pending = false
	resume = resume && c.token != ""
	if resume {
		c.plan++
		c.next = nil
		c.recycle(c.view)
		c.view = nil
	}
	c.mu.Unlock()
	if pending {
		r.inFlight.Add(-1)
	}
	if r.closing.Load() {
		return
	}
	kind := "connection lost"
	if ce, ok := errors.AsType[*closeError](err); ok {
		kind = "closed by the server: " + strconv.Itoa(ce.code) + " " + ce.reason
	}
	now := time.Now()
	if r.playing.Load() {
		c.watch(Seen{Kind: SeenDrop, At: now, Code: kind})
	}
	if !resume || !r.background() {
		r.fail(kind)
		if pending {
			r.fail("unsettled")
		}
		return
	}
	r.res.mu.Lock()
	r.res.drops[kind]++
	r.res.mu.Unlock()
	if pending {
		r.res.unsettled.Add(1)
	}
	go c.reconnect(now)
}

// handle acts on one message, whose frame is b, received at now.
func (c *client) handle(m *message, b []byte, now time.Time) {
	r := c.r
	if !r.playing.Load() {
		switch m.Type {
		case protocol.MsgJoined:
			c.mu.Lock()
			c.seat = m.Seat
			json.Unmarshal(m.Room, &c.code)
			c.token = m.Token
			c.mu.Unlock()
			c.answer(m)
		case protocol.MsgWelcome, protocol.MsgError:
			c.answer(m)
		}
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch m.Type {
	case protocol.MsgState:
		c.recycle(c.view)
		c.table, c.view = m.Table, m.View
		c.start = now.Add(-time.Duration(m.Elapsed) * time.Millisecond)
		if c.mind != nil {
			c.mind.Reset()
		}
		if r.cfg.Resume || r.cfg.Watch != nil {
			c.sawState(m, b, now)
		}
		if c.view != nil {
			c.observe()
		}
		c.replan()
	case protocol.MsgUpdate:
		if m.Table != c.table || m.View == nil {
			c.recycle(m.View)
			return
		}
		own := c.view != nil && len(m.Events) > 0 && m.Events[0].Seat == c.view.Seat && ownEvent(m.Events[0].Kind)
		if m.View.Over {
			// Counted before the action that ended the table settles,
			// so that a run never stops between the two.
			c.ended(m.Table)
		}
		if c.pending && own {
			r.kinds[c.kind].accepted.Add(1)
			c.settle(now)
		}
		if r.cfg.Resume || r.cfg.Watch != nil {
			c.sawUpdate(m, b, own, now)
		}
		c.recycle(c.view)
		c.view = m.View
		c.observe()
		c.replan()
	case protocol.MsgRefused:
		if !c.pending || m.ID != c.id {
			r.fail("refused: not an action in flight")
			return
		}
		k := c.kind
		c.settle(now)
		switch m.Code {
		case rules.CodeTooLate.String(), rules.CodeGameOver.String(), rules.CodeTimeUp.String():
			r.kinds[k].late.Add(1)
		default:
			r.fail("refused " + k.String() + ": " + m.Code)
		}
		c.replan()
	case protocol.MsgError:
		if c.pending && m.ID == c.id {
			c.settle(now)
			c.replan()
		}
		r.fail("error: " + m.Code)
	case protocol.MsgOver:
		c.recycle(c.view)
		c.view = nil
		c.replan()
		c.ended(m.Table)
		c.watch(Seen{Kind: SeenOver, At: now, Table: m.Table})
	case protocol.MsgLobby:
		var l lobbyRoom
		if json.Unmarshal(m.Room, &l) != nil {
			r.fail("bad message")
			return
		}
		if l.Phase == "lobby" || l.Phase == "over" {
			// The room is between sessions: nothing more comes until
			// its host starts.
			c.back(now)
		}
		if l.Phase == "over" && l.Host == c.seat && !r.stopping.Load() {
			go c.send(startFrame)
		}
	case protocol.MsgCountdown:
		if c.resumed && c.seen && m.Table <= c.seenTable {
			// The next table is one the client saw played: what it saw
			// of that table is lost.
			r.res.behind.Add(1)
		}
		c.resumed = false
		c.back(now)
	case protocol.MsgPick:
		if m.Picker == c.seat && len(m.Choices) > 0 {
			go c.send(protocol.AppendRequest(nil, &protocol.Request{Type: protocol.TypePick, Game: m.Choices[0]}))
		}
	case protocol.MsgClosed:
		r.fail("room closed: " + m.Reason)
	case protocol.MsgSaved:
		// The server could not store a finished game at once (its disk
		// full…); the game stored after all is no error.
		if m.Status != protocol.SavedStored {
			r.fail("game not stored: " + m.Status)
		}
	case protocol.MsgPresence, protocol.MsgPong, protocol.MsgJoined, protocol.MsgWelcome:
	default:
		r.fail("unexpected message: " + m.Type)
	}
}

// observe shows the player the current view, with a player of its game
// (rules.NewPlayer) when the game is new to it; c.mu is held.
func (c *client) observe() {
	if c.mind == nil || c.game != c.view.Game {
		g, err := rules.Lookup(c.view.Game)
		if err != nil {
			c.r.fail("a view of a game this program does not know: " + c.view.Game)
			c.mind, c.game = nil, ""
			return
		}
		c.mind, c.game = rules.NewPlayer(g), c.view.Game
	}
	c.mind.Observe(c.view)
}

// recycle keeps v, a view no longer in use, to read the next update
// into.
func (c *client) recycle(v *rules.View) {
	if c.spare == nil {
		c.spare = v
	}
}

// ownEvent reports whether an update whose first event is of kind k, by
// the seat itself, holds an action of the seat's own: a claim, a draw, a
// lay, a discard or a take (move), a flip, a write, a guess or a STOP. The
// clock's ticks begin otherwise, or name no seat.
func ownEvent(k string) bool {
	for _, own := range ownEvents {
		if k == own {
			return true
		}
	}
	return false
}

// ownEvents are the names of the events that begin an update made by a
// seat's own action.
var ownEvents = []string{rules.EventClaim.String(), rules.EventMove.String(), rules.EventFlip.String(),
	rules.EventWrite.String(), rules.EventGuess.String(), rules.EventStop.String()}

// ended counts the end of the room's table, once whichever of its
// players sees it first: the update that ends it, or the over message.
func (c *client) ended(table int) {
	last := &c.r.ended[c.n/c.r.cfg.PlayersPerRoom-c.r.cfg.FirstRoom]
	for {
		seen := last.Load()
		if int64(table) < seen {
			return
		}
		if last.CompareAndSwap(seen, int64(table)+1) {
			c.r.games.Add(1)
			return
		}
	}
}

// settle ends the action in flight, answered at now; c.mu is held.
func (c *client) settle(now time.Time) {
	c.pending = false
	c.r.inFlight.Add(-1)
	d := now.Sub(c.sent)
	c.r.kinds[c.kind].hist.add(d)
	if c.r.spread {
		if c.other {
			c.r.other.add(d)
		} else {
			c.r.same.add(d)
		}
	}
}

// cancel drops the planned action, at the end of the run.
func (c *client) cancel() {
	c.mu.Lock()
	c.plan++
	c.next = nil
	c.mu.Unlock()
}

// replan voids the planned action and, unless an action is in flight,
// plans the next one from the current view: the action, and a reaction
// time after which fire sends it. An action that the game's clock ends
// (a turn, Reflection's answer phase) is planned to go before the
// deadline. c.mu is held.
func (c *client) replan() {
	c.plan++
	c.next = nil
	v := c.view
	if c.pending || v == nil || v.Over || v.Seat < 0 || c.mind == nil || c.r.stopping.Load() {
		return
	}
	var a rules.Action
	if !c.mind.Decide(v, &a) {
		return
	}
	now := time.Now()
	d := c.r.cfg.reaction()
	if v.Deadline > 0 && (a.Kind == rules.ActionFlip || a.Kind == rules.ActionLay || a.Kind == rules.ActionStop || a.Kind == rules.ActionWrite) {
		left := c.start.Add(time.Duration(v.Deadline) * time.Millisecond).Sub(now)
		if left <= 0 {
			return // the clock's tick comes first, with a new view
		}
		d = min(d, left*3/4)
	}
	c.ids++
	id := strconv.FormatUint(c.ids, 10)
	req := protocol.Action(a, c.table, id)
	req.Action.Version = v.Version
	b := protocol.AppendRequest(make([]byte, 0, 128), req)
	c.next, c.nextAct, c.nextID, c.planned = b, a, id, c.plan
	c.due = now.Add(d)
	if c.timer == nil {
		c.timer = time.AfterFunc(d, c.fire)
	} else {
		c.timer.Reset(d)
	}
}

// fire sends the planned action if it is still the plan and its time has
// come.
func (c *client) fire() {
	c.mu.Lock()
	if c.next == nil || c.planned != c.plan || c.pending || time.Now().Before(c.due) || c.r.stopping.Load() {
		c.mu.Unlock()
		return
	}
	b := c.next
	c.next = nil
	c.pending = true
	c.kind = c.nextAct.Kind
	c.mind.Sent(c.view, &c.nextAct)
	c.id = c.nextID
	c.r.inFlight.Add(1)
	c.r.kinds[c.kind].sent.Add(1)
	c.sent = time.Now()
	c.mu.Unlock()
	c.send(b)
}
