//go:build cgo

package wgpu

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"

	"github.com/streamgate/streamgate/gpu"
)

// inlineBindings is how many buffer ids a bind group cache key holds
// inline; a group with more bindings keys the rest in a string.
const inlineBindings = 16

// bgKey identifies a cached bind group: one group of a pipeline's layout
// and the ids of the buffers bound to that group's bindings, in order.
// Bind groups are cached per group, so a launch that changes only one
// group's buffers reuses the others'.
type bgKey struct {
	g    *pipeGroup
	n    int
	ids  [inlineBindings]uint64
	more string // ids past inlineBindings, 8 bytes each, when n > inlineBindings
}

// bindGroup is a cached bind group. It is released when one of its buffers
// is, or by Close.
type bindGroup struct {
	key     bgKey             // written once
	bg      *gowgpu.BindGroup // written once
	ref     uintptr           // written once: bg's C handle
	buffers []*Buffer         // written once: the n buffers bound
}

// launchRec is one launch recorded on a stream's pending encoder, kept so
// that a batch the driver rejects can be replayed without its bad launches
// (its bind groups are in the stream's bgs, named by its nativeLaunch).
type launchRec struct {
	p   *pipeline
	wg  [3]uint32
	seq uint64
}

// stream is one logical stream's pending work. Launch only appends to a
// Go-side command list (batch, and native, its C-side twin); the list is
// encoded into the stream's command encoder in one cgo crossing
// (encodeLocked) when the batch is flushed, or before anything else is
// written to the encoder (TimeStream's timestamps). All fields are guarded
// by mu. An encoder is finished and its command buffer submitted exactly
// once, in flushLocked, after which both are released and the fields
// cleared: no command buffer can be submitted twice.
type stream struct {
	d  *Device
	id gpu.StreamID

	mu        sync.Mutex
	enc       *gowgpu.CommandEncoder  // nil until something is encoded
	batch     []launchRec             // launches since the last flush, in order
	native    []nativeLaunch          // batch by handle, for the encoder
	bgs       []uintptr               // the bind group handles native's launches name
	encoded   int                     // batch[:encoded] is in enc
	encErr    error                   // encoding into enc failed: the flush isolates
	seq       uint64                  // launches accepted on this stream
	used      map[*bindGroup]struct{} // bind groups the batch uses
	recent    [recentBGs]recentBG     // the bind groups of the last launches (may be released: check buffers first)
	nextSlot  int                     // the slot of recent to replace next
	submitted bool                    // something was submitted on this stream
	closed    bool                    // CloseStream removed it from d.streams: use a fresh one
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
		s := d.lastStream.Load()
		if s == nil || s.id != id {
			s = d.stream(id)
			d.lastStream.Store(s)
		}
		s.mu.Lock()
		if !s.closed {
			return s
		}
		s.mu.Unlock()
		d.lastStream.CompareAndSwap(s, nil)
	}
}

// CloseStream submits the stream's recorded launches, as Flush does, and
// forgets the stream: a device keeps per-stream state (an encoder, the bind
// groups in use) from a stream's first launch until CloseStream or Close,
// so a program that makes many short-lived streams — a client each — must
// close them. Work already submitted still runs; a later launch on the same
// id starts a fresh stream, and a later Sync of it does not wait for work
// submitted before CloseStream. An error is a [*gpu.LaunchError] naming the
// launches of the last batch that the driver rejected (every other launch
// ran), or [ErrClosed].
func (d *Device) CloseStream(id gpu.StreamID) error {
	return d.flushStream("CloseStream", id, true)
}

// Launch records one dispatch of k with the given workgroup counts and
// buffers on stream. The buffers bind in (group, binding) order of k's
// entry point's interface: the bindings the entry point statically uses,
// in whichever of the device's bind groups and with whatever numbering
// (gaps included), sorted by @group then @binding ([CheckKernel] lists
// them). It compiles k first if needed. The dispatch is submitted later:
// when the stream has MaxBatch dispatches pending, on [Device.Flush] or
// [Device.Sync], or on an upload, read-back or release of a buffer it binds.
//
// Launch checks everything it can before recording: k is not nil; the
// workgroup counts against maxComputeWorkgroupsPerDimension; the number of
// buffers against the kernel's bindings; that each buffer is a live
// [*Buffer] of this device; each buffer's size against the minimum its
// binding needs and its usage against the binding's kind (storage or
// uniform), as the WGSL front-end derives them; and that no buffer is
// bound twice where one binding is read_write. Each failure is an [*Error]
// naming the kernel and the binding, and nothing is recorded.
//
// Should the driver still reject a submitted batch, the stream replays it
// without the launches it rejects: every other launch runs exactly once, in
// order, and the call that submitted the batch returns a
// [*gpu.LaunchError] naming the rejected launches.
func (d *Device) Launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	const op = "Launch"
	if k == nil {
		return newError(op, ErrorTypeInvalidArgument, "nil kernel")
	}
	p, err := d.pipelineFor(context.Background(), k)
	if err != nil {
		return err
	}
	if lim := d.limits.MaxComputeWorkgroupsPerDimension; workgroups[0] > lim || workgroups[1] > lim || workgroups[2] > lim {
		return newError(op, ErrorTypeLimit, "%s: workgroups %v exceed maxComputeWorkgroupsPerDimension %d", p.name, workgroups, lim)
	}
	if len(bindings) != len(p.bindings) {
		return newError(op, ErrorTypeValidation, "%s: %d buffers for %d bindings (%s)", p.name, len(bindings), len(p.bindings), bindingList(p.bindings))
	}
	var inline [inlineBindings]*Buffer
	bufs := inline[:0]
	if len(bindings) > inlineBindings {
		bufs = make([]*Buffer, 0, len(bindings))
	}
	for i, cb := range bindings {
		b, ok := cb.(*Buffer)
		if !ok || b == nil {
			return newError(op, ErrorTypeInvalidArgument, "%s: %s: %s is not a *wgpu.Buffer", p.name, p.bindings[i], typeName(cb))
		}
		if b.d != d {
			return newError(op, ErrorTypeInvalidArgument, "%s: %s: buffer belongs to another device", p.name, p.bindings[i])
		}
		if err := p.bindings[i].accepts(b); err != nil && !d.skipChecks {
			return newError(op, ErrorTypeValidation, "%s: %v (checked by Launch)", p.name, err)
		}
		bufs = append(bufs, b)
	}
	for i := range bufs {
		for j := i + 1; j < len(bufs); j++ {
			if bufs[i] == bufs[j] && (p.bindings[i].Type == BindingStorageReadWrite || p.bindings[j].Type == BindingStorageReadWrite) {
				return newError(op, ErrorTypeValidation, "%s: %s and %s alias one buffer, and one is read_write (checked by Launch)",
					p.name, p.bindings[i], p.bindings[j])
			}
		}
	}
	return d.record(op, id, p, bufs, workgroups)
}

// record records a checked launch on stream id. It is apart from Launch so
// that its two defers are open-coded (a function with as many returns as
// Launch pays for its defers at run time).
func (d *Device) record(op string, id gpu.StreamID, p *pipeline, bufs []*Buffer, workgroups [3]uint32) error {
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	for i, b := range bufs {
		if b.released.Load() || b.recycled.Load() {
			return d.deadBinding(op, p, i, b)
		}
	}
	s := d.lockStream(id)
	defer s.mu.Unlock()
	first := len(s.bgs)
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			s.bgs = append(s.bgs, g.emptyRef)
			continue
		}
		bg, err := s.groupBG(op, g, bufs[g.lo:g.hi])
		if err != nil {
			s.bgs = s.bgs[:first]
			return err
		}
		s.bgs = append(s.bgs, bg.ref)
	}
	s.seq++
	s.batch = append(s.batch, launchRec{p: p, wg: workgroups, seq: s.seq})
	s.native = append(s.native, nativeLaunch{pipeline: p.ref, firstGroup: uint32(first), groups: uint32(len(p.groups)),
		x: workgroups[0], y: workgroups[1], z: workgroups[2]})
	if len(s.batch) >= d.maxBatch {
		return s.flushLocked(op)
	}
	return nil
}

// groupBG returns the bind group of group g with bufs bound, from the
// stream's recent ones or the device's cache, and marks it used by the
// batch.
func (s *stream) groupBG(op string, g *pipeGroup, bufs []*Buffer) (*bindGroup, error) {
	key := bgKey{g: g, n: len(bufs)}
	for i, b := range bufs {
		if i == inlineBindings {
			key.more = moreIDs(bufs[inlineBindings:])
			break
		}
		key.ids[i] = b.id
	}
	bg := s.recentBG(&key)
	if bg == nil {
		var err error
		if bg, err = s.d.bindGroupFor(op, key, bufs); err != nil {
			return nil, err
		}
		s.recent[s.nextSlot] = recentBG{key: key, bg: bg}
		s.nextSlot = (s.nextSlot + 1) % recentBGs
	}
	s.useLocked(bg)
	return bg, nil
}

// deadBinding is the error for binding i's buffer b, released or recycled.
func (d *Device) deadBinding(op string, p *pipeline, i int, b *Buffer) error {
	msg := "buffer is released"
	if err := b.live(op); err != nil {
		msg = err.(*Error).Message
	}
	return newError(op, ErrorTypeInvalidArgument, "%s: %s: %s", p.name, p.bindings[i], msg)
}

// recentBGs is how many recent bind groups a stream remembers, so that a
// loop alternating a few kernels finds its bind groups without the device's
// map.
const recentBGs = 4

type recentBG struct {
	key bgKey
	bg  *bindGroup
}

// recentBG returns the bind group of a recent launch with key, or nil. The
// caller has checked that the key's buffers are live, so the bind group is.
func (s *stream) recentBG(key *bgKey) *bindGroup {
	for i := range s.recent {
		if r := &s.recent[i]; r.bg != nil && r.key == *key {
			return r.bg
		}
	}
	return nil
}

// useLocked marks bg's buffers as used by the stream's batch, so that an
// upload, read-back or release of one of them flushes the stream first.
func (s *stream) useLocked(bg *bindGroup) {
	if _, ok := s.used[bg]; ok {
		return
	}
	s.used[bg] = struct{}{}
	for _, b := range bg.buffers {
		b.mu.Lock()
		b.users[s] = struct{}{}
		b.mu.Unlock()
	}
}

// typeName names a binding's dynamic type for an error.
func typeName(b gpu.Buffer) string {
	if b == nil {
		return "nil"
	}
	if wb, ok := b.(*Buffer); ok && wb == nil {
		return "a nil *wgpu.Buffer"
	}
	return fmt.Sprintf("%T", b)
}

// moreIDs encodes the ids of the buffers past inlineBindings for a bgKey.
func moreIDs(bufs []*Buffer) string {
	out := make([]byte, 0, 8*len(bufs))
	for _, b := range bufs {
		out = binary.LittleEndian.AppendUint64(out, b.id)
	}
	return string(out)
}

// bindGroupFor returns the cached bind group for key, creating it. Called
// with d.life read-locked.
func (d *Device) bindGroupFor(op string, key bgKey, bufs []*Buffer) (*bindGroup, error) {
	d.bgMu.Lock()
	bg, ok := d.bindGroups[key]
	d.bgMu.Unlock()
	if ok {
		return bg, nil
	}
	entries := make([]gowgpu.BindGroupEntry, key.n)
	for i := range entries {
		entries[i] = gowgpu.BindGroupEntry{Binding: key.g.binds[i].Index, Buffer: bufs[i].buf, Size: bufs[i].size}
	}
	var nbg *gowgpu.BindGroup
	err := d.scoped(op, func() (err error) {
		nbg, err = d.dev.CreateBindGroup(&gowgpu.BindGroupDescriptor{Label: key.g.name, Layout: key.g.bgl, Entries: entries})
		return err
	})
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Message = key.g.name + ": " + e.Message
		}
		return nil, err
	}
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	if old, ok := d.bindGroups[key]; ok { // lost a race: keep the first
		nbg.Release()
		return old, nil
	}
	bg = &bindGroup{key: key, bg: nbg, ref: bindGroupRef(nbg), buffers: append([]*Buffer(nil), bufs...)}
	d.bindGroups[key] = bg
	for _, b := range bg.buffers {
		if len(b.bindGroups) == 0 || b.bindGroups[len(b.bindGroups)-1] != bg {
			b.bindGroups = append(b.bindGroups, bg)
		}
	}
	return bg, nil
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

// encodeLocked encodes the launches recorded since the last encode into
// the encoder, as one compute pass, in one cgo crossing. An error (the
// driver rejected something in the pass) is kept for flushLocked, which
// then replays the batch without the bad launches.
func (s *stream) encodeLocked(op string) error {
	if s.encoded == len(s.batch) {
		return s.encErr
	}
	if err := s.openEncoderLocked(op); err != nil {
		return err
	}
	d := s.d
	d.scopeMu.Lock()
	typ, msg, failed := encodePass(d.dev, s.enc, s.native[s.encoded:], s.bgs)
	d.scopeMu.Unlock()
	s.encoded = len(s.batch)
	if failed && s.encErr == nil {
		s.encErr = &Error{Op: op, Type: typ, Message: msg}
	}
	return s.encErr
}

// flushLocked encodes what is pending, finishes the encoder and submits
// its command buffer once. When the driver rejects the batch (nothing of
// it ran), it replays the batch without the launches the driver rejects,
// so every good launch runs exactly once, and returns a [*gpu.LaunchError]
// naming the rejected ones. Either way the stream is left with nothing
// pending.
func (s *stream) flushLocked(op string) error {
	if s.enc == nil && len(s.batch) == 0 {
		return nil
	}
	err := s.encodeLocked(op)
	if s.enc == nil { // no encoder could be made: err says why
		s.clearUsedLocked()
		return err
	}
	var cmd *gowgpu.CommandBuffer
	ferr := s.d.scoped(op, func() (err error) {
		cmd, err = s.enc.Finish(nil)
		return err
	})
	s.enc.Release()
	s.enc = nil
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
	if err != nil && len(s.batch) > 0 {
		err = s.isolateLocked(op, err)
	}
	s.clearUsedLocked()
	return err
}

// isolateLocked replays s.batch, which the driver rejected as a whole with
// err, in halves: each part that the driver accepts is submitted, in stream
// order, and each launch rejected on its own is reported.
func (s *stream) isolateLocked(op string, err error) error {
	le := &gpu.LaunchError{Stream: s.id}
	var split func(lo, hi int, known error)
	split = func(lo, hi int, known error) {
		if lo == hi {
			return
		}
		err := known
		if err == nil {
			err = s.submitPartLocked(op, s.native[lo:hi])
		}
		if err == nil {
			return
		}
		if hi-lo == 1 {
			r := s.batch[lo]
			le.Failed = append(le.Failed, gpu.FailedLaunch{Seq: r.seq, Kernel: r.p.name, Err: err})
			return
		}
		mid := lo + (hi-lo)/2
		split(lo, mid, nil)
		split(mid, hi, nil)
	}
	split(0, len(s.batch), err)
	if len(le.Failed) == 0 {
		// The batch failed, yet every part of it passed on replay: the
		// failure was not a launch's (the good launches ran once).
		return err
	}
	return le
}

// submitPartLocked encodes part into a fresh encoder and submits it, or
// returns the driver's error and submits nothing.
func (s *stream) submitPartLocked(op string, part []nativeLaunch) error {
	d := s.d
	return d.submitOnce(op, func(enc *gowgpu.CommandEncoder) error {
		d.scopeMu.Lock()
		typ, msg, failed := encodePass(d.dev, enc, part, s.bgs)
		d.scopeMu.Unlock()
		if failed {
			return &Error{Op: op, Type: typ, Message: msg}
		}
		s.submitted = true
		return nil
	})
}

// discardLocked drops the pending work without submitting it.
func (s *stream) discardLocked() {
	if s.enc != nil {
		s.enc.Release()
		s.enc = nil
	}
	s.clearUsedLocked()
}

// clearUsedLocked forgets the batch: the bind groups it used and its
// records.
func (s *stream) clearUsedLocked() {
	for bg := range s.used {
		for _, b := range bg.buffers {
			b.mu.Lock()
			delete(b.users, s)
			b.mu.Unlock()
		}
		delete(s.used, bg)
	}
	clear(s.batch)
	s.batch = s.batch[:0]
	s.native = s.native[:0]
	s.bgs = s.bgs[:0]
	s.encoded, s.encErr = 0, nil
}

// Flush submits the stream's recorded launches without waiting. An error is
// a [*gpu.LaunchError] naming the launches the driver rejected (every other
// launch was submitted), or [ErrClosed].
func (d *Device) Flush(id gpu.StreamID) error {
	return d.flushStream("Flush", id, false)
}

// flushStream submits the stream's pending launches and, when retire is
// set, forgets the stream (see CloseStream).
func (d *Device) flushStream(op string, id gpu.StreamID, retire bool) error {
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	s, ok := d.streams.Load(id)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err = s.flushLocked(op)
	if retire {
		s.closed = true
		s.recent = [recentBGs]recentBG{}
		d.streams.Delete(id)
	}
	return err
}

// Sync flushes the stream and waits until all its submitted work is done
// (it may also wait for work other streams submitted before). If ctx is
// done first it returns ctx.Err(); the work stays submitted and runs, and
// the cancelled wait keeps no memory once the driver reports the work done.
// A [*gpu.LaunchError] from the flush is returned after the wait.
func (d *Device) Sync(ctx context.Context, id gpu.StreamID) error {
	const op = "Sync"
	if err := ctx.Err(); err != nil {
		return err
	}
	st, waiting, ferr := d.syncStart(op, id)
	if !waiting {
		return ferr
	}
	if err := d.waitStatus(ctx, op, st); err != nil {
		st.abandon()
		return err
	}
	st.free()
	return ferr
}

// syncStart flushes the stream and, when it has submitted work, asks the
// queue to set a status word once that work is done.
func (d *Device) syncStart(op string, id gpu.StreamID) (st statusWord, waiting bool, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return st, false, err
	}
	defer leave()
	s, ok := d.streams.Load(id)
	if !ok {
		return st, false, nil
	}
	s.mu.Lock()
	ferr := s.flushLocked(op)
	submitted := s.submitted
	s.mu.Unlock()
	if !submitted {
		return st, false, ferr
	}
	st = newStatusWord()
	onSubmittedWorkDone(d.queue, st)
	return st, true, ferr
}

// accepts checks that b can be bound at this binding: large enough and with
// the usage its kind needs. The error names the binding, the sizes and the
// usage.
func (bd Binding) accepts(b *Buffer) error {
	if b.size < bd.MinSize {
		return fmt.Errorf("%s: buffer of %d bytes is smaller than the %d bytes its type %s needs", bd, b.size, bd.MinSize, bd.WGSL)
	}
	switch bd.Type {
	case BindingUniform:
		if b.usage&BufferUsageUniform == 0 {
			return fmt.Errorf("%s is var<uniform>, but the buffer's usage %v lacks BufferUsageUniform", bd, b.usage)
		}
	default:
		if b.usage&BufferUsageStorage == 0 {
			return fmt.Errorf("%s is var<storage>, but the buffer's usage %v lacks BufferUsageStorage", bd, b.usage)
		}
	}
	return nil
}
