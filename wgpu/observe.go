//go:build cgo

package wgpu

import (
	"sync"
	"weak"
)

// DeviceCounts are what a device holds and has done, as monitoring reads
// them (package metrics publishes them).
type DeviceCounts struct {
	// Compiles is [Device.Compiles]: pipeline builds started.
	Compiles int64
	// PipelinesCached is the compiled pipelines the device keeps.
	PipelinesCached int
	// BuffersLive is the buffers created and not released.
	BuffersLive int
	// StreamsLive is the streams with state on the device (launched on
	// and not closed).
	StreamsLive int
	// UncapturedErrors is how many WebGPU errors escaped every error scope
	// in this process, on any device: each is a bug in this package or the
	// driver. wgpu-native reports them without saying on which device.
	UncapturedErrors uint64
}

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
