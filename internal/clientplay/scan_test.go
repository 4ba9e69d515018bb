package clientplay

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/room"
	"github.com/dobble-dev/dobble/rules"
)

// newState deals game for players on the deck a room deals it.
func newState(t testing.TB, game string, players int) *rules.State {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	d, err := room.NewDecks().Get("classic", false)
	if own := g.Info().Deck; own != nil {
		d, err = room.NewDecks().Get(own.Edition, own.Singles)
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.New(g, d.Cards, rules.Config{Players: players, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// scan reads b with the Scanner into a view.
func scan(t *testing.T, b []byte) rules.View {
	t.Helper()
	var v rules.View
	s := NewScanner(b)
	s.View(&v)
	if err := s.Err(); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// TestScannerReadsWhatJSONReads reads a view of every game, after a few
// actions, with the scanner and with encoding/json: both read the same,
// the game's own extra included, but for the seats and the result, which
// the scanner leaves out. It reads Memory's view after a flip also with
// its keys in alphabetical order, as encoding/json writes a map, where
// the extra comes before the game.
func TestScannerReadsWhatJSONReads(t *testing.T) {
	for _, g := range rules.Games() {
		info := g.Info()
		st := newState(t, info.Name, min(max(3, info.MinPlayers), info.MaxPlayers))
		p := rules.NewPlayer(g)
		for step := range 8 {
			for seat := range st.Players() {
				b, _ := json.Marshal(st.View(seat))
				var want rules.View
				if err := json.Unmarshal(b, &want); err != nil {
					t.Fatal(err)
				}
				want.Seats, want.Result = nil, nil
				got := scan(t, b)
				got.Seats, got.Result = nil, nil
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %s\nscans as %+v\nnot %+v", info.Name, b, got, want)
				}
				var loose map[string]any
				json.Unmarshal(b, &loose)
				sorted, _ := json.Marshal(loose)
				if got := scan(t, sorted); !reflect.DeepEqual(got.Extra, want.Extra) {
					t.Fatalf("%s: %s\nscans its extra as %+v\nnot %+v", info.Name, sorted, got.Extra, want.Extra)
				}
			}
			v := st.View(step % st.Players())
			var a rules.Action
			if p.Decide(&v, &a) {
				a.Version = st.Version()
				st.Apply(a, nil)
			} else if tick, ok := st.Tick(); ok {
				st.Apply(tick, nil)
			}
		}
	}
}

// TestScannerRefusesBadJSON gives the scanner views it cannot read.
func TestScannerRefusesBadJSON(t *testing.T) {
	for _, bad := range []string{`{"zones":[{]}`, `{"game":"memory","extra":{"marked":[1,}}`, `{"game":"memory","extra":{"marked":"x"}}`,
		`{"zones":[{"show":"sideways"}]}`, `{"seat":}`} {
		var v rules.View
		s := NewScanner([]byte(bad))
		s.View(&v)
		if s.Err() == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// leftOut are the keys of a view the scanner does not read, by path: the
// seats' lock-outs and tallies and the result, which a program playing
// from the view does not need and which would cost every update.
var leftOut = map[string]bool{"seats": true, "result": true}

// samples are values, not zero, that a view's field of a type encoding/
// json writes through its own marshaller may take.
var samples = map[reflect.Type]any{
	reflect.TypeFor[rules.Show](): rules.ShowAll,
}

// keyPath is a key of a view, with the keys around it: "zones.cards.card".
type keyPath struct {
	path  string
	index [][]int // the field's index at each level
	t     reflect.Type
}

// jsonKey returns the key encoding/json writes struct field f under, and
// false for a field it does not write.
func jsonKey(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" || !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, true
}

// viewKeys lists the keys of struct type t, read from its json tags, and
// those of the structs it holds (in lists, or behind pointers), each with
// its path.
func viewKeys(t reflect.Type, prefix string, index [][]int) []keyPath {
	var out []keyPath
	for i := range t.NumField() {
		f := t.Field(i)
		key, ok := jsonKey(f)
		if !ok {
			continue
		}
		p := keyPath{path: prefix + key, index: append(slices.Clone(index), f.Index), t: f.Type}
		out = append(out, p)
		inner := f.Type
		for inner.Kind() == reflect.Slice || inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		if inner.Kind() == reflect.Struct && samples[inner] == nil {
			out = append(out, viewKeys(inner, p.path+".", p.index)...)
		}
	}
	return out
}

// emptyValue is a zero value of t but for its lists, empty rather than
// null, as the views the rules make have them.
func emptyValue(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 0, 0))
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				v.Field(i).Set(emptyValue(t.Field(i).Type))
			}
		}
	}
	return v
}

// sampleView returns a view with the key at p given a value that is not
// zero (in one zone, one card, where it is in a list), and every other
// field as the rules make it empty; false when p's type has no sample.
func sampleView(t *testing.T, p keyPath) (rules.View, bool) {
	t.Helper()
	view := emptyValue(reflect.TypeFor[rules.View]())
	v := view
	for level, idx := range p.index {
		v = v.FieldByIndex(idx)
		if level == len(p.index)-1 {
			break
		}
		for {
			switch v.Kind() {
			case reflect.Slice:
				v.Set(reflect.Append(v, emptyValue(v.Type().Elem())))
				v = v.Index(0)
				continue
			case reflect.Pointer:
				v.Set(reflect.New(v.Type().Elem()))
				v.Elem().Set(emptyValue(v.Type().Elem()))
				v = v.Elem()
				continue
			}
			break
		}
	}
	if s, ok := samples[p.t]; ok {
		v.Set(reflect.ValueOf(s))
		return view.Interface().(rules.View), true
	}
	var scalar func(reflect.Value) bool
	scalar = func(x reflect.Value) bool {
		switch x.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			x.SetInt(3)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			x.SetUint(3)
		case reflect.Bool:
			x.SetBool(true)
		case reflect.String:
			x.SetString("x")
		case reflect.Slice:
			e := reflect.New(x.Type().Elem()).Elem()
			if !scalar(e) {
				return false
			}
			x.Set(reflect.Append(reflect.MakeSlice(x.Type(), 0, 1), e))
		case reflect.Struct:
			// Its own keys are checked one by one: here, that a list of
			// them is read.
			x.Set(emptyValue(x.Type()))
		case reflect.Pointer:
			x.Set(reflect.New(x.Type().Elem()))
			x.Elem().Set(emptyValue(x.Type().Elem()))
		default:
			return false
		}
		return true
	}
	if !scalar(v) {
		return rules.View{}, false
	}
	return view.Interface().(rules.View), true
}

// TestScannerReadsEveryKey reads from the json tags of rules.View, and of
// the zones and cards it holds, every key a view may have, and checks
// that the scanner reads each as encoding/json does: a view with only that
// key's value not zero scans as it unmarshals. A field added to a view, a
// zone or a card fails here until View reads it (or leftOut names it); so
// does a key renamed in the tags and not in the scanner. Every view is
// read into the lists of the one before, as the load tool's clients read
// them, and after each an empty view must read as empty: nothing of the
// view before may show through a key the next one leaves out. The game's
// own extra is checked by TestScannerReadsWhatJSONReads, in every game.
func TestScannerReadsEveryKey(t *testing.T) {
	var reused rules.View
	// read returns v as the scanner reads it into reused and as
	// encoding/json reads it, but for the keys left out.
	read := func(v rules.View) (got, want rules.View, b []byte) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		s := NewScanner(b)
		s.View(&reused)
		if err := s.Err(); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		got = reused
		for _, x := range []*rules.View{&want, &got} {
			x.Seats, x.Result = nil, nil
		}
		return got, want, b
	}
	empty := emptyValue(reflect.TypeFor[rules.View]()).Interface().(rules.View)
	keys := viewKeys(reflect.TypeFor[rules.View](), "", nil)
	seen := map[string]bool{}
	checked := 0
	for _, p := range keys {
		seen[p.path] = true
		top, _, _ := strings.Cut(p.path, ".")
		if leftOut[top] || p.path == "extra" {
			continue
		}
		v, ok := sampleView(t, p)
		if !ok {
			t.Errorf("the view's %q is of type %v, which this test cannot give a value: add one to samples", p.path, p.t)
			continue
		}
		checked++
		if got, want, b := read(v); !reflect.DeepEqual(got, want) {
			t.Errorf("the scanner does not read the view's %q as encoding/json does: read it in Scanner.View, or name it in leftOut\n%s\nscans as %+v\nnot %+v", p.path, b, got, want)
		}
		if got, want, b := read(empty); !reflect.DeepEqual(got, want) {
			t.Errorf("after a view with %q, the scanner reads an empty view with what that one had\n%s\nscans as %+v\nnot %+v", p.path, b, got, want)
		}
	}
	for k := range leftOut {
		if !seen[k] {
			t.Errorf("leftOut names %q, which a view does not have", k)
		}
	}
	if !seen["extra"] || checked < 10 {
		t.Fatalf("only %d keys of a view read from its tags (%v): the test no longer reads them", checked, keys)
	}
}

// BenchmarkScanView measures reading the view of a Tower of four into the
// lists of the one before, as a load client reads the updates it receives
// most.
func BenchmarkScanView(b *testing.B) {
	st := newState(b, "tower", 4)
	msg, err := json.Marshal(st.View(1))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	var v rules.View
	for b.Loop() {
		s := NewScanner(msg)
		s.View(&v)
		if s.Err() != nil {
			b.Fatal(s.Err())
		}
	}
}
