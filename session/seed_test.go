package session

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// golden is the increment of SplitMix64, with which table seeds were once
// stepped from the session's seed.
const golden = 0x9e3779b97f4a7c15

// splitMix is the SplitMix64 step that once made table k's seed from the
// session's seed: seed + (k+1)·golden, mixed.
func splitMix(seed uint64, k int) uint64 {
	z := seed + uint64(k+1)*golden
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// unmix undoes SplitMix64's mixing: the attack that read the session's
// seed back from the seed of its first table.
func unmix(z uint64) uint64 {
	unshift := func(x uint64, s uint) uint64 {
		y := x
		for i := s; i < 64; i += s {
			y ^= x >> i
		}
		return y
	}
	inverse := func(c uint64) uint64 {
		inv := c // Newton's iteration, doubling the bits right each time
		for range 6 {
			inv *= 2 - c*inv
		}
		return inv
	}
	z = unshift(z, 31)
	z *= inverse(0x94d049bb133111eb)
	z = unshift(z, 27)
	z *= inverse(0xbf58476d1ce4e5b9)
	return unshift(z, 30)
}

// TestNextTableNotForeseen plays the first table of a session and tries
// what a player once did with the seed its record shows: undo the step
// from the session's seed, and compute the next table's seed from it. The
// next table's deal must not be foreseen that way, and the seed of every
// table must differ from the others'.
func TestNextTableNotForeseen(t *testing.T) {
	for _, x := range []uint64{0, 1, 42, 1<<64 - 1} {
		if got := unmix(splitMix(x, 0)) - golden; got != x {
			t.Fatalf("the attack is broken: it reads %d back as %d", x, got)
		}
	}
	for _, seed := range []uint64{1, 7, 20250314, 1<<64 - 59} {
		r := newRecorder(t, Config{Players: 3, Seed: seed, Games: 4}, Decks{Cards: classic(t)})
		seen := map[uint64]int{}
		for table := 0; !r.s.Over(); table++ {
			shown := r.s.State().Config().Seed // in the table's record, once it is over
			if k, ok := seen[shown]; ok {
				t.Fatalf("seed %d: tables %d and %d are dealt with the same seed", seed, k, table)
			}
			seen[shown] = table
			r.play(seq(table % 3))
			if r.s.Over() {
				break
			}
			if r.s.Phase() == PhasePick {
				r.pick(r.s.Picker(), "tower")
			}
			next := r.s.State().Config().Seed
			if guess := splitMix(unmix(shown)-uint64(table+1)*golden, table+1); guess == next {
				t.Fatalf("session seed %d: table %d's seed %d foresees table %d's, %d", seed, table, shown, table+1, next)
			}
		}
	}
}

// TestHistoryHoldsNoSeed checks that the history of a session, which the
// server sends every seat and spectator during the session, and the
// mini-game being settled hold no seed.
func TestHistoryHoldsNoSeed(t *testing.T) {
	r := newRecorder(t, Config{Players: 4, Seed: 5, Games: 2, TieBreak: "learning",
		TieBreakOptions: map[string]string{"pairs": "3"}}, Decks{Cards: classic(t)})
	var shown []any
	r.play(cycle(51, 0, 0, 1, 2)) // a Tower tied among seats 0, 1 and 2
	shown = append(shown, r.s.History(), r.s.Settling())
	r.play(seq(0, 1, 2)) // a tie-break tied again
	shown = append(shown, r.s.History(), r.s.Settling())
	r.play(seq(2, 0, 2)) // and one that settles it
	shown = append(shown, r.s.History(), r.s.Settling())
	if h := r.s.History(); len(h) != 1 || len(h[0].TieBreaks) != 2 {
		t.Fatalf("history %+v", h)
	}
	b, err := json.Marshal(shown)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"seed"`) {
		t.Fatalf("the history shows seeds: %s", b)
	}
}

// TestTableSeeds checks that table k is dealt with TableSeed of the
// session's seed and k, tie-breaks included, that the same seed plays the
// same session, and that the bots' seeds are not the tables'.
func TestTableSeeds(t *testing.T) {
	cfg := Config{Players: 4, Seed: 5, Games: 1, TieBreak: "learning", TieBreakOptions: map[string]string{"pairs": "3"}}
	var seeds [2][]uint64
	for i := range seeds {
		r := newRecorder(t, cfg, Decks{Cards: classic(t)})
		for _, who := range []func(int) int{cycle(51, 0, 0, 1, 2), seq(0, 1, 2), seq(2, 0, 2)} {
			k, got := r.s.Table(), r.s.State().Config().Seed
			if want := TableSeed(cfg.Seed, k); got != want {
				t.Fatalf("table %d is dealt with seed %d, not TableSeed %d", k, got, want)
			}
			if BotSeed(cfg.Seed, k) == got {
				t.Fatalf("table %d: the bots' seed is the table's", k)
			}
			seeds[i] = append(seeds[i], got)
			r.play(who)
		}
		if !r.s.Over() {
			t.Fatal("the session is not over after its tie-breaks")
		}
	}
	if seeds[0][0] == seeds[0][1] || seeds[0][1] == seeds[0][2] || !slices.Equal(seeds[0], seeds[1]) {
		t.Fatalf("the seeds of two sessions with one seed: %v", seeds)
	}
	if TableSeed(1, 0) == TableSeed(2, 0) || TableSeed(1, 0) == TableSeed(1, 1) {
		t.Fatal("TableSeed does not depend on both the session's seed and the table")
	}
}
