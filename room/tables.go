package room

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/table"
)

// tableRecord is the record of the table being played.
type tableRecord struct {
	buf      bytes.Buffer
	w        *record.Writer
	started  time.Time
	seats    []string
	deck     string
	tieBreak bool
	// session is the table's session line, written after its result;
	// nil in a one-seat room.
	session *record.Session
}

// startCountdown announces the table just set up and starts it after the
// countdown.
func (r *Room) startCountdown(now time.Time) {
	r.phase, r.deadline = PhaseCountdown, now.Add(r.m.cfg.Countdown)
	r.tab = nil
	r.broadcast(protocol.Encode(protocol.Countdown{Ms: r.m.cfg.Countdown.Milliseconds(), Table: r.table(), Game: r.play.State().Info().Name}), nil)
}

// deckOf returns the deck the game called name plays with.
func (r *Room) deckOf(name string) *Deck {
	if d, ok := r.own[name]; ok {
		return d
	}
	return r.main
}

// beginTable starts play at the current table: its driver with the bots
// and the record, and everyone's state. The bots of a table are seeded
// with session.BotSeed of the session's seed and the table's number.
func (r *Room) beginTable(now time.Time) {
	r.phase, r.start = PhasePlay, now
	st := r.play.State()
	r.at, r.tableNo = r.play.Seats(), r.table()
	seed := session.BotSeed(r.seed, r.play.Table())
	bots := make([]*bot.Bot, len(r.at))
	names := make([]string, len(r.at))
	for gs, seat := range r.at {
		s := r.seats[seat]
		names[gs] = s.name
		if s.kind == protocol.KindBot {
			level, _ := bot.LookupLevel(s.level)
			bots[gs] = bot.New(level, gs, seed)
		}
	}
	d := r.deckOf(st.Info().Name)
	rec := &tableRecord{started: now, seats: names, deck: d.Name, tieBreak: r.play.Phase() == session.PhaseTieBreak}
	if s, ok := r.play.(*session.Session); ok {
		rec.session = record.SessionStart(s)
	}
	rec.w = record.NewWriter(&rec.buf)
	r.rec = rec
	cfg := &r.m.cfg
	fair := r.fairSettingsNow()
	r.tab = table.New(table.Config{Bots: bots, Record: rec.w, Deck: d.Desc, Seats: names,
		Apply: r.applyAtTable, Observer: (*tableObserver)(r),
		MinDelay: cfg.BotDelay.Milliseconds(), NetDelay: fair.Net, BotRate: cfg.BotRate, BotBurst: cfg.BotBurst})
	r.beginFair(fair, len(r.at), now)
	r.deferred = 0
	if err := r.tab.Reset(st, seed); err != nil {
		r.close(fmt.Sprintf("the game could not start: %v", err))
		return
	}
	r.broadcastState(now)
	r.shown()
}

// advance has the table's driver do everything due by now: the bots'
// actions and the ticks of the game's clock; it finishes the table when
// its game ends.
func (r *Room) advance(now time.Time) {
	if !r.drive(now) {
		return
	}
	r.countDeferred()
	if r.tab.Over() {
		r.finishTable(now)
	}
}

// countDeferred counts in the metrics the bots' actions the table's driver
// put off since the last call, because the room had reached its bound on
// the bots' actions, and logs the first of a table.
func (r *Room) countDeferred() {
	n := r.tab.Stats().Deferred
	if n == r.deferred {
		return
	}
	if r.deferred == 0 {
		r.m.cfg.Log.Warn("room: the bots reached the room's bound on their actions; their actions are put off",
			"room", r.code, "table", r.tableNo, "game", r.tab.State().Info().Name,
			"rate", r.m.cfg.BotRate, "burst", r.m.cfg.BotBurst)
	}
	r.m.metrics.BotsDeferred.Add(float64(n - r.deferred))
	r.deferred = n
}

// applyAtTable carries out action a at the current table, its seat a seat
// of the table's game (table.Config.Apply), through the session, which
// moves on when the game ends.
func (r *Room) applyAtTable(a *rules.Action, ev []rules.Event) ([]rules.Event, error) {
	return r.play.Play(*a, ev)
}

// tableObserver is a Room as the observer of its table's driver: it
// broadcasts every accepted action and counts every action by outcome.
type tableObserver Room

// Accepted sends everyone the events of an accepted action.
func (o *tableObserver) Accepted(a *rules.Action, ev []rules.Event) {
	r := (*Room)(o)
	if a.Kind != rules.ActionTick {
		r.m.metrics.accepted.Inc()
	}
	r.broadcastUpdate(a.At, ev)
	r.shown()
}

// Refused counts a refused action; the room answers a person's itself.
func (o *tableObserver) Refused(_ *rules.Action, ref *rules.Refusal) {
	(*Room)(o).m.metrics.Claims.WithLabelValues(ref.Code.String()).Inc()
}

// finishTable stores the finished table's record, its session line last,
// tells everyone how it ended and moves on to what the session does next.
func (r *Room) finishTable(now time.Time) {
	r.endFair()
	st, rec := r.tab.State(), r.rec
	res := st.Result()
	if r.deferred > 0 {
		r.m.cfg.Log.Warn("room: a table ended whose bots were held back by the room's bound on their actions",
			"room", r.code, "table", r.tableNo, "game", st.Info().Name, "deferred", r.deferred, "actions", st.Version())
	}
	// The record of a session's table ends with its session line: the
	// mini-game it settled, the standings after it. (A one-seat room
	// plays one game, not a session.)
	if s, ok := r.play.(*session.Session); ok {
		rec.session.Finish(s)
		rec.w.Session(rec.session)
	}
	// A live table is stored once the turn that ended it is durable, so
	// that the history never holds a game a crash took back. A table
	// replayed from the journal may have ended just before the crash,
	// unstored: it is stored again once the room is restored, under its
	// key, which the store keeps once.
	g := &store.Game{Summary: store.Summary{
		Room: r.storedCode(), Game: st.Info().Name, Table: r.tableNo, TieBreak: rec.tieBreak, Deck: rec.deck,
		Seats: rec.seats, Scores: res.Scores, Unit: res.Unit, Winners: res.Winners, Actions: int(st.Version()),
		Started: rec.started, Ended: now,
	}, Record: slices.Clone(rec.buf.Bytes()), Key: r.jid + "/" + strconv.Itoa(r.tableNo)}
	if r.replaying {
		r.replayed = append(r.replayed, g)
	} else {
		r.m.metrics.Games.Inc()
		r.whenDurable(g)
	}
	r.broadcast(protocol.Encode(&protocol.Over{Table: r.tableNo, Game: st.Info().Name, Players: r.at, Result: res, Session: r.sessionInfo()}), nil)
	switch r.play.Phase() {
	case session.PhasePick:
		r.phase = PhasePick
		wait := r.m.cfg.PickTime
		if r.seats[r.play.Picker()].kind == protocol.KindBot {
			wait = r.m.cfg.BotPick
		}
		r.deadline = now.Add(wait)
		r.broadcast(r.pickFrame(), nil)
	case session.PhaseOver:
		r.phase = PhaseOver
		r.broadcastLobby()
	default: // a tie-break was set up
		r.startCountdown(now)
	}
}

// autoPick picks the next mini-game for a bot, or for a person whose time
// to pick ran out, as the session picks for them (session.AutoPick).
func (r *Room) autoPick(now time.Time) {
	if err := r.play.Pick(r.play.Picker(), r.play.AutoPick()); err != nil {
		r.close(fmt.Sprintf("the session could not go on: %v", err))
		return
	}
	r.startCountdown(now)
}
