package session

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
)

// The uses of a session's seed, each the label of a derivation of its own.
const (
	tableUse = "dobble table seed"
	botsUse  = "dobble bots seed"
)

// TableSeed returns the seed of table k (counting from 0 every table of
// the session, tie-breaks too; see Session.Table) of a session whose
// Config.Seed is seed: the seed its game is dealt with.
func TableSeed(seed uint64, k int) uint64 { return derive(seed, tableUse, k) }

// BotSeed returns the seed of the bots and the driver's other random
// choices at table k of a session whose Config.Seed is seed: drawn from
// the session's seed apart from the table's own, so that what the bots do
// tells nothing of the deal.
func BotSeed(seed uint64, k int) uint64 { return derive(seed, botsUse, k) }

// derive returns the first 64 bits of HMAC-SHA-256, keyed with seed, of
// use and k.
func derive(seed uint64, use string, k int) uint64 {
	var key [8]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	mac := hmac.New(sha256.New, key[:])
	mac.Write([]byte(use))
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(k))
	mac.Write(n[:])
	return binary.LittleEndian.Uint64(mac.Sum(nil))
}
