//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// raiseFileLimit makes sure the process may open n files, raising its
// limit (RLIMIT_NOFILE) when it is lower: the soft limit up to the hard
// one, and the hard one too when the process may (root). It says what the
// limit is and how to raise it when it cannot.
func raiseFileLimit(n uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("reading the open-file limit: %w", err)
	}
	if lim.Cur >= n {
		return nil
	}
	want := syscall.Rlimit{Cur: n, Max: max(lim.Max, n)}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		return fmt.Errorf("needs %d open files but the limit is %d (hard limit %d) and raising it failed (%v); raise it in the shell first (ulimit -n %d, as root for more than the hard limit)", n, lim.Cur, lim.Max, err, n)
	}
	return nil
}
