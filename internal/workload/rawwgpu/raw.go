//go:build cgo

// Package rawwgpu is go-webgpu used by hand, as a program without streamgate
// would: the baselines that benchmarks compare the wgpu service and the
// client against.
package rawwgpu

import (
	"fmt"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// Device is one device with one compute kernel whose single storage buffer
// (binding 0, read_write) is bound once. It is not safe for concurrent use.
type Device struct {
	inst    *gowgpu.Instance
	adapter *gowgpu.Adapter
	dev     *gowgpu.Device
	queue   *gowgpu.Queue
	pipe    *gowgpu.ComputePipeline
	bg      *gowgpu.BindGroup

	// Variants of the kernel (the source plus VariantSuffix(i)), each with
	// a buffer of its own: pipes[0] and bgs[0] are pipe and bg.
	pipes [Variants]*gowgpu.ComputePipeline
	bgs   [Variants]*gowgpu.BindGroup
}

// Variants is how many variants of its kernel a Device builds, for loops
// that alternate kernels.
const Variants = 3

// VariantSuffix is appended to the kernel's source to make variant i: a
// different shader module with the same bindings.
func VariantSuffix(i int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprintf("\n// variant %d\n", i)
}

// Open opens an adapter and builds wgsl's entry "main", with an explicit
// layout of one read_write storage buffer of size bytes. The adapter is the
// driver's default when adapter < 0, else the adapter-th of every backend's
// adapters, in the order wgpu.Adapters lists them.
func Open(wgsl string, size uint64, adapter int) (r *Device, err error) {
	backends := gowgpu.InstanceBackend_Primary
	if adapter >= 0 {
		backends |= gowgpu.InstanceBackend_Secondary
	}
	r = &Device{inst: gowgpu.CreateInstance(&gowgpu.InstanceDescriptor{Backends: backends})}
	defer func() {
		if err != nil {
			r.Release()
			r = nil
		}
	}()
	if adapter >= 0 {
		all := r.inst.EnumerateAdapters(nil)
		for i, a := range all {
			if i == adapter {
				r.adapter = a
			} else {
				a.Release()
			}
		}
		if r.adapter == nil {
			return nil, fmt.Errorf("rawwgpu: no adapter %d (there are %d)", adapter, len(all))
		}
	} else if r.adapter, err = r.inst.RequestAdapter(nil); err != nil {
		return nil, fmt.Errorf("rawwgpu: no adapter: %w", err)
	}
	if r.dev, err = r.adapter.RequestDevice(nil); err != nil {
		return nil, err
	}
	r.queue = r.dev.GetQueue()
	bgl, err := r.dev.CreateBindGroupLayout(&gowgpu.BindGroupLayoutDescriptor{Entries: []gowgpu.BindGroupLayoutEntry{{
		Binding: 0, Visibility: gowgpu.ShaderStage_Compute,
		Buffer: gowgpu.BufferBindingLayout{Type: gowgpu.BufferBindingType_Storage},
	}}})
	if err != nil {
		return nil, err
	}
	defer bgl.Release()
	pl, err := r.dev.CreatePipelineLayout(&gowgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*gowgpu.BindGroupLayout{bgl}})
	if err != nil {
		return nil, err
	}
	defer pl.Release()
	for i := range Variants {
		mod, err := r.dev.CreateShaderModule(&gowgpu.ShaderModuleDescriptor{WGSLDescriptor: &gowgpu.ShaderModuleWGSLDescriptor{Code: wgsl + VariantSuffix(i)}})
		if err != nil {
			return nil, err
		}
		r.pipes[i], err = r.dev.CreateComputePipeline(&gowgpu.ComputePipelineDescriptor{
			Layout: pl, Compute: gowgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: "main"},
		})
		mod.Release()
		if err != nil {
			return nil, err
		}
		buf, err := r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: size, Usage: gowgpu.BufferUsage_Storage})
		if err != nil {
			return nil, err
		}
		r.bgs[i], err = r.dev.CreateBindGroup(&gowgpu.BindGroupDescriptor{Layout: bgl, Entries: []gowgpu.BindGroupEntry{{
			Binding: 0, Buffer: buf, Size: size,
		}}})
		buf.Release() // the bind group keeps it alive
		if err != nil {
			return nil, err
		}
	}
	r.pipe, r.bg = r.pipes[0], r.bgs[0]
	return r, nil
}

// SubmitEach records and submits n dispatches of wg workgroups, each in its
// own encoder, pass and submit — what users write by hand — then waits for
// the GPU.
func (r *Device) SubmitEach(n int, wg [3]uint32) error {
	ds := [1]dispatch{{pipe: r.pipe, bg: r.bg, wg: wg}}
	for j := 0; j < n; j++ {
		if err := r.submitPass(ds[:], bufferCopy{}); err != nil {
			return err
		}
	}
	r.dev.Poll(true, nil)
	return nil
}

// dispatch is one dispatch: a pipeline, its bind group (group 0) and the
// workgroup counts.
type dispatch struct {
	pipe *gowgpu.ComputePipeline
	bg   *gowgpu.BindGroup
	wg   [3]uint32
}

// bufferCopy is a copy of src's first size bytes to dst, recorded after a
// pass; dst nil for none.
type bufferCopy struct {
	src, dst *gowgpu.Buffer
	size     uint64
}

// submitPass records ds in one compute pass of a new encoder, then cp, and
// submits the command buffer without waiting; see submit.
func (r *Device) submitPass(ds []dispatch, cp bufferCopy) error {
	enc, err := r.dev.CreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	pass := enc.BeginComputePass(nil)
	for _, d := range ds {
		pass.SetPipeline(d.pipe)
		pass.SetBindGroup(0, d.bg, nil)
		pass.DispatchWorkgroups(d.wg[0], d.wg[1], d.wg[2])
	}
	return r.submit(enc, pass, cp)
}

// submit ends pass, records cp (when cp.dst is set), finishes enc and
// submits its command buffer without waiting: the end of every recording
// here. It releases the pass, the encoder and the command buffer either
// way.
func (r *Device) submit(enc *gowgpu.CommandEncoder, pass *gowgpu.ComputePassEncoder, cp bufferCopy) error {
	err := pass.End()
	pass.Release()
	if err == nil && cp.dst != nil {
		err = enc.CopyBufferToBuffer(cp.src, 0, cp.dst, 0, cp.size)
	}
	if err != nil {
		enc.Release()
		return err
	}
	cmd, err := enc.Finish(nil)
	enc.Release()
	if err != nil {
		return err
	}
	r.queue.Submit(cmd)
	cmd.Release()
	return nil
}

// OnePass records n dispatches of wg workgroups in one pass and submits them
// at once — the floor of the binding — then waits for the GPU.
func (r *Device) OnePass(n int, wg [3]uint32) error {
	p, err := r.BeginPass()
	if err != nil {
		return err
	}
	for j := 0; j < n; j++ {
		p.Dispatch(wg[0], wg[1], wg[2])
	}
	return p.Submit()
}

// Pass is one encoder with an open compute pass, the kernel and its bind
// group set: [Device.OnePass] taken apart, so that a benchmark can time the
// recording of dispatches apart from the submit and the wait.
type Pass struct {
	r    *Device
	enc  *gowgpu.CommandEncoder
	pass *gowgpu.ComputePassEncoder
}

// BeginPass creates an encoder and begins a compute pass with the kernel
// and its bind group set. The caller must call [Pass.Submit].
func (r *Device) BeginPass() (*Pass, error) {
	enc, err := r.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(r.pipe)
	pass.SetBindGroup(0, r.bg, nil)
	return &Pass{r: r, enc: enc, pass: pass}, nil
}

// Dispatch records one dispatch of x×y×z workgroups.
func (p *Pass) Dispatch(x, y, z uint32) { p.pass.DispatchWorkgroups(x, y, z) }

// DispatchVariant sets variant i's pipeline and bind group, then records
// one dispatch: what a loop that alternates kernels does per call.
func (p *Pass) DispatchVariant(i int, x, y, z uint32) {
	p.pass.SetPipeline(p.r.pipes[i])
	p.pass.SetBindGroup(0, p.r.bgs[i], nil)
	p.pass.DispatchWorkgroups(x, y, z)
}

// SubmitNoWait ends the pass and submits its command buffer without
// waiting; [Device.Wait] waits. It releases the pass and the encoder either
// way.
func (p *Pass) SubmitNoWait() error { return p.r.submit(p.enc, p.pass, bufferCopy{}) }

// Wait waits until the GPU has run everything submitted.
func (r *Device) Wait() { r.dev.Poll(true, nil) }

// Submit ends the pass, submits its command buffer and waits for the GPU.
// It releases the pass and the encoder either way.
func (p *Pass) Submit() error {
	if err := p.SubmitNoWait(); err != nil {
		return err
	}
	p.r.Wait()
	return nil
}

// Release releases every object, waiting for the GPU first.
func (r *Device) Release() {
	if r.dev != nil {
		r.dev.Poll(true, nil)
	}
	for i := range Variants {
		if r.bgs[i] != nil {
			r.bgs[i].Release()
		}
		if r.pipes[i] != nil {
			r.pipes[i].Release()
		}
	}
	if r.queue != nil {
		r.queue.Release()
	}
	if r.dev != nil {
		r.dev.Release()
	}
	if r.adapter != nil {
		r.adapter.Release()
	}
	r.inst.Release()
	*r = Device{}
}
