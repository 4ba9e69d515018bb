package protocol

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dobble-dev/dobble/record"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// The tests of this file keep docs/PROTOCOL.md, the description a client
// is written from, true to the code: every message and its fields, every
// name a field takes, every game's zones and extra, and every example,
// which must be what the server sends (or accepts) byte for byte.

// readDoc returns a document of docs/.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docSection returns the part of doc under the heading that is exactly
// heading (with its #s), up to the next heading of the same or a higher
// level; it fails the test when there is no such heading.
func docSection(t *testing.T, doc, heading string) string {
	t.Helper()
	level := strings.IndexByte(heading, ' ')
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		if l != heading {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if n := headingLevel(lines[j]); n > 0 && n <= level {
				end = j
				break
			}
		}
		return strings.Join(lines[i:end], "\n")
	}
	t.Fatalf("docs/PROTOCOL.md has no heading %q", heading)
	return ""
}

// headingLevel returns the level of a Markdown heading line, or 0.
func headingLevel(l string) int {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n >= len(l) || l[n] != ' ' {
		return 0
	}
	return n
}

// tableRow returns the line of a Markdown table in text whose first cell
// is `name`, or "".
func tableRow(text, name string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "| `"+name+"` |") {
			return l
		}
	}
	return ""
}

// mentions reports whether text names name in backquotes, alone (`name`)
// or as the first word of a code span (`name = value`).
func mentions(text, name string) bool {
	return strings.Contains(text, "`"+name+"`") || strings.Contains(text, "`"+name+" ")
}

// jsonFields returns the JSON member names of struct type t, in order.
func jsonFields(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" {
			names = append(names, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// structsOf calls f for t and every struct type reachable from its
// fields, through pointers, slices and maps, once each; types that encode
// themselves (enums, raw JSON, target lists) are leaves.
func structsOf(t reflect.Type, seen map[reflect.Type]bool, f func(reflect.Type)) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] ||
		t.Implements(reflect.TypeFor[encoding.TextMarshaler]()) || t.Implements(reflect.TypeFor[json.Marshaler]()) {
		return
	}
	seen[t] = true
	f(t)
	for field := range t.Fields() {
		if field.IsExported() && field.Tag.Get("json") != "-" {
			structsOf(field.Type, seen, f)
		}
	}
}

// serverMessages are the messages the server sends, by type.
func serverMessages() map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for _, m := range []Message{Welcome{}, Joined{}, Lobby{}, Countdown{}, State{}, Update{}, Refused{}, Over{},
		PickMessage{}, Presence{}, Closed{}, Saved{}, ErrorMessage{}, Pong{}} {
		out[m.Type()] = reflect.TypeOf(m)
	}
	return out
}

// enumNames lists the names of an enum's values from first on, as String
// gives them, until the first value without a name.
func enumNames(first int, name func(int) string) []string {
	var out []string
	for i := first; ; i++ {
		n := name(i)
		if strings.Contains(n, "(") {
			return out
		}
		out = append(out, n)
	}
}

// TestDocMessages checks that docs/PROTOCOL.md describes every message,
// both ways, with every field, and every name an enumerated field takes.
func TestDocMessages(t *testing.T) {
	doc := readDoc(t, "PROTOCOL.md")
	client := docSection(t, doc, "## Client → server")
	server := docSection(t, doc, "## Server → client")

	// Every request type and action a client may send, a row each, and
	// every member a request may carry.
	var types []string
	for typ := TypeHello; typ <= TypePing; typ++ {
		if typ == TypeAction {
			for _, a := range actions {
				types = append(types, a.kind.String())
			}
			continue
		}
		types = append(types, typeNames[typ])
	}
	for _, typ := range types {
		if tableRow(client, typ) == "" {
			t.Errorf("Client → server has no row for %q", typ)
		}
	}
	for _, f := range append(jsonFields(reflect.TypeFor[wire]()), jsonFields(reflect.TypeFor[RoomSpec]())...) {
		if f != "type" && !mentions(client, f) {
			t.Errorf("Client → server does not describe the member %q", f)
		}
	}

	// Every server message: a row naming its fields; every field of what
	// they hold (views, events, results, the session) somewhere.
	msgs := serverMessages()
	src, err := os.ReadFile("messages.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`(?m)^func \(\w+\) Type\(\) string`).FindAll(src, -1)); n != len(msgs) {
		t.Fatalf("messages.go has %d message types; this test knows %d: add the new one to serverMessages", n, len(msgs))
	}
	seen := map[reflect.Type]bool{}
	for typ, mt := range msgs {
		row := tableRow(server, typ)
		if row == "" {
			t.Errorf("Server → client has no row for %q", typ)
			continue
		}
		for _, f := range jsonFields(mt) {
			if !mentions(row, f) {
				t.Errorf("the row of %q does not name its field %q", typ, f)
			}
		}
		structsOf(mt, seen, func(st reflect.Type) {
			for _, f := range jsonFields(st) {
				if !mentions(doc, f) {
					t.Errorf("docs/PROTOCOL.md does not describe %s's field %q", st, f)
				}
			}
		})
	}
	for _, want := range []reflect.Type{reflect.TypeFor[rules.View](), reflect.TypeFor[rules.ZoneView](), reflect.TypeFor[rules.Event](),
		reflect.TypeFor[rules.Result](), reflect.TypeFor[session.Played](), reflect.TypeFor[session.TieBreak]()} {
		if !seen[want] {
			t.Errorf("%s is not reachable from the messages; is serverMessages out of date?", want)
		}
	}

	// The names enumerated fields take.
	view := docSection(t, doc, "## The view")
	names := []struct {
		what  string
		in    string
		names []string
	}{
		{"event kind", docSection(t, view, "### Events"), enumNames(1, func(i int) string { return rules.EventKind(i).String() })},
		{"visibility", docSection(t, view, "### Zones"), enumNames(0, func(i int) string { return rules.Show(i).String() })},
		{"refusal code", docSection(t, server, "### Refusals"), enumNames(1, func(i int) string { return rules.Code(i).String() })},
		{"session phase", docSection(t, server, "### `session`"), enumNames(0, func(i int) string { return session.Phase(i).String() })},
		{"error code", docSection(t, server, "### Error codes"), []string{CodeBadMessage, CodeBadRequest, CodeNoRoom, CodeRoomFull,
			CodeNotAllowed, CodeBadToken, CodeRateLimited, CodeBusy, CodeFull}},
		{"seat kind", server, []string{KindHuman, KindBot, KindFree}},
		{"language", client, Languages},
	}
	for _, n := range names {
		if len(n.names) < 2 {
			t.Fatalf("%d %s names: the enum reads differently now", len(n.names), n.what)
		}
		for _, name := range n.names {
			if !strings.Contains(n.in, "`"+name+"`") && !strings.Contains(n.in, " "+name+" ") && !strings.Contains(n.in, "`"+name+" ") {
				t.Errorf("docs/PROTOCOL.md does not describe the %s %q where it describes them", n.what, name)
			}
		}
	}
}

// gameSection returns the section of docs/PROTOCOL.md on game name's
// view: the heading under "The games' views" that ends in (`name`).
func gameSection(t *testing.T, doc, name string) string {
	t.Helper()
	views := docSection(t, doc, "## The games' views")
	for _, l := range strings.Split(views, "\n") {
		if strings.HasPrefix(l, "### ") && strings.HasSuffix(l, "(`"+name+"`)") {
			return docSection(t, views, l)
		}
	}
	t.Errorf("docs/PROTOCOL.md has no section on the view of %s under The games' views", name)
	return ""
}

// gameStates deals game g, on the deck a room deals it, with every
// choice of each of its options in turn, for as many players as it
// takes at least.
func gameStates(t *testing.T, g rules.Game) []*rules.State {
	t.Helper()
	info := g.Info()
	d := record.Deck{Edition: "classic"}
	if own := info.Deck; own != nil {
		d = record.Deck{Edition: own.Edition, Singles: own.Singles}
	}
	_, cards, err := d.Build()
	if err != nil {
		t.Fatal(err)
	}
	configs := []map[string]string{nil}
	for _, o := range info.Options {
		for _, c := range o.Choices {
			configs = append(configs, map[string]string{o.Name: c})
		}
	}
	var out []*rules.State
	for _, opts := range configs {
		st, err := rules.New(g, cards, rules.Config{Players: max(info.MinPlayers, 2), Seed: 1, Options: opts})
		if err != nil {
			t.Fatalf("%s with %v: %v", info.Name, opts, err)
		}
		out = append(out, st)
	}
	return out
}

// TestDocGames checks that docs/PROTOCOL.md describes every game's view:
// a section of its own naming every kind of zone the game lays out, and
// every field of its extra, or saying it has none; and that the table of
// zone kinds lists them all.
func TestDocGames(t *testing.T) {
	doc := readDoc(t, "PROTOCOL.md")
	zones := docSection(t, docSection(t, doc, "## The view"), "### Zones")
	for _, g := range rules.Games() {
		info := g.Info()
		sec := strings.Join(strings.Fields(gameSection(t, doc, info.Name)), " ")
		if sec == "" {
			continue
		}
		kinds := map[rules.ZoneKind]bool{}
		for _, st := range gameStates(t, g) {
			for _, z := range st.View(rules.Spectator).Zones {
				kinds[z.Kind] = true
			}
		}
		for kind := range kinds {
			if !mentions(sec, string(kind)) {
				t.Errorf("the section on %s does not name its zones of kind %q", info.Name, kind)
			}
			if tableRow(zones, string(kind)) == "" {
				t.Errorf("the zone kinds of The view have no row for %q (%s)", kind, info.Name)
			}
		}
		_, viewer := g.(rules.Viewer)
		dec, decodes := g.(rules.ExtraDecoder)
		switch {
		case viewer && !decodes:
			t.Errorf("%s has an extra of no known type (rules.ExtraDecoder)", info.Name)
		case viewer:
			structsOf(reflect.TypeOf(dec.NewViewExtra()), map[reflect.Type]bool{}, func(st reflect.Type) {
				for _, f := range jsonFields(st) {
					if !mentions(sec, f) {
						t.Errorf("the section on %s does not describe the field %q of its extra (%s)", info.Name, f, st)
					}
				}
			})
		case !strings.Contains(sec, "No `extra`."):
			t.Errorf("the section on %s does not say that its view has no extra (\"No `extra`.\")", info.Name)
		}
	}
}

// TestDocsCoverGames checks that both documents give every game its
// place: docs/RULES.md a numbered section headed with the game's name in
// backquotes, which its Info.Section cites; docs/PROTOCOL.md a section on
// its view that links to that section.
func TestDocsCoverGames(t *testing.T) {
	rulesDoc, doc := readDoc(t, "RULES.md"), readDoc(t, "PROTOCOL.md")
	heading := regexp.MustCompile("(?m)^#{2,4} (\\d+(?:\\.\\d+)*) .*\\(`([a-z0-9-]+)`\\)$")
	sectionOf := map[string]string{}
	for _, m := range heading.FindAllStringSubmatch(rulesDoc, -1) {
		sectionOf[m[2]] = m[1]
	}
	var names []string
	for _, g := range rules.Games() {
		info := g.Info()
		names = append(names, info.Name)
		n, ok := sectionOf[info.Name]
		if !ok {
			t.Errorf("docs/RULES.md has no section headed with (`%s`)", info.Name)
			continue
		}
		if want := "docs/RULES.md §" + n; info.Section != want {
			t.Errorf("%s: Section %q; docs/RULES.md describes it in §%s", info.Name, info.Section, n)
		}
		if sec := gameSection(t, doc, info.Name); sec != "" && !strings.Contains(sec, "[RULES.md §"+n+"](RULES.md#") {
			t.Errorf("the section on %s's view does not link to RULES.md §%s", info.Name, n)
		}
	}
	for name := range sectionOf {
		if !slices.Contains(names, name) {
			t.Errorf("docs/RULES.md has a section for (`%s`), which is no game", name)
		}
	}
}

// docFrame is one example of docs/PROTOCOL.md: a frame a client sends
// (">>") or receives ("<<"), or a game's extra.
type docFrame struct {
	dir  string // ">>", "<<", or "" for an extra
	text string // the JSON as written
	game string // for an extra: the game whose section holds it
}

// docFrames reads the examples of docs/PROTOCOL.md: the frames of its
// text blocks, each line starting with ">> " or "<< " opening one (which
// may go on over the lines after it), and its JSON blocks, each one
// value: a frame, or in a game's section its extra.
func docFrames(t *testing.T, doc string) []docFrame {
	t.Helper()
	var out []docFrame
	game := ""
	gameHeading := regexp.MustCompile("^### .*\\(`([a-z0-9-]+)`\\)$")
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if n := headingLevel(l); n > 0 {
			game = ""
			if m := gameHeading.FindStringSubmatch(l); m != nil {
				game = m[1]
			}
		}
		if l != "```text" && l != "```json" {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		body := lines[i+1 : j]
		if l == "```json" {
			out = append(out, docFrame{text: strings.Join(body, "\n"), game: game})
		} else {
			for _, b := range body {
				switch {
				case strings.HasPrefix(b, ">> ") || strings.HasPrefix(b, "<< "):
					out = append(out, docFrame{dir: b[:2], text: b[3:]})
				case len(out) > 0 && out[len(out)-1].dir != "":
					out[len(out)-1].text += "\n" + b
				default:
					t.Errorf("docs/PROTOCOL.md: a text block line %q is no frame", b)
				}
			}
		}
		i = j
	}
	return out
}

// TestDocExamples checks every example of docs/PROTOCOL.md: a frame sent
// to the server is one it accepts (Decode), a frame received is exactly
// what the server's encoder writes for what it says, and a game's extra is
// exactly what the game's view extra encodes to. So a field renamed,
// added or dropped shows here.
func TestDocExamples(t *testing.T) {
	doc := readDoc(t, "PROTOCOL.md")
	frames := docFrames(t, doc)
	msgs := serverMessages()
	counts := map[string]int{}
	for i, f := range frames {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(f.text)); err != nil {
			t.Errorf("example %.80s: not JSON: %v", f.text, err)
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		json.Unmarshal(compact.Bytes(), &head)
		dir := f.dir
		if dir == "" && f.game == "" {
			// A JSON block outside a game's section is a frame: a server
			// message when its type is one, else a request.
			dir = ">>"
			if _, ok := msgs[head.Type]; ok {
				dir = "<<"
			}
		}
		switch {
		case dir == ">>":
			counts["sent"]++
			// A frame the example shows refused as it is read is refused
			// so; any other is accepted.
			var answer ErrorMessage
			if i+1 < len(frames) && frames[i+1].dir == "<<" {
				json.Unmarshal([]byte(frames[i+1].text), &answer)
			}
			var r Request
			err := Decode(compact.Bytes(), &r)
			switch {
			case err != nil && (err.Code != answer.Code || err.Message != answer.Message):
				t.Errorf("example %s: the server refuses it: %v", compact.Bytes(), err)
			case err == nil && answer.Code == CodeBadMessage:
				t.Errorf("example %s: shown refused as %s, but the server reads it", compact.Bytes(), answer.Code)
			}
		case dir == "<<":
			counts["received"]++
			mt, ok := msgs[head.Type]
			if !ok {
				t.Errorf("example %.80s: no server message has type %q", compact.Bytes(), head.Type)
				continue
			}
			// The message's own members, without its "type", as the
			// struct holds them.
			var members map[string]json.RawMessage
			json.Unmarshal(compact.Bytes(), &members)
			delete(members, "type")
			body, _ := json.Marshal(members)
			p := reflect.New(mt)
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(p.Interface()); err != nil {
				t.Errorf("example %.80s: %v", compact.Bytes(), err)
				continue
			}
			if got := Encode(p.Elem().Interface().(Message)); !bytes.Equal(got, compact.Bytes()) {
				t.Errorf("example\n%s\nis not what the server writes for it:\n%s", compact.Bytes(), got)
			}
		default:
			counts["extra"]++
			g, err := rules.Lookup(f.game)
			if err != nil {
				t.Errorf("example extra in the section on %q: %v", f.game, err)
				continue
			}
			d, ok := g.(rules.ExtraDecoder)
			if !ok {
				t.Errorf("example extra %s in the section on %s, which has none", compact.Bytes(), f.game)
				continue
			}
			p := d.NewViewExtra()
			dec := json.NewDecoder(bytes.NewReader(compact.Bytes()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(p); err != nil {
				t.Errorf("example extra of %s %s: %v", f.game, compact.Bytes(), err)
				continue
			}
			if got, _ := json.Marshal(p); !bytes.Equal(got, compact.Bytes()) {
				t.Errorf("example extra of %s\n%s\nis not what the game writes for it:\n%s", f.game, compact.Bytes(), got)
			}
		}
	}
	// Every server message and every kind of request has an example.
	seen := map[string]bool{}
	for _, f := range frames {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal([]byte(f.text), &head) == nil && head.Type != "" {
			seen[f.dir+head.Type] = true
		}
	}
	for typ := range msgs {
		if !seen["<<"+typ] {
			t.Errorf("docs/PROTOCOL.md shows no %q frame", typ)
		}
	}
	if counts["sent"] < 20 || counts["received"] < 20 || counts["extra"] < 5 {
		t.Errorf("examples: %v; the document shows more (does docFrames still read it?)", counts)
	}
	t.Log(fmt.Sprint("examples checked: ", counts))
}
