//go:build !unix

package main

// raiseFileLimit does nothing where there is no open-file limit to raise.
func raiseFileLimit(n uint64) error { return nil }
