package room

import "github.com/dobble-dev/dobble/protocol"

// A cluster's nodes hand each other the connections of the rooms they do
// not hold: a player connected to one node (the entry node) plays in a
// room another node holds (its owner). The Manager of the entry node
// gives such a connection to its Router, which carries the connection's
// frames to the owner and the owner's frames back; the owner's Manager
// sees the connection as a remote Peer (NewRemotePeer), whose frames the
// Router reads in and whose writer sends them back. Package relay is the
// Router over NATS.

// Router carries the connections of the rooms that other nodes hold.
type Router interface {
	// Route is given a join, watch or resume (typ; frame, as the client
	// sent it, of which Route keeps no reference) naming the room code,
	// which this node does not hold. It returns nil when it has taken the
	// connection: the request and every later frame of p go to the node
	// that holds the room (Relay), until the connection ends (Left); the
	// Router may close p itself. It returns the error the client is
	// answered with otherwise: noRoom when no node holds the room.
	Route(p *Peer, typ protocol.Type, code string, frame []byte) *protocol.Error
	// Relay carries a later frame of a connection that Route took; it
	// keeps no reference to frame. It returns false when the connection
	// is no longer routed (its room on the other node closed it, or it
	// left): the frame, and the connection's next, are answered here.
	Relay(p *Peer, frame []byte) bool
	// Left tells that the connection of p, which Route took, has ended.
	Left(p *Peer)
}

// SetRouter makes r carry the joins, watches and resumes of the rooms
// this Manager does not hold, and the connections that make them; it is
// called before the first connection.
func (m *Manager) SetRouter(r Router) { m.router = r }

// NewRemotePeer returns a Peer for a connection made to another node of
// the cluster, which said hello there as name in lang, from the client
// address addr as the per-address bounds count it ("" when exempt): it
// has the Manager's queue length and rate limit, like a Peer of its own,
// and is never routed further. Its frames are handed to Handle by the one
// goroutine that reads the connection's frames from the other node.
func (m *Manager) NewRemotePeer(name, lang, addr string) *Peer {
	p := m.NewPeer()
	p.hello, p.name, p.lang, p.addr, p.remote = true, name, lang, addr, true
	return p
}

// Address returns the client's address as the per-address bounds count
// it, or "" when it is exempt.
func (p *Peer) Address() string { return p.addr }

// route hands p and its request to the Router, when the Manager has one
// and p is not a remote Peer already; it returns nil when the Router took
// the connection, and the error to answer otherwise.
func (m *Manager) route(in *input) *protocol.Error {
	p := in.peer
	if m.router == nil || p.remote {
		return protocol.Errorf(protocol.CodeNoRoom, "no open room has the code %q", in.Code)
	}
	if perr := m.router.Route(p, in.Type, in.Code, in.raw); perr != nil {
		return perr
	}
	p.routed = true
	return nil
}

// Lang returns the language given in hello.
func (p *Peer) Lang() string { return p.lang }
