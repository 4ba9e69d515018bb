package rules

// View is what one seat (or a spectator) may see of a game: every zone with
// its count and its face-up cards, the seats' lock-outs and tallies, the
// standing and the version to name in the next action. It never holds a
// card that is face down to the viewer. A View is plain data with stable
// lowerCamel JSON field names, ready to send to a client.
type View struct {
	// Game is the game's canonical name.
	Game string `json:"game"`
	// Seat is the viewer's seat, or Spectator.
	Seat int `json:"seat"`
	// Version is the state version the view shows.
	Version uint64 `json:"version"`
	// Players is the number of seats.
	Players int `json:"players"`
	// Round is the current round (0 in games without rounds).
	Round int `json:"round"`
	// Over is true once the game has ended.
	Over bool `json:"over"`
	// Zones lists every zone, in zone order.
	Zones []ZoneView `json:"zones"`
	// Seats holds each seat's lock-out and tally.
	Seats []Seat `json:"seats"`
	// Result is the standing so far, or the outcome once Over.
	Result *Result `json:"result"`
	// Turn is the seat whose turn it is in a game with turns (Memory,
	// False Poker), or NoSeat.
	Turn int `json:"turn"`
	// Deadline is when a timed game next wants time to pass, in
	// milliseconds since the game began (State.Deadline): the end of the
	// turn, of the study time, the next card turned; 0 when there is none.
	Deadline int64 `json:"deadline,omitzero"`
	// Extra is the game's own state as the viewer may see it (Viewer):
	// tokens, markers, the answers written, the cards flipped; absent in
	// games that keep nothing beside the table.
	Extra any `json:"extra,omitempty"`
}

// ZoneView is one zone as a viewer sees it.
type ZoneView struct {
	// Zone is the zone's number, the one actions and events use.
	Zone int `json:"zone"`
	// Kind says what the zone is.
	Kind ZoneKind `json:"kind"`
	// Seat is the seat the zone belongs to, or NoSeat.
	Seat int `json:"seat"`
	// Show says who sees which of its cards.
	Show Show `json:"show"`
	// Count is the number of cards in the zone, face up or not.
	Count int `json:"count"`
	// Cards are the cards the viewer sees, bottom first: all of them for
	// ShowAll, the top one for ShowTop (and for its owner under
	// ShowOwnerTop), none otherwise. It is never null.
	Cards []CardView `json:"cards"`
}

// CardView is a face-up card: its number and its symbols.
type CardView struct {
	// Card is the card's number in the deck.
	Card int `json:"card"`
	// Symbols are the symbols on the card.
	Symbols []int `json:"symbols"`
}

// View returns what seat sees; pass Spectator (or any seat not at the
// table) for the public view, which shows no seat's private cards.
func (s *State) View(seat int) View {
	var v View
	s.ViewInto(seat, &v)
	return v
}

// ViewInto sets *v to what seat sees, as View returns it, reusing the
// lists v holds: a caller that encodes one view after another (a room's
// updates) allocates them once. v must not be shared with whatever holds
// a view it set before.
func (s *State) ViewInto(seat int, v *View) {
	if uint(seat) >= uint(len(s.seats)) {
		seat = Spectator
	}
	zones := v.Zones[:cap(v.Zones)]
	*v = View{
		Game: s.info.Name, Seat: seat, Version: s.version, Players: len(s.seats),
		Round: s.round, Over: s.over,
		Seats:  append(v.Seats[:0], s.seats...),
		Result: s.game.Result(s),
		Turn:   s.Turn(),
	}
	if d, ok := s.Deadline(); ok {
		v.Deadline = d
	}
	if g, ok := s.game.(Viewer); ok {
		v.Extra = g.ViewExtra(s, seat)
	}
	if len(zones) < len(s.zones) {
		zones = append(zones, make([]ZoneView, len(s.zones)-len(zones))...)
	}
	v.Zones = zones[:len(s.zones)]
	if v.Zones == nil {
		v.Zones = []ZoneView{} // encoded [], not null
	}
	for i := range s.zones {
		z, zv := &s.zones[i], &v.Zones[i]
		// The zone's last cards, and their symbols, filled again.
		cards := zv.Cards[:cap(zv.Cards)]
		n := 0
		card := func(c int32) {
			if n == len(cards) {
				cards = append(cards, CardView{})
				cards = cards[:cap(cards)]
			}
			cards[n] = CardView{Card: int(c), Symbols: s.cards.AppendCard(cards[n].Symbols[:0], int(c))}
			n++
		}
		switch {
		case z.Show == ShowAll:
			for _, c := range z.cards {
				card(c)
			}
		case len(z.cards) > 0 && z.Show.visibleTop(z.Seat, seat):
			card(z.cards[len(z.cards)-1])
		}
		if cards == nil {
			cards = []CardView{} // encoded [], not null
		}
		*zv = ZoneView{Zone: i, Kind: z.Kind, Seat: z.Seat, Show: z.Show, Count: len(z.cards), Cards: cards[:n]}
	}
}

// EventFor returns e as seat (or Spectator) may see it: a card that went
// face down to that seat (into a hidden zone, under a pile, or into another
// seat's ShowOwnerTop zone) is replaced by -1, and so is the symbol of
// another seat's EventWrite and of an EventSecret shown to another seat.
// Zones keep their visibility for the whole game, so EventFor may be called
// any time after the event.
func (s *State) EventFor(e Event, seat int) Event {
	if uint(seat) >= uint(len(s.seats)) {
		seat = Spectator
	}
	if (e.Kind == EventWrite || e.Kind == EventSecret) && e.Seat != NoSeat && e.Seat != seat {
		e.Symbol = -1
		return e
	}
	if e.Kind != EventMove || e.Card < 0 || uint(e.To) >= uint(len(s.zones)) {
		return e
	}
	z := &s.zones[e.To]
	if !(z.Show == ShowAll || (!e.Under && z.Show.visibleTop(z.Seat, seat))) {
		e.Card = -1
	}
	return e
}

// Public reports whether every seat now sees the table as a spectator does:
// no zone shows a card to its owner alone and the game shows no state of
// its own per seat (it is not a Viewer). Then View(seat) differs from
// View(Spectator) only in its Seat, and EventFor gives every seat the
// events a spectator gets, so a server can build and encode one view for
// everyone.
func (s *State) Public() bool {
	if _, ok := s.game.(Viewer); ok {
		return false
	}
	for i := range s.zones {
		switch s.zones[i].Show {
		case ShowHidden, ShowTop, ShowAll:
		default:
			return false
		}
	}
	return true
}
