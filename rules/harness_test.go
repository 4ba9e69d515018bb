package rules

// The shared test harness. Every game's test file calls these helpers with
// the game's name and a verify function that checks, independently of the
// game's own code, that an accepted action did what RULES.md says:
//
//	func TestWellProperties(t *testing.T) { runProperties(t, "well", verifyWell) }
//	func FuzzWell(f *testing.F)            { fuzzGame(f, "well", verifyWell) }
//
// runProperties plays many random games (seeds, player counts, deck orders
// and subsets) with streams mixing correct claims, wrong symbols, bad
// targets, stale versions, locked-out seats, absent seats and garbage, and
// checks after every action: the invariants hold; a refusal leaves the
// state Equal to before (bar the seat's lock-out for a wrong claim); an
// accepted action bumps the version and stamps its events; Check agrees with
// Moves; views hide what they must; the game ends; replaying the same
// actions gives the same events and an Equal state.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// verifyFunc checks one accepted action a against the state before it and
// the events it produced, using the real deck (not the Index) for matches.
// It returns an error describing what is wrong, or nil.
type verifyFunc func(before *State, d *deck.Deck, a Action, ev []Event) error

// testDeck is a deck used by the harness, with its prebuilt Index.
type testDeck struct {
	name string
	d    *deck.Deck
	x    *Index
}

var (
	testDecksOnce sync.Once
	testDecksList []testDeck
)

// testDecks returns the decks the property tests play with: orders 2, 3, 4,
// 5 and 7 whole, the classic 55-card deck, and subsets of each.
func testDecks(t testing.TB) []testDeck {
	testDecksOnce.Do(func() {
		add := func(q, n int) {
			d, err := deck.New(q, n)
			if err != nil {
				panic(err)
			}
			x, err := NewIndex(d)
			if err != nil {
				panic(err)
			}
			testDecksList = append(testDecksList, testDeck{fmt.Sprintf("order%d/%dcards", q, d.Len()), d, x})
		}
		for _, q := range []int{2, 3, 4, 5, 7} {
			n := q*q + q + 1
			add(q, 0)
			add(q, n/2+1)
			add(q, min(n, 10))
		}
		add(7, 55)
	})
	return testDecksList
}

// gameDecks holds, by game name, the decks that game's property and fuzz
// tests play with instead of testDecks, for a game that needs a card source
// of its own shape (Anarchy Pancakes: a plane followed by one-symbol
// cards). A game's test file sets its entry from an init function.
var gameDecks = map[string]func(testing.TB) []testDeck{}

// decksFor returns the decks the property and fuzz tests of game name play
// with: its gameDecks entry, or testDecks.
func decksFor(t testing.TB, name string) []testDeck {
	if f, ok := gameDecks[name]; ok {
		return f(t)
	}
	return testDecks(t)
}

// clock is a test's idea of time: it only moves forward.
type clock struct{ now int64 }

func (c *clock) tick(r *rand.Rand) int64 {
	c.now += int64(r.IntN(400))
	return c.now
}

// kindsOf returns the action kinds a seat may make in the game of info.
func kindsOf(info *Info) []ActionKind {
	var kinds []ActionKind
	for k := range ActionKind(len(actionKindNames)) {
		if k != ActionTick && info.accepts(k) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// randomAction returns one action for s: most of the time a correct move
// from Moves, otherwise a wrong symbol, a stale or future version, a bad or
// missing target, an absent seat, another kind, a tick of the clock at a
// random time, or plain garbage.
func randomAction(s *State, r *rand.Rand, at int64, buf []Action) Action {
	p := s.Players()
	seat := r.IntN(p)
	kinds := kindsOf(&s.info)
	kind := kinds[r.IntN(len(kinds))]
	a := Action{Kind: kind, Seat: seat, Version: s.Version(), At: at, Symbol: r.IntN(s.Cards().Symbols())}
	if t := kind.targets(&s.info); t > 0 {
		zs := make([]int, t)
		for i := range zs {
			zs[i] = r.IntN(s.Zones())
		}
		a.Target = To(zs...)
	}
	switch k := r.IntN(21); {
	case k < 9:
		if moves := s.Moves(seat, buf[:0]); len(moves) > 0 {
			m := moves[r.IntN(len(moves))]
			m.At = at
			return m
		}
	case k < 12:
		// A random symbol and target as set above: usually wrong.
	case k == 12:
		a.Version = uint64(r.IntN(int(s.Version()) + 1)) // usually stale
	case k == 13:
		a.Version = s.Version() + 1 + uint64(r.IntN(3))
	case k == 14:
		a.Seat = []int{-1, p, p + 1, -100}[r.IntN(4)]
	case k == 15:
		a.Kind = ActionKind(1 + r.IntN(len(actionKindNames)-1))
	case k == 16:
		a.Kind = ActionKind(len(actionKindNames) + r.IntN(240))
	case k == 17:
		a.Symbol = []int{-1, s.Cards().Symbols(), 1 << 40}[r.IntN(3)]
	case k == 18:
		zs := make([]int, r.IntN(MaxTargets+1))
		for i := range zs {
			zs[i] = r.IntN(s.Zones()+4) - 2
		}
		a.Target = To(zs...)
	case k == 19:
		// A tick of the clock, usually early, sometimes with a seat.
		a = Action{Kind: ActionTick, Seat: NoSeat, Version: s.Version(), At: at}
		if r.IntN(4) == 0 {
			a.Seat = seat
		}
	default:
		a.At = -1 - int64(r.IntN(5))
	}
	return a
}

// timeUp reports whether a seat's action at time at comes too late for the
// deadline of s.
func timeUp(s *State, at int64) bool {
	d, ok := s.Deadline()
	return ok && at >= d
}

// stepper applies actions to a state and checks every generic property
// after each one, failing t at the first violation.
type stepper struct {
	t       testing.TB
	s       *State
	d       *deck.Deck
	verify  verifyFunc
	actions []Action
	events  []Event
	buf     []Action
}

// apply applies a and checks the properties; it reports whether a was
// accepted.
func (st *stepper) apply(a Action) bool {
	t, s := st.t, st.s
	t.Helper()
	before := s.Clone()
	checkErr := s.Check(a)
	if allowed := s.Allowed(&a); allowed != (checkErr == nil) {
		t.Fatalf("action %+v: Allowed said %v, Check said %v", a, allowed, checkErr)
	}
	inMoves := false
	if a.Seat >= 0 && a.Seat < s.Players() {
		version := a.Version
		if l, ok := s.game.(Lenient); ok && a.Kind != ActionTick && version < s.Version() && version >= l.Since(s, &a) {
			version = s.Version() // checked as if made now
		}
		inMoves = slices.ContainsFunc(s.Moves(a.Seat, st.buf[:0]), func(m Action) bool {
			return m.Kind == a.Kind && m.Version == version && m.Target == a.Target &&
				(m.Symbol == a.Symbol || !a.Kind.HasSymbol()) // a draw, a lay... names no symbol
		})
	}
	n := len(st.events)
	var err error
	st.events, err = s.Apply(a, st.events)
	st.actions = append(st.actions, a)
	if (err == nil) != (checkErr == nil) {
		t.Fatalf("action %+v: Check said %v, Apply said %v", a, checkErr, err)
	}
	if err == nil && !inMoves && a.Kind != ActionTick {
		t.Fatalf("accepted action %+v is not among the seat's Moves", a)
	}
	if err != nil {
		var r *Refusal
		if !errors.As(err, &r) {
			t.Fatalf("action %+v: error %v is not a *Refusal", a, err)
		}
		if r.Error() == "" || r.Reason() == "" || r.Code.String() == "" {
			t.Fatalf("refusal without a reason: %#v", r)
		}
		if inMoves && !before.Locked(a.Seat, a.At) && a.At >= 0 && !timeUp(before, a.At) {
			t.Fatalf("claim %+v is in Moves but was refused: %v", a, err)
		}
		if len(st.events) != n {
			t.Fatalf("refused action %+v appended events", a)
		}
		want := before
		locks := r.Code.Wrong() && a.Kind.LocksOut() && before.lockout > 0
		if r.LocksOut() != locks {
			t.Fatalf("refusal %v of a %v: LocksOut %v, want %v (lock-out %d ms)", r, a.Kind, r.LocksOut(), locks, before.lockout)
		}
		if locks {
			if r.LockedUntil <= a.At {
				t.Fatalf("refusal %v of an action at %d: lock-out ends at %d", r, a.At, r.LockedUntil)
			}
			want = before.Clone()
			want.seats[a.Seat].LockedUntil = r.LockedUntil
		} else if r.LockedUntil != 0 && r.Code != CodeLockedOut {
			t.Fatalf("refusal %v reports a lock-out", r)
		}
		if !s.Equal(want) {
			t.Fatalf("refused action %+v (%v) changed the state", a, err)
		}
		return false
	}
	if s.Version() != before.Version()+1 {
		t.Fatalf("accepted action %+v: version %d -> %d", a, before.Version(), s.Version())
	}
	ev := st.events[n:]
	if len(ev) == 0 {
		t.Fatalf("accepted action %+v produced no events", a)
	}
	for _, e := range ev {
		if e.Version != s.Version() {
			t.Fatalf("event %+v not stamped with version %d", e, s.Version())
		}
		if e.Kind == EventOver && (!s.Over() || e.Result == nil) {
			t.Fatalf("over event %+v but Over()=%v", e, s.Over())
		}
	}
	if a.Kind == ActionClaim && (ev[0].Kind != EventClaim || ev[0].Seat != a.Seat || ev[0].Symbol != a.Symbol || ev[0].Target != a.Target) {
		t.Fatalf("claim %+v: first event %+v is not its EventClaim", a, ev[0])
	}
	if s.Over() != (ev[len(ev)-1].Kind == EventOver) {
		t.Fatalf("game over=%v but the last event is %v", s.Over(), ev[len(ev)-1].Kind)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatalf("after %+v: %v", a, err)
	}
	if err := st.verify(before, st.d, a, ev); err != nil {
		t.Fatalf("accepted %+v, events %+v: %v", a, ev, err)
	}
	checkViews(t, s)
	checkPublic(t, s, ev)
	checkPicks(t, s, st.buf)
	checkKept(t, before, s, ev)
	return true
}

// checkKept checks what a record states of an accepted action beside its
// events, when s keeps its shuffles: the table before it (before), changed
// by the events alone, each move taking its cards from the top of its zone
// and each shuffle leaving its zone in the order Shuffled gives, is the
// table after it; the zones it opened start empty. And it checks that
// nobody is told those orders: every seat's and a spectator's copy of a
// shuffle event names no card.
func checkKept(t testing.TB, before, s *State, ev []Event) {
	t.Helper()
	if s.kept == nil {
		return
	}
	zones := make([][]int, s.Zones())
	for i := range before.Zones() {
		zones[i] = before.Zone(i).AppendCards(nil)
	}
	orders := s.Shuffled()
	for _, e := range ev {
		switch e.Kind {
		case EventMove:
			f := zones[e.From]
			if len(f) < e.Count || f[len(f)-1] != e.Card {
				t.Fatalf("version %d: %+v moves card %d from zone %d holding %v", s.Version(), e, e.Card, e.From, f)
			}
			moved := slices.Clone(f[len(f)-e.Count:])
			zones[e.From] = f[:len(f)-e.Count]
			if e.Under {
				zones[e.To] = append(moved, zones[e.To]...)
			} else {
				zones[e.To] = append(zones[e.To], moved...)
			}
		case EventShuffle:
			if len(orders) == 0 {
				t.Fatalf("version %d: a shuffle of zone %d and no order kept", s.Version(), e.From)
			}
			o := orders[0]
			orders = orders[1:]
			if !slices.Equal(slices.Sorted(slices.Values(o)), slices.Sorted(slices.Values(zones[e.From]))) {
				t.Fatalf("version %d: zone %d holding %v shuffled into %v", s.Version(), e.From, zones[e.From], o)
			}
			zones[e.From] = o
			for seat := Spectator; seat < s.Players(); seat++ {
				if r := s.EventFor(e, seat); r.Card != -1 || r.Count != len(o) || r.Target.Len() != 0 {
					t.Fatalf("version %d: seat %d is told of a shuffle %+v", s.Version(), seat, r)
				}
			}
		}
	}
	if len(orders) != 0 {
		t.Fatalf("version %d: %d shuffle orders kept beyond the shuffle events", s.Version(), len(orders))
	}
	for i := range zones {
		if got := s.Zone(i).AppendCards(nil); !slices.Equal(got, zones[i]) && !(len(got) == 0 && len(zones[i]) == 0) {
			t.Fatalf("version %d: zone %d holds %v; the events and the shuffles kept give %v", s.Version(), i, got, zones[i])
		}
	}
}

// checkPublic checks State.Public's promise: when it reports true, every
// seat's view is the spectator's bar its Seat, and every event of ev reads
// the same to every seat as to a spectator.
func checkPublic(t testing.TB, s *State, ev []Event) {
	t.Helper()
	if !s.Public() {
		return
	}
	public, err := json.Marshal(s.View(Spectator))
	if err != nil {
		t.Fatal(err)
	}
	for seat := range s.Players() {
		v := s.View(seat)
		v.Seat = Spectator
		if b, _ := json.Marshal(v); string(b) != string(public) {
			t.Fatalf("version %d: Public, but seat %d sees\n%s\nand a spectator\n%s", s.Version(), seat, b, public)
		}
		for _, e := range ev {
			if got, want := s.EventFor(e, seat), s.EventFor(e, Spectator); !reflect.DeepEqual(got, want) {
				t.Fatalf("version %d: Public, but seat %d reads event %+v, a spectator %+v", s.Version(), seat, got, want)
			}
		}
	}
}

// tick applies the clock's tick when the deadline of st's game has come at
// time now, or when no seat can move and the game waits for its clock: it
// returns the time after the tick and whether there was one. A tick due is
// always accepted.
func (st *stepper) tick(now int64) (int64, bool) {
	s := st.s
	d, ok := s.Deadline()
	if !ok || (now < d && s.Movers() != 0) {
		return now, false
	}
	now = max(now, d)
	if !st.apply(Action{Kind: ActionTick, Seat: NoSeat, Version: s.Version(), At: now}) {
		st.t.Fatalf("the tick due at %d ms was refused at %d ms", d, now)
	}
	return now, true
}

// zeroRand is a Rand that always draws 0, which drives a game's PickMove
// down its fallback paths (the same pair tried again and again).
type zeroRand struct{}

func (zeroRand) IntN(int) int { return 0 }

// checkPicks checks State.CanMove, State.Movers and State.PickMove against
// Moves for every seat of s (and one past the last): CanMove is true, and
// the seat is among the Movers, exactly when Moves lists something; PickMove returns a claim Moves lists when it lists one,
// otherwise the draw it lists, otherwise nothing; with a random source
// seeded by the version and with one that always draws 0.
func checkPicks(t testing.TB, s *State, buf []Action) {
	t.Helper()
	r := rand.New(rand.NewPCG(s.Version(), 7))
	movers := s.Movers()
	if movers>>s.Players() != 0 {
		t.Fatalf("version %d: Movers %b names seats beyond the %d of the table", s.Version(), movers, s.Players())
	}
	for seat := 0; seat <= s.Players(); seat++ {
		moves := s.Moves(seat, buf[:0])
		if got := s.CanMove(seat); got != (len(moves) > 0) {
			t.Fatalf("version %d, seat %d: CanMove %v with %d moves", s.Version(), seat, got, len(moves))
		}
		if seat < s.Players() && (movers>>seat&1 != 0) != (len(moves) > 0) {
			t.Fatalf("version %d, seat %d: Movers %b with %d moves", s.Version(), seat, movers, len(moves))
		}
		// PickMoveTo leaves the action as it was when it has no move.
		marker := Action{Kind: ActionDraw, Seat: -7, Symbol: -7, Version: 1 << 60, At: -7}
		if a := marker; !s.PickMoveTo(&a, seat, r) && a != marker {
			t.Fatalf("version %d, seat %d: PickMoveTo found no move but wrote %+v", s.Version(), seat, a)
		}
		claims := slices.ContainsFunc(moves, func(m Action) bool { return m.Kind == ActionClaim })
		for _, src := range []Rand{r, zeroRand{}} {
			a, ok := s.PickMove(seat, src)
			if ok != (len(moves) > 0) {
				t.Fatalf("version %d, seat %d: PickMove %v with %d moves", s.Version(), seat, ok, len(moves))
			}
			if !ok {
				continue
			}
			if !slices.Contains(moves, a) || claims != (a.Kind == ActionClaim) {
				t.Fatalf("version %d, seat %d: PickMove gave %+v, not a %s among the moves %+v",
					s.Version(), seat, a, map[bool]string{true: "claim", false: "draw"}[claims], moves)
			}
		}
	}
}

// viewScratch holds views that checkViews has ViewInto fill again, from
// one state to the next and from one game to another.
var viewScratch = sync.Pool{New: func() any { return new(View) }}

// checkViews checks every seat's and the spectator's view against the
// table: counts right, hidden cards absent, visible ones right, the whole
// view JSON-encodable, and the same as ViewInto writes over a view it
// filled before.
func checkViews(t testing.TB, s *State) {
	t.Helper()
	scratch := viewScratch.Get().(*View)
	defer viewScratch.Put(scratch)
	for seat := -1; seat < s.Players(); seat++ {
		v := s.View(seat)
		s.ViewInto(seat, scratch)
		fresh, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("view for seat %d does not encode: %v", seat, err)
		}
		if again, _ := json.Marshal(scratch); string(again) != string(fresh) {
			t.Fatalf("version %d, seat %d: ViewInto over an earlier view gives %s, View %s", s.Version(), seat, again, fresh)
		}
		if v.Version != s.Version() || v.Over != s.Over() || len(v.Zones) != s.Zones() || v.Seat != seat {
			t.Fatalf("view for seat %d: header %+v disagrees with the state", seat, v)
		}
		for zi, zv := range v.Zones {
			z := s.Zone(zi)
			var want []int
			all := z.AppendCards(nil)
			switch {
			case z.Show == ShowAll:
				want = all
			case len(all) > 0 && (z.Show == ShowTop || (z.Show == ShowOwnerTop && seat >= 0 && z.Seat == seat)):
				want = all[len(all)-1:]
			}
			got := make([]int, 0, len(zv.Cards))
			for _, c := range zv.Cards {
				got = append(got, c.Card)
				if !slices.Equal(c.Symbols, s.Cards().AppendCard(nil, c.Card)) {
					t.Fatalf("view for seat %d: card %d shows the wrong symbols", seat, c.Card)
				}
			}
			if zv.Count != z.Len() || !slices.Equal(got, want) {
				t.Fatalf("view for seat %d, zone %d (%s, %v): count %d cards %v, want count %d cards %v",
					seat, zi, z.Kind, z.Show, zv.Count, got, z.Len(), want)
			}
		}
		if err := checkSeen(s, seat, v); err != nil {
			t.Fatalf("version %d, seat %d: %v", s.Version(), seat, err)
		}
	}
	if _, err := json.Marshal(s.View(Spectator)); err != nil {
		t.Fatalf("view does not encode: %v", err)
	}
	if f := viewChecks[s.info.Name]; f != nil {
		for seat := -1; seat < s.Players(); seat++ {
			if err := f(s, seat, s.View(seat)); err != nil {
				t.Fatalf("version %d, view for seat %d: %v", s.Version(), seat, err)
			}
		}
	}
}

// checkSeen checks that the table seat sees read from the State
// (State.SeenBy) is the one v, its view, shows (View.Seen): the header,
// every zone's kind, owner, count and face-up cards, and what each game's
// Decider reads beside the zones.
func checkSeen(s *State, seat int, v View) error {
	a, b := s.SeenBy(seat), v.Seen()
	if a.Seat() != b.Seat() || a.Version() != b.Version() || a.Round() != b.Round() || a.Turn() != b.Turn() ||
		a.Over() != b.Over() || a.Zones() != b.Zones() {
		return fmt.Errorf("the state shows seat %d version %d round %d turn %d over %v with %d zones, the view %d %d %d %d %v %d",
			a.Seat(), a.Version(), a.Round(), a.Turn(), a.Over(), a.Zones(), b.Seat(), b.Version(), b.Round(), b.Turn(), b.Over(), b.Zones())
	}
	words := (s.Cards().Symbols() + 63) / 64
	for z := range a.Zones() {
		if a.Kind(z) != b.Kind(z) || a.Owner(z) != b.Owner(z) || a.Count(z) != b.Count(z) || a.Shown(z) != b.Shown(z) {
			return fmt.Errorf("zone %d: the state shows a %s of seat %d with %d cards, %d face up; the view a %s of %d with %d, %d",
				z, a.Kind(z), a.Owner(z), a.Count(z), a.Shown(z), b.Kind(z), b.Owner(z), b.Count(z), b.Shown(z))
		}
		for i := range a.Shown(z) {
			if err := sameCard(a.Card(z, i), b.Card(z, i), words); err != nil {
				return fmt.Errorf("zone %d, card %d: %v", z, i, err)
			}
			if i > 0 && a.Card(z, i-1).Common(a.Card(z, i)) != b.Card(z, i-1).Common(b.Card(z, i)) {
				return fmt.Errorf("zone %d, cards %d and %d: the state's share %d, the view's %d",
					z, i-1, i, a.Card(z, i-1).Common(a.Card(z, i)), b.Card(z, i-1).Common(b.Card(z, i)))
			}
		}
		if n := a.Zones(); a.Common(z, (z+1)%n) != b.Common(z, (z+1)%n) {
			return fmt.Errorf("zones %d and %d: the state's top cards share %d, the view's %d", z, (z+1)%n, a.Common(z, (z+1)%n), b.Common(z, (z+1)%n))
		}
		ta, oka := a.Top(z)
		tb, okb := b.Top(z)
		if oka != okb || (oka && sameCard(ta, tb, words) != nil) {
			return fmt.Errorf("zone %d: the state shows top card %d (%v), the view %d (%v)", z, ta.ID(), oka, tb.ID(), okb)
		}
	}
	switch v.Extra.(type) {
	case FalsePokerView:
		if seat < 0 {
			break // the markers free are a seat's
		}
		if !s.Over() && (falsePokerTurnIn(a) != a.Turn() || falsePokerTurnIn(b) != b.Turn()) {
			return fmt.Errorf("the turn of seat %d, and %d in the view; the game says %d", falsePokerTurnIn(a), falsePokerTurnIn(b), a.Turn())
		}
		var buf []uint64
		fa, sa, ra := falsePokerSeenIn(a, &buf)
		sa = slices.Clone(sa)
		fb, sb, rb := falsePokerSeenIn(b, &buf)
		if fa != fb || ra != rb {
			return fmt.Errorf("%d markers free and %d repeats in the row, the view shows %d and %d", fa, ra, fb, rb)
		}
		for sym := range s.Cards().Symbols() {
			if hasBit(sa, sym) != hasBit(sb, sym) {
				return fmt.Errorf("symbol %d shared in the row: %v, in the view's: %v", sym, hasBit(sa, sym), hasBit(sb, sym))
			}
		}
	case GuessView:
		na, ma, fa := guessSeenIn(a)
		nb, mb, fb := guessSeenIn(b)
		if na != nb || ma != mb || !slices.Equal(fa, fb) {
			return fmt.Errorf("%d symbols, may guess %v, flips %v; the view shows %d, %v, %v", na, ma, fa, nb, mb, fb)
		}
		for i, f := range fa {
			if a.Card(guessTurned, i).ID() != f.Card {
				return fmt.Errorf("flip %d of card %d, the turned cards show %d", i, f.Card, a.Card(guessTurned, i).ID())
			}
		}
	case MemoryView:
		var buf []bool
		ma, mb := memoryMarkedIn(a, &buf), slices.Clone(memoryMarkedIn(b, &buf))
		for i := range max(len(ma), len(mb)) {
			if (i < len(ma) && ma[i]) != (i < len(mb) && mb[i]) {
				return fmt.Errorf("markers %v, the view shows %v", ma, mb)
			}
		}
		la, ca, oka := memoryLastIn(a)
		lb, cb, okb := memoryLastIn(b)
		if oka != okb || oka && (la != lb || sameCard(ca, cb, words) != nil) {
			return fmt.Errorf("the last flip %+v %v, the view shows %+v %v", la, oka, lb, okb)
		}
	case ReflectionView:
		pa, wa := reflectionSeenIn(a)
		pb, wb := reflectionSeenIn(b)
		if pa != pb || wa != wb {
			return fmt.Errorf("phase %d with %d answers written, the view shows %d with %d", pa, wa, pb, wb)
		}
	}
	return nil
}

// sameCard reports how a and b differ, as read by a Decider: number,
// symbols in order, and bit set of words words.
func sameCard(a, b Card, words int) error {
	if a.ID() != b.ID() || a.Len() != b.Len() {
		return fmt.Errorf("card %d of %d symbols, the view's %d of %d", a.ID(), a.Len(), b.ID(), b.Len())
	}
	for i := range a.Len() {
		if a.Symbol(i) != b.Symbol(i) || !a.Has(a.Symbol(i)) || !b.Has(a.Symbol(i)) {
			return fmt.Errorf("card %d: symbol %d is %d, the view's %d", a.ID(), i, a.Symbol(i), b.Symbol(i))
		}
	}
	for w := range words {
		if a.Word(w) != b.Word(w) {
			return fmt.Errorf("card %d: word %d is %x, the view's %x", a.ID(), w, a.Word(w), b.Word(w))
		}
	}
	return nil
}

// viewChecks holds, by game name, a check of what a game shows a seat
// beside its zones (View.Extra, View.Turn): that it shows nothing the seat
// may not see (a secret, another seat's answers, a card turned back face
// down) and that what it shows is true. A game's test file sets its entry
// from an init function; checkViews runs it for every seat and the
// spectator after every action.
var viewChecks = map[string]func(s *State, seat int, v View) error{}

// playRandom plays one random game of g to its end and returns the stepper
// holding the final state, the actions and the events.
func playRandom(t testing.TB, g Game, td testDeck, cfg Config, r *rand.Rand, verify verifyFunc) *stepper {
	t.Helper()
	s, err := New(g, td.x, cfg)
	if err != nil {
		t.Fatalf("%s %+v: %v", td.name, cfg, err)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatalf("after setup: %v", err)
	}
	checkViews(t, s)
	s.KeepShuffles(true) // as a record writer does: checkKept checks what it keeps
	st := &stepper{t: t, s: s, d: td.d, verify: verify}
	var c clock
	limit := 200 * (td.d.Len() + 10)
	for i := 0; !s.Over(); i++ {
		if i > limit {
			t.Fatalf("%s %+v: game did not end after %d actions", td.name, cfg, i)
		}
		at := c.tick(r)
		if d, ok := s.Deadline(); ok && at >= d && r.IntN(4) == 0 {
			// A seat acting after the deadline, before the clock's tick.
			st.apply(randomAction(s, r, at, st.buf))
		}
		var ticked bool
		if c.now, ticked = st.tick(at); ticked {
			continue
		}
		st.apply(randomAction(s, r, at, st.buf))
	}
	// Once over, everything is refused as game over (or earlier checks).
	for i := 0; i < 20; i++ {
		a := randomAction(s, r, c.tick(r), st.buf)
		if st.apply(a) {
			t.Fatalf("action %+v accepted after the game ended", a)
		}
	}
	kind := kindsOf(&s.info)[0]
	last := Action{Kind: kind, Seat: 0, Version: s.Version(), Target: To(make([]int, kind.targets(&s.info))...)}
	if !errors.Is(s.Check(last), ErrGameOver) {
		t.Fatalf("%v after the end not refused as game over: %v", kind, s.Check(last))
	}
	return st
}

// checkReplay replays st's actions from scratch and compares the final
// state and the events with the original game.
func checkReplay(t testing.TB, g Game, td testDeck, cfg Config, st *stepper) {
	t.Helper()
	s2, ev2, _, err := Replay(g, td.x, cfg, st.actions)
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Equal(st.s) {
		t.Fatalf("%s %+v: replay reached a different state", td.name, cfg)
	}
	if !reflect.DeepEqual(ev2, st.events) {
		t.Fatalf("%s %+v: replay produced different events", td.name, cfg)
	}
}

// runProperties plays many random games of the registered game name over
// the test decks and every allowed player count the deck can seat.
func runProperties(t *testing.T, name string, verify verifyFunc) {
	g, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	runPropertiesOf(t, g, nil, verify)
}

// runPropertiesOf is runProperties for a game value, registered or not,
// played with the given options.
func runPropertiesOf(t *testing.T, g Game, options map[string]string, verify verifyFunc) {
	info := g.Info()
	games := 0
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, td := range decksFor(t, info.Name) {
		for p := info.MinPlayers; p <= info.MaxPlayers; p++ {
			for k := 0; k < rounds; k++ {
				cfg := Config{Players: p, Seed: r.Uint64(), Options: options}
				if r.IntN(3) == 0 {
					cfg.Lockout = NoLockout
				}
				if _, err := New(g, td.x, cfg); err != nil {
					var ce *ConfigError
					if !errors.As(err, &ce) || ce.Field != "cards" {
						t.Fatalf("%s %+v: %v", td.name, cfg, err)
					}
					break // too few cards for p players
				}
				st := playRandom(t, g, td, cfg, r, verify)
				if k == 0 {
					checkReplay(t, g, td, cfg, st)
				}
				games++
			}
		}
	}
	if least := 20 * rounds / 3; games < least {
		t.Fatalf("only %d games played, fewer than %d", games, least)
	}
}

// fuzzGame fuzzes the registered game name: the bytes choose the deck, the
// players and the seed, then encode a stream of actions, half of them
// garbage. Nothing may panic and the invariants must hold throughout.
func fuzzGame(f *testing.F, name string, verify verifyFunc) {
	g, err := Lookup(name)
	if err != nil {
		f.Fatal(err)
	}
	fuzzGameOf(f, g, verify)
}

// fuzzGameOf is fuzzGame for a game value, registered or not.
func fuzzGameOf(f *testing.F, g Game, verify verifyFunc) {
	f.Add([]byte{0, 2, 1, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{15, 4, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{3, 8, 200, 255, 255, 0, 1, 128, 64, 32, 16, 8, 4, 2, 1})
	f.Add([]byte("the tower of babel, claimed and refused, late and early"))
	info := g.Info()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		decks := decksFor(t, info.Name)
		td := decks[int(data[0])%len(decks)]
		p := info.MinPlayers + int(data[1])%(info.MaxPlayers-info.MinPlayers+1)
		cfg := Config{Players: p, Seed: uint64(data[2])}
		s, err := New(g, td.x, cfg)
		if err != nil {
			return
		}
		st := &stepper{t: t, s: s, d: td.d, verify: verify}
		var at int64
		data = data[3:]
		for len(data) >= 4 && len(st.actions) < 500 {
			op, b1, b2, b3 := data[0], data[1], data[2], data[3]
			data = data[4:]
			at += int64(b3) * 8
			if op&0x0f == 0x0f {
				at, _ = st.tick(at)
				if s.Over() {
					continue
				}
			}
			if op&1 == 0 {
				// A correct claim, when the chosen seat has one.
				seat := int(b1) % p
				if moves := s.Moves(seat, st.buf[:0]); len(moves) > 0 {
					m := moves[int(b2)%len(moves)]
					m.At = at
					st.apply(m)
					continue
				}
			}
			a := Action{
				Kind:    ActionKind(op >> 6),
				Seat:    int(int8(b1)) % (p + 2),
				Symbol:  int(b2) - 2,
				Version: s.Version() - uint64(op>>1&3) + uint64(op>>3&1),
				At:      at - int64(op>>4&1),
			}
			if n := int(op>>5&1) + info.Targets; n > 0 && n <= MaxTargets {
				zs := make([]int, n)
				for i := range zs {
					zs[i] = (int(b2) + i*int(b1)) % (s.Zones() + 1)
				}
				a.Target = To(zs...)
			}
			st.apply(a)
		}
		if err := CheckInvariants(s); err != nil {
			t.Fatal(err)
		}
	})
}

// setTable rearranges s's zones to hold exactly the given cards (bottom
// first), for scenario tests that need a known table.
func setTable(t testing.TB, s *State, zones ...[]int) {
	t.Helper()
	if len(zones) != s.Zones() {
		t.Fatalf("setTable: %d zones given, the table has %d", len(zones), s.Zones())
	}
	for i, cards := range zones {
		c := s.zones[i].cards[:0]
		for _, x := range cards {
			c = append(c, int32(x))
		}
		s.zones[i].cards = c
	}
	if r, ok := s.ext.(Resyncer); ok {
		r.Resync(s)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatalf("setTable: %v", err)
	}
}

// mustRefuse applies a to s, which must refuse it with want and no events,
// and checks that the refusal left the table as it was, bar the lock-out a
// wrong claim or draw records, and that it records one exactly when the
// kind locks out. It returns the refusal.
func mustRefuse(t testing.TB, s *State, a Action, want error) *Refusal {
	t.Helper()
	before := s.Clone()
	ev, err := s.Apply(a, nil)
	var r *Refusal
	if !errors.Is(err, want) || len(ev) != 0 || !errors.As(err, &r) {
		t.Fatalf("%+v: got %v (%d events), want %v", a, err, len(ev), want)
	}
	if locks := r.Code.Wrong() && a.Kind.LocksOut() && s.lockout > 0; r.LocksOut() != locks {
		t.Fatalf("%+v: refused %v, LocksOut %v, want %v", a, r, r.LocksOut(), locks)
	}
	if r.LocksOut() {
		before.seats[a.Seat].LockedUntil = r.LockedUntil
	}
	if !s.Equal(before) {
		t.Fatalf("%+v: the refusal changed the table", a)
	}
	return r
}
