// Package fairrace measures how fair a dobble server's races are across
// networks: rooms of two people playing the Tower, each behind a network
// of its own (a round trip added to its connection in this process), each
// reacting to every card after a time drawn from the same distribution. It
// counts the races, who won them, and how many the slower reaction won,
// and reads from the server's /metrics how long its rooms held claims for
// earlier reactions. One client may fake a longer round trip by holding
// back its pongs. scripts/bench-fair runs it against dobble serve with
// claims ranked by arrival and by reaction, and writes docs/BENCHMARKS.md.
package fairrace

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobwas/ws"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// Player is one seat of every room: its network and how it answers pings.
type Player struct {
	// RTT is the round trip of its network, half of it each way.
	RTT time.Duration
	// HoldPongs is how long it holds back each pong, on top: a client
	// faking a longer round trip than its network's.
	HoldPongs time.Duration
}

// Options are what a run does.
type Options struct {
	// URL is the server's root, http://127.0.0.1:PORT/.
	URL string
	// Rooms is how many rooms play at once.
	Rooms int
	// Span is how long they play.
	Span time.Duration
	// Players are the two seats: the host, then the guest.
	Players [2]Player
	// Mean and SD are those of the normal distribution every reaction is
	// drawn from (at least MinReaction).
	Mean, SD time.Duration
	// Seed seeds the draws.
	Seed uint64
}

// MinReaction is the least reaction drawn: none is faster than a quick
// person's.
const MinReaction = 250 * time.Millisecond

// Result is what a run counted.
type Result struct {
	// Races are the cards both seats reacted to: each drew a reaction to
	// the same view.
	Races int
	// Wins are the races each seat won.
	Wins [2]int
	// SlowerWon are the races won by the seat whose reaction was slower.
	SlowerWon int
	// Faster30 are the races in which the guest reacted 30 ms or more
	// faster than the host, and Faster30Won those of them it won.
	Faster30, Faster30Won int
	// WaitP50 and WaitP99 are the median and 99th percentile of the time
	// the server held a claim for earlier reactions, in seconds, from its
	// dobble_fair_wait_seconds; WaitN the claims counted (0 when the
	// server ranks by arrival).
	WaitP50, WaitP99 float64
	WaitN            int
}

// Share returns the guest's share of the races it won, with the bounds
// of its 95 % Wilson interval.
func (r Result) Share() (share, lo, hi float64) {
	n := float64(r.Wins[0] + r.Wins[1])
	if n == 0 {
		return 0, 0, 0
	}
	p := float64(r.Wins[1]) / n
	const z = 1.96
	c := p + z*z/(2*n)
	d := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	k := 1 + z*z/n
	return p, (c - d) / k, (c + d) / k
}

// race is one card of one table, as the two seats reacted to it.
type race struct {
	drawn  [2]bool
	react  [2]time.Duration
	winner int // -1 until known
}

// room is two clients and the races of their tables.
type room struct {
	mu    sync.Mutex
	races map[[2]uint64]*race // by table and version
}

// get returns the race of the card at version v of table t; r.mu is held.
func (r *room) get(t int, v uint64) *race {
	k := [2]uint64{uint64(t), v}
	rc := r.races[k]
	if rc == nil {
		rc = &race{winner: -1}
		r.races[k] = rc
	}
	return rc
}

// Run plays the rooms for o.Span and counts their races.
func Run(ctx context.Context, o Options) (Result, error) {
	before, err := scrapeWait(o.URL)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.Span)
	defer cancel()
	rooms := make([]*room, o.Rooms)
	errc := make(chan error, o.Rooms)
	var wg sync.WaitGroup
	for i := range rooms {
		rooms[i] = &room{races: map[[2]uint64]*race{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := play(ctx, o, rooms[i], uint64(i)); err != nil && ctx.Err() == nil {
				errc <- err
				cancel()
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errc:
		return Result{}, err
	default:
	}
	after, err := scrapeWait(o.URL)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for _, r := range rooms {
		for _, rc := range r.races {
			if !rc.drawn[0] || !rc.drawn[1] || rc.winner < 0 {
				continue
			}
			res.Races++
			res.Wins[rc.winner]++
			if rc.react[rc.winner] > rc.react[1-rc.winner] {
				res.SlowerWon++
			}
			if rc.react[0]-rc.react[1] >= 30*time.Millisecond {
				res.Faster30++
				if rc.winner == 1 {
					res.Faster30Won++
				}
			}
		}
	}
	res.WaitN, res.WaitP50, res.WaitP99 = after.sub(before)
	return res, nil
}

// play plays one room until ctx is done.
func play(ctx context.Context, o Options, r *room, n uint64) error {
	host, err := dial(ctx, o, 0, n)
	if err != nil {
		return err
	}
	defer host.close()
	guest, err := dial(ctx, o, 1, n)
	if err != nil {
		return err
	}
	defer guest.close()
	host.send(`{"type":"create","room":{"game":"tower","seats":2,"games":1}}`)
	m, err := host.await("joined")
	if err != nil {
		return err
	}
	var code string
	json.Unmarshal(m.Room, &code)
	guest.send(`{"type":"join","room":` + strconv.Quote(code) + `}`)
	if _, err := guest.await("joined"); err != nil {
		return err
	}
	host.send(`{"type":"start"}`)
	errc := make(chan error, 2)
	for _, c := range []*client{host, guest} {
		go func() { errc <- c.play(ctx, r) }()
	}
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	host.close()
	guest.close()
	return err
}

// message is a server message, with the fields a client uses.
type message struct {
	Type   string          `json:"type"`
	Code   string          `json:"code"`
	Room   json.RawMessage `json:"room"`
	Table  int             `json:"table"`
	View   *rules.View     `json:"view"`
	Events []struct {
		Kind string `json:"kind"`
		Seat int    `json:"seat"`
	} `json:"events"`
}

// client is one seat's connection.
type client struct {
	o    Options
	seat int
	nc   net.Conn
	br   *bufio.Reader
	rnd  *rand.Rand
	wmu  sync.Mutex
	msgs chan *message

	mu    sync.Mutex
	plan  uint64 // the number of the current plan; a timer of another is void
	table int
	mind  rules.Player
	last  uint64 // the version the last plan answered, +1 (0 for none)
}

// dial connects seat's client of room n and says hello.
func dial(ctx context.Context, o Options, seat int, n uint64) (*client, error) {
	p := o.Players[seat]
	d := ws.Dialer{NetDial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return delay(c, p.RTT), nil
	}}
	url := "ws://" + strings.TrimSuffix(strings.TrimPrefix(o.URL, "http://"), "/") + "/ws"
	nc, br, _, err := d.Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	if br == nil {
		br = bufio.NewReader(nc)
	}
	c := &client{o: o, seat: seat, nc: nc, br: br, rnd: rand.New(rand.NewPCG(o.Seed, n*2+uint64(seat))), msgs: make(chan *message, 64)}
	go c.read()
	c.send(`{"type":"hello","v":1,"name":"fair` + strconv.Itoa(seat) + `"}`)
	if _, err := c.await("welcome"); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// close ends the connection.
func (c *client) close() { c.nc.Close() }

// send writes one text message.
func (c *client) send(s string) { c.write(ws.OpText, []byte(s)) }

// write writes one frame, masked.
func (c *client) write(op ws.OpCode, p []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	ws.WriteFrame(c.nc, ws.MaskFrameInPlace(ws.NewFrame(op, true, append([]byte(nil), p...))))
}

// read reads the frames: it answers pings, after HoldPongs, and hands the
// messages on.
func (c *client) read() {
	defer close(c.msgs)
	for {
		h, err := ws.ReadHeader(c.br)
		if err != nil {
			return
		}
		b := make([]byte, h.Length)
		if _, err := io.ReadFull(c.br, b); err != nil {
			return
		}
		switch h.OpCode {
		case ws.OpPing:
			if hold := c.o.Players[c.seat].HoldPongs; hold > 0 {
				time.AfterFunc(hold, func() { c.write(ws.OpPong, b) })
			} else {
				c.write(ws.OpPong, b)
			}
		case ws.OpClose:
			return
		case ws.OpText:
			m := &message{}
			if json.Unmarshal(b, m) == nil {
				c.msgs <- m
			}
		}
	}
}

// await returns the next message of type typ, dropping the others.
func (c *client) await(typ string) (*message, error) {
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case m, ok := <-c.msgs:
			switch {
			case !ok:
				return nil, errors.New("the server closed the connection")
			case m.Type == "error":
				return nil, fmt.Errorf("the server answered %s", m.Code)
			case m.Type == typ:
				return m, nil
			}
		case <-t.C:
			return nil, fmt.Errorf("no %s within 10s", typ)
		}
	}
}

// play plays the room's tables: it draws a reaction to every view in
// which it has a match, claims when it is up, unless a newer view came
// first, and takes note of who won each card.
func (c *client) play(ctx context.Context, r *room) error {
	for {
		var m *message
		var ok bool
		select {
		case m, ok = <-c.msgs:
			if !ok {
				return errors.New("the server closed the connection")
			}
		case <-ctx.Done():
			return nil
		}
		switch m.Type {
		case "state", "update":
			if m.View == nil {
				continue
			}
			if m.Type == "update" && len(m.Events) > 0 && m.Events[0].Kind == rules.EventClaim.String() {
				r.mu.Lock()
				if rc := r.get(m.Table, m.View.Version-1); rc.winner < 0 {
					rc.winner = m.Events[0].Seat
				}
				r.mu.Unlock()
			}
			c.react(r, m)
		case "lobby":
			var l struct {
				Phase string `json:"phase"`
			}
			json.Unmarshal(m.Room, &l)
			if l.Phase == "over" && c.seat == 0 {
				c.send(`{"type":"start"}`)
			}
		case "error":
			return fmt.Errorf("the server answered %s", m.Code)
		}
	}
}

// react plans a claim answering the view of m, after a reaction drawn
// now.
func (c *client) react(r *room, m *message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := m.View
	c.plan++
	if v.Over || v.Seat < 0 {
		return
	}
	if m.Type == "state" || c.mind == nil || m.Table != c.table {
		g, err := rules.Lookup(v.Game)
		if err != nil {
			return
		}
		c.mind, c.table = rules.NewPlayer(g), m.Table
	}
	c.mind.Observe(v)
	var a rules.Action
	if !c.mind.Decide(v, &a) {
		return
	}
	d := max(MinReaction, time.Duration(c.rnd.NormFloat64()*float64(c.o.SD))+c.o.Mean)
	r.mu.Lock()
	rc := r.get(m.Table, v.Version)
	if !rc.drawn[c.seat] {
		rc.drawn[c.seat], rc.react[c.seat] = true, d
	}
	r.mu.Unlock()
	plan := c.plan
	req := protocol.Action(a, m.Table, strconv.FormatUint(v.Version, 10))
	req.Action.Version = v.Version
	frame := string(protocol.AppendRequest(nil, req))
	time.AfterFunc(d, func() {
		c.mu.Lock()
		live := c.plan == plan
		c.mu.Unlock()
		if live {
			c.send(frame)
		}
	})
}

// histogram is the server's dobble_fair_wait_seconds: cumulative counts
// by upper bound.
type histogram struct {
	bounds []float64
	counts []float64
}

// scrapeWait reads the server's dobble_fair_wait_seconds.
func scrapeWait(url string) (histogram, error) {
	resp, err := http.Get(strings.TrimSuffix(url, "/") + "/metrics")
	if err != nil {
		return histogram{}, err
	}
	defer resp.Body.Close()
	var h histogram
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, `dobble_fair_wait_seconds_bucket{le="`)
		if !ok {
			continue
		}
		le, count, ok := strings.Cut(rest, `"} `)
		if !ok {
			continue
		}
		b, err1 := strconv.ParseFloat(le, 64)
		n, err2 := strconv.ParseFloat(count, 64)
		if le == "+Inf" {
			b, err1 = math.Inf(1), nil
		}
		if err1 != nil || err2 != nil {
			return histogram{}, fmt.Errorf("/metrics: %q", line)
		}
		h.bounds = append(h.bounds, b)
		h.counts = append(h.counts, n)
	}
	if len(h.bounds) == 0 {
		return histogram{}, errors.New("/metrics has no dobble_fair_wait_seconds: is this a server that ranks claims by reaction?")
	}
	return h, sc.Err()
}

// sub returns the count of the observations made between b and h, and
// their median and 99th percentile, interpolated within the buckets.
func (h histogram) sub(b histogram) (int, float64, float64) {
	counts := make([]float64, len(h.counts))
	for i := range counts {
		counts[i] = h.counts[i]
		if i < len(b.counts) {
			counts[i] -= b.counts[i]
		}
	}
	total := counts[len(counts)-1]
	q := func(p float64) float64 {
		rank := p * total
		lo, below := 0.0, 0.0
		for i, n := range counts {
			if n >= rank {
				hi := h.bounds[i]
				if math.IsInf(hi, 1) || n == below {
					return lo
				}
				return lo + (hi-lo)*(rank-below)/(n-below)
			}
			lo, below = h.bounds[i], n
		}
		return lo
	}
	if total == 0 {
		return 0, 0, 0
	}
	return int(total), q(0.5), q(0.99)
}
