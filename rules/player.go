package rules

import (
	"encoding/json"
	"reflect"
	"slices"
)

// Player decides one seat's actions from the views that seat is shown, as
// a person at the table would, knowing nothing the view does not show. It
// is how a program plays a game over the protocol: the load tool's players
// and the tests' client bots use it, with the Player NewPlayer gives: the
// game's Decider (DeciderMaker) read through the views, the game's own
// (PlayerMaker), or, in a game of claims, one built from the game's
// ClaimShape.
//
// A client shows its Player every view of a table (Observe), tells it of
// every action it sends (Sent), asks it for the next action (Decide), and
// has it forget the table when the next table begins (Reset). A Player is
// not safe for concurrent use.
type Player interface {
	// Observe takes in a view of the table.
	Observe(v *View)
	// Sent takes in that the seat sent action a, chosen from view v.
	Sent(v *View, a *Action)
	// Decide writes the seat's next action to *a (its kind, symbol and
	// targets; the caller stamps the seat, version and time) and reports
	// whether there is one; false when the seat has nothing to do until
	// the table changes: not its turn, a phase to wait for, too little
	// known, no match in sight.
	Decide(v *View, a *Action) bool
	// Reset forgets the table: a new one begins.
	Reset()
}

// PlayerMaker is an optional interface of a game of claims whose players
// decide more than its ClaimShape says (Collect the Symbols: claim a token
// left, else discard or take); bots play it as any game of claims.
type PlayerMaker interface {
	// NewPlayer returns a Player of the game that remembers nothing yet.
	NewPlayer() Player
}

// ExtraDecoder is an optional interface of a Viewer game whose View.Extra
// a client decodes from JSON (View.UnmarshalJSON).
type ExtraDecoder interface {
	// NewViewExtra returns a pointer to a new zero value of the type
	// ViewExtra returns.
	NewViewExtra() any
}

// NewPlayer returns a Player of game g: in a game with Deciders
// (DeciderMaker), one that shows one every view and decides with a
// SureMind; the game's own when it is a PlayerMaker; otherwise one that
// claims the first match the view shows by the game's ClaimShape
// (FindClaim) and, in a game with draws, draws when it sees none.
func NewPlayer(g Game) Player {
	if m, ok := g.(DeciderMaker); ok {
		return &decidingPlayer{d: m.NewDecider(), mind: SureMind()}
	}
	if m, ok := g.(PlayerMaker); ok {
		return m.NewPlayer()
	}
	info := g.Info()
	return &claimPlayer{info: &info}
}

// claimPlayer plays a game of claims from its ClaimShape.
type claimPlayer struct {
	info *Info
}

func (*claimPlayer) Observe(*View)       {}
func (*claimPlayer) Sent(*View, *Action) {}
func (*claimPlayer) Reset()              {}
func (p *claimPlayer) Decide(v *View, a *Action) bool {
	if p.info.Claim != nil && p.info.Claim.find(v, a) {
		return true
	}
	if p.info.Draw {
		for i := range v.Zones {
			if z := &v.Zones[i]; z.Kind == ZoneStock && z.Count > 0 {
				*a = Action{Kind: ActionDraw, Seat: v.Seat}
				return true
			}
		}
	}
	return false
}

// FindClaim writes to *a a correct claim that seat v.Seat can see on the
// table of view v, by the ClaimShape of the game v shows, and reports
// whether there is one: the first, in zone order, of the symbols shown by
// a card of each Match place and the top card of each target.
func FindClaim(v *View, a *Action) bool {
	g, err := Lookup(v.Game)
	if err != nil || g.Info().Claim == nil {
		return false
	}
	return g.Info().Claim.find(v, a)
}

// find is FindClaim for a shape.
func (c *ClaimShape) find(v *View, a *Action) bool {
	places := make([]*Place, 0, len(c.Match)+len(c.Targets))
	for i := range c.Match {
		places = append(places, &c.Match[i])
	}
	for i := range c.Targets {
		places = append(places, &c.Targets[i])
	}
	chosen := make([]int, len(places))
	var try func(k int, cands []int) bool
	try = func(k int, cands []int) bool {
		if k == len(places) {
			if len(cands) == 0 {
				return false
			}
			*a = Action{Kind: ActionClaim, Seat: v.Seat, Symbol: cands[0], Target: To(chosen[len(c.Match):]...)}
			return true
		}
		p := places[k]
		target := k >= len(c.Match)
		for z := range v.Zones {
			zv := &v.Zones[z]
			if len(zv.Cards) == 0 || !p.Holds(zv.Kind, zv.Seat, v.Seat) {
				continue
			}
			if target && (slices.Contains(chosen[len(c.Match):k], z) || c.Ascending && k > len(c.Match) && z <= chosen[k-1]) {
				continue
			}
			chosen[k] = z
			next := narrow(cands, k == 0, zv, p.Every)
			if len(next) > 0 && try(k+1, next) {
				return true
			}
		}
		return false
	}
	return try(0, nil)
}

// narrow returns the symbols of cands that the zone's shown cards show
// (its top card, or every card with every): all its top card's symbols
// when first.
func narrow(cands []int, first bool, z *ZoneView, every bool) []int {
	cards := z.Cards
	if !every {
		cards = cards[len(cards)-1:]
	}
	if first {
		cands = cards[0].Symbols
		cards = cards[1:]
	}
	var out []int
	for _, s := range cands {
		ok := true
		for _, c := range cards {
			if !slices.Contains(c.Symbols, s) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// Top returns the symbols of zone z's top face-up card, or nil.
func (v *View) Top(z int) []int {
	if z < 0 || z >= len(v.Zones) || len(v.Zones[z].Cards) == 0 {
		return nil
	}
	c := v.Zones[z].Cards
	return c[len(c)-1].Symbols
}

// UnmarshalJSON reads a view, decoding its extra into the type of the
// game's own (ExtraDecoder), so that a Player reads it as the server made
// it.
func (v *View) UnmarshalJSON(b []byte) error {
	type plain View
	var raw struct {
		plain
		Extra json.RawMessage `json:"extra"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*v = View(raw.plain)
	v.Extra = nil
	return v.decodeExtra(raw.Extra)
}

// decodeExtra decodes raw, the JSON of the view's extra, into v.Extra: a
// value of the game's own type when it is an ExtraDecoder, otherwise what
// encoding/json makes of it.
func (v *View) decodeExtra(raw []byte) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if g, err := Lookup(v.Game); err == nil {
		if d, ok := g.(ExtraDecoder); ok {
			p := d.NewViewExtra()
			if err := json.Unmarshal(raw, p); err != nil {
				return err
			}
			v.Extra = reflect.ValueOf(p).Elem().Interface()
			return nil
		}
	}
	return json.Unmarshal(raw, &v.Extra)
}

// DecodeExtra decodes raw, the JSON of a view's extra, into v.Extra as
// View.UnmarshalJSON does, once v.Game is known: for a reader that decodes
// the rest of the view itself.
func (v *View) DecodeExtra(raw []byte) error {
	v.Extra = nil
	return v.decodeExtra(raw)
}

// commonSymbol returns the first symbol of a that b shows too, or -1.
func commonSymbol(a, b []int) int {
	for _, s := range a {
		if slices.Contains(b, s) {
			return s
		}
	}
	return -1
}
