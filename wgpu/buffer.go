//go:build cgo

package wgpu

import (
	"context"
	"encoding/binary"
	"math"
	"sync"
	"sync/atomic"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"

	"github.com/streamgate/streamgate/gpu"
)

// bufferIDs hands out process-unique buffer ids (bind group cache keys).
var bufferIDs atomic.Uint64

// Buffer is a device buffer. It implements gpu.Buffer. It is safe for
// concurrent use by multiple goroutines; uploads and read-backs are ordered
// with the launches of every stream that binds the buffer (see
// [Buffer.Write] and [Buffer.Read]). The zero value is not usable; use
// [Device.NewBuffer]. The device owns the underlying wgpu buffer: release it
// with [Buffer.Release] or, for all buffers at once, [Device.Close].
type Buffer struct {
	d     *Device        // written once
	id    uint64         // written once
	size  uint64         // written once
	usage BufferUsage    // written once
	buf   *gowgpu.Buffer // written once; released under d.life's write lock

	released atomic.Bool // set once, under d.life's write lock

	mu    sync.Mutex           // guards users
	users map[*stream]struct{} // streams whose unsubmitted work binds the buffer

	bindGroups []*bindGroup // guarded by d.bgMu: cached bind groups using the buffer
}

var _ gpu.Buffer = (*Buffer)(nil)

// NewBuffer creates a buffer of size bytes (a multiple of 4) with the given
// usage (0 means [BufferUsageDefault]). The size is checked against
// maxBufferSize, and for storage and uniform usage against the binding size
// limits, since launches bind whole buffers; a failed check is an [*Error]
// of type [ErrorTypeLimit].
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
	}
	if err := d.acquire(op); err != nil {
		return nil, err
	}
	defer d.life.RUnlock()
	var nb *gowgpu.Buffer
	err := d.scoped(op, func() (err error) {
		nb, err = d.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: size, Usage: gowgpu.BufferUsage(usage)})
		return err
	})
	if err != nil {
		return nil, err
	}
	b := &Buffer{d: d, id: bufferIDs.Add(1), size: size, usage: usage, buf: nb, users: map[*stream]struct{}{}}
	d.mu.Lock()
	d.buffers[b] = struct{}{}
	d.mu.Unlock()
	return b, nil
}

// Size returns the buffer's size in bytes.
func (b *Buffer) Size() uint64 { return b.size }

// Usage returns the buffer's usage.
func (b *Buffer) Usage() BufferUsage { return b.usage }

// Device returns the device that owns the buffer.
func (b *Buffer) Device() *Device { return b.d }

// acquire read-locks the device for op and checks that b is live.
func (b *Buffer) acquire(op string) error {
	if err := b.d.acquire(op); err != nil {
		return err
	}
	if b.released.Load() {
		b.d.life.RUnlock()
		return newError(op, ErrorTypeInvalidArgument, "buffer is released")
	}
	return nil
}

// flushUsers submits the pending work of every stream that binds b, so that
// an upload or read-back is ordered after it. Called with d.life read-locked.
func (b *Buffer) flushUsers(op string) error {
	b.mu.Lock()
	var users []*stream
	for s := range b.users {
		users = append(users, s)
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

// Write uploads data to the start of the buffer. len(data) must be a
// multiple of 4 and at most Size. Launches recorded before Write (on any
// stream) see the old contents and launches recorded after see data: Write
// first submits the pending work of the streams that bind the buffer (an
// error from that submit is returned, and the upload still happens).
func (b *Buffer) Write(data []byte) error {
	const op = "Write"
	if uint64(len(data)) > b.size || len(data)%4 != 0 {
		return newError(op, ErrorTypeInvalidArgument, "%d bytes: want a multiple of 4 up to the buffer size %d", len(data), b.size)
	}
	if err := b.acquire(op); err != nil {
		return err
	}
	defer b.d.life.RUnlock()
	ferr := b.flushUsers(op)
	if len(data) == 0 {
		return ferr
	}
	err := b.d.scoped(op, func() error { return b.d.queue.WriteBuffer(b.buf, 0, data) })
	if err != nil {
		return err
	}
	return ferr
}

// WriteFloat32 uploads v (little-endian) to the start of the buffer, as
// [Buffer.Write].
func (b *Buffer) WriteFloat32(v []float32) error {
	data := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(f))
	}
	return b.Write(data)
}

// WriteUint32 uploads v (little-endian) to the start of the buffer, as
// [Buffer.Write].
func (b *Buffer) WriteUint32(v []uint32) error {
	data := make([]byte, 4*len(v))
	for i, u := range v {
		binary.LittleEndian.PutUint32(data[4*i:], u)
	}
	return b.Write(data)
}

// Read returns the buffer's contents once every launch recorded before it
// that binds the buffer has run: it submits those streams' pending work,
// copies the buffer to a staging buffer and waits for the copy. The buffer
// needs [BufferUsageCopySrc]. If ctx is done first, Read returns ctx.Err()
// (the submitted work still runs).
func (b *Buffer) Read(ctx context.Context) ([]byte, error) {
	const op = "Read"
	if err := b.acquire(op); err != nil {
		return nil, err
	}
	ferr := b.flushUsers(op)
	st, staging, err := b.d.startRead(op, b.buf, b.size)
	b.d.life.RUnlock()
	if err != nil {
		return nil, err
	}
	out, err := b.d.finishRead(ctx, op, st, staging, b.size)
	if err != nil {
		return nil, err
	}
	return out, ferr
}

// ReadFloat32 reads the buffer as little-endian float32s, as [Buffer.Read].
func (b *Buffer) ReadFloat32(ctx context.Context) ([]float32, error) {
	data, err := b.Read(ctx)
	if data == nil {
		return nil, err
	}
	v := make([]float32, len(data)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return v, err
}

// ReadUint32 reads the buffer as little-endian uint32s, as [Buffer.Read].
func (b *Buffer) ReadUint32(ctx context.Context) ([]uint32, error) {
	data, err := b.Read(ctx)
	if data == nil {
		return nil, err
	}
	v := make([]uint32, len(data)/4)
	for i := range v {
		v[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	return v, err
}

// startRead copies size bytes of src into a new staging buffer, submits the
// copy and starts mapping the staging buffer. Called with d.life
// read-locked.
func (d *Device) startRead(op string, src *gowgpu.Buffer, size uint64) (statusWord, *gowgpu.Buffer, error) {
	var staging *gowgpu.Buffer
	err := d.scoped(op, func() (err error) {
		staging, err = d.dev.CreateBuffer(&gowgpu.BufferDescriptor{
			Size: size, Usage: gowgpu.BufferUsage_MapRead | gowgpu.BufferUsage_CopyDst,
		})
		return err
	})
	if err != nil {
		return statusWord{}, nil, err
	}
	err = d.submitOnce(op, func(enc *gowgpu.CommandEncoder) error {
		return d.scoped(op, func() error { return enc.CopyBufferToBuffer(src, 0, staging, 0, size) })
	})
	if err != nil {
		staging.Release()
		return statusWord{}, nil, err
	}
	st := newStatusWord()
	d.scopeMu.Lock()
	typ, msg, failed := mapRead(d.dev, staging, size, st)
	d.scopeMu.Unlock()
	if failed {
		staging.Release()
		d.mu.Lock() // d.life is read-locked: Close cannot have run
		d.abandoned = append(d.abandoned, st)
		d.mu.Unlock()
		return statusWord{}, nil, &Error{Op: op, Type: typ, Message: msg}
	}
	return st, staging, nil
}

// finishRead waits for the mapping startRead began and copies the data out.
// Called without d.life held.
func (d *Device) finishRead(ctx context.Context, op string, st statusWord, staging *gowgpu.Buffer, size uint64) ([]byte, error) {
	if err := d.waitStatus(ctx, op, st); err != nil {
		if d.acquire(op) == nil {
			staging.Release()
			d.life.RUnlock()
		}
		d.abandon(st)
		return nil, err
	}
	if err := d.acquire(op); err != nil {
		d.abandon(st)
		return nil, err
	}
	defer d.life.RUnlock()
	status := st.load() - 1
	st.free()
	if status != int32(gowgpu.BufferMapAsyncStatus_Success) {
		staging.Release()
		return nil, newError(op, ErrorTypeValidation, "mapping the staging buffer failed: %s", gowgpu.BufferMapAsyncStatus(status))
	}
	out := make([]byte, size)
	copyMapped(staging, out)
	d.scoped(op, staging.Unmap)
	staging.Release()
	return out, nil
}

// submitOnce records with a fresh encoder and submits it, unless recording
// or finishing failed. The command buffer is released right after its one
// submit. Called with d.life read-locked.
func (d *Device) submitOnce(op string, record func(*gowgpu.CommandEncoder) error) error {
	var enc *gowgpu.CommandEncoder
	err := d.scoped(op, func() (err error) {
		enc, err = d.dev.CreateCommandEncoder(nil)
		return err
	})
	if err != nil {
		return err
	}
	defer enc.Release()
	rerr := record(enc)
	var cmd *gowgpu.CommandBuffer
	err = d.scoped(op, func() (err error) {
		cmd, err = enc.Finish(nil)
		return err
	})
	if rerr != nil {
		if cmd != nil {
			cmd.Release()
		}
		return rerr
	}
	if err != nil {
		return err
	}
	d.queue.Submit(cmd)
	cmd.Release()
	return nil
}

// Release releases the buffer. Work already recorded that binds it is
// submitted first and still runs (wgpu-native keeps the buffer alive until
// that work completes; this package never destroys a buffer explicitly).
// Later launches binding it, uploads and read-backs return an error.
// Release briefly excludes every other call on the device. Releasing twice,
// or after [Device.Close], is harmless.
func (b *Buffer) Release() {
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
		bg.bg.Release()
	}
	b.bindGroups = nil
	d.bgMu.Unlock()
	d.mu.Lock()
	delete(d.buffers, b)
	d.mu.Unlock()
	b.buf.Release()
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
