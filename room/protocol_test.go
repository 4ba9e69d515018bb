package room

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// parseSeeds are frames of every kind fastParse reads, and of many it
// must leave to encoding/json.
var parseSeeds = []string{
	`{"type":"claim","symbol":12,"target":[],"table":0,"version":7,"id":"3"}`,
	`{"type":"claim","symbol":12,"target":[4, 5 ,6],"table":2,"version":17,"id":"c1","seat":1}`,
	` { "type" : "draw" , "table" : 1 , "version" : 0 } `,
	`{"type":"hello","v":1,"name":"Zoë 🙂","lang":"pl"}`,
	`{"type":"join","room":"ABCD2345"}`,
	`{"type":"resume","room":"ABCD2345","token":"00ff"}`,
	`{"type":"pick","game":"well"}`,
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
	`{"type":"seat","seat":2,"bot":"easy"}`,
	`{"type":"ping","nonce":{"a":[1,2]}}`,
	`{"type":"create","room":{"game":"tower","seats":2}}`,
	`{"type":"claim"} x`,
	`{"type":"claim",}`,
	`{"type":"claim"`,
	`{}`,
	`[]`,
	`"claim"`,
	``,
	`{"type":"claim","symbol":1,"table":0,"version":1,"extra":true}`,
}

// TestFastParseAgreesWithEncodingJSON checks every frame fastParse reads
// against encoding/json.
func TestFastParseAgreesWithEncodingJSON(t *testing.T) {
	read := 0
	for _, s := range parseSeeds {
		if checkFastParse(t, []byte(s)) {
			read++
		}
	}
	if read < 8 {
		t.Fatalf("fastParse read %d of the frames, want the 8 plain ones at least", read)
	}
}

// FuzzFastParse runs the same check on any frame.
func FuzzFastParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if utf8.Valid(b) {
			checkFastParse(t, b)
		}
	})
}

// checkFastParse fails if fastParse reads b into something other than
// what encoding/json reads; it reports whether fastParse read it.
func checkFastParse(t *testing.T, b []byte) bool {
	t.Helper()
	var got request
	if !fastParse(b, &got) {
		return false
	}
	var want request
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: fastParse read it, encoding/json says %v", b, err)
	}
	// The numbers behind the pointers are compared through them, which
	// must not point into the request.
	for _, p := range []**int{&got.Seat, &got.Symbol, &got.Table} {
		if *p != nil {
			n := **p
			*p = &n
		}
	}
	if got.Version != nil {
		n := *got.Version
		got.Version = &n
	}
	got.seat, got.symbol, got.table, got.version = 0, 0, 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n fastParse %+v\nencoding/json %+v", b, got, want)
	}
	return true
}
