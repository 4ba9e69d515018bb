package protocol

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
)

// newGame deals game g for players on the deck a room deals it: its own,
// or the classic one.
func newGame(t testing.TB, g rules.Game, players int) (*rules.State, error) {
	t.Helper()
	d := record.Deck{Edition: "classic"}
	if own := g.Info().Deck; own != nil {
		d = record.Deck{Edition: own.Edition, Singles: own.Singles}
	}
	_, cards, err := d.Build()
	if err != nil {
		t.Fatal(err)
	}
	return rules.New(g, cards, rules.Config{Players: players, Seed: uint64(players)})
}

// TestEveryGameEncodesAsJSON plays every registered game at every table
// size it takes, with wrong claims among the right ones, and checks that
// each update, as every seat and a spectator see it, and each refusal are
// encoded byte for byte as encoding/json encodes the same message.
func TestEveryGameEncodesAsJSON(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		played := 0
		for players := info.MinPlayers; players <= min(info.MaxPlayers, 5); players++ {
			st, err := newGame(t, g, players)
			if err != nil {
				continue // a table size this deck cannot deal
			}
			played++
			checkGame(t, info.Name, st)
		}
		if played == 0 {
			t.Errorf("%s: no table size from %d to %d could be dealt", info.Name, info.MinPlayers, info.MaxPlayers)
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
	var shared, alone Updates
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
			m := Refused{ID: "c<1>\"&", Table: step, Code: ref.Code, Reason: ref.Reason(),
				Version: ref.Version, Current: st.Version(), LockedUntil: ref.LockedUntil}
			if step%2 == 0 {
				m.ID = ""
			}
			same(t, game+" refused", Encode(&m), appendMessage(nil, m))
			continue
		}
		if err != nil {
			continue
		}
		// Each view encoded on its own, and (where every seat sees the
		// same table) once for all.
		shared.Reset(st, step, at, ev)
		alone.Reset(st, step, at, ev)
		alone.shared = false
		for gs := rules.Spectator; gs <= st.Players(); gs++ {
			events := make([]rules.Event, len(ev))
			for i, e := range ev {
				events[i] = st.EventFor(e, gs)
			}
			want := appendMessage(nil, Update{Table: step, Version: st.Version(), At: at, Events: events, View: st.View(gs)})
			same(t, game+" update", alone.Frame(gs), want)
			same(t, game+" update (shared)", shared.Frame(gs), want)
			checked++
		}
		if st.Public() != shared.shared {
			t.Fatalf("%s: a public table's updates shared the view: %v, want %v", game, shared.shared, st.Public())
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

// TestEveryFieldEncoded fills every field of an update and a refusal
// (every field of the view, its zones, cards, seats and result, and of
// the events) with a value that is not zero, through reflection, and
// checks the encoding against encoding/json's; and with every
// field zero. A field added to any of these types that the generated code
// does not write fails here, as does a kind of field the test cannot
// fill.
func TestEveryFieldEncoded(t *testing.T) {
	// A refusal's code is never zero, which has no name.
	for _, m := range []Message{&Update{}, &Refused{Code: rules.CodeTooLate}} {
		same(t, fmt.Sprintf("zero %T", m), Encode(m), appendMessage(nil, m))
		n := 0
		fill(t, reflect.ValueOf(m).Elem(), &n)
		same(t, fmt.Sprintf("filled %T", m), Encode(m), appendMessage(nil, m))
	}
}

var (
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	targetsType       = reflect.TypeFor[rules.Targets]()
)

// fill sets every exported field of v, recursively, to a value that is
// not zero and differs from the others: numbers count on, strings need
// escaping, lists hold two elements, an enum takes a value with a name,
// an interface a map.
func fill(t *testing.T, v reflect.Value, n *int) {
	t.Helper()
	*n++
	typ := v.Type()
	switch {
	case typ == targetsType:
		v.Set(reflect.ValueOf(rules.To(*n, *n+1)))
		return
	case typ.Implements(textMarshalerType):
		for k := *n; k < *n+256; k++ {
			v.SetUint(uint64(k % 256))
			if _, err := v.Interface().(encoding.TextMarshaler).MarshalText(); err == nil {
				return
			}
		}
		t.Fatalf("no value of %v has a name", typ)
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range typ.NumField() {
			if typ.Field(i).IsExported() {
				fill(t, v.Field(i), n)
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d <&> \"é\"", *n))
	case reflect.Pointer:
		v.Set(reflect.New(typ.Elem()))
		fill(t, v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(typ, 2, 2))
		fill(t, v.Index(0), n)
		fill(t, v.Index(1), n)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"b": []int{*n}, "a": "<x>"}))
	default:
		t.Fatalf("cannot fill a field of type %v: teach fill (encode_test.go) to", typ)
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

// TestAppendTextWithoutName checks that an enum value without a name is
// written as null.
func TestAppendTextWithoutName(t *testing.T) {
	same(t, "code 0", appendText([]byte("x"), rules.Code(0)), []byte("xnull"))
	same(t, "code", appendText([]byte("x"), rules.CodeTooLate), []byte(`x"tooLate"`))
}

// TestEncodeMessages checks that every server message is its struct's
// JSON with "type" first.
func TestEncodeMessages(t *testing.T) {
	for _, m := range []Message{Welcome{ID: "1", V: 1, Server: "s", Name: "n"}, Joined{Room: "R", Seat: -1}, Lobby{},
		Countdown{Ms: 3}, State{Players: []int{0}}, Update{}, Refused{Code: rules.CodeTooLate}, Over{},
		PickMessage{Choices: []string{"tower"}}, Presence{Seat: 1}, Closed{Reason: "r"},
		Saved{Table: 2, Game: "tower", Status: SavedStored, ID: 7}, Saved{Status: SavedLost, Reason: "r"},
		ErrorMessage{Code: CodeBusy}, Pong{Nonce: json.RawMessage(`{"a":1}`)}} {
		b := Encode(m)
		prefix := `{"type":"` + m.Type() + `"`
		if !bytes.HasPrefix(b, []byte(prefix)) {
			t.Errorf("%T: %s does not start with %s", m, b, prefix)
		}
		var got, want map[string]any
		body, _ := json.Marshal(m)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%T: %s: %v", m, b, err)
		}
		json.Unmarshal(body, &want)
		want["type"] = m.Type()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T: %s, want the fields of %s", m, b, body)
		}
	}
}

// towerUpdate returns a Tower of four after one right claim, with its
// events.
func towerUpdate(b testing.TB) (*rules.State, rules.Action, []rules.Event) {
	g, _ := rules.Lookup("tower")
	st, err := newGame(b, g, 4)
	if err != nil {
		b.Fatal(err)
	}
	a, _ := st.PickMove(0, rand.New(rand.NewPCG(1, 2)))
	a.At = 1500
	ev, err := st.Apply(a, nil)
	if err != nil {
		b.Fatal(err)
	}
	return st, a, ev
}

// TestFramePool frames the same update again and again, each frame given
// back once used, and finds the pool's frames filled again: a frame costs
// a few bytes (the pool's box for it), not its own.
func TestFramePool(t *testing.T) {
	st, a, ev := towerUpdate(t)
	var u Updates
	u.Reset(st, 0, a.At, ev)
	want := string(u.Frame(1))
	PutFrame(u.Frame(2))
	const frames = 1000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range frames {
		f := u.Frame(1)
		if string(f) != want {
			t.Fatalf("a frame filled again from the pool reads %s, want %s", f, want)
		}
		PutFrame(f)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / frames; per > uint64(len(want))/8 {
		t.Fatalf("%d bytes allocated a frame of %d bytes given back each time: the pool is not used", per, len(want))
	}
}

// BenchmarkUpdate measures what a room spends on the frames of one
// accepted claim at a Tower of four: the view built and encoded once for
// every seat (frames), against building and encoding each seat's with
// encoding/json (json), in the same run.
func BenchmarkUpdate(b *testing.B) {
	st, a, ev := towerUpdate(b)
	b.Run("frames", func(b *testing.B) {
		b.ReportAllocs()
		var u Updates
		for b.Loop() {
			u.Reset(st, 0, a.At, ev)
			for gs := range 4 {
				u.Frame(gs)
			}
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
				appendMessage(nil, Update{Table: 0, Version: st.Version(), At: a.At, Events: events, View: st.View(gs)})
			}
		}
	})
}

// BenchmarkUpdateAlone measures the frames of one accepted claim at a
// Tower of four with every seat's view built and encoded on its own, as
// for a table whose seats see different cards.
func BenchmarkUpdateAlone(b *testing.B) {
	st, a, ev := towerUpdate(b)
	b.ReportAllocs()
	var u Updates
	for b.Loop() {
		u.Reset(st, 0, a.At, ev)
		u.shared = false
		for gs := range 4 {
			u.Frame(gs)
		}
	}
}

// BenchmarkRefused measures encoding a refusal.
func BenchmarkRefused(b *testing.B) {
	m := Refused{ID: "42", Table: 3, Code: rules.CodeNotAMatch, Reason: "symbol 12 is not on both cards", Version: 17, Current: 17, LockedUntil: 2500}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = Append(buf[:0], &m)
	}
}
