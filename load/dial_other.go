//go:build !linux

package load

import "syscall"

// bindNoPort is set on Linux only.
var bindNoPort func(network, address string, c syscall.RawConn) error

// spreadSources reports whether the clients spread over several source
// addresses: only on Linux, which routes all of 127.0.0.0/8 to the
// loopback interface.
const spreadSources = false
