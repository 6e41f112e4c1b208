//go:build cgo

package rawwgpu

import (
	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// Step is a hand-written upload–launch–read-back loop on a Device's kernel,
// as a careful program without streamgate would write it: a storage buffer
// and a staging buffer made once, one encoder per step holding the
// dispatches and the copy, one submit, then map, copy out, unmap. It is
// not safe for concurrent use.
type Step struct {
	r       *Device
	size    uint64
	buf     *gowgpu.Buffer // Storage|CopyDst|CopySrc
	staging *gowgpu.Buffer // MapRead|CopyDst
	bg      *gowgpu.BindGroup
}

// NewStep makes the buffers of a step over size bytes.
func (r *Device) NewStep(size uint64) (s *Step, err error) {
	s = &Step{r: r, size: size}
	defer func() {
		if err != nil {
			s.Release()
			s = nil
		}
	}()
	if s.buf, err = r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: size,
		Usage: gowgpu.BufferUsage_Storage | gowgpu.BufferUsage_CopyDst | gowgpu.BufferUsage_CopySrc}); err != nil {
		return nil, err
	}
	if s.staging, err = r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: size,
		Usage: gowgpu.BufferUsage_MapRead | gowgpu.BufferUsage_CopyDst}); err != nil {
		return nil, err
	}
	bgl := r.pipe.GetBindGroupLayout(0)
	defer bgl.Release()
	if s.bg, err = r.dev.CreateBindGroup(&gowgpu.BindGroupDescriptor{Layout: bgl, Entries: []gowgpu.BindGroupEntry{{
		Binding: 0, Buffer: s.buf, Size: size,
	}}}); err != nil {
		return nil, err
	}
	return s, nil
}

// Run uploads in, records launches dispatches of wg workgroups and the copy
// to the staging buffer in one encoder, submits it, waits for the map and
// copies the result into out. len(in) and len(out) are the step's size.
func (s *Step) Run(in, out []byte, launches int, wg [3]uint32) error {
	r := s.r
	if err := r.queue.WriteBuffer(s.buf, 0, in); err != nil {
		return err
	}
	enc, err := r.dev.CreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(r.pipe)
	pass.SetBindGroup(0, s.bg, nil)
	for range launches {
		pass.DispatchWorkgroups(wg[0], wg[1], wg[2])
	}
	err = pass.End()
	pass.Release()
	if err != nil {
		return err
	}
	if err := enc.CopyBufferToBuffer(s.buf, 0, s.staging, 0, s.size); err != nil {
		return err
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return err
	}
	r.queue.Submit(cmd)
	cmd.Release()
	var status gowgpu.BufferMapAsyncStatus
	done := false
	if err := s.staging.MapAsync(gowgpu.MapMode_Read, 0, s.size, func(st gowgpu.BufferMapAsyncStatus) { status, done = st, true }); err != nil {
		return err
	}
	for !done {
		r.dev.Poll(true, nil)
	}
	if status != gowgpu.BufferMapAsyncStatus_Success {
		return errMap(status)
	}
	copy(out, s.staging.GetMappedRange(0, uint(s.size)))
	return s.staging.Unmap()
}

type errMap gowgpu.BufferMapAsyncStatus

func (e errMap) Error() string {
	return "rawwgpu: map failed: " + gowgpu.BufferMapAsyncStatus(e).String()
}

// Release releases the step's buffers and bind group.
func (s *Step) Release() {
	if s.bg != nil {
		s.bg.Release()
	}
	if s.staging != nil {
		s.staging.Release()
	}
	if s.buf != nil {
		s.buf.Release()
	}
	*s = Step{}
}
