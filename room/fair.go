package room

import (
	"fmt"
	"slices"
	"time"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/table"
)

// This file makes a room's races fair across networks: people's claims are
// ranked by their estimated reaction, not by their arrival.
//
// Each time the table changes, the room takes note, for every seat, of
// when it sent the new view and of the seat's round trip as then
// estimated (Peer.RTT). A person's action arriving at a is credited with
// c = min(round trip, cap, quota) and ranked at a − c: the time it would
// have arrived over no network at all, the moment the seat saw the view
// plus its reaction. The table's driver runs on that time: it carries out
// everything ranked up to the room's horizon, now less the largest credit
// any seat that can still claim could be given, as nothing ranked earlier
// can arrive any more. The first valid claim of a card is thus held at
// most that largest credit less its own, never more than the cap, for
// claims that reacted earlier; then the table decides by the rules, which
// refuse the slower claims as too late.
//
// The credit is drawn from a quota that each change of the table refills
// by the cap, up to three times the cap (as chess servers compensate clock
// lag): a seat that claims again and again on one card is credited once.
// A claim whose estimated reaction would be under the human floor
// (FairFloor) is credited nothing. A bot races as a person whose round
// trip is Config.BotNetDelay: its actions go through that delay, and are
// credited with it, at most the cap. With the cap off (Config.FairCap
// NoFair, for a LAN) the credit is 0, the horizon is now and the bots'
// actions go through no delay: the first claim to arrive wins.
//
// Everything a decision depends on is in the journal, so that a replay
// decides the same: the settings, in the entry of the turn that began the
// table, and each round trip read, in the entry of its turn.

// NoFair turns off the ranking by reaction (Config.FairCap).
const NoFair = -1

// FairFloor is the human floor: no person sees a change and reacts to it
// in less, so a claim that would have reacted faster is credited nothing.
const FairFloor = 100 * time.Millisecond

// fairSettings are the settings of a table's ranking by reaction, in
// milliseconds, as the journal keeps them.
type fairSettings struct {
	// Net is the network delay the driver gives the bots' actions
	// (table.Config.NetDelay).
	Net   int64 `json:"net"`
	Cap   int64 `json:"cap"`
	Gain  int64 `json:"gain"`
	Most  int64 `json:"most"`
	Floor int64 `json:"floor"`
	Bot   int64 `json:"bot"`
}

// fairTable is the ranking by reaction at the table being played.
type fairTable struct {
	set  fairSettings
	now  time.Time   // the time of the turn moving the table on (the room's clock)
	seen []seenView  // by seat of the game
	held []*heldItem // people's actions waiting for the horizon, by rank
	n    int         // actions held so far, for the order of equal ranks
}

// seenView is what the room knows of the last views it sent a seat.
type seenView struct {
	view          // the last
	past  [3]view // the ones before, the latest first
	quota int64   // the credit the seat may still be given
	human bool
}

// view is a view of the table the room sent a seat.
type view struct {
	version uint64    // the table's version
	sent    time.Time // when it was sent
	rtt     int64     // the seat's round trip then, in milliseconds
	there   bool      // a person's connection was there to be sent it
}

// answered returns the view an action made against version answers: the
// one of that version if the room still knows it, else the last.
func (v *seenView) answered(version uint64) view {
	for _, p := range v.past {
		if p.version == version && !p.sent.IsZero() {
			return p
		}
	}
	return v.view
}

// heldItem is a person's action waiting for the horizon.
type heldItem struct {
	in    *input
	a     rules.Action // its At is its rank
	tm    record.Timing
	n     int
	since time.Time // when it arrived
}

// on reports whether the table ranks by reaction.
func (f *fairTable) on() bool { return f != nil && f.set.Cap > 0 }

// fairSettingsNow returns the settings for a table starting now: in a
// replay, those its entry holds (none, ranking by arrival, for a journal
// written before them); live, the Manager's, which go to the journal.
func (r *Room) fairSettingsNow() fairSettings {
	if r.replaying {
		if r.replayFair == nil {
			return fairSettings{}
		}
		return *r.replayFair
	}
	c := r.m.cfg
	net := c.BotNetDelay.Milliseconds()
	var set fairSettings
	if c.FairCap > 0 {
		// The bots' delay is credited like a person's round trip: the
		// driver, which runs on the time of reactions, gives their
		// actions only what is not credited.
		ms := c.FairCap.Milliseconds()
		set = fairSettings{Cap: ms, Gain: ms, Most: 3 * ms, Floor: FairFloor.Milliseconds(), Bot: min(net, ms)}
		set.Net = net - set.Bot
	}
	// A table ranked by arrival, with no delay for the bots, needs no
	// settings: its entry is as a journal written before them has it.
	if r.m.journal != nil && set != (fairSettings{}) {
		r.cur.Fair = &set
	}
	return set
}

// beginFair sets up the ranking by reaction for the table beginning now.
func (r *Room) beginFair(set fairSettings, seats int, now time.Time) {
	r.fair = &fairTable{set: set, now: now, seen: make([]seenView, seats)}
	for gs := range r.fair.seen {
		r.fair.seen[gs].quota = set.Most
	}
}

// readRTT returns the round trip of the person at room seat seat, in
// milliseconds, as the ranking reads it: live, from its connection (0
// without one), taken down in the turn's journal entry; in a replay, from
// the entry.
func (r *Room) readRTT(seat int) int64 {
	if r.replaying {
		if len(r.rtts) == 0 {
			return 0
		}
		v := r.rtts[0]
		r.rtts = r.rtts[1:]
		return v
	}
	var v int64
	if p := r.seats[seat].peer; p != nil {
		v = p.RTT().Milliseconds()
	}
	if r.m.journal != nil {
		r.cur.RTTs = append(r.cur.RTTs, v)
	}
	return v
}

// shown takes note that every seat was just sent a new view of the
// table: when, with what round trip, and refills the quotas.
func (r *Room) shown() {
	f := r.fair
	if !f.on() {
		return
	}
	version := r.tab.State().Version()
	for gs := range f.seen {
		v := &f.seen[gs]
		s := r.seats[r.at[gs]]
		copy(v.past[1:], v.past[:])
		v.past[0] = v.view
		v.view = view{version: version, sent: f.now}
		v.human = s.kind == protocol.KindHuman
		v.quota = min(v.quota+f.set.Gain, f.set.Most)
		if v.human {
			v.there = s.peer != nil
			v.rtt = r.readRTT(r.at[gs])
		}
	}
}

// canCredit returns the most credit seat gs could be given now, for an
// action answering the last view it was sent.
func (f *fairTable) canCredit(gs int) int64 { return f.credit(gs, f.seen[gs].view) }

// credit returns the most credit seat gs could be given now for an
// action answering view v.
func (f *fairTable) credit(gs int, v view) int64 {
	seen := &f.seen[gs]
	if !seen.human {
		return f.set.Bot
	}
	if !v.there {
		return 0
	}
	return min(v.rtt, f.set.Cap, seen.quota)
}

// window returns the largest credit among the seats that can still
// claim: those with a move, that have not claimed since the table last
// changed.
func (r *Room) window() int64 {
	f := r.fair
	if !f.on() || r.tab == nil || r.tab.Over() {
		return 0
	}
	movers := r.tab.State().Movers()
	var w int64
	for gs := range f.seen {
		if movers&(1<<gs) == 0 || slices.ContainsFunc(f.held, func(h *heldItem) bool { return h.a.Seat == gs }) {
			continue
		}
		w = max(w, f.canCredit(gs))
	}
	return w
}

// horizon returns the table's time up to which everything can be
// decided by now.
func (r *Room) horizon(now time.Time) int64 {
	return r.elapsed(now) - r.window()
}

// rank credits action a, of seat gs at the table, arriving with in, and
// holds it until the horizon passes its rank.
func (r *Room) rank(gs int, a rules.Action, in *input) {
	f := r.fair
	seen := &f.seen[gs]
	v := seen.answered(a.Version)
	arrival := r.elapsed(in.at)
	shown := r.elapsed(v.sent)
	credit := f.credit(gs, v)
	if in.at.Sub(v.sent).Milliseconds()-credit < f.set.Floor {
		credit = 0
	}
	seen.quota -= credit
	a.At = arrival - credit
	f.n++
	f.held = append(f.held, &heldItem{in: in, a: a, n: f.n, since: in.at,
		tm: record.Timing{Arrival: arrival, Shown: shown, RTT: v.rtt, Credit: credit, Reaction: arrival - shown - credit}})
	slices.SortStableFunc(f.held, func(x, y *heldItem) int {
		if x.a.At != y.a.At {
			return int(x.a.At - y.a.At)
		}
		return x.n - y.n
	})
}

// nextHeld returns when the first action held is decided, on the room's
// clock.
func (r *Room) nextHeld() (time.Time, bool) {
	f := r.fair
	if !f.on() || len(f.held) == 0 {
		return time.Time{}, false
	}
	return r.wallTime(f.held[0].a.At + r.window()), true
}

// drive has the table's driver do everything ranked up to the horizon of
// now, the actions held among it, in order. It reports false when the
// room closed.
func (r *Room) drive(now time.Time) bool {
	if r.fair != nil {
		r.fair.now = now
	}
	for {
		if !r.dropStale() {
			return false
		}
		h := r.horizon(now)
		if f := r.fair; f.on() && len(f.held) > 0 && f.held[0].a.At <= h {
			item := f.held[0]
			f.held = f.held[1:]
			if !r.advanceTo(item.a.At) {
				return false
			}
			if r.tab.Over() {
				f.held = append([]*heldItem{item}, f.held...)
				return true
			}
			r.m.metrics.FairWait.Observe(now.Sub(item.since).Seconds())
			if !r.submitHeld(item) {
				return false
			}
			continue
		}
		return r.advanceTo(h)
	}
}

// dropStale answers at once the actions held that answer a view older
// than the table's, which can only be refused as too late (unless the
// game is rules.Lenient, where they wait for their turn); it reports
// false when the room closed.
func (r *Room) dropStale() bool {
	f := r.fair
	if !f.on() || len(f.held) == 0 || r.tab.Over() {
		return true
	}
	st := r.tab.State()
	if _, lenient := st.Game().(rules.Lenient); lenient {
		return true
	}
	kept := f.held[:0]
	var stale []*heldItem
	for _, item := range f.held {
		if item.a.Version < st.Version() {
			stale = append(stale, item)
		} else {
			kept = append(kept, item)
		}
	}
	f.held = kept
	for _, item := range stale {
		// A refusal as too late changes nothing: it needs no turn.
		item.a.At = min(item.a.At, r.tab.Now())
		if !r.submitHeld(item) {
			return false
		}
	}
	return true
}

// advanceTo has the table's driver do everything due up to ms; it
// reports false when the room closed.
func (r *Room) advanceTo(ms int64) bool {
	for {
		err := r.tab.Advance(ms)
		if err == nil {
			return true
		}
		if _, ok := err.(*table.PlanError); !ok {
			r.close(fmt.Sprintf("the game could not go on: %v", err))
			return false
		}
		// A bot's action refused for another reason than a false alarm
		// or lateness: counted by the observer; the bot has planned
		// again and the table goes on.
	}
}

// submitHeld carries out a held action at the table, recording its timing,
// and answers its sender when it is refused; it reports false when the
// room closed.
func (r *Room) submitHeld(item *heldItem) bool {
	w := r.rec.w
	w.Time(&item.tm)
	_, err := r.tab.Submit(item.a)
	r.countDeferred()
	ref, refused := err.(*rules.Refusal)
	if refused && w.Timed() {
		// A refusal that changed nothing (too late): the record keeps
		// it for its timing, unless the game was already over.
		if r.tab.Over() {
			w.Time(nil)
		} else if err := w.Refused(item.a, ref); err != nil {
			r.close(fmt.Sprintf("the game could not go on: %v", err))
			return false
		}
	}
	w.Time(nil)
	if refused {
		r.send(item.in.peer, r.refusedFrame(&protocol.Refused{ID: item.in.ID, Table: r.tableNo, Code: ref.Code, Reason: ref.Reason(),
			Version: ref.Version, Current: r.tab.State().Version(), LockedUntil: ref.LockedUntil}))
	} else if err != nil {
		r.close(fmt.Sprintf("the game could not go on: %v", err))
		return false
	}
	if !r.replaying {
		r.m.metrics.ClaimLatency.Observe(r.now().Sub(item.in.at).Seconds())
	}
	return true
}

// endFair answers the actions still held once the table's game is over:
// they came too late.
func (r *Room) endFair() {
	f := r.fair
	if f == nil {
		return
	}
	for _, item := range f.held {
		r.m.metrics.Claims.WithLabelValues(rules.CodeGameOver.String()).Inc()
		r.send(item.in.peer, r.refusedFrame(&protocol.Refused{ID: item.in.ID, Table: r.tableNo, Code: rules.CodeGameOver,
			Reason: "the game is over", Version: item.a.Version, Current: r.tab.State().Version()}))
	}
	f.held = nil
}
