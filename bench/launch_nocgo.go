//go:build !cgo

package bench

import "github.com/streamgate/streamgate/wgpu"

// LaunchEnv stands for the launch benchmarks' devices, which need cgo.
type LaunchEnv struct{}

// OpenLaunchEnv returns ErrNoCgo: without cgo there is no WebGPU device.
func OpenLaunchEnv(wgpu.Options) (*LaunchEnv, error) { return nil, ErrNoCgo }

// Close does nothing.
func (e *LaunchEnv) Close() {}

// LaunchSuite returns no cases without cgo.
func LaunchSuite(*LaunchEnv) []Case { return nil }

// Adapter returns "".
func (e *LaunchEnv) Adapter() string { return "" }
