//go:build cgo

package wgpu

import (
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/internal/lower"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// Test hooks.

// HubReport is wgpu-native's count of live objects, for the leak test.
type HubReport = hubReport

// CloseWithReport closes d and returns wgpu-native's object report taken
// after every object but the device itself was released.
func CloseWithReport(d *Device) (HubReport, error) {
	var r hubReport
	d.closeHook = func(d *Device) { r = generateReport(d.inst, d.info.Backend) }
	err := d.Close()
	return r, err
}

// Report returns wgpu-native's object report for d's instance now.
func Report(d *Device) HubReport { return generateReport(d.inst, d.info.Backend) }

// UncapturedErrors returns how many WebGPU errors escaped every error scope.
func UncapturedErrors() uint64 { return uncapturedErrors() }

// Pending returns how many dispatches stream id has recorded and not yet
// submitted.
func Pending(d *Device, id uint64) int {
	s, ok := d.streams.Load(gpu.StreamID(id))
	if !ok {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.launches
}

// Streams returns how many streams d keeps state for.
func Streams(d *Device) int { return d.streams.Size() }

// Users returns how many streams have pending work that binds b.
func Users(b *Buffer) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.users)
}

// SkipLaunchChecks makes d's Launch skip the size and usage checks of the
// WGSL front-end, so that a bad binding reaches the driver and the stream's
// isolation of rejected launches can be tested.
func SkipLaunchChecks(d *Device) { d.skipChecks = true }

// LiveStatusWords returns how many C status words are allocated.
func LiveStatusWords() int64 { return liveStatusWords() }

// RaiseUncaptured raises a validation error outside every error scope on
// b's device: it unmaps b, which is not mapped.
func RaiseUncaptured(b *Buffer) {
	leave, err := b.d.enter("test")
	if err != nil {
		return
	}
	defer leave()
	unmapUnscoped(b.buf)
}

// BindOverridesForTest is the source the driver's lowering starts from:
// src with its overrides turned into consts holding constants' values (the
// source unchanged when it does not parse or bind).
func BindOverridesForTest(src string, constants map[string]float64) string {
	m, err := wgsl.Parse(src, wgsl.Limits{})
	if err != nil {
		return src
	}
	if changed, err := lower.BindOverrides(m, constants); err != nil || !changed {
		return src
	}
	return wgsl.Sprint(m.File)
}

// BindGroups is how many bind groups the device caches.
func BindGroups(d *Device) int {
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	return len(d.bindGroups)
}

// KernelIndexMin is the size the index by kernel pointer may reach before it
// is emptied.
const KernelIndexMin = kernelIndexMin

// KernelsIndexed returns how many kernels d's index by kernel pointer holds.
func KernelsIndexed(d *Device) int { return d.byKernel.Size() }

// SetRecentHook sets the function the flat path for a repeated launch
// runs between a group's liveness check and its record (nil: none) and returns a func
// that clears it. Set it before any launch of the test and clear it after
// the last: it is read without synchronization.
func SetRecentHook(f func()) (clear func()) {
	recentHook = f
	return func() { recentHook = nil }
}
