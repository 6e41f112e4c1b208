//go:build js && wasm

package wgpu

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/internal/lower"
)

// A pipeline (kernel_common.go) is one kernel compiled on one device, in
// two halves as in the desktop build: the front half (the front-end's
// checks, the bindings and the explicit bind group layouts, made at once)
// and the browser's half (the shader module, its compilation info and the
// compute pipeline, made by promises a goroutine awaits). The js build's
// handles are indexes in the device's JS table:
type (
	pipeHandle = int // the GPUComputePipeline's
	bglHandle  = int // the GPUBindGroupLayout's
	bgHandle   = int // the GPUBindGroup's
)

// pipelineDriver is the part of a pipeline only the js build has.
type pipelineDriver struct {
	source string       // written before front closes: what the browser compiles
	bound  *lower.Bound // written before front closes: maps the browser's positions to the user's
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
	if e, ok := d.byKernel.Load(k); ok && e.p.frontErr == nil {
		select {
		case <-e.p.front:
			return e.p, nil
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
		d.compileBegin()
		if err := d.buildFront(np, k); err != nil {
			np.err, np.frontErr = err, err
			d.uncache(np, k)
			close(np.front)
			close(np.done)
			d.compileEnd()
			return nil, err
		}
		close(np.front)
		d.indexKernel(k, np)
		d.drivers.Add(1)
		go d.buildDriver(np, k)
		return np, nil
	}
	if err := p.awaitFront(ctx); err != nil {
		return nil, err
	}
	d.indexKernel(k, p)
	return p, nil
}

// uncache removes p, failed, from the cache, keeping any newer entry.
func (d *Device) uncache(p *pipeline, k *gpu.Kernel) {
	d.pipelines.Compute(k.Key(), func(old *pipeline, loaded bool) (*pipeline, bool) {
		return old, !loaded || old == p
	})
	d.byKernel.Compute(k, func(old *kernelEntry, loaded bool) (*kernelEntry, bool) {
		return old, !loaded || old.p == p
	})
	if slot := &d.recent[kernelSlot(k)]; slot.Load() != nil && slot.Load().p == p {
		slot.Store(nil)
	}
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
	p.splitGroups()
	for gi := range p.groups {
		g := &p.groups[gi]
		args := make([]any, 0, 3*(g.hi-g.lo))
		for _, b := range g.binds {
			typ := 0
			switch b.Type {
			case BindingStorageRead:
				typ = 1
			case BindingUniform:
				typ = 2
			}
			args = append(args, b.Index, typ, float64(d.layoutMinSize(b)))
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
func (d *Device) buildDriver(p *pipeline, k *gpu.Kernel) {
	defer d.drivers.Done()
	defer close(p.done)
	defer d.compileEnd()
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

// release and releaseFront release nothing: a pipeline's objects in the
// page's table go with its device's runtime, which Close destroys.
func (p *pipeline) release()      {}
func (p *pipeline) releaseFront() {}
