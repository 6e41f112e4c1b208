//go:build cgo

package rawwgpu

import (
	"fmt"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// KernelSpec is one kernel of a [Program]: WGSL the driver's compiler
// takes (a hand-written program writes its dialect) and the entry point.
type KernelSpec struct {
	Source, Entry string
}

// BufferSpec is one buffer of a [Program]: its size, whether it is a
// uniform (else storage), and its contents, uploaded once (nil: zeros).
type BufferSpec struct {
	Size    uint64
	Uniform bool
	Data    []byte
}

// DispatchSpec is one dispatch of a [Program]: kernel index, workgroup
// counts, and for each binding of group 0 its number and buffer index.
type DispatchSpec struct {
	Kernel     int
	Workgroups [3]uint32
	Bindings   []BindingSpec
}

// BindingSpec binds buffer Buffer at @group(0) @binding(Binding).
type BindingSpec struct {
	Binding uint32
	Buffer  int
}

// Program is a fixed sequence of dispatches of several kernels on
// buffers made once, as a careful hand-written go-webgpu program records a
// model's step: each pipeline with the layout the driver derives, each
// dispatch's bind group made up front. It is not safe for concurrent use.
type Program struct {
	r     *Device
	bufs  []*gowgpu.Buffer
	pipes []*gowgpu.ComputePipeline
	steps []dispatch

	staging *gowgpu.Buffer // MapRead|CopyDst, RunRead's; nil until its first call
}

// NewProgram compiles ks, makes and fills bs and the bind groups of ds on
// r's device.
func (r *Device) NewProgram(ks []KernelSpec, bs []BufferSpec, ds []DispatchSpec) (p *Program, err error) {
	p = &Program{r: r}
	defer func() {
		if err != nil {
			p.Release()
			p = nil
		}
	}()
	for _, k := range ks {
		mod, err := r.dev.CreateShaderModule(&gowgpu.ShaderModuleDescriptor{WGSLDescriptor: &gowgpu.ShaderModuleWGSLDescriptor{Code: k.Source}})
		if err != nil {
			return nil, err
		}
		pipe, err := r.dev.CreateComputePipeline(&gowgpu.ComputePipelineDescriptor{
			Compute: gowgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: k.Entry},
		})
		mod.Release()
		if err != nil {
			return nil, err
		}
		p.pipes = append(p.pipes, pipe)
	}
	for _, b := range bs {
		usage := gowgpu.BufferUsage_Storage | gowgpu.BufferUsage_CopyDst | gowgpu.BufferUsage_CopySrc
		if b.Uniform {
			usage = gowgpu.BufferUsage_Uniform | gowgpu.BufferUsage_CopyDst
		}
		buf, err := r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: b.Size, Usage: usage})
		if err != nil {
			return nil, err
		}
		p.bufs = append(p.bufs, buf)
		if b.Data != nil {
			if err := r.queue.WriteBuffer(buf, 0, b.Data); err != nil {
				return nil, err
			}
		}
	}
	for i, d := range ds {
		if d.Kernel < 0 || d.Kernel >= len(p.pipes) {
			return nil, fmt.Errorf("rawwgpu: dispatch %d: no kernel %d", i, d.Kernel)
		}
		pipe := p.pipes[d.Kernel]
		var entries []gowgpu.BindGroupEntry
		for _, b := range d.Bindings {
			entries = append(entries, gowgpu.BindGroupEntry{Binding: b.Binding, Buffer: p.bufs[b.Buffer], Size: bs[b.Buffer].Size})
		}
		bgl := pipe.GetBindGroupLayout(0)
		bg, err := r.dev.CreateBindGroup(&gowgpu.BindGroupDescriptor{Layout: bgl, Entries: entries})
		bgl.Release()
		if err != nil {
			return nil, fmt.Errorf("rawwgpu: dispatch %d: %w", i, err)
		}
		p.steps = append(p.steps, dispatch{pipe: pipe, bg: bg, wg: d.Workgroups})
	}
	r.dev.Poll(true, nil)
	return p, nil
}

// OnePass records every dispatch in one compute pass, submits it at once
// and waits for the GPU: one submit per step.
func (p *Program) OnePass() error {
	if err := p.r.submitPass(p.steps, bufferCopy{}); err != nil {
		return err
	}
	p.r.Wait()
	return nil
}

// SubmitEach records and submits each dispatch in an encoder, pass and
// submit of its own — what a first attempt looks like — then waits for
// the GPU.
func (p *Program) SubmitEach() error {
	for i := range p.steps {
		if err := p.r.submitPass(p.steps[i:i+1], bufferCopy{}); err != nil {
			return err
		}
	}
	p.r.Wait()
	return nil
}

// Write uploads data to buffer i at offset 0 (queue.WriteBuffer): what a
// generation loop does with its step's state before each step.
func (p *Program) Write(i int, data []byte) error { return p.r.queue.WriteBuffer(p.bufs[i], 0, data) }

// RunRead runs dispatches lo..hi−1 and reads buffer read's first len(out)
// bytes into out, as a hand-written decode loop does per token: with each
// false every dispatch in one compute pass and the copy to a staging
// buffer (made on the first call, then reused) in the same encoder, one
// submit; with each true an encoder, pass and submit per dispatch, the
// copy in the last submit's encoder. Then it waits for the map and copies
// out.
func (p *Program) RunRead(lo, hi int, each bool, read int, out []byte) error {
	size := uint64(len(out))
	if p.staging == nil || p.staging.GetSize() < size {
		if p.staging != nil {
			p.staging.Release()
		}
		var err error
		if p.staging, err = p.r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: size, Usage: gowgpu.BufferUsage_MapRead | gowgpu.BufferUsage_CopyDst}); err != nil {
			p.staging = nil
			return err
		}
	}
	steps := p.steps[lo:hi]
	for len(steps) > 0 {
		n := len(steps)
		if each {
			n = 1
		}
		var cp bufferCopy
		if n == len(steps) { // the last submit: the copy too
			cp = bufferCopy{src: p.bufs[read], dst: p.staging, size: size}
		}
		if err := p.r.submitPass(steps[:n], cp); err != nil {
			return err
		}
		steps = steps[n:]
	}
	var status gowgpu.BufferMapAsyncStatus
	done := false
	if err := p.staging.MapAsync(gowgpu.MapMode_Read, 0, size, func(st gowgpu.BufferMapAsyncStatus) { status, done = st, true }); err != nil {
		return err
	}
	for !done {
		p.r.dev.Poll(true, nil)
	}
	if status != gowgpu.BufferMapAsyncStatus_Success {
		return errMap(status)
	}
	copy(out, p.staging.GetMappedRange(0, uint(size)))
	return p.staging.Unmap()
}

// Read copies buffer i back (for checking a program's result).
func (p *Program) Read(i int) ([]byte, error) {
	src := p.bufs[i]
	size := src.GetSize()
	staging, err := p.r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: size, Usage: gowgpu.BufferUsage_MapRead | gowgpu.BufferUsage_CopyDst})
	if err != nil {
		return nil, err
	}
	defer staging.Release()
	enc, err := p.r.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	if err := enc.CopyBufferToBuffer(src, 0, staging, 0, size); err != nil {
		return nil, err
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return nil, err
	}
	p.r.queue.Submit(cmd)
	cmd.Release()
	var status gowgpu.BufferMapAsyncStatus
	done := false
	if err := staging.MapAsync(gowgpu.MapMode_Read, 0, size, func(st gowgpu.BufferMapAsyncStatus) { status, done = st, true }); err != nil {
		return nil, err
	}
	for !done {
		p.r.dev.Poll(true, nil)
	}
	if status != gowgpu.BufferMapAsyncStatus_Success {
		return nil, errMap(status)
	}
	out := append([]byte(nil), staging.GetMappedRange(0, uint(size))...)
	return out, staging.Unmap()
}

// Release releases the program's bind groups, pipelines and buffers,
// waiting for the GPU first.
func (p *Program) Release() {
	p.r.Wait()
	for _, d := range p.steps {
		d.bg.Release()
	}
	for _, pipe := range p.pipes {
		pipe.Release()
	}
	for _, b := range p.bufs {
		b.Release()
	}
	if p.staging != nil {
		p.staging.Release()
	}
	*p = Program{r: p.r}
}
