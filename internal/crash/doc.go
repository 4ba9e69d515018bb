// Package crash is the crash test of docs/RELIABILITY.md: nothing a player
// saw accepted is ever lost, whether the server crashes, is killed or is
// restarted for a deploy. It plays
// rooms of people against a real `dobble serve` process, kills the
// process with SIGKILL at random moments and starts it again on the same
// database and port, and checks that no player lost anything it had seen
// acknowledged.
//
// Run builds nothing: it is given the dobble binary (Build makes one).
// It starts the server on a free loopback port with its SQLite file in a
// folder of its own, and fills the rooms of every Play through package
// load, whose clients play as people do and, with load.Config.Resume,
// come back after a drop: they dial again, say hello and resume their
// seat with its token. Every state and update each client is sent goes
// to the harness (load.Config.Watch) with fingerprints of the bytes the
// server wrote. Then, Kills times: a wait drawn from the seeded source,
// a SIGKILL, a restart on the same file and port, the server's count of
// the rooms it restored (from /metrics), and a wait until every player is
// back in play or has given up. After the last kill every room plays its
// game to the end; the server is restarted once more with SIGTERM, as a
// deploy does, the players come back, the load ends and the server stops.
//
// The check reads the finished games from the database (the load's rooms
// are private, so their games are in no public list) and knows its rooms'
// games by their players' nicknames. Every version of every table up to
// the highest any client saw was acknowledged. Each acknowledged action
// must be where it was: each resumed table at or past what its client
// had seen (the same view at the same version); each finished table's
// record holding, at every version a client saw, the very update the
// server writes for the record's action (events and view, as that seat
// sees them), and every table sent at its start or on a resume one that
// the record held at its version; and each table still in play at the
// end at or past every version seen of it before the last restart. The
// Result counts the kills, the rooms restored and the players back after
// each restart, the failures to resume by error code, the acknowledged
// actions and those lost, and the time from a restart to every player
// back in play (p50, p99). TestCrash runs it (10 kills with -short, 100
// without); scripts/bench-crash writes its figures into
// docs/RELIABILITY.md.
//
// With Options.Nodes the server is a cluster: that many nodes of dobble
// serve on a NATS server with JetStream that Run starts and a PostgreSQL
// schema it makes and drops, the players of each room joined through
// different nodes. Each kill ends one node drawn at random, started again
// at once; the wait is for every player that dropped to be back in play
// and every other to be sent something since, its room playing on. At the
// end every node is killed at once and started again, so that every room
// is taken over from its journal before the check, which reads the
// finished games from PostgreSQL. TestCrashCluster runs it (10 kills of
// one node with -short, 30 without).
package crash
