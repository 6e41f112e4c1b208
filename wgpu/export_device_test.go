//go:build cgo || (js && wasm)

package wgpu

import "github.com/streamgate/streamgate/gpu"

// Test hooks of the builds with a device (export_test.go has the
// desktop's own, export_js_test.go the browser's).

// ForgetRetired empties d's set of retired stream ids: the device then
// makes a stream's state anew for an id CloseStream retired, as it did
// before the set existed. It is the deliberately broken device a
// lifecycle checker is shown to catch; it exists only in this package's
// test build, and changes nothing a shipped program runs.
func ForgetRetired(d *Device) {
	d.retired.mu.Lock()
	defer d.retired.mu.Unlock()
	d.retired.words, d.retired.runs = nil, nil
}

// LaunchRecent records a launch on d's flat path for a repeated launch
// only, and reports whether it did (else it recorded nothing).
func LaunchRecent(d *Device, id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) bool {
	return d.launch(id, k, workgroups, bindings, true) == nil
}
