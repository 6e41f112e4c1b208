//go:build cgo

package wgpu

// Test hooks of the buffer pools.

// StagingDraining returns how many staging buffers of cancelled read-backs
// wait for their map callback.
func StagingDraining(d *Device) int {
	d.stageMu.Lock()
	defer d.stageMu.Unlock()
	return len(d.staging.draining)
}
