//go:build js && wasm

package wgpu

// bufHandle is a Buffer's handle: the GPUBuffer's index in the device's
// JS table (0 names none).
type bufHandle = int

// newBufHandle creates the page's GPUBuffer for [Device.NewBuffer].
func (d *Device) newBufHandle(op string, size uint64, usage BufferUsage) (ref bufHandle, err error) {
	catchJS(op, &err, func() { ref = d.rt.newBuffer.Invoke(float64(size), int(usage)).Int() })
	return ref, err
}

// checkWebGPUUsage checks WebGPU's rule that BufferUsageMapRead goes only
// with BufferUsageCopyDst and BufferUsageMapWrite only with
// BufferUsageCopySrc, and that usage has no unknown bits: the browser
// would make an invalid buffer, and say so only later.
func checkWebGPUUsage(op string, usage BufferUsage) error {
	switch {
	case usage&BufferUsageMapRead != 0 && usage&^(BufferUsageMapRead|BufferUsageCopyDst) != 0:
		return newError(op, ErrorTypeValidation, "usage %v: WebGPU allows MapRead only with CopyDst", usage)
	case usage&BufferUsageMapWrite != 0 && usage&^(BufferUsageMapWrite|BufferUsageCopySrc) != 0:
		return newError(op, ErrorTypeValidation, "usage %v: WebGPU allows MapWrite only with CopySrc", usage)
	case usage >= 2*BufferUsageQueryResolve:
		return newError(op, ErrorTypeValidation, "usage %v has unknown bits", usage)
	}
	return nil
}

// dropBuffer destroys a released buffer's GPUBuffer (the browser does so
// once the work submitted with it is done).
func (d *Device) dropBuffer(ref bufHandle) { d.rt.destroy.Invoke(ref) }

// reuseSignal returns a word already set: in a browser a recycled buffer
// is ready at once, since every stream submits to the device's one queue,
// which runs work in order, so a launch recorded before the Recycle
// (submitted by it) runs before anything the next user submits.
func (d *Device) reuseSignal() statusWord { return readyWord }
