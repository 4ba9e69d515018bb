package session

import (
	"slices"

	"github.com/dobble-dev/dobble/rules"
)

// Outcome is what the tournament points of a finished mini-game depend on:
// its result, its seats' tallies, the options it was played with and the
// places after tie-breaks. Played holds all of it.
type Outcome struct {
	// Game is the mini-game's canonical name.
	Game string `json:"game"`
	// Result is the game's own result.
	Result *rules.Result `json:"result"`
	// Tallies holds each seat's Seat.Tally at the end.
	Tallies []int `json:"tallies"`
	// Options are the options it was played with, by name.
	Options map[string]string `json:"options,omitempty"`
	// Places holds each seat's settled place, 1 for the winner.
	Places []int `json:"places"`
}

// Variants are the optional scoring rules of RULES.md §5 that a session
// can switch on.
type Variants struct {
	// WellNew scores the Well with the new scoring: +10 to the winner,
	// −1 per card left for the others, −5 more to the seats with the most
	// cards left when more than two play.
	WellNew bool `json:"wellNew,omitzero"`
	// GiftNew scores the Poisoned Gift with the new scoring: a point lost
	// per card received, each place losing at least 2, 3, 4… more than
	// the place before.
	GiftNew bool `json:"giftNew,omitzero"`
}

// pointRule adds the points of one game's outcome to pts.
type pointRule func(o *Outcome, v Variants, pts []int)

// pointRules holds the rule of every game with a row in the table of the
// package documentation; any other game scores with winnerBonus.
var pointRules = map[string]pointRule{
	"tower":            cardsWonPlusBonus(1),
	"well":             wellPoints,
	"poisoned-gift":    giftPoints,
	"hot-potato":       potatoPoints,
	"catch-them-all":   func(o *Outcome, _ Variants, pts []int) { perScore(o, 1, 0, pts) },
	"triplets":         func(o *Outcome, _ Variants, pts []int) { perScore(o, 1, 0, pts); atPlace(o, 1, 5, pts) },
	"subway-rescue":    cardsWonPlusBonus(1),
	"anarchy-pancakes": func(o *Outcome, _ Variants, pts []int) { perScore(o, 10, 0, pts) },
	"learning":         func(o *Outcome, _ Variants, pts []int) { perScore(o, 1, 0, pts) },
}

// winnerBonus is the rule of a game without its own: +5 to the winner.
func winnerBonus(o *Outcome, _ Variants, pts []int) { atPlace(o, 1, 5, pts) }

// Points returns the tournament points each seat earns for outcome o under
// the variants v, by the table in the package documentation.
func Points(o *Outcome, v Variants) []int {
	pts := make([]int, len(o.Places))
	rule, ok := pointRules[o.Game]
	if !ok {
		rule = winnerBonus
	}
	rule(o, v, pts)
	return pts
}

// perScore adds k points per unit of each seat's score, less dealt (the
// cards a seat was dealt and did not win).
func perScore(o *Outcome, k, dealt int, pts []int) {
	for i, sc := range o.Result.Scores {
		pts[i] += k * (sc - dealt)
	}
}

// perTally adds k points per unit of each seat's tally.
func perTally(o *Outcome, k int, pts []int) {
	for i, t := range o.Tallies {
		pts[i] += k * t
	}
}

// atPlace adds k points to every seat at place.
func atPlace(o *Outcome, place, k int, pts []int) {
	for i, p := range o.Places {
		if p == place {
			pts[i] += k
		}
	}
}

// cardsWonPlusBonus is the Tower's rule for a game in which each seat is
// dealt dealt cards and holds its cards at the end: +1 per card won, +5 to
// the winner.
func cardsWonPlusBonus(dealt int) pointRule {
	return func(o *Outcome, _ Variants, pts []int) {
		perScore(o, 1, dealt, pts)
		atPlace(o, 1, 5, pts)
	}
}

// wellPoints scores the Well: +10 to the first to empty and −20 to the
// last; or, with the new scoring and cards left as the scores (the
// first-empty end), +10 to the winner, −1 per card left and −5 more to the
// seats with the most left when more than two play.
func wellPoints(o *Outcome, v Variants, pts []int) {
	atPlace(o, 1, 10, pts)
	if v.WellNew && o.Result.Unit == "cards" {
		most := 0
		for i, left := range o.Result.Scores {
			if o.Places[i] != 1 {
				pts[i] -= left
				most = max(most, left)
			}
		}
		if len(pts) > 2 && most > 0 {
			for i, left := range o.Result.Scores {
				if o.Places[i] != 1 && left == most {
					pts[i] -= 5
				}
			}
		}
		return
	}
	if last := slices.Max(o.Places); last > 1 {
		atPlace(o, last, -20, pts)
	}
}

// potatoPoints scores Hot Potato: −5 per round lost; or, when the game
// was played with its own new scoring (option scoring=series, RULES.md §5),
// −1 per penalty card, the penalties that scoring records.
func potatoPoints(o *Outcome, _ Variants, pts []int) {
	if o.Options["scoring"] == "series" {
		perScore(o, -1, 0, pts)
		return
	}
	perTally(o, -5, pts)
}

// giftPoints scores the Poisoned Gift: +20 to the winner, +10 to second
// place; or, with the new scoring, minus the cards received (cards held
// less the one dealt), each place losing at least k more than the place
// before it, k being 2 for the second place, 3 for the third and so on.
func giftPoints(o *Outcome, v Variants, pts []int) {
	if !v.GiftNew {
		atPlace(o, 1, 20, pts)
		atPlace(o, 2, 10, pts)
		return
	}
	order := make([]int, len(o.Places))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return o.Places[a] - o.Places[b] })
	loss, step := 0, 1
	for k, seat := range order {
		received := o.Result.Scores[seat] - 1
		switch {
		case k == 0:
			loss = received
		case o.Places[seat] != o.Places[order[k-1]]:
			step++
			loss = max(received, loss+step)
		}
		pts[seat] = -loss
	}
}
