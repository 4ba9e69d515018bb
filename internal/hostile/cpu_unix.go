//go:build unix

package hostile

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time this process has used, user and
// system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
