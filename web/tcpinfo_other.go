//go:build !linux

package web

import (
	"net"
	"time"
)

// kernelRTT reports that the kernel's round trip is not read here: only
// Linux's TCP_INFO is.
func kernelRTT(*net.TCPConn) (time.Duration, bool) { return 0, false }
