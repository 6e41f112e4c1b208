//go:build cgo

package wgpu

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/streamgate/streamgate/gpu"
)

// A pipeline (kernel_common.go) is one kernel compiled on one device: the
// compute pipeline and the explicit layouts it was built with (implicit "auto" layouts leak one
// bind group layout per pipeline in wgpu-native 0.17).
//
// A compile builds it in two halves: the front half checks and lowers the
// source and makes the bind group layouts (what a launch's checks and its
// bind groups need); the driver half makes the shader module, the pipeline
// layout and the compute pipeline. A compile in the foreground builds both
// at once; [Device.CompileAsync] (a capture, a discarded launch under
// CompileAndAutotune) hands the pipeline out after the front half and
// leaves the driver half to the device's compile workers.
//
// The desktop build's handles and what its driver half compiles:
type (
	pipeHandle = nComputePipeline
	bglHandle  = nBindGroupLayout
	bgHandle   = nBindGroup
)

// pipelineDriver is the part of a pipeline only the desktop build has.
type pipelineDriver struct {
	layout  nPipelineLayout // written once, before done closes
	lowered string          // written before front closes, emptied by the driver half: the source the driver compiles
	// annotate adds the user's position to a message about lowered;
	// written and emptied with it.
	annotate func(string) string
}

func (p *pipeline) release() {
	p.releaseDriver()
	p.releaseFront()
}

// releaseDriver releases what the driver half made.
func (p *pipeline) releaseDriver() {
	if p.pipe.ref != 0 {
		p.pipe.release()
		p.pipe = nComputePipeline{}
	}
	if p.layout.ref != 0 {
		p.layout.release()
		p.layout = nPipelineLayout{}
	}
}

// releaseFront releases what the front half made.
func (p *pipeline) releaseFront() {
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

// Precompile compiles ks (a nil kernel is an error of its own), returning
// the errors of the failing kernels joined with errors.Join in the order of
// ks (nil when all compile). Kernels already compiled cost a lookup. It
// compiles up to [Device.CompileWorkers] kernels at once, each kernel once
// across concurrent callers as [Device.Compile] does; with one worker it
// compiles them one after another, in order.
//
// It stops early only when ctx is done: no further kernel starts, the
// compiles in progress finish (a pipeline is cached whole or not at all:
// [Device.Compiled] is false for the kernels not reached, and a later
// Precompile compiles them), and ctx.Err() is added after the errors of the
// kernels that did compile.
func (d *Device) Precompile(ctx context.Context, ks []*gpu.Kernel) error {
	errs := make([]error, len(ks))
	var stopped atomic.Bool // a kernel was not compiled for ctx
	compile := func(i int) {
		k := ks[i]
		if k == nil {
			errs[i] = newError("Precompile", ErrorTypeInvalidArgument, "kernel %d is nil", i)
			return
		}
		if ctx.Err() != nil {
			stopped.Store(true)
			return
		}
		if _, err := d.pipelineFor(ctx, k); err != nil {
			if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
				stopped.Store(true)
				return
			}
			errs[i] = err
		}
	}
	workers := min(d.workers, len(ks))
	if workers <= 1 {
		for i := range ks {
			compile(i)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(ks); i = int(next.Add(1) - 1) {
					compile(i)
				}
			})
		}
		wg.Wait()
	}
	if stopped.Load() {
		errs = append(errs, ctx.Err())
	}
	return errors.Join(errs...)
}

// pipelineFor returns k's compiled pipeline, compiling it (once across
// concurrent callers) if needed. It must be called without d.life held.
func (d *Device) pipelineFor(ctx context.Context, k *gpu.Kernel) (*pipeline, error) {
	if p := d.kernelPipeline(k); p != nil && !d.closed.Load() {
		return p, nil // the launch path: one atomic load, no call
	}
	p, key, ready, err := d.lookupPipeline(ctx, k)
	if ready || err != nil {
		return p, err
	}
	np := newPipeline(k)
	p, loaded := d.pipelines.LoadOrStore(key, np)
	if !loaded {
		d.compileBegin()
		d.build(np, k)
		d.compileEnd()
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

// lookupPipeline is the slow start of pipelineFor and frontFor, after
// the index by kernel pointer missed: ready with k's pipeline when it is
// compiled, an error when ctx is done or the device closed, else k's key
// and the pipeline in progress for it (nil when none is).
func (d *Device) lookupPipeline(ctx context.Context, k *gpu.Kernel) (p *pipeline, key [32]byte, ready bool, err error) {
	key = k.Key()
	p, ok := d.pipelines.Load(key)
	if ok && p.ok.Load() {
		if d.closed.Load() {
			return nil, key, false, closedError("Compile")
		}
		d.indexKernel(k, p)
		return p, key, true, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, key, false, err
	}
	if d.closed.Load() {
		return nil, key, false, closedError("Compile")
	}
	if !ok {
		p = nil
	}
	return p, key, false, nil
}

// frontFor returns k's pipeline once its front half is built (its bindings
// and bind group layouts), compiling it (once across concurrent callers)
// if needed; the driver half may still be running: p.done closes when it
// has, and p.pipe is valid only then. It must be called without d.life
// held.
func (d *Device) frontFor(ctx context.Context, k *gpu.Kernel) (*pipeline, error) {
	if p := d.kernelPipeline(k); p != nil && !d.closed.Load() {
		return p, nil // the launch path: one atomic load, no call
	}
	p, key, ready, err := d.lookupPipeline(ctx, k)
	if ready || err != nil {
		return p, err
	}
	if p == nil {
		np := newPipeline(k)
		var loaded bool
		if p, loaded = d.pipelines.LoadOrStore(key, np); !loaded {
			d.compileBegin()
			if err := d.buildFront(np, k); err != nil {
				d.compileEnd()
				return nil, err
			}
			d.startDriver(np, k)
			return np, nil
		}
	}
	if err := p.awaitFront(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// build compiles k into p, both halves in one go, and publishes the
// result. On failure it removes p from the cache so that a later call
// tries again.
func (d *Device) build(p *pipeline, k *gpu.Kernel) {
	defer close(p.done)
	defer close(p.front)
	if err := d.buildEntered(p, k); err != nil {
		p.err, p.frontErr = err, err
		d.uncache(p, k)
		return
	}
	p.ok.Store(true)
}

// uncache removes p, failed, from the cache, keeping any newer entry.
func (d *Device) uncache(p *pipeline, k *gpu.Kernel) {
	d.pipelines.Compute(k.Key(), func(old *pipeline, loaded bool) (*pipeline, bool) {
		return old, !loaded || old == p // delete p, keep any newer entry
	})
}

// buildEntered builds p inside d.enter; a failed build releases what it
// made.
func (d *Device) buildEntered(p *pipeline, k *gpu.Kernel) error {
	leave, err := d.enter("Compile")
	if err != nil {
		return err
	}
	defer leave()
	err = d.buildFrontLocked(p, k)
	if err == nil {
		err = d.buildDriverLocked(p, k)
	}
	if err != nil {
		p.release()
		return err
	}
	return nil
}

// buildFront builds p's front half inside d.enter and publishes it. On
// failure it releases what it made, removes p from the cache and finishes
// p with the error.
func (d *Device) buildFront(p *pipeline, k *gpu.Kernel) (err error) {
	defer func() {
		if err != nil {
			p.err, p.frontErr = err, err
			d.uncache(p, k)
			close(p.front)
			close(p.done)
		}
	}()
	leave, err := d.enter("Compile")
	if err != nil {
		return err
	}
	defer leave()
	if err := d.buildFrontLocked(p, k); err != nil {
		p.release()
		return err
	}
	close(p.front)
	return nil
}

// startDriver builds p's driver half on a compile worker and publishes the
// result. On failure p is removed from the cache; its bind group layouts
// (which launches checked against the front half may have used) are kept
// until Close.
func (d *Device) startDriver(p *pipeline, k *gpu.Kernel) {
	go func() {
		defer d.compileEnd() // after done closes
		d.compileSem <- struct{}{}
		defer func() { <-d.compileSem }()
		defer close(p.done)
		leave, err := d.enter("Compile")
		if err != nil {
			// Close has begun: it releases p's front half with the cache
			// (it finds p there, done or not, under its write lock).
			p.err = err
			return
		}
		defer leave()
		if err := d.buildDriverLocked(p, k); err != nil {
			p.releaseDriver()
			p.err = err
			d.uncache(p, k)
			d.mu.Lock()
			d.failedFronts = append(d.failedFronts, p)
			d.mu.Unlock()
			return
		}
		p.ok.Store(true)
		if !d.closed.Load() {
			d.indexKernel(k, p)
		}
	}()
}

// buildFrontLocked checks and lowers k and makes p's bind group layouts.
func (d *Device) buildFrontLocked(p *pipeline, k *gpu.Kernel) error {
	d.compiles.Add(1)
	ki, err := checkKernel(context.Background(), "Compile", k.Source(), k.Entry(), k.Constants(), d.limits)
	if err != nil {
		return withKernel(k, err)
	}
	p.bindings, p.entry, p.lowered, p.annotate = ki.Bindings, ki.LoweredName, ki.Lowered, ki.posMap.Annotate
	if err := d.buildGroups(p, k.Name()); err != nil {
		return withKernel(k, err)
	}
	return nil
}

// buildDriverLocked makes p's shader module, pipeline layout and compute
// pipeline.
func (d *Device) buildDriverLocked(p *pipeline, k *gpu.Kernel) error {
	lowered, pm := p.lowered, p.annotate
	p.lowered, p.annotate = "", nil // the cache of the lowering keeps them; the pipeline need not
	module, err := d.createShaderModule("Compile", label(k.Name()), lowered)
	if err != nil {
		return withKernel(k, driverRefused(err, pm))
	}
	defer module.release()
	bgls := make([]nBindGroupLayout, len(p.groups))
	for i := range p.groups {
		bgls[i] = p.groups[i].bgl
	}
	p.layout, err = d.createPipelineLayout("Compile", label(k.Name()), bgls)
	if err != nil {
		return withKernel(k, err)
	}
	p.pipe, err = d.createComputePipeline("Compile", label(k.Name()), p.layout, module, p.entry)
	if err != nil {
		return withKernel(k, driverRefused(err, pm))
	}
	return nil
}

// driverRefused marks an error of the driver's shader compiler, which saw
// the lowered source, not the user's, and adds the user's position from
// the lowering's map (annotate).
func driverRefused(err error, annotate func(string) string) error {
	if e, ok := err.(*Error); ok && e.Type == ErrorTypeValidation {
		if annotate != nil {
			e.Message = annotate(e.Message)
		}
		e.Message = "the driver's shader compiler (naga 0.13) refused the lowered source: " + e.Message
	}
	return err
}

// buildGroups makes one bind group layout per group index of p, from 0 to
// the highest group its bindings use, and a bind group for each index no
// binding uses.
func (d *Device) buildGroups(p *pipeline, name string) error {
	p.splitGroups()
	for gi := range p.groups {
		g := &p.groups[gi]
		entries := make([]layoutEntry, 0, g.hi-g.lo)
		for _, b := range g.binds {
			entries = append(entries, layoutEntry{binding: b.Index, typ: b.Type, minSize: d.layoutMinSize(b)})
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

// pause backs off a polling loop: yields first, then sleeps up to 1ms.
func pause(n int) {
	if n < 4 {
		runtime.Gosched()
		return
	}
	d := time.Duration(1<<min(n-4, 10)) * time.Microsecond
	time.Sleep(d)
}
