package wgpu

import "time"

// SetLoweringTimeoutForTest sets the bound of one lowering for a test and
// returns the function that restores LoweringTimeout.
func SetLoweringTimeoutForTest(d time.Duration) (restore func()) {
	loweringTimeout.Store(int64(d))
	return func() { loweringTimeout.Store(int64(LoweringTimeout)) }
}
