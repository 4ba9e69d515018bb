package room

import (
	"strings"
	"testing"
)

// TestPeerStartsOneWriterAtATime follows a Peer through frames, idle
// spells and its close: a writer is started when frames arrive and none is
// at work, stops when Take finds nothing, and is started once more to
// close the connection.
func TestPeerStartsOneWriterAtATime(t *testing.T) {
	p := NewPeer(3)
	if !p.Send([]byte("early")) {
		t.Fatal("a frame sent before the transport set its writer was dropped")
	}
	starts := 0
	p.SetWriter(func() { starts++ })
	if starts != 1 {
		t.Fatalf("a frame waiting when the writer was set: %d starts, want 1", starts)
	}
	p.Send([]byte("a"))
	if starts != 1 {
		t.Fatalf("a frame sent while a writer is at work started another (%d starts)", starts)
	}
	if got, _ := p.Take(nil); len(got) != 2 || string(got[0]) != "early" || string(got[1]) != "a" {
		t.Fatalf("Take = %q, want [early a]", got)
	}
	if got, last := p.Take(nil); len(got) != 0 || last {
		t.Fatalf("Take of an empty queue = %q, last %v", got, last)
	}
	p.Send([]byte("b"))
	if starts != 2 {
		t.Fatalf("a frame sent to an idle Peer: %d starts, want 2", starts)
	}
	if got, _ := p.Take(make([][]byte, 0, 4)); len(got) != 1 || string(got[0]) != "b" {
		t.Fatalf("Take = %q, want [b]", got)
	}
	if _, last := p.Take(nil); last {
		t.Fatal("the writer of an open Peer was told to close the connection")
	}
	p.Close(StatusGoingAway, "bye")
	if starts != 3 {
		t.Fatalf("closing an idle Peer: %d starts, want 3 (its writer closes the connection)", starts)
	}
	if p.Send([]byte("late")) {
		t.Fatal("a closed Peer queued a frame")
	}
	if got, last := p.Take(nil); len(got) != 0 || !last {
		t.Fatalf("the closing writer's Take = %q, last %v; want nothing and last", got, last)
	}
	p.Close(StatusNormal, "again")
	if starts != 3 {
		t.Fatalf("a closed Peer started %d writers, want 3", starts)
	}
	if code, reason := p.CloseStatus(); code != StatusGoingAway || reason != "bye" {
		t.Fatalf("closed with %d %q, want the first close", code, reason)
	}
}

// TestPeerQueueOverflowIsASlowConsumer checks that a full queue closes the
// Peer instead of blocking or growing.
func TestPeerQueueOverflowIsASlowConsumer(t *testing.T) {
	p := NewPeer(2)
	p.SetWriter(func() {})
	for i := range 2 {
		if !p.Send([]byte{byte(i)}) {
			t.Fatalf("frame %d dropped", i)
		}
	}
	if p.Send([]byte("over")) {
		t.Fatal("a frame beyond the queue's length was queued")
	}
	if code, reason := p.CloseStatus(); code != StatusPolicy || !strings.Contains(reason, "slow consumer") {
		t.Fatalf("closed with %d %q", code, reason)
	}
	if got, last := p.Take(nil); len(got) != 2 || last {
		t.Fatalf("the frames queued before the close: %d (last %v), want 2 (they are still written)", len(got), last)
	}
	if _, last := p.Take(nil); !last {
		t.Fatal("after the frames, the writer was not told to close the connection")
	}
}

// TestPeerCloseRacingAnIdleWriter checks the hand-over when Close comes
// just after a writer found the queue empty: that writer is not the one to
// close the connection (it was told it may stop); the writer Close starts
// is, once, after the frames queued before the Close.
func TestPeerCloseRacingAnIdleWriter(t *testing.T) {
	p := NewPeer(4)
	starts := 0
	p.SetWriter(func() { starts++ })
	p.Send([]byte("a"))
	if got, last := p.Take(nil); len(got) != 1 || last {
		t.Fatalf("Take = %q, last %v", got, last)
	}
	// The first writer finds the queue empty and stops...
	if _, last := p.Take(nil); last {
		t.Fatal("an idle writer of an open Peer was told to close")
	}
	// ...while a frame and the Close arrive: one more writer starts.
	p.Send([]byte("b"))
	p.Close(StatusNormal, "bye")
	if starts != 2 {
		t.Fatalf("%d writers started, want 2", starts)
	}
	if got, last := p.Take(nil); len(got) != 1 || string(got[0]) != "b" || last {
		t.Fatalf("the second writer's first Take = %q, last %v; want [b], not last", got, last)
	}
	if _, last := p.Take(nil); !last {
		t.Fatal("the second writer was not told to close after the frames")
	}
}

// TestPeerTakePooled finds each frame marked as it was sent: by Send, or
// by SendPooled, whose frames the writer may give back to the pool.
func TestPeerTakePooled(t *testing.T) {
	p := NewPeer(4)
	p.Send([]byte("shared"))
	p.SendPooled([]byte("own"))
	p.Send([]byte("shared again"))
	frames, pooled, _ := p.TakePooled(nil, []bool{true, true, true, true})
	if len(frames) != 3 || len(pooled) != 3 || pooled[0] || !pooled[1] || pooled[2] || string(frames[1]) != "own" {
		t.Fatalf("TakePooled = %q, %v; want [shared own shared again], [false true false]", frames, pooled)
	}
	p.SendPooled([]byte("next"))
	if frames, pooled, _ = p.TakePooled(frames, pooled); len(frames) != 1 || len(pooled) != 1 || !pooled[0] {
		t.Fatalf("TakePooled = %q, %v; want [next], [true]", frames, pooled)
	}
}
