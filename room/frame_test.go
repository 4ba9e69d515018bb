package room

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dobble-dev/dobble/rules"
)

// TestAppendUpdateMatchesJSON plays every registered game at every table
// size it takes, with wrong claims among the right ones, and checks that
// each update, as every seat and a spectator see it, and each refusal are
// encoded byte for byte as encoding/json encodes the same message.
func TestAppendUpdateMatchesJSON(t *testing.T) {
	decks := NewDecks()
	for _, g := range rules.Games() {
		info := g.Info()
		d, err := decks.Get("classic", false)
		if info.Deck != nil {
			d, err = decks.Get(info.Deck.Edition, info.Deck.Singles)
		}
		if err != nil {
			t.Fatal(err)
		}
		played := 0
		for players := info.MinPlayers; players <= min(info.MaxPlayers, 5); players++ {
			st, err := rules.New(g, d.Cards, rules.Config{Players: players, Seed: uint64(players)})
			if err != nil {
				continue // a table size this deck cannot deal
			}
			played++
			checkGame(t, info.Name, st)
		}
		if played == 0 {
			t.Errorf("%s: no table size from %d to %d could be dealt from %s", info.Name, info.MinPlayers, info.MaxPlayers, d.Name)
		}
	}
}

// checkGame plays st to its end (or 400 actions) comparing the encodings.
func checkGame(t *testing.T, game string, st *rules.State) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, uint64(st.Players())))
	var ev []rules.Event
	var at int64
	checked := 0
	for step := 0; step < 400 && !st.Over(); step++ {
		at += 50 + int64(rng.IntN(400))
		seat := rng.IntN(st.Players())
		a, ok := st.PickMove(seat, rng)
		if !ok || rng.IntN(5) == 0 {
			// A claim of a random symbol: mostly wrong, locking the seat out.
			a = rules.Action{Seat: seat, Symbol: rng.IntN(57), Version: st.Version()}
		}
		a.At = at
		if tick, ok := st.Tick(); ok && at >= tick.At {
			// A timed game's clock is due: the room ticks it first.
			a = tick
			a.At = at
		} else if rng.IntN(10) == 0 {
			a.Version = st.Version() - min(st.Version(), 1)
		}
		var err error
		ev, err = st.Apply(a, ev[:0])
		var ref *rules.Refusal
		if errors.As(err, &ref) {
			m := msgRefused{Type: "refused", ID: "c<1>\"&", Table: step, Code: ref.Code, Reason: ref.Reason(),
				Version: ref.Version, Current: st.Version(), LockedUntil: ref.LockedUntil}
			if step%2 == 0 {
				m.ID = ""
			}
			same(t, game+" refused", appendRefused(nil, &m), encode(m))
			continue
		}
		if err != nil {
			continue
		}
		// Each view encoded on its own, and (where every seat sees the
		// same table) once for all.
		shared := newUpdateFrames(st, step, at, ev, nil)
		alone := newUpdateFrames(st, step, at, ev, nil)
		alone.shared = false
		for gs := rules.Spectator; gs <= st.Players(); gs++ {
			events := make([]rules.Event, len(ev))
			for i, e := range ev {
				events[i] = st.EventFor(e, gs)
			}
			want := encode(msgUpdate{Type: "update", Table: step, Version: st.Version(), At: at, Events: events, View: st.View(gs)})
			same(t, game+" update", alone.frame(gs), want)
			same(t, game+" update (shared)", shared.frame(gs), want)
			checked++
		}
	}
	if checked == 0 {
		t.Errorf("%s with %d players: no action was accepted", game, st.Players())
	}
}

// same fails unless got and want are the same bytes.
func same(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s differs from byte %d:\n got %s\nwant %s", what, i, got, want)
	}
}

// TestAppendStringMatchesJSON checks the escaping of strings, plain and
// not.
func TestAppendStringMatchesJSON(t *testing.T) {
	for _, s := range []string{"", "tower", "a b", `"q"`, `back\slash`, "<b>&", "tab\there", "\x00\x1f\x7f", "zażółć", "\u2028", "bad \xff utf-8"} {
		want, _ := json.Marshal(s)
		same(t, "string", appendString([]byte("x"), s), append([]byte("x"), want...))
	}
}

// TestAppendEdgeCases covers the nil lists and optional fields that play
// does not produce.
func TestAppendEdgeCases(t *testing.T) {
	v := rules.View{Game: "g", Seat: -1, Zones: []rules.ZoneView{{Kind: "k"}}}
	got := appendView(nil, &v)
	want, _ := json.Marshal(v)
	same(t, "view with nil lists", got, want)
	e := rules.Event{Kind: rules.EventOver, Under: true, Round: 3, Target: rules.To(1, 2),
		Result: &rules.Result{Unit: "cards", Scores: []int{1}}}
	want, _ = json.Marshal(e)
	same(t, "event", appendEvent(nil, e), want)
}

// BenchmarkUpdate measures what a room spends on the frames of one
// accepted claim at a Tower of four: the view built and encoded once for
// every seat (frames), against building and encoding each seat's with
// encoding/json (json), in the same run.
func BenchmarkUpdate(b *testing.B) {
	g, _ := rules.Lookup("tower")
	d, err := NewDecks().Get("classic", false)
	if err != nil {
		b.Fatal(err)
	}
	st, err := rules.New(g, d.Cards, rules.Config{Players: 4, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	a, _ := st.PickMove(0, rand.New(rand.NewPCG(1, 2)))
	a.At = 1500
	ev, err := st.Apply(a, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("frames", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			u := newUpdateFrames(st, 0, a.At, ev, buf)
			for gs := range 4 {
				u.frame(gs)
			}
			buf = u.buf
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for gs := range 4 {
				events := make([]rules.Event, len(ev))
				for i, e := range ev {
					events[i] = st.EventFor(e, gs)
				}
				encode(msgUpdate{Type: "update", Table: 0, Version: st.Version(), At: a.At, Events: events, View: st.View(gs)})
			}
		}
	})
}

// BenchmarkParseClaim measures reading one claim, by fastParse and by
// encoding/json, in the same run.
func BenchmarkParseClaim(b *testing.B) {
	frame := []byte(`{"type":"claim","symbol":12,"target":[],"table":3,"version":17,"id":"42"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, perr := parse(frame); perr != nil {
				b.Fatal(perr)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r request
			if err := json.Unmarshal(frame, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
