package rules

import (
	"fmt"
	"math/bits"
	"slices"
)

// ZoneKind names what a zone is on the table. It is a string so that a game
// can add its own kinds ("grid", "stack", "ring") in its own file; the
// common ones are below.
type ZoneKind string

// The zone kinds most games use.
const (
	// ZoneStock is a face-down draw pile.
	ZoneStock ZoneKind = "stock"
	// ZoneCentre is a face-up card or pile in the middle of the table.
	ZoneCentre ZoneKind = "centre"
	// ZonePile is a seat's own pile, whose top card the seat plays with.
	ZonePile ZoneKind = "pile"
	// ZoneWon holds the cards a seat has won and no longer plays with.
	ZoneWon ZoneKind = "won"
	// ZoneAside holds cards out of play for now (later rounds).
	ZoneAside ZoneKind = "aside"
)

// Show says who may see which cards of a zone. Its JSON form is its name.
type Show uint8

// The visibilities. Hidden cards are never sent to anyone: views give only
// their count.
const (
	// ShowHidden: every card is face down; only the count is visible.
	ShowHidden Show = iota
	// ShowTop: the top card is face up for everyone; the rest are covered.
	ShowTop
	// ShowAll: every card is face up for everyone (laid out side by side).
	ShowAll
	// ShowOwnerTop: the top card is seen by the zone's seat only, like a
	// hand held up.
	ShowOwnerTop
)

var showNames = []string{ShowHidden: "hidden", ShowTop: "top", ShowAll: "all", ShowOwnerTop: "ownerTop"}

// String returns the name of the visibility, e.g. "top".
func (v Show) String() string { return enumText(showNames, int(v), "Show") }

// MarshalText encodes the visibility as its name.
func (v Show) MarshalText() ([]byte, error) { return enumMarshal(showNames, int(v), "Show") }

// AppendText appends the visibility's name to b, as MarshalText returns
// it.
func (v Show) AppendText(b []byte) ([]byte, error) { return enumAppend(b, showNames, int(v), "Show") }

// UnmarshalText decodes a visibility from its name.
func (v *Show) UnmarshalText(b []byte) error {
	x, err := enumParse(showNames, b, "visibility")
	*v = Show(x)
	return err
}

// visibleTop reports whether seat sees the top card of a zone showing v
// owned by owner.
func (v Show) visibleTop(owner, seat int) bool {
	return v == ShowTop || v == ShowAll || (v == ShowOwnerTop && seat >= 0 && owner == seat)
}

// Zone is one place on the table where cards lie: a pile, a centre card, a
// grid slot. Its cards are ordered bottom to top. Every card of the deck is
// in exactly one zone at all times (CheckInvariants). Zones are numbered in
// the order the game added them, and actions and events refer to them by
// that number.
type Zone struct {
	// Kind says what the zone is.
	Kind ZoneKind `json:"kind"`
	// Seat is the seat the zone belongs to, or NoSeat.
	Seat int `json:"seat"`
	// Show says who sees which of its cards.
	Show Show `json:"show"`

	cards []int32 // bottom first; capacity = deck size (one card for a slot), so appends rarely move it
}

// Len returns the number of cards in the zone.
func (z Zone) Len() int { return len(z.cards) }

// Top returns the top card, or -1 if the zone is empty.
func (z Zone) Top() int {
	if len(z.cards) == 0 {
		return -1
	}
	return int(z.cards[len(z.cards)-1])
}

// AppendCards appends the zone's cards, bottom first, to dst and returns the
// extended slice. It shows face-down cards too: it is for the referee and
// tests, never for building what a player sees (use View).
func (z Zone) AppendCards(dst []int) []int {
	for _, c := range z.cards {
		dst = append(dst, int(c))
	}
	return dst
}

// Zones returns the number of zones on the table.
func (s *State) Zones() int { return len(s.zones) }

// Zone returns zone z, 0 <= z < Zones(). The copy shares the cards, which
// it only lets you read.
func (s *State) Zone(z int) Zone { return s.zones[z] }

// carve returns an empty slice with room for the whole deck, cut from the
// state's arena so that a table's zones take few allocations.
func (s *State) carve() []int32 { return s.carveFor(s.cards.Len()) }

// carveFor returns an empty slice with room for k cards, cut from the
// state's arena.
func (s *State) carveFor(k int) []int32 {
	if cap(s.arena)-len(s.arena) < k {
		// The first time, room for the table New plans for (two zones
		// per seat and two more); then four zones more at a time.
		size := 4 * s.cards.Len()
		if cap(s.arena) == 0 {
			size = (len(s.seats) + 2) * s.cards.Len()
		}
		s.arena = make([]int32, 0, max(size, k))
	}
	start := len(s.arena)
	s.arena = s.arena[:start+k]
	return s.arena[start : start : start+k]
}

// reserve makes room in the zone list for zones more zones, and in the
// arena for cards more cards, so that a table with more zones than New
// plans for (two per seat and four more), such as a grid of slots or many
// places, grows the list and the arena once instead of several times.
// Games call it from Setup.
func (s *State) reserve(zones, cards int) {
	s.zones = slices.Grow(s.zones, zones)
	if cap(s.arena)-len(s.arena) < cards {
		s.arena = make([]int32, 0, cards)
	}
}

// addZone adds an empty zone and returns its number. Games call it from
// Setup (or later, for zones that appear during play).
func (s *State) addZone(kind ZoneKind, seat int, show Show) int {
	return s.appendZone(kind, seat, show, s.carve())
}

// addSlot adds an empty zone meant to hold one card at a time, such as a
// grid slot or a place in a row of cards, and returns its number. It takes
// room for one card from the arena instead of a whole deck's worth, which
// keeps a table of many slots small; a slot given more cards still works,
// growing on its own.
func (s *State) addSlot(kind ZoneKind, seat int, show Show) int {
	return s.addRoom(kind, seat, show, 1)
}

// addRoom adds an empty zone with room for k cards from the arena, and
// returns its number: for a zone that usually holds a few cards, such as a
// place in front of a seat; given more, it grows on its own.
func (s *State) addRoom(kind ZoneKind, seat int, show Show, k int) int {
	return s.appendZone(kind, seat, show, s.carveFor(k))
}

// appendZone appends a zone holding cards and returns its number. It
// writes the zone field by field, for the reason appendClaim gives.
func (s *State) appendZone(kind ZoneKind, seat int, show Show, cards []int32) int {
	n := len(s.zones)
	if n < cap(s.zones) {
		s.zones = s.zones[:n+1]
	} else {
		s.zones = append(s.zones, Zone{})
	}
	z := &s.zones[n]
	z.Kind, z.Seat, z.Show, z.cards = kind, seat, show, cards
	return n
}

// dealAll puts every card of the deck into zone z, shuffled with the
// state's random source. Setup calls it once, into an empty table.
func (s *State) dealAll(z int) {
	c := s.zones[z].cards[:0]
	for i := 0; i < s.cards.Len(); i++ {
		c = append(c, int32(i))
	}
	s.zones[z].cards = c
	s.shuffleCards(c)
}

// shuffleCards shuffles c in place (Fisher–Yates) with the state's source,
// drawing each index as intN does. The source is copied to a local for the
// loop, where it stays in registers instead of going to memory and back at
// every draw; the draws are the same.
func (s *State) shuffleCards(c []int32) {
	rng := s.rng
	for i := len(c) - 1; i > 0; i-- {
		n := uint64(i + 1)
		hi, lo := bits.Mul64(rng.Uint64(), n)
		if lo < n {
			thresh := -n % n
			for lo < thresh {
				hi, lo = bits.Mul64(rng.Uint64(), n)
			}
		}
		c[i], c[hi] = c[hi], c[i]
	}
	s.rng = rng
}

// top returns the top card of zone z, or -1 if it is empty.
func (s *State) top(z int) int {
	c := s.zones[z].cards
	if len(c) == 0 {
		return -1
	}
	return int(c[len(c)-1])
}

// count returns the number of cards in zone z.
func (s *State) count(z int) int { return len(s.zones[z].cards) }

// take moves the top card of zone from onto zone to and returns it; from
// must not be empty. It records no event: Setup deals with it, Apply uses
// move.
func (s *State) take(from, to int) int {
	f := s.zones[from].cards
	if len(f) == 0 {
		panic(fmt.Sprintf("rules: %s: take from empty zone %d", s.info.Name, from))
	}
	c := f[len(f)-1]
	// Reslicing the field itself, not the copy f, lets the compiler
	// keep the pointer and skip the write barrier.
	s.zones[from].cards = s.zones[from].cards[:len(f)-1]
	s.zones[to].cards = append(s.zones[to].cards, c)
	return int(c)
}

// move moves the top card of zone from onto zone to for seat and appends
// the EventMove; from must not be empty.
func (s *State) move(ev []Event, seat, from, to int) []Event {
	c := s.take(from, to)
	return appendEvent(ev, EventMove, seat, -1, c, 1, from, to)
}

// moveStack moves every card of zone from, order kept, onto zone to for
// seat and appends the EventMove; from must not be empty and differ from
// to.
func (s *State) moveStack(ev []Event, seat, from, to int) []Event {
	f := s.zones[from].cards
	if len(f) == 0 || from == to {
		panic(fmt.Sprintf("rules: %s: moveStack from zone %d (%d cards) to zone %d", s.info.Name, from, len(f), to))
	}
	if t := s.zones[to].cards; len(f) <= 8 && cap(f) >= 8 && len(t)+8 <= cap(t) {
		// A short stack, the usual case: eight cards copied whatever its
		// height, the extra ones past the end of both zones, unseen,
		// which costs less than a loop (whose end the processor cannot
		// foresee) or a call to copy.
		f8, u8 := f[:8], t[len(t):len(t)+8]
		u8[0], u8[1], u8[2], u8[3] = f8[0], f8[1], f8[2], f8[3]
		u8[4], u8[5], u8[6], u8[7] = f8[4], f8[5], f8[6], f8[7]
		s.zones[to].cards = t[:len(t)+len(f)]
	} else {
		s.zones[to].cards = append(t, f...)
	}
	s.zones[from].cards = s.zones[from].cards[:0] // no write barrier, as in take
	return appendEvent(ev, EventMove, seat, -1, int(f[len(f)-1]), len(f), from, to)
}

// moveUnder moves the top card of zone from to the bottom of zone to for
// seat and appends the EventMove with Under set; from must not be empty
// and differ from to.
func (s *State) moveUnder(ev []Event, seat, from, to int) []Event {
	f := s.zones[from].cards
	if len(f) == 0 || from == to {
		panic(fmt.Sprintf("rules: %s: moveUnder from zone %d (%d cards) to zone %d", s.info.Name, from, len(f), to))
	}
	c := f[len(f)-1]
	s.zones[from].cards = f[:len(f)-1]
	t := append(s.zones[to].cards, 0)
	copy(t[1:], t)
	t[0] = c
	s.zones[to].cards = t
	ev = appendEvent(ev, EventMove, seat, -1, int(c), 1, from, to)
	ev[len(ev)-1].Under = true
	return ev
}

// shuffle shuffles zone z with the state's random source and appends the
// EventShuffle; with KeepShuffles on, it keeps the order the zone is left
// in for Shuffled.
func (s *State) shuffle(ev []Event, z int) []Event {
	s.shuffleCards(s.zones[z].cards)
	if k := s.kept; k != nil {
		k.keep(s.version, s.zones[z].cards)
	}
	return appendEvent(ev, EventShuffle, NoSeat, -1, -1, len(s.zones[z].cards), z, -1)
}

// shuffleLog holds the orders the shuffles of one action left their zones
// in, for a record (State.KeepShuffles).
type shuffleLog struct {
	version uint64  // the version the action was made against; noVersion when none is kept
	cards   []int32 // every order, one after the other, bottom first
	ends    []int   // where each order ends in cards
}

// noVersion is the version of a shuffleLog that holds no action's orders.
const noVersion = ^uint64(0)

// keep adds the order cards of a shuffle made by the action against
// version, forgetting those of an earlier action.
func (l *shuffleLog) keep(version uint64, cards []int32) {
	if l.version != version {
		l.version, l.cards, l.ends = version, l.cards[:0], l.ends[:0]
	}
	l.cards = append(l.cards, cards...)
	l.ends = append(l.ends, len(l.cards))
}

// KeepShuffles turns on (or off) the keeping of the outcome of every
// shuffle: while it is on, Shuffled returns the orders the last accepted
// action left its shuffled zones in. A record writer turns it on, so that
// a record states every shuffle's outcome and can be checked without this
// package's random source; off, the default, it costs nothing. The orders
// are the referee's alone: events, views and EventFor never carry them.
// Reset keeps the setting; a Clone does not keep shuffles.
func (s *State) KeepShuffles(on bool) {
	switch {
	case !on:
		s.kept = nil
	case s.kept == nil:
		s.kept = &shuffleLog{version: noVersion}
	default:
		s.kept.version = noVersion
	}
}

// Shuffled returns, when KeepShuffles is on, the cards of each zone the
// last accepted action shuffled, bottom first, as the shuffle left them:
// one list per EventShuffle of the action, in the order of the events. It
// returns nil when that action shuffled nothing, and when KeepShuffles is
// off or was turned on since. The lists are the caller's.
func (s *State) Shuffled() [][]int {
	k := s.kept
	if k == nil || s.version == 0 || k.version != s.version-1 || len(k.ends) == 0 {
		return nil
	}
	out := make([][]int, len(k.ends))
	start := 0
	for i, end := range k.ends {
		out[i] = make([]int, end-start)
		for j, c := range k.cards[start:end] {
			out[i][j] = int(c)
		}
		start = end
	}
	return out
}

// appendEvent appends to ev an event of kind k with the given fields; the
// others are zero (Version is stamped by Apply). It writes the event field
// by field, for the reason appendClaim gives: an Event built in a temporary
// and copied whole stalls on the stores just made, and every card moved
// appends one.
func appendEvent(ev []Event, k EventKind, seat, symbol, card, count, from, to int) []Event {
	if len(ev) < cap(ev) {
		ev = ev[:len(ev)+1]
	} else {
		ev = append(ev, Event{})
	}
	e := &ev[len(ev)-1]
	e.Kind, e.Version, e.Seat, e.Symbol, e.Card, e.Count, e.From, e.To = k, 0, seat, symbol, card, count, from, to
	e.Target = Targets{}
	e.Under, e.Round = false, 0
	if e.Result != nil {
		// Written only when set: a pointer write costs a write barrier
		// while the collector runs.
		e.Result = nil
	}
	return ev
}
