// Package cluster runs a dobble server as one node of a cluster on NATS
// JetStream: the rooms in play are journaled in a stream, and a directory
// of leases in a key-value bucket says which node owns each room, so that
// when a node dies another takes its rooms over by replaying them. It
// builds on NATS for every agreement between nodes; it has no consensus of
// its own.
//
// The journal. Every room of the cluster writes its journal (the entries
// of package room's durable.go, one a turn of the room's loop) to the
// stream DOBBLE_JOURNAL, on a subject of its own,
// dobble.journal.<room's journal id, escaped>. A room has at most one
// message in flight: the entries written while it waits for the stream's
// acknowledgement go together in the next message (a group commit, which
// keeps a busy room to one round trip's latency whatever its rate). Each
// message expects the stream sequence of the room's previous message
// (Nats-Expected-Last-Subject-Sequence), so that a node that lost a room
// cannot write to its journal once another node has: its write fails,
// and the room stops there without sending the frames of that turn.
// Nothing is acknowledged to a player before the stream has acknowledged
// the entry. A message that is not acknowledged (NATS down, a timeout) is
// sent again with the same message id, which the stream keeps once; the
// room's frames wait meanwhile. When a room ends, its subject is purged up
// to its last message.
//
// The directory. The bucket dobble_rooms holds a key per open room, its
// code, with the value {"node":"NAME","journal":"<journal id>"}. A node
// creates the key when it opens a room (a create fails if the key
// exists: another code is drawn), renews it every Renew (1 s) by an
// update that expects the key's last revision, and deletes it once the
// room's journal is dropped. A lease lasts Lease (3 s): a node that has
// not renewed a lease for Lease less Lease/3 (counted from when it sent
// the last renewal that succeeded) stops acting for the room, closing its
// players' connections with 1012 so that they reconnect and resume
// elsewhere; a node cut off from NATS does so for all its rooms. Every
// node watches the bucket; a key that no node has renewed for Lease
// (counted from when the watcher received its last revision, so that the
// nodes' clocks need not agree) is taken by an update that expects that
// revision: one node wins it, reads the room's journal, replays it
// (room.Manager.TakeOver) and serves it. The old owner stopped at least
// Lease/3 earlier; should it write to the journal anyway, one of the two
// writes is refused by the expected sequence, and the node refused gives
// the room up.
//
// A node that stops closes its rooms first, then announces the leases it
// gives up on ReleasedSubject: the other nodes take those rooms over at
// once, rather than when the leases lapse.
//
// A room thus moves within Lease, a random wait of at most 300 ms and a
// replay of a node's death (docs/CLUSTER.md has the figures), and
// nothing its players saw acknowledged is lost: every acknowledged entry
// is in the stream before the new owner reads it, and the new owner's
// first entry (the restart, room.Manager.TakeOver) is refused if anything
// was written after what it read.
package cluster
