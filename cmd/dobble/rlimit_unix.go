//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// raiseFileLimit makes sure the process may open n files, raising its
// limit (RLIMIT_NOFILE) when it is lower: the soft limit up to the hard
// one, and the hard one too when the process may (root). When it cannot,
// it returns the limit the process has, raised as far as it may be, and
// an error that says how to raise it.
func raiseFileLimit(n uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return n, fmt.Errorf("reading the open-file limit: %w", err)
	}
	if lim.Cur >= n {
		return lim.Cur, nil
	}
	want := syscall.Rlimit{Cur: n, Max: max(lim.Max, n)}
	err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want)
	if err == nil {
		return n, nil
	}
	have := lim.Cur
	if lim.Cur < lim.Max {
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: lim.Max, Max: lim.Max}) == nil {
			have = lim.Max
		}
	}
	return have, fmt.Errorf("need %d open files but the limit is %d (hard limit %d) and raising it failed (%v); raise it in the shell first (ulimit -n %d, as root for more than the hard limit)", n, have, lim.Max, err, n)
}
