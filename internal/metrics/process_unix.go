//go:build unix && !linux

package metrics

import (
	"syscall"
	"time"
)

// processNames returns the names of the families readProcess reads.
func processNames() []string { return []string{procCPU, procVirtMax, procMaxFDs} }

// readProcess reads the CPU time the process has used and the bounds on
// its resources, leaving out those it cannot read.
func readProcess() []processValue {
	var vs []processValue
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		vs = append(vs, processValue{procCPU, cpu.Seconds()})
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) == nil {
		vs = append(vs, processValue{procVirtMax, float64(lim.Cur)})
	}
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		vs = append(vs, processValue{procMaxFDs, float64(lim.Cur)})
	}
	return vs
}
