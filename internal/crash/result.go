package crash

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dobble-dev/dobble/load"
)

// Result is what a crash test found.
type Result struct {
	// Seed seeded the moments of the kills.
	Seed uint64 `json:"seed"`
	// Kills counts the SIGKILLs, Graceful the restarts with SIGTERM; the
	// server was started again after each.
	Kills    int `json:"kills"`
	Graceful int `json:"graceful"`
	// Nodes is the cluster's nodes (1: a single server); each kill and
	// graceful restart ended one of them, and AllKilled counts the times
	// every node was killed at once.
	Nodes     int `json:"nodes"`
	AllKilled int `json:"all_killed"`
	// Rooms and Players are the rooms and players of the load.
	Rooms   int `json:"rooms"`
	Players int `json:"players"`
	// Seconds is how long the test took.
	Seconds float64 `json:"seconds"`

	// RoomsRestored is the rooms the server had open when it served
	// again, summed over the restarts (its dobble_rooms_restored_total
	// if it has one, else dobble_rooms, read before any player came
	// back); −1 where the metrics did not answer.
	RoomsRestored int `json:"rooms_restored"`
	// RoomsBack is the rooms whose every player came back, summed over
	// the restarts.
	RoomsBack int `json:"rooms_back"`
	// Resumed counts the players back in play after a restart, summed
	// over the restarts; ResumeFailures those that were not (they gave
	// up, or were not back within a minute and a half), FailKinds them
	// by why ("noRoom", "badToken"…).
	Resumed        int            `json:"resumed"`
	ResumeFailures int            `json:"resume_failures"`
	FailKinds      map[string]int `json:"fail_kinds"`
	// NotAllBack counts the restarts after which not every player came
	// back; AllBack holds, for the others, the time from the server going
	// down to the last player back in play.
	NotAllBack int             `json:"not_all_back"`
	AllBack    []time.Duration `json:"-"`
	// The quantiles of AllBack, in milliseconds.
	AllBackP50Ms float64 `json:"all_back_p50_ms"`
	AllBackP99Ms float64 `json:"all_back_p99_ms"`
	AllBackMaxMs float64 `json:"all_back_max_ms"`
	// MovedBack holds, for a cluster, the AllBack of the restarts after
	// which rooms were taken over (the node that went down held some),
	// and MovedBackP50Ms and MovedBackP99Ms its quantiles: the failover
	// time of those rooms' players.
	MovedBack      []time.Duration `json:"-"`
	MovedBackP50Ms float64         `json:"moved_back_p50_ms"`
	MovedBackP99Ms float64         `json:"moved_back_p99_ms"`
	// RoomsServed holds, for the same restarts, the time until every
	// room taken over served again (its first player back in play), and
	// RoomsServedP50Ms and RoomsServedP99Ms its quantiles: the rest of
	// MovedBack is the players' back-off between their tries.
	RoomsServed      []time.Duration `json:"-"`
	RoomsServedP50Ms float64         `json:"rooms_served_p50_ms"`
	RoomsServedP99Ms float64         `json:"rooms_served_p99_ms"`
	// Unfinished counts the rooms whose game had not ended two minutes
	// after the last kill.
	Unfinished int `json:"unfinished"`

	// Acknowledged counts the actions (and ticks of a game's clock) some
	// client saw in an update, each once (by its room, table and
	// version); Own those among them that were a client's own.
	Acknowledged int `json:"acknowledged"`
	Own          int `json:"own"`
	// Lost counts the acknowledged actions missing from, or different
	// in, the table a client resumed at or the record of its finished
	// game; LostExamples says what of the first few.
	Lost         int      `json:"lost"`
	LostExamples []string `json:"lost_examples,omitempty"`
	// Verified counts the acknowledged actions found, the same, in the
	// records of finished games; InPlay those of tables still in play at
	// the end, found in the table the players resumed at; Unchecked those
	// seen after the last restart in tables that did not finish, which no
	// restart put to the test.
	Verified  int `json:"verified"`
	InPlay    int `json:"in_play"`
	Unchecked int `json:"unchecked"`
	// StatesDiffer counts the tables sent to a client (state) that are
	// not the table of the record at their version.
	StatesDiffer int `json:"states_differ"`
	// Tables counts the finished tables of the load's rooms in the
	// database; Duplicates the tables stored more than once, BadRecords
	// the records that do not replay.
	Tables     int      `json:"tables"`
	Duplicates int      `json:"duplicates"`
	BadRecords int      `json:"bad_records"`
	RecordErrs []string `json:"record_errors,omitempty"`

	// StopErrors are the graceful stops that went wrong.
	StopErrors []string `json:"stop_errors,omitempty"`
	// Loads are the load runs' reports, one a play.
	Loads []*load.Report `json:"loads"`
	// ServerLog is the end of the server's log, when the test failed.
	ServerLog string `json:"server_log,omitempty"`
}

// quantile returns the quantile f of ds, in milliseconds.
func quantile(ds []time.Duration, f float64) float64 {
	s := slices.Sorted(slices.Values(ds))
	return float64(s[min(len(s)-1, int(f*float64(len(s))))].Microseconds()) / 1000
}

// maxExamples is how many lost actions a Result describes.
const maxExamples = 10

// addRestart counts one restart: the rooms the server restored and what
// came of the players.
func (r *Result) addRestart(restored int, b backCount) {
	if restored >= 0 && r.RoomsRestored >= 0 {
		r.RoomsRestored += restored
	} else {
		r.RoomsRestored = -1
	}
	r.RoomsBack += b.rooms
	r.Resumed += b.back
	r.ResumeFailures += len(b.failed)
	for _, why := range b.failed {
		r.FailKinds[why]++
	}
	switch {
	case b.whole && b.back == 0:
		// No player had dropped: the node that went down held none.
	case b.whole:
		r.AllBack = append(r.AllBack, b.allBack)
		r.AllBackP50Ms, r.AllBackP99Ms, r.AllBackMaxMs = quantile(r.AllBack, 0.50), quantile(r.AllBack, 0.99), quantile(r.AllBack, 1)
		if r.Nodes > 1 && restored > 0 {
			r.MovedBack = append(r.MovedBack, b.allBack)
			r.MovedBackP50Ms, r.MovedBackP99Ms = quantile(r.MovedBack, 0.50), quantile(r.MovedBack, 0.99)
			r.RoomsServed = append(r.RoomsServed, b.roomsBack)
			r.RoomsServedP50Ms, r.RoomsServedP99Ms = quantile(r.RoomsServed, 0.50), quantile(r.RoomsServed, 0.99)
		}
	default:
		r.NotAllBack++
	}
}

// lose counts one acknowledged action lost, and says why (once for
// several lost for the same reason).
func (r *Result) lose(why string) {
	r.Lost++
	if len(r.LostExamples) < maxExamples && !slices.Contains(r.LostExamples, why) {
		r.LostExamples = append(r.LostExamples, why)
	}
}

// Problems lists what broke the server's promise, empty when nothing
// did: an acknowledged action lost, a player that could not resume its
// seat, a table sent that is not the record's, a record that does not
// replay, a graceful stop that went wrong; or a test that proved
// nothing (no kill, no finished game checked).
func (r *Result) Problems() []string {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if r.Lost > 0 {
		add("%d of %d acknowledged actions lost (%s)", r.Lost, r.Acknowledged, strings.Join(r.LostExamples, "; "))
	}
	if r.ResumeFailures > 0 || r.NotAllBack > 0 {
		add("%d players did not resume their seat after a restart (%s); not every player came back after %d of %d restarts",
			r.ResumeFailures, kindList(r.FailKinds), r.NotAllBack, r.Kills+r.Graceful)
	}
	if r.StatesDiffer > 0 {
		add("%d tables sent to a player differ from the record at their version", r.StatesDiffer)
	}
	if r.BadRecords > 0 {
		add("%d records do not replay (%s)", r.BadRecords, strings.Join(r.RecordErrs, "; "))
	}
	for _, e := range r.StopErrors {
		add("%s", e)
	}
	if r.Kills == 0 {
		add("the server was never killed")
	}
	if r.Verified == 0 {
		add("no acknowledged action was checked against a finished game's record")
	}
	return p
}

// Passed reports whether the server kept its promise (Problems is empty).
func (r *Result) Passed() bool { return len(r.Problems()) == 0 }

// kindList writes counts by kind as "N kind, M kind", or "none".
func kindList(kinds map[string]int) string {
	if len(kinds) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		parts = append(parts, fmt.Sprintf("%d %s", kinds[k], k))
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the result as lines of text.
func (r *Result) WriteText(w io.Writer) {
	if r.Nodes > 1 {
		fmt.Fprintf(w, "crash test  seed %d: %d kills (SIGKILL) of one node and %d graceful restarts of one node, then %d kills of every node at once, of a cluster of %d nodes with %d rooms, %d players, in %.0f s\n",
			r.Seed, r.Kills, r.Graceful, r.AllKilled, r.Nodes, r.Rooms, r.Players, r.Seconds)
		fmt.Fprintf(w, "restarts    %d rooms taken over (the nodes' count), %d rooms with every player back; %d players resumed, %d failed (%s)\n",
			r.RoomsRestored, r.RoomsBack, r.Resumed, r.ResumeFailures, kindList(r.FailKinds))
	} else {
		fmt.Fprintf(w, "crash test  seed %d: %d kills (SIGKILL) and %d graceful restarts of a server with %d rooms, %d players, in %.0f s\n",
			r.Seed, r.Kills, r.Graceful, r.Rooms, r.Players, r.Seconds)
		fmt.Fprintf(w, "restarts    %d rooms restored (the server's count), %d rooms with every player back; %d players resumed, %d failed (%s)\n",
			r.RoomsRestored, r.RoomsBack, r.Resumed, r.ResumeFailures, kindList(r.FailKinds))
	}
	if len(r.AllBack) > 0 {
		fmt.Fprintf(w, "back        server down → every player back in play p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d restarts; %d without every player)\n",
			r.AllBackP50Ms, r.AllBackP99Ms, r.AllBackMaxMs, len(r.AllBack), r.NotAllBack)
		if len(r.MovedBack) > 0 {
			fmt.Fprintf(w, "moved       node down → every player of the rooms taken over back in play p50 %.0f ms, p99 %.0f ms; every such room serving again p50 %.0f ms, p99 %.0f ms (%d restarts that moved rooms)\n",
				r.MovedBackP50Ms, r.MovedBackP99Ms, r.RoomsServedP50Ms, r.RoomsServedP99Ms, len(r.MovedBack))
		}
	} else {
		fmt.Fprintf(w, "back        no restart had every player back (%d restarts)\n", r.NotAllBack)
	}
	fmt.Fprintf(w, "actions     %d acknowledged (%d the players' own): %d lost; %d checked in finished games' records, %d in tables in play at the end, %d after the last restart unchecked\n",
		r.Acknowledged, r.Own, r.Lost, r.Verified, r.InPlay, r.Unchecked)
	fmt.Fprintf(w, "records     %d finished tables, %d stored twice, %d that do not replay; %d tables sent that differ from the record; %d rooms unfinished\n",
		r.Tables, r.Duplicates, r.BadRecords, r.StatesDiffer, r.Unfinished)
	if p := r.Problems(); len(p) > 0 {
		fmt.Fprintf(w, "FAILED      %s\n", strings.Join(p, "\n            "))
	} else {
		fmt.Fprintln(w, "passed      nothing a player saw acknowledged was lost")
	}
}

// WriteMarkdown writes the result's figures as a Markdown table.
func (r *Result) WriteMarkdown(w io.Writer) {
	fmt.Fprintln(w, "| figure | value |")
	fmt.Fprintln(w, "|---|---|")
	row := func(name, format string, args ...any) {
		fmt.Fprintf(w, "| %s | %s |\n", name, fmt.Sprintf(format, args...))
	}
	if r.Nodes > 1 {
		row("nodes of the cluster (NATS JetStream, PostgreSQL)", "%d", r.Nodes)
		row("kills of one node (SIGKILL), then graceful restarts of one node (SIGTERM), then kills of every node at once", "%d, then %d, then %d", r.Kills, r.Graceful, r.AllKilled)
	} else {
		row("kills (SIGKILL), then graceful restarts (SIGTERM)", "%d, then %d", r.Kills, r.Graceful)
	}
	row("rooms, players", "%d, %d", r.Rooms, r.Players)
	if r.Nodes > 1 {
		row("rooms taken over (the nodes' count after each restart, summed)", "%d", r.RoomsRestored)
	} else {
		row("rooms restored (the server's count after each restart, summed)", "%d", r.RoomsRestored)
	}
	row("rooms with every player back in play (summed over restarts)", "%d", r.RoomsBack)
	row("players that resumed their seat / failed", "%d / %d (%s)", r.Resumed, r.ResumeFailures, kindList(r.FailKinds))
	row("acknowledged actions (players' own)", "%d (%d)", r.Acknowledged, r.Own)
	row("**acknowledged actions lost**", "**%d**", r.Lost)
	row("checked against finished games' records / tables in play at the end", "%d / %d", r.Verified, r.InPlay)
	row("finished tables in the records (stored twice, not replaying)", "%d (%d, %d)", r.Tables, r.Duplicates, r.BadRecords)
	if len(r.AllBack) > 0 && r.Nodes > 1 {
		row("node down → every player that dropped back in play, p50 / p99 / max (every restart)", "%.0f ms / %.0f ms / %.0f ms", r.AllBackP50Ms, r.AllBackP99Ms, r.AllBackMaxMs)
	} else if len(r.AllBack) > 0 {
		row("server down → every player back in play, p50", "%.0f ms", r.AllBackP50Ms)
		row("server down → every player back in play, p99", "%.0f ms", r.AllBackP99Ms)
	} else {
		row("server down → every player back in play, p50 and p99", "none: no restart had every player back")
	}
	if len(r.MovedBack) > 0 {
		row("**failover**: node down → every player back in play, restarts that moved rooms, p50 / p99 (of how many)", "**%.0f ms / %.0f ms** (%d)", r.MovedBackP50Ms, r.MovedBackP99Ms, len(r.MovedBack))
		row("node down → every room taken over serving again (its first player back in play), same restarts, p50 / p99", "%.0f ms / %.0f ms", r.RoomsServedP50Ms, r.RoomsServedP99Ms)
	}
	row("restarts without every player back", "%d", r.NotAllBack)
	row("test time", "%.0f s", r.Seconds)
	if p := r.Problems(); len(p) > 0 {
		row("**verdict**", "**FAILED**: %s", strings.ReplaceAll(strings.Join(p, "; "), "|", "\\|"))
	} else {
		row("**verdict**", "passed: nothing a player saw acknowledged was lost")
	}
}
