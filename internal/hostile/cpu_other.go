//go:build !unix

package hostile

import "time"

// cpuTime returns 0 where the processor time is not at hand.
func cpuTime() time.Duration { return 0 }
