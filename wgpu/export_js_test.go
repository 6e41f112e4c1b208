//go:build js && wasm

package wgpu

import "github.com/streamgate/streamgate/gpu"

// Test hooks of the js build (export_test.go has the desktop's).

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
// WGSL front-end, so that a bad binding reaches the browser.
func SkipLaunchChecks(d *Device) { d.skipChecks = true }

// BindGroups is how many bind groups the device caches.
func BindGroups(d *Device) int {
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	return len(d.bindGroups)
}

// KernelsIndexed returns how many kernels d's index by kernel pointer holds.
func KernelsIndexed(d *Device) int { return d.byKernel.Size() }

// UncapturedErrors returns how many WebGPU errors escaped every error scope.
func UncapturedErrors() uint64 { return uncapturedTotal.Load() }

// KernelIndexMin is the size the index by kernel pointer may reach before it
// is emptied.
const KernelIndexMin = kernelIndexMin
