package web

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// playOneGame has cl create a room of spec (its first game against an
// instant bot, which wins at once) and start it, and returns the room's
// code once the session is over.
func playOneGame(cl *client, spec msg) string {
	cl.t.Helper()
	code := cl.create(spec)
	cl.send(msg{"type": "start"})
	for sessionOf(cl.expect("over")).str("phase") != "over" {
	}
	return code
}

// TestPrivateRoomNowhereInPublic plays one game in a private room and one
// in a public room: the history lists the public game only, the private
// game's record and replay are not served, and the private room's code is
// in no answer of the HTTP API, so that nobody without its link can watch
// it or its next session.
func TestPrivateRoomNowhereInPublic(t *testing.T) {
	ts := start(t, fastConfig())
	spec := func(private bool) msg {
		return msg{"game": "tower", "seats": 2, "bots": []any{nil, "instant"}, "games": 1, "private": private}
	}
	priv := playOneGame(ts.connect("alice"), spec(true))
	pub := playOneGame(ts.connect("bob"), spec(false))
	eventually(t, "both games are stored", func() bool {
		_, err := ts.store.Get(context.Background(), 2)
		return err == nil
	})
	var private, public int64
	for id := int64(1); id <= 2; id++ {
		g, err := ts.store.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(g.Seats, ",") == "alice,bot:instant" {
			private = id
		} else {
			public = id
		}
	}
	if private == 0 || public == 0 {
		t.Fatal("the stored games are not alice's and bob's")
	}
	answers := map[string]int{
		"/api/history":          200,
		"/api/history?limit=50": 200,
		"/api/rooms":            200,
		"/metrics":              200,
	}
	for _, id := range []int64{private, public} {
		want := 200
		if id == private {
			want = 404
		}
		answers["/api/history/"+strconv.FormatInt(id, 10)] = want
		answers["/api/history/"+strconv.FormatInt(id, 10)+"/steps"] = want
	}
	for path, want := range answers {
		code, body := ts.get(path)
		if code != want {
			t.Errorf("%s: %d, want %d: %.200s", path, code, want, body)
		}
		if strings.Contains(string(body), priv) {
			t.Errorf("%s shows the private room's code %s: %.300s", path, priv, body)
		}
	}
	if _, body := ts.get("/api/history"); !strings.Contains(string(body), pub) || strings.Count(string(body), `"id"`) != 1 {
		t.Errorf("/api/history lists %s; want bob's public game only", body)
	}
}
