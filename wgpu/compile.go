package wgpu

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/streamgate/streamgate/gpu"
)

// Compiles: a pipeline (kernel.go) is built in two halves. The front half
// checks and lowers the source and makes the bind group layouts (what a
// launch's checks and its bind groups need); the driver half is the
// backend's: the shader module, the pipeline layout and the compute
// pipeline (kernel_native.go: wgpu-native's compilers; kernel_js.go: the
// browser's, whose promises a goroutine awaits). A compile in the
// foreground waits for both; [Device.CompileAsync] (a capture, a discarded
// launch under CompileAndAutotune) hands the pipeline out after the front
// half and leaves the driver half to the device's compile workers.

// Compiled reports whether k is compiled on this device (false for nil). It
// never blocks on a compile in progress and never allocates. It returns
// false once the device is closed.
func (d *Device) Compiled(k *gpu.Kernel) bool {
	if k == nil || d == nil {
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
// across concurrent callers as [Device.Compile] does; with one worker (in a
// browser, by default) it compiles them one after another, in order.
//
// It stops early only when ctx is done: no further kernel starts, the
// compiles in progress finish (a pipeline is cached whole or not at all:
// [Device.Compiled] is false for the kernels not reached, and a later
// Precompile compiles them), and ctx.Err() is added after the errors of the
// kernels that did compile.
func (d *Device) Precompile(ctx context.Context, ks []*gpu.Kernel) error {
	if d == nil {
		return nilDeviceError("Precompile")
	}
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
	if d == nil {
		return nil, nilDeviceError("Compile")
	}
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
		if err := d.buildFront(np, k); err != nil {
			d.compileEnd()
			return nil, err
		}
		if foregroundDriver {
			d.driverHalf(np, k, false)
			return np, np.err
		}
		d.startDriver(np, k)
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
	if d == nil {
		return nil, nilDeviceError("Compile")
	}
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

// uncache removes p, failed, from the cache, keeping any newer entry.
func (d *Device) uncache(p *pipeline, k *gpu.Kernel) {
	d.pipelines.Compute(k.Key(), func(old *pipeline, loaded bool) (*pipeline, bool) {
		return old, !loaded || old == p // delete p, keep any newer entry
	})
}

// buildFront builds p's front half inside d.enter and publishes it (front
// closes). On failure it releases what it made, removes p from the cache
// and finishes p with the error (done closes too).
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

// buildFrontLocked checks and lowers k, keeps what the driver half
// compiles, and makes p's bind group layouts: one per group index of p,
// from 0 to the highest group its bindings use, and a bind group for each
// index no binding uses.
func (d *Device) buildFrontLocked(p *pipeline, k *gpu.Kernel) error {
	d.compiles.Add(1)
	ki, err := checkKernel(context.Background(), "Compile", k.Source(), k.Entry(), k.Constants(), d.limits)
	if err != nil {
		return withKernel(k, err)
	}
	p.bindings, p.entry = ki.Bindings, ki.LoweredName
	p.keepSource(ki)
	p.splitGroups()
	for gi := range p.groups {
		g := &p.groups[gi]
		var err error
		if g.bgl, err = d.newBindGroupLayout("Compile", label(k.Name()), g.binds); err != nil {
			return withKernel(k, err)
		}
		if g.lo == g.hi {
			if g.empty, err = d.newEmptyBindGroup("Compile", label(k.Name()), g.bgl); err != nil {
				return withKernel(k, err)
			}
		}
	}
	return nil
}

// startDriver builds p's driver half on a compile worker.
func (d *Device) startDriver(p *pipeline, k *gpu.Kernel) {
	d.drivers.Add(1)
	go func() {
		defer d.drivers.Done()
		d.driverHalf(p, k, true)
	}()
}

// driverHalf builds p's driver half (on a compile worker when limited:
// at most Device.workers at once) and publishes the result.
func (d *Device) driverHalf(p *pipeline, k *gpu.Kernel, limited bool) {
	defer d.compileEnd() // after done closes
	if limited {
		d.compileSem <- struct{}{}
		defer func() { <-d.compileSem }()
	}
	d.buildDriver(p, k, func(err error) { d.publishDriver(p, k, err) })
}

// publishDriver finishes p with its driver half's err: done closes. On
// failure p is removed from the cache; its bind group layouts (which
// launches checked against the front half may have used) are kept until
// Close. A Close meanwhile failed it with ErrClosed, and Close releases its
// front half with the cache. The backend calls it inside d.enter where it
// entered to build (so that Close finds p either done or not yet built,
// never built and not done).
func (d *Device) publishDriver(p *pipeline, k *gpu.Kernel, err error) {
	defer close(p.done)
	switch {
	case err == nil:
		p.ok.Store(true)
		if !d.closed.Load() {
			d.indexKernel(k, p) // a later launch, or Compiled, finds it by pointer
		}
	case d.closed.Load() && errors.Is(err, ErrClosed):
		p.err = err
	default:
		p.releaseDriver()
		p.err = err
		d.uncache(p, k)
		d.mu.Lock()
		d.failedFronts = append(d.failedFronts, p)
		d.mu.Unlock()
	}
}

// compileBegin and compileEnd bracket a pipeline's build on the compile
// clock (Stats.CompileTime).
func (d *Device) compileBegin() {
	d.compileMu.Lock()
	defer d.compileMu.Unlock()
	if d.compileActive == 0 {
		d.compileSince = time.Now()
	}
	d.compileActive++
}

func (d *Device) compileEnd() {
	d.compileMu.Lock()
	defer d.compileMu.Unlock()
	d.compileActive--
	if d.compileActive == 0 {
		d.compileBusy += time.Since(d.compileSince)
	}
}

// compileTime reads the compile clock.
func (d *Device) compileTime() time.Duration {
	d.compileMu.Lock()
	defer d.compileMu.Unlock()
	t := d.compileBusy
	if d.compileActive > 0 {
		t += time.Since(d.compileSince)
	}
	return t
}
