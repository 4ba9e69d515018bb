package web

import (
	"net"
	"time"

	"golang.org/x/sys/unix"
)

// kernelRTT returns the smoothed round trip the kernel measures for tc
// (TCP_INFO), once it has measured one.
func kernelRTT(tc *net.TCPConn) (time.Duration, bool) {
	rc, err := tc.SyscallConn()
	if err != nil {
		return 0, false
	}
	var info *unix.TCPInfo
	var ierr error
	if err := rc.Control(func(fd uintptr) { info, ierr = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO) }); err != nil || ierr != nil {
		return 0, false
	}
	if info.Rtt == 0 {
		return 0, false
	}
	return time.Duration(info.Rtt) * time.Microsecond, true
}
