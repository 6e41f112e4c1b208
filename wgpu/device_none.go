//go:build !cgo && !(js && wasm)

package wgpu

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/streamgate/streamgate/gpu"
)

// This file is the package in a program built without cgo (CGO_ENABLED=0,
// or no C compiler): the same API, so code that compiles with cgo compiles
// without it, but no WebGPU. [Open] and [Adapters] return an error matching
// [ErrNoCgo] that says how to build with cgo; since no [Device] or [Buffer]
// can be made, their methods return that error or zero values.
// api_test.go checks that both builds export the same identifiers.

// noCgo returns the error every call of op returns in this build.
func noCgo(op string) error {
	return &Error{Op: op, Type: ErrorTypeNoCgo, Message: noCgoMessage}
}

// Device is one WebGPU device; in this build without cgo there is none:
// [Open] fails with [ErrNoCgo], and every method returns that error or a
// zero value. It is safe for concurrent use.
type Device struct{}

var (
	_ gpu.Service    = (*Device)(nil)
	_ gpu.GPUTimer   = (*Device)(nil)
	_ gpu.Identifier = (*Device)(nil)
)

// Open returns an error matching [ErrNoCgo]: this program was built without
// cgo, which WebGPU needs.
func Open(opts Options) (*Device, error) { return nil, noCgo("Open") }

// Adapters returns an error matching [ErrNoCgo]: this program was built
// without cgo, which WebGPU needs.
func Adapters() ([]AdapterInfo, error) { return nil, noCgo("Adapters") }

// SetLogLevel does nothing without cgo; it panics on an invalid level, as
// the cgo build does.
func SetLogLevel(l LogLevel) {
	if l > LogTrace {
		panic(fmt.Sprintf("wgpu: invalid LogLevel %d", l))
	}
}

// ServiceID returns 0.
func (d *Device) ServiceID() gpu.ServiceID { return 0 }

// Info returns the zero AdapterInfo.
func (d *Device) Info() AdapterInfo { return AdapterInfo{} }

// AdapterIdentity returns "".
func (d *Device) AdapterIdentity() string { return "" }

// Limits returns the zero Limits.
func (d *Device) Limits() Limits { return Limits{} }

// HasTimestamps returns false.
func (d *Device) HasTimestamps() bool { return false }

// Close returns nil: there is nothing to release.
func (d *Device) Close() error { return nil }

// CloseStream returns an error matching [ErrNoCgo].
func (d *Device) CloseStream(id gpu.StreamID) error { return noCgo("CloseStream") }

// Compile returns an error matching [ErrNoCgo].
func (d *Device) Compile(ctx context.Context, k *gpu.Kernel) error { return noCgo("Compile") }

// CompileAsync returns an error matching [ErrNoCgo].
func (d *Device) CompileAsync(ctx context.Context, k *gpu.Kernel) error {
	return noCgo("Compile")
}

// CompileWorkers returns 0.
func (d *Device) CompileWorkers() int { return 0 }

// CheckKernel returns an error matching [ErrNoCgo]; the package function
// [CheckKernel] needs no device and works in this build.
func (d *Device) CheckKernel(ctx context.Context, k *gpu.Kernel) (*KernelInfo, error) {
	return nil, noCgo("Check")
}

// Compiled returns false.
func (d *Device) Compiled(k *gpu.Kernel) bool { return false }

// Precompile returns an error matching [ErrNoCgo].
func (d *Device) Precompile(ctx context.Context, ks []*gpu.Kernel) error {
	return noCgo("Precompile")
}

// Launch returns an error matching [ErrNoCgo].
func (d *Device) Launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	return noCgo("Launch")
}

// Flush returns an error matching [ErrNoCgo].
func (d *Device) Flush(id gpu.StreamID) error { return noCgo("Flush") }

// Sync returns an error matching [ErrNoCgo].
func (d *Device) Sync(ctx context.Context, id gpu.StreamID) error { return noCgo("Sync") }

// NewBuffer returns an error matching [ErrNoCgo].
func (d *Device) NewBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	return nil, noCgo("NewBuffer")
}

// TimeStream returns an error matching [ErrNoCgo] and does not call fn.
func (d *Device) TimeStream(ctx context.Context, id gpu.StreamID, fn func() error) (time.Duration, error) {
	return 0, noCgo("TimeStream")
}

// Buffer is a device buffer; in this build without cgo there is none (see
// [Device]). It is safe for concurrent use.
type Buffer struct{}

var _ gpu.Buffer = (*Buffer)(nil)

// Size returns 0.
func (b *Buffer) Size() uint64 { return 0 }

// Usage returns 0.
func (b *Buffer) Usage() BufferUsage { return 0 }

// Device returns nil.
func (b *Buffer) Device() *Device { return nil }

// Release does nothing.
func (b *Buffer) Release() {}

// Devices returns nil: without cgo no device opens.
func Devices() []*Device { return nil }

// SetLogger does nothing without cgo: there is no driver to log.
func SetLogger(l *slog.Logger) {}

// Stats returns the zero Stats.
func (d *Device) Stats() Stats { return Stats{} }

// TempBuffer returns an error matching [ErrNoCgo].
func (d *Device) TempBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	return nil, noCgo("TempBuffer")
}

// CopyTo returns an error matching [ErrNoCgo].
func (b *Buffer) CopyTo(dst *Buffer, srcOff, dstOff, size uint64) error { return noCgo("CopyTo") }

// Clear returns an error matching [ErrNoCgo].
func (b *Buffer) Clear(offset, size uint64) error { return noCgo("Clear") }

// Recycle does nothing.
func (b *Buffer) Recycle() {}

// Write returns an error matching [ErrNoCgo].
func Write[T Numeric](b *Buffer, offset uint64, v []T) error { return noCgo("Write") }

// Read returns an error matching [ErrNoCgo].
func Read[T Numeric](ctx context.Context, b *Buffer, offset uint64, n int) ([]T, error) {
	return nil, noCgo("Read")
}

// ReadInto returns an error matching [ErrNoCgo].
func ReadInto[T Numeric](ctx context.Context, b *Buffer, offset uint64, dst []T) error {
	return noCgo("ReadInto")
}

// NewBufferFrom returns an error matching [ErrNoCgo].
func NewBufferFrom[T Numeric](d *Device, usage BufferUsage, v []T) (*Buffer, error) {
	return nil, noCgo("NewBufferFrom")
}

// Capture returns an error matching [ErrNoCgo].
func (d *Device) Capture(id gpu.StreamID) (gpu.GraphRecorder, error) { return nil, noCgo("Capture") }

// GraphRecorder records a graph; in this build there is none.
type GraphRecorder struct{}

// Launch returns an error matching [ErrNoCgo].
func (r *GraphRecorder) Launch(k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	return noCgo("Capture")
}

// Len returns 0.
func (r *GraphRecorder) Len() int { return 0 }

// Finish returns an error matching [ErrNoCgo].
func (r *GraphRecorder) Finish() (gpu.Graph, error) { return nil, noCgo("Capture") }

// Graph is a captured graph; in this build there is none.
type Graph struct{}

// ID returns 0.
func (g *Graph) ID() uint64 { return 0 }

// Len returns 0.
func (g *Graph) Len() int { return 0 }

// Stream returns 0.
func (g *Graph) Stream() gpu.StreamID { return 0 }

// Device returns nil.
func (g *Graph) Device() *Device { return nil }

// Check returns an error matching [ErrNoCgo].
func (g *Graph) Check() error { return noCgo("Replay") }

// Replay returns an error matching [ErrNoCgo].
func (g *Graph) Replay() error { return noCgo("Replay") }

// Release does nothing.
func (g *Graph) Release() {}

// String returns "graph".
func (g *Graph) String() string { return "graph" }
