// Package clientplay is how a program playing dobble over the WebSocket
// protocol of docs/PROTOCOL.md reads the views the server sends it: a
// small JSON Scanner that reads a rules.View in place, without
// allocating and reusing the lists of the view read before, for the
// messages that come by the thousand a second. A program then plays from
// the views with the game's rules.Player, as the load tool's clients do.
package clientplay
