package hostile

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteText writes the results as text, a paragraph a kind.
func WriteText(w io.Writer, results []*Result) {
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%-11s %s, %.1f s from %s\n", r.Kind, r.What, r.Seconds, r.Source)
		if r.Failed != "" {
			fmt.Fprintf(w, "  failed    %s\n", r.Failed)
		}
		fmt.Fprintf(w, "  attack    %s\n", r.Summary)
		fmt.Fprintf(w, "            %s\n", counts(r.Attack))
		fmt.Fprintf(w, "  normal    %s\n", normalText(&r.Normal))
		fmt.Fprintf(w, "  newcomer  %s\n", newcomerText(&r.Newcomer))
		fmt.Fprintf(w, "  server    memory %.0f MB, %.0f MB half way, peak %.0f MB, %.0f MB at the end%s; CPU %.1f s (this process %.1f s); %d actions; rooms %.0f → %.0f (peak %.0f); connections %.0f → %.0f (peak %.0f)",
			mb(r.RSS.Start), mb(r.RSS.Mid), mb(r.RSS.Peak), mb(r.RSS.End), killed(r), r.ServerCPU, r.ClientCPU, r.ServerActions,
			r.Rooms.Start, r.Rooms.End, r.Rooms.Peak, r.Connections.Start, r.Connections.End, r.Connections.Peak)
		if r.MetricsUnanswered > 0 {
			fmt.Fprintf(w, "; /metrics unanswered %d times", r.MetricsUnanswered)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  verdict   bounded %s, up %s, pass %s%s\n", yes(r.Bounded), yes(r.Up), yes(r.Pass), exitText(r))
	}
}

// WriteMarkdown writes what the run of o did, then the results as a
// Markdown table, a row a kind, and the counts of each attack below it.
func WriteMarkdown(w io.Writer, o Options, results []*Result) {
	o = o.withDefaults()
	limits := "default limits"
	if len(o.ServeArgs) > 0 {
		limits = "`" + strings.Join(o.ServeArgs, " ") + "`"
	}
	fmt.Fprintf(w, "Each kind of attack runs for %v against a `dobble serve` of its own (%s, its own database),\n", o.Span, limits)
	fmt.Fprintf(w, "from %s, while a normal room of %d people plays the game %s from 127.0.0.1 (package load's\n", o.Attacker, o.Players, o.Game)
	fmt.Fprintf(w, "players, reactions of %v to %v, every action timed to the update that settles it) and a\n", o.ReactionMin, o.ReactionMax)
	fmt.Fprintf(w, "newcomer from %s opens a room every %v. Sizes: %d runaway rooms of %d seats, %d workers, %d\n", o.Newcomer, o.ProbeEvery, o.Runaway, o.RunawaySeats, o.Workers, o.Hoard)
	fmt.Fprintf(w, "connections hoarded, %d kept alive, %d look-ups a connection. The server's memory is its resident\n", o.KeepAlive, o.Lookups)
	fmt.Fprintf(w, "set (/proc), read ten times a second; the server is killed at %.0f MiB. A kind passes (docs/SECURITY.md)\n", mb(o.MemCap))
	fmt.Fprintf(w, "when the attack is bounded (what it takes is refused or let go, and the memory grows less than\n")
	fmt.Fprintf(w, "%.0f MiB, less than %.0f MiB in the second half of the span), the server stays up, the newcomer\n", mb(o.Grow), mb(o.Grow/4))
	fmt.Fprintf(w, "opens every room, and the normal room's action → update p99 stays under %.0f ms. The attacker\n", P99Target)
	fmt.Fprintf(w, "shares the machine's processors with the server and the normal room.\n\n")
	fmt.Fprintln(w, "| kind | what the attack did, and what the server held | normal room: actions, p50 / p99 | newcomer rooms | server RSS start / peak / end | server CPU | up | bounded |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range results {
		summary := r.Summary
		if r.Failed != "" {
			summary = "**failed:** " + r.Failed
		}
		normal := r.Normal.Failed
		if normal == "" {
			p99 := fmt.Sprintf("%.1f ms", r.Normal.P99Ms)
			if r.Normal.P99Ms >= P99Target || r.Normal.Actions == 0 {
				p99 = "**" + p99 + "**"
			}
			normal = fmt.Sprintf("%d, %.1f / %s", r.Normal.Actions, r.Normal.P50Ms, p99)
		} else {
			normal = "**" + normal + "**"
		}
		newcomer := fmt.Sprintf("%d of %d", r.Newcomer.OK, r.Newcomer.Tried)
		if r.Newcomer.OK < r.Newcomer.Tried || r.Newcomer.Tried == 0 {
			newcomer = "**" + newcomer + "**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.0f / %.0f / %.0f MB%s | %.1f s | %s | %s |\n",
			r.Kind, cell(summary), cell(normal), newcomer, mb(r.RSS.Start), mb(r.RSS.Peak), mb(r.RSS.End), killed(r),
			r.ServerCPU, strong(r.Up), strong(r.Bounded))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "What each attack did, counted by the attacker:")
	fmt.Fprintln(w)
	for _, r := range results {
		fmt.Fprintf(w, "- `%s` (%s): %s.", r.Kind, r.What, cell(counts(r.Attack)))
		if len(r.Newcomer.Failures) > 0 {
			fmt.Fprintf(w, " Newcomer: %s.", cell(failures(r.Newcomer.Failures)))
		}
		if len(r.Normal.Errors) > 0 {
			fmt.Fprintf(w, " Normal room's errors: %s.", cell(errorsText(r.Normal.Errors)))
		}
		if r.Exit != "" {
			fmt.Fprintf(w, " Server: %s.", cell(r.Exit))
		}
		fmt.Fprintln(w)
	}
}

// counts lists an attack's counts.
func counts(cs []Counter) string {
	if len(cs) == 0 {
		return "nothing counted"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%d %s", c.N, c.Name)
	}
	return strings.Join(parts, ", ")
}

// normalText says how the normal room played.
func normalText(n *Normal) string {
	if n.Failed != "" {
		return "failed: " + n.Failed
	}
	s := fmt.Sprintf("%d players: %d actions (%d accepted, %d too late), %d games; action → update p50 %.1f ms, p99 %.1f ms, max %.1f ms",
		n.Players, n.Actions, n.Accepted, n.Late, n.Games, n.P50Ms, n.P99Ms, n.MaxMs)
	if len(n.Errors) > 0 {
		s += "; errors: " + errorsText(n.Errors)
	}
	return s
}

// newcomerText says how the newcomer fared.
func newcomerText(n *Newcomer) string {
	s := fmt.Sprintf("%d of %d rooms opened", n.OK, n.Tried)
	if len(n.Failures) > 0 {
		s += "; " + failures(n.Failures)
	}
	return s
}

// failures lists the newcomer's failures by kind.
func failures(f map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(f)) {
		parts = append(parts, fmt.Sprintf("%d× %s", f[k], k))
	}
	return strings.Join(parts, ", ")
}

// errorsText lists errors by kind.
func errorsText(e map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(e)) {
		parts = append(parts, fmt.Sprintf("%d× %s", e[k], k))
	}
	return strings.Join(parts, ", ")
}

// killed marks a server killed at the memory cap.
func killed(r *Result) string {
	if r.KilledAtCap {
		return ", killed at the cap"
	}
	return ""
}

// exitText says how a server that is not up ended.
func exitText(r *Result) string {
	if r.Exit == "" {
		return ""
	}
	return " (" + r.Exit + ")"
}

// yes is "yes" or "no".
func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// strong is "yes", or a bold "no".
func strong(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

// cell makes s safe in a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
