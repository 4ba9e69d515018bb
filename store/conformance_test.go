package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/store"
	"github.com/dobble-dev/dobble/store/storetest"
)

// TestConformance runs the suite of package storetest against a SQLite
// file and against a PostgreSQL database: both kinds behave alike.
func TestConformance(t *testing.T) {
	storetest.ForEach(t, storetest.Run)
}

// BenchmarkSave stores finished games of 60 actions, one at a time as a
// server does, in each kind of database, each under a key of its own.
func BenchmarkSave(b *testing.B) {
	record := []byte(strings.Repeat(`{"type":"action","seat":0,"card":12,"symbol":31,"t":1234}`+"\n", 60))
	for _, k := range storetest.Kinds {
		b.Run(k.Name, func(b *testing.B) {
			s := storetest.Open(b, k.New(b))
			ctx := context.Background()
			i := 0
			for b.Loop() {
				i++
				g := &store.Game{Summary: store.Summary{Room: "ABCDEFGH", Game: "tower", Table: i, Deck: "classic",
					Seats: []string{"ann", "bot:easy"}, Scores: []int{30, 25}, Unit: "cards", Winners: []int{0}, Actions: 60,
					Started: time.UnixMilli(1000), Ended: time.UnixMilli(9000)}, Record: record, Key: "ABCDEFGH/" + strconv.Itoa(i)}
				if _, err := s.Save(ctx, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
