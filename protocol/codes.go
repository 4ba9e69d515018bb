package protocol

import (
	"fmt"
	"slices"
	"strings"
)

// Version is the protocol version, the "v" of hello and welcome.
const Version = 1

// MaxFrame is the largest frame a client may send, in bytes; a larger one
// closes the connection with status 1009.
const MaxFrame = 4096

// MaxID is the longest "id" a request may carry, in bytes.
const MaxID = 64

// MaxNonce is the longest "nonce" of a ping, in bytes of JSON.
const MaxNonce = 128

// MaxName is the longest nickname, in characters.
const MaxName = 24

// Languages are the accepted values of hello's "lang"; the first is the
// default.
var Languages = []string{"en", "pl", "da", "ru", "zh", "it"}

// The codes of an "error" message. A refused action is not an error: its
// "refused" message carries the rules' code (rules.Code).
const (
	// CodeBadMessage: not JSON, not an object, an unknown type, a field
	// missing or of the wrong type.
	CodeBadMessage = "badMessage"
	// CodeBadRequest: a well-formed request with a bad value.
	CodeBadRequest = "badRequest"
	// CodeNoRoom: no open room has that code.
	CodeNoRoom = "noRoom"
	// CodeRoomFull: the room has no free seat.
	CodeRoomFull = "roomFull"
	// CodeNotAllowed: the request needs a role the connection does not
	// have, or the room is in the wrong phase.
	CodeNotAllowed = "notAllowed"
	// CodeBadToken: resume with a token that holds no seat.
	CodeBadToken = "badToken"
	// CodeRateLimited: too many messages.
	CodeRateLimited = "rateLimited"
	// CodeBusy: the room's input queue is full; the request was dropped.
	CodeBusy = "busy"
	// CodeFull: the server has its most rooms open.
	CodeFull = "serverFull"
)

// Error is a request that cannot be served: the code and the message of
// the "error" message that answers it.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an Error of the given code, its message formatted.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CheckHello checks what hello says beyond its shape: the protocol
// version, the nickname and the language. It returns the nickname
// trimmed, and the language ("en" when none was given).
func CheckHello(r *Request) (name, lang string, err *Error) {
	if r.V != Version {
		return "", "", Errorf(CodeBadRequest, "protocol version %d; this server speaks version %d", r.V, Version)
	}
	name, err = cleanName(r.Name)
	if err != nil {
		return "", "", err
	}
	lang = r.Lang
	if lang == "" {
		lang = Languages[0]
	}
	if !slices.Contains(Languages, lang) {
		return "", "", Errorf(CodeBadRequest, "language %q; use one of %s", r.Lang, strings.Join(Languages, " "))
	}
	return name, lang, nil
}
