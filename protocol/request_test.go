package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dobble-dev/dobble/rules"
)

// decodeSeeds are frames of every kind readFast reads, and of many it must
// leave to encoding/json.
var decodeSeeds = []string{
	`{"type":"claim","symbol":12,"target":[],"table":0,"version":7,"id":"3"}`,
	`{"type":"claim","symbol":12,"target":[4, 5 ,6],"table":2,"version":17,"id":"c1","seat":1}`,
	`{"type":"claim","symbol":12,"target":[4,5,6,7],"table":2,"version":17}`,
	` { "type" : "draw" , "table" : 1 , "version" : 0, "target": [1,2,3,4,5] } `,
	`{"type":"flip","symbol":3,"table":1,"version":4,"target":[2]}`,
	`{"type":"lay","table":1,"version":4}`,
	`{"type":"take","table":1,"version":4,"target":[9],"symbol":5}`,
	`{"type":"hello","v":1,"name":"Zoë 🙂","lang":"pl"}`,
	`{"type":"join","room":"ABCD2345"}`,
	`{"type":"join","room":17}`,
	`{"type":"resume","room":"ABCD2345","token":"00ff"}`,
	`{"type":"resume","room":"ABCD2345"}`,
	`{"type":"pick","game":"well"}`,
	`{"type":"pick"}`,
	`{"type":"seat","seat":2}`,
	`{"type":"seat","bot":"easy"}`,
	`{"type":"claim","symbol":-3,"table":-0,"version":1}`,
	`{"type":"claim","symbol":1.5,"table":0,"version":1}`,
	`{"type":"claim","symbol":1e3,"table":0,"version":1}`,
	`{"type":"claim","symbol":012,"table":0,"version":1}`,
	`{"type":"claim","symbol":1,"table":0,"version":-1}`,
	`{"type":"claim","symbol":1,"table":0,"version":123456789012345678901}`,
	`{"type":"claim","symbol":null,"table":0,"version":1}`,
	`{"type":"claim","target":null}`,
	`{"type":"claim","target":[1,]}`,
	`{"Type":"claim"}`,
	`{"type":"cl\u0061im"}`,
	`{"type":"claim","type":"draw"}`,
	`{"type":"tick","table":0,"version":0}`,
	`{"type":"seat","seat":2,"bot":"easy"}`,
	`{"type":"seat","seat":2,"bot":null}`,
	`{"type":"seat","seat":2,"bot":3}`,
	`{"type":"ping","nonce":{"a":[1,2]}}`,
	`{"type":"ping"}`,
	`{"type":"create","room":{"game":"tower","seats":2}}`,
	`{"type":"create","room":"tower"}`,
	`{"type":"claim"} x`,
	`{"type":"claim",}`,
	`{"type":"claim"`,
	`{}`,
	`[]`,
	`"claim"`,
	``,
	`{"type":"claim","symbol":1,"table":0,"version":1,"extra":true}`,
	`{"type":"start","id":"` + strings.Repeat("x", 65) + `"}`,
}

// TestFastAgreesWithEncodingJSON checks every frame readFast reads against
// encoding/json: the same request, or the same error.
func TestFastAgreesWithEncodingJSON(t *testing.T) {
	read := 0
	for _, s := range decodeSeeds {
		if checkFast(t, []byte(s)) {
			read++
		}
	}
	if read < 12 {
		t.Fatalf("readFast read %d of the frames, want the 12 plain ones at least", read)
	}
}

// FuzzDecode runs the same check on any frame, and checks that Decode
// never sets a type with an error it should not echo.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if utf8.Valid(b) {
			checkFast(t, b)
		}
		var r Request
		if err := Decode(b, &r); err == nil && r.Type == TypeNone {
			t.Fatalf("%q: no error, and no type", b)
		}
	})
}

// checkFast fails if readFast reads b into something other than what
// encoding/json reads; it reports whether readFast read it.
func checkFast(t *testing.T, b []byte) bool {
	t.Helper()
	fresh := func() (Request, frame) {
		return Request{Seat: rules.NoSeat, Action: rules.Action{Seat: rules.NoSeat}}, frame{targets: -1}
	}
	got, gf := fresh()
	if !readFast(b, &got, &gf) {
		return false
	}
	gotErr := gf.check(&got)
	want, wf := fresh()
	if err := readJSON(b, &want, &wf); err != nil {
		t.Fatalf("%s: readFast read it, encoding/json says %v", b, err)
	}
	wantErr := wf.check(&want)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
		t.Fatalf("%s:\n readFast %+v %v\nencoding/json %+v %v", b, got, gotErr, want, wantErr)
	}
	return true
}

// TestDecodeErrors checks what each malformed frame is answered with, and
// whether the answer can echo the frame's id.
func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		frame, code, message string
		typ                  Type
	}{
		{`{"type": "claim",`, CodeBadMessage, "not JSON", TypeNone},
		{`[1,2,3]`, CodeBadMessage, "JSON object", TypeNone},
		{`"hello"`, CodeBadMessage, "JSON object", TypeNone},
		{"{\"type\":\"hello\",\"name\":\"\xff\"}", CodeBadMessage, "UTF-8", TypeNone},
		{`{"type": "fly"}`, CodeBadMessage, `unknown type "fly"; types: hello, create, join, watch, resume, seat, start, claim, draw, flip, lay, stop, write, guess, discard, take, pick, leave, ping`, TypeNone},
		{`{"type": "tick", "table": 0, "version": 0}`, CodeBadMessage, `unknown type "tick"`, TypeNone},
		{`{"v": 1}`, CodeBadMessage, `no "type"`, TypeNone},
		{`{"type": "claim", "symbol": "three"}`, CodeBadMessage, `"symbol"`, TypeNone},
		{`{"type":"start","id":"` + strings.Repeat("x", 65) + `"}`, CodeBadMessage, `"id" is 65 bytes`, TypeNone},
		{`{"type": "claim", "table": 0, "symbol": 3, "id": "a"}`, CodeBadMessage, `claim needs "version"`, TypeAction},
		{`{"type": "stop", "version": 0}`, CodeBadMessage, `stop needs "table"`, TypeAction},
		{`{"type": "flip", "table": 0, "version": 0, "target": [2]}`, CodeBadMessage, `flip needs "symbol"`, TypeAction},
		{`{"type": "lay", "table": 0, "version": 0}`, CodeBadMessage, `lay needs "target"`, TypeAction},
		{`{"type": "take", "table": 0, "version": 0, "target": [1, 2, 3, 4]}`, CodeBadMessage, "at most 3", TypeAction},
		{`{"type": "create"}`, CodeBadMessage, `create needs "room"`, TypeCreate},
		{`{"type": "create", "room": [1]}`, CodeBadMessage, `create needs "room"`, TypeCreate},
		{`{"type": "watch", "room": {}}`, CodeBadMessage, `watch needs "room"`, TypeWatch},
		{`{"type": "resume", "room": "ZZZZZZZZ"}`, CodeBadMessage, `"token"`, TypeResume},
		{`{"type": "seat", "bot": "easy"}`, CodeBadMessage, `seat needs "seat"`, TypeSeat},
		{`{"type": "seat", "seat": 1, "bot": 7}`, CodeBadMessage, `"bot": a bot level (easy, `, TypeSeat},
		{`{"type": "pick"}`, CodeBadMessage, `pick needs "game"`, TypePick},
		{`{"type": "ping", "nonce": "` + strings.Repeat("x", 200) + `"}`, CodeBadRequest, "at most 128 bytes", TypePing},
	} {
		var r Request
		err := Decode([]byte(c.frame), &r)
		switch {
		case err == nil:
			t.Errorf("%s: read as %+v", c.frame, r)
		case err.Code != c.code || !strings.Contains(err.Message, c.message):
			t.Errorf("%s: %v, want %s %q", c.frame, err, c.code, c.message)
		case r.Type != c.typ:
			t.Errorf("%s: type %v, want %v", c.frame, r.Type, c.typ)
		case c.typ != TypeNone && strings.Contains(c.frame, `"id"`) && r.ID == "":
			t.Errorf("%s: the error cannot echo the id", c.frame)
		}
	}
}

// TestDecodeDropsWhatTheTypeDoesNotTake checks that a request holds only
// the fields of its type, and the action the defaults of one.
func TestDecodeDropsWhatTheTypeDoesNotTake(t *testing.T) {
	var r Request
	if err := Decode([]byte(`{"type":"draw","symbol":4,"target":[1,2,3,4],"table":2,"version":9,"name":"x","game":"well","token":"t"}`), &r); err != nil {
		t.Fatal(err)
	}
	want := Request{Type: TypeAction, Seat: rules.NoSeat, Table: 2,
		Action: rules.Action{Kind: rules.ActionDraw, Seat: rules.NoSeat, Version: 9}}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("got %+v\nwant %+v", r, want)
	}
	if err := Decode([]byte(`{"type":"ping"}`), &r); err != nil || string(r.Nonce) != "null" {
		t.Fatalf("a ping without a nonce: %+v %v", r, err)
	}
}

// TestEveryActionKindHasAType checks the mapping between message types
// and action kinds: every kind with a name but the clock's tick is a
// message type of that name, and back.
func TestEveryActionKindHasAType(t *testing.T) {
	kinds := 0
	for k := range rules.ActionKind(255) {
		name, err := k.MarshalText()
		if err != nil {
			continue
		}
		typ, ok := ActionType(k)
		if k == rules.ActionTick {
			if ok {
				t.Errorf("the clock's tick is a message type")
			}
			continue
		}
		kinds++
		if !ok || typ != string(name) {
			t.Errorf("kind %s: message type %q %v", name, typ, ok)
		}
		if back, ok := ActionKind(typ); !ok || back != k {
			t.Errorf("message type %s: kind %v %v", typ, back, ok)
		}
		var r Request
		frame := `{"type":"` + typ + `","table":1,"version":2,"symbol":3,"target":[4]}`
		if err := Decode([]byte(frame), &r); err != nil || r.Type != TypeAction || r.Action.Kind != k || r.TypeName() != typ {
			t.Errorf("%s: %+v %v", frame, r, err)
		}
	}
	if kinds != len(actions) {
		t.Errorf("%d kinds a client may send, %d message types", kinds, len(actions))
	}
	if _, ok := ActionKind("hello"); ok {
		t.Error("hello makes an action")
	}
}

// TestAppendRequestRoundTrip writes requests of every type as a client
// does and reads them back.
func TestAppendRequestRoundTrip(t *testing.T) {
	bot, lockout := "hard", int64(500)
	for _, r := range []*Request{
		{Type: TypeHello, ID: "h", V: 1, Name: "Zoë <3>", Lang: "pl"},
		{Type: TypeHello, V: 1, Name: "a"},
		{Type: TypeCreate, Spec: &RoomSpec{Game: "tower", Seats: 4, Bots: []*string{nil, &bot}, Private: true, Games: 1,
			Options: map[string]string{"a": "b"}, Lockout: &lockout}},
		{Type: TypeJoin, Code: "ABCD2345"},
		{Type: TypeWatch, Code: "ABCD2345", ID: "w\"1"},
		{Type: TypeResume, Code: "ABCD2345", Token: "00ff"},
		{Type: TypeSeat, Seat: 2, HasSeat: true, Bot: &bot},
		{Type: TypeSeat, Seat: 2, HasSeat: true},
		{Type: TypeStart},
		{Type: TypePick, Game: "well"},
		{Type: TypeLeave},
		{Type: TypePing, Nonce: json.RawMessage(`{"t":1}`)},
		{Type: TypePing, Nonce: json.RawMessage(`null`)},
		Action(rules.Action{Kind: rules.ActionClaim, Seat: 3, Symbol: 12, Version: 17, At: 99}, 3, "42"),
		Action(rules.Action{Kind: rules.ActionClaim, Symbol: 12, Target: rules.To(1, 2, 3), Version: 17}, 0, ""),
		Action(rules.Action{Kind: rules.ActionFlip, Symbol: 1, Target: rules.To(5), Version: 1}, 1, "f"),
		Action(rules.Action{Kind: rules.ActionLay, Target: rules.To(2), Version: 1}, 1, ""),
		Action(rules.Action{Kind: rules.ActionDraw, Symbol: 7, Target: rules.To(2), Version: 1}, 1, ""),
		{Type: TypeAction, Seat: 1, HasSeat: true, Table: 2, Action: rules.Action{Kind: rules.ActionStop, Seat: rules.NoSeat, Version: 3}},
	} {
		if r.Type != TypeSeat && !r.HasSeat {
			r.Seat = rules.NoSeat
		}
		if r.Type != TypeAction {
			r.Action.Seat = rules.NoSeat
		}
		frame := AppendRequest(nil, r)
		var back Request
		if err := Decode(frame, &back); err != nil {
			t.Fatalf("%s: %v", frame, err)
		}
		want := *r
		if want.Action.Kind == rules.ActionDraw {
			want.Action.Symbol, want.Action.Target = 0, rules.Targets{} // a draw has neither
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("%s:\n read %+v\nwant %+v", frame, back, want)
		}
	}
}

// BenchmarkDecodeClaim measures reading one claim, by readFast and by
// encoding/json, in the same run.
func BenchmarkDecodeClaim(b *testing.B) {
	claim := []byte(`{"type":"claim","symbol":12,"target":[],"table":3,"version":17,"id":"42"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		var r Request
		for b.Loop() {
			if err := Decode(claim, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		var r Request
		for b.Loop() {
			f := frame{targets: -1}
			if err := readJSON(claim, &r, &f); err != nil {
				b.Fatal(err)
			}
			if err := f.check(&r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
