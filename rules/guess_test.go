package rules

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

func init() { viewChecks["guess"] = checkGuessView }

// checkGuessView checks Guess's extra view: the secret goes to the host
// seat only, the flips are the turned cards with what they tell, nothing
// else is eliminated.
func checkGuessView(s *State, seat int, v View) error {
	g, ok := v.Extra.(GuessView)
	e := s.ext.(*guessExt)
	if !ok {
		return fmt.Errorf("extra %T", v.Extra)
	}
	want := -1
	if seat >= 0 && seat == e.host && !s.Over() {
		want = e.secret
	}
	if g.Secret != want {
		return fmt.Errorf("seat %d sees the secret as %d (host %d)", seat, g.Secret, e.host)
	}
	turned := s.Zone(guessTurned).AppendCards(nil)
	if len(g.Flips) != len(turned) {
		return fmt.Errorf("%d flips for %d turned cards", len(g.Flips), len(turned))
	}
	for i, f := range g.Flips {
		if f.Card != turned[i] || f.Secret != s.Cards().Has(f.Card, e.secret) {
			return fmt.Errorf("flip %+v", f)
		}
	}
	return nil
}

// verifyGuess checks an accepted Guess action against RULES.md §4.3 with
// the real deck: a guess scores +5 and ends the round when it names the
// secret, −1 (or −2 waiting) otherwise; a tick turns the next card,
// eliminating a symbol neither on it nor the secret, or ends the round.
func verifyGuess(before *State, d *deck.Deck, a Action, ev []Event) error {
	e := before.ext.(*guessExt)
	if a.Kind == ActionGuess {
		right := a.Symbol == e.secret
		want := -1
		switch {
		case right:
			want = 5
		case before.Option(guessOptWrong) != guessWrongOut:
			want = -2
		}
		if a.Seat == e.host || e.out[a.Seat] || ev[0].Kind != EventGuess || (ev[0].Count == 1) != right ||
			ev[1].Kind != EventScore || ev[1].Count != want {
			return fmt.Errorf("guess of %d (secret %d) by seat %d: %+v", a.Symbol, e.secret, a.Seat, ev)
		}
		return nil
	}
	if before.Zone(guessDeck).Len() == 0 {
		if ev[0].Kind != EventSecret || ev[0].Symbol != e.secret || ev[0].Seat != NoSeat {
			return fmt.Errorf("the deck turned: %+v", ev)
		}
		return nil
	}
	card := before.Zone(guessDeck).Top()
	f := ev[1]
	if f.Kind != EventFlip || f.Card != card || (f.Count == 1) != d.Has(card, e.secret) ||
		(f.Symbol >= 0 && (f.Symbol == e.secret || d.Has(card, f.Symbol))) {
		return fmt.Errorf("turn of card %v, secret %d: %+v", d.Card(card), e.secret, ev)
	}
	return nil
}

// TestGuessScenario plays RULES.md §4.3 on the order-2 deck (cards 0 =
// {0,1,3}, 1 = {1,2,4}, 2 = {2,3,5}, 3 = {3,4,6}, 4 = {0,4,5}, 5 = {1,5,6},
// 6 = {0,2,6}) with three players, the rules hosting.
func TestGuessScenario(t *testing.T) {
	s, err := New(mustGame(t, "guess"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{0, 1, 2, 3, 4, 5, 6}, nil)
	e := s.ext.(*guessExt)
	e.secret = 6
	do := func(a Action) []Event {
		t.Helper()
		ev, err := s.Apply(a, nil)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		return ev
	}
	for seat := -1; seat < 3; seat++ {
		if g := s.View(seat).Extra.(GuessView); g.Secret != -1 || g.Host != -1 {
			t.Fatalf("seat %d sees %+v", seat, g)
		}
	}
	// "The host flips cards one at a time, saying each time whether the
	// secret is on the card, and naming one symbol that is not on the card
	// and is not the secret."
	tick, _ := s.Tick()
	if tick.At != 2500 {
		t.Fatalf("first card at %d", tick.At)
	}
	ev := do(tick)
	g := s.View(0).Extra.(GuessView)
	if ev[1].Kind != EventFlip || ev[1].Card != 6 || ev[1].Count != 1 || len(g.Flips) != 1 || !g.Flips[0].Secret ||
		slices.Contains([]int{0, 2, 6}, g.Flips[0].Eliminated) || g.Flips[0].Eliminated < 0 {
		t.Fatalf("flip: %+v, view %+v", ev, g)
	}
	// A wrong guess: −1 and out for the round.
	ev = do(Action{Kind: ActionGuess, Seat: 0, Symbol: 2, Version: 1, At: 3000})
	if ev[0].Kind != EventGuess || ev[0].Count != 0 || ev[1].Count != -1 || ev[2].Kind != EventOut || s.Seat(0).Tally != -1 {
		t.Fatalf("wrong guess: %+v", ev)
	}
	mustRefuse(t, s, Action{Kind: ActionGuess, Seat: 0, Symbol: 6, Version: 2, At: 3100}, ErrOut)
	// Seat 1 guesses right, against the version it saw (before seat 0's
	// guess): guesses do not race. +5, the secret shown, round 2.
	ev = do(Action{Kind: ActionGuess, Seat: 1, Symbol: 6, Version: 1, At: 3200})
	if ev[0].Count != 1 || ev[1].Count != 5 || ev[2].Kind != EventSecret || ev[2].Symbol != 6 || s.Round() != 2 ||
		s.Zone(guessTurned).Len() != 0 || s.View(2).Extra.(GuessView).Last != 6 {
		t.Fatalf("right guess: %+v", ev)
	}
	// A guess from round 1 comes too late for round 2.
	mustRefuse(t, s, Action{Kind: ActionGuess, Seat: 2, Symbol: 6, Version: 2, At: 3300}, ErrTooLate)
	// Rounds 2 and 3: seat 2 guesses right at once.
	for round := 2; round <= 3; round++ {
		ev = do(Action{Kind: ActionGuess, Seat: 2, Symbol: e.secret, Version: s.Version(), At: 4000})
	}
	if l := ev[len(ev)-1]; !s.Over() || l.Kind != EventOver || !slices.Equal(l.Result.Scores, []int{-1, 5, 10}) {
		t.Fatalf("end: %+v", ev)
	}
}

// TestGuessPlayerHost plays the variants: a player hosts, and a wrong
// guess waits for another player's.
func TestGuessPlayerHost(t *testing.T) {
	s, err := New(mustGame(t, "guess"), mustDeck(t, 2, 0),
		Config{Players: 3, Seed: 2, Options: map[string]string{"host": "player", "wrong": "wait"}})
	if err != nil {
		t.Fatal(err)
	}
	e := s.ext.(*guessExt)
	wrong := (e.secret + 1) % 7
	if g := s.View(0).Extra.(GuessView); g.Host != 0 || g.Secret != e.secret {
		t.Fatalf("the host sees %+v", g)
	}
	if g := s.View(1).Extra.(GuessView); g.Secret != -1 {
		t.Fatalf("seat 1 sees the secret: %+v", g)
	}
	mustRefuse(t, s, Action{Kind: ActionGuess, Seat: 0, Symbol: e.secret, At: 10}, ErrOut)
	ev, err := s.Apply(Action{Kind: ActionGuess, Seat: 1, Symbol: wrong, At: 20}, nil)
	if err != nil || ev[1].Count != -2 {
		t.Fatalf("wrong guess, waiting variant: %v %+v", err, ev)
	}
	mustRefuse(t, s, Action{Kind: ActionGuess, Seat: 1, Symbol: e.secret, Version: 1, At: 30}, ErrNotNow)
	if _, err := s.Apply(Action{Kind: ActionGuess, Seat: 2, Symbol: wrong, Version: 1, At: 40}, nil); err != nil {
		t.Fatal(err)
	}
	// Seat 2 has guessed: seat 1 may guess again, and wins the round.
	ev, err = s.Apply(Action{Kind: ActionGuess, Seat: 1, Symbol: e.secret, Version: 2, At: 50}, nil)
	if err != nil || ev[1].Count != 5 || s.Round() != 2 {
		t.Fatalf("%v %+v", err, ev)
	}
	// Round 2 is hosted by seat 1, who alone is told the secret.
	var secret Event
	for _, x := range ev {
		if x.Kind == EventSecret && x.Seat == 1 {
			secret = x
		}
	}
	if secret.Symbol != e.secret || s.EventFor(secret, 0).Symbol != -1 || s.View(1).Extra.(GuessView).Secret != e.secret {
		t.Fatalf("round 2's secret: %+v", secret)
	}
}

func TestGuessProperties(t *testing.T) { runProperties(t, "guess", verifyGuess) }

func TestGuessVariantProperties(t *testing.T) {
	runPropertiesOf(t, mustGame(t, "guess"), map[string]string{"host": "player", "wrong": "wait"}, verifyGuess)
}

func FuzzGuess(f *testing.F) { fuzzGame(f, "guess", verifyGuess) }

// TestNthBit checks nthBit against clearing the lowest bits one by one.
func TestNthBit(t *testing.T) {
	masks := []uint64{1, 1 << 63, 0xffff_ffff_ffff_ffff, 0x8000_0001_0001_0100, 0x0123_4567_89ab_cdef, 0xf0f0_0000_0f0f_0000}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		masks = append(masks, r.Uint64()&r.Uint64(), r.Uint64()|r.Uint64(), r.Uint64()>>r.IntN(64))
	}
	for _, m := range masks {
		x := m
		for k := range bits.OnesCount64(m) {
			if got, want := nthBit(m, k), bits.TrailingZeros64(x); got != want {
				t.Fatalf("nthBit(%#x, %d) = %d, want %d", m, k, got, want)
			}
			x &= x - 1
		}
	}
}

// TestAllowedTooLate checks that State.Allowed turns down a guess of a
// round that is over without allocating, and that Check still explains
// the same refusal in full afterwards.
func TestAllowedTooLate(t *testing.T) {
	s, err := New(mustGame(t, "guess"), mustDeck(t, 2, 0), Config{Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	old := Action{Kind: ActionGuess, Seat: 2, Symbol: s.ext.(*guessExt).secret, Version: 0, At: 100}
	if !s.Allowed(&old) {
		t.Fatalf("the right guess %+v is not allowed: %v", old, s.Check(old))
	}
	if _, err := s.Apply(Action{Kind: ActionGuess, Seat: 1, Symbol: old.Symbol, At: 50}, nil); err != nil || s.Round() != 2 {
		t.Fatalf("seat 1's right guess: %v, round %d", err, s.Round())
	}
	if n := testing.AllocsPerRun(100, func() {
		if s.Allowed(&old) {
			t.Fatalf("a guess of round 1 is allowed in round 2")
		}
	}); n != 0 {
		t.Fatalf("Allowed allocates %v times", n)
	}
	var r *Refusal
	if err := s.Check(old); !errors.As(err, &r) || r.Code != CodeTooLate || r.Seat != 2 || r.Current != s.Version() {
		t.Fatalf("Check after Allowed: %v", err)
	}
}
