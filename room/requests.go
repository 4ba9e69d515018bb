package room

import (
	"errors"
	"fmt"

	"github.com/dobble-dev/dobble/protocol"
	"github.com/dobble-dev/dobble/rules"
	"github.com/dobble-dev/dobble/session"
)

// handle answers one request.
func (r *Room) handle(in *input) {
	if perr := r.serve(in); perr != nil {
		r.send(in.peer, protocol.ErrorFrame(perr, in.ID))
	}
}

func (r *Room) serve(in *input) *protocol.Error {
	p := in.peer
	switch in.Type {
	case protocol.TypeCreate, protocol.TypeJoin, protocol.TypeWatch, protocol.TypeResume:
		// The connection is marked in the room before it is found open,
		// and Manager.Gone closes it before it looks for its room: either
		// Gone finds the room and queues the departure, or the room finds
		// the connection closed here. A departure is never lost.
		if !p.room.CompareAndSwap(nil, r) {
			r.skip = true
			r.dropCreate(in, "its creator was already in a room")
			return errNotAllowed("you are already in a room; leave it first")
		}
		select {
		case <-p.Done():
			r.skip = true
			p.room.CompareAndSwap(r, nil)
			r.dropCreate(in, "its creator had gone")
			return nil
		default:
		}
		var perr *protocol.Error
		switch in.Type {
		case protocol.TypeCreate:
			perr = r.doJoin(in, 0)
		case protocol.TypeJoin:
			perr = r.doJoin(in, -1)
		case protocol.TypeWatch:
			r.members[p] = -1
			r.send(p, protocol.Encode(protocol.Joined{ID: in.ID, Room: r.code, Seat: -1, Host: r.host}))
			r.sendSituation(p)
		case protocol.TypeResume:
			perr = r.doResume(in)
		}
		if perr != nil {
			p.room.CompareAndSwap(r, nil)
			r.dropCreate(in, "the room could not seat its host")
		}
		return perr
	}
	seat, ok := r.members[p]
	if !ok {
		return errNotAllowed("%s: you are not in room %s", in.TypeName(), r.code)
	}
	switch in.Type {
	case protocol.TypeAction:
		return r.doAction(seat, in)
	case protocol.TypeLeave:
		r.leave(p, false, in.at)
		r.send(p, protocol.Encode(protocol.Closed{Reason: "you left the room"}))
		return nil
	case protocol.TypeSeat:
		return r.doSeat(seat, in)
	case protocol.TypeStart:
		return r.doStart(seat, in)
	case protocol.TypePick:
		return r.doPick(seat, in)
	}
	return protocol.Errorf(protocol.CodeBadMessage, "unknown request %q", in.TypeName())
}

// dropCreate closes the room when in is the create that opened it and its
// creator cannot be seated: a room nobody is in would never close.
func (r *Room) dropCreate(in *input, reason string) {
	if in.Type == protocol.TypeCreate {
		r.close(reason)
	}
}

// doStart starts the session, or a rematch once it is over (host).
func (r *Room) doStart(seat int, in *input) *protocol.Error {
	switch {
	case seat != r.host:
		return errNotAllowed("only the host (seat %d) starts the game", r.host)
	case r.phase != PhaseLobby && r.phase != PhaseOver:
		return errNotAllowed("the session is already running")
	}
	for i, s := range r.seats {
		if s.kind == protocol.KindFree {
			return errNotAllowed("seat %d is free: wait for someone to join or put a bot on it", i)
		}
	}
	r.seed = r.drawSeed()
	cfg := r.cfg
	cfg.Seed = r.seed
	var next play
	if len(r.seats) == 1 {
		g, _ := rules.Lookup(r.spec.Game)
		st, err := rules.New(g, r.main.Cards, rules.Config{Players: 1, Seed: session.TableSeed(r.seed, 0), Lockout: cfg.Lockout, Options: cfg.Options[r.spec.Game]})
		if err != nil {
			return protocol.Errorf(protocol.CodeBadRequest, "%v", err)
		}
		next = &solo{st: st, seed: r.seed}
	} else {
		s, err := session.New(cfg, r.decks)
		if err != nil {
			return protocol.Errorf(protocol.CodeBadRequest, "%v", err)
		}
		next = s
	}
	if r.play != nil {
		// A rematch: its tables are numbered on from the last one, so
		// that a claim made at the last session's table is too late.
		r.base = r.table() + 1
	}
	r.play = next
	r.startCountdown(in.at)
	r.publish()
	return nil
}

// doPick picks the next mini-game for the picker.
func (r *Room) doPick(seat int, in *input) *protocol.Error {
	if seat < 0 {
		return errNotAllowed("spectators cannot pick")
	}
	if r.phase != PhasePick {
		return errNotAllowed("no pick is due now (the room is in phase %s)", r.phase)
	}
	if err := r.play.Pick(seat, in.Game); err != nil {
		var pe *session.PickError
		if errors.As(err, &pe) {
			if seat != r.play.Picker() {
				return errNotAllowed("%s", pe.Reason)
			}
			return protocol.Errorf(protocol.CodeBadRequest, "%s", pe.Reason)
		}
		return protocol.Errorf(protocol.CodeBadRequest, "%v", err)
	}
	r.startCountdown(in.at)
	return nil
}

// doAction handles a person's action at the table: a claim, a draw, a
// flip… The table's driver first does everything due before the action
// arrived, then carries it out. An action made at an earlier table, or
// after the game's end, is refused here, before it reaches a table; one
// against an older version of the table, by the rules.
func (r *Room) doAction(seat int, in *input) *protocol.Error {
	kind := in.Action.Kind
	if seat < 0 {
		return errNotAllowed("spectators cannot %s", kind)
	}
	if in.HasSeat && in.Seat != seat {
		return errNotAllowed("you play seat %d; nobody can act for seat %d", seat, in.Seat)
	}
	if r.play == nil {
		return errNotAllowed("no game is being played now (the room is in phase %s)", r.phase)
	}
	if in.Table > r.table() || in.Table < 0 {
		return protocol.Errorf(protocol.CodeBadRequest, "table %d does not exist; the current table is %d", in.Table, r.table())
	}
	if r.phase == PhasePlay && in.Table == r.table() {
		// What was due before the action arrived comes first; it may
		// end the game.
		r.advance(in.at)
		if r.closed {
			return nil
		}
	}
	if r.phase != PhasePlay || in.Table < r.table() {
		// A claim that crossed the end of its game is refused like any
		// late claim; one for a table not started yet is an error.
		switch {
		case in.Table < r.table():
			r.refuse(in, rules.CodeTooLate, "too late: that game is over")
		case r.phase != PhaseCountdown:
			r.refuse(in, rules.CodeGameOver, "the game is over")
		default:
			return errNotAllowed("the game has not started (the room is in phase %s)", r.phase)
		}
		return nil
	}
	a, ok := r.toTable(seat, in)
	if !ok {
		r.refuse(in, rules.CodeNoSeat, fmt.Sprintf("seat %d is not at this table", seat))
		return nil
	}
	if r.fair.on() {
		// Ranked by its reaction: held until nothing ranked earlier can
		// arrive, then carried out in its turn (fair.go).
		r.rank(a.Seat, a, in)
		r.advance(in.at)
		return nil
	}
	_, err := r.tab.Submit(a)
	r.countDeferred()
	if ref, ok := err.(*rules.Refusal); ok {
		r.send(in.peer, r.refusedFrame(&protocol.Refused{ID: in.ID, Table: r.tableNo, Code: ref.Code, Reason: ref.Reason(),
			Version: ref.Version, Current: r.tab.State().Version(), LockedUntil: ref.LockedUntil}))
	} else if err != nil {
		r.close(fmt.Sprintf("the game could not go on: %v", err))
		return nil
	}
	r.m.metrics.ClaimLatency.Observe(r.now().Sub(in.at).Seconds())
	if r.tab.Over() {
		r.finishTable(in.at)
	}
	return nil
}

// refuse answers a person's action that never reached a table with a
// refusal of the given code and reason, and counts it.
func (r *Room) refuse(in *input, code rules.Code, reason string) {
	r.m.metrics.Claims.WithLabelValues(code.String()).Inc()
	r.send(in.peer, r.refusedFrame(&protocol.Refused{ID: in.ID, Table: r.table(), Code: code,
		Reason: reason, Version: in.Action.Version, Current: r.play.State().Version()}))
}
