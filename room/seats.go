package room

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strconv"
	"time"

	"github.com/dobble-dev/dobble/bot"
	"github.com/dobble-dev/dobble/protocol"
)

// seatState is one seat of a room.
type seatState struct {
	kind  string // protocol.KindHuman, KindBot or KindFree
	level string
	name  string
	// tokenHash is the hash of the seat's secret token (tokenHash): the
	// token itself is only ever with its owner.
	tokenHash string
	peer      *Peer
	// held is when a disconnected person's hold ends; zero while
	// connected, or once the hold has expired.
	held time.Time
}

// doJoin seats in.peer at seat (or the first free seat for -1).
func (r *Room) doJoin(in *input, seat int) *protocol.Error {
	if r.phase != PhaseLobby {
		return errNotAllowed("room %s has started; watch it instead", r.code)
	}
	if seat < 0 {
		seat = slices.IndexFunc(r.seats, func(s *seatState) bool { return s.kind == protocol.KindFree })
		if seat < 0 {
			return protocol.Errorf(protocol.CodeRoomFull, "room %s has no free seat; watch it instead", r.code)
		}
	}
	s := r.seats[seat]
	token, hash := r.drawToken()
	*s = seatState{kind: protocol.KindHuman, name: in.name, tokenHash: hash, peer: in.peer}
	r.members[in.peer] = seat
	r.send(in.peer, protocol.Encode(protocol.Joined{ID: in.ID, Room: r.code, Seat: seat, Token: token, Host: r.host}))
	r.broadcastLobby()
	return nil
}

// doResume gives a seat back to the connection holding its token.
func (r *Room) doResume(in *input) *protocol.Error {
	seat := -1
	for i, s := range r.seats {
		if s.kind == protocol.KindHuman && sameHash(s.tokenHash, in.tokenHash) {
			seat = i
		}
	}
	if seat < 0 {
		return protocol.Errorf(protocol.CodeBadToken, "that token holds no seat of room %s (a hold that expired is lost)", r.code)
	}
	s := r.seats[seat]
	if old := s.peer; old != nil && old != in.peer {
		delete(r.members, old)
		old.room.CompareAndSwap(r, nil)
		r.send(old, protocol.Encode(protocol.Closed{Reason: "your seat was resumed by another connection"}))
	}
	s.peer, s.held = in.peer, time.Time{}
	r.members[in.peer] = seat
	r.send(in.peer, protocol.Encode(protocol.Joined{ID: in.ID, Room: r.code, Seat: seat, Token: in.Token, Host: r.host}))
	r.broadcast(protocol.Encode(protocol.Presence{Seat: seat, Connected: true}), in.peer)
	r.sendSituation(in.peer)
	return nil
}

// leave removes p from the room: a spectator goes; a person's seat is held
// when they disconnected or the game is on, and freed when they leave the
// lobby.
func (r *Room) leave(p *Peer, disconnected bool, now time.Time) {
	seat, ok := r.members[p]
	if !ok {
		return
	}
	delete(r.members, p)
	p.room.CompareAndSwap(r, nil)
	if seat >= 0 {
		s := r.seats[seat]
		if s.peer == p {
			s.peer = nil
			if r.phase == PhaseLobby && !disconnected {
				*s = seatState{kind: protocol.KindFree}
			} else {
				s.held = now.Add(r.m.cfg.SeatHold)
			}
			if r.phase == PhaseLobby {
				r.moveHost()
				r.broadcastLobby()
			} else {
				r.broadcast(protocol.Encode(protocol.Presence{Seat: seat, Connected: false}), nil)
			}
		}
	}
	r.closeIfEmpty()
}

// expire ends the hold of a disconnected person's seat.
func (r *Room) expire(seat int) {
	s := r.seats[seat]
	if r.phase == PhaseLobby {
		*s = seatState{kind: protocol.KindFree}
		r.moveHost()
		r.broadcastLobby()
	} else {
		s.held, s.tokenHash = time.Time{}, ""
	}
	r.closeIfEmpty()
}

// moveHost passes the host's role to the first seated person when the host
// has gone from the lobby.
func (r *Room) moveHost() {
	if h := r.seats[r.host]; h.kind == protocol.KindHuman && (h.peer != nil || !h.held.IsZero()) {
		return
	}
	for i, s := range r.seats {
		if s.kind == protocol.KindHuman && s.peer != nil {
			r.host = i
			return
		}
	}
}

// closeIfEmpty closes the room once no person is seated or held.
func (r *Room) closeIfEmpty() {
	for _, s := range r.seats {
		if s.kind == protocol.KindHuman && (s.peer != nil || !s.held.IsZero()) {
			return
		}
	}
	r.close("everyone left")
}

// doSeat puts a bot on a seat or frees it (host, lobby).
func (r *Room) doSeat(seat int, in *input) *protocol.Error {
	switch {
	case seat != r.host:
		return errNotAllowed("only the host (seat %d) seats bots", r.host)
	case r.phase != PhaseLobby:
		return errNotAllowed("seats change only in the lobby")
	case in.Seat < 0 || in.Seat >= len(r.seats):
		return protocol.Errorf(protocol.CodeBadRequest, "seat %d: the room has seats 0 to %d", in.Seat, len(r.seats)-1)
	}
	s := r.seats[in.Seat]
	if s.kind == protocol.KindHuman {
		return errNotAllowed("seat %d is %s's", in.Seat, s.name)
	}
	if in.Bot == nil {
		*s = seatState{kind: protocol.KindFree}
	} else {
		if _, err := bot.LookupLevel(*in.Bot); err != nil {
			return protocol.Errorf(protocol.CodeBadRequest, "%v", err)
		}
		*s = seatState{kind: protocol.KindBot, level: *in.Bot}
	}
	r.nameBots()
	r.broadcastLobby()
	return nil
}

// nameBots names the room's bots so that no two read alike at the table,
// in the feed, the results, the records and the history: a bot is
// "bot:LEVEL" (protocol.BotPrefix) when it is the only one of its level,
// and "bot:LEVEL N" when there are several, N counting them from 1 in the
// order of their seats. Seats change only in the lobby, so a name stays
// the same for the whole session.
func (r *Room) nameBots() {
	of := map[string]int{}
	for _, s := range r.seats {
		if s.kind == protocol.KindBot {
			of[s.level]++
		}
	}
	nth := map[string]int{}
	for _, s := range r.seats {
		if s.kind != protocol.KindBot {
			continue
		}
		nth[s.level]++
		s.name = protocol.BotPrefix + s.level
		if of[s.level] > 1 {
			s.name += " " + strconv.Itoa(nth[s.level])
		}
	}
}

// newToken returns a seat's secret token: 128 bits from crypto/rand.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
