// Package cluster runs a dobble server as one node of a cluster on NATS
// JetStream: the rooms in play are journaled in a stream, a directory in
// a key-value bucket says which node owns each room, and each node holds
// a lease of its own in another, so that when a node dies another takes
// its rooms over by replaying them. It builds on NATS for every agreement
// between nodes; it has no consensus of its own.
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
// The directory. A node holds one lease, its own: its key in the bucket
// dobble_nodes, its name, with the value {"boot":"<boot id>",...}, a
// random id of the node's run drawn when it starts. It renews the key
// every Renew (1 s) by an update that expects the key's last revision,
// whatever the number of its rooms. The bucket dobble_rooms holds a key
// per open room, its code, with the value {"node":"NAME","journal":
// "<journal id>","boot":"<boot id>"}: a node creates the key when it
// opens a room (a create fails if the key exists: another code is
// drawn) and deletes it once the room's journal is dropped; it does not
// write it in between. A node's key lasts Lease (3 s): a node that has
// not renewed it for Lease less Lease/3 (counted from when it sent the
// last renewal that succeeded) stops acting for all its rooms, closing
// their players' connections with 1012 so that they reconnect and resume
// elsewhere, and draws a new boot id, so that the keys of those rooms
// name a run that is over; a node cut off from NATS thus gives up all its
// rooms. Every node watches both buckets; a room is taken over when its
// node's key has not changed for Lease (counted from when the watcher
// received its last revision, so that the nodes' clocks need not agree),
// or when the room's key names a boot id its node's key does not (a run
// over, a room given up, a node gone) and has not changed for Lease. The
// room's key is then taken by an update that expects its revision: one
// node wins it, reads the room's journal, replays it
// (room.Manager.TakeOver) and serves it. The old owner stopped at least
// Lease/3 earlier; should it write to the journal anyway, one of the two
// writes is refused by the expected sequence, and the node refused gives
// the room up, writing its key again without a boot id for a later
// takeover.
//
// A node that stops closes its rooms first, then announces the rooms it
// gives up on ReleasedSubject and deletes its key: the other nodes take
// those rooms over at once, rather than when its key lapses.
//
// A room thus moves within Lease, a random wait of at most 300 ms and a
// replay of a node's death (docs/CLUSTER.md has the figures), and
// nothing its players saw acknowledged is lost: every acknowledged entry
// is in the stream before the new owner reads it, and the new owner's
// first entry (the restart, room.Manager.TakeOver) is refused if anything
// was written after what it read.
package cluster
