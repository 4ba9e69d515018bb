package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"

	"github.com/dobble-dev/dobble/rules"
)

// Format is the version of the record format this package writes, in
// every record's first line. Format 2 states the table as set up (the start
// line), the outcome of every shuffle and the zones an action opens, so
// that a record can be checked without this engine's random source
// (Check), and writes a game's lock-out as the protocol and the server's
// --lockout flag give it: absent for the default (rules.DefaultLockout), 0
// for none, or milliseconds. Format 3 has options that formats 1 and 2
// lacked (rules.Option.Before: False Poker's "first-turn"); a record of an
// earlier format is read with each such option it does not state set to
// its Before, so that it replays as it was played. Format 1 records, which
// stated no table (−1 was none), are still read, their lock-out read as
// they meant it, and replayed.
const Format = 3

// MinFormat is the oldest record format this package reads.
const MinFormat = 1

// The line types, the "type" field of every line.
const (
	// TypeGame opens a record: the Header.
	TypeGame = "game"
	// TypeStart follows the game line from format 2 on: the table as set
	// up, the Start.
	TypeStart = "start"
	// TypeAction is an accepted action and the events it caused.
	TypeAction = "action"
	// TypeRefused is an action the rules refused in a way that changed
	// the state: a wrong claim or draw, which locked its seat out.
	TypeRefused = "refused"
	// TypeResult closes a record: the End.
	TypeResult = "result"
)

// Header is the first line of a record: everything that, with the actions,
// determines the game. Its JSON is the game line's, less its "type"
// (MarshalJSON), in the current Format.
type Header struct {
	// Format is the record format: Begin sets it to Format, and Next
	// keeps the format of the record it reads (its Config in this
	// package's terms whatever the format).
	Format int
	// Game is the game's canonical name.
	Game string
	// Config is the game's configuration; its seed is the game's seed.
	// Its Lockout keeps the Go convention of rules.Config (0 for the
	// default, rules.NoLockout for none); the line writes it in the
	// protocol's (absent for the default, 0 for none).
	Config rules.Config
	// Deck describes the cards.
	Deck Deck
	// Seats, if given, says who played each seat, e.g. "bot:hard"; it is
	// for people and plays no part in a replay.
	Seats []string
}

// gameLine is a record's first line as written and read.
type gameLine struct {
	Type   string     `json:"type,omitempty"`
	Format int        `json:"format"`
	Game   string     `json:"game"`
	Config lineConfig `json:"config"`
	Deck   Deck       `json:"deck"`
	Seats  []string   `json:"seats,omitempty"`
}

// lineConfig is a rules.Config as a game line holds it: every field as
// rules.Config encodes it but the lock-out, which this Lockout shadows.
type lineConfig struct {
	rules.Config
	// Lockout is the lock-out in the line's format: in format 2, nil for
	// the default and 0 for none; in format 1, nil or 0 for the default
	// and −1 for none.
	Lockout *int64 `json:"lockout,omitempty"`
}

// line returns h as its game line, of type typ (empty for none).
func (h *Header) line(typ string) gameLine {
	c := lineConfig{Config: h.Config}
	switch lo := h.Config.Lockout; {
	case lo == rules.NoLockout:
		c.Lockout = new(int64)
	case lo != 0:
		c.Lockout = &lo
	}
	return gameLine{Type: typ, Format: Format, Game: h.Game, Config: c, Deck: h.Deck, Seats: h.Seats}
}

// header returns the Header g holds, its configuration in the Go
// convention, or an error saying what of g this version cannot read.
func (g *gameLine) header() (Header, error) {
	if g.Format < MinFormat || g.Format > Format {
		return Header{}, fmt.Errorf("record format %d; this version reads formats %d to %d", g.Format, MinFormat, Format)
	}
	cfg := g.Config.Config
	cfg.Lockout = 0
	if lo := g.Config.Lockout; lo != nil {
		switch {
		case g.Format == 1 && *lo == -1, g.Format >= 2 && *lo == 0:
			cfg.Lockout = rules.NoLockout
		case *lo > 0:
			cfg.Lockout = *lo
		case g.Format >= 2 || *lo != 0:
			return Header{}, fmt.Errorf("config.lockout %d: use 0 (no lock-out) or a positive number of milliseconds, or leave it out for the default (%d)",
				*lo, rules.DefaultLockout)
		}
	}
	if g.Format < 3 {
		cfg.Options = optionsBefore(g.Game, cfg.Options)
	}
	return Header{Format: g.Format, Game: g.Game, Config: cfg, Deck: g.Deck, Seats: g.Seats}, nil
}

// optionsBefore returns the options of a record of game written before
// format 3: opts with every option added since (rules.Option.Before) that
// opts does not set set to the value that played as the game did then.
func optionsBefore(game string, opts map[string]string) map[string]string {
	g, err := rules.Lookup(game)
	if err != nil {
		return opts // the replay says the game is unknown
	}
	for _, o := range g.Info().Options {
		if _, set := opts[o.Name]; o.Before != "" && !set {
			opts = maps.Clone(opts)
			if opts == nil {
				opts = map[string]string{}
			}
			opts[o.Name] = o.Before
		}
	}
	return opts
}

// MarshalJSON encodes h as its game line without the "type", in the
// current Format.
func (h Header) MarshalJSON() ([]byte, error) { return json.Marshal(h.line("")) }

// UnmarshalJSON decodes a game line, of any format Next reads, into h.
func (h *Header) UnmarshalJSON(b []byte) error {
	var g gameLine
	if err := json.Unmarshal(b, &g); err != nil {
		return err
	}
	v, err := g.header()
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// Zone is one zone of the table as a record states it: what it is, whose
// it is, who sees which of its cards, and its cards, bottom first.
type Zone struct {
	// Kind says what the zone is ("centre", "pile", "stock"…).
	Kind rules.ZoneKind `json:"kind"`
	// Seat is the seat the zone belongs to, or -1.
	Seat int `json:"seat"`
	// Show says who sees which of its cards ("hidden", "top", "all",
	// "ownerTop").
	Show rules.Show `json:"show"`
	// Cards are the zone's cards, bottom first; face-down cards too.
	Cards []int `json:"cards"`
}

// Start is the table as set up, before the first action: every zone with
// its cards, the round and whose turn it is. It is the referee's account,
// face-down cards included, so that a record can be checked from its own
// lines alone.
type Start struct {
	// Round is the round the game starts in: 1 in games played in
	// rounds, 0 in the others.
	Round int `json:"round"`
	// Turn is the seat whose turn it is in a game with turns, or -1.
	Turn int `json:"turn"`
	// Zones are the zones, in zone order.
	Zones []Zone `json:"zones"`
}

// StartOf returns the table of s as a record's start line states it.
func StartOf(s *rules.State) *Start {
	st := &Start{Round: s.Round(), Turn: s.Turn(), Zones: make([]Zone, s.Zones())}
	for i := range st.Zones {
		z := s.Zone(i)
		st.Zones[i] = Zone{Kind: z.Kind, Seat: z.Seat, Show: z.Show, Cards: z.AppendCards(make([]int, 0, z.Len()))}
	}
	return st
}

// Entry is one action of a record: accepted, with the events it caused,
// or refused, with the refusal.
type Entry struct {
	// Action is the action as it arrived.
	Action rules.Action `json:"action"`
	// Events are the events an accepted action caused; nil for a refused
	// one.
	Events []rules.Event `json:"events,omitempty"`
	// Shuffled holds, for each "shuffle" event of Events in order, the
	// shuffled zone's cards, bottom first, as the shuffle left them
	// (format 2). It is the referee's alone: no player is ever sent it.
	Shuffled [][]int `json:"shuffled,omitempty"`
	// Opened lists the zones the action added to the table, in order,
	// numbered on from the zones before it, each empty when added
	// (format 2): the place an Anarchy Pancakes draw opens, the slot
	// Triplets opens for an extra card.
	Opened []Zone `json:"opened,omitempty"`
	// Refusal is why the action was refused, or nil if it was accepted.
	Refusal *rules.Refusal `json:"refusal,omitempty"`
	// Timing is how a server that compares claims by reaction (a room
	// with a fair cap) timed a person's action, or nil. It plays no part
	// in a replay: the action's At already is the time it was ranked at.
	Timing *Timing `json:"timing,omitempty"`

	line int // line number in the input, for messages
}

// Timing is how a server timed a person's action to rank it by reaction
// rather than by arrival (docs/PROTOCOL.md, "A fair race"): every field is
// in milliseconds since the game began, or in milliseconds.
type Timing struct {
	// Arrival is when the action reached the server.
	Arrival int64 `json:"arrival"`
	// Shown is when the server sent the seat the view the action answers
	// (the last change of the table it was sent).
	Shown int64 `json:"shown"`
	// RTT is the seat's round trip as estimated when that view was sent.
	RTT int64 `json:"rtt"`
	// Credit is the part of the round trip the action was credited with:
	// the round trip, at most the server's cap and what the seat's quota
	// held, and none for a reaction under the human floor.
	Credit int64 `json:"credit"`
	// Reaction is the estimated reaction, Arrival − Shown − Credit; the
	// action was ranked at Shown + Reaction (its At).
	Reaction int64 `json:"reaction"`
}

// End is the last line of a record: how the game stood when it was
// written.
type End struct {
	// Over is true when the game had ended.
	Over bool `json:"over"`
	// Version is the final state version.
	Version uint64 `json:"version"`
	// Actions is the number of accepted actions.
	Actions int `json:"actions"`
	// Refused is the number of refused actions recorded.
	Refused int `json:"refused"`
	// Result is the outcome, or the standing of an unfinished game.
	Result *rules.Result `json:"result"`

	line int
}

// Record is one game read back: its header, the table as set up, its
// actions in arrival order and its end (nil when the record stops before
// its result line).
type Record struct {
	// Header is the record's first line.
	Header Header
	// Start is the table as set up, the start line; nil in a format 1
	// record.
	Start *Start
	// Entries are the recorded actions, in arrival order.
	Entries []Entry
	// End is the result line, or nil.
	End *End
	// Session is the session line after the result line of a table
	// played in a session, or nil.
	Session *Session

	startLine int // the start line's number in the input, for messages
}

// lines returns the number of lines before the record's first entry: the
// game line, and the start line from format 2 on.
func (rec *Record) lines() int {
	if rec.Header.Format >= 2 || rec.Start != nil {
		return 2
	}
	return 1
}

// entryLine returns the input line of entry i, or, for a Record built in
// memory, its position counting the game line as 1.
func (rec *Record) entryLine(i int) int {
	if l := rec.Entries[i].line; l != 0 {
		return l
	}
	return rec.lines() + i + 1
}

// endLine returns the input line of the result line, or its position.
func (rec *Record) endLine() int {
	if rec.End.line != 0 {
		return rec.End.line
	}
	return rec.lines() + len(rec.Entries) + 1
}

// The other lines as written: a type, then the fields.
type (
	startLine struct {
		Type string `json:"type"`
		Start
	}
	entryLine struct {
		Type string `json:"type"`
		Entry
	}
	endLine struct {
		Type string `json:"type"`
		End
	}
)

// Writer writes game records as JSON lines. Begin opens a record, Accepted
// and Refused add its actions, End closes it; a Writer may hold several
// records one after the other. The first write error stops the Writer and
// is returned by every later call.
type Writer struct {
	w       io.Writer
	line    bytes.Buffer  // the line being written
	enc     *json.Encoder // encodes into line
	err     error
	open    bool
	actions int
	refused int
	st      *rules.State // the game being recorded
	zones   int          // the zones of st already stated
	timing  *Timing      // the timing of the next action recorded (Time)
}

// NewWriter returns a Writer writing to w. It writes each line with one
// Write call and does not buffer; wrap w in a bufio.Writer for speed.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// write encodes v as one line.
func (w *Writer) write(v any) error {
	if w.err != nil {
		return w.err
	}
	// An Encoder writes what json.Marshal returns, and a newline, into
	// the line the Writer keeps from one to the next.
	if w.enc == nil {
		w.enc = json.NewEncoder(&w.line)
	}
	w.line.Reset()
	if err := w.enc.Encode(v); err != nil {
		w.err = fmt.Errorf("record: %w", err)
		return w.err
	}
	if _, err := w.w.Write(w.line.Bytes()); err != nil {
		w.err = fmt.Errorf("record: %w", err)
	}
	return w.err
}

// Begin starts the record of game s, just set up (at version 0), with
// header h, whose Format it sets: it writes the game line and the start
// line, s's table as set up. It turns on s.KeepShuffles, so that Accepted
// can state the outcome of every shuffle; the actions recorded next must
// be those applied to s, each recorded as soon as it was applied. The
// previous record, if any, must have been closed with End.
func (w *Writer) Begin(h Header, s *rules.State) error {
	if w.open && w.err == nil {
		w.err = errors.New("record: Begin before the previous record's End")
		return w.err
	}
	if lo := h.Config.Lockout; lo < 0 && lo != rules.NoLockout && w.err == nil {
		w.err = fmt.Errorf("record: lock-out %d ms; use a positive number of milliseconds, 0 for the default or rules.NoLockout for none", lo)
	}
	if s == nil {
		if w.err == nil {
			w.err = errors.New("record: Begin needs the game's state, to state its table as set up")
		}
		return w.err
	}
	h.Format = Format
	w.open, w.actions, w.refused = true, 0, 0
	w.st, w.zones = s, s.Zones()
	s.KeepShuffles(true)
	if err := w.write(h.line(TypeGame)); err != nil {
		return err
	}
	return w.write(startLine{TypeStart, *StartOf(s)})
}

// Accepted records accepted action a and the events it caused, with the
// outcome of its shuffles and the zones it opened, read from the state
// given to Begin.
func (w *Writer) Accepted(a rules.Action, events []rules.Event) error {
	if err := w.mustBeOpen(); err != nil {
		return err
	}
	if len(events) > 0 && events[0].Version != w.st.Version() {
		w.err = fmt.Errorf("record: the action's events are of version %d and the game is at version %d: record each action as soon as it is applied",
			events[0].Version, w.st.Version())
		return w.err
	}
	w.actions++
	e := Entry{Action: a, Events: events, Shuffled: w.st.Shuffled(), Timing: w.take()}
	for ; w.zones < w.st.Zones(); w.zones++ {
		z := w.st.Zone(w.zones)
		e.Opened = append(e.Opened, Zone{Kind: z.Kind, Seat: z.Seat, Show: z.Show, Cards: []int{}})
	}
	return w.write(entryLine{TypeAction, e})
}

// Refused records action a, refused with r. Only refusals that change the
// state need recording: those that lock their seat out (r.LocksOut()), a
// wrong claim or draw while lock-outs are on. A replay refuses the action
// again the same way; a writer may also keep refusals that changed nothing
// (a simulation keeps every false alarm of its bots), which replay to the
// same refusal.
func (w *Writer) Refused(a rules.Action, r *rules.Refusal) error {
	if err := w.mustBeOpen(); err != nil {
		return err
	}
	w.refused++
	return w.write(entryLine{TypeRefused, Entry{Action: a, Refusal: r, Timing: w.take()}})
}

// Time gives the next action recorded, accepted or refused, timing t; nil
// takes back a timing no action took.
func (w *Writer) Time(t *Timing) { w.timing = t }

// Timed reports whether a timing given to Time waits for its action.
func (w *Writer) Timed() bool { return w.timing != nil }

// take returns the timing of the action being recorded, and forgets it.
func (w *Writer) take() *Timing {
	t := w.timing
	w.timing = nil
	return t
}

// End closes the record with s's standing: over or not, version, counts
// and result.
func (w *Writer) End(s *rules.State) error {
	if err := w.mustBeOpen(); err != nil {
		return err
	}
	w.open = false
	return w.write(endLine{TypeResult, End{Over: s.Over(), Version: s.Version(), Actions: w.actions, Refused: w.refused, Result: s.Result()}})
}

// mustBeOpen returns the Writer's error, or a new one when no record is
// open.
func (w *Writer) mustBeOpen() error {
	if !w.open && w.err == nil {
		w.err = errors.New("record: no record begun")
	}
	return w.err
}

// Reader reads the records of a JSON-lines stream, one game at a time.
type Reader struct {
	r    *bufio.Reader
	line int
	peek []byte // a game line read ahead, which starts the next record
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReader(r)} }

// SyntaxError is a line that is not part of a well-formed record.
type SyntaxError struct {
	// Line is the line number, from 1.
	Line int
	// Reason says what is wrong with it.
	Reason string
}

// Error returns "record: line N: REASON".
func (e *SyntaxError) Error() string { return fmt.Sprintf("record: line %d: %s", e.Line, e.Reason) }

// next returns the next non-blank line, or io.EOF.
func (r *Reader) next() ([]byte, error) {
	if r.peek != nil {
		b := r.peek
		r.peek = nil
		r.line++
		return b, nil
	}
	for {
		b, err := r.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return nil, err
		}
		r.line++
		if b = bytes.TrimSpace(b); len(b) > 0 {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// lineType returns the "type" of a line.
func (r *Reader) lineType(b []byte) (string, error) {
	var t struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return "", &SyntaxError{r.line, "not a JSON object: " + err.Error()}
	}
	return t.Type, nil
}

// decode decodes line b into v. Fields it does not know are ignored, such
// as a refusal's "reason".
func (r *Reader) decode(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return &SyntaxError{r.line, err.Error()}
	}
	return nil
}

// Next reads the next record: a game line, the action and refused lines
// after it, and its result line if there is one before the next game line
// or the end of the input. At the end of the input it returns io.EOF.
func (r *Reader) Next() (*Record, error) {
	b, err := r.next()
	if err != nil {
		return nil, err
	}
	typ, err := r.lineType(b)
	if err != nil {
		return nil, err
	}
	if typ != TypeGame {
		return nil, &SyntaxError{r.line, fmt.Sprintf("a record starts with a %q line, not %q", TypeGame, typ)}
	}
	var g gameLine
	if err := r.decode(b, &g); err != nil {
		return nil, err
	}
	h, err := g.header()
	if err != nil {
		return nil, &SyntaxError{r.line, err.Error()}
	}
	rec := &Record{Header: h}
	if g.Format >= 2 {
		// The start line; a record cut short right after its game line
		// has none, and nothing else.
		b, err := r.next()
		if errors.Is(err, io.EOF) {
			return rec, nil
		}
		if err != nil {
			return nil, err
		}
		typ, err := r.lineType(b)
		switch {
		case err != nil:
			return nil, err
		case typ == TypeGame:
			r.peek = b
			r.line--
			return rec, nil
		case typ != TypeStart:
			return nil, &SyntaxError{r.line, fmt.Sprintf("a format %d record's second line is a %q line, not %q", g.Format, TypeStart, typ)}
		}
		var st startLine
		if err := r.decode(b, &st); err != nil {
			return nil, err
		}
		rec.Start = &st.Start
		rec.startLine = r.line
	}
	for {
		b, err := r.next()
		if errors.Is(err, io.EOF) {
			return rec, nil
		}
		if err != nil {
			return nil, err
		}
		typ, err := r.lineType(b)
		if err != nil {
			return nil, err
		}
		switch typ {
		case TypeGame:
			r.peek = b
			r.line--
			return rec, nil
		case TypeAction, TypeRefused:
			var e entryLine
			if err := r.decode(b, &e); err != nil {
				return nil, err
			}
			if (typ == TypeRefused) != (e.Refusal != nil) || (typ == TypeRefused && (e.Events != nil || e.Shuffled != nil || e.Opened != nil)) {
				return nil, &SyntaxError{r.line, fmt.Sprintf("an %q line has events and no refusal, a %q line a refusal and no events", TypeAction, TypeRefused)}
			}
			e.line = r.line
			rec.Entries = append(rec.Entries, e.Entry)
		case TypeResult:
			var e endLine
			if err := r.decode(b, &e); err != nil {
				return nil, err
			}
			e.line = r.line
			rec.End = &e.End
			return rec, r.session(rec)
		case TypeStart:
			return nil, &SyntaxError{r.line, fmt.Sprintf("a %q line follows the game line of a record of format 2 or later, and only it", TypeStart)}
		case TypeSession:
			return nil, &SyntaxError{r.line, fmt.Sprintf("a %q line follows a record's %q line, and only it", TypeSession, TypeResult)}
		default:
			return nil, &SyntaxError{r.line, fmt.Sprintf("unknown line type %q; types: game, start, action, refused, result, session", typ)}
		}
	}
}

// session reads the session line after rec's result line, if the next
// line is one; another line is left for the next record.
func (r *Reader) session(rec *Record) error {
	b, err := r.next()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return err
	}
	typ, err := r.lineType(b)
	if err != nil {
		return err
	}
	if typ != TypeSession {
		r.peek = b
		r.line--
		return nil
	}
	var l sessionLine
	if err := r.decode(b, &l); err != nil {
		return err
	}
	l.line = r.line
	rec.Session = &l.Session
	return nil
}

// ReadAll reads every record of r.
func ReadAll(r io.Reader) ([]*Record, error) {
	rd := NewReader(r)
	var out []*Record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

// ReplayError says where a replay departed from its record.
type ReplayError struct {
	// Line is the input line the departing entry was read from; for a
	// Record built in memory, its position counting the game line as 1.
	Line int
	// Reason says what differed.
	Reason string
}

// Error returns "record: replay: line N: REASON".
func (e *ReplayError) Error() string {
	return fmt.Sprintf("record: replay: line %d: %s", e.Line, e.Reason)
}

// Replay plays the record again and checks it: the table as set up is the
// start line's (format 2), every action recorded as accepted is accepted
// with the same events, the same shuffle outcomes and the same zones
// opened, every refused one refused with the same code and lock-out, and
// the end line matches the final state. It plays on cards, which must have
// the record's fingerprint; nil builds them from the header's Deck. (Pass
// the *rules.Index the game was played with to compare the final state
// with State.Equal.) It returns the final state and every event, in order.
// Replay plays with this engine's rules and random source; Check checks a
// record without them.
func (rec *Record) Replay(cards rules.Cards) (*rules.State, []rules.Event, error) {
	h := &rec.Header
	g, err := rules.Lookup(h.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("record: %w", err)
	}
	if cards == nil {
		_, x, err := h.Deck.Build()
		if err != nil {
			return nil, nil, err
		}
		cards = x
	} else if fp := Fingerprint(cards); fp != h.Deck.Fingerprint {
		return nil, nil, fmt.Errorf("record: the cards given have fingerprint %s, the record's deck %s", fp, h.Deck.Fingerprint)
	}
	s, err := rules.New(g, cards, h.Config)
	if err != nil {
		return nil, nil, fmt.Errorf("record: %w", err)
	}
	if rec.Start != nil {
		if got := StartOf(s); !sameJSON(got, rec.Start) {
			line := rec.startLine
			if line == 0 {
				line = 2
			}
			return nil, nil, &ReplayError{line, fmt.Sprintf("the record starts with %s, the replay with %s", mustJSON(rec.Start), mustJSON(got))}
		}
		s.KeepShuffles(true)
	}
	var events []rules.Event
	accepted, refused, zones := 0, 0, s.Zones()
	for i := range rec.Entries {
		e := &rec.Entries[i]
		n := len(events)
		events, err = s.Apply(e.Action, events)
		switch {
		case e.Refusal == nil && err != nil:
			return nil, nil, &ReplayError{rec.entryLine(i), "the record accepted the action, the replay refused it: " + err.Error()}
		case e.Refusal == nil:
			if !sameJSON(events[n:], e.Events) {
				return nil, nil, &ReplayError{rec.entryLine(i), fmt.Sprintf("the replay's events differ from the record's: %s", mustJSON(events[n:]))}
			}
			if rec.Start != nil {
				if got := s.Shuffled(); !sameJSON(got, e.Shuffled) {
					return nil, nil, &ReplayError{rec.entryLine(i), fmt.Sprintf("the replay's shuffles differ from the record's: %s", mustJSON(got))}
				}
				var opened []Zone
				for ; zones < s.Zones(); zones++ {
					z := s.Zone(zones)
					opened = append(opened, Zone{Kind: z.Kind, Seat: z.Seat, Show: z.Show, Cards: []int{}})
				}
				if !sameJSON(opened, e.Opened) {
					return nil, nil, &ReplayError{rec.entryLine(i), fmt.Sprintf("the replay opens zones %s, the record %s", mustJSON(opened), mustJSON(e.Opened))}
				}
			}
			accepted++
		case err == nil:
			return nil, nil, &ReplayError{rec.entryLine(i), "the record refused the action, the replay accepted it"}
		default:
			var r *rules.Refusal
			if !errors.As(err, &r) || r.Code != e.Refusal.Code || r.LockedUntil != e.Refusal.LockedUntil {
				return nil, nil, &ReplayError{rec.entryLine(i), fmt.Sprintf("the record refused the action as %v (locked until %d), the replay: %v",
					e.Refusal.Code, e.Refusal.LockedUntil, err)}
			}
			refused++
		}
	}
	if end := rec.End; end != nil {
		got := End{Over: s.Over(), Version: s.Version(), Actions: accepted, Refused: refused, Result: s.Result()}
		if !sameJSON(got, *end) {
			return nil, nil, &ReplayError{rec.endLine(), fmt.Sprintf("the record ends with %s, the replay with %s", mustJSON(*end), mustJSON(got))}
		}
	}
	return s, events, nil
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// mustJSON returns v's JSON for a message.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
