package wgpu

import (
	"sync"
	"weak"
)

// open is every device of the process not yet closed, weakly: a device the
// program drops without Close leaves it once collected.
var open struct {
	mu   sync.Mutex
	devs []weak.Pointer[Device]
}

// track adds d to the open devices; Open calls it.
func track(d *Device) {
	open.mu.Lock()
	defer open.mu.Unlock()
	open.devs = append(open.devs, weak.Make(d))
}

// Devices returns the devices of this process that are open: opened by
// [Open] and not closed. It is safe for concurrent use; a device closing
// meanwhile may be in the list.
func Devices() []*Device {
	open.mu.Lock()
	defer open.mu.Unlock()
	var out []*Device
	kept := open.devs[:0]
	for _, w := range open.devs {
		if d := w.Value(); d != nil && !d.closed.Load() {
			kept = append(kept, w)
			out = append(out, d)
		}
	}
	clear(open.devs[len(kept):])
	open.devs = kept
	return out
}

// reportUncaptured logs a WebGPU error raised outside any error scope on d
// to d's logger: the desktop's uncaptured-error callback
// (callbacks_native.go, which finds d from the callback's userdata) and
// the browser's uncapturederror handler (device_js.go) call it, after
// counting the error.
func (d *Device) reportUncaptured(typ ErrorType, message string) {
	d.logger().Error("wgpu: uncaptured WebGPU error", "type", typ.String(), "message", message, "device", uint64(d.id))
}
