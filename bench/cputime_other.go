//go:build !unix

package bench

import "time"

// processCPU returns false: the process's CPU time is read on unix only.
func processCPU() (time.Duration, bool) { return 0, false }
