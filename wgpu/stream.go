//go:build cgo

package wgpu

import (
	"context"
	"sync"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"

	"github.com/streamgate/streamgate/gpu"
)

// bgKey identifies a cached bind group: a pipeline and the ids of the
// buffers bound at 0..n-1.
type bgKey struct {
	p   *pipeline
	n   int
	ids [maxBindings]uint64
}

// bindGroup is a cached bind group. It is released when one of its buffers
// is, or by Close.
type bindGroup struct {
	key     bgKey                // written once
	bg      *gowgpu.BindGroup    // written once
	buffers [maxBindings]*Buffer // written once
}

// stream is one logical stream's pending work: a command encoder with an
// open compute pass, recorded into by Launch and submitted by flushLocked.
// All fields are guarded by mu. An encoder is finished and its command
// buffer submitted exactly once, in flushLocked, after which both are
// released and the fields cleared: no command buffer can be submitted twice.
type stream struct {
	d  *Device
	id gpu.StreamID

	mu         sync.Mutex
	enc        *gowgpu.CommandEncoder     // nil when nothing is pending
	pass       *gowgpu.ComputePassEncoder // open pass on enc, or nil
	dispatches int                        // dispatches recorded on enc
	used       map[*bindGroup]struct{}    // bind groups set on enc
	curPipe    *pipeline                  // pipeline set on pass
	curBG      *bindGroup                 // bind group set on pass
	lastKey    bgKey                      // key of the last launch's bind group
	lastBG     *bindGroup                 // its bind group (may be released: check buffers first)
	submitted  bool                       // something was submitted on this stream
	closed     bool                       // CloseStream removed it from d.streams: use a fresh one
}

// stream returns the stream id's state, creating it on first use.
func (d *Device) stream(id gpu.StreamID) *stream {
	if s, ok := d.streams.Load(id); ok {
		return s
	}
	s, _ := d.streams.LoadOrCompute(id, func() *stream {
		return &stream{d: d, id: id, used: map[*bindGroup]struct{}{}}
	})
	return s
}

// lockStream returns the stream id's state, locked, creating it on first
// use. A state that CloseStream retired while the caller waited for its
// lock is skipped for the fresh one.
func (d *Device) lockStream(id gpu.StreamID) *stream {
	for {
		s := d.stream(id)
		s.mu.Lock()
		if !s.closed {
			return s
		}
		s.mu.Unlock()
	}
}

// CloseStream submits the stream's recorded launches, as Flush does, and
// forgets the stream: a device keeps per-stream state (an encoder, the bind
// groups in use) from a stream's first launch until CloseStream or Close,
// so a program that makes many short-lived streams — a client each — must
// close them. Work already submitted still runs; a later launch on the same
// id starts a fresh stream, and a later Sync of it does not wait for work
// submitted before CloseStream. An error is a validation error of the last
// batch (which is dropped) or [ErrClosed].
func (d *Device) CloseStream(id gpu.StreamID) error {
	return d.flushStream("CloseStream", id, true)
}

// Launch records one dispatch of k with the given workgroup counts and
// buffers, bound in order at @group(0) @binding(0..n-1), on stream. It
// compiles k first if needed. The dispatch is submitted later: when the
// stream has MaxBatch dispatches pending, on [Device.Flush] or
// [Device.Sync], or on an upload, read-back or release of a buffer it binds.
//
// Launch checks before recording anything: the workgroup counts against
// maxComputeWorkgroupsPerDimension, the number of buffers against the
// kernel's bindings, that each buffer is a live [*Buffer] of this device,
// and that no buffer is bound twice where one binding is read_write (a
// usage conflict); bind group creation then checks usages and the sizes
// [ParseBindings] derives. Validation the
// driver can only do when the pass ends is reported by the call that
// submits it (a Launch reaching the threshold, Flush, Sync, Read or Write);
// that batch is dropped and the stream stays usable.
func (d *Device) Launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	const op = "Launch"
	p, err := d.pipelineFor(context.Background(), k)
	if err != nil {
		return err
	}
	if lim := d.limits.MaxComputeWorkgroupsPerDimension; workgroups[0] > lim || workgroups[1] > lim || workgroups[2] > lim {
		return newError(op, ErrorTypeLimit, "%s: workgroups %v exceed maxComputeWorkgroupsPerDimension %d", p.name, workgroups, lim)
	}
	if len(bindings) != len(p.bindings) {
		return newError(op, ErrorTypeInvalidArgument, "%s: %d buffers for %d bindings", p.name, len(bindings), len(p.bindings))
	}
	key := bgKey{p: p, n: len(bindings)}
	var bufs [maxBindings]*Buffer
	for i, cb := range bindings {
		b, ok := cb.(*Buffer)
		if !ok || b == nil {
			return newError(op, ErrorTypeInvalidArgument, "%s: binding %d: %T is not a *wgpu.Buffer", p.name, i, cb)
		}
		if b.d != d {
			return newError(op, ErrorTypeInvalidArgument, "%s: binding %d: buffer belongs to another device", p.name, i)
		}
		bufs[i] = b
		key.ids[i] = b.id
	}
	for i := 0; i < key.n; i++ {
		for j := i + 1; j < key.n; j++ {
			if bufs[i] == bufs[j] && (p.bindings[i].Type == BindingStorageReadWrite || p.bindings[j].Type == BindingStorageReadWrite) {
				return newError(op, ErrorTypeInvalidArgument, "%s: bindings %d (%s) and %d (%s) alias one buffer, and one is read_write",
					p.name, i, p.bindings[i].Name, j, p.bindings[j].Name)
			}
		}
	}
	if err := d.acquire(op); err != nil {
		return err
	}
	defer d.life.RUnlock()
	for i := 0; i < key.n; i++ {
		if bufs[i].released.Load() {
			return newError(op, ErrorTypeInvalidArgument, "%s: binding %d: buffer is released", p.name, i)
		}
	}
	s := d.lockStream(id)
	defer s.mu.Unlock()
	bg := s.lastBG
	if bg == nil || s.lastKey != key {
		if bg, err = d.bindGroupFor(op, key, &bufs); err != nil {
			return err
		}
		s.lastKey, s.lastBG = key, bg
	}
	if err := s.openPassLocked(op); err != nil {
		return err
	}
	if s.curPipe != p {
		s.pass.SetPipeline(p.pipe)
		s.curPipe = p
	}
	if s.curBG != bg {
		if _, ok := s.used[bg]; !ok {
			s.used[bg] = struct{}{}
			for _, b := range bg.buffers[:key.n] {
				b.mu.Lock()
				b.users[s] = struct{}{}
				b.mu.Unlock()
			}
		}
		s.pass.SetBindGroup(0, bg.bg, nil)
		s.curBG = bg
	}
	s.pass.DispatchWorkgroups(workgroups[0], workgroups[1], workgroups[2])
	s.dispatches++
	if s.dispatches >= d.maxBatch {
		return s.flushLocked(op)
	}
	return nil
}

// bindGroupFor returns the cached bind group for key, creating it. Called
// with d.life read-locked.
func (d *Device) bindGroupFor(op string, key bgKey, bufs *[maxBindings]*Buffer) (*bindGroup, error) {
	d.bgMu.Lock()
	bg, ok := d.bindGroups[key]
	d.bgMu.Unlock()
	if ok {
		return bg, nil
	}
	entries := make([]gowgpu.BindGroupEntry, key.n)
	for i := range entries {
		entries[i] = gowgpu.BindGroupEntry{Binding: uint32(i), Buffer: bufs[i].buf, Size: bufs[i].size}
	}
	var nbg *gowgpu.BindGroup
	err := d.scoped(op, func() (err error) {
		nbg, err = d.dev.CreateBindGroup(&gowgpu.BindGroupDescriptor{Label: key.p.name, Layout: key.p.bgl, Entries: entries})
		return err
	})
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Message = key.p.name + ": " + e.Message
		}
		return nil, err
	}
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	if old, ok := d.bindGroups[key]; ok { // lost a race: keep the first
		nbg.Release()
		return old, nil
	}
	bg = &bindGroup{key: key, bg: nbg, buffers: *bufs}
	d.bindGroups[key] = bg
	for _, b := range bufs[:key.n] {
		if len(b.bindGroups) == 0 || b.bindGroups[len(b.bindGroups)-1] != bg {
			b.bindGroups = append(b.bindGroups, bg)
		}
	}
	return bg, nil
}

// openPassLocked makes sure the stream has an encoder with an open compute
// pass.
func (s *stream) openPassLocked(op string) error {
	if s.pass != nil {
		return nil
	}
	if err := s.openEncoderLocked(op); err != nil {
		return err
	}
	s.pass = s.enc.BeginComputePass(nil)
	s.curPipe, s.curBG = nil, nil
	return nil
}

// openEncoderLocked makes sure the stream has an encoder.
func (s *stream) openEncoderLocked(op string) error {
	if s.enc != nil {
		return nil
	}
	return s.d.scoped(op, func() (err error) {
		s.enc, err = s.d.dev.CreateCommandEncoder(nil)
		return err
	})
}

// endPassLocked ends the open pass, if any, keeping the encoder.
func (s *stream) endPassLocked(op string) error {
	if s.pass == nil {
		return nil
	}
	err := s.d.scoped(op, s.pass.End)
	s.pass.Release()
	s.pass = nil
	s.curPipe, s.curBG = nil, nil
	return err
}

// flushLocked ends the pass, finishes the encoder and submits its command
// buffer once; on any error nothing is submitted and the batch is dropped.
// Either way the stream is left with nothing pending.
func (s *stream) flushLocked(op string) error {
	if s.enc == nil {
		return nil
	}
	err := s.endPassLocked(op)
	var cmd *gowgpu.CommandBuffer
	ferr := s.d.scoped(op, func() (err error) {
		cmd, err = s.enc.Finish(nil)
		return err
	})
	s.enc.Release()
	s.enc = nil
	s.clearUsedLocked()
	if err == nil {
		err = ferr
	}
	if err == nil {
		s.d.queue.Submit(cmd)
		s.submitted = true
	}
	if cmd != nil {
		cmd.Release()
	}
	return err
}

// discardLocked drops the pending work without submitting it.
func (s *stream) discardLocked() {
	if s.pass != nil {
		s.pass.Release()
		s.pass = nil
	}
	if s.enc != nil {
		s.enc.Release()
		s.enc = nil
	}
	s.clearUsedLocked()
}

func (s *stream) clearUsedLocked() {
	for bg := range s.used {
		for _, b := range bg.buffers[:bg.key.n] {
			b.mu.Lock()
			delete(b.users, s)
			b.mu.Unlock()
		}
		delete(s.used, bg)
	}
	s.dispatches = 0
	s.curPipe, s.curBG = nil, nil
}

// Flush submits the stream's recorded launches without waiting. An error is
// a validation error of that batch (which is then dropped) or [ErrClosed].
func (d *Device) Flush(id gpu.StreamID) error {
	return d.flushStream("Flush", id, false)
}

// flushStream submits the stream's pending launches and, when retire is
// set, forgets the stream (see CloseStream).
func (d *Device) flushStream(op string, id gpu.StreamID, retire bool) error {
	if err := d.acquire(op); err != nil {
		return err
	}
	defer d.life.RUnlock()
	s, ok := d.streams.Load(id)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.flushLocked(op)
	if retire {
		s.closed = true
		s.lastBG = nil
		d.streams.Delete(id)
	}
	return err
}

// Sync flushes the stream and waits until all its submitted work is done
// (it may also wait for work other streams submitted before). If ctx is
// done first it returns ctx.Err(); the work stays submitted and runs.
func (d *Device) Sync(ctx context.Context, id gpu.StreamID) error {
	const op = "Sync"
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := d.acquire(op); err != nil {
		return err
	}
	s, ok := d.streams.Load(id)
	if !ok {
		d.life.RUnlock()
		return nil
	}
	s.mu.Lock()
	ferr := s.flushLocked(op)
	submitted := s.submitted
	s.mu.Unlock()
	if !submitted {
		d.life.RUnlock()
		return ferr
	}
	st := newStatusWord()
	onSubmittedWorkDone(d.queue, st)
	d.life.RUnlock()
	if err := d.waitStatus(ctx, op, st); err != nil {
		d.abandon(st)
		return err
	}
	st.free()
	return ferr
}
