//go:build !cgo && !(js && wasm)

package wgpu

import (
	"context"
	"sync"

	"github.com/streamgate/streamgate/gpu"
)

// The backend of a program built without cgo (CGO_ENABLED=0, or no C
// compiler) and not for a browser: the same API, so code that compiles
// with cgo compiles without it, but no WebGPU. [Open] and [Adapters]
// return an error matching [ErrNoCgo] that says how to build with cgo;
// since no [Device] can be made, every method of one (a nil *Device, the
// one Open returned) returns that error or a zero value. The backend's
// calls below are never reached.

// Open returns an error matching [ErrNoCgo]: this program was built without
// cgo, which WebGPU needs.
func Open(opts Options) (*Device, error) { return nil, noCgo("Open") }

// Adapters returns an error matching [ErrNoCgo]: this program was built
// without cgo, which WebGPU needs.
func Adapters() ([]AdapterInfo, error) { return nil, noCgo("Adapters") }

// haveDevice: this build opens no device.
const haveDevice = false

type (
	deviceDriver   struct{}
	streamDriver   struct{}
	pipelineDriver struct{}
	recorderDriver struct{}
	graphDriver    struct{}
	streamMutex    = sync.Mutex
	bufHandle      = int
	pipeHandle     = int
	bglHandle      = int
	bgHandle       = int
	statusWord     struct{}
	mapWord        = statusWord
)

// The backend's calls. No device opens in this build, so none is reached;
// each fails as Open did.

const (
	foregroundDriver       = true
	mapStatusSuccess int32 = 0
)

type queryHandle = int

func defaultCompileWorkers() int                 { return 1 }
func inCallback() bool                           { return false }
func setLogLevel(LogLevel)                       {}
func uncapturedErrors() uint64                   { return 0 }
func mapStatusName(int32) string                 { return "no device" }
func newMapWord() mapWord                        { return mapWord{} }
func checkWebGPUUsage(string, BufferUsage) error { return nil }

func (statusWord) load() int32          { return 0 }
func (statusWord) free()                {}
func (statusWord) abandon()             {}
func (w statusWord) status() statusWord { return w }
func (statusWord) err(op string) error  { return noCgo(op) }

func (d *Device) beforeClose()                                                {}
func (d *Device) drainQueue()                                                 {}
func (d *Device) closeDriver()                                                {}
func (d *Device) poll(op string, _ bool) error                                { return noCgo(op) }
func (d *Device) waitStatus(_ context.Context, op string, _ statusWord) error { return noCgo(op) }
func (d *Device) workDone(op string) (statusWord, error)                      { return statusWord{}, noCgo(op) }
func (d *Device) reuseSignal() statusWord                                     { return statusWord{} }
func (d *Device) newBufHandle(op string, _ uint64, _ BufferUsage) (bufHandle, error) {
	return 0, noCgo(op)
}
func (d *Device) newStagingHandle(op string, _ uint64) (bufHandle, error)     { return 0, noCgo(op) }
func (d *Device) dropBuffer(bufHandle)                                        {}
func (d *Device) queueWrite(op string, _ bufHandle, _ uint64, _ []byte) error { return noCgo(op) }
func (d *Device) submitCopy(op string, _ bufHandle, _ uint64, _ bufHandle, _, _ uint64) error {
	return noCgo(op)
}
func (d *Device) readStart(op string, _ bufHandle, _ uint64, _ bufHandle, _ uint64, _ mapWord) (bool, error) {
	return false, noCgo(op)
}
func (d *Device) readFinish(*staging, []byte) bool                               { return false }
func (d *Device) unmapStaging(*staging)                                          {}
func (d *Device) newBindGroup(op string, _ bgKey, _ []*Buffer) (bgHandle, error) { return 0, noCgo(op) }
func (d *Device) dropBindGroup(*bindGroup)                                       {}
func (d *Device) newBindGroupLayout(op, _ string, _ []Binding) (bglHandle, error) {
	return 0, noCgo(op)
}
func (d *Device) newEmptyBindGroup(op, _ string, _ bglHandle) (bgHandle, error) { return 0, noCgo(op) }
func (d *Device) buildDriver(_ *pipeline, _ *gpu.Kernel, publish func(error)) {
	publish(noCgo("Compile"))
}
func (d *Device) launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer, flatOnly bool) error {
	return d.launchSlow(id, k, workgroups, bindings, flatOnly)
}
func (d *Device) newTimestampQueries(op string) (queryHandle, bufHandle, error) {
	return 0, 0, noCgo(op)
}
func (d *Device) dropQueries(queryHandle, bufHandle) {}

func (p *pipeline) keepSource(*KernelInfo) {}
func (p *pipeline) release()               {}
func (p *pipeline) releaseFront()          {}
func (p *pipeline) releaseDriver()         {}

func (s *stream) flushLocked(op string) error { return noCgo(op) }
func (s *stream) discardLocked()              {}
func (s *stream) appendLaunchLocked(op string, _ *pipeline, _ []*Buffer, _ [3]uint32) error {
	return noCgo(op)
}
func (s *stream) replayLocked(op string, _ *Graph) error                           { return noCgo(op) }
func (s *stream) timestampLocked(op string, _ queryHandle, _ uint32) error         { return noCgo(op) }
func (s *stream) resolveQueriesLocked(op string, _ queryHandle, _ bufHandle) error { return noCgo(op) }

func (r *GraphRecorder) recordGroups(op string, _ *pipeline, _ []*Buffer) (int, error) {
	return 0, noCgo(op)
}
func (r *GraphRecorder) recordDispatch(int, *pipeline, [3]uint32) {}
func (r *GraphRecorder) waitPipelines(op string) error            { return noCgo(op) }
func (g *Graph) setDriver(op string, _ *GraphRecorder) error      { return noCgo(op) }
func (g *Graph) releaseDriver()                                   {}
