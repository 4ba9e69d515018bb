//go:build jsongen

package protocol

// Built with the tag jsongen, for the generator, the package encodes
// updates and refusals with encoding/json, as it does every other message.

func appendUpdate(b []byte, m *Update) []byte { return appendMessage(b, m) }

func appendRefused(b []byte, m *Refused) []byte { return appendMessage(b, m) }
