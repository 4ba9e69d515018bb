package record

import (
	"fmt"
	"slices"

	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// SessionFormat is the version of the session line this package writes.
// A record without a session line (a game played on its own, or written
// before sessions were recorded) reads, replays and checks as before.
const SessionFormat = 1

// TypeSession is the line that follows the result line of a table played
// in a session (package session): the Session.
const TypeSession = "session"

// Session is the session line of a table played in a session: where the
// table stands in it (its number, its seats, who picked its game, the
// mini-game whose tie it breaks), the mini-game it settled, if it settled
// one (the result, the tie-breaks, the places, the tournament points, the
// loser who picks next), and the standings before and after it. With the
// line, the record of each table tells its part of the session on its own;
// the records of a session's tables, in order, tell the whole session
// (CheckSession). Seats are session seats, but in a TieBreak's result.
type Session struct {
	// Format is the session line's format, SessionFormat.
	Format int `json:"format"`
	// Config is the session's configuration, defaults resolved, without
	// its seed (the session's secret, which the tables' seeds come from).
	Config session.Config `json:"config"`
	// Table is the table's number in the session, from 0, tie-breaks
	// counted.
	Table int `json:"table"`
	// Seats holds the session seat of each seat of the table.
	Seats []int `json:"seats"`
	// Picker is the session seat that picked the table's game, -1 for the
	// first mini-game and for a tie-break.
	Picker int `json:"picker"`
	// TieBreak, for a tie-break, is the table of the mini-game whose tie
	// it breaks; nil otherwise.
	TieBreak *int `json:"tieBreak,omitempty"`
	// Before are the session's standings before the table.
	Before session.Standings `json:"before"`
	// Settled is the mini-game the table settled: set once its game, and
	// any tie-break, leaves one winner (or TieBreakLimit tie-breaks were
	// played); nil for a table after which a tie-break is played.
	Settled *session.Played `json:"settled,omitempty"`
	// Played is the number of mini-games settled, this one included.
	Played int `json:"played"`
	// Standings are the session's standings after the table.
	Standings session.Standings `json:"standings"`
	// Over is set when the table ended the session: Standings are the
	// final ones, their Winners the grand winners.
	Over bool `json:"over,omitzero"`

	line int
}

// sessionLine is a session line as written and read.
type sessionLine struct {
	Type string `json:"type"`
	Session
}

// SessionStart returns the session line of the table of s about to be
// played, as far as it is known at its start: the table, its seats, who
// picked its game or whose tie it breaks, the standings before it. Finish
// completes it once the table's game has ended.
func SessionStart(s *session.Session) *Session {
	cfg := s.Config()
	cfg.Seed = 0
	line := &Session{Format: SessionFormat, Config: cfg, Table: s.Table(), Seats: s.Seats(), Picker: rules.NoSeat, Before: s.Standings()}
	if p := s.Settling(); p != nil {
		if p.Table != line.Table {
			line.TieBreak = &p.Table
		} else {
			line.Picker = p.Picker
		}
	}
	return line
}

// Finish completes the session line of a table of s once its game has
// ended (and s has moved on): the mini-game it settled, if it did, and the
// standings after it.
func (line *Session) Finish(s *session.Session) {
	h := s.History()
	line.Played, line.Standings, line.Over = len(h), s.Standings(), s.Over()
	if s.Settling() == nil && len(h) > 0 {
		line.Settled = &h[len(h)-1]
	}
}

// Session writes the session line after the record of a table just closed
// with End.
func (w *Writer) Session(line *Session) error {
	if w.open && w.err == nil {
		w.err = fmt.Errorf("record: a session line follows a record's %s line", TypeResult)
	}
	return w.write(sessionLine{TypeSession, *line})
}

// checkSession checks the record's session line against the table's
// result and against itself: the mini-game it settled (the result this
// table or its tie-breaks gave, the places they settle, the tournament
// points each game's rule gives, the loser), and the standings after it,
// which follow from those before and the mini-game settled.
func (c *checker) checkSession(line *Session) error {
	c.line = line.line
	if c.line == 0 {
		c.line = c.rec.endLine() + 1
	}
	cfg := &line.Config
	n := cfg.Players
	switch {
	case line.Format < 1 || line.Format > SessionFormat:
		return c.fail("session line format %d; this package reads 1 to %d", line.Format, SessionFormat)
	case c.rec.End == nil || !c.rec.End.Over:
		return c.fail("a session line after a table whose game did not end")
	case len(line.Seats) != c.p:
		return c.fail("the session line seats %d session seats at a table of %d", len(line.Seats), c.p)
	case line.Table < 0 || line.Played < 0 || line.Played > cfg.Games:
		return c.fail("table %d, %d mini-games played of %d", line.Table, line.Played, cfg.Games)
	case line.Over != (line.Played == cfg.Games && line.Settled != nil):
		return c.fail("the session is over: %v, after %d mini-games of %d", line.Over, line.Played, cfg.Games)
	}
	for i, s := range line.Seats {
		if s < 0 || s >= n || slices.Contains(line.Seats[:i], s) {
			return c.fail("table seat %d is session seat %d, of %d, or a seat twice", i, s, n)
		}
	}
	if err := c.checkStandings("before", &line.Before, cfg, nil, nil); err != nil {
		return err
	}
	p := line.Settled
	if p == nil {
		if !sameJSON(line.Standings, line.Before) {
			return c.fail("no mini-game was settled, and the standings changed")
		}
		return nil
	}
	result := c.rec.End.Result
	if line.TieBreak == nil {
		if p.Table != line.Table || p.Game != c.game || p.Picker != line.Picker || len(p.TieBreaks) != 0 || !sameJSON(p.Result, result) || !slices.Equal(line.Seats, seq(n)) {
			return c.fail("the mini-game settled is %s at table %d, picked by seat %d, with %d tie-breaks; this table, %d, played %s among every seat, picked by seat %d, with another result or seats",
				p.Game, p.Table, p.Picker, len(p.TieBreaks), line.Table, c.game, line.Picker)
		}
	} else {
		last := len(p.TieBreaks) - 1
		if last < 0 || p.Table != *line.TieBreak || p.TieBreaks[last].Table != line.Table || p.TieBreaks[last].Game != c.game ||
			!slices.Equal(p.TieBreaks[last].Seats, line.Seats) || !sameJSON(p.TieBreaks[last].Result, result) {
			return c.fail("the mini-game settled at table %d does not end with this table's tie-break (%s, seats %v, and its result)", p.Table, c.game, line.Seats)
		}
	}
	if !ranked(p.Result, n) || len(p.Tallies) != n {
		return c.fail("the mini-game settled holds tallies, or a result, not of %d seats or whose ranking does not follow from its scores", n)
	}
	for i, tb := range p.TieBreaks {
		if !ranked(tb.Result, len(tb.Seats)) {
			return c.fail("tie-break %d holds a result not of its %d seats or whose ranking does not follow from its scores", i, len(tb.Seats))
		}
	}
	winners, places, err := settledPlaces(p)
	if err != nil {
		return c.fail("%v", err)
	}
	if !slices.Equal(p.Winners, winners) || !slices.Equal(p.Places, places) {
		return c.fail("the mini-game settled has winners %v and places %v; its result and tie-breaks give %v and %v", p.Winners, p.Places, winners, places)
	}
	g, err := rules.Lookup(p.Game)
	if err != nil {
		return c.fail("%v", err)
	}
	newScoring := false
	for _, name := range cfg.NewScoring {
		if ng, err := rules.Lookup(name); err == nil && ng.Info().Name == g.Info().Name {
			newScoring = true
		}
	}
	o := &rules.Outcome{Game: p.Game, Result: p.Result, Tallies: p.Tallies, Options: p.Options, Places: p.Places}
	if pts := rules.TournamentPoints(g, o, newScoring); !slices.Equal(p.Points, pts) {
		return c.fail("the mini-game settled scores %v tournament points; %s's rule gives %v", p.Points, p.Game, pts)
	}
	if err := c.checkStandings("after", &line.Standings, cfg, &line.Before, p); err != nil {
		return err
	}
	if loser := sessionLoser(p.Places, &line.Standings); p.Loser != loser {
		return c.fail("the loser, who picks next, is seat %d; the places and the standings give seat %d", p.Loser, loser)
	}
	return nil
}

// checkStandings checks standings st of a session of cfg: each seat's
// games won and points (those before plus what p gave, when before is
// given), and the places, ranking and winners they give.
func (c *checker) checkStandings(what string, st *session.Standings, cfg *session.Config, before *session.Standings, p *session.Played) error {
	n := cfg.Players
	if st.Scoring != cfg.Scoring || len(st.Seats) != n {
		return c.fail("the standings %s rank %d seats by %s; the session has %d, by %s", what, len(st.Seats), st.Scoring, n, cfg.Scoring)
	}
	key := func(s int) [2]int {
		if cfg.Scoring == session.ByPoints {
			return [2]int{st.Seats[s].Points, st.Seats[s].Won}
		}
		return [2]int{st.Seats[s].Won, st.Seats[s].Points}
	}
	for s := range n {
		seat := st.Seats[s]
		want := session.Standing{Seat: s, Won: seat.Won, Points: seat.Points}
		if before != nil {
			want.Won, want.Points = before.Seats[s].Won, before.Seats[s].Points+p.Points[s]
			if slices.Contains(p.Winners, s) {
				want.Won++
			}
		}
		if seat.Seat != s || seat.Won != want.Won || seat.Points != want.Points {
			return c.fail("the standings %s give seat %d %d mini-games won and %d points; the session gives %d and %d", what, s, seat.Won, seat.Points, want.Won, want.Points)
		}
	}
	ranking := seq(n)
	slices.SortStableFunc(ranking, func(a, b int) int {
		ka, kb := key(a), key(b)
		switch {
		case ka == kb:
			return 0
		case ka[0] > kb[0] || ka[0] == kb[0] && ka[1] > kb[1]:
			return -1
		}
		return 1
	})
	var winners []int
	for k, s := range ranking {
		place := k + 1
		if k > 0 && key(s) == key(ranking[k-1]) {
			place = st.Seats[ranking[k-1]].Place
		}
		if st.Seats[s].Place != place {
			return c.fail("the standings %s place seat %d %d; its games won and points place it %d", what, s, st.Seats[s].Place, place)
		}
		if place == 1 {
			winners = append(winners, s)
		}
	}
	if !slices.Equal(st.Ranking, ranking) || !slices.Equal(st.Winners, winners) {
		return c.fail("the standings %s rank %v with winners %v; the seats' standings give %v and %v", what, st.Ranking, st.Winners, ranking, winners)
	}
	return nil
}

// settledPlaces returns the winners and the places of the mini-game p,
// from its result and its tie-breaks' results: the result's places, and
// when its winners tied, the seats each tie-break put behind placed after
// those it left tied, the last put behind last.
func settledPlaces(p *session.Played) (winners, places []int, err error) {
	r := p.Result
	places = slices.Clone(r.Places)
	tied := slices.Clone(r.Winners)
	if len(tied) < 2 {
		if len(p.TieBreaks) > 0 {
			return nil, nil, fmt.Errorf("tie-breaks after a mini-game with one winner")
		}
		return tied, places, nil
	}
	if len(p.TieBreaks) == 0 {
		return nil, nil, fmt.Errorf("seats %v tied for the win and no tie-break was played", tied)
	}
	var behind [][]int
	for i, tb := range p.TieBreaks {
		if !slices.Equal(tb.Seats, tied) {
			return nil, nil, fmt.Errorf("tie-break %d seats %v; the seats tied are %v", i, tb.Seats, tied)
		}
		tr := tb.Result
		won := make([]int, len(tr.Winners))
		for k, w := range tr.Winners {
			won[k] = tb.Seats[w]
		}
		if !slices.Equal(tb.Winners, won) {
			return nil, nil, fmt.Errorf("tie-break %d names winners %v; its result gives %v", i, tb.Winners, won)
		}
		if len(won) < len(tied) {
			var groups [][]int
			for k, gs := range tr.Ranking {
				switch {
				case tr.Places[gs] == 1:
				case k > 0 && tr.Places[gs] == tr.Places[tr.Ranking[k-1]] && len(groups) > 0:
					groups[len(groups)-1] = append(groups[len(groups)-1], tb.Seats[gs])
				default:
					groups = append(groups, []int{tb.Seats[gs]})
				}
			}
			behind = append(groups, behind...)
			tied = won
		}
	}
	next := 1
	for _, group := range append([][]int{tied}, behind...) {
		for _, seat := range group {
			places[seat] = next
		}
		next += len(group)
	}
	return tied, places, nil
}

// sessionLoser returns the seat that picks after a mini-game settled with
// places: the last-placed seat; among several, the one standing lowest in
// the standings after it, then the lowest seat.
func sessionLoser(places []int, st *session.Standings) int {
	last := slices.Max(places)
	loser := rules.NoSeat
	for seat, pl := range places {
		if pl == last && (loser == rules.NoSeat || st.Seats[seat].Place > st.Seats[loser].Place) {
			loser = seat
		}
	}
	return loser
}

// ranked reports whether r is a result of n seats whose winners, ranking
// and places follow from its scores.
func ranked(r *rules.Result, n int) bool {
	if r == nil || len(r.Scores) != n {
		return false
	}
	want := rank(r.Scores, r.HigherWins)
	return slices.Equal(r.Winners, want.Winners) && slices.Equal(r.Ranking, want.Ranking) && slices.Equal(r.Places, want.Places)
}

// seq returns 0, 1, …, n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// CheckSession checks the records of a session's tables, in the order
// they were played: each on its own (Check, its session line included),
// and the session lines together: the same session, its tables numbered
// from 0 one after the other, each table's standings before it those
// after the table before, a tie-break after each table that did not
// settle its mini-game, the game after a settled one picked by its loser,
// and nothing after the table that ended the session. It returns the first
// inconsistency as a *CheckError, whose line is that of the record it was
// found in.
func CheckSession(recs []*Record) error {
	var prev *Session
	for i, rec := range recs {
		if err := rec.Check(); err != nil {
			return fmt.Errorf("table %d: %w", i, err)
		}
		line := rec.Session
		fail := func(format string, args ...any) error {
			l := line.line
			if l == 0 {
				l = rec.endLine() + 1
			}
			return fmt.Errorf("table %d: %w", i, &CheckError{l, fmt.Sprintf(format, args...)})
		}
		switch {
		case line == nil:
			return fmt.Errorf("table %d: %w", i, &CheckError{rec.endLine(), "the record has no session line"})
		case line.Table != i:
			return fail("table %d, the record of table %d of the session", line.Table, i)
		case prev == nil && (line.Picker != rules.NoSeat || line.TieBreak != nil):
			return fail("the first table is picked by seat %d or breaks a tie", line.Picker)
		case prev == nil:
		case !sameJSON(prev.Config, line.Config):
			return fail("the session's configuration differs from the table before's")
		case prev.Over:
			return fail("a table after the session ended")
		case !sameJSON(prev.Standings, line.Before):
			return fail("the standings before the table are not those after the table before")
		case prev.Settled == nil && (line.TieBreak == nil || *line.TieBreak != tieOf(prev)):
			return fail("the table before did not settle its mini-game (table %d); this table does not break its tie", tieOf(prev))
		case prev.Settled != nil && (line.TieBreak != nil || line.Picker != prev.Settled.Loser):
			return fail("the game after the mini-game settled is picked by seat %d; its loser, seat %d, picks", line.Picker, prev.Settled.Loser)
		}
		if prev == nil {
			for _, s := range line.Before.Seats {
				if s.Won != 0 || s.Points != 0 {
					return fail("the standings before the first table are not the start's")
				}
			}
		}
		if want := prevPlayed(prev); line.Played != want+btoi(line.Settled != nil) {
			return fail("%d mini-games played after this table; the tables before and this one give %d", line.Played, want+btoi(line.Settled != nil))
		}
		prev = line
	}
	return nil
}

// tieOf returns the table of the mini-game whose tie the table of line
// leaves to break.
func tieOf(line *Session) int {
	if line.TieBreak != nil {
		return *line.TieBreak
	}
	return line.Table
}

// prevPlayed returns the mini-games settled after the table of line, 0
// before the first.
func prevPlayed(line *Session) int {
	if line == nil {
		return 0
	}
	return line.Played
}

// btoi returns 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
