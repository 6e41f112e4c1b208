//go:build js && wasm

package wgpu

import (
	"context"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/streamgate/streamgate/gpu"
)

// bufferIDs hands out process-unique buffer ids (bind group cache keys).
var bufferIDs atomic.Uint64

// Buffer is a device buffer (a GPUBuffer of the page). It implements
// gpu.Buffer. It is safe for concurrent use by multiple goroutines; uploads
// and read-backs are ordered with the launches of every stream that binds
// the buffer, as in the desktop build. The zero value is not usable; use
// [Device.NewBuffer]. Release it with [Buffer.Release] or, for all
// buffers at once, [Device.Close].
type Buffer struct {
	d     *Device     // written once
	id    uint64      // written once
	size  uint64      // written once
	usage BufferUsage // written once
	ref   int         // written once: the GPUBuffer's index in the device's JS table

	released atomic.Bool
	recycled atomic.Bool
	gen      atomic.Uint64

	mu     sync.Mutex           // guards users and graphs
	users  map[*stream]struct{} // streams whose unsubmitted work binds the buffer
	graphs []*Graph             // live graphs binding the buffer

	bindGroups []*bindGroup // guarded by d.bgMu
}

var _ gpu.Buffer = (*Buffer)(nil)

// NewBuffer creates a buffer of size bytes (a multiple of 4) with the given
// usage (0 means [BufferUsageDefault]), checked against the device's
// limits as in the desktop build, and against WebGPU's rule that
// BufferUsageMapRead goes only with BufferUsageCopyDst and
// BufferUsageMapWrite only with BufferUsageCopySrc (the browser would make
// an invalid buffer, and say so only later).
func (d *Device) NewBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	const op = "NewBuffer"
	if usage == 0 {
		usage = BufferUsageDefault
	}
	switch {
	case size == 0 || size%4 != 0:
		return nil, newError(op, ErrorTypeInvalidArgument, "size %d is not a positive multiple of 4", size)
	case size > d.limits.MaxBufferSize:
		return nil, newError(op, ErrorTypeLimit, "size %d exceeds maxBufferSize %d", size, d.limits.MaxBufferSize)
	case usage&BufferUsageStorage != 0 && size > d.limits.MaxStorageBufferBindingSize:
		return nil, newError(op, ErrorTypeLimit, "storage buffer size %d exceeds maxStorageBufferBindingSize %d", size, d.limits.MaxStorageBufferBindingSize)
	case usage&BufferUsageUniform != 0 && size > d.limits.MaxUniformBufferBindingSize:
		return nil, newError(op, ErrorTypeLimit, "uniform buffer size %d exceeds maxUniformBufferBindingSize %d", size, d.limits.MaxUniformBufferBindingSize)
	case usage&BufferUsageMapRead != 0 && usage&^(BufferUsageMapRead|BufferUsageCopyDst) != 0:
		return nil, newError(op, ErrorTypeValidation, "usage %v: WebGPU allows MapRead only with CopyDst", usage)
	case usage&BufferUsageMapWrite != 0 && usage&^(BufferUsageMapWrite|BufferUsageCopySrc) != 0:
		return nil, newError(op, ErrorTypeValidation, "usage %v: WebGPU allows MapWrite only with CopySrc", usage)
	case usage >= 2*BufferUsageQueryResolve:
		return nil, newError(op, ErrorTypeValidation, "usage %v has unknown bits", usage)
	}
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	var ref int
	catchJS(op, &err, func() { ref = d.rt.newBuffer.Invoke(float64(size), int(usage)).Int() })
	if err != nil {
		return nil, err
	}
	d.buffersCreated.Add(1)
	b := &Buffer{d: d, id: bufferIDs.Add(1), size: size, usage: usage, ref: ref, users: map[*stream]struct{}{}}
	d.mu.Lock()
	d.buffers[b] = struct{}{}
	d.mu.Unlock()
	return b, nil
}

// Size returns the buffer's size in bytes (0 for a nil *Buffer).
func (b *Buffer) Size() uint64 {
	if b == nil {
		return 0
	}
	return b.size
}

// Usage returns the buffer's usage.
func (b *Buffer) Usage() BufferUsage { return b.usage }

// Device returns the device that owns the buffer.
func (b *Buffer) Device() *Device { return b.d }

// enter enters the device for op and checks that b is a live buffer.
func (b *Buffer) enter(op string) (leave func(), err error) {
	if b == nil {
		return nil, newError(op, ErrorTypeInvalidArgument, "nil buffer")
	}
	leave, err = b.d.enter(op)
	if err != nil {
		return nil, err
	}
	if err := b.live(op); err != nil {
		leave()
		return nil, err
	}
	return leave, nil
}

// live checks that b is neither released nor recycled.
func (b *Buffer) live(op string) error {
	switch {
	case b.released.Load():
		return newError(op, ErrorTypeInvalidArgument, "buffer is released")
	case b.recycled.Load():
		return newError(op, ErrorTypeInvalidArgument, "buffer is recycled (Device.TempBuffer has not handed it out again)")
	}
	return nil
}

// flushUsers submits the pending work of every stream that binds b.
// Called inside d.enter.
func (b *Buffer) flushUsers(op string) error {
	b.mu.Lock()
	var inline [8]*stream
	users := inline[:0]
	for s := range b.users {
		users = append(users, s)
	}
	for _, g := range b.graphs {
		if s := g.pendingOn.Load(); s != nil {
			users = append(users, s)
		}
	}
	b.mu.Unlock()
	var first error
	for _, s := range users {
		s.mu.Lock()
		err := s.flushLocked(op)
		s.mu.Unlock()
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// writeAt uploads data at byte offset (queue.writeBuffer), after the
// pending work of the streams that bind b.
func (b *Buffer) writeAt(op string, offset uint64, data []byte) error {
	leave, err := b.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	if err := b.checkRange(op, offset, uint64(len(data))); err != nil {
		return err
	}
	if err := b.needUsage(op, BufferUsageCopyDst, "the"); err != nil {
		return err
	}
	ferr := b.flushUsers(op)
	if len(data) == 0 {
		return ferr
	}
	d := b.d
	d.jsMu.Lock()
	catchJS(op, &err, func() {
		d.rt.load(data)
		d.rt.write.Invoke(b.ref, float64(offset), len(data))
	})
	d.jsMu.Unlock()
	if err != nil {
		return err
	}
	return ferr
}

// readAt reads into dst once the work before it is done: it submits the
// pending work of the streams that bind b, copies the range to a staging
// buffer, and awaits its mapping (from a goroutine; inside a js.FuncOf
// callback it refuses). err means dst was not filled; ferr is the flush's
// error.
func (b *Buffer) readAt(ctx context.Context, op string, offset uint64, dst []byte) (ferr, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if inCallback() {
		return nil, callbackError(op)
	}
	p, ferr, err := b.startRead(op, offset, uint64(len(dst)))
	if err != nil || p.IsUndefined() {
		return ferr, err
	}
	v, err := await(ctx, op, p)
	if err != nil {
		return nil, err
	}
	js.CopyBytesToGo(dst, v)
	return ferr, nil
}

// startRead checks the range, flushes the streams that bind b and starts
// the copy to a staging buffer; an empty range starts nothing (p is
// undefined).
func (b *Buffer) startRead(op string, offset, size uint64) (p js.Value, ferr, err error) {
	leave, err := b.enter(op)
	if err != nil {
		return js.Value{}, nil, err
	}
	defer leave()
	if err := b.checkRange(op, offset, size); err != nil {
		return js.Value{}, nil, err
	}
	if err := b.needUsage(op, BufferUsageCopySrc, "the"); err != nil {
		return js.Value{}, nil, err
	}
	ferr = b.flushUsers(op)
	if size == 0 {
		return js.Value{}, ferr, nil
	}
	b.d.stagingMade.Add(1)
	catchJS(op, &err, func() { p = b.d.rt.read.Invoke(b.ref, float64(offset), float64(size)) })
	return p, ferr, err
}

// CopyTo copies size bytes of b at srcOff to dst at dstOff, on the GPU,
// with the checks and the ordering of the desktop build's CopyTo.
func (b *Buffer) CopyTo(dst *Buffer, srcOff, dstOff, size uint64) error {
	const op = "CopyTo"
	if dst == nil {
		return newError(op, ErrorTypeInvalidArgument, "nil destination buffer")
	}
	leave, err := b.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	switch {
	case dst.d != b.d:
		return newError(op, ErrorTypeInvalidArgument, "destination buffer belongs to another device")
	case dst == b:
		return newError(op, ErrorTypeValidation, "source and destination are the same buffer")
	}
	if err := dst.live(op); err != nil {
		return err
	}
	if err := b.checkRange(op, srcOff, size); err != nil {
		return newError(op, ErrorTypeValidation, "source: %s", err.(*Error).Message)
	}
	if err := dst.checkRange(op, dstOff, size); err != nil {
		return newError(op, ErrorTypeValidation, "destination: %s", err.(*Error).Message)
	}
	if err := b.needUsage(op, BufferUsageCopySrc, "the source"); err != nil {
		return err
	}
	if err := dst.needUsage(op, BufferUsageCopyDst, "the destination"); err != nil {
		return err
	}
	ferr := b.flushUsers(op)
	if err := dst.flushUsers(op); ferr == nil {
		ferr = err
	}
	if size == 0 {
		return ferr
	}
	catchJS(op, &err, func() { b.d.rt.copy.Invoke(b.ref, float64(srcOff), dst.ref, float64(dstOff), float64(size)) })
	if err != nil {
		return err
	}
	return ferr
}

// Clear zeroes size bytes of the buffer at offset, on the GPU, as the
// desktop build's Clear does.
func (b *Buffer) Clear(offset, size uint64) error {
	const op = "Clear"
	leave, err := b.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	if err := b.checkRange(op, offset, size); err != nil {
		return err
	}
	if err := b.needUsage(op, BufferUsageCopyDst, "the"); err != nil {
		return err
	}
	ferr := b.flushUsers(op)
	if size == 0 {
		return ferr
	}
	catchJS(op, &err, func() { b.d.rt.copy.Invoke(0, 0, b.ref, float64(offset), float64(size)) })
	if err != nil {
		return err
	}
	return ferr
}

// Release releases the buffer: work already recorded that binds it is
// submitted first and still runs (the browser destroys a GPUBuffer only
// once the work submitted with it is done), the bind groups that use it
// leave the cache, and later launches, uploads and read-backs return an
// error. Releasing twice, or after [Device.Close], is harmless.
func (b *Buffer) Release() {
	if b == nil {
		return
	}
	d := b.d
	if d.closed.Load() {
		return
	}
	d.life.Lock()
	defer d.life.Unlock()
	if d.closed.Load() || b.released.Swap(true) {
		return
	}
	b.flushUsers("Release")
	d.bufEpoch.Add(1)
	b.mu.Lock()
	b.graphs = nil
	b.mu.Unlock()
	d.bgMu.Lock()
	for _, bg := range b.bindGroups {
		if d.bindGroups[bg.key] == bg {
			delete(d.bindGroups, bg.key)
		}
		for _, o := range bg.buffers {
			if o != nil && o != b {
				o.bindGroups = removeBG(o.bindGroups, bg)
			}
		}
		d.rt.del.Invoke(bg.ref)
	}
	b.bindGroups = nil
	d.bgMu.Unlock()
	d.mu.Lock()
	delete(d.buffers, b)
	d.mu.Unlock()
	d.rt.destroy.Invoke(b.ref)
}

func removeBG(s []*bindGroup, bg *bindGroup) []*bindGroup {
	for i, x := range s {
		if x == bg {
			s[i] = s[len(s)-1]
			return s[:len(s)-1]
		}
	}
	return s
}

// TempBuffer returns a buffer of size bytes and the given usage (0 means
// [BufferUsageDefault]) for transient use: one [Buffer.Recycle] handed
// back, of exactly that size and usage, or a new one. In a browser a
// recycled buffer is ready at once: every stream submits to the device's
// one queue, which runs work in order, so a launch recorded before the
// Recycle (submitted by it) runs before anything the next user submits.
func (d *Device) TempBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	const op = "TempBuffer"
	if usage == 0 {
		usage = BufferUsageDefault
	}
	if d.closed.Load() {
		return nil, closedError(op)
	}
	key := tempKey{size, usage}
	d.poolMu.Lock()
	if l := d.temp[key]; len(l) > 0 {
		b := l[len(l)-1]
		d.temp[key] = l[:len(l)-1]
		d.tempHeld--
		d.tempBytes -= size
		d.tempHits++
		d.poolMu.Unlock()
		b.recycled.Store(false)
		return b, nil
	}
	d.tempMisses++
	d.poolMu.Unlock()
	return d.NewBuffer(size, usage)
}

// Recycle hands the buffer back for [Device.TempBuffer] to reuse: it
// submits the pending work of the streams that bind it, and until
// TempBuffer hands it out again it cannot be used. Past the device's
// [Options].TempPoolBytes it is released instead.
func (b *Buffer) Recycle() {
	if b == nil {
		return
	}
	d := b.d
	leave, err := b.enter("Recycle")
	if err != nil {
		return
	}
	b.flushUsers("Recycle")
	limit := poolLimitJS(d.opts.TempPoolBytes, DefaultTempPoolBytes)
	d.poolMu.Lock()
	keep := d.tempBytes+b.size <= limit
	if keep {
		b.recycled.Store(true)
		b.gen.Add(1)
		d.bufEpoch.Add(1)
		k := tempKey{b.size, b.usage}
		d.temp[k] = append(d.temp[k], b)
		d.tempHeld++
		d.tempBytes += b.size
	}
	d.poolMu.Unlock()
	leave()
	if !keep {
		b.Release()
	}
}

// poolLimitJS returns a pool's byte limit from its option: 0 means def,
// negative none.
func poolLimitJS(opt int64, def uint64) uint64 {
	switch {
	case opt == 0:
		return def
	case opt < 0:
		return 0
	}
	return uint64(opt)
}
