package rules

// Result is the outcome of a game, or the standing of one in progress: a
// score per seat in the game's own unit (cards held in the Tower, cards left
// in the Well, butter pats in Anarchy Pancakes), the winners and the
// ranking. Ties are reported, not broken: several winners mean a tie, which
// a session settles with a duel or a Hot Potato round.
type Result struct {
	// Unit names what the scores count, e.g. "cards".
	Unit string `json:"unit"`
	// HigherWins is true when the highest score wins, false when the
	// lowest does.
	HigherWins bool `json:"higherWins"`
	// Scores holds one score per seat.
	Scores []int `json:"scores"`
	// Winners lists the seats with the best score, in seat order.
	Winners []int `json:"winners"`
	// Ranking lists every seat from best to worst; tied seats keep seat
	// order.
	Ranking []int `json:"ranking"`
	// Places holds each seat's place, 1 for the best; tied seats share a
	// place and the next place skips (1, 1, 3).
	Places []int `json:"places"`
}

// Rank builds the Result for scores: winners, ranking and places, the best
// score being the highest when higherWins is set and the lowest otherwise.
// It copies scores and makes two allocations in all.
func Rank(unit string, higherWins bool, scores []int) *Result {
	p := len(scores)
	var r *Result
	var buf []int
	if p <= DobbleMaxPlayers {
		// One allocation for the result and its lists.
		b := &rankBlock{}
		r, buf = &b.r, b.buf[:4*p]
	} else {
		r, buf = &Result{}, make([]int, 4*p)
	}
	r.Unit, r.HigherWins = unit, higherWins
	r.Scores, r.Ranking, r.Places = buf[:p:p], buf[p:2*p:2*p], buf[2*p:3*p:3*p]
	copy(r.Scores, scores)
	better := func(a, b int) bool {
		if higherWins {
			return a > b
		}
		return a < b
	}
	// Insertion sort: stable, allocation-free, and tables have at most a
	// handful of seats.
	for i := 0; i < p; i++ {
		j := i
		for j > 0 && better(scores[i], scores[r.Ranking[j-1]]) {
			r.Ranking[j] = r.Ranking[j-1]
			j--
		}
		r.Ranking[j] = i
	}
	winners := buf[3*p : 3*p : 4*p]
	for k, seat := range r.Ranking {
		if k > 0 && scores[seat] == scores[r.Ranking[k-1]] {
			r.Places[seat] = r.Places[r.Ranking[k-1]]
		} else {
			r.Places[seat] = k + 1
		}
		if r.Places[seat] == 1 {
			winners = append(winners, seat)
		}
	}
	// Winners in seat order: the ranking lists tied seats in seat order
	// already, so the first-placed seats come out sorted.
	r.Winners = winners
	return r
}

// rankBlock is a Result allocated with the room for its lists (scores,
// ranking, places, winners) of a table of up to DobbleMaxPlayers seats.
type rankBlock struct {
	r   Result
	buf [4 * DobbleMaxPlayers]int
}
