package rules

import (
	"reflect"
	"testing"
)

// TestTournamentPoints checks every row of the tournament table (RULES.md §5 and the
// decisions in the session package's documentation) against hand-computed values.
func TestTournamentPoints(t *testing.T) {
	res := func(unit string, scores ...int) *Result { return &Result{Unit: unit, Scores: scores} }
	for _, tc := range []struct {
		name       string
		o          Outcome
		newScoring bool
		want       []int
		comment    string
	}{
		{"tower", Outcome{Game: "tower", Result: res("cards", 10, 3, 30, 12), Places: []int{3, 4, 1, 2}}, false,
			[]int{9, 2, 34, 11}, "+1 per card won (held − 1), +5 most cards"},
		{"tower tie settled", Outcome{Game: "tower", Result: res("cards", 20, 20, 14), Places: []int{2, 1, 3}}, false,
			[]int{19, 24, 13}, "+5 to the tie-break's winner"},
		{"well", Outcome{Game: "well", Result: res("cards", 0, 5, 9, 3), Places: []int{1, 3, 4, 2}}, false,
			[]int{10, 0, -20, 0}, "+10 first to empty, −20 last"},
		{"well shared last", Outcome{Game: "well", Result: res("cards", 0, 7, 7), Places: []int{1, 2, 2}}, false,
			[]int{10, -20, -20}, "every seat sharing the last place loses 20"},
		{"well last-loses", Outcome{Game: "well", Result: res("place", 1, 3, 2), Places: []int{1, 3, 2}}, true,
			[]int{10, -20, 0}, "places as scores: the classic table"},
		{"well new", Outcome{Game: "well", Result: res("cards", 0, 5, 9, 3), Places: []int{1, 3, 4, 2}}, true,
			[]int{10, -5, -14, -3}, "−1 per card left, −5 more for the most"},
		{"well new tied most", Outcome{Game: "well", Result: res("cards", 0, 4, 4, 1), Places: []int{1, 3, 3, 2}}, true,
			[]int{10, -9, -9, -1}, "both seats with the most left lose 5 more"},
		{"well new two", Outcome{Game: "well", Result: res("cards", 6, 0), Places: []int{2, 1}}, true,
			[]int{-6, 10}, "no −5 with two players"},
		{"gift", Outcome{Game: "poisoned-gift", Result: res("cards", 3, 1, 6, 2), Places: []int{3, 1, 4, 2}}, false,
			[]int{0, 20, 0, 10}, "+20 fewest, +10 second fewest"},
		{"gift tie settled", Outcome{Game: "poisoned-gift", Result: res("cards", 2, 2, 5), Places: []int{2, 1, 3}}, false,
			[]int{10, 20, 0}, "the tie-break's loser is second"},
		{"gift new", Outcome{Game: "poisoned-gift", Result: res("cards", 4, 2, 9, 3), Places: []int{3, 1, 4, 2}}, true,
			[]int{-6, -1, -10, -3}, "received 3,1,8,2: losses 1, max(2,1+2)=3, max(3,3+3)=6, max(8,6+4)=10"},
		{"gift new shared", Outcome{Game: "poisoned-gift", Result: res("cards", 4, 2, 4, 9), Places: []int{2, 1, 2, 4}}, true,
			[]int{-3, -1, -3, -8}, "a shared place loses alike; the next place steps by 3"},
		{"hot potato", Outcome{Game: "hot-potato", Result: res("cards", 9, 0, 4, 12), Tallies: []int{2, 0, 1, 3}, Places: []int{3, 1, 2, 4}}, false,
			[]int{-10, 0, -5, -15}, "−5 per round lost"},
		{"hot potato series", Outcome{Game: "hot-potato", Result: res("cards", 0, 2, 6, 8), Tallies: []int{0, 1, 2, 2},
			Options: map[string]string{"scoring": "series", "rounds": "5", "end": "rounds"}, Places: []int{1, 2, 3, 4}}, false,
			[]int{0, -2, -6, -8}, "−1 per penalty card"},
		{"catch them all", Outcome{Game: "catch-them-all", Result: res("cards", 10, 14, 7), Places: []int{2, 1, 3}}, false,
			[]int{10, 14, 7}, "+1 per card won"},
		{"triplets", Outcome{Game: "triplets", Result: res("cards", 21, 18, 15), Places: []int{1, 2, 3}}, false,
			[]int{26, 18, 15}, "+1 per card won, +5 most"},
		{"subway rescue", Outcome{Game: "subway-rescue", Result: res("cards", 12, 20, 9), Places: []int{2, 1, 3}}, false,
			[]int{11, 24, 8}, "+1 per card won (held − 1), +5 most"},
		{"anarchy pancakes", Outcome{Game: "anarchy-pancakes", Result: res("butter pats", 2, 1, 0), Places: []int{1, 2, 3}}, false,
			[]int{20, 10, 0}, "+10 per butter pat"},
		{"learning", Outcome{Game: "learning", Result: res("pairs", 5, 3), Places: []int{1, 2}}, false,
			[]int{5, 3}, "+1 per pair"},
		{"duel", Outcome{Game: "duel", Result: res("cards", 0, 2), Places: []int{2, 1}}, false,
			[]int{0, 5}, "+5 to the winner"},
		{"other", Outcome{Game: "reflection", Result: res("points", 7, 3, 3), Places: []int{1, 2, 2}}, false,
			[]int{5, 0, 0}, "+5 to the winner"},
	} {
		g, err := Lookup(tc.o.Game)
		if err != nil {
			t.Fatal(err)
		}
		if got := TournamentPoints(g, &tc.o, tc.newScoring); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%s): points %v, want %v", tc.name, tc.comment, got, tc.want)
		}
	}
}
