//go:build unix

package bench

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time, user and system, every thread of the
// process has used so far — the Go code's, the driver's and, on lavapipe,
// the "GPU"'s worker threads' — and true.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
