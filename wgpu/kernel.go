//go:build cgo

package wgpu

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
)

// pipeline is one kernel compiled on one device: the compute pipeline and
// the explicit layouts it was built with (implicit "auto" layouts leak one
// bind group layout per pipeline in wgpu-native 0.17).
type pipeline struct {
	done chan struct{} // closed when the compile finished, either way
	ok   atomic.Bool   // set when the compile succeeded, before done closes
	err  error         // written once, before done closes

	name     string           // written once: the kernel's String()
	bindings []Binding        // written once, before done closes: the entry point's, in (group, binding) order
	groups   []pipeGroup      // written once, before done closes: one per group index below the highest used
	layout   nPipelineLayout  // written once, before done closes
	pipe     nComputePipeline // written once, before done closes
}

// pipeGroup is one bind group index of a pipeline's layout.
type pipeGroup struct {
	lo, hi int       // bindings[lo:hi] are the group's; lo == hi for a group the entry point does not use
	binds  []Binding // bindings[lo:hi]
	name   string    // the pipeline's name, for the driver's labels and errors
	bgl    nBindGroupLayout
	// empty is the one bind group of a group without bindings, made with
	// the pipeline (WebGPU wants a bind group at every index of the
	// layout); zero for the others, whose bind groups are cached by buffers.
	empty nBindGroup
}

func (p *pipeline) release() {
	if p.pipe.ref != 0 {
		p.pipe.release()
		p.pipe = nComputePipeline{}
	}
	if p.layout.ref != 0 {
		p.layout.release()
		p.layout = nPipelineLayout{}
	}
	for i := range p.groups {
		g := &p.groups[i]
		if g.empty.ref != 0 {
			g.empty.release()
			g.empty = nBindGroup{}
		}
		if g.bgl.ref != 0 {
			g.bgl.release()
			g.bgl = nBindGroupLayout{}
		}
	}
}

// Compile compiles k now, or returns at once when it is already compiled.
// Concurrent calls for the same kernel (by [gpu.Kernel.Key]) compile it
// once; the others wait for that compile or for ctx. A failed compile is not
// cached: the error goes to the callers that waited for it, and a later call
// compiles again. Errors are [*Error]s with the driver's message (naga's
// diagnostic for invalid WGSL), or ctx.Err().
func (d *Device) Compile(ctx context.Context, k *gpu.Kernel) error {
	if k == nil {
		return newError("Compile", ErrorTypeInvalidArgument, "nil kernel")
	}
	_, err := d.pipelineFor(ctx, k)
	return err
}

// Compiled reports whether k is compiled on this device (false for nil). It never blocks on
// a compile in progress and never allocates. It returns false once the
// device is closed.
func (d *Device) Compiled(k *gpu.Kernel) bool {
	if k == nil {
		return false
	}
	// The slot of the index by kernel pointer first: one atomic load where
	// hashing the content key costs a discarded launch most of its time.
	if e := d.recent[kernelSlot(k)].Load(); e != nil && e.k == k {
		return !d.closed.Load()
	}
	p, ok := d.pipelines.Load(k.Key())
	return ok && p.ok.Load() && !d.closed.Load()
}

// Precompile compiles ks (a nil kernel is an error of its own), returning the errors of the failing kernels joined
// with errors.Join (nil when all compile). Kernels already compiled cost a
// lookup. It stops early only when ctx is done, adding ctx.Err().
func (d *Device) Precompile(ctx context.Context, ks []*gpu.Kernel) error {
	var errs []error
	for i, k := range ks {
		if k == nil {
			errs = append(errs, newError("Precompile", ErrorTypeInvalidArgument, "kernel %d is nil", i))
			continue
		}
		if _, err := d.pipelineFor(ctx, k); err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// pipelineFor returns k's compiled pipeline, compiling it (once across
// concurrent callers) if needed. It must be called without d.life held.
func (d *Device) pipelineFor(ctx context.Context, k *gpu.Kernel) (*pipeline, error) {
	if p := d.kernelPipeline(k); p != nil && !d.closed.Load() {
		return p, nil
	}
	key := k.Key()
	if p, ok := d.pipelines.Load(key); ok && p.ok.Load() {
		if d.closed.Load() {
			return nil, closedError("Compile")
		}
		d.indexKernel(k, p)
		return p, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if d.closed.Load() {
		return nil, closedError("Compile")
	}
	np := &pipeline{done: make(chan struct{}), name: label(k.String())}
	p, loaded := d.pipelines.LoadOrStore(key, np)
	if !loaded {
		d.build(np, k)
		if np.err == nil && !d.closed.Load() {
			d.indexKernel(k, np) // a later launch, or Compiled, finds it by pointer
		}
		return np, np.err
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if p.err != nil {
		return nil, p.err
	}
	return p, nil
}

// kernelEntry is one entry of a device's index by kernel pointer: a kernel
// and its compiled pipeline (p.ok set) on the device. It is immutable.
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

// kernelPipeline returns k's compiled pipeline if this very *gpu.Kernel was
// found on d before (see indexKernel), or nil. It never allocates. The
// caller checks d.closed.
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

// build compiles k into p and publishes the result. On failure it removes p
// from the cache so that a later call tries again.
func (d *Device) build(p *pipeline, k *gpu.Kernel) {
	defer close(p.done)
	if err := d.buildEntered(p, k); err != nil {
		p.err = err
		d.pipelines.Compute(k.Key(), func(old *pipeline, loaded bool) (*pipeline, bool) {
			return old, !loaded || old == p // delete p, keep any newer entry
		})
		return
	}
	p.ok.Store(true)
}

// buildEntered builds p inside d.enter; a failed build releases what it
// made.
func (d *Device) buildEntered(p *pipeline, k *gpu.Kernel) error {
	leave, err := d.enter("Compile")
	if err != nil {
		return err
	}
	defer leave()
	if err := d.buildLocked(p, k); err != nil {
		p.release()
		return err
	}
	return nil
}

func (d *Device) buildLocked(p *pipeline, k *gpu.Kernel) error {
	withKernel := func(err error) error {
		if e, ok := err.(*Error); ok {
			e.Op = "Compile"
			e.Message = k.String() + ": " + e.Message
		}
		return err
	}
	d.compiles.Add(1)
	ki, err := checkKernel(context.Background(), "Compile", k.Source(), k.Entry(), k.Constants(), d.limits)
	if err != nil {
		return withKernel(err)
	}
	p.bindings = ki.Bindings
	module, err := d.createShaderModule("Compile", label(k.Name()), ki.Lowered)
	if err != nil {
		return withKernel(driverRefused(err))
	}
	defer module.release()
	if err := d.buildGroups(p, k.Name()); err != nil {
		return withKernel(err)
	}
	bgls := make([]nBindGroupLayout, len(p.groups))
	for i := range p.groups {
		bgls[i] = p.groups[i].bgl
	}
	p.layout, err = d.createPipelineLayout("Compile", label(k.Name()), bgls)
	if err != nil {
		return withKernel(err)
	}
	p.pipe, err = d.createComputePipeline("Compile", label(k.Name()), p.layout, module, ki.LoweredName)
	if err != nil {
		return withKernel(driverRefused(err))
	}
	return nil
}

// driverRefused marks an error of the driver's shader compiler, which saw
// the lowered source, not the user's.
func driverRefused(err error) error {
	if e, ok := err.(*Error); ok && e.Type == ErrorTypeValidation {
		e.Message = "the driver's shader compiler (naga 0.13) refused the lowered source: " + e.Message
	}
	return err
}

// buildGroups makes one bind group layout per group index of p, from 0 to
// the highest group its bindings use, and a bind group for each index no
// binding uses.
func (d *Device) buildGroups(p *pipeline, name string) error {
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
		entries := make([]layoutEntry, 0, g.hi-g.lo)
		for _, b := range p.bindings[g.lo:g.hi] {
			// The layout's minimum size makes the driver check sizes when a
			// bind group is made, at Launch, besides Launch's own check.
			minBindingSize := b.MinSize
			if d.skipChecks {
				minBindingSize = 0 // tests: let a bad size reach the dispatch
			}
			entries = append(entries, layoutEntry{binding: b.Index, typ: b.Type, minSize: minBindingSize})
		}
		var err error
		if g.bgl, err = d.createBindGroupLayout("Compile", label(name), entries); err != nil {
			return err
		}
		if g.lo == g.hi {
			if g.empty, err = d.createBindGroup("Compile", label(name), g.bgl, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// label is a kernel's name as a driver label: valid UTF-8 without NULs (the
// driver panics on invalid UTF-8 and C would cut the name at a NUL).
func label(name string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(name, "\uFFFD"), "\x00", "\uFFFD")
}

// pause backs off a polling loop: yields first, then sleeps up to 1ms.
func pause(n int) {
	if n < 4 {
		runtime.Gosched()
		return
	}
	d := time.Duration(1<<min(n-4, 10)) * time.Microsecond
	time.Sleep(d)
}

// CheckKernel checks k as [Device.Compile] does, with this device's limits,
// without compiling it: see [CheckKernel] (the package function) for the
// checks and the result. The result's Bindings are what [Device.Launch]
// binds, in order.
func (d *Device) CheckKernel(ctx context.Context, k *gpu.Kernel) (*KernelInfo, error) {
	if k == nil {
		return nil, newError("Check", ErrorTypeInvalidArgument, "nil kernel")
	}
	if d.closed.Load() {
		return nil, closedError("Check")
	}
	return checkKernel(ctx, "Check", k.Source(), k.Entry(), k.Constants(), d.limits)
}
