package load

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// bindNoPort lets a socket bound to a source address pick its port only
// when it connects (IP_BIND_ADDRESS_NO_PORT), so that ports are shared
// across destinations and ports in TIME_WAIT from an earlier run can be
// reused, as for a socket that is not bound at all.
func bindNoPort(network, address string, c syscall.RawConn) error {
	var err error
	c.Control(func(fd uintptr) {
		err = unix.SetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_BIND_ADDRESS_NO_PORT, 1)
	})
	return err
}

// spreadSources reports whether the clients spread over several source
// addresses of 127.0.0.0/8, which Linux routes to the loopback interface.
const spreadSources = true
