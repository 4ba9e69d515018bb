package sim

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

func mustLevel(t testing.TB, name string) bot.Level {
	t.Helper()
	l, err := bot.LookupLevel(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustCards(t testing.TB, order int) *rules.Index {
	t.Helper()
	_, x, err := record.Deck{Order: order}.Build()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// checkOutcome checks an outcome against its final state: the game is over,
// every table rule holds, the result is the state's, one accepted action
// per version.
func checkOutcome(t *testing.T, o Outcome) {
	t.Helper()
	s := o.State
	if !s.Over() {
		t.Fatalf("%s seed %d: the game is not over", o.Game, o.Seed)
	}
	if err := rules.CheckInvariants(s); err != nil {
		t.Fatalf("%s seed %d: %v", o.Game, o.Seed, err)
	}
	if !reflect.DeepEqual(o.Result, s.Result()) {
		t.Fatalf("%s seed %d: result %+v, the state says %+v", o.Game, o.Seed, o.Result, s.Result())
	}
	if uint64(o.Actions) != s.Version() || o.Actions == 0 {
		t.Fatalf("%s seed %d: %d actions, version %d", o.Game, o.Seed, o.Actions, s.Version())
	}
	if o.Players != s.Players() || o.Game != s.Info().Name || s.Config().Seed != o.Seed {
		t.Fatalf("outcome %+v does not describe its game", o)
	}
}

// TestEveryGame plays every registered game to its end with every player
// count it takes and bots of every level, and checks each outcome; instant
// bots make no wrong claim and take no time, but what a timed game's clock
// takes.
func TestEveryGame(t *testing.T) {
	games := rules.Games()
	if len(games) == 0 {
		t.Fatal("no game registered")
	}
	for _, g := range games {
		info := g.Info()
		for p := info.MinPlayers; p <= info.MaxPlayers; p++ {
			for _, l := range bot.Levels() {
				o, err := Run(Config{Game: g, Rules: rules.Config{Players: p, Seed: uint64(p)}, Bots: []bot.Level{l}})
				if err != nil {
					t.Fatalf("%s, %d players, %s bots: %v", info.Name, p, l.Name, err)
				}
				checkOutcome(t, o)
				if l.Instant() && (o.Wrong != 0 || (o.Time != 0 && !info.Timed)) {
					t.Errorf("%s, %d instant bots: %d wrong claims, %d ms", info.Name, p, o.Wrong, o.Time)
				}
				if !l.Instant() && o.Time <= 0 {
					t.Errorf("%s, %d %s bots: the game took no time", info.Name, p, l.Name)
				}
			}
		}
	}
}

// TestMixedLevels seats one bot of each level at one table: a level per
// seat is honoured, and over many Tower games the faster levels win more
// cards.
func TestMixedLevels(t *testing.T) {
	g, _ := rules.Lookup("tower")
	levels := []bot.Level{mustLevel(t, "easy"), mustLevel(t, "medium"), mustLevel(t, "hard"), mustLevel(t, "expert")}
	m, err := New(Config{Game: g, Rules: rules.Config{Players: 4}, Bots: levels})
	if err != nil {
		t.Fatal(err)
	}
	cards := make([]int, 4)
	wrong := 0
	for seed := range uint64(200) {
		o, err := m.Play(seed)
		if err != nil {
			t.Fatal(err)
		}
		checkOutcome(t, o)
		for i, c := range o.Result.Scores {
			cards[i] += c
		}
		wrong += o.Wrong
	}
	for i := 1; i < 4; i++ {
		if cards[i] <= cards[i-1] {
			t.Errorf("cards won by easy, medium, hard, expert: %v; want increasing", cards)
		}
	}
	if wrong == 0 {
		t.Error("no wrong claim in 200 games of easy to expert bots")
	}
}

// TestVirtualTime checks the pace of a game: four medium bots compete, so
// the winner of each claim is faster than a medium bot's mean claim time
// but no faster than the fixed part of it.
func TestVirtualTime(t *testing.T) {
	g, _ := rules.Lookup("tower")
	l := mustLevel(t, "medium")
	m, err := New(Config{Game: g, Rules: rules.Config{Players: 4}, Bots: []bot.Level{l}})
	if err != nil {
		t.Fatal(err)
	}
	var ms, actions int64
	for seed := range uint64(50) {
		o, err := m.Play(seed)
		if err != nil {
			t.Fatal(err)
		}
		ms += o.Time
		actions += int64(o.Actions)
	}
	per := float64(ms) / float64(actions)
	mean := l.Orient + l.Compare*bot.ExpectedComparisons(8, 2, 1, 1) + l.Motor
	if per >= mean || per <= l.Orient+l.Motor {
		t.Errorf("%.0f ms a claim; want between %.0f and %.0f", per, l.Orient+l.Motor, mean)
	}
}

// TestDeterministic plays the same seeds twice, with records: the outcomes
// and the records are identical; another seed plays another game.
func TestDeterministic(t *testing.T) {
	for _, g := range rules.Games() {
		p := min(4, g.Info().MaxPlayers)
		play := func(seed uint64) ([]Outcome, string) {
			var buf bytes.Buffer
			m, err := New(Config{Game: g, Rules: rules.Config{Players: p}, Bots: []bot.Level{mustLevel(t, "hard")}, Record: record.NewWriter(&buf)})
			if err != nil {
				t.Fatal(err)
			}
			var out []Outcome
			for i := range uint64(3) {
				o, err := m.Play(seed + i)
				if err != nil {
					t.Fatal(err)
				}
				o.Wall, o.State = 0, nil
				out = append(out, o)
			}
			return out, buf.String()
		}
		a, ra := play(10)
		b, rb := play(10)
		if !reflect.DeepEqual(a, b) || ra != rb {
			t.Fatalf("%s: the same seeds played differently", g.Info().Name)
		}
		c, rc := play(11)
		if reflect.DeepEqual(a[0], c[0]) || ra == rc {
			t.Fatalf("%s: seeds 10 and 11 played the same game", g.Info().Name)
		}
		if !reflect.DeepEqual(a[1:], c[:2]) {
			t.Fatalf("%s: seed 11 played differently as a first and as a second game", g.Info().Name)
		}
	}
}

// TestReuseState plays the same seeds with and without Config.ReuseState,
// with instant and with hard bots, recording: the games, the final states
// and the records are the same, and the Sim that reuses its State hands
// back the same State every game.
func TestReuseState(t *testing.T) {
	for _, g := range rules.Games() {
		for _, level := range []string{"instant", "hard"} {
			var bufs [2]bytes.Buffer
			var sims [2]*Sim
			for i := range sims {
				cfg := Config{Game: g, Rules: rules.Config{Players: min(4, g.Info().MaxPlayers)}, Bots: []bot.Level{mustLevel(t, level)},
					Record: record.NewWriter(&bufs[i]), ReuseState: i == 1}
				if i > 0 {
					cfg.Cards = sims[0].Cards()
				}
				m, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				sims[i] = m
			}
			var last *rules.State
			for seed := range uint64(6) {
				a, err1 := sims[0].Play(seed)
				b, err2 := sims[1].Play(seed)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !a.State.Equal(b.State) || a.State == b.State {
					t.Fatalf("%s/%s seed %d: the reused State ended elsewhere", g.Info().Name, level, seed)
				}
				if seed > 0 && b.State != last {
					t.Fatalf("%s/%s seed %d: a new State although ReuseState is set", g.Info().Name, level, seed)
				}
				last = b.State
				a.Wall, b.Wall, a.State, b.State = 0, 0, nil, nil
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s/%s seed %d: %+v, reusing the State %+v", g.Info().Name, level, seed, a, b)
				}
			}
			if bufs[0].String() != bufs[1].String() {
				t.Fatalf("%s/%s: the records differ", g.Info().Name, level)
			}
		}
	}
}

// makeStrict has m check every stale plan of its bots with the rules
// (table.Config.Strict), which also takes the general course between
// instant bots.
func makeStrict(m *Sim) { *m = *newSim(m.cfg, m.deck, m.cards, true) }

// TestStrict plays the same games with stale plans refused by the
// simulator and by State.Apply: the outcomes are identical, and bots did
// come too late.
func TestStrict(t *testing.T) {
	for _, g := range rules.Games() {
		for _, level := range []string{"instant", "expert", "easy"} {
			cfg := Config{Game: g, Rules: rules.Config{Players: min(5, g.Info().MaxPlayers)}, Bots: []bot.Level{mustLevel(t, level)}}
			fast, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Cards = fast.Cards()
			strict, err := New(cfg)
			if err != nil || strict.Cards() != fast.Cards() {
				t.Fatalf("sharing the cards: %v", err)
			}
			makeStrict(strict)
			late, changes := 0, 0
			for seed := range uint64(10) {
				a, err1 := fast.Play(seed)
				b, err2 := strict.Play(seed)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !a.State.Equal(b.State) {
					t.Fatalf("%s/%s seed %d: the strict game ended elsewhere", g.Info().Name, level, seed)
				}
				a.Wall, b.Wall, a.State, b.State = 0, 0, nil, nil
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s/%s seed %d: %+v strict %+v", g.Info().Name, level, seed, a, b)
				}
				late += a.Late
				changes += a.Actions - 1
			}
			// A claim can only be too late for a change before the last
			// action (a duel ends with its first claim), and never in a
			// game with turns, where only one seat plays at a time, nor
			// where seats do not race each other (rules.Lenient).
			_, turns := g.(rules.Turner)
			_, lenient := g.(rules.Lenient)
			if late == 0 && changes > 0 && !turns && !lenient {
				t.Errorf("%s/%s: no claim came too late in 10 games", g.Info().Name, level)
			}
		}
	}
}

// TestRecordReplays plays every game with every level, recording it, and
// replays each record on the same cards: the final state is Equal to the
// simulation's and the events are those rules.Replay gives for the
// recorded actions; and each record checks without the rules
// (record.Record.Check).
func TestRecordReplays(t *testing.T) {
	for _, g := range rules.Games() {
		for _, l := range bot.Levels() {
			var buf bytes.Buffer
			m, err := New(Config{Game: g, Rules: rules.Config{Players: min(4, g.Info().MaxPlayers)}, Bots: []bot.Level{l}, Record: record.NewWriter(&buf)})
			if err != nil {
				t.Fatal(err)
			}
			var outs []Outcome
			for seed := range uint64(3) {
				o, err := m.Play(seed)
				if err != nil {
					t.Fatal(err)
				}
				outs = append(outs, o)
			}
			recs, err := record.ReadAll(&buf)
			if err != nil || len(recs) != 3 {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			for i, rec := range recs {
				o := outs[i]
				if rec.Header.Deck != m.Deck() || rec.Header.Config.Seed != o.Seed || rec.End == nil {
					t.Fatalf("record header %+v", rec.Header)
				}
				s, events, err := rec.Replay(m.Cards())
				if err != nil {
					t.Fatalf("%s/%s: %v", g.Info().Name, l.Name, err)
				}
				if err := rec.Check(); err != nil {
					t.Fatalf("%s/%s: %v", g.Info().Name, l.Name, err)
				}
				if !s.Equal(o.State) {
					t.Fatalf("%s/%s seed %d: the replay ended elsewhere", g.Info().Name, l.Name, o.Seed)
				}
				var actions []rules.Action
				refused := 0
				for _, e := range rec.Entries {
					actions = append(actions, e.Action)
					if e.Refusal != nil {
						refused++
					}
				}
				s2, events2, refused2, err := rules.Replay(g, m.Cards(), rec.Header.Config, actions)
				if err != nil || !s2.Equal(o.State) || !reflect.DeepEqual(events, events2) || refused2 != refused || refused != o.Wrong {
					t.Fatalf("%s/%s seed %d: rules.Replay disagrees (refused %d/%d/%d): %v", g.Info().Name, l.Name, o.Seed, refused, refused2, o.Wrong, err)
				}
				// Without the cards, the replay builds them from the deck description.
				if _, ev3, err := rec.Replay(nil); err != nil || !reflect.DeepEqual(events, ev3) {
					t.Fatalf("%s/%s: replay on rebuilt cards: %v", g.Info().Name, l.Name, err)
				}
			}
		}
	}
}

// TestConfigErrors checks that New refuses what the game refuses, with the
// game's reason, and bot levels that do not fit.
func TestConfigErrors(t *testing.T) {
	g, _ := rules.Lookup("tower")
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Game: g, Rules: rules.Config{Players: 9}}, "players: 9 players; tower takes 2 to 8"},
		{Config{Game: g, Rules: rules.Config{Players: 4, Options: map[string]string{"speed": "fast"}}}, `unknown option "speed"`},
		{Config{Game: g, Rules: rules.Config{Players: 4}, Deck: record.Deck{Order: 2, Cards: 4}}, "4 cards for 4 players"},
		{Config{Game: g, Rules: rules.Config{Players: 4}, Deck: record.Deck{Order: 6}}, "order 6"},
		{Config{Game: g, Rules: rules.Config{Players: 3}, Bots: make([]bot.Level, 2)}, "2 bot levels for 3 players"},
		{Config{Game: g, Rules: rules.Config{Players: 2}, Bots: []bot.Level{{Name: "x", WrongRate: 2}}}, "wrongRate 2 is out of range"},
		{Config{Rules: rules.Config{Players: 2}}, "no game"},
		{Config{Game: g, Rules: rules.Config{Players: 2}, Cards: mustCards(t, 5)}, "the cards given have fingerprint"},
	}
	for _, tt := range tests {
		_, err := New(tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.cfg, err, tt.want)
		}
	}
	var ce *rules.ConfigError
	if _, err := New(tests[0].cfg); !errors.As(err, &ce) || ce.Field != "players" {
		t.Errorf("players: %v is not a *rules.ConfigError", err)
	}
}

// TestStepLimit checks that a game longer than the step limit stops with
// an error instead of running on.
func TestStepLimit(t *testing.T) {
	g, _ := rules.Lookup("tower")
	_, err := Run(Config{Game: g, Rules: rules.Config{Players: 2}, MaxSteps: 10})
	if err == nil || !strings.Contains(err.Error(), "no end after 10 steps") {
		t.Fatalf("got %v", err)
	}
}

// TestDecks checks the deck choice: the classic deck by default, an edition
// or an order when asked, one-symbol cards only for Anarchy Pancakes.
func TestDecks(t *testing.T) {
	tower, _ := rules.Lookup("tower")
	d, x, err := DefaultDeck(tower).Build()
	if err != nil || d.Edition != "classic" || d.Size != 55 || d.Symbols != 57 || d.Singles || x.Len() != 55 {
		t.Fatalf("default deck %+v, %v", d, err)
	}
	if d, _, err := DeckFor(tower, "", 5, 20).Build(); err != nil || d.Size != 20 || d.Order != 5 || d.Edition != "" {
		t.Fatalf("order 5, 20 cards: %+v, %v", d, err)
	}
	if d, _, err := DeckFor(tower, "pancakes", 0, 0).Build(); err != nil || d.Size != 31 || d.Singles {
		t.Fatalf("the Tower with the pancakes edition: %+v, %v", d, err)
	}
	pancakes, _ := rules.Lookup("anarchy-pancakes")
	for _, d := range []record.Deck{DefaultDeck(pancakes), DeckFor(pancakes, "", 5, 0)} {
		d, x, err := d.Build()
		if err != nil || !d.Singles || d.Size != 62 || d.Symbols != 31 || x.Len() != 62 {
			t.Fatalf("pancakes deck %+v, %v", d, err)
		}
		for s := range 31 {
			if got := x.AppendCard(nil, 31+s); len(got) != 1 || got[0] != s {
				t.Fatalf("one-topping card %d shows %v", 31+s, got)
			}
		}
	}
	if d := DefaultDeck(pancakes); d.Edition != "pancakes" {
		t.Fatalf("Anarchy Pancakes plays with %+v by default", d)
	}
}

// TestTiesAreFair plays Towers between instant bots, whose claims always
// arrive together: each seat wins about a quarter of the claims.
func TestTiesAreFair(t *testing.T) {
	g, _ := rules.Lookup("tower")
	m, err := New(Config{Game: g, Rules: rules.Config{Players: 4}})
	if err != nil {
		t.Fatal(err)
	}
	won := make([]int, 4)
	total := 0
	for seed := range uint64(200) {
		o, err := m.Play(seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range o.Result.Scores {
			won[i] += c - 1 // the first card was dealt
			total += c - 1
		}
		if o.Late != 3*(o.Actions-1) {
			t.Fatalf("%d claims too late for %d actions; with four instant bots, three lose every claim but the last, which ends the game", o.Late, o.Actions)
		}
	}
	for i, w := range won {
		if f := float64(w) / float64(total); f < 0.23 || f > 0.27 {
			t.Errorf("seat %d won %.3f of the claims, want about 0.25", i, f)
		}
	}
}

// TestInstantShortcut plays every game with every player count between
// instant bots twice: through the shortcut for instant bots, which plans
// only for the seat that wins the tie, and through the general loop, where
// every bot plans after every change (a strict Sim takes it). The games are
// the same: same actions, same final table, same count of late claims.
func TestInstantShortcut(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		for p := info.MinPlayers; p <= info.MaxPlayers; p++ {
			cfg := Config{Game: g, Rules: rules.Config{Players: p}}
			fast, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Cards = fast.Cards()
			general, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			makeStrict(general)
			for seed := range uint64(8) {
				a, err1 := fast.Play(seed)
				b, err2 := general.Play(seed)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !a.State.Equal(b.State) {
					t.Fatalf("%s, %d players, seed %d: the shortcut ended elsewhere", info.Name, p, seed)
				}
				a.Wall, b.Wall, a.State, b.State = 0, 0, nil, nil
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s, %d players, seed %d: shortcut %+v, general loop %+v", info.Name, p, seed, a, b)
				}
			}
		}
	}
}

// TestStarvedSeatsEnd plays the games of `dobble sim --game collect-symbols
// --players 4 --bots instant,expert,instant,expert` from seed 20 to 29. The
// two instant bots discard and take each other's piles at once, again and
// again, so the expert bots, whose searches every change of the table
// starts afresh, never get to act; with the tokens left only on the
// experts' cards, the game went on without end (seed 22). Collect the
// Symbols ends a game that has stalled (rules/collect.go), so every game
// ends, well within the step limit.
func TestStarvedSeatsEnd(t *testing.T) {
	g, err := rules.Lookup("collect-symbols")
	if err != nil {
		t.Fatal(err)
	}
	instant, expert := mustLevel(t, "instant"), mustLevel(t, "expert")
	m, err := New(Config{Game: g, Rules: rules.Config{Players: 4}, Bots: []bot.Level{instant, expert, instant, expert}, MaxSteps: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(20); seed < 30; seed++ {
		o, err := m.Play(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkOutcome(t, o)
	}
}
