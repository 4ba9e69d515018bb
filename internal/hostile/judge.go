package hostile

import (
	"fmt"
	"strings"
)

// The judges of the kinds: each says whether the server bounded what its
// attack took (the server's memory is judged for every kind besides, by
// Result.memoryBounded) and sums up the figures in one line.

// count returns the count of name in r's attack.
func (r *Result) count(name string) int64 {
	for _, c := range r.Attack {
		if c.Name == name {
			return c.N
		}
	}
	return 0
}

// countPrefixed adds up the counts of r's attack whose names begin with
// prefix.
func (r *Result) countPrefixed(prefix string) int64 {
	var n int64
	for _, c := range r.Attack {
		if strings.HasPrefix(c.Name, prefix) {
			n += c.N
		}
	}
	return n
}

// perSecond is n a second of r's span.
func (r *Result) perSecond(n int64) float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(n) / r.Seconds
}

// defaultBurst is the messages a connection may send at once by
// default (dobble serve --burst).
const defaultBurst = 40

// grew says how much the server's memory grew during the span.
func (r *Result) grew() string {
	s := fmt.Sprintf("memory %+.0f MB (%+.0f MB in the second half)", mb(r.RSS.Peak-r.RSS.Start), mb(r.RSS.End-max(r.RSS.Mid, r.RSS.Start)))
	if r.KilledAtCap {
		s += " (killed at the cap)"
	}
	return s
}

// mb is n bytes in MiB.
func mb(n int64) float64 { return float64(n) / (1 << 20) }

// judgeRunaway: the runaway room is judged by the server's memory; its
// bots' actions are counted by the server.
func judgeRunaway(r *Result, o *Options) (bool, string) {
	bots := max(r.ServerActions-r.Normal.Actions, 0)
	return true, fmt.Sprintf("%d rooms started, %d rematches; %d bot actions (%.0f/s), %d messages (%.1f MB) to the idle host; %s",
		r.count(cStarted), r.count(cRematches), bots, r.perSecond(bots), r.count(cMessages), mb(r.count(cBytes)), r.grew())
}

// judgeGhosts: bounded when a newcomer could open a room every time.
func judgeGhosts(r *Result, o *Options) (bool, string) {
	created, full := r.count(cCreated), r.count("create: error serverFull")
	other := r.countPrefixed("create: ") - full + r.countPrefixed(cRefused) + r.countPrefixed("hello: ")
	ok := r.Newcomer.Tried > 0 && r.Newcomer.OK == r.Newcomer.Tried
	return ok, fmt.Sprintf("%d ghost rooms created (%.0f/s), %d refused serverFull, %d other refusals; rooms open %.0f at the end (peak %.0f); newcomer %d of %d",
		created, r.perSecond(created), full, other, r.Rooms.End, r.Rooms.Peak, r.Newcomer.OK, r.Newcomer.Tried)
}

// judgeHeld judges the attacks that hold connections (c, e): bounded
// when the server refused or closed some of them.
func judgeHeld(r *Result, o *Options) (bool, string) {
	opened, held := r.count(cConnections), r.count(cHeldAtEnd)
	refused, closed := r.countPrefixed(cRefused), r.countPrefixed(cClosed)
	return refused+closed > 0, fmt.Sprintf("%d of %d opened held at the end; %d refused, %d closed by the server; server connections peak %.0f",
		held, opened, refused, closed, r.Connections.Peak)
}

func judgeHoard(r *Result, o *Options) (bool, string)     { return judgeHeld(r, o) }
func judgeKeepAlive(r *Result, o *Options) (bool, string) { return judgeHeld(r, o) }

// judgePing: bounded when the server closed the flooding connection, or
// answered fewer than half its pings.
func judgePing(r *Result, o *Options) (bool, string) {
	pings, pongs, closed := r.count(cPings), r.count(cPongs), r.countPrefixed(cClosed)
	return closed > 0 || pongs*2 < pings, fmt.Sprintf("%d pings (%.0f/s), %d pongs; closed by the server %d times",
		pings, r.perSecond(pings), pongs, closed)
}

// judgeLookups: bounded when the look-ups of new connections were
// refused (rate-limited beyond what one connection's burst explains) or
// the connections themselves were.
func judgeLookups(r *Result, o *Options) (bool, string) {
	noRoom, conns := r.count(cNoRoom), r.count(cConnections)
	limited := r.count("answered error rateLimited")
	refused := r.countPrefixed(cRefused) + r.countPrefixed("answered closed") + r.countPrefixed("hello: ")
	own := conns * int64(max(o.Lookups+1-defaultBurst, 0))
	return limited > own || refused > 0, fmt.Sprintf("%d look-ups answered noRoom (%.0f/s) over %d connections; %d rate-limited, %d connections refused or closed",
		noRoom, r.perSecond(noRoom), conns, limited, refused)
}

// judgeSpellings: judged by the server's memory.
func judgeSpellings(r *Result, o *Options) (bool, string) {
	reqs := r.count(cRequests)
	var statuses []string
	for _, c := range r.Attack {
		if strings.HasPrefix(c.Name, "HTTP ") {
			statuses = append(statuses, fmt.Sprintf("%d× %s", c.N, strings.TrimPrefix(c.Name, "HTTP ")))
		}
	}
	return true, fmt.Sprintf("%d requests (%.0f/s): %s; %s", reqs, r.perSecond(reqs), strings.Join(statuses, ", "), r.grew())
}

// judgeFlood: bounded when the server closed floods (1008) and oversized
// frames (1009).
func judgeFlood(r *Result, o *Options) (bool, string) {
	floods, big := r.countPrefixed(cClosed+": 1008"), r.countPrefixed(cClosed+": 1009")
	return floods > 0 && big > 0, fmt.Sprintf("%d messages written, %d answered rateLimited; %d closes for a flood (1008), %d for a 64 KB frame (1009)",
		r.count(cSent), r.count("answered rateLimited"), floods, big)
}
