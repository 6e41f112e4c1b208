package wgpu

import (
	"context"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
)

// A kernel's compile entry points, its pipeline's group layout and the
// index by kernel pointer (compile.go builds the pipelines; the backend's
// driver half is kernel_native.go's or kernel_js.go's).

var _ gpu.AsyncCompiler = (*Device)(nil)

// pipeline is one kernel compiled on one device, built in two halves: the
// front half checks and lowers the source and makes the bind group layouts
// (what a launch's checks and its bind groups need); the driver half (the
// browser's, in js) makes the shader module, the pipeline layout and the
// compute pipeline. See compile.go, and each backend's kernel_native.go or kernel_js.go.
type pipeline struct {
	front chan struct{} // closed when the front half finished, either way
	done  chan struct{} // closed when the compile finished, either way
	ok    atomic.Bool   // set when the compile succeeded, before done closes
	err   error         // written once, before done closes

	// frontErr is the front half's error, written once before front
	// closes; when it is set, err is too and done closes with front.
	frontErr error

	name     string      // written once: the kernel's String()
	bindings []Binding   // written once, before front closes: the entry point's, in (group, binding) order
	groups   []pipeGroup // written once, before front closes: one per group index below the highest used
	pipe     pipeHandle  // written once, before done closes
	entry    string      // written before front closes: the entry point's name in the lowered source

	pipelineDriver // the build's own: what its driver half compiles
}

// pipeGroup is one bind group index of a pipeline's layout.
type pipeGroup struct {
	lo, hi int       // bindings[lo:hi] are the group's; lo == hi for a group the entry point does not use
	binds  []Binding // bindings[lo:hi]
	name   string    // the pipeline's name, for the driver's labels and errors
	bgl    bglHandle
	// empty is the one bind group of a group without bindings, made with
	// the pipeline (WebGPU wants a bind group at every index of the
	// layout); zero for the others, whose bind groups are cached by buffers.
	empty bgHandle
}

// awaitFront waits until p's front half is made, by this caller's compile
// or another's, and returns its error, or ctx.Err() when ctx is done first.
func (p *pipeline) awaitFront(ctx context.Context) error {
	select {
	case <-p.front:
	case <-ctx.Done():
		return ctx.Err()
	}
	return p.frontErr
}

// splitGroups makes p.groups from p.bindings: one group per index from 0
// to the highest its bindings use, each with its bindings. The builds
// make the groups' layouts.
func (p *pipeline) splitGroups() {
	n := 0
	if len(p.bindings) > 0 {
		n = int(p.bindings[len(p.bindings)-1].Group) + 1
	}
	p.groups = make([]pipeGroup, n)
	at := 0
	for gi := range p.groups {
		g := &p.groups[gi]
		g.lo = at
		for at < len(p.bindings) && p.bindings[at].Group == uint32(gi) {
			at++
		}
		g.hi = at
		g.binds, g.name = p.bindings[g.lo:g.hi], p.name
	}
}

// layoutMinSize is b's minimum binding size in its group's layout. The
// layout's minimum size makes the driver check sizes when a bind group is
// made, at Launch, besides Launch's own check.
func (d *Device) layoutMinSize(b Binding) uint64 {
	if d.skipChecks {
		return 0 // tests: let a bad size reach the dispatch
	}
	return b.MinSize
}

// Compile compiles k now, or returns at once when it is already compiled.
// Concurrent calls for the same kernel (by [gpu.Kernel.Key]) compile it
// once; the others wait for that compile or for ctx. A failed compile is not
// cached: the error goes to the callers that waited for it, and a later call
// compiles again. Errors are [*Error]s with the driver's message (naga's
// diagnostic for invalid WGSL), or ctx.Err(). In a browser Compile waits
// for the browser's compiler: call it from a goroutine, not inside a
// js.FuncOf callback (there it returns an error); the browser's
// compilation messages are of type [ErrorTypeValidation] at the user's
// line and column.
func (d *Device) Compile(ctx context.Context, k *gpu.Kernel) error {
	if k == nil {
		return newError("Compile", ErrorTypeInvalidArgument, "nil kernel")
	}
	_, err := d.pipelineFor(ctx, k)
	return err
}

// CompileAsync compiles k as [Device.Compile] does, but returns once k's
// source is checked and lowered, with the errors of those checks (every
// error of Compile but the driver's refusal of the lowered source, or a
// Close meanwhile), and leaves the rest of the compile — the driver's, the
// larger part — running on the device's compile workers
// ([Options].CompileWorkers). [Device.Compiled] reports k compiled once that
// finished; Compile, Precompile or a launch of k waits for it and returns
// its error. It implements [gpu.AsyncCompiler]: under CompileAndAutotune
// package client compiles a discarded launch's kernel this way, and waits
// for the driver at the next Sync. In a browser the rest is the browser's
// compile, which a goroutine awaits.
func (d *Device) CompileAsync(ctx context.Context, k *gpu.Kernel) error {
	if k == nil {
		return newError("Compile", ErrorTypeInvalidArgument, "nil kernel")
	}
	_, err := d.frontFor(ctx, k)
	return err
}

// CheckKernel checks k as [Device.Compile] does, with this device's limits,
// without compiling it: see [CheckKernel] (the package function) for the
// checks and the result. The result's Bindings are what [Device.Launch]
// binds, in order.
func (d *Device) CheckKernel(ctx context.Context, k *gpu.Kernel) (*KernelInfo, error) {
	if d == nil {
		return nil, nilDeviceError("Check")
	}
	if k == nil {
		return nil, newError("Check", ErrorTypeInvalidArgument, "nil kernel")
	}
	if d.closed.Load() {
		return nil, closedError("Check")
	}
	return checkKernel(ctx, "Check", k.Source(), k.Entry(), k.Constants(), d.limits)
}

func newPipeline(k *gpu.Kernel) *pipeline {
	return &pipeline{front: make(chan struct{}), done: make(chan struct{}), name: label(k.String())}
}

// label is a kernel's name as a driver label (desktop) or a GPU object's label (js): valid UTF-8 without NULs (the
// driver panics on invalid UTF-8 and C would cut the name at a NUL).
func label(name string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(name, "\uFFFD"), "\x00", "\uFFFD")
}

// withKernel names k in a compile's error.
func withKernel(k *gpu.Kernel, err error) error {
	if e, ok := err.(*Error); ok {
		e.Op = "Compile"
		e.Message = k.String() + ": " + e.Message
	}
	return err
}

// kernelEntry is one entry of a device's index by kernel pointer: a kernel
// and its pipeline on the device. It is immutable.
type kernelEntry struct {
	k *gpu.Kernel
	p *pipeline
}

// The index by kernel pointer: a map from each kernel found on the device to
// its entry (Device.byKernel), in front of it a direct-mapped cache of the
// entries found last (Device.recent, slot by kernelSlot). A launch of a
// kernel in the cache costs one atomic load, as long as a loop keeps its
// kernels few and their slots apart; a slot's other kernels cost a lookup
// in the map, which takes the slot over. The cache by content key
// (Device.pipelines) stays the truth: the index only saves hashing the key.
const (
	kernelSlotBits = 8
	kernelSlots    = 1 << kernelSlotBits

	// kernelIndexMin is how many entries the map may hold before
	// indexKernel empties it (see there).
	kernelIndexMin = 1024
)

// kernelSlot returns k's slot in Device.recent: Fibonacci hashing of k's
// address (the garbage collector does not move heap objects, and a slot
// holds its kernel, so the address stays k's).
func kernelSlot(k *gpu.Kernel) uint {
	return uint(uint64(uintptr(unsafe.Pointer(k))) * 0x9E3779B97F4A7C15 >> (64 - kernelSlotBits))
}

// kernelPipeline returns k's pipeline if this very *gpu.Kernel was found
// on d before (see indexKernel), or nil. It never allocates. The caller
// checks d.closed.
func (d *Device) kernelPipeline(k *gpu.Kernel) *pipeline {
	slot := &d.recent[kernelSlot(k)]
	if e := slot.Load(); e != nil && e.k == k {
		return e.p
	}
	if e, ok := d.byKernel.Load(k); ok {
		slot.Store(e)
		return e.p
	}
	return nil
}

// indexKernel records p, compiled, as k's pipeline in the index by kernel
// pointer. The map keeps its kernels reachable, so it is bounded: once it
// holds kernelIndexMin entries and twice as many as there are pipelines (a
// program that makes its kernels anew, WithConstants per step say), it is
// emptied and refills from the launches that follow.
func (d *Device) indexKernel(k *gpu.Kernel, p *pipeline) {
	if n := d.byKernel.Size(); n >= kernelIndexMin && n >= 2*d.pipelines.Size() {
		d.byKernel.Clear()
	}
	e := &kernelEntry{k: k, p: p}
	d.byKernel.Store(k, e)
	d.recent[kernelSlot(k)].Store(e)
}
