package rules

import "fmt"

// CheckInvariants checks the rules every table obeys, whatever the game:
// every card of the deck lies in exactly one zone (nothing lost, nothing
// duplicated), every zone belongs to NoSeat or an existing seat and has a
// known visibility, and no seat's lock-out ends before the game began; then,
// if the game implements Checker, the game's own invariants. It returns an error naming the first broken rule,
// or nil. Property tests of every game call it after every action.
func CheckInvariants(s *State) error {
	n := s.cards.Len()
	where := make([]int32, n) // zone number + 1 of each card, 0 = not seen
	for zi := range s.zones {
		z := &s.zones[zi]
		if z.Seat < NoSeat || z.Seat >= len(s.seats) {
			return fmt.Errorf("zone %d (%s) belongs to seat %d, not at the table", zi, z.Kind, z.Seat)
		}
		if z.Show > ShowOwnerTop {
			return fmt.Errorf("zone %d (%s) has unknown visibility %d", zi, z.Kind, z.Show)
		}
		for _, c := range z.cards {
			if c < 0 || int(c) >= n {
				return fmt.Errorf("zone %d (%s) holds card %d, not in the %d-card deck", zi, z.Kind, c, n)
			}
			if where[c] != 0 {
				return fmt.Errorf("card %d is in two places: zone %d and zone %d (%s)", c, where[c]-1, zi, z.Kind)
			}
			where[c] = int32(zi) + 1
		}
	}
	for c, w := range where {
		if w == 0 {
			return fmt.Errorf("card %d is in no zone", c)
		}
	}
	for i, seat := range s.seats {
		if seat.LockedUntil < 0 {
			return fmt.Errorf("seat %d is locked until %d ms, before the game began", i, seat.LockedUntil)
		}
	}
	if c, ok := s.game.(Checker); ok {
		if err := c.Invariants(s); err != nil {
			return fmt.Errorf("%s: %w", s.info.Name, err)
		}
	}
	return nil
}
