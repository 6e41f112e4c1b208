//go:build cgo

package wgpu

// bufHandle is a Buffer's handle: the wgpu-native buffer.
type bufHandle = nBuffer

// newBufHandle creates the driver's buffer for [Device.NewBuffer].
func (d *Device) newBufHandle(op string, size uint64, usage BufferUsage) (bufHandle, error) {
	return d.createBuffer(op, "", size, usage)
}

// checkWebGPUUsage accepts every usage: wgpu-native validates the
// combination itself (the js build checks it before the browser does).
func checkWebGPUUsage(string, BufferUsage) error { return nil }

// dropBuffer releases a released buffer's handle.
func (d *Device) dropBuffer(h bufHandle) { h.release() }

// reuseSignal returns the status word the queue sets once the work
// submitted so far is done: a recycled buffer is handed out again only
// then (pool.go).
func (d *Device) reuseSignal() statusWord {
	st := newStatusWord()
	onSubmittedWorkDone(d.queue, st)
	return st
}
