package crash

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, as package store uses it

	"github.com/dobble-dev/dobble/load"
	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// storedGame is a finished game as the database holds it: its table in
// the room's session, who played each seat, and its record.
type storedGame struct {
	id     int64
	table  int
	seats  []string
	record []byte
}

// readGames reads every finished game of the database at path, read-only.
// The load's rooms are private: their games are stored without the
// room's code, and the history's list leaves them out, so the games are
// read from the file itself.
func readGames(ctx context.Context, path string) ([]storedGame, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "mode=ro&_pragma=busy_timeout(10000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fmt.Errorf("crash: %s: %w", path, err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT id, tbl, seats, record FROM games ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("crash: reading the games of %s: %w", path, err)
	}
	defer rows.Close()
	var games []storedGame
	for rows.Next() {
		var g storedGame
		var seats, rec string
		if err := rows.Scan(&g.id, &g.table, &seats, &rec); err != nil {
			return nil, fmt.Errorf("crash: reading the games of %s: %w", path, err)
		}
		if err := json.Unmarshal([]byte(seats), &g.seats); err != nil {
			return nil, fmt.Errorf("crash: game %d of %s: seats %q: %w", g.id, path, seats, err)
		}
		g.record = []byte(rec)
		games = append(games, g)
	}
	return games, rows.Err()
}

// tableKey names one table of one room of one play.
type tableKey struct{ play, room, table int }

// name names a table of the harness's rooms, as "crash tower room 2 table 5".
func (t *tracker) name(k tableKey) string {
	return fmt.Sprintf("%s room %d table %d", t.plays[k.play].Name, k.room, k.table)
}

// sight is one client's sight of a table at a version: its seat there
// and the fingerprints of what it was sent, an update or a state.
type sight struct {
	client int
	seat   int
	view   uint64
	frame  uint64 // 0 for a state
	own    bool
	late   bool // seen after the last restart
}

// seenTable is what the clients saw of one table: the updates and the
// states, by version.
type seenTable struct {
	updates map[uint64][]sight
	states  map[uint64][]sight
}

// roomOf finds, from the nicknames of a game's seats, the play and room
// of the harness it was played in.
func (t *tracker) roomOf(seats []string) (play, room int, ok bool) {
	play, room = -1, -1
	for _, name := range seats {
		i := strings.LastIndexByte(name, ' ')
		if i < 0 {
			return 0, 0, false
		}
		n, err := strconv.Atoi(name[i+1:])
		if err != nil {
			return 0, 0, false
		}
		p := -1
		for j, pl := range t.plays {
			if pl.Name == name[:i] && n >= 0 && n < pl.Rooms*pl.Players {
				p = j
			}
		}
		if p < 0 || (play >= 0 && (p != play || n/t.plays[p].Players != room)) {
			return 0, 0, false
		}
		play, room = p, n/t.plays[p].Players
	}
	return play, room, play >= 0
}

// check checks everything the clients saw against the tables they resumed
// at and the finished games' records, into res. final is when the server
// went down for the last restart.
func (t *tracker) check(res *Result, games []storedGame, final time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	lost := map[tableKey]map[uint64]string{} // the acknowledged actions lost, and why
	loseAt := func(k tableKey, v uint64, why string) {
		if lost[k] == nil {
			lost[k] = map[uint64]string{}
		}
		if _, ok := lost[k][v]; !ok {
			lost[k][v] = why
		}
	}

	// What the clients saw, table by table; each resume checked against
	// the last update its client saw before it dropped; and where each
	// room stood when its players came back after the last restart.
	seen := map[tableKey]*seenTable{}
	type standing struct {
		table   int
		version uint64
		ok      bool
	}
	finalAt := map[[2]int]standing{}
	for p, clients := range t.sights {
		for client, sights := range clients {
			room := client / t.plays[p].Players
			var last struct {
				ok      bool
				table   int
				version uint64
				view    uint64
			}
			for _, s := range sights {
				k := tableKey{p, room, s.Table}
				table := seen[k]
				if table == nil && (s.Kind == load.SeenUpdate || s.Kind == load.SeenState) {
					table = &seenTable{updates: map[uint64][]sight{}, states: map[uint64][]sight{}}
					seen[k] = table
				}
				x := sight{client: client, seat: s.Seat, view: s.View, frame: s.Frame, own: s.Own, late: !s.At.Before(final)}
				switch s.Kind {
				case load.SeenUpdate:
					table.updates[s.Version] = append(table.updates[s.Version], x)
					last.ok, last.table, last.version, last.view = true, s.Table, s.Version, s.View
				case load.SeenState:
					table.states[s.Version] = append(table.states[s.Version], x)
					if s.Resumed && last.ok {
						switch {
						case s.Table < last.table:
							for v := uint64(1); v <= last.version; v++ {
								loseAt(tableKey{p, room, last.table}, v, fmt.Sprintf("client %d of %s saw table %d at version %d, then resumed at table %d",
									client, t.plays[p].Name, last.table, last.version, s.Table))
							}
						case s.Table == last.table && s.Version < last.version:
							for v := s.Version + 1; v <= last.version; v++ {
								loseAt(k, v, fmt.Sprintf("client %d of %s saw table %d at version %d, then resumed at version %d",
									client, t.plays[p].Name, s.Table, last.version, s.Version))
							}
						case s.Table == last.table && s.Version == last.version && s.View != last.view:
							loseAt(k, s.Version, fmt.Sprintf("client %d of %s resumed table %d at version %d, which it had seen otherwise",
								client, t.plays[p].Name, s.Table, s.Version))
						}
					}
					if s.Resumed && x.late {
						st := finalAt[[2]int{p, room}]
						if !st.ok || s.Table > st.table || s.Table == st.table && s.Version > st.version {
							finalAt[[2]int{p, room}] = standing{s.Table, s.Version, true}
						}
					}
					last.ok, last.table, last.version, last.view = true, s.Table, s.Version, s.View
				}
			}
		}
	}

	// The records, by table.
	records := map[tableKey][]storedGame{}
	for _, g := range games {
		p, room, ok := t.roomOf(g.seats)
		if !ok {
			continue
		}
		k := tableKey{p, room, g.table}
		records[k] = append(records[k], g)
	}
	res.Tables = len(records)

	// Every table seen: against its record, or, still in play at the end,
	// against the table its players resumed at. Every version up to the
	// highest a client saw of a table was acknowledged: that client's
	// view showed every action up to it.
	for k, table := range seen {
		var most, mostEarly uint64 // the highest version seen, and seen before the last restart
		for v, sights := range table.updates {
			most = max(most, v)
			for _, x := range sights {
				if !x.late {
					mostEarly = max(mostEarly, v)
				}
				if x.own && v > 0 {
					res.Own++
					break
				}
			}
		}
		for v, sights := range table.states {
			most = max(most, v)
			for _, x := range sights {
				if !x.late {
					mostEarly = max(mostEarly, v)
				}
			}
		}
		res.Acknowledged += int(most)
		recs := records[k]
		if len(recs) > 1 {
			res.Duplicates += len(recs) - 1
		}
		if len(recs) > 0 {
			end, err := t.replay(res, k, recs[0], table, loseAt)
			if err != nil {
				res.BadRecords++
				if len(res.RecordErrs) < maxExamples {
					res.RecordErrs = append(res.RecordErrs, fmt.Sprintf("game %d (%s): %v", recs[0].id, t.name(k), err))
				}
				continue
			}
			for v := end + 1; v <= most; v++ {
				loseAt(k, v, fmt.Sprintf("%s: seen up to version %d, the record (game %d) ends at version %d", t.name(k), most, recs[0].id, end))
			}
			for v := uint64(1); v <= min(end, most); v++ {
				if _, ok := lost[k][v]; !ok {
					res.Verified++
				}
			}
			continue
		}
		st := finalAt[[2]int{k.play, k.room}]
		for v := uint64(1); v <= most; v++ {
			switch {
			case v > mostEarly:
				res.Unchecked++
			case st.ok && st.table == k.table && v <= st.version:
				if _, ok := lost[k][v]; !ok {
					res.InPlay++
				}
			case st.ok && st.table == k.table:
				loseAt(k, v, fmt.Sprintf("%s: seen up to version %d, resumed at the end at version %d", t.name(k), mostEarly, st.version))
			default:
				loseAt(k, v, fmt.Sprintf("%s: seen up to version %d, in no record and not in play at the end", t.name(k), mostEarly))
			}
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(lost), func(a, b tableKey) int {
		return cmp.Or(cmp.Compare(a.play, b.play), cmp.Compare(a.room, b.room), cmp.Compare(a.table, b.table))
	}) {
		for _, v := range slices.Sorted(maps.Keys(lost[k])) {
			res.lose(lost[k][v])
		}
	}
}

// replay plays a table's record again, checking at every version what
// the clients saw: every update the same frame the server writes for the
// record's action (its events and the table after it, as the client's
// seat sees them), every state one of the tables the record holds at its
// version (a refused wrong claim changes a seat's lock-out, not the
// version). It counts the states that differ in res.StatesDiffer, calls
// lose for the updates that differ, and returns the record's last
// version. An error says the record itself does not replay.
func (t *tracker) replay(res *Result, k tableKey, g storedGame, seen *seenTable, lose func(tableKey, uint64, string)) (uint64, error) {
	recs, err := record.ReadAll(bytes.NewReader(g.record))
	if err != nil {
		return 0, err
	}
	if len(recs) != 1 {
		return 0, fmt.Errorf("%d records in one game", len(recs))
	}
	rec := recs[0]
	game, err := rules.Lookup(rec.Header.Game)
	if err != nil {
		return 0, err
	}
	_, cards, err := rec.Header.Deck.Build()
	if err != nil {
		return 0, err
	}
	st, err := rules.New(game, cards, rec.Header.Config)
	if err != nil {
		return 0, err
	}
	statesMatched := map[uint64]map[int]bool{} // by version, the index of each state seen that matched
	checkStates := func() error {
		v := st.Version()
		for i, x := range seen.states[v] {
			if statesMatched[v][i] {
				continue
			}
			fp, _, err := load.Fingerprint(protocol.Encode(&protocol.State{Table: k.table, Game: rec.Header.Game, View: st.View(x.seat)}))
			if err != nil {
				return err
			}
			if fp == x.view {
				if statesMatched[v] == nil {
					statesMatched[v] = map[int]bool{}
				}
				statesMatched[v][i] = true
			}
		}
		return nil
	}
	if err := checkStates(); err != nil {
		return 0, err
	}
	var u protocol.Updates
	for i := range rec.Entries {
		e := &rec.Entries[i]
		ev, err := st.Apply(e.Action, nil)
		switch {
		case e.Refusal == nil && err != nil:
			return 0, fmt.Errorf("action %d: the record accepted it, the replay refused it: %v", i+1, err)
		case e.Refusal == nil:
			want, _ := json.Marshal(e.Events)
			got, _ := json.Marshal(ev)
			if !bytes.Equal(want, got) {
				return 0, fmt.Errorf("action %d: the replay's events %s differ from the record's %s", i+1, got, want)
			}
			v := st.Version()
			u.Reset(st, k.table, e.Action.At, ev)
			for _, x := range seen.updates[v] {
				_, fp, err := load.Fingerprint(u.Frame(x.seat))
				if err != nil {
					return 0, err
				}
				if fp == x.frame {
					continue
				}
				lose(k, v, fmt.Sprintf("%s: client %d saw version %d otherwise than the record (game %d) has it", t.name(k), x.client, v, g.id))
			}
		case err == nil:
			return 0, fmt.Errorf("action %d: the record refused it, the replay accepted it", i+1)
		default:
			var r *rules.Refusal
			if !errors.As(err, &r) || r.Code != e.Refusal.Code {
				return 0, fmt.Errorf("action %d: the record refused it as %v, the replay: %v", i+1, e.Refusal.Code, err)
			}
		}
		if err := checkStates(); err != nil {
			return 0, err
		}
	}
	end := st.Version()
	for v, sights := range seen.states {
		for i := range sights {
			if v <= end && !statesMatched[v][i] {
				res.StatesDiffer++
			}
		}
	}
	return end, nil
}
