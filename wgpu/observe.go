//go:build cgo

package wgpu

import (
	"sync"
	"weak"
)

// Counts returns the device's counts. It never blocks on a call in
// progress for longer than a map update and is safe to call at any time,
// also after Close (then the device holds nothing); the fields are not read
// at one instant.
func (d *Device) Counts() DeviceCounts {
	d.mu.Lock()
	buffers := len(d.buffers)
	d.mu.Unlock()
	return DeviceCounts{
		Compiles:         d.compiles.Load(),
		PipelinesCached:  d.pipelines.Size(),
		BuffersLive:      buffers,
		StreamsLive:      d.streams.Size(),
		UncapturedErrors: uncapturedErrors(),
	}
}

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
// to d's logger. native.go's uncaptured-error callback is to call it (with
// d found from the callback's userdata); until then such errors are only
// printed to standard error and counted.
func (d *Device) reportUncaptured(typ ErrorType, message string) {
	d.logger().Error("wgpu: uncaptured WebGPU error", "type", typ.String(), "message", message, "device", uint64(d.id))
}
