//go:build !cgo

package metrics

// readDevices does nothing without cgo: there is no wgpu device.
func readDevices(map[string]Device) uint64 { return 0 }
