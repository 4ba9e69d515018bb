package room

import (
	"slices"
	"time"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
)

// sendSituation sends p what it needs to pick up the room where it is:
// the lobby, and the table (with the pick or the countdown) once started.
func (r *Room) sendSituation(p *Peer) {
	r.send(p, protocol.Encode(protocol.Lobby{Room: r.lobbyInfo()}))
	if r.play == nil {
		return
	}
	seat := r.members[p]
	now := r.now()
	switch r.phase {
	case PhaseCountdown:
		r.send(p, protocol.Encode(protocol.Countdown{Ms: max(0, r.deadline.Sub(now).Milliseconds()), Table: r.table(), Game: r.play.State().Info().Name}))
	case PhasePlay, PhasePick, PhaseOver:
		r.send(p, r.stateFrame(r.gameSeat(seat), now))
		if r.phase == PhasePick {
			r.send(p, r.pickFrame())
		}
	}
}

// pickFrame is the encoded pick message.
func (r *Room) pickFrame() []byte {
	return protocol.Encode(protocol.PickMessage{Picker: r.play.Picker(), Choices: r.play.Choices(), Ms: max(0, r.deadline.Sub(r.now()).Milliseconds())})
}

// sessionInfo describes the session for state and over messages.
func (r *Room) sessionInfo() protocol.SessionInfo {
	h := r.play.History()
	return protocol.SessionInfo{Phase: r.play.Phase(), Game: r.play.State().Info().Name, Picker: r.play.Picker(),
		Games: r.play.Config().Games, Played: len(h), Standings: r.play.Standings(), History: h}
}

// seatInfos describes the seats.
func (r *Room) seatInfos() []protocol.SeatInfo {
	out := make([]protocol.SeatInfo, len(r.seats))
	for i, s := range r.seats {
		out[i] = protocol.SeatInfo{Seat: i, Name: s.name, Kind: s.kind, Level: s.level, Connected: s.kind == protocol.KindBot || s.peer != nil}
	}
	return out
}

// lobbyInfo describes the room for lobby messages.
func (r *Room) lobbyInfo() protocol.LobbyInfo {
	lockout := r.cfg.Lockout
	if lockout == rules.NoLockout {
		lockout = 0
	}
	return protocol.LobbyInfo{Code: r.code, Phase: r.phase, Game: r.spec.Game, Options: r.spec.Options, Deck: r.main.Name,
		Private: r.spec.Private, Scoring: r.spec.Scoring, Games: r.spec.Games, Lockout: lockout, Seats: r.seatInfos(), Host: r.host}
}

// publish updates the room's entry in the public list.
func (r *Room) publish() {
	if r.spec.Private || r.phase != PhaseLobby || r.closed {
		r.listing.Store(nil)
		return
	}
	l := &Listing{Code: r.code, Game: r.spec.Game, Deck: r.main.Name, Seats: len(r.seats)}
	for _, s := range r.seats {
		if s.kind == protocol.KindFree {
			l.Free++
		} else {
			l.Taken++
		}
	}
	if h := r.seats[r.host]; h.kind == protocol.KindHuman {
		l.Host = h.name
	}
	r.listing.Store(l)
}

// storedCode is the room's code as its finished games are stored: empty
// for a private room, whose code only its link gives and whose games the
// history does not list (store.Summary.Room).
func (r *Room) storedCode() string {
	if r.spec.Private {
		return ""
	}
	return r.code
}

// broadcast sends one encoded frame to every member but except.
func (r *Room) broadcast(b []byte, except *Peer) {
	for p := range r.members {
		if p != except {
			r.send(p, b)
		}
	}
}

// broadcastLobby sends everyone the lobby.
func (r *Room) broadcastLobby() {
	r.publish()
	r.broadcast(protocol.Encode(protocol.Lobby{Room: r.lobbyInfo()}), nil)
}

// perView sends every member a frame built for its seat at the table,
// building and encoding it once per distinct seat (spectators, and seats
// not at the table, share one). With pooled, build's frames come from
// protocol's frame pool: one that goes to a single member goes back to
// the pool once written (Peer.SendPooled).
func (r *Room) perView(build func(gs int) []byte, pooled bool) {
	// Frames, and how many members see each, by view: index 0 for the
	// spectators', seat+1 for a seat's.
	var frames [rules.DobbleMaxPlayers + 1][]byte
	var viewers [rules.DobbleMaxPlayers + 1]int
	view := func(member int) (gs, i int) {
		gs = r.gameSeat(member)
		return gs, max(gs+1, 0)
	}
	if pooled {
		for _, member := range r.members {
			_, i := view(member)
			viewers[i]++
		}
	}
	for p, member := range r.members {
		gs, i := view(member)
		if frames[i] == nil {
			frames[i] = build(gs)
		}
		if pooled && viewers[i] == 1 {
			r.sendPooled(p, frames[i])
		} else {
			r.send(p, frames[i])
		}
	}
}

// stateFrame is the encoded state message for seat gs of the table.
func (r *Room) stateFrame(gs int, now time.Time) []byte {
	st := r.play.State()
	return protocol.Encode(&protocol.State{Table: r.table(), Game: st.Info().Name, Deck: r.deckOf(st.Info().Name).Name,
		Elapsed: r.elapsed(now), Players: r.at, Seat: gs, View: st.View(gs), Seats: r.seatInfos(), Session: r.sessionInfo()})
}

// broadcastState sends everyone the table.
func (r *Room) broadcastState(now time.Time) {
	r.perView(func(gs int) []byte { return r.stateFrame(gs, now) }, false)
}

// broadcastUpdate sends everyone the events ev of the accepted action at
// the table, applied at ms on its clock.
func (r *Room) broadcastUpdate(at int64, ev []rules.Event) {
	r.upd.Reset(r.tab.State(), r.tableNo, at, ev)
	r.perView(r.upd.Frame, true)
}

// refusedFrame is the encoded refused message m.
func (r *Room) refusedFrame(m *protocol.Refused) []byte {
	r.buf = protocol.Append(r.buf[:0], m)
	return slices.Clone(r.buf)
}
