package hostile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
)

// env is what an attack runs with: the server, the attacker's dialer and
// the counters it fills.
type env struct {
	o      *Options
	addr   string // the server's HOST:PORT
	dialer *net.Dialer
	counts *counters
}

// wsURL is the server's WebSocket endpoint.
func (e *env) wsURL() string { return "ws://" + e.addr + "/ws" }

// dial opens a WebSocket connection to the server and counts it. It
// returns nil where the server refused it, after counting the refusal
// unless ctx is done, and waiting pause (where it is not zero) or until
// ctx is done, so that a loop that dials again does not spin.
func (e *env) dial(ctx context.Context, pause time.Duration) *wsClient {
	c, err := dialWS(ctx, e.dialer, e.wsURL())
	if err != nil {
		if ctx.Err() == nil {
			e.counts.add(cRefused+": "+errKind(err), 1)
			if pause > 0 {
				sleep(ctx, pause)
			}
		}
		return nil
	}
	e.counts.add(cConnections, 1)
	return c
}

// greet says hello on c as name, and reports whether the server welcomed
// it; it counts any other answer. The connection is then for the caller
// to close.
func (e *env) greet(c *wsClient, name string) bool {
	if err := c.greet(name); err != nil {
		e.counts.add("hello: "+answerKind(err), 1)
		return false
	}
	return true
}

// open opens a WebSocket connection to the server, as dial does with a
// pause of 100 ms after a refusal, and says hello on it as name, as greet
// does. It returns nil where either failed, the connection closed.
func (e *env) open(ctx context.Context, name string) *wsClient {
	c := e.dial(ctx, 100*time.Millisecond)
	if c == nil {
		return nil
	}
	if !e.greet(c, name) {
		c.close()
		return nil
	}
	return c
}

// reading runs read on a goroutine of its own, to read c, and closes c
// once read returns or when ctx is done, whichever comes first. The
// function it returns waits for read to return.
func reading(ctx context.Context, c *wsClient, read func()) (wait func()) {
	stop := context.AfterFunc(ctx, c.close)
	done := make(chan struct{})
	go func() {
		defer close(done)
		read()
		c.close()
	}()
	return func() {
		<-done
		stop()
	}
}

// drain reads c's messages until the connection ends, passing each to f
// where f is not nil, and counts how it ended: closed by the server, or
// held at the end where ctx is done (the attack's span over).
func (e *env) drain(ctx context.Context, c *wsClient, f func(b []byte)) {
	for {
		b, err := c.next()
		if err != nil {
			if ctx.Err() == nil {
				e.counts.add(closedKind(err), 1)
			} else {
				e.counts.add(cHeldAtEnd, 1)
			}
			return
		}
		if f != nil {
			f(b)
		}
	}
}

// counters count what an attack did, by name, in the order the names
// were first counted.
type counters struct {
	mu    sync.Mutex
	names []string
	n     map[string]int64
}

// Counter is one count of what an attack did.
type Counter struct {
	Name string `json:"name"`
	N    int64  `json:"n"`
}

func newCounters() *counters { return &counters{n: map[string]int64{}} }

// add counts d more of name.
func (c *counters) add(name string, d int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.n[name]; !ok {
		c.names = append(c.names, name)
	}
	c.n[name] += d
}

// get returns the count of name.
func (c *counters) get(name string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// prefixed adds up the counts whose names begin with prefix.
func (c *counters) prefixed(prefix string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var s int64
	for k, v := range c.n {
		if strings.HasPrefix(k, prefix) {
			s += v
		}
	}
	return s
}

// list returns the counts in order.
func (c *counters) list() []Counter {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := make([]Counter, len(c.names))
	for i, k := range c.names {
		l[i] = Counter{k, c.n[k]}
	}
	return l
}

// The names of the counts that the kinds judge by.
const (
	cConnections = "connections"
	cHeldAtEnd   = "held at the end"
	cClosed      = "closed by the server"
	cRefused     = "refused"
	cCreated     = "rooms created"
	cStarted     = "rooms started"
	cRematches   = "rematches started"
	cMessages    = "messages received"
	cBytes       = "bytes received"
	cPings       = "pings sent"
	cPongs       = "pongs received"
	cLookups     = "look-ups sent"
	cNoRoom      = "answered noRoom"
	cSent        = "messages written"
	cRequests    = "requests"
)

// runawaySpec is the room of attack a: a game of Collect the Symbols on
// the smallest deck, order 2, with one person who never plays and
// seats-1 instant bots. The person's cards never move, and with three
// seats about one deal in five leaves a token only the person could
// take: the bots discard and take piles for ever. (With four seats, the
// spelling in docs/SECURITY.md, every token can be reached and the game ends.)
func runawaySpec(seats int) []byte {
	bots := "null" + strings.Repeat(`,"instant"`, seats-1)
	return []byte(`{"type":"create","room":{"game":"collect-symbols","seats":` + strconv.Itoa(seats) + `,"bots":[` + bots + `],"deck":"order-2","games":1}}`)
}

// runaway is attack a: rooms started with instant bots and left to play
// by themselves, their host reading every message and doing nothing but
// starting a rematch, on a new deal, whenever a game ends: a deal where
// only the idle host could take the last tokens never ends.
func runaway(ctx context.Context, e *env) {
	var wg sync.WaitGroup
	for i := range e.o.Runaway {
		wg.Go(func() {
			c, err := dialWS(ctx, e.dialer, e.wsURL())
			if err != nil {
				e.counts.add(cRefused+": "+errKind(err), 1)
				return
			}
			defer c.close()
			e.counts.add(cConnections, 1)
			if !e.greet(c, "runaway "+strconv.Itoa(i)) {
				return
			}
			c.send(runawaySpec(e.o.RunawaySeats))
			if _, err := c.await("joined"); err != nil {
				e.counts.add("create: "+answerKind(err), 1)
				return
			}
			e.counts.add(cCreated, 1)
			c.send([]byte(`{"type":"start"}`))
			e.counts.add(cStarted, 1)
			stop := context.AfterFunc(ctx, c.close)
			defer stop()
			var msgs, bytes int64
			e.drain(ctx, c, func(b []byte) {
				msgs++
				bytes += int64(len(b))
				if string(b[:min(len(b), 15)]) == `{"type":"lobby"` && strings.Contains(string(b), `"phase":"over"`) {
					// The game ended: a rematch, on a new deal, until one
					// runs away.
					c.send([]byte(`{"type":"start"}`))
					e.counts.add(cRematches, 1)
				}
			})
			e.counts.add(cMessages, msgs)
			e.counts.add(cBytes, bytes)
		})
	}
	wg.Wait()
}

// ghosts is attack b: rooms created by connections that close at once,
// as fast as Workers connections in turn can make them.
func ghosts(ctx context.Context, e *env) {
	var wg sync.WaitGroup
	for w := range e.o.Workers {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				c := e.dial(ctx, 0)
				if c == nil {
					continue
				}
				if e.greet(c, fmt.Sprintf("ghost %d.%d", w, i)) && c.send([]byte(`{"type":"create","room":{"game":"tower","seats":2}}`)) == nil {
					if _, err := c.await("joined"); err != nil {
						e.counts.add("create: "+answerKind(err), 1)
					} else {
						e.counts.add(cCreated, 1)
					}
				}
				c.abort()
			}
		})
	}
	wg.Wait()
}

// hoard is attack c: Hoard WebSocket connections opened (64 at a time)
// and held without a word, answering the server's pings as a live client
// would.
func hoard(ctx context.Context, e *env) {
	holdMany(ctx, e, e.o.Hoard,
		func() (*wsClient, error) { return dialWS(ctx, e.dialer, e.wsURL()) },
		func(c *wsClient) error {
			for {
				if _, err := c.next(); err != nil {
					return err
				}
			}
		},
		(*wsClient).abort)
}

// holdMany is the frame of attacks c and e: n connections opened with
// open, 64 at a time, each held until the server closes it (wait
// returns how it ended) or until ctx is done, when end closes every
// connection still held. It counts the refusals, the connections, those
// the server closed and those held at the end.
func holdMany[C any](ctx context.Context, e *env, n int, open func() (C, error), wait func(C) error, end func(C)) {
	var (
		held   holding[C]
		closed atomic.Int64
		wg     sync.WaitGroup
	)
	sem := make(chan struct{}, 64)
	for range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			c, err := open()
			<-sem
			if err != nil {
				if ctx.Err() == nil {
					e.counts.add(cRefused+": "+errKind(err), 1)
				}
				return
			}
			e.counts.add(cConnections, 1)
			if !held.add(c) {
				end(c) // opened as the span ended
				return
			}
			err = wait(c)
			if ctx.Err() == nil {
				closed.Add(1)
				e.counts.add(closedKind(err), 1)
			}
		})
	}
	<-ctx.Done()
	conns := held.end()
	e.counts.add(cHeldAtEnd, int64(len(conns))-closed.Load())
	for _, c := range conns {
		end(c)
	}
	wg.Wait()
}

// holding is the connections an attack holds, until the end of its span.
type holding[C any] struct {
	mu    sync.Mutex
	conns []C
	ended bool
}

// add holds c, and reports false when the span has ended: c is then for
// the caller to close.
func (h *holding[C]) add(c C) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended {
		return false
	}
	h.conns = append(h.conns, c)
	return true
}

// end ends the span and returns the connections held.
func (h *holding[C]) end() []C {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ended = true
	return h.conns
}

// pingFlood is the first half of attack d: control pings written on one
// connection as fast as it takes them, in batches of 64; a connection the
// server closes is opened again.
func pingFlood(ctx context.Context, e *env) {
	batch := frames(ws.OpPing, []byte("hostile!"), 64)
	for i := 0; ctx.Err() == nil; i++ {
		c := e.open(ctx, "pinger "+strconv.Itoa(i))
		if c == nil {
			continue
		}
		wait := reading(ctx, c, func() { e.drain(ctx, c, nil) })
		var sent int64
		for c.write(batch) == nil {
			sent += 64
		}
		wait()
		e.counts.add(cPings, sent)
		e.counts.add(cPongs, c.pongs.Load())
	}
}

// codeAlphabet is the alphabet of room codes (docs/PROTOCOL.md).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// lookups is the second half of attack d: Workers connections in turn
// say hello, look up Lookups rooms of random codes (join and watch in
// turn) at once, read the answers and go, so that each new connection
// starts with a full budget.
func lookups(ctx context.Context, e *env) {
	var wg sync.WaitGroup
	for w := range e.o.Workers {
		wg.Go(func() {
			var batch []byte
			for i := 0; ctx.Err() == nil; i++ {
				c := e.dial(ctx, 100*time.Millisecond)
				if c == nil {
					continue
				}
				if !e.greet(c, fmt.Sprintf("seeker %d.%d", w, i)) {
					c.abort()
					continue
				}
				batch = batch[:0]
				for j := range e.o.Lookups {
					typ := "join"
					if j%2 == 1 {
						typ = "watch"
					}
					code := make([]byte, 8)
					for k := range code {
						code[k] = codeAlphabet[rand.N(len(codeAlphabet))]
					}
					batch = append(batch, frame(ws.OpText, []byte(`{"type":"`+typ+`","room":"`+string(code)+`"}`))...)
				}
				if c.write(batch) != nil {
					c.abort()
					continue
				}
				e.counts.add(cLookups, int64(e.o.Lookups))
				for range e.o.Lookups {
					_, err := c.await("joined") // every answer to a random code is an error
					if err == nil {
						e.counts.add("found a room", 1)
						continue
					}
					kind := answerKind(err)
					if kind == "error noRoom" {
						e.counts.add(cNoRoom, 1)
						continue
					}
					e.counts.add("answered "+kind, 1)
					if !strings.HasPrefix(kind, "error ") {
						break // the connection ended
					}
				}
				c.abort()
			}
		})
	}
	wg.Wait()
}

// keepAlive is attack e: KeepAlive HTTP/1.1 connections, each asking for
// /healthz once and then held open, idle, as a keep-alive connection
// allows.
func keepAlive(ctx context.Context, e *env) {
	req := []byte("GET /healthz HTTP/1.1\r\nHost: " + e.addr + "\r\n\r\n")
	holdMany(ctx, e, e.o.KeepAlive,
		func() (net.Conn, error) {
			c, err := e.dialer.DialContext(ctx, "tcp", e.addr)
			if err != nil {
				return nil, err
			}
			c.SetDeadline(time.Now().Add(stepTimeout))
			if _, err = c.Write(req); err == nil {
				var resp *http.Response
				br := bufio.NewReader(c)
				if resp, err = http.ReadResponse(br, nil); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("HTTP %d", resp.StatusCode)
					}
				}
			}
			if err != nil {
				c.Close()
				return nil, err
			}
			c.SetDeadline(time.Time{})
			return c, nil
		},
		func(c net.Conn) error {
			var b [1]byte
			_, err := c.Read(b[:])
			return err
		},
		func(c net.Conn) { c.Close() })
}

// spellings is attack f: Workers keep-alive HTTP clients asking for card
// pictures and deck names under spellings that never repeat: order-07,
// order-+007, order-7-0055 with ever more zeros, names of thousands of
// characters, and names that are no deck at all.
func spellings(ctx context.Context, e *env) {
	client := &http.Client{Timeout: 2 * stepTimeout, Transport: &http.Transport{
		DialContext: e.dialer.DialContext, MaxIdleConnsPerHost: e.o.Workers, DisableCompression: true}}
	defer client.CloseIdleConnections()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range e.o.Workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				path := spelling(next.Add(1) - 1)
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+e.addr+path, nil)
				resp, err := client.Do(req)
				if err != nil {
					if ctx.Err() == nil {
						e.counts.add(cRefused+": "+errKind(err), 1)
						sleep(ctx, 100*time.Millisecond)
					}
					continue
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				e.counts.add(cRequests, 1)
				e.counts.add("HTTP "+strconv.Itoa(resp.StatusCode), 1)
				e.counts.add(cBytes, n)
			}
		})
	}
	wg.Wait()
}

// spelling returns the i-th path of attack f. The paths go round four
// forms; each form spells its deck differently for every i.
func spelling(i int64) string {
	k := i / 4
	// The zeros go round 0 to 499 with each number of cards, and there
	// are 500 more of them each time the numbers have gone round.
	zeros := strings.Repeat("0", int(k%500+500*(k/28_000)))
	cards := 2 + (k/500)%56
	m := strconv.FormatInt(cards, 10)
	switch i % 4 {
	case 0: // a card of order 7, M cards, the order padded with zeros
		return "/api/cards/order-" + zeros + "7-" + m + "/" + strconv.FormatInt(k%cards, 10) + ".svg"
	case 1: // the deck's names, the order signed and padded
		return "/api/decks/order-+" + zeros + "7-0" + m
	case 2: // a long name: thousands of zeros before the number of cards
		return "/api/decks/order-7-" + strings.Repeat("0", 1000+int(k%3000)) + m
	default: // a name that is no deck
		return "/api/cards/no-such-deck-" + strconv.FormatInt(k, 36) + strings.Repeat("x", 200) + "/1.svg"
	}
}

// flood is attack g, the control: on one connection at a time, either
// messages (pings of the protocol) written as fast as the connection
// takes them, or one frame of 64 KB, far over the 4 KB a message may
// have; a connection the server closes is opened again.
func flood(ctx context.Context, e *env) {
	batch := frames(ws.OpText, []byte(`{"type":"ping"}`), 64)
	big := frame(ws.OpText, []byte(`{"type":"ping","nonce":"`+strings.Repeat("x", 64<<10)+`"}`))
	for i := 0; ctx.Err() == nil; i++ {
		c := e.open(ctx, "flood "+strconv.Itoa(i))
		if c == nil {
			continue
		}
		wait := reading(ctx, c, func() {
			var pongs, limited int64
			e.drain(ctx, c, func(b []byte) {
				switch {
				case strings.Contains(string(b), `"type":"pong"`):
					pongs++
				case strings.Contains(string(b), `"rateLimited"`):
					limited++
				}
			})
			e.counts.add("answered pong", pongs)
			e.counts.add("answered rateLimited", limited)
		})
		if i%2 == 1 {
			if c.write(big) == nil {
				e.counts.add("oversized frames sent", 1)
			}
		} else {
			var sent int64
			for c.write(batch) == nil {
				sent += 64
			}
			e.counts.add(cSent, sent)
		}
		wait()
	}
}

// closedKind names the end of a connection the server closed: its close
// status and reason, or how the connection ended without one.
func closedKind(err error) string {
	k := errKind(err)
	if strings.HasPrefix(k, cClosed) {
		return k
	}
	return cClosed + ": " + k
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
