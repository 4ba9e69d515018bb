package room

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/store"
)

// How long one save may take, and the pauses between the tries of a game
// that could not be saved: the first, doubled after every failure up to
// the last.
const (
	saveTimeout    = 30 * time.Second
	firstSavePause = time.Second
	lastSavePause  = time.Minute
)

// saveQueue holds the finished games on their way to the Manager's
// Saver. One goroutine at a time (Manager.storeGames) saves them, in the
// order they finished. A game whose save fails stays first in line and
// is tried again after a pause (firstSavePause, doubling up to
// lastSavePause), so that the games finished while the disk was full are
// stored once it has room again; at most Config.SaveBacklog games wait,
// and a game that finishes when that many wait is given up at once.
//
// A failure is never silent: it is logged, counted in the metrics
// (StoreFailures, StoreFailing, SaveBacklog, GamesLost), reported by
// SaveHealth (and so by /healthz) until a save succeeds again, and the
// people in the room of each game kept waiting are told, with a "saved"
// message, that it is not stored yet, then that it is, or that it is
// lost.
type saveQueue struct {
	mu       sync.Mutex
	waiting  []*waitingGame // oldest first; the first is the one being saved
	running  bool           // a storeGames is at work
	done     chan struct{}  // closed when the running storeGames returns
	flushing int            // Waits in progress: no more pauses, a last try
	poke     chan struct{}  // cuts a pause short, for Wait
	since    time.Time      // the first failure since the last success; zero when none
	failures int            // failed tries since then
	lastErr  error          // the last failure
	lost     int64          // games given up since the Manager began

	// log is where failures are written: Config.Log, or the test's. pauses
	// are the first and the last pause between tries; zero for
	// firstSavePause and lastSavePause. The tests set them.
	log    *slog.Logger
	pauses [2]time.Duration
}

// waitingGame is a finished game waiting to be stored.
type waitingGame struct {
	g *store.Game
	// done, if not nil, is called once the game is stored (true) or
	// given up (false).
	done func(stored bool)
	// told is set once its room has been told that it is not stored yet.
	told bool
}

// SaveHealth says how the storing of finished games goes, for /healthz.
type SaveHealth struct {
	// Failing is set from a failed save until a save succeeds.
	Failing bool
	// Since is when the saves began to fail, while Failing.
	Since time.Time
	// Failures is the number of failed tries since then.
	Failures int
	// Err is the last failure, while Failing.
	Err error
	// Waiting is the number of finished games waiting to be stored.
	Waiting int
	// Lost is the number of finished games given up since the Manager
	// began.
	Lost int64
}

// SaveHealth returns how the storing of finished games goes.
func (m *Manager) SaveHealth() SaveHealth {
	q := &m.saves
	q.mu.Lock()
	defer q.mu.Unlock()
	return SaveHealth{Failing: !q.since.IsZero(), Since: q.since, Failures: q.failures, Err: q.lastErr, Waiting: len(q.waiting), Lost: q.lost}
}

// logger returns the logger of the saves.
func (q *saveQueue) logger() *slog.Logger {
	if q.log != nil {
		return q.log
	}
	return slog.Default()
}

// save hands a finished game to the store, in the background, and calls
// done (if not nil) once it is stored or given up.
func (m *Manager) save(g *store.Game, done func(stored bool)) {
	if m.saver == nil {
		if done != nil {
			done(true)
		}
		return
	}
	q := &m.saves
	q.mu.Lock()
	failing, lastErr := !q.since.IsZero(), q.lastErr
	if len(q.waiting) >= m.cfg.SaveBacklog {
		q.lost++
		q.mu.Unlock()
		m.metrics.GamesLost.Inc()
		q.logger().Error("store: a finished game is lost: too many games wait to be stored already",
			"room", g.Room, "table", g.Table, "game", g.Game, "backlog", m.cfg.SaveBacklog, "err", lastErr)
		m.tell(g, protocol.Saved{Status: protocol.SavedLost,
			Reason: "the server cannot store games at the moment (" + store.Cause(lastErr) + "), and too many wait already"})
		if done != nil {
			done(false)
		}
		return
	}
	// While the saves fail, the game's room hears at once that it waits.
	q.waiting = append(q.waiting, &waitingGame{g: g, done: done, told: failing})
	m.metrics.SaveBacklog.Set(float64(len(q.waiting)))
	if !q.running {
		q.running, q.done = true, make(chan struct{})
		go m.storeGames(q.done)
	}
	q.mu.Unlock()
	if failing {
		m.tell(g, protocol.Saved{Status: protocol.SavedRetrying,
			Reason: "the server cannot store games at the moment (" + store.Cause(lastErr) + "); it keeps this one and tries again"})
	}
}

// storeGames saves the games waiting, one by one, until none is left; it
// closes done when it returns.
func (m *Manager) storeGames(done chan struct{}) {
	defer close(done)
	q := &m.saves
	first, last := q.pauses[0], q.pauses[1]
	if first <= 0 || last <= 0 {
		first, last = firstSavePause, lastSavePause
	}
	pause := first
	for {
		q.mu.Lock()
		if len(q.waiting) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		w := q.waiting[0]
		q.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
		id, err := m.saver.Save(ctx, w.g)
		cancel()

		q.mu.Lock()
		if err == nil {
			q.waiting[0] = nil
			q.waiting = q.waiting[1:]
			n, told := len(q.waiting), w.told
			since, failures := q.since, q.failures
			q.since, q.failures, q.lastErr = time.Time{}, 0, nil
			q.mu.Unlock()
			m.metrics.GamesStored.Inc()
			m.metrics.SaveBacklog.Set(float64(n))
			m.metrics.StoreFailing.Set(0)
			if !since.IsZero() {
				q.logger().Info("store: finished games are stored again", "failing_since", since, "failed_tries", failures, "waiting", n)
			}
			if told {
				q.logger().Info("store: a finished game kept waiting is stored", "room", w.g.Room, "table", w.g.Table, "game", w.g.Game, "id", id)
				m.tell(w.g, protocol.Saved{Status: protocol.SavedStored, ID: id})
			}
			if w.done != nil {
				w.done(true)
			}
			pause = first
			continue
		}

		if q.since.IsZero() {
			q.since = time.Now()
		}
		q.failures++
		q.lastErr = err
		m.metrics.StoreFailures.Inc()
		m.metrics.StoreFailing.Set(1)
		cause := store.Cause(err)
		if q.flushing > 0 {
			// The Manager is closing: what cannot be stored now is lost.
			lost := q.waiting
			q.waiting = nil
			q.lost += int64(len(lost))
			q.mu.Unlock()
			m.metrics.SaveBacklog.Set(0)
			for _, l := range lost {
				m.metrics.GamesLost.Inc()
				q.logger().Error("store: a finished game is lost: it could not be stored before the server stopped",
					"room", l.g.Room, "table", l.g.Table, "game", l.g.Game, "err", err)
				m.tell(l.g, protocol.Saved{Status: protocol.SavedLost, Reason: "the server stopped before it could store the game (" + cause + ")"})
				if l.done != nil {
					l.done(false)
				}
			}
			continue
		}
		// Every game waiting now is late: the rooms not told yet are.
		var tell []*store.Game
		for _, o := range q.waiting {
			if !o.told {
				o.told = true
				tell = append(tell, o.g)
			}
		}
		n := len(q.waiting)
		if q.poke == nil {
			q.poke = make(chan struct{}, 1)
		}
		poke := q.poke
		q.mu.Unlock()
		q.logger().Error("store: a finished game could not be stored; it is kept and tried again",
			"room", w.g.Room, "table", w.g.Table, "game", w.g.Game, "err", err, "retry_in", pause, "waiting", n)
		for _, g := range tell {
			m.tell(g, protocol.Saved{Status: protocol.SavedRetrying, Reason: cause + "; the server keeps the game and tries again"})
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-poke:
		}
		t.Stop()
		pause = min(2*pause, last)
	}
}

// Wait returns once every finished game handed to the store has been
// stored or given up: the pause before a retry is cut short, and the
// games that still cannot be stored then are given up (logged, counted
// as lost, their rooms told). The Manager waits so when it closes.
func (q *saveQueue) Wait() {
	q.mu.Lock()
	q.flushing++
	if q.poke == nil {
		q.poke = make(chan struct{}, 1)
	}
	poke := q.poke
	for q.running {
		done := q.done
		q.mu.Unlock()
		select {
		case poke <- struct{}{}:
		default:
		}
		<-done
		q.mu.Lock()
	}
	q.flushing--
	q.mu.Unlock()
}

// tell sends the room of game g, if it is still open, the saved message
// s about it.
func (m *Manager) tell(g *store.Game, s protocol.Saved) {
	s.Table, s.Game = g.Table, g.Game
	if r := m.Get(g.Room); r != nil {
		r.notify(protocol.Encode(s))
	}
}
