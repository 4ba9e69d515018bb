// Package relay routes the players of a dobble cluster over NATS: a
// player may connect to any node, and plays in a room that another node
// holds as if it were connected there.
//
// The node a connection is made to (its entry node) answers hello and
// ping itself. When the connection joins, watches or resumes a room the
// node does not hold, the Relay looks the room up in the room directory,
// the JetStream key-value bucket dobble_rooms (key: the room code; value:
// {"node": NAME, "journal": ...}), and opens the connection on the owner,
// the node named there. From then on every frame of the connection goes
// to the owner, which hands it to its room.Manager as the frame of a
// remote Peer, and every frame the owner sends that Peer comes back and
// is sent to the connection. The nodes speak on these subjects:
//
//	dobble.node.NAME.in   frames for the remote Peers of node NAME
//	dobble.node.NAME.out  frames for the connections entered at node NAME
//	dobble.alive.NAME     node NAME's heartbeat
//
// and name the connection in headers (Dobble-Kind, Dobble-Entry,
// Dobble-Owner, Dobble-Conn; see the constants). Each node publishes a
// heartbeat every Config.Heartbeat; a node not heard from for
// Config.Timeout is taken for dead: an owner treats the remote Peers of a
// dead entry node as gone (their seats are held, as for a dropped
// connection), and an entry node closes the connections routed to a dead
// owner with 1012, so that the browser reconnects and resumes, on the
// room's new owner once another node has taken the room over.
//
// The bounds of a connection hold on both sides: its entry node counts
// its socket and draws its messages from its own and its address's
// budgets, as for any connection, and the owner draws them again from the
// remote Peer's budget and bounds its output queue; an owner holds at most
// Config.MaxRemote remote Peers and refuses the next.
//
// docs/CLUSTER.md ("Routing") describes the design.
package relay
