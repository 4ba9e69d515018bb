//go:build !unix

package metrics

// processNames returns the names of the families readProcess reads: none
// on this system.
func processNames() []string { return nil }

// readProcess reads nothing: the process's figures are not read on this
// system.
func readProcess() []processValue { return nil }
