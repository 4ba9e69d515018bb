package metrics

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// userHZ is the unit of the times of /proc/self/stat: USER_HZ, 100 on
// every architecture Linux runs on.
const userHZ = 100

// processNames returns the names of the families readProcess reads.
func processNames() []string {
	return []string{procCPU, procResident, procVirtual, procVirtMax, procOpenFDs, procMaxFDs, procStart, procReceived, procSent}
}

// readProcess reads the process's figures from /proc/self and the bounds
// on its resources, leaving out those it cannot read.
func readProcess() []processValue {
	var vs []processValue
	if stat, err := os.ReadFile("/proc/self/stat"); err == nil {
		// The command's name, between parentheses, may hold spaces; the
		// fields after it start at the third, the state.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			f := bytes.Fields(stat[i+1:])
			field := func(n int) (float64, bool) { // the nth field of proc(5), from 1
				if n-3 >= len(f) {
					return 0, false
				}
				v, err := strconv.ParseUint(string(f[n-3]), 10, 64)
				return float64(v), err == nil
			}
			utime, ok1 := field(14)
			stime, ok2 := field(15)
			if ok1 && ok2 {
				vs = append(vs, processValue{procCPU, (utime + stime) / userHZ})
			}
			if rss, ok := field(24); ok {
				vs = append(vs, processValue{procResident, rss * float64(os.Getpagesize())})
			}
			if vsize, ok := field(23); ok {
				vs = append(vs, processValue{procVirtual, vsize})
			}
			if start, ok := field(22); ok {
				if boot, ok := bootTime(); ok {
					vs = append(vs, processValue{procStart, boot + start/userHZ})
				}
			}
		}
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) == nil {
		vs = append(vs, processValue{procVirtMax, float64(lim.Cur)})
	}
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		vs = append(vs, processValue{procMaxFDs, float64(lim.Cur)})
	}
	if d, err := os.Open("/proc/self/fd"); err == nil {
		names, err := d.Readdirnames(-1)
		d.Close()
		if err == nil {
			vs = append(vs, processValue{procOpenFDs, float64(len(names) - 1)}) // less the one read
		}
	}
	if rx, tx, ok := networkBytes(); ok {
		vs = append(vs, processValue{procReceived, rx}, processValue{procSent, tx})
	}
	return vs
}

// bootTime returns when the system started, in seconds since 1970, from
// the btime line of /proc/stat.
func bootTime() (float64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			v, err := strconv.ParseUint(string(bytes.TrimSpace(rest)), 10, 64)
			return float64(v), err == nil
		}
	}
	return 0, false
}

// networkBytes returns the bytes received and sent over every interface
// of the process's network namespace, from /proc/self/net/dev.
func networkBytes() (rx, tx float64, ok bool) {
	b, err := os.ReadFile("/proc/self/net/dev")
	if err != nil {
		return 0, 0, false
	}
	for line := range bytes.Lines(b) {
		_, counts, found := bytes.Cut(line, []byte(":"))
		if !found {
			continue // the two lines of headings
		}
		f := bytes.Fields(counts)
		if len(f) < 9 {
			return 0, 0, false
		}
		r, err1 := strconv.ParseUint(string(f[0]), 10, 64)
		t, err2 := strconv.ParseUint(string(f[8]), 10, 64)
		if err1 != nil || err2 != nil {
			return 0, 0, false
		}
		rx += float64(r)
		tx += float64(t)
	}
	return rx, tx, true
}
