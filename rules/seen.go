package rules

// The functions here let a bot read what View(seat) would show without
// building the whole View: a zone's visible top card, and the parts of a
// game's Extension every seat may see. Each returns only what the seat's
// View shows, so a bot that reads the table through them learns nothing
// hidden from it.

// TopFor returns the top card of zone z as seat sees it in View(seat): the
// card, or -1 when the zone is empty or its top is face down to seat.
func (s *State) TopFor(z, seat int) int {
	zn := &s.zones[z]
	if len(zn.cards) == 0 || !zn.Show.visibleTop(zn.Seat, seat) {
		return -1
	}
	return int(zn.cards[len(zn.cards)-1])
}

// ZoneLen returns the number of cards in zone z, face up or not, as
// View shows every seat (ZoneView.Count).
func (s *State) ZoneLen(z int) int { return len(s.zones[z].cards) }

// FalsePokerFree returns how many markers seat has off the row in a game
// of False Poker, as FalsePokerView.Free shows everyone.
func FalsePokerFree(s *State, seat int) int { return fpFree(s, s.ext.(*fpExt), seat) }

// FalsePokerRow returns, in a game of False Poker, what every seat can work
// out from the row it sees: the symbols that neighbouring cards of the row
// share, as a bit set (symbol s is bit s%64 of word s/64), and how many of
// those repeat one shared before in the row. The slice is the state's own:
// read it, do not keep or change it.
func FalsePokerRow(s *State) (shared []uint64, repeats int) {
	e := s.ext.(*fpExt)
	return e.shared, e.repeats
}

// GuessFlips returns the cards turned this round of Guess and what the
// host said of each, as GuessView.Flips shows everyone. The slice is the
// state's own: read it, do not keep or change it.
func GuessFlips(s *State) []GuessFlip { return s.ext.(*guessExt).flips }

// MemoryMarked reports whether face-down place z has a marker in a game of
// Memory, as MemoryView.Marked shows everyone.
func MemoryMarked(s *State, z int) bool {
	e := s.ext.(*memoryExt)
	i := z - memoryFirst
	return i >= 0 && i < len(e.marked) && e.marked[i]
}

// MemoryLast returns the card flipped last in a game of Memory, as
// MemoryView.Last shows everyone, and false before the first flip.
func MemoryLast(s *State) (MemoryFlip, bool) {
	e := s.ext.(*memoryExt)
	return e.last, e.last.Card >= 0
}

// ReflectionPhase returns the phase of a game of Reflection, as
// ReflectionView.Phase shows everyone: "look", "study" or "answer".
func ReflectionPhase(s *State) string { return reflPhases[s.ext.(*reflExt).phase] }

// ReflectionWritten returns how many symbols seat has written this round
// of Reflection, as ReflectionView.Written shows everyone.
func ReflectionWritten(s *State, seat int) int { return len(s.ext.(*reflExt).answers[seat]) }
