package rules

import (
	"fmt"
	"slices"
)

// This file holds what a game declares about itself beyond its rules, so
// that the rest of the system (sessions, the server, the simulator, the
// bots, the load tool and the browser) learns it from the game and never
// from a switch over game names: what a claim's targets mean (ClaimShape),
// the cards it is played with when it has its own (DeckSpec), how a session
// scores it (Points), whether a session may pick it by itself, and how its
// records are checked (RecordRules, in recorded.go).

// Whose says whose zones a Place names, as seen from the seat that acts.
type Whose string

// The owners a Place may name.
const (
	// Mine names the acting seat's own zones.
	Mine Whose = "mine"
	// Others names the zones of the other seats.
	Others Whose = "others"
	// Shared names the zones of no seat: the centre, a grid, a ring.
	Shared Whose = "shared"
	// NotMine names the zones of the other seats and of no seat.
	NotMine Whose = "notMine"
	// Anyone names every zone of the kinds, whoever owns it.
	Anyone Whose = "any"
)

// Place names a set of zones by kind and owner: "my pile", "another
// seat's pile", "a slot of the grid".
type Place struct {
	// Kinds are the zone kinds the place may be.
	Kinds []ZoneKind `json:"kinds"`
	// Whose says whose zones they are.
	Whose Whose `json:"whose"`
	// Every is set when every face-up card of the zone must show the
	// symbol (learning mode's pair in the centre); otherwise its top
	// card must.
	Every bool `json:"every,omitzero"`
}

// Holds reports whether zone z of a table seen by seat is one of the
// place's zones.
func (p *Place) Holds(kind ZoneKind, owner, seat int) bool {
	if !slices.Contains(p.Kinds, kind) {
		return false
	}
	switch p.Whose {
	case Mine:
		return owner == seat && seat >= 0
	case Others:
		return owner >= 0 && owner != seat
	case Shared:
		return owner == NoSeat
	case NotMine:
		return owner != seat || seat < 0
	}
	return true
}

// ClaimShape says what a claim of the game is: the places whose cards
// must all show the claimed symbol, and what each of its targets names.
// A claim is correct when the symbol is on the top card of each target
// and of one zone of each Match place (on every face-up card of it, for a
// place with Every). Targets name different zones, in the order of
// Targets; Ascending adds that they are given in increasing zone order
// (Triplets, whose three cards play the same part). A game whose claims
// need more than the table to judge (a token in a pool) declares the
// table part here and its Player the rest.
type ClaimShape struct {
	// Match lists the places, besides the targets, whose cards must show
	// the symbol: the seat's own pile and the centre in the Tower.
	Match []Place `json:"match,omitempty"`
	// Targets lists what each target of a claim names, in order; its
	// length is Info.Targets.
	Targets []Place `json:"targets,omitempty"`
	// Ascending is set when the targets must be given in increasing
	// zone order.
	Ascending bool `json:"ascending,omitzero"`
}

// DeckSpec names the cards a game is played with when it has its own,
// instead of the deck a table is given: Anarchy Pancakes plays with the
// pancakes edition and one single-topping card per topping.
type DeckSpec struct {
	// Edition is the published edition the game is played with, by name
	// (deck.LookupEdition); empty for the table's deck.
	Edition string `json:"edition,omitempty"`
	// Singles is set when one card showing a single symbol is added per
	// symbol of the plane (WithSingles).
	Singles bool `json:"singles,omitzero"`
	// Only is set when the game is played with no other deck: a session
	// deals it these cards whatever deck the table chose.
	Only bool `json:"only,omitzero"`
}

// Points is how a session scores a finished game in tournament points
// (RULES.md §5). Nil in Info means the usual rule: +5 to the winner.
type Points struct {
	// Score returns the points each seat earns for the outcome o: the
	// result, the seats' tallies, the options played and the places after
	// tie-breaks. newScoring is set when the session scores the game with
	// its new scoring (NewScoring).
	Score func(o *Outcome, newScoring bool) []int `json:"-"`
	// Rule says in a sentence how points are earned, for the people
	// choosing a session's scoring.
	Rule string `json:"rule"`
	// NewScoring, when not empty, says in a sentence what the game's
	// optional "new scoring" of RULES.md §5 does; a session may then
	// score it so.
	NewScoring string `json:"newScoring,omitempty"`
	// NewScoringNeeds lists the options, by name, that the new scoring
	// needs set to the given values; a session refuses it otherwise.
	NewScoringNeeds map[string]string `json:"newScoringNeeds,omitempty"`
}

// Outcome is what the tournament points of a finished game depend on: its
// result, its seats' tallies, the options it was played with and the
// places after tie-breaks.
type Outcome struct {
	// Game is the game's canonical name.
	Game string `json:"game"`
	// Result is the game's own result.
	Result *Result `json:"result"`
	// Tallies holds each seat's Seat.Tally at the end.
	Tallies []int `json:"tallies"`
	// Options are the options it was played with, by name.
	Options map[string]string `json:"options,omitempty"`
	// Places holds each seat's settled place, 1 for the winner.
	Places []int `json:"places"`
}

// TournamentPoints returns the tournament points each seat earns for the
// outcome o of game g, scored with its new scoring when newScoring is set
// and the game has one: the game's Info.Points, or +5 to the winner for a
// game without a rule of its own.
func TournamentPoints(g Game, o *Outcome, newScoring bool) []int {
	info := g.Info()
	if info.Points == nil || info.Points.Score == nil {
		pts := make([]int, len(o.Places))
		o.AddAtPlace(1, 5, pts)
		return pts
	}
	return info.Points.Score(o, newScoring && info.Points.NewScoring != "")
}

// AddPerScore adds k points per unit of each seat's score, less dealt (the
// cards a seat was dealt and did not win).
func (o *Outcome) AddPerScore(k, dealt int, pts []int) {
	for i, sc := range o.Result.Scores {
		pts[i] += k * (sc - dealt)
	}
}

// AddPerTally adds k points per unit of each seat's tally.
func (o *Outcome) AddPerTally(k int, pts []int) {
	for i, t := range o.Tallies {
		pts[i] += k * t
	}
}

// AddAtPlace adds k points to every seat at place.
func (o *Outcome) AddAtPlace(place, k int, pts []int) {
	for i, p := range o.Places {
		if p == place {
			pts[i] += k
		}
	}
}

// perScorePoints is the rule "k points per unit of score, less dealt, and
// bonus to the winner", the most common one.
func perScorePoints(k, dealt, bonus int) func(o *Outcome, _ bool) []int {
	return func(o *Outcome, _ bool) []int {
		pts := make([]int, len(o.Places))
		o.AddPerScore(k, dealt, pts)
		o.AddAtPlace(1, bonus, pts)
		return pts
	}
}

// validateDeclarations checks what a game declares beside its rules.
func (info *Info) validateDeclarations() error {
	if c := info.Claim; c != nil {
		if len(c.Targets) != info.Targets {
			return fmt.Errorf("rules: Register: %s: Claim names %d targets but Targets is %d", info.Name, len(c.Targets), info.Targets)
		}
		for _, p := range append(slices.Clone(c.Match), c.Targets...) {
			if len(p.Kinds) == 0 || !slices.Contains([]Whose{Mine, Others, Shared, NotMine, Anyone}, p.Whose) {
				return fmt.Errorf("rules: Register: %s: Claim has a place with no kind or an unknown owner %q", info.Name, p.Whose)
			}
		}
	} else if info.accepts(ActionClaim) {
		return fmt.Errorf("rules: Register: %s: a game of claims must declare its ClaimShape (Info.Claim)", info.Name)
	}
	if p := info.Points; p != nil {
		if p.Score == nil {
			return fmt.Errorf("rules: Register: %s: Points has no Score function", info.Name)
		}
		for name, value := range p.NewScoringNeeds {
			i := slices.IndexFunc(info.Options, func(o Option) bool { return o.Name == name })
			if i < 0 {
				return fmt.Errorf("rules: Register: %s: the new scoring needs option %q, which the game does not have", info.Name, name)
			}
			if _, err := info.Options[i].parse(value); err != nil {
				return fmt.Errorf("rules: Register: %s: the new scoring needs option %q to be %v", info.Name, name, err)
			}
		}
	}
	if r := info.Record; r != nil {
		if r.New == nil {
			return fmt.Errorf("rules: Register: %s: Record has no New function", info.Name)
		}
		for _, k := range r.Events {
			if !slices.Contains([]EventKind{EventFlip, EventMark, EventWrite, EventGuess, EventSecret, EventScore}, k) {
				return fmt.Errorf("rules: Register: %s: Record lists %s among the game's own events; they are flip, mark, write, guess, secret and score", info.Name, k)
			}
		}
	}
	if info.Deck != nil && info.Deck.Only && info.Deck.Edition == "" {
		return fmt.Errorf("rules: Register: %s: a game played only with its own deck must name its edition", info.Name)
	}
	return nil
}
