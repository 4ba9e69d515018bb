package sim

import (
	"testing"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/rules"
)

// BenchmarkGame plays complete 4-player games of every registered game (at
// most its player count) on its default deck with instant bots, setup
// included, one game a benchmark iteration.
func BenchmarkGame(b *testing.B) {
	instant, _ := bot.LookupLevel("instant")
	for _, g := range rules.Games() {
		info := g.Info()
		b.Run(info.Name, func(b *testing.B) {
			m, err := New(Config{Game: g, Rules: rules.Config{Players: min(4, info.MaxPlayers)}, Bots: []bot.Level{instant}})
			if err != nil {
				b.Fatal(err)
			}
			actions := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				o, err := m.Play(uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				actions += o.Actions
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(actions)/sec, "actions/s")
		})
	}
}
