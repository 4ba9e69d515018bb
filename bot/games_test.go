package bot_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/sim"
)

// defaultCards returns the cards g is played with by default.
func defaultCards(t *testing.T, g rules.Game) *rules.Index {
	t.Helper()
	_, x, err := sim.DefaultDeck(g).Build()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestInstantIsPerfect plays every registered game with instant bots: every
// plan is a claim or draw the rules accept at the moment of planning, and
// the game ends.
func TestInstantIsPerfect(t *testing.T) {
	instant, err := bot.LookupLevel("instant")
	if err != nil || !instant.Instant() {
		t.Fatalf("instant level: %+v, %v", instant, err)
	}
	for _, g := range rules.Games() {
		info := g.Info()
		x := defaultCards(t, g)
		for p := info.MinPlayers; p <= info.MaxPlayers; p++ {
			s, err := rules.New(g, x, rules.Config{Players: p, Seed: uint64(p)})
			var ce *rules.ConfigError
			if errors.As(err, &ce) && ce.Field == "cards" && p > info.MinPlayers {
				break // the default deck does not seat p players (Tower-7: 7 cards each)
			}
			if err != nil {
				t.Fatalf("%s, %d players: %v", info.Name, p, err)
			}
			bots := make([]*bot.Bot, p)
			for i := range bots {
				bots[i] = bot.New(instant, i, 99)
			}
			r := rand.New(rand.NewPCG(uint64(p), 1))
			now := int64(0)
			for steps := 0; !s.Over(); steps++ {
				if steps > 100*x.Len() {
					t.Fatalf("%s: no end after %d steps", info.Name, steps)
				}
				var ready []bot.Plan
				for _, b := range bots {
					pl, ok := b.Plan(s, now)
					if !ok {
						continue
					}
					if pl.Action.At != now || pl.Decide != now || pl.Wrong || pl.Missed || pl.Comparisons != 0 {
						t.Fatalf("%s: instant plan %+v at %d", info.Name, pl, now)
					}
					if err := s.Check(pl.Action); err != nil {
						t.Fatalf("%s: instant plan %+v refused: %v", info.Name, pl.Action, err)
					}
					ready = append(ready, pl)
				}
				if d, ok := s.Deadline(); ok && (len(ready) == 0 || now >= d) {
					// Nobody acts before the game's clock: its tick.
					now = max(now, d)
					if _, err := s.Apply(rules.Action{Kind: rules.ActionTick, Seat: rules.NoSeat, Version: s.Version(), At: now}, nil); err != nil {
						t.Fatalf("%s: tick at %d: %v", info.Name, now, err)
					}
					continue
				}
				if len(ready) == 0 {
					t.Fatalf("%s: no bot can act at version %d", info.Name, s.Version())
				}
				if _, err := s.Apply(ready[r.IntN(len(ready))].Action, nil); err != nil {
					t.Fatal(err)
				}
				now += int64(r.IntN(3))
			}
		}
	}
}

// TestEveryLevelPlaysEveryGame plays every registered game with bots of
// every level, in a plain event loop, and checks every plan: a correct one
// is accepted when it arrives, a false alarm refused as wrong, none earlier
// than asked nor inside a lock-out.
func TestEveryLevelPlaysEveryGame(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		x := defaultCards(t, g)
		for _, l := range bot.Levels() {
			p := min(info.MaxPlayers, 4)
			s, err := rules.New(g, x, rules.Config{Players: p, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			bots := make([]*bot.Bot, p)
			plans := make([]bot.Plan, p)
			has := make([]bool, p)
			for i := range bots {
				bots[i] = bot.New(l, i, 5)
				plans[i], has[i] = bots[i].Plan(s, 0)
			}
			now := int64(0)
			for steps := 0; !s.Over(); steps++ {
				if steps > 50*x.Len() {
					t.Fatalf("%s/%s: no end after %d steps", info.Name, l.Name, steps)
				}
				// The earliest plan; plans arriving together in turn, so
				// that no seat keeps the others from moving (in Collect the
				// Symbols a seat can always discard).
				i := -1
				for k := range plans {
					j := (k + steps) % p
					if has[j] && (i < 0 || plans[j].Action.At < plans[i].Action.At) {
						i = j
					}
				}
				if d, ok := s.Deadline(); ok && (i < 0 || plans[i].Action.At >= d) {
					// The game's clock comes first: its tick, then every
					// bot plans again.
					now = max(now, d)
					if _, err := s.Apply(rules.Action{Kind: rules.ActionTick, Seat: rules.NoSeat, Version: s.Version(), At: now}, nil); err != nil {
						t.Fatalf("%s/%s: tick at %d: %v", info.Name, l.Name, now, err)
					}
					for j := range bots {
						plans[j], has[j] = bots[j].Plan(s, now)
					}
					continue
				}
				if i < 0 {
					t.Fatalf("%s/%s: no bot can act at version %d", info.Name, l.Name, s.Version())
				}
				pl := plans[i]
				if pl.Action.At < now || s.Locked(i, pl.Action.At) || pl.Action.Version != s.Version() {
					t.Fatalf("%s/%s: plan %+v at %d, seat locked until %d", info.Name, l.Name, pl, now, s.Seat(i).LockedUntil)
				}
				now = pl.Action.At
				_, err := s.Apply(pl.Action, nil)
				if pl.Wrong {
					var r *rules.Refusal
					if !errors.As(err, &r) || !r.Code.Wrong() {
						t.Fatalf("%s/%s: false alarm %+v: %v", info.Name, l.Name, pl.Action, err)
					}
					plans[i], has[i] = bots[i].Plan(s, now)
					continue
				}
				if err != nil {
					t.Fatalf("%s/%s: plan %+v refused: %v", info.Name, l.Name, pl.Action, err)
				}
				for j := range bots {
					plans[j], has[j] = bots[j].Plan(s, now)
				}
			}
		}
	}
}

// TestRecallWinsMemory plays Memory between an easy bot, which remembers a
// card it is shown six times in ten, and an expert, nineteen times in
// twenty, taking the first turn in turns: the expert takes more cards.
// Memory plays in turns with time enough for both, so only what they
// remember tells them apart.
func TestRecallWinsMemory(t *testing.T) {
	g, err := rules.Lookup("memory")
	if err != nil {
		t.Fatal(err)
	}
	easy, _ := bot.LookupLevel("easy")
	expert, _ := bot.LookupLevel("expert")
	var taken [2]int // by level: easy, expert
	for first := range 2 {
		levels := []bot.Level{easy, expert}
		if first == 1 {
			levels = []bot.Level{expert, easy}
		}
		m, err := sim.New(sim.Config{Game: g, Rules: rules.Config{Players: 2}, Bots: levels})
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(300) {
			o, err := m.Play(seed)
			if err != nil {
				t.Fatal(err)
			}
			taken[first] += o.Result.Scores[0]
			taken[1-first] += o.Result.Scores[1]
		}
	}
	if taken[1] < taken[0]*5/4 {
		t.Errorf("the expert took %d points, the easy bot %d: want a quarter more", taken[1], taken[0])
	}
}
