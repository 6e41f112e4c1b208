//go:build cgo

package wgpu

import (
	"runtime"
	"time"

	"github.com/streamgate/streamgate/gpu"
)

// A pipeline (kernel.go) is one kernel compiled on one device: the
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

// foregroundDriver: a compile in the foreground builds the driver half in
// the calling goroutine (wgpu-native's compilers are synchronous calls).
const foregroundDriver = true

// inCallback is false: only the browser runs Go inside its callbacks.
func inCallback() bool { return false }

// keepSource keeps the lowered source for the driver half.
func (p *pipeline) keepSource(ki *KernelInfo) {
	p.lowered, p.annotate = ki.Lowered, ki.posMap.Annotate
}

// newBindGroupLayout makes the bind group layout of a group's bindings.
func (d *Device) newBindGroupLayout(op, name string, binds []Binding) (nBindGroupLayout, error) {
	entries := make([]layoutEntry, 0, len(binds))
	for _, b := range binds {
		entries = append(entries, layoutEntry{b: b, minSize: d.layoutMinSize(b)})
	}
	return d.createBindGroupLayout(op, name, entries)
}

// newEmptyBindGroup makes the bind group of a group without bindings.
func (d *Device) newEmptyBindGroup(op, name string, bgl nBindGroupLayout) (nBindGroup, error) {
	return d.createBindGroup(op, name, bgl, nil)
}

// buildDriver makes p's shader module, pipeline layout and compute
// pipeline inside d.enter, and publishes the result there (ErrClosed once
// Close has begun, outside it).
func (d *Device) buildDriver(p *pipeline, k *gpu.Kernel, publish func(error)) {
	leave, err := d.enter("Compile")
	if err != nil {
		publish(err)
		return
	}
	defer leave()
	publish(d.buildDriverLocked(p, k))
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

// pause backs off a polling loop: yields first, then sleeps up to 1ms.
func pause(n int) {
	if n < 4 {
		runtime.Gosched()
		return
	}
	d := time.Duration(1<<min(n-4, 10)) * time.Microsecond
	time.Sleep(d)
}
