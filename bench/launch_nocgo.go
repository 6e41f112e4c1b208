//go:build !cgo

package bench

import "errors"

// LaunchEnv stands for the launch benchmarks' devices, which need cgo.
type LaunchEnv struct{}

// ErrNoCgo is what OpenLaunchEnv returns in a build without cgo.
var ErrNoCgo = errors.New("bench: the launch benchmarks need cgo (the wgpu package)")

// OpenLaunchEnv returns ErrNoCgo: without cgo there is no WebGPU device.
func OpenLaunchEnv() (*LaunchEnv, error) { return nil, ErrNoCgo }

// Close does nothing.
func (e *LaunchEnv) Close() {}

// LaunchSuite returns no cases without cgo.
func LaunchSuite(*LaunchEnv) []Case { return nil }
