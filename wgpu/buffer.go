package wgpu

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
)

// A buffer and the calls on it. Each backend has its bufHandle and the few
// calls that make, fill, read, copy and drop one (buffer_native.go,
// buffer_js.go).

// checkRange checks that [offset, offset+size) is a 4-aligned range inside
// b. The error names the offset, length and size.
func (b *Buffer) checkRange(op string, offset, size uint64) error {
	switch {
	case offset%4 != 0 || size%4 != 0:
		return newError(op, ErrorTypeValidation, "offset %d and length %d must be multiples of 4 (buffer size %d)", offset, size, b.size)
	case offset > b.size || size > b.size-offset:
		return newError(op, ErrorTypeValidation, "offset %d + length %d is past the buffer's size %d", offset, size, b.size)
	}
	return nil
}

// needUsage checks that b has usage u for op.
func (b *Buffer) needUsage(op string, u BufferUsage, role string) error {
	if b.usage&u == 0 {
		return newError(op, ErrorTypeValidation, "%s buffer's usage %v lacks %s", role, b.usage, "BufferUsage"+u.String())
	}
	return nil
}

// bufferIDs hands out process-unique buffer ids (bind group cache keys).
var bufferIDs atomic.Uint64

// Buffer is a device buffer (in a browser, a GPUBuffer of the page). It
// implements gpu.Buffer. It is safe for concurrent use by multiple
// goroutines; uploads and read-backs are ordered with the launches of every
// stream that binds the buffer (see [Write] and [ReadInto]). The zero value
// is not usable; use [Device.NewBuffer]. The device owns the underlying
// buffer: release it with [Buffer.Release] or, for all buffers at once,
// [Device.Close].
type Buffer struct {
	d     *Device     // written once
	id    uint64      // written once
	size  uint64      // written once
	usage BufferUsage // written once
	buf   bufHandle   // written once; released under d.life's write lock

	released atomic.Bool   // set once, under d.life's write lock
	recycled atomic.Bool   // set while the buffer waits in the device's TempBuffer pool
	gen      atomic.Uint64 // how many times the buffer was recycled (a graph's buffer must not have been since its capture)

	mu     sync.Mutex           // guards users and graphs
	users  map[*stream]struct{} // streams whose unsubmitted work binds the buffer
	graphs []*Graph             // live graphs binding the buffer (their replays' streams are users too)

	bindGroups []*bindGroup // guarded by d.bgMu: cached bind groups using the buffer

	// A launch binds a texture view or a sampler through a Buffer of its
	// own, its slot (a field of the TextureView or Sampler, never handed
	// out): the launch path, the bind group cache, the streams' use of a
	// binding and a graph's liveness checks are then the same for every
	// kind of binding. A slot has size 0 and no usage; exactly one of
	// these is set on a slot, neither on a buffer. Written once.
	view    *TextureView
	sampler *Sampler
}

var _ gpu.Buffer = (*Buffer)(nil)

// NewBuffer creates a buffer of size bytes (a multiple of 4) with the given
// usage (0 means [BufferUsageDefault]). The size is checked against
// maxBufferSize, and for storage and uniform usage against the binding size
// limits, since launches bind whole buffers; a failed check is an [*Error]
// of type [ErrorTypeLimit]. In a browser the usage is also checked against
// WebGPU's rule that BufferUsageMapRead goes only with BufferUsageCopyDst
// and BufferUsageMapWrite only with BufferUsageCopySrc (the browser would
// make an invalid buffer, and say so only later).
func (d *Device) NewBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	if d == nil {
		return nil, nilDeviceError("NewBuffer")
	}
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
	}
	if err := checkWebGPUUsage(op, usage); err != nil {
		return nil, err
	}
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	h, err := d.newBufHandle(op, size, usage)
	if err != nil {
		return nil, err
	}
	d.buffersCreated.Add(1)
	b := &Buffer{d: d, id: bufferIDs.Add(1), size: size, usage: usage, buf: h, users: map[*stream]struct{}{}}
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
func (b *Buffer) Usage() BufferUsage {
	if b == nil {
		return 0
	}
	return b.usage
}

// Device returns the device that owns the buffer.
func (b *Buffer) Device() *Device {
	if b == nil {
		return nil
	}
	return b.d
}

// enter enters the device for op (see [Device.enter]) and checks that b is
// a live buffer.
func (b *Buffer) enter(op string) (leave func(), err error) {
	if b == nil {
		return nil, nilBufferError(op)
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

// live checks that b is neither released nor recycled. Called inside
// d.enter.
func (b *Buffer) live(op string) error {
	switch {
	case b.released.Load() && b.view != nil:
		return newError(op, ErrorTypeInvalidArgument, "texture is released")
	case b.released.Load() && b.sampler != nil:
		return newError(op, ErrorTypeInvalidArgument, "sampler is released")
	case b.released.Load():
		return newError(op, ErrorTypeInvalidArgument, "buffer is released")
	case b.recycled.Load() && b.view != nil:
		return newError(op, ErrorTypeInvalidArgument, "texture is recycled (Device.TempTexture has not handed it out again)")
	case b.recycled.Load():
		return newError(op, ErrorTypeInvalidArgument, "buffer is recycled (Device.TempBuffer has not handed it out again)")
	}
	return nil
}

// flushUsers submits the pending work of every stream that binds b, so that
// an upload or read-back is ordered after it. Called with d.life read-locked.
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

// writeAt uploads data to the buffer at byte offset (see [Write]).
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
	if err := b.d.queueWrite(op, b.buf, offset, data); err != nil {
		return err
	}
	return ferr
}

// startRead checks the range, submits the pending work of the streams that
// bind b (ferr is that flush's error) and starts copying the range to a
// staging buffer. A zero-length range starts nothing (rd is the zero
// pendingRead: its stg is nil).
func (b *Buffer) startRead(op string, offset, size uint64) (rd pendingRead, ferr, err error) {
	leave, err := b.enter(op)
	if err != nil {
		return rd, nil, err
	}
	defer leave()
	if err := b.checkRange(op, offset, size); err != nil {
		return rd, nil, err
	}
	if err := b.needUsage(op, BufferUsageCopySrc, "the"); err != nil {
		return rd, nil, err
	}
	ferr = b.flushUsers(op)
	if size == 0 {
		return rd, ferr, nil
	}
	rd, err = b.d.startReadAt(op, b.buf, offset, size)
	return rd, ferr, err
}

// CopyTo copies size bytes of b at srcOff to dst at dstOff, on the GPU.
// Both buffers must be live buffers of one device, distinct (WebGPU
// copies between two buffers only), b with [BufferUsageCopySrc] and dst
// with [BufferUsageCopyDst]; offsets and size must be multiples of 4 and
// both ranges inside their buffers. The copy is ordered like an upload:
// CopyTo first submits the pending work of every stream that binds either
// buffer, so launches recorded before it see the old contents of dst and
// launches recorded after see the copy (an error from that submit is
// returned, and the copy still happens). CopyTo does not wait for the copy.
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
	if err := b.d.submitCopy(op, b.buf, srcOff, dst.buf, dstOff, size); err != nil {
		return err
	}
	return ferr
}

// Clear zeroes size bytes of the buffer at offset, on the GPU (the
// encoder's ClearBuffer). offset and size must be multiples of 4 and the
// range inside the buffer, which needs [BufferUsageCopyDst]. It is ordered
// like [Write] and does not wait for the clear.
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
	var none bufHandle // the zero handle: the copy clears
	if err := b.d.submitCopy(op, none, 0, b.buf, offset, size); err != nil {
		return err
	}
	return ferr
}

// Release releases the buffer. Work already recorded that binds it is
// submitted first and still runs (wgpu-native keeps the buffer alive until
// that work completes, and this package never destroys a buffer explicitly;
// the browser destroys a GPUBuffer only once the work submitted with it is
// done). The bind groups that use it leave the cache.
// Later launches binding it, uploads and read-backs return an error.
// Release briefly excludes every other call on the device. Releasing twice,
// or after [Device.Close], is harmless.
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
	b.flushUsers("Release") // errors belong to those streams' launches; nothing to report here
	d.bufEpoch.Add(1)       // every graph checks its buffers again
	b.mu.Lock()
	b.graphs = nil
	b.mu.Unlock()
	d.evictBindGroups(b)
	d.mu.Lock()
	delete(d.buffers, b)
	d.mu.Unlock()
	d.dropBuffer(b.buf)
}

// retire marks a view's or sampler's slot released, as its texture's or
// sampler's Release does: later launches binding it are refused, graphs
// binding it check again, and its cached bind groups are released. Called
// with d.life write-locked, after the slot's users were flushed.
func (b *Buffer) retire() {
	b.released.Store(true)
	b.mu.Lock()
	b.graphs = nil
	b.mu.Unlock()
	b.d.evictBindGroups(b)
}

// evictBindGroups drops the cached bind groups that bind b (a buffer, or a
// view's or sampler's slot) from the cache and releases them. Called with
// d.life write-locked, once b is marked released.
func (d *Device) evictBindGroups(b *Buffer) {
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
		d.dropBindGroup(bg)
	}
	b.bindGroups = nil
	d.bgMu.Unlock()
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

// readAt reads into dst once the work before it is done: it submits the
// pending work of the streams that bind b, copies the range to a pooled
// staging buffer and waits for its mapping. err means dst was not filled;
// ferr is the flush's error (dst was filled).
func (b *Buffer) readAt(ctx context.Context, op string, offset uint64, dst []byte) (ferr, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rd, ferr, err := b.startRead(op, offset, uint64(len(dst)))
	if err != nil || rd.stg == nil {
		return ferr, err
	}
	if err := b.d.finishReadInto(ctx, op, rd, dst); err != nil {
		return nil, err
	}
	return ferr, nil
}
