//go:build js && wasm

package wgpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/internal/lower"
)

// pipeline is one kernel compiled on one device, in two halves as in the
// desktop build: the front half (the front-end's checks, the bindings and
// the explicit bind group layouts, made at once) and the browser's half
// (the shader module, its compilation info and the compute pipeline, made
// by promises a goroutine awaits).
type pipeline struct {
	front    chan struct{} // closed when the front half finished, either way
	done     chan struct{} // closed when the compile finished, either way
	ok       atomic.Bool
	err      error // written once, before done closes
	frontErr error // written once, before front closes

	name     string      // written once: the kernel's String()
	bindings []Binding   // written before front closes
	groups   []pipeGroup // written before front closes
	pipe     int         // written before done closes: the GPUComputePipeline's index in the JS table

	source string       // written before front closes: what the browser compiles
	entry  string       // written before front closes
	bound  *lower.Bound // written before front closes: maps the browser's positions to the user's
}

// pipeGroup is one bind group index of a pipeline's layout.
type pipeGroup struct {
	lo, hi int
	binds  []Binding
	name   string
	bgl    int // the GPUBindGroupLayout's index
	empty  int // a group without bindings: its one bind group's index
}

func newPipeline(k *gpu.Kernel) *pipeline {
	return &pipeline{front: make(chan struct{}), done: make(chan struct{}), name: label(k.String())}
}

// label is a kernel's name as a label: valid UTF-8 without NULs.
func label(name string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(name, "\uFFFD"), "\x00", "\uFFFD")
}

var _ gpu.AsyncCompiler = (*Device)(nil)

// Compile compiles k now, or returns at once when it is compiled. It
// waits for the browser's compiler: call it from a goroutine, not inside a
// js.FuncOf callback (there it returns an error). Concurrent calls for
// the same kernel compile it once. Errors are [*Error]s: the front-end's,
// or the browser's compilation messages, of type [ErrorTypeValidation]
// at the user's line and column; or ctx.Err().
func (d *Device) Compile(ctx context.Context, k *gpu.Kernel) error {
	if k == nil {
		return newError("Compile", ErrorTypeInvalidArgument, "nil kernel")
	}
	_, err := d.pipelineFor(ctx, k)
	return err
}

// CompileAsync checks k and makes its bind group layouts, returning those
// checks' errors, and leaves the browser's compile running; [Device.Compiled]
// reports k compiled once it finished, and Compile or a launch of k waits
// for it.
func (d *Device) CompileAsync(ctx context.Context, k *gpu.Kernel) error {
	if k == nil {
		return newError("Compile", ErrorTypeInvalidArgument, "nil kernel")
	}
	_, err := d.frontFor(ctx, k)
	return err
}

// Compiled reports whether k is compiled on this device. It never blocks.
func (d *Device) Compiled(k *gpu.Kernel) bool {
	if k == nil || d.closed.Load() {
		return false
	}
	if p := d.kernelPipeline(k); p != nil {
		return p.ok.Load()
	}
	p, ok := d.pipelines.Load(k.Key())
	return ok && p.ok.Load()
}

// Precompile compiles ks one after another, in order (the browser
// compiles in its own threads; the page has one), returning the failing
// kernels' errors joined; when ctx is done it stops, and ctx.Err() is
// added.
func (d *Device) Precompile(ctx context.Context, ks []*gpu.Kernel) error {
	var errs []error
	for i, k := range ks {
		if k == nil {
			errs = append(errs, newError("Precompile", ErrorTypeInvalidArgument, "kernel %d is nil", i))
			continue
		}
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		if _, err := d.pipelineFor(ctx, k); err != nil {
			if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
				errs = append(errs, cerr)
				break
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// CheckKernel checks k as [Device.Compile] does, with this device's
// limits, without compiling it.
func (d *Device) CheckKernel(ctx context.Context, k *gpu.Kernel) (*KernelInfo, error) {
	if k == nil {
		return nil, newError("Check", ErrorTypeInvalidArgument, "nil kernel")
	}
	if d.closed.Load() {
		return nil, closedError("Check")
	}
	return checkKernel(ctx, "Check", k.Source(), k.Entry(), k.Constants(), d.limits)
}

// pipelineFor returns k's compiled pipeline, compiling it if needed.
func (d *Device) pipelineFor(ctx context.Context, k *gpu.Kernel) (*pipeline, error) {
	if p := d.kernelPipeline(k); p != nil && p.ok.Load() && !d.closed.Load() {
		return p, nil
	}
	p, err := d.frontFor(ctx, k)
	if err != nil {
		return nil, err
	}
	select {
	case <-p.done:
	default:
		if inCallback() {
			return nil, callbackError("Compile")
		}
		select {
		case <-p.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return p, nil
}

// frontFor returns k's pipeline once its front half is made, starting its
// compile (once across callers) if needed; the browser's half may still
// run.
func (d *Device) frontFor(ctx context.Context, k *gpu.Kernel) (*pipeline, error) {
	if d.closed.Load() {
		return nil, closedError("Compile")
	}
	if p, ok := d.byKernel.Load(k); ok && p.frontErr == nil {
		select {
		case <-p.front:
			return p, nil
		default:
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := k.Key()
	np := newPipeline(k)
	p, loaded := d.pipelines.LoadOrStore(key, np)
	if !loaded {
		d.compiles.Add(1)
		start := time.Now()
		if err := d.buildFront(np, k); err != nil {
			np.err, np.frontErr = err, err
			d.uncache(np, k)
			close(np.front)
			close(np.done)
			d.compileNanos.Add(int64(time.Since(start)))
			return nil, err
		}
		close(np.front)
		d.indexKernel(k, np)
		d.drivers.Add(1)
		go d.buildDriver(np, k, start)
		return np, nil
	}
	select {
	case <-p.front:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if p.frontErr != nil {
		return nil, p.frontErr
	}
	d.indexKernel(k, p)
	return p, nil
}

// kernelIndexMin is how many entries the index by kernel pointer may hold
// before indexKernel empties it.
const kernelIndexMin = 1024

// indexKernel records p as k's pipeline in the index by kernel pointer,
// which a launch reads before hashing k's content key. The index keeps its
// kernels reachable, so it is bounded as the desktop build's: once it
// holds kernelIndexMin entries and twice as many as there are pipelines,
// it is emptied and refills from the launches that follow.
func (d *Device) indexKernel(k *gpu.Kernel, p *pipeline) {
	if n := d.byKernel.Size(); n >= kernelIndexMin && n >= 2*d.pipelines.Size() {
		d.byKernel.Clear()
	}
	d.byKernel.Store(k, p)
	d.recent[kernelSlot(k)].Store(&kernelEntry{k: k, p: p})
}

// kernelEntry is one slot of the direct-mapped cache in front of the index
// by kernel pointer (Device.recent): immutable.
type kernelEntry struct {
	k *gpu.Kernel
	p *pipeline
}

// kernelSlots is the size of Device.recent.
const (
	kernelSlotBits = 8
	kernelSlots    = 1 << kernelSlotBits
)

// kernelSlot returns k's slot in Device.recent: Fibonacci hashing of k's
// address (the garbage collector does not move heap objects).
func kernelSlot(k *gpu.Kernel) uint {
	return uint(uint64(uintptr(unsafe.Pointer(k))) * 0x9E3779B97F4A7C15 >> (64 - kernelSlotBits))
}

// kernelPipeline returns k's compiled pipeline when the launch path found
// it before, or nil: one atomic load when k is in its slot, where hashing
// for the map costs a launch in the page most of its time.
func (d *Device) kernelPipeline(k *gpu.Kernel) *pipeline {
	slot := &d.recent[kernelSlot(k)]
	if e := slot.Load(); e != nil && e.k == k {
		return e.p
	}
	if p, ok := d.byKernel.Load(k); ok {
		slot.Store(&kernelEntry{k: k, p: p})
		return p
	}
	return nil
}

// uncache removes p, failed, from the cache, keeping any newer entry.
func (d *Device) uncache(p *pipeline, k *gpu.Kernel) {
	d.pipelines.Compute(k.Key(), func(old *pipeline, loaded bool) (*pipeline, bool) {
		return old, !loaded || old == p
	})
	d.byKernel.Compute(k, func(old *pipeline, loaded bool) (*pipeline, bool) {
		return old, !loaded || old == p
	})
	if slot := &d.recent[kernelSlot(k)]; slot.Load() != nil && slot.Load().p == p {
		slot.Store(nil)
	}
}

// withKernel names k in a compile's error.
func withKernel(k *gpu.Kernel, err error) error {
	if e, ok := err.(*Error); ok {
		e.Op = "Compile"
		e.Message = k.String() + ": " + e.Message
	}
	return err
}

// buildFront checks k and makes p's bind group layouts.
func (d *Device) buildFront(p *pipeline, k *gpu.Kernel) error {
	leave, err := d.enter("Compile")
	if err != nil {
		return err
	}
	defer leave()
	ki, err := checkKernel(context.Background(), "Compile", k.Source(), k.Entry(), k.Constants(), d.limits)
	if err != nil {
		return withKernel(k, err)
	}
	p.bindings, p.entry, p.source, p.bound = ki.Bindings, ki.LoweredName, ki.Lowered, ki.bound
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
		args := make([]any, 0, 3*(g.hi-g.lo))
		for _, b := range g.binds {
			typ := 0
			switch b.Type {
			case BindingStorageRead:
				typ = 1
			case BindingUniform:
				typ = 2
			}
			minSize := b.MinSize
			if d.skipChecks {
				minSize = 0
			}
			args = append(args, b.Index, typ, float64(minSize))
		}
		catchJS("Compile", &err, func() {
			g.bgl = d.rt.layout.Invoke(args...).Int()
			if g.lo == g.hi {
				g.empty = d.rt.bindGroup.Invoke(g.bgl).Int()
			}
		})
		if err != nil {
			return withKernel(k, err)
		}
	}
	return nil
}

// buildDriver compiles p's source in the browser and makes its pipeline,
// on its own goroutine, and publishes the result.
func (d *Device) buildDriver(p *pipeline, k *gpu.Kernel, start time.Time) {
	defer d.drivers.Done()
	defer close(p.done)
	defer func() { d.compileNanos.Add(int64(time.Since(start))) }()
	err := d.compileBrowser(p, k)
	if err != nil {
		p.err = err
		d.uncache(p, k)
		return
	}
	p.ok.Store(true)
}

// compileBrowser runs runtimeJS's compile: the shader module, its
// compilation messages, the pipeline layout and the compute pipeline.
func (d *Device) compileBrowser(p *pipeline, k *gpu.Kernel) error {
	const op = "Compile"
	if d.closed.Load() {
		return closedError(op)
	}
	args := []any{label(k.Name()), p.source, p.entry}
	for _, g := range p.groups {
		args = append(args, g.bgl)
	}
	var prom js.Value
	var err error
	catchJS(op, &err, func() { prom = d.rt.compile.Invoke(args...) })
	if err != nil {
		return withKernel(k, err)
	}
	r, err := await(context.Background(), op, prom)
	if err != nil {
		return withKernel(k, err)
	}
	if d.closed.Load() {
		return closedError(op)
	}
	if e := r.Get("error"); e.Truthy() {
		line, col := r.Get("line").Int(), r.Get("col").Int()
		msg := r.Get("message").String()
		where := "wgsl: "
		if line > 0 {
			if p.bound != nil {
				line, col = p.bound.UserPosition(line, col)
			}
			where = fmt.Sprintf("wgsl:%d:%d: ", line, col)
		}
		return withKernel(k, &Error{Op: op, Type: ErrorTypeValidation, Message: "the browser's shader compiler refused the source: " + where + msg})
	}
	p.pipe = r.Get("pipeline").Int()
	return nil
}
