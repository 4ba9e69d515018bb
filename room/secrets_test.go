package room

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/record"
)

// rawWatch has a new connection watch room code and returns the frames it
// receives, as sent.
func (h *harness) rawWatch(code string) *[][]byte {
	h.t.Helper()
	frames := &[][]byte{}
	p := h.m.NewPeer()
	var buf [][]byte
	p.SetWriter(func() {
		for {
			var last bool
			if buf, last = p.Take(buf); len(buf) == 0 || last {
				return
			}
			for _, b := range buf {
				*frames = append(*frames, append([]byte(nil), b...))
			}
		}
	})
	h.m.Handle(p, []byte(`{"type": "hello", "v": 1, "name": "watcher"}`), h.now)
	h.m.Handle(p, []byte(`{"type": "watch", "room": "`+code+`"}`), h.now)
	h.pump()
	return frames
}

// TestSessionSeedsStaySecret plays a session of three mini-games, watched
// from its start, and checks that nothing anyone can read during it (the
// frames, the records of the tables already played, the public list of
// rooms) shows the session's seed or the seed of a table not yet over,
// and that no frame carries a seed at all: a table's seed is in its
// record only.
func TestSessionSeedsStaySecret(t *testing.T) {
	h := newHarness(t, testConfig())
	const secret = 0x9a1b2c3d4e5f6071
	h.m.seed = func() uint64 { return secret }
	host := h.connect("host")
	host.send(`{"type": "create", "room": {"game": "tower", "seats": 2, "bots": [null, "instant"], "games": 3}}`)
	r := h.room()
	raw := h.rawWatch(r.code)
	host.send(`{"type": "start"}`)

	// visible is everything an outsider has read so far.
	visible := func() string {
		var b strings.Builder
		for _, f := range *raw {
			b.Write(f)
			b.WriteByte('\n')
		}
		h.m.saves.Wait()
		games, err := h.store.List(context.Background(), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, sum := range games {
			g, err := h.store.Get(context.Background(), sum.ID)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(g.Record)
		}
		pub, _ := json.Marshal(h.m.Public())
		b.Write(pub)
		return b.String()
	}
	for table := 0; ; table++ {
		h.advance(testConfig().Countdown) // the instant bot wins the table, a floor of BotDelay an action
		host.await("over")
		if r.phase == PhaseOver {
			break
		}
		host.take("pick")
		host.send(`{"type": "pick", "game": "tower"}`)
		host.take("countdown")
		next := r.play.State().Config().Seed
		seen := visible()
		for what, n := range map[string]uint64{"the session's seed": secret, "the next table's seed": next} {
			if strings.Contains(seen, strconv.FormatUint(n, 10)) {
				t.Fatalf("after table %d, %s (%d) can be read", table, what, n)
			}
		}
	}
	seen := visible()
	if strings.Contains(seen, strconv.FormatUint(secret, 10)) {
		t.Fatalf("the session's seed (%d) can be read once the session is over", uint64(secret))
	}
	for _, f := range *raw {
		if strings.Contains(string(f), `"seed"`) {
			t.Fatalf("a frame shows a seed: %s", f)
		}
	}
	// Each table's record shows its own seed, to replay its deal.
	games, err := h.store.List(context.Background(), 0, 100)
	if err != nil || len(games) != 3 {
		t.Fatalf("%d games stored, %v", len(games), err)
	}
	seeds := map[uint64]bool{}
	for _, sum := range games {
		g, err := h.store.Get(context.Background(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := record.ReadAll(bytesReader(g.Record))
		if err != nil || len(recs) != 1 {
			t.Fatalf("the record of table %d: %v", sum.Table, err)
		}
		if _, _, err := recs[0].Replay(nil); err != nil {
			t.Fatalf("the record of table %d does not replay: %v", sum.Table, err)
		}
		seeds[recs[0].Header.Config.Seed] = true
	}
	if len(seeds) != 3 {
		t.Fatalf("three tables dealt with the seeds %v", seeds)
	}
}
