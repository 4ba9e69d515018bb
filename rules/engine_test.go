package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/deck"
)

// probe is a test-only game that uses the parts of the engine the Tower
// does not: options (a choice and an integer), a claim target, the draw
// action, hidden and owner-only zones, stack moves, moves under a pile,
// shuffles, rounds and tallies. It is not registered.
//
// Table: zone 0 is a hidden stock, zone 1 a row of two face-up cards, zone
// 2+i seat i's pile, whose top only seat i sees. A claim names another
// seat's pile and a symbol shared by the claimant's top card and that
// pile's top card; the claimant gives its top card (option give=top) or its
// whole pile (give=stack) onto that pile, and refills from the stock when
// its pile runs out. A draw moves the stock's top card under the drawer's
// pile and shuffles the stock; it starts a new round. The game ends when
// the stock is empty or after `limit` accepted actions. Fewest cards wins.
type probe struct{}

const (
	probeStock = 0
	probeRow   = 1
	optGive    = 0
	optLimit   = 1
)

func probePile(seat int) int { return 2 + seat }

func (probe) Info() Info {
	return Info{
		Name: "probe", Title: "Probe", Section: "engine_test.go",
		MinPlayers: 2, MaxPlayers: 4, Unit: "cards", HigherWins: false, Targets: 1, Draw: true,
		Options: []Option{
			{Name: "give", Doc: "What a claim gives away.", Choices: []string{"top", "stack"}, Default: "top"},
			{Name: "limit", Doc: "Accepted actions before the game ends.", Min: 1, Max: 500, Default: "40"},
		},
	}
}

func (probe) Setup(s *State) error {
	if s.cards.Len() < 3+s.Players() {
		return &ConfigError{Game: "probe", Field: "cards", Reason: "too few cards"}
	}
	s.addZone(ZoneStock, NoSeat, ShowHidden)
	s.addZone(ZoneCentre, NoSeat, ShowAll)
	for i := 0; i < s.Players(); i++ {
		s.addZone(ZonePile, i, ShowOwnerTop)
	}
	s.dealAll(probeStock)
	s.take(probeStock, probeRow)
	s.take(probeStock, probeRow)
	for i := 0; i < s.Players(); i++ {
		s.take(probeStock, probePile(i))
	}
	s.round = 1
	return nil
}

func (probe) Check(s *State, a *Action) *Refusal {
	if a.Kind == ActionDraw {
		return nil // the stock is never empty while the game runs
	}
	z := a.Target.At(0)
	if z == probePile(a.Seat) {
		return refuse(CodeBadTarget, a, "that is your own pile")
	}
	if s.zones[z].Kind != ZonePile {
		return refuse(CodeBadTarget, a, "name another seat's pile")
	}
	if !s.cards.Has(s.top(probePile(a.Seat)), a.Symbol) || !s.cards.Has(s.top(z), a.Symbol) {
		return refuse(CodeNotAMatch, a, "")
	}
	return nil
}

func (probe) Apply(s *State, a *Action, ev []Event) []Event {
	own := probePile(a.Seat)
	if a.Kind == ActionDraw {
		ev = s.moveUnder(ev, a.Seat, probeStock, own)
		if s.count(probeStock) > 0 {
			ev = s.shuffle(ev, probeStock)
		}
		s.round++
		ev = append(ev, Event{Kind: EventRound, Seat: NoSeat, Symbol: -1, Card: -1, From: -1, To: -1, Round: s.round})
	} else {
		ev = claimed(ev, a)
		if s.Option(optGive) == 1 {
			ev = s.moveStack(ev, a.Seat, own, a.Target.At(0))
		} else {
			ev = s.move(ev, a.Seat, own, a.Target.At(0))
		}
		s.seats[a.Seat].Tally++
		if s.count(own) == 0 {
			ev = s.move(ev, a.Seat, probeStock, own)
		}
	}
	if s.count(probeStock) == 0 || int(s.version)+1 >= s.Option(optLimit) {
		ev = s.finish(ev)
	}
	return ev
}

func (probe) Moves(s *State, seat int, dst []Action) []Action {
	for i := 0; i < s.Players(); i++ {
		if i != seat {
			dst = s.appendClaims(dst, seat, To(probePile(i)), s.top(probePile(seat)), s.top(probePile(i)))
		}
	}
	return append(dst, Action{Kind: ActionDraw, Seat: seat, Version: s.version})
}

func (probe) Result(s *State) *Result {
	scores := make([]int, s.Players())
	for i := range scores {
		scores[i] = s.count(probePile(i))
	}
	return Rank("cards", false, scores)
}

func (probe) Invariants(s *State) error {
	if s.over {
		return nil
	}
	if s.count(probeStock) == 0 || s.count(probeRow) != 2 {
		return fmt.Errorf("stock %d, row %d", s.count(probeStock), s.count(probeRow))
	}
	for i := 0; i < s.Players(); i++ {
		if s.count(probePile(i)) == 0 {
			return fmt.Errorf("seat %d has no card", i)
		}
	}
	return nil
}

// verifyProbe checks an accepted probe action with the real deck.
func verifyProbe(before *State, d *deck.Deck, a Action, ev []Event) error {
	own := probePile(a.Seat)
	if a.Kind == ActionDraw {
		if ev[0].Kind != EventMove || !ev[0].Under || ev[0].Card != before.Zone(probeStock).Top() || ev[0].To != own {
			return fmt.Errorf("draw events %+v", ev)
		}
		return nil
	}
	z := a.Target.At(0)
	if z == own || z < 2 || z >= before.Zones() {
		return fmt.Errorf("target %d is not another seat's pile", z)
	}
	mine, theirs := before.Zone(own).Top(), before.Zone(z).Top()
	if d.Common(mine, theirs) != a.Symbol {
		return fmt.Errorf("symbol %d is not the match of %v and %v", a.Symbol, d.Card(mine), d.Card(theirs))
	}
	if ev[1].Kind != EventMove || ev[1].From != own || ev[1].To != z || ev[1].Card != mine {
		return fmt.Errorf("claim events %+v", ev)
	}
	return nil
}

func TestProbeProperties(t *testing.T) {
	runPropertiesOf(t, probe{}, nil, verifyProbe)
	runPropertiesOf(t, probe{}, map[string]string{"give": "stack", "limit": "500"}, verifyProbe)
}

func FuzzProbe(f *testing.F) { fuzzGameOf(f, probe{}, verifyProbe) }

// TestOptions checks option defaults, parsing and the reasons for refusals.
func TestOptions(t *testing.T) {
	d := mustDeck(t, 3, 0)
	s, err := New(probe{}, d, Config{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Option(optGive) != 0 || s.Option(optLimit) != 40 {
		t.Fatalf("defaults: give %d limit %d", s.Option(optGive), s.Option(optLimit))
	}
	s, err = New(probe{}, d, Config{Players: 2, Options: map[string]string{"give": "stack", "limit": "7"}})
	if err != nil || s.Option(optGive) != 1 || s.Option(optLimit) != 7 {
		t.Fatalf("set: %v, give %d limit %d", err, s.Option(optGive), s.Option(optLimit))
	}
	for opts, want := range map[string]string{
		"give=all":  `rules: probe: give: "all" is not one of top, stack`,
		"limit=0":   `rules: probe: limit: "0" is not a whole number from 1 to 500`,
		"limit=x":   `rules: probe: limit: "x" is not a whole number from 1 to 500`,
		"colour=up": `rules: probe: options: unknown option "colour"; probe takes give, limit`,
	} {
		k, v, _ := strings.Cut(opts, "=")
		_, err := New(probe{}, d, Config{Players: 2, Options: map[string]string{k: v}})
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", opts, err, want)
		}
	}
	// The state keeps its own copy of the options.
	opts := map[string]string{"give": "stack"}
	s, _ = New(probe{}, d, Config{Players: 2, Options: opts})
	opts["give"] = "top"
	if s.Config().Options["give"] != "stack" {
		t.Fatal("the caller's map changed the state's config")
	}
}

// TestCheckOrder checks which refusal wins when an action fails several
// checks, and that only wrong claims lock a seat out.
func TestCheckOrder(t *testing.T) {
	d := mustDeck(t, 7, 55)
	s, err := New(probe{}, d, Config{Players: 3, Seed: 5, Lockout: 250})
	if err != nil {
		t.Fatal(err)
	}
	wrongSym := func(seat, z int) int {
		for sym := 0; ; sym++ {
			if !d.Has(s.Zone(probePile(seat)).Top(), sym) {
				return sym
			}
		}
	}
	code := func(a Action) Code {
		t.Helper()
		err := s.Check(a)
		var r *Refusal
		if !errors.As(err, &r) {
			t.Fatalf("%+v: %v is not a refusal", a, err)
		}
		return r.Code
	}
	bad := Action{Seat: 0, Symbol: wrongSym(0, 3), Target: To(probePile(1)), At: 10}
	if c := code(Action{Seat: 5, Symbol: -1, Version: 9}); c != CodeNoSeat {
		t.Errorf("absent seat with garbage: %v", c)
	}
	if c := code(Action{Seat: 0, Symbol: -1, Version: 9}); c != CodeMalformed {
		t.Errorf("garbage: %v", c)
	}
	if c := code(Action{Seat: 0, Symbol: 0, Target: To(probePile(1), 0)}); c != CodeMalformed {
		t.Errorf("two targets where the game takes one: %v", c)
	}
	if c := code(Action{Seat: 0, Symbol: 0, Target: To(99)}); c != CodeMalformed {
		t.Errorf("target zone out of range: %v", c)
	}
	if c := code(Action{Kind: ActionDraw, Seat: 0, Target: To(1)}); c != CodeMalformed {
		t.Errorf("draw with a target: %v", c)
	}
	if c := code(Action{Seat: 0, Symbol: 0, Target: To(probePile(0))}); c != CodeBadTarget {
		t.Errorf("own pile: %v", c)
	}
	if c := code(Action{Seat: 0, Symbol: 0, Target: To(probeRow)}); c != CodeBadTarget {
		t.Errorf("the row: %v", c)
	}
	// A bad target locks out like a wrong symbol.
	if _, err := s.Apply(Action{Seat: 2, Symbol: 0, Target: To(probePile(2)), At: 40}, nil); !errors.Is(err, ErrBadTarget) || s.Seat(2).LockedUntil != 290 {
		t.Fatalf("bad target: %v, lock %d", err, s.Seat(2).LockedUntil)
	}
	// A draw is accepted: version 1. Now the wrong claim against version 0
	// is too late, not wrong, and locks nobody out.
	if _, err := s.Apply(Action{Kind: ActionDraw, Seat: 1, Symbol: 12345, At: 5}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(bad, nil); !errors.Is(err, ErrTooLate) || s.Seat(0).LockedUntil != 0 {
		t.Fatalf("stale wrong claim: %v, lock %d", err, s.Seat(0).LockedUntil)
	}
	bad.Version = 1
	bad.Symbol = wrongSym(0, 3)
	if _, err := s.Apply(bad, nil); !errors.Is(err, ErrNotAMatch) || s.Seat(0).LockedUntil != 260 {
		t.Fatalf("wrong claim: %v, lock %d", err, s.Seat(0).LockedUntil)
	}
	// While locked, even a stale claim is refused as too late (the version
	// is checked first) and a current one as locked out; at 260 it is free.
	if c := code(Action{Seat: 0, Symbol: 0, Target: To(probePile(1)), At: 100}); c != CodeTooLate {
		t.Errorf("locked and stale: %v", c)
	}
	if c := code(Action{Kind: ActionDraw, Seat: 0, Version: 1, At: 259}); c != CodeLockedOut {
		t.Errorf("locked: %v", c)
	}
	if err := s.Check(Action{Kind: ActionDraw, Seat: 0, Version: 1, At: 260}); err != nil {
		t.Errorf("lock-out over at 260: %v", err)
	}
	// With lock-outs off, a wrong claim locks nothing.
	s, _ = New(probe{}, d, Config{Players: 3, Seed: 5, Lockout: NoLockout})
	bad.Version = 0
	bad.Symbol = wrongSym(0, 3)
	if _, err := s.Apply(bad, nil); !errors.Is(err, ErrNotAMatch) || s.Seat(0).LockedUntil != 0 || err.(*Refusal).LockedUntil != 0 {
		t.Fatalf("no lock-out: %v, lock %d", err, s.Seat(0).LockedUntil)
	}
	// A lock-out past the end of time saturates instead of wrapping.
	bad.At = math.MaxInt64 - 1
	if _, err := s.Apply(bad, nil); !errors.Is(err, ErrNotAMatch) {
		t.Fatal(err)
	}
	s, _ = New(probe{}, d, Config{Players: 3, Seed: 5, Lockout: 250})
	if _, err := s.Apply(bad, nil); !errors.Is(err, ErrNotAMatch) || s.Seat(0).LockedUntil != math.MaxInt64 || CheckInvariants(s) != nil {
		t.Fatalf("huge time: %v, lock %d", err, s.Seat(0).LockedUntil)
	}
	bad.At = 10
	// Default lock-out.
	s, _ = New(probe{}, d, Config{Players: 3, Seed: 5})
	if _, err := s.Apply(bad, nil); !errors.Is(err, ErrNotAMatch) || s.Seat(0).LockedUntil != 10+DefaultLockout {
		t.Fatalf("default lock-out: %v, lock %d", err, s.Seat(0).LockedUntil)
	}
}

// TestEventForAndViews checks what each seat may see of probe's hidden
// stock, owner-only piles and open row, in views and in events.
func TestEventForAndViews(t *testing.T) {
	d := mustDeck(t, 3, 0)
	s, err := New(probe{}, d, Config{Players: 3, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	stockTop := s.Zone(probeStock).Top()
	ev, err := s.Apply(Action{Kind: ActionDraw, Seat: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ev[0].Card != stockTop || ev[0].Kind != EventMove || !ev[0].Under {
		t.Fatalf("draw event %+v", ev[0])
	}
	if ev[1].Kind != EventShuffle || ev[1].From != probeStock || ev[1].Count != s.Zone(probeStock).Len() {
		t.Fatalf("shuffle event %+v", ev[1])
	}
	if ev[2].Kind != EventRound || ev[2].Round != 2 || s.Round() != 2 {
		t.Fatalf("round event %+v", ev[2])
	}
	for seat := -1; seat < 3; seat++ {
		if e := s.EventFor(ev[0], seat); e.Card != -1 {
			t.Errorf("seat %d sees the card drawn under a pile: %+v", seat, e)
		}
	}
	// A claim gives seat 0's top card to seat 1: only seat 1 sees it.
	moves := s.Moves(0, nil)
	var give Action
	for _, m := range moves {
		if m.Kind == ActionClaim && m.Target == To(probePile(1)) {
			give = m
		}
	}
	card := s.Zone(probePile(0)).Top()
	if ev, err = s.Apply(give, nil); err != nil {
		t.Fatal(err)
	}
	if ev[1].Card != card || ev[1].To != probePile(1) {
		t.Fatalf("give event %+v", ev[1])
	}
	for seat := -1; seat < 3; seat++ {
		want := -1
		if seat == 1 {
			want = card
		}
		if e := s.EventFor(ev[1], seat); e.Card != want {
			t.Errorf("seat %d sees card %d of the give, want %d", seat, e.Card, want)
		}
		v := s.View(seat)
		if got := len(v.Zones[probeRow].Cards); got != 2 {
			t.Errorf("seat %d sees %d row cards, want 2", seat, got)
		}
		if got := len(v.Zones[probeStock].Cards); got != 0 || v.Zones[probeStock].Count == 0 {
			t.Errorf("seat %d sees %d stock cards (count %d)", seat, got, v.Zones[probeStock].Count)
		}
		for i := 0; i < 3; i++ {
			if got := len(v.Zones[probePile(i)].Cards); got != map[bool]int{true: 1, false: 0}[i == seat] {
				t.Errorf("seat %d sees %d cards of seat %d's pile", seat, got, i)
			}
		}
	}
	if v := s.View(7); v.Seat != Spectator {
		t.Errorf("a seat not at the table gets seat %d, want the spectator view", v.Seat)
	}
	// The claim event and a non-move event pass unchanged.
	if e := s.EventFor(ev[0], Spectator); !reflect.DeepEqual(e, ev[0]) {
		t.Errorf("claim event changed: %+v", e)
	}
}

// TestStackMoveKeepsOrder checks moveStack and moveUnder on a known table.
func TestStackMoveKeepsOrder(t *testing.T) {
	s, err := New(probe{}, mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	setTable(t, s, []int{0, 1}, []int{2, 3}, []int{4, 5}, []int{6})
	ev := s.moveStack(nil, 0, probePile(0), probePile(1))
	if got := s.Zone(probePile(1)).AppendCards(nil); !slices.Equal(got, []int{6, 4, 5}) {
		t.Fatalf("stack move: %v", got)
	}
	if ev[0].Card != 5 || ev[0].Count != 2 || s.Zone(probePile(0)).Len() != 0 {
		t.Fatalf("stack move event %+v", ev[0])
	}
	ev = s.moveUnder(ev[:0], 1, probeStock, probePile(1))
	if got := s.Zone(probePile(1)).AppendCards(nil); !slices.Equal(got, []int{1, 6, 4, 5}) || ev[0].Card != 1 {
		t.Fatalf("move under: %v, %+v", got, ev[0])
	}
	if err := CheckInvariants(s); err == nil || !strings.Contains(err.Error(), "seat 0 has no card") {
		t.Fatalf("game invariant not reported: %v", err)
	}
}

// TestCheckInvariantsCatches checks that the generic checker reports lost,
// duplicated and foreign cards.
func TestCheckInvariantsCatches(t *testing.T) {
	g := mustGame(t, "tower")
	s, err := New(g, mustDeck(t, 2, 0), Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		edit func(s *State)
		want string
	}{
		"lost":      {func(s *State) { s.zones[0].cards = s.zones[0].cards[:len(s.zones[0].cards)-1] }, "is in no zone"},
		"duplicate": {func(s *State) { s.zones[0].cards[0] = s.zones[1].cards[0] }, "is in two places"},
		"foreign":   {func(s *State) { s.zones[1].cards[0] = 7 }, "not in the 7-card deck"},
		"seat":      {func(s *State) { s.zones[1].Seat = 2 }, "not at the table"},
		"lock":      {func(s *State) { s.seats[0].LockedUntil = -1 }, "before the game began"},
		"game":      {func(s *State) { s.over = true }, "tower: over = true"},
	} {
		c := s.Clone()
		tc.edit(c)
		if err := CheckInvariants(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatalf("editing clones changed the original: %v", err)
	}
}

// TestIndexMatchesDeck compares the Index with the deck on every card pair
// and every symbol, for orders whose symbols fill one to three words.
func TestIndexMatchesDeck(t *testing.T) {
	for _, tc := range [][2]int{{2, 0}, {3, 0}, {4, 0}, {5, 30}, {7, 55}, {7, 20}, {8, 0}, {9, 0}, {11, 0}, {11, 50}} {
		d := mustDeck(t, tc[0], tc[1])
		x, err := NewIndex(d)
		if err != nil {
			t.Fatal(err)
		}
		if x.Len() != d.Len() || x.Symbols() != d.Symbols() {
			t.Fatalf("order %d: index %d×%d, deck %d×%d", tc[0], x.Len(), x.Symbols(), d.Len(), d.Symbols())
		}
		for i := 0; i < d.Len(); i++ {
			if !slices.Equal(x.AppendCard(nil, i), d.Card(i)) {
				t.Fatalf("order %d card %d: %v, deck %v", tc[0], i, x.AppendCard(nil, i), d.Card(i))
			}
			for s := -1; s <= d.Symbols(); s++ {
				if x.Has(i, s) != d.Has(i, s) {
					t.Fatalf("order %d: Has(%d, %d) = %v", tc[0], i, s, x.Has(i, s))
				}
			}
			set := x.AppendBits([]uint64{7}, i)
			if len(set) != 1+(d.Symbols()+63)/64 || set[0] != 7 {
				t.Fatalf("order %d card %d: AppendBits gave %d words after the one given, want %d", tc[0], i, len(set)-1, (d.Symbols()+63)/64)
			}
			for s := range len(set[1:]) * 64 {
				if on := set[1+s/64]>>(s%64)&1 != 0; on != d.Has(i, s) {
					t.Fatalf("order %d card %d: AppendBits says symbol %d is on it: %v", tc[0], i, s, on)
				}
				if x.Word(i, s/64) != set[1+s/64] {
					t.Fatalf("order %d card %d: Word(%d, %d) = %#x, AppendBits gives %#x", tc[0], i, i, s/64, x.Word(i, s/64), set[1+s/64])
				}
			}
			for j := 0; j < d.Len(); j++ {
				if i == j {
					continue
				}
				c := d.Common(i, j)
				if x.Common(i, j) != c || !slices.Equal(x.AppendCommon(nil, i, j), []int{c}) {
					t.Fatalf("order %d: Common(%d, %d) = %d / %v, deck %d", tc[0], i, j, x.Common(i, j), x.AppendCommon(nil, i, j), c)
				}
			}
		}
		if y, _ := NewIndex(x); y != x {
			t.Fatal("NewIndex of an Index built a new one")
		}
	}
}

// planePlusSingles is a card source like Anarchy Pancakes' two decks: the
// plane's cards, then one card per symbol showing only that symbol. It shows
// that the engine works with cards that are not plane lines.
type planePlusSingles struct{ *deck.Deck }

func (p planePlusSingles) Len() int { return p.Deck.Len() + p.Deck.Symbols() }

func (p planePlusSingles) AppendCard(dst []int, i int) []int {
	if i < p.Deck.Len() {
		return p.Deck.AppendCard(dst, i)
	}
	return append(dst, i-p.Deck.Len())
}

func TestIndexPlanePlusSingles(t *testing.T) {
	d := mustDeck(t, 5, 0)
	x, err := NewIndex(planePlusSingles{d})
	if err != nil {
		t.Fatal(err)
	}
	if x.Len() != 62 || x.Symbols() != 31 {
		t.Fatalf("%d cards, %d symbols", x.Len(), x.Symbols())
	}
	for s := 0; s < 31; s++ {
		single := 31 + s
		if !slices.Equal(x.AppendCard(nil, single), []int{s}) {
			t.Fatalf("single %d shows %v", s, x.AppendCard(nil, single))
		}
		for j := 0; j < 31; j++ {
			want := -1
			if d.Has(j, s) {
				want = s
			}
			if x.Common(single, j) != want || x.Common(j, single) != want {
				t.Fatalf("single %d and card %d: %d, want %d", s, j, x.Common(single, j), want)
			}
		}
		if other := 31 + (s+1)%31; x.Common(single, other) != -1 || len(x.AppendCommon(nil, single, other)) != 0 {
			t.Fatalf("two singles share a symbol")
		}
	}
	// A Tower can be played with it: the engine needs no plane.
	s, err := New(mustGame(t, "tower"), x, Config{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// badCards is a card source with one broken card.
type badCards struct {
	n, m int
	card []int
}

func (b badCards) Len() int     { return b.n }
func (b badCards) Symbols() int { return b.m }
func (b badCards) AppendCard(dst []int, i int) []int {
	if i == 1 {
		return append(dst, b.card...)
	}
	return append(dst, 0)
}

func TestIndexErrors(t *testing.T) {
	for _, tc := range []struct {
		c    badCards
		want string
	}{
		{badCards{0, 3, nil}, "at least one card"},
		{badCards{2, 0, nil}, "at least one card and one symbol"},
		{badCards{2, 3, []int{3}}, "card 1 shows symbol 3, outside 0..2"},
		{badCards{2, 3, []int{-1}}, "outside"},
		{badCards{2, 3, []int{1, 1}}, "card 1 shows symbol 1 twice"},
	} {
		if _, err := NewIndex(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.c, err, tc.want)
		}
	}
	_, err := New(mustGame(t, "tower"), badCards{2, 3, []int{5}}, Config{Players: 2})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != "cards" {
		t.Errorf("New with a broken deck: %v", err)
	}
}

func TestRank(t *testing.T) {
	for _, tc := range []struct {
		scores     []int
		higher     bool
		winners    []int
		ranking    []int
		places     []int
		unitChecks string
	}{
		{[]int{5, 9, 9, 1}, true, []int{1, 2}, []int{1, 2, 0, 3}, []int{3, 1, 1, 4}, ""},
		{[]int{5, 9, 9, 1}, false, []int{3}, []int{3, 0, 1, 2}, []int{2, 3, 3, 1}, ""},
		{[]int{2, 2}, true, []int{0, 1}, []int{0, 1}, []int{1, 1}, ""},
		{[]int{0, 3, 1, 3, 0}, false, []int{0, 4}, []int{0, 4, 2, 1, 3}, []int{1, 4, 3, 4, 1}, ""},
	} {
		r := Rank("cards", tc.higher, tc.scores)
		want := &Result{Unit: "cards", HigherWins: tc.higher, Scores: tc.scores, Winners: tc.winners, Ranking: tc.ranking, Places: tc.places}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("Rank(%v, %v) = %+v, want %+v", tc.scores, tc.higher, r, want)
		}
	}
	in := []int{1, 2}
	r := Rank("x", true, in)
	in[0] = 99
	if r.Scores[0] != 1 {
		t.Error("Rank kept the caller's slice")
	}
	r.Winners = append(r.Winners, 7) // must not overwrite another field
	if r.Scores[0] != 1 || r.Ranking[0] != 1 || r.Places[1] != 1 {
		t.Errorf("appending to Winners clobbered the result: %+v", r)
	}
}

func TestRegistry(t *testing.T) {
	for _, name := range []string{"tower", "infernal-tower", "bank-heist", "Bank Heist", " INFERNAL_TOWER "} {
		g, err := Lookup(name)
		if err != nil || g.Info().Name != "tower" {
			t.Errorf("Lookup(%q) = %v, %v", name, g, err)
		}
	}
	_, err := Lookup("towr")
	var ue *UnknownGameError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown game "towr"; valid games: `) ||
		!slices.Contains(ue.Valid, "tower (infernal-tower, bank-heist)") || !slices.IsSorted(ue.Valid) || len(ue.Valid) != len(Games()) {
		t.Errorf("unknown game: %v", err)
	}
	if !slices.ContainsFunc(Games(), func(g Game) bool { return g.Info().Name == "tower" }) {
		t.Error("Games() lacks the tower")
	}
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	mustPanic("duplicate", func() { Register(tower{}) })
	mustPanic("bad range", func() { Register(badInfo{Info{Name: "x", Unit: "u", MinPlayers: 3, MaxPlayers: 2}}) })
	mustPanic("bad default", func() {
		Register(badInfo{Info{Name: "y", Unit: "u", MinPlayers: 2, MaxPlayers: 2,
			Options: []Option{{Name: "o", Min: 1, Max: 2, Default: "3"}}}})
	})
	mustPanic("bad name", func() { Register(badInfo{Info{Name: "Z z", Unit: "u", MinPlayers: 2, MaxPlayers: 2}}) })
	// Record rules without hooks, or with an event no game owns.
	shape := &ClaimShape{Match: []Place{{Kinds: []ZoneKind{ZoneCentre}, Whose: Shared}}}
	for _, rr := range []*RecordRules{{}, {Events: []EventKind{EventMove}, New: towerInfo.Record.New}} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "Record") {
					t.Errorf("record rules %+v: %v, want a panic about Record", rr, p)
				}
			}()
			Register(badInfo{Info{Name: "r", Unit: "u", MinPlayers: 2, MaxPlayers: 2, Claim: shape, Record: rr}})
		}()
	}
	if _, err := Lookup("x"); err == nil {
		t.Error("a refused registration left a name behind")
	}
}

// badInfo is a game whose only use is to be refused by Register.
type badInfo struct{ info Info }

func (b badInfo) Info() Info                                  { return b.info }
func (badInfo) Setup(*State) error                            { return nil }
func (badInfo) Check(*State, *Action) *Refusal                { return nil }
func (badInfo) Apply(_ *State, _ *Action, ev []Event) []Event { return ev }
func (badInfo) Moves(_ *State, _ int, dst []Action) []Action  { return dst }
func (badInfo) Result(*State) *Result                         { return nil }

// TestRefusalErrors checks codes, errors.Is, messages and JSON.
func TestRefusalErrors(t *testing.T) {
	r := &Refusal{Code: CodeTooLate, Seat: 2, Version: 3, Current: 5}
	if !errors.Is(r, ErrTooLate) || errors.Is(r, ErrNotAMatch) {
		t.Error("errors.Is does not follow the code")
	}
	if got := r.Error(); got != "rules: seat 2: too late: the claim was made against version 3, the table is at version 5" {
		t.Errorf("Error() = %q", got)
	}
	if got := ErrLockedOut.Error(); got != "rules: refused: lockedOut" {
		t.Errorf("sentinel Error() = %q", got)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["code"] != "tooLate" || m["seat"] != 2.0 || !strings.HasPrefix(m["reason"].(string), "too late") {
		t.Errorf("JSON %s", b)
	}
	for c := CodeNoSeat; c <= CodeNotAMatch; c++ {
		text, err := c.MarshalText()
		var back Code
		if err != nil || back.UnmarshalText(text) != nil || back != c {
			t.Errorf("code %d does not round-trip: %s %v", c, text, err)
		}
		if (&Refusal{Code: c}).Reason() == "" {
			t.Errorf("code %v has no reason", c)
		}
	}
	var c Code
	if err := c.UnmarshalText([]byte("nope")); err == nil || !strings.Contains(err.Error(), "tooLate") {
		t.Errorf("bad code name: %v", err)
	}
	if _, err := Code(0).MarshalText(); err == nil {
		t.Error("code 0 has a name")
	}
}

// TestJSON checks the wire forms: lowerCamel names, enums as names, targets
// as arrays, and that an action survives a round trip.
func TestJSON(t *testing.T) {
	a := Action{Kind: ActionDraw, Seat: 1, Symbol: 4, Target: To(2, 3), Version: 7, At: 1500}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"kind":"draw","seat":1,"symbol":4,"target":[2,3],"version":7,"at":1500}` {
		t.Errorf("action JSON %s", b)
	}
	var back Action
	if err := json.Unmarshal(b, &back); err != nil || back != a {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"target":[1,2,3,4]}`), &back); err == nil {
		t.Error("four targets decoded")
	}
	if err := json.Unmarshal([]byte(`{"kind":"jump"}`), &back); err == nil || !strings.Contains(err.Error(), `"claim" "draw"`) {
		t.Errorf("unknown kind: %v", err)
	}

	s, err := New(mustGame(t, "tower"), mustDeck(t, 2, 0), Config{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := s.Apply(s.Moves(0, nil)[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(ev[1])
	if !strings.HasPrefix(string(b), `{"kind":"move","version":1,"seat":0,"symbol":-1,"card":`) || strings.Contains(string(b), "result") {
		t.Errorf("event JSON %s", b)
	}
	b, err = json.Marshal(s.View(0))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	if got := keys(v); !slices.Equal(got, []string{"game", "over", "players", "result", "round", "seat", "seats", "turn", "version", "zones"}) {
		t.Errorf("view keys %v", got)
	}
	zone := v["zones"].([]any)[1].(map[string]any)
	if got := keys(zone); !slices.Equal(got, []string{"cards", "count", "kind", "seat", "show", "zone"}) || zone["show"] != "top" || zone["kind"] != "pile" {
		t.Errorf("zone JSON %v", zone)
	}
	if got := keys(v["result"].(map[string]any)); !slices.Equal(got, []string{"higherWins", "places", "ranking", "scores", "unit", "winners"}) {
		t.Errorf("result keys %v", got)
	}
	if got := keys(v["seats"].([]any)[0].(map[string]any)); !slices.Equal(got, []string{"lockedUntil", "tally"}) {
		t.Errorf("seat keys %v", got)
	}
	b, _ = json.Marshal(g2info(t))
	if !strings.Contains(string(b), `"minPlayers":2,"maxPlayers":8,"unit":"cards","higherWins":true,"targets":0,"claim":{"match":[{"kinds":["pile"],"whose":"mine"},{"kinds":["centre"],"whose":"shared"}]},"points":{"rule":"+1 a card won, +5 to the winner"}}`) {
		t.Errorf("info JSON %s", b)
	}
	type enum interface {
		MarshalText() ([]byte, error)
		AppendText([]byte) ([]byte, error)
	}
	for _, k := range []enum{ActionClaim, ActionTake, EventOver, EventSecret, ShowOwnerTop, CodeNoSeat, CodeEarly} {
		if text, err := k.MarshalText(); err != nil || len(text) == 0 {
			t.Errorf("%v: %s %v", k, text, err)
		}
		text, _ := k.MarshalText()
		if got, err := k.AppendText([]byte("x")); err != nil || string(got) != "x"+string(text) {
			t.Errorf("%v: AppendText gives %q %v, MarshalText %q", k, got, err, text)
		}
	}
	for _, k := range []enum{ActionKind(200), EventKind(200), Show(200), Code(0)} {
		if got, err := k.AppendText([]byte("x")); err == nil || string(got) != "x" {
			t.Errorf("%v has no name, yet AppendText gives %q %v", k, got, err)
		}
	}
}

func g2info(t *testing.T) Info { return mustGame(t, "tower").Info() }

// TestTargets checks the target list's accessors and limits.
func TestTargets(t *testing.T) {
	tg := To(4, 0, 9)
	if tg.Len() != 3 || tg.At(0) != 4 || tg.At(2) != 9 || To().Len() != 0 || To() != (Targets{}) {
		t.Fatalf("targets %+v", tg)
	}
	for name, f := range map[string]func(){"four": func() { To(1, 2, 3, 4) }, "at": func() { tg.At(3) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestCloneIndependent checks that a clone evolves on its own and that the
// same actions take both to Equal states.
func TestCloneIndependent(t *testing.T) {
	s, err := New(probe{}, mustDeck(t, 3, 0), Config{Players: 2, Seed: 8, Options: map[string]string{"give": "stack"}})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if !c.Equal(s) {
		t.Fatal("a fresh clone differs")
	}
	draw := Action{Kind: ActionDraw, Seat: 0}
	if _, err := c.Apply(draw, nil); err != nil {
		t.Fatal(err)
	}
	if c.Equal(s) || s.Version() != 0 {
		t.Fatal("applying to the clone changed the original")
	}
	if _, err := s.Apply(draw, nil); err != nil {
		t.Fatal(err)
	}
	if !c.Equal(s) {
		t.Fatal("the same action (and shuffle) took clone and original apart")
	}
}

// TestShuffleUniform checks that shuffles from different seeds give every
// order of a small deck about equally often, so no card position is
// favoured (Sattolo's variant, an off-by-one of Fisher–Yates, would only
// give cyclic orders).
func TestShuffleUniform(t *testing.T) {
	x, err := NewIndex(badCards{n: 4, m: 1})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[[4]int32]int{}
	const runs = 24000
	for seed := uint64(0); seed < runs; seed++ {
		s := &State{cards: x}
		s.rng.Seed(seed, seedStream)
		s.addZone(ZoneStock, NoSeat, ShowHidden)
		s.dealAll(0)
		counts[[4]int32(s.zones[0].cards)]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d of the 24 orders of 4 cards seen", len(counts))
	}
	for order, n := range counts {
		if n < runs/24*8/10 || n > runs/24*12/10 {
			t.Errorf("order %v seen %d times, expected about %d", order, n, runs/24)
		}
	}
}

// TestIndexApart checks Apart against the real decks, where every two cards
// meet, and against sources with cards that share nothing.
func TestIndexApart(t *testing.T) {
	for _, tc := range [][2]int{{2, 0}, {3, 5}, {5, 0}, {7, 55}, {8, 0}} {
		x, err := NewIndex(mustDeck(t, tc[0], tc[1]))
		if err != nil {
			t.Fatal(err)
		}
		if i, j := x.Apart(); i != -1 || j != -1 {
			t.Fatalf("order %d: cards %d and %d reported apart", tc[0], i, j)
		}
	}
	d := mustDeck(t, 5, 0)
	x, err := NewIndex(planePlusSingles{d})
	if err != nil {
		t.Fatal(err)
	}
	// Card 0 of the plane misses some symbol s; the first single for such
	// an s is the first card card 0 does not meet.
	want := -1
	for s := 0; s < d.Symbols() && want < 0; s++ {
		if !d.Has(0, s) {
			want = d.Len() + s
		}
	}
	for k := 0; k < 2; k++ { // the second call reads the kept answer
		if i, j := x.Apart(); i != 0 || j != want {
			t.Fatalf("planePlusSingles: Apart = %d, %d, want 0, %d", i, j, want)
		}
	}
	// Cards {0}, {0, 1}, {0}, {0} all show symbol 0; in {0}, {1}, {0}, {0}
	// the first pair apart is 0 and 1.
	for _, tc := range []struct {
		card []int
		i, j int
	}{{[]int{0, 1}, -1, -1}, {[]int{1}, 0, 1}} {
		y, err := NewIndex(badCards{n: 4, m: 3, card: tc.card})
		if err != nil {
			t.Fatal(err)
		}
		if i, j := y.Apart(); i != tc.i || j != tc.j {
			t.Fatalf("card 1 = %v: Apart = %d, %d, want %d, %d", tc.card, i, j, tc.i, tc.j)
		}
	}
}

// TestReserveAndSlots checks that slots added after reserve take no
// allocation beyond the zone list's one, and that slots do not overlap,
// even when given more than the one card they are meant for.
func TestReserveAndSlots(t *testing.T) {
	s, err := New(mustGame(t, "tower"), mustDeck(t, 7, 55), Config{Players: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	const extra = 20
	var clones []*State
	for range 12 {
		clones = append(clones, s.Clone())
	}
	next := 0
	allocs := testing.AllocsPerRun(10, func() {
		c := clones[next]
		next++
		c.reserve(extra, extra)
		for range extra {
			c.addSlot(ZoneKind("place"), NoSeat, ShowAll)
		}
	})
	if allocs != 1 {
		t.Fatalf("%v allocations to add %d slots after reserve, want 1 (the zone list)", allocs, extra)
	}
	c := clones[0]
	first := c.Zones() - extra
	for round := 0; round < 2; round++ {
		for z := first; z < c.Zones(); z++ {
			c.take(0, z)
		}
	}
	seen := make(map[int]bool)
	for z := 0; z < c.Zones(); z++ {
		if z >= first && c.Zone(z).Len() != 2 {
			t.Fatalf("slot %d holds %d cards, want 2", z, c.Zone(z).Len())
		}
		for _, card := range c.Zone(z).AppendCards(nil) {
			if seen[card] {
				t.Fatalf("card %d is in two zones: the zones overlap", card)
			}
			seen[card] = true
		}
	}
	if len(seen) != 55 {
		t.Fatalf("%d cards on the table, want 55", len(seen))
	}
}

// TestEventsInReusedBuffer checks that Apply writes every field of the
// events it appends: a buffer reused with ev[:0], full of other events,
// gives the same events as a fresh one.
func TestEventsInReusedBuffer(t *testing.T) {
	d := mustDeck(t, 3, 0)
	fresh, err := New(probe{}, d, Config{Players: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	reused := fresh.Clone()
	dirty := make([]Event, 64)
	for i := range dirty {
		dirty[i] = Event{Kind: EventOver, Version: 99, Seat: 7, Symbol: 7, Target: To(1, 2, 3), Card: 7, Count: 7,
			From: 7, To: 7, Under: true, Round: 7, Result: &Result{Unit: "x"}}
	}
	var moves []Action
	for step := 0; !fresh.Over(); step++ {
		moves = fresh.Moves(step%3, moves[:0])
		a := moves[step%len(moves)]
		want, err1 := fresh.Apply(a, nil)
		got, err2 := reused.Apply(a, dirty[:0])
		if err1 != nil || err2 != nil {
			t.Fatalf("%+v: %v, %v", a, err1, err2)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: events in a reused buffer\n %+v\nwant\n %+v", a, got, want)
		}
		for i := range dirty {
			dirty[i].Under, dirty[i].Round, dirty[i].Target = true, 7, To(1, 2, 3)
		}
	}
}

// counter is a test Extension: one number a game might keep beside the
// table.
type counter struct{ n int }

func (c *counter) CloneExtension() Extension       { d := *c; return &d }
func (c *counter) EqualExtension(o Extension) bool { return c.n == o.(*counter).n }

// TestExtensionClonedAndCompared checks that State.Clone deep-copies a
// game's Extension and State.Equal compares it.
func TestExtensionClonedAndCompared(t *testing.T) {
	s, err := New(probe{}, mustDeck(t, 3, 0), Config{Players: 2, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if s.Extension() != nil {
		t.Fatal("a game without an extension has one")
	}
	s.SetExtension(&counter{n: 1})
	c := s.Clone()
	if !c.Equal(s) {
		t.Fatal("a fresh clone with an extension differs")
	}
	c.Extension().(*counter).n = 2
	if s.Extension().(*counter).n != 1 {
		t.Fatal("changing the clone's extension changed the original's")
	}
	if c.Equal(s) || s.Equal(c) {
		t.Fatal("states with different extensions are Equal")
	}
	c.SetExtension(nil)
	if c.Equal(s) || s.Equal(c) {
		t.Fatal("a state with an extension equals one without")
	}
}

// TestReset checks that State.Reset sets a game up exactly as New does with
// the new seed, after a game played to its end: an Equal state, then the
// same events for the same actions and Equal states to the end; that it
// drops an extension the game did not set up; and that it allocates
// nothing for the Tower and Anarchy Pancakes, whose Setup reuses what the
// game before left.
func TestReset(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	play := func(s, o *State) {
		t.Helper()
		now := int64(0)
		for step := 0; !s.Over(); step++ {
			if err := CheckInvariants(s); err != nil {
				t.Fatalf("%s after Reset: %v", s.Info().Name, err)
			}
			if step > 100000 {
				t.Fatalf("%s: no end", s.Info().Name)
			}
			var moves []Action
			for seat := range s.Players() {
				moves = s.Moves(seat, moves)
			}
			var a Action
			if len(moves) == 0 {
				// Nobody can act: a timed game's clock moves it on.
				tick, ok := s.Tick()
				if !ok {
					t.Fatalf("%s: no move and no deadline at version %d", s.Info().Name, s.Version())
				}
				a, now = tick, tick.At
			} else {
				a = moves[r.IntN(len(moves))]
				a.At = now
			}
			ev, err := s.Apply(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			if o != nil {
				evO, err := o.Apply(a, nil)
				if err != nil || !reflect.DeepEqual(ev, evO) || !s.Equal(o) {
					t.Fatalf("%s, %+v: after Reset %+v, after New %+v, %v", s.Info().Name, a, ev, evO, err)
				}
			}
		}
	}
	for _, g := range Games() {
		name := g.Info().Name
		x := decksFor(t, name)[0].x
		for _, td := range decksFor(t, name) {
			if td.x.Len() > x.Len() {
				x = td.x
			}
		}
		// Two players, whose places grow in number the most in Anarchy
		// Pancakes, and many games, each set up where the one before ended.
		cfg := Config{Players: g.Info().MinPlayers, Seed: 1}
		s, err := New(g, x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(2); seed < 30; seed++ {
			play(s, nil)
			if err := s.Reset(seed); err != nil {
				t.Fatal(err)
			}
			cfg.Seed = seed
			o, err := New(g, x, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Equal(o) || s.Config().Seed != seed {
				t.Fatalf("%s: Reset(%d) differs from New", name, seed)
			}
			play(s, o)
		}
		if name == "tower" || name == "anarchy-pancakes" {
			if n := testing.AllocsPerRun(20, func() {
				if err := s.Reset(7); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("%s: Reset allocates %v times", name, n)
			}
		}
	}
	s, err := New(probe{}, mustDeck(t, 3, 0), Config{Players: 2, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	s.SetExtension(&counter{n: 1})
	if err := s.Reset(9); err != nil || s.Extension() != nil {
		t.Fatalf("Reset kept an extension the game did not set up: %v, %v", s.Extension(), err)
	}
}
