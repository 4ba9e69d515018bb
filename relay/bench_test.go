package relay

import (
	"slices"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/rules"
)

// BenchmarkActionToUpdate measures, for a player on the node that holds
// its room (same-node) and for one on another node (cross-node), the time
// from a claim sent to the update that answers it, on real WebSockets and
// the machine's NATS. The player plays Tower games against a seat that
// never claims; each operation is one claim answered. It reports the
// median and the 99th percentile in microseconds (p50-µs, p99-µs).
func BenchmarkActionToUpdate(b *testing.B) {
	for _, where := range []string{"same-node", "cross-node"} {
		b.Run(where, func(b *testing.B) {
			c := newCluster(b)
			// Each game is a room of its own, all the host's, and the player
			// claims as fast as the updates come.
			rc := fastRooms()
			rc.MaxRoomsPerAddr = 1_000_000
			rc.Rate, rc.Burst = 10_000, 100_000
			owner := c.start("a", rc, nil)
			entry := owner
			if where == "cross-node" {
				entry = c.start("b", rc, nil)
			}
			host := owner.connect("host")
			player := entry.connect("player")
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for len(lat) < b.N {
				b.StopTimer()
				code := host.create(tower)
				c.own(code, owner)
				player.enter(msg{"type": "join", "room": code})
				host.send(msg{"type": "start"})
				b.StartTimer()
				lat = claims(b, player, lat)
				b.StopTimer()
				for _, cl := range []*client{player, host} {
					cl.send(msg{"type": "leave"})
					cl.expect("closed")
				}
				b.StartTimer()
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// claims plays one game as cl, the only seat that claims, appending to
// lat the time each claim took to be answered by its update, until the
// game is over or lat holds b.N.
func claims(b *testing.B, cl *client, lat []time.Duration) []time.Duration {
	var v rules.View
	table := -1
	for table < 0 {
		if m := cl.next(); m.str("type") == "state" {
			table, v = m.num("table"), decodeView(b, m)
		}
	}
	for !v.Over && len(lat) < b.N {
		var a rules.Action
		if !rules.FindClaim(&v, &a) {
			b.Fatalf("no claim in view %+v", v)
		}
		start := time.Now()
		cl.send(msg{"type": "claim", "table": table, "version": v.Version, "symbol": a.Symbol, "target": a.Target})
		for {
			m := cl.next()
			if m.str("type") == "update" && m.num("table") == table {
				lat = append(lat, time.Since(start))
				v = decodeView(b, m)
				break
			}
			if t := m.str("type"); t == "refused" || t == "error" {
				b.Fatalf("a claim found in the view was refused: %v", m)
			}
		}
	}
	// The game ends (over), or the benchmark does: either way the player
	// leaves the room next.
	return lat
}
