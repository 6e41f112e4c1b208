//go:build js && wasm

package wgpu

import (
	"context"
	"fmt"
	"syscall/js"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/internal/lower"
)

// A pipeline (kernel.go) is one kernel compiled on one device, in
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

// foregroundDriver: a compile in the foreground hands the browser's half to
// a goroutine too, and waits for it (not inside a js.FuncOf callback).
const foregroundDriver = false

// keepSource keeps the bound source for the browser's compile.
func (p *pipeline) keepSource(ki *KernelInfo) { p.source, p.bound = ki.Lowered, ki.bound }

// releaseDriver releases nothing (see release).
func (p *pipeline) releaseDriver() {}

// newBindGroupLayout makes the GPUBindGroupLayout of a group's bindings.
func (d *Device) newBindGroupLayout(op, _ string, binds []Binding) (ref int, err error) {
	args := make([]any, 0, 5*len(binds))
	for _, b := range binds {
		tb := b.Texture
		switch b.Type {
		case BindingTexture:
			args = append(args, b.Index, 1, tb.Sample.String(), tb.View.String(), tb.Multisampled)
		case BindingStorageTexture:
			args = append(args, b.Index, 2, tb.Access.String(), tb.View.String(), tb.Format.String())
		case BindingSampler:
			args = append(args, b.Index, 3, b.Sampler.String(), 0, 0)
		default:
			typ := 0
			switch b.Type {
			case BindingStorageRead:
				typ = 1
			case BindingUniform:
				typ = 2
			}
			args = append(args, b.Index, 0, typ, float64(d.layoutMinSize(b)), 0)
		}
	}
	catchJS(op, &err, func() { ref = d.rt.layout.Invoke(args...).Int() })
	return ref, err
}

// newEmptyBindGroup makes the GPUBindGroup of a group without bindings.
func (d *Device) newEmptyBindGroup(op, _ string, bgl int) (ref int, err error) {
	catchJS(op, &err, func() { ref = d.rt.bindGroup.Invoke(bgl).Int() })
	return ref, err
}

// buildDriver compiles p's source in the browser, makes its pipeline and
// publishes the result. It awaits the browser without the device's life
// lock (Close waits for it in beforeClose instead).
func (d *Device) buildDriver(p *pipeline, k *gpu.Kernel, publish func(error)) {
	publish(d.compileBrowser(p, k))
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
