package table_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/sim"
	"github.com/dobble-dev/dobble/table"
)

// decks holds the default deck of each game, built once, so that the
// games of one name share their cards (State.Equal compares them).
var decks = map[string]struct {
	d record.Deck
	x *rules.Index
}{}

// setUp returns a new game of name for players seats with seed, on the
// game's default deck, and the deck's description.
func setUp(t testing.TB, name string, players int, seed uint64, lockout int64) (*rules.State, record.Deck) {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	dk, ok := decks[name]
	if !ok {
		if dk.d, dk.x, err = sim.DefaultDeck(g).Build(); err != nil {
			t.Fatal(err)
		}
		decks[name] = dk
	}
	d, x := dk.d, dk.x
	s, err := rules.New(g, x, rules.Config{Players: players, Seed: seed, Lockout: lockout})
	if err != nil {
		t.Fatal(err)
	}
	return s, d
}

// botsAt returns bots of level for the given seats of a table of n, nil
// for the others.
func botsAt(t testing.TB, level string, n int, seats ...int) []*bot.Bot {
	t.Helper()
	l, err := bot.LookupLevel(level)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*bot.Bot, n)
	for _, i := range seats {
		bots[i] = bot.New(l, i, 0)
	}
	return bots
}

// allSeats returns 0..n-1.
func allSeats(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// watcher is an Observer that keeps what it hears.
type watcher struct {
	accepted []rules.Action
	refused  []rules.Refusal
	events   int
}

func (w *watcher) Accepted(a *rules.Action, ev []rules.Event) {
	w.accepted = append(w.accepted, *a)
	w.events += len(ev)
}

func (w *watcher) Refused(a *rules.Action, r *rules.Refusal) { w.refused = append(w.refused, *r) }

// played is what a game gave: its record, its counts and its end.
type played struct {
	record string
	stats  table.Stats
	state  *rules.State
}

// play plays the game name between bots of level, advancing the driver to
// the times next gives (from the driver's Now and Next) until the game ends, and checks Next on the way:
// after Advance(to) it is later than to, and nothing happens before it.
func play(t *testing.T, name string, players int, level string, seed uint64, obs table.Observer, next func(now, due int64) int64) played {
	t.Helper()
	s, deck := setUp(t, name, players, seed, 0)
	var buf bytes.Buffer
	d := table.New(table.Config{Bots: botsAt(t, level, players, allSeats(players)...), Record: record.NewWriter(&buf),
		Deck: deck, Seats: make([]string, players), Observer: obs})
	if err := d.Reset(s, seed); err != nil {
		t.Fatal(err)
	}
	for steps := 0; !d.Over(); steps++ {
		if steps > 1_000_000 {
			t.Fatalf("%s/%s seed %d: no end", name, level, seed)
		}
		n, ok := d.Next()
		if !ok {
			t.Fatalf("%s/%s seed %d: nothing due at version %d and the game is not over", name, level, seed, s.Version())
		}
		if n < d.Now() {
			t.Fatalf("%s/%s seed %d: next %d before now %d", name, level, seed, n, d.Now())
		}
		to := next(d.Now(), n)
		before := d.Stats().Steps
		if err := d.Advance(to); err != nil {
			t.Fatal(err)
		}
		if n > to && d.Stats().Steps != before {
			t.Fatalf("%s/%s seed %d: Next said %d, yet Advance(%d) did something", name, level, seed, n, to)
		}
		if n <= to && d.Stats().Steps == before {
			t.Fatalf("%s/%s seed %d: Next said %d, yet Advance(%d) did nothing", name, level, seed, n, to)
		}
		if n, ok := d.Next(); ok && n <= to {
			t.Fatalf("%s/%s seed %d: after Advance(%d), Next says %d", name, level, seed, to, n)
		}
	}
	return played{buf.String(), d.Stats(), s}
}

// TestAdvanceInSteps plays every game with several bot levels three ways:
// advanced to Forever at once, to the times Next gives one by one, and by
// random steps, with and without an Observer (which takes the general
// course between instant bots). Each is the same game: same record, same
// counts, same end.
func TestAdvanceInSteps(t *testing.T) {
	levels := []string{"instant", "medium", "easy"}
	if testing.Short() {
		levels = levels[:2]
	}
	for _, g := range rules.Games() {
		name, players := g.Info().Name, min(4, g.Info().MaxPlayers)
		for _, level := range levels {
			for seed := range uint64(2) {
				whole := play(t, name, players, level, seed, nil, func(_, _ int64) int64 { return table.Forever })
				rng := rand.New(rand.NewPCG(seed, 7))
				ways := map[string]played{
					"one by one":             play(t, name, players, level, seed, nil, func(_, due int64) int64 { return due }),
					"random steps":           play(t, name, players, level, seed, nil, func(now, _ int64) int64 { return now + rng.Int64N(3000) }),
					"observed, random steps": play(t, name, players, level, seed, &watcher{}, func(now, _ int64) int64 { return now + rng.Int64N(3000) }),
				}
				for way, p := range ways {
					if p.record != whole.record || p.stats != whole.stats || !p.state.Equal(whole.state) {
						t.Fatalf("%s/%s seed %d: advanced %s, the game differs from one advanced at once: %+v, %+v",
							name, level, seed, way, p.stats, whole.stats)
					}
				}
			}
		}
	}
}

// TestObserver checks that an Observer hears every accepted action, in
// order of time, and every refusal the counts count.
func TestObserver(t *testing.T) {
	for _, g := range rules.Games() {
		name, players := g.Info().Name, min(4, g.Info().MaxPlayers)
		w := &watcher{}
		p := play(t, name, players, "hard", 3, w, func(_, _ int64) int64 { return table.Forever })
		if len(w.accepted) != p.stats.Actions {
			t.Fatalf("%s: heard %d accepted actions of %d", name, len(w.accepted), p.stats.Actions)
		}
		for i := 1; i < len(w.accepted); i++ {
			if w.accepted[i].At < w.accepted[i-1].At {
				t.Fatalf("%s: action %d at %d ms after one at %d ms", name, i, w.accepted[i].At, w.accepted[i-1].At)
			}
		}
		if last := w.accepted[len(w.accepted)-1]; last.At != p.stats.Time {
			t.Fatalf("%s: the last action at %d ms, Stats.Time %d", name, last.At, p.stats.Time)
		}
		wrong, late := 0, 0
		for _, r := range w.refused {
			switch {
			case r.Code.Wrong():
				wrong++
			case r.Code == rules.CodeTooLate:
				late++
			default:
				t.Fatalf("%s: a bot's action refused with %v", name, r.Code)
			}
		}
		if wrong != p.stats.Wrong || late != p.stats.Late {
			t.Fatalf("%s: heard %d wrong and %d late, counted %d and %d", name, wrong, late, p.stats.Wrong, p.stats.Late)
		}
	}
}

// TestSubmit plays the first moves of a two-seat Tower played from outside
// (no bots), step by step: each step submits an action at a time and
// expects it accepted or refused with a code.
func TestSubmit(t *testing.T) {
	s, _ := setUp(t, "tower", 2, 1, 1000)
	first := s.Moves(0, nil)[0]
	wrong := first
	for s.Check(wrong) == nil {
		wrong.Symbol = (wrong.Symbol + 1) % s.Cards().Symbols()
	}
	type step struct {
		name    string
		advance int64 // Advance to this time first, when not 0
		action  func() rules.Action
		at      int64      // the action's time
		want    rules.Code // 0: accepted
		version uint64     // the version after the step
		lock    int64      // seat 0's lock-out after the step
	}
	d := table.New(table.Config{Bots: make([]*bot.Bot, 2)})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	current := func(seat int) func() rules.Action {
		return func() rules.Action { return s.Moves(seat, nil)[0] }
	}
	steps := []step{
		{name: "a wrong claim locks out", action: func() rules.Action { return wrong }, at: 100, want: rules.CodeNotAMatch, lock: 1100},
		{name: "a right one while locked out", action: current(0), at: 600, want: rules.CodeLockedOut, lock: 1100},
		{name: "the other seat is not locked out", action: current(1), at: 700, version: 1, lock: 1100},
		{name: "against the old version", action: func() rules.Action { return first }, at: 1200, want: rules.CodeTooLate, version: 1, lock: 1100},
		{name: "after the lock-out", action: current(0), at: 1200, version: 2, lock: 1100},
		{name: "earlier than now, taken as now", advance: 5000, action: current(1), at: 10, version: 3, lock: 1100},
		{name: "a seat the table has not", action: func() rules.Action { a := current(1)(); a.Seat = 2; return a }, at: 5100, want: rules.CodeNoSeat, version: 3, lock: 1100},
	}
	for _, st := range steps {
		if st.advance != 0 {
			if err := d.Advance(st.advance); err != nil {
				t.Fatal(err)
			}
		}
		a := st.action()
		a.At = st.at
		ev, err := d.Submit(a)
		var r *rules.Refusal
		switch {
		case st.want == 0 && (err != nil || len(ev) == 0):
			t.Fatalf("%s: %v, %d events; want it accepted", st.name, err, len(ev))
		case st.want != 0 && (!errors.As(err, &r) || r.Code != st.want):
			t.Fatalf("%s: %v; want %v", st.name, err, st.want)
		case s.Version() != st.version || s.Seat(0).LockedUntil != st.lock:
			t.Fatalf("%s: version %d, lock-out until %d; want %d and %d", st.name, s.Version(), s.Seat(0).LockedUntil, st.version, st.lock)
		}
		if st.want == 0 && ev[0].Version != s.Version() {
			t.Fatalf("%s: the events of version %d, the table is at %d", st.name, ev[0].Version, s.Version())
		}
	}
	if d.Stats().Time != 5000 || d.Stats().Wrong != 1 || d.Stats().Late != 1 || d.Stats().Actions != 3 {
		t.Fatalf("stats %+v", d.Stats())
	}
	// The game played out from outside, then one claim too many.
	for !s.Over() {
		for seat := range 2 {
			if moves := s.Moves(seat, nil); len(moves) > 0 {
				a := moves[0]
				a.At = d.Now() + 10
				if _, err := d.Submit(a); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	late := first
	late.Version, late.At = s.Version(), d.Now()+10
	if _, err := d.Submit(late); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("a claim after the end: %v", err)
	}
	if d.Result() == nil || !reflect.DeepEqual(d.Result(), s.Result()) {
		t.Fatalf("result %+v, want %+v", d.Result(), s.Result())
	}
}

// TestBotAgainstSubmit seats a bot beside a seat played from outside, and
// has the seat claim before the bot's claim arrives: before the bot has
// committed, the bot plans again and is never late; after, its claim
// arrives anyway and is refused as too late.
func TestBotAgainstSubmit(t *testing.T) {
	for _, tc := range []struct {
		name      string
		committed bool
	}{{"before the bot decides", false}, {"after the bot decided", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := setUp(t, "tower", 2, 5, 0)
			w := &watcher{}
			d := table.New(table.Config{Bots: botsAt(t, "medium", 2, 1), Observer: w})
			if err := d.Reset(s, 5); err != nil {
				t.Fatal(err)
			}
			p, ok := d.Plan(1)
			if !ok || p.Decide >= p.Action.At || p.Wrong {
				t.Fatalf("the bot's first plan %+v, %v", p, ok)
			}
			if n, ok := d.Next(); !ok || n != p.Action.At {
				t.Fatalf("Next %d, %v; the bot's plan arrives at %d", n, ok, p.Action.At)
			}
			at := p.Decide - 1
			if tc.committed {
				at = p.Decide
			}
			a := s.Moves(0, nil)[0]
			a.At = at
			if _, err := d.Submit(a); err != nil {
				t.Fatal(err)
			}
			q, ok := d.Plan(1)
			if tc.committed != (ok && q == p) {
				t.Fatalf("after a claim at %d, the bot's plan %+v (was %+v)", at, q, p)
			}
			if err := d.Advance(p.Action.At); err != nil {
				t.Fatal(err)
			}
			if late := d.Stats().Late; late != map[bool]int{false: 0, true: 1}[tc.committed] {
				t.Fatalf("%d late claims", late)
			}
			if tc.committed && (len(w.refused) != 1 || w.refused[0].Code != rules.CodeTooLate || w.refused[0].Seat != 1) {
				t.Fatalf("the observer heard %+v", w.refused)
			}
		})
	}
}

// TestTicks checks that a timed game with no bots wants time exactly at
// its deadline, and gets its tick then, not a millisecond before.
func TestTicks(t *testing.T) {
	for _, g := range rules.Games() {
		if !g.Info().Timed {
			continue
		}
		name := g.Info().Name
		s, _ := setUp(t, name, max(3, g.Info().MinPlayers), 2, 0)
		w := &watcher{}
		d := table.New(table.Config{Observer: w})
		if err := d.Reset(s, 2); err != nil {
			t.Fatal(err)
		}
		dl, ok := s.Deadline()
		if !ok {
			continue // the game waits for the seats first
		}
		if n, ok := d.Next(); !ok || n != dl {
			t.Fatalf("%s: Next %d, %v; the deadline is %d", name, n, ok, dl)
		}
		if err := d.Advance(dl - 1); err != nil || len(w.accepted) != 0 {
			t.Fatalf("%s: before the deadline: %v, %d actions", name, err, len(w.accepted))
		}
		if err := d.Advance(dl); err != nil || len(w.accepted) == 0 || w.accepted[0].Kind != rules.ActionTick || w.accepted[0].At != dl {
			t.Fatalf("%s: at the deadline: %v, %+v", name, err, w.accepted)
		}
	}
}

// TestRecordReplays plays every game with one seat played from outside
// (the first move it has, now and then a wrong claim, at times of its
// own) and bots on the others; the record replays to the same end.
func TestRecordReplays(t *testing.T) {
	for _, g := range rules.Games() {
		name, players := g.Info().Name, min(3, g.Info().MaxPlayers)
		players = max(players, g.Info().MinPlayers)
		for seed := range uint64(2) {
			s, deck := setUp(t, name, players, seed, 0)
			var buf bytes.Buffer
			d := table.New(table.Config{Bots: botsAt(t, "hard", players, allSeats(players)[1:]...), Record: record.NewWriter(&buf), Deck: deck, Seats: make([]string, players)})
			if err := d.Reset(s, seed); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 9))
			for steps := 0; !d.Over(); steps++ {
				if steps > 100_000 {
					t.Fatalf("%s seed %d: no end", name, seed)
				}
				at := d.Now() + rng.Int64N(2500)
				if err := d.Advance(at); err != nil {
					t.Fatal(err)
				}
				moves := s.Moves(0, nil)
				if d.Over() || len(moves) == 0 {
					if _, ok := d.Next(); !ok && !d.Over() {
						t.Fatalf("%s seed %d: stuck at version %d", name, seed, s.Version())
					}
					continue
				}
				a := moves[rng.IntN(len(moves))]
				if a.Kind.HasSymbol() && rng.IntN(4) == 0 {
					a.Symbol = (a.Symbol + 1) % s.Cards().Symbols() // perhaps wrong
				}
				a.At = at
				if _, err := d.Submit(a); err != nil && !errors.As(err, new(*rules.Refusal)) {
					t.Fatal(err)
				}
			}
			recs, err := record.ReadAll(&buf)
			if err != nil || len(recs) != 1 || recs[0].End == nil {
				t.Fatalf("%s: %d records, %v", name, len(recs), err)
			}
			end, _, err := recs[0].Replay(s.Cards())
			if err != nil || !end.Equal(s) {
				t.Fatalf("%s seed %d: the record replays elsewhere: %v", name, seed, err)
			}
		}
	}
}

// TestApply has a caller's Apply refuse the first action of the bot of
// seat 1 for a reason of its own: Advance reports a *PlanError, and the
// driver goes on from there to the same end as the rules give.
func TestApply(t *testing.T) {
	s, _ := setUp(t, "tower", 2, 4, 0)
	refused, seen := false, 0
	d := table.New(table.Config{Bots: botsAt(t, "expert", 2, 0, 1)})
	apply := func(a *rules.Action, ev []rules.Event) ([]rules.Event, error) {
		seen++
		if a.Seat == 1 && !refused {
			refused = true
			return ev, &rules.Refusal{Code: rules.CodeNotNow, Seat: 1}
		}
		return s.ApplyPtr(a, ev)
	}
	d = table.New(table.Config{Bots: botsAt(t, "expert", 2, 0, 1), Apply: apply})
	if err := d.Reset(s, 4); err != nil {
		t.Fatal(err)
	}
	errs := 0
	for {
		err := d.Advance(table.Forever)
		var pe *table.PlanError
		if err == nil {
			break
		}
		if !errors.As(err, &pe) || pe.Seat != 1 || !errors.Is(err, rules.ErrNotNow) {
			t.Fatal(err)
		}
		errs++
	}
	// Every step applied an action, but the stale plans refused without
	// asking the rules.
	if errs != 1 || !s.Over() || seen != d.Stats().Steps-d.Stats().Late {
		t.Fatalf("%d plan errors, over %v, %d actions applied in %d steps", errs, s.Over(), seen, d.Stats().Steps)
	}
}

// TestLimits checks the step limit and a table with more bots than seats.
func TestLimits(t *testing.T) {
	s, _ := setUp(t, "tower", 2, 1, 0)
	d := table.New(table.Config{Bots: botsAt(t, "medium", 2, 0, 1), MaxSteps: 10})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Advance(table.Forever); err == nil || !strings.Contains(err.Error(), "no end after 10 steps") {
		t.Fatalf("step limit: %v", err)
	}
	d = table.New(table.Config{Bots: botsAt(t, "medium", 3, 0, 1, 2)})
	if err := d.Reset(s, 1); err == nil || !strings.Contains(err.Error(), "3 bots for a table of 2 seats") {
		t.Fatalf("three bots at two seats: %v", err)
	}
}

// TestSubmitAllocs checks that carrying out an accepted action costs the
// driver no allocation, as the server's claims and a simulation's steps
// need.
func TestSubmitAllocs(t *testing.T) {
	s, _ := setUp(t, "tower", 2, 1, 0)
	d := table.New(table.Config{Bots: make([]*bot.Bot, 2)})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	var moves []rules.Action
	at := int64(0)
	allocs := testing.AllocsPerRun(20, func() {
		moves = s.Moves(0, moves[:0])
		at += 100
		moves[0].At = at
		if _, err := d.Submit(moves[0]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations an action", allocs)
	}
}

// TestShortcut checks when the driver takes the shortcut between instant
// bots, which TestAdvanceInSteps compares with the general course: only
// with every seat an instant bot, no Observer, not Strict, in a game that
// is not lenient and whose bots do not remember.
func TestShortcut(t *testing.T) {
	for _, tc := range []struct {
		name, game, level string
		outside, observed bool
		strict            bool
		want              bool
	}{
		{name: "instant bots", game: "tower", level: "instant", want: true},
		{name: "an observer", game: "tower", level: "instant", observed: true},
		{name: "strict", game: "tower", level: "instant", strict: true},
		{name: "a seat played from outside", game: "tower", level: "instant", outside: true},
		{name: "medium bots", game: "tower", level: "medium"},
		{name: "a lenient game", game: "guess", level: "instant"},
		{name: "bots that remember", game: "memory", level: "instant"},
	} {
		s, _ := setUp(t, tc.game, 3, 1, 0)
		seats := allSeats(3)
		if tc.outside {
			seats = seats[1:]
		}
		cfg := table.Config{Bots: botsAt(t, tc.level, 3, seats...), Strict: tc.strict}
		if tc.observed {
			cfg.Observer = &watcher{}
		}
		d := table.New(cfg)
		if err := d.Reset(s, 1); err != nil {
			t.Fatal(err)
		}
		if d.Shortcut() != tc.want {
			t.Errorf("%s: shortcut %v, want %v", tc.name, d.Shortcut(), tc.want)
		}
	}
}

// TestMinDelay seats an instant bot beside a seat played from outside with
// a MinDelay of 250 ms: the bot, which would win a whole Tower at 0 ms,
// makes each claim 250 ms after the change it answers, and no sooner after
// the person's claim; without MinDelay it plays the game at once.
func TestMinDelay(t *testing.T) {
	s, _ := setUp(t, "tower", 2, 1, 0)
	w := &watcher{}
	d := table.New(table.Config{Bots: botsAt(t, "instant", 2, 1), Observer: w, MinDelay: 250})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	if d.Shortcut() {
		t.Fatal("the shortcut between instant bots with a MinDelay")
	}
	if next, ok := d.Next(); !ok || next != 250 {
		t.Fatalf("the bot's first claim is due at %d ms (%v), want 250", next, ok)
	}
	if err := d.Advance(600); err != nil {
		t.Fatal(err)
	}
	if got := len(w.accepted); got != 2 || w.accepted[0].At != 250 || w.accepted[1].At != 500 {
		t.Fatalf("by 600 ms: %+v, want claims at 250 and 500", w.accepted)
	}
	// The person claims at 700: the bot's claim planned at 500, due at
	// 750, arrives too late; it claims again 250 ms later, at 1000.
	claim := s.Moves(0, nil)[0]
	claim.At = 700
	if _, err := d.Submit(claim); err != nil {
		t.Fatal(err)
	}
	if err := d.Advance(1000); err != nil {
		t.Fatal(err)
	}
	if got := w.accepted[len(w.accepted)-1]; got.Seat != 1 || got.At != 1000 || d.Stats().Late != 1 {
		t.Fatalf("after the person's claim at 700: last %+v, %d late", got, d.Stats().Late)
	}
	if err := d.Advance(table.Forever); err != nil || !d.Over() {
		t.Fatalf("%v, over %v", err, d.Over())
	}
	for i := 1; i < len(w.accepted); i++ {
		if a, b := w.accepted[i-1], w.accepted[i]; b.Seat == 1 && b.At-a.At < 250 {
			t.Fatalf("the bot claimed at %d ms, %d ms after the change at %d", b.At, b.At-a.At, a.At)
		}
	}

	// Without MinDelay, the instant bot takes the whole game at 0 ms.
	s, _ = setUp(t, "tower", 2, 1, 0)
	d = table.New(table.Config{Bots: botsAt(t, "instant", 2, 1), Observer: &watcher{}})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Advance(0); err != nil || !d.Over() || d.Stats().Time != 0 {
		t.Fatalf("%v, over %v at %d ms", err, d.Over(), d.Stats().Time)
	}
}

// TestBotRate bounds the bots of a table to 20 actions a second in bursts
// of 5: two instant bots beside a seat played from outside, which would
// make a whole Tower at 0 ms, make 5 actions at once and one every 50 ms
// after, their plans refused as too late included; the game still ends,
// in time order.
func TestBotRate(t *testing.T) {
	s, _ := setUp(t, "tower", 3, 1, 0)
	w := &watcher{}
	d := table.New(table.Config{Bots: botsAt(t, "instant", 3, 1, 2), Observer: w, BotRate: 20, BotBurst: 5})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Advance(0); err != nil {
		t.Fatal(err)
	}
	if st := d.Stats(); st.Steps != 5 || st.Deferred == 0 {
		t.Fatalf("at 0 ms: %+v, want 5 steps and the rest deferred", st)
	}
	for to := int64(50); to <= 1000; to += 50 {
		if err := d.Advance(to); err != nil {
			t.Fatal(err)
		}
		if want := 5 + int(to/50); d.Stats().Steps != want && !d.Over() {
			t.Fatalf("by %d ms: %d steps, want %d", to, d.Stats().Steps, want)
		}
	}
	if err := d.Advance(table.Forever); err != nil || !d.Over() {
		t.Fatalf("%v, over %v", err, d.Over())
	}
	if st := d.Stats(); st.Time < int64(st.Steps-5)*50 {
		t.Fatalf("%+v: the bots acted faster than 20 a second", st)
	}
	for i := 1; i < len(w.accepted); i++ {
		if w.accepted[i].At < w.accepted[i-1].At {
			t.Fatalf("action %d at %d ms, after one at %d", i, w.accepted[i].At, w.accepted[i-1].At)
		}
	}
}

// TestNetDelay seats an instant bot with a MinDelay of 250 ms and a
// NetDelay of 40 ms: each of its claims arrives 290 ms after the change it
// answers.
func TestNetDelay(t *testing.T) {
	s, _ := setUp(t, "tower", 2, 1, 0)
	w := &watcher{}
	d := table.New(table.Config{Bots: botsAt(t, "instant", 2, 1), Observer: w, MinDelay: 250, NetDelay: 40})
	if err := d.Reset(s, 1); err != nil {
		t.Fatal(err)
	}
	if next, ok := d.Next(); !ok || next != 290 {
		t.Fatalf("the bot's first claim is due at %d ms (%v), want 290", next, ok)
	}
	if err := d.Advance(600); err != nil {
		t.Fatal(err)
	}
	if got := len(w.accepted); got != 2 || w.accepted[0].At != 290 || w.accepted[1].At != 580 {
		t.Fatalf("by 600 ms: %+v, want claims at 290 and 580", w.accepted)
	}
}
