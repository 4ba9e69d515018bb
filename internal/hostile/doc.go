// Package hostile measures how a dobble server stands up to hostile
// clients: the attacks docs/SECURITY.md guards against, each run against a real `dobble serve` process beside a
// normal room of people playing the Tower.
//
// For every kind of attack Run starts its own server (the dobble binary,
// its own SQLite file in a temporary folder, a free loopback port, the
// default limits unless told otherwise), seats a normal room through
// package load (people-like clients that play after a reaction time and
// time every action from its sending to the update that settles it), and
// once that room plays, runs the attack for a fixed span from another
// loopback source address (127.0.0.2), while a newcomer (127.0.0.3) tries
// to open a room of its own every second. Throughout, it samples the
// server's resident memory (/proc/PID/status) and its /metrics, and kills
// the server when its memory passes a cap, so that an attack that makes
// the server grow without bound cannot take the machine with it.
//
// A Result says, for one kind: what the attack did and what of it the
// server still held at the end of the span, how the normal room played
// (its actions and the p50 and p99 of action → update), whether the
// newcomer could open rooms, the server's memory at the start, peak and
// end of the span and its processor time, whether it stayed up, and
// whether the attack's resource was bounded. `scripts/bench-hostile` runs
// every kind through cmd/hostile and writes the figures into
// docs/BENCHMARKS.md.
//
// The attacker runs on the same machine as the server: the attacks that
// cost processor time (ping and message floods, endless spellings) take
// it from the server and from the normal room alike, as a client on the
// same host would.
package hostile
