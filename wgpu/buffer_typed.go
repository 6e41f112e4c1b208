package wgpu

import (
	"context"
	"unsafe"
)

// hostLittleEndian reports whether this machine stores numbers
// little-endian, as WebGPU buffers do.
var hostLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// bytesOf returns v's memory as bytes, without copying.
func bytesOf[T Numeric](v []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(z)))
}

// swapBytes reverses each size-byte element of b in place (big-endian
// hosts only).
func swapBytes(b []byte, size int) {
	for i := 0; i+size <= len(b); i += size {
		e := b[i : i+size]
		for j, k := 0, size-1; j < k; j, k = j+1, k-1 {
			e[j], e[k] = e[k], e[j]
		}
	}
}

// leBytes returns v as little-endian bytes: v's own memory on a
// little-endian host, a swapped copy elsewhere.
func leBytes[T Numeric](v []T) []byte {
	b := bytesOf(v)
	if hostLittleEndian {
		return b
	}
	var z T
	c := append([]byte(nil), b...)
	swapBytes(c, int(unsafe.Sizeof(z)))
	return c
}

// Write uploads v, little-endian, to b at byte offset. offset and the byte
// length of v must be multiples of 4 (so an odd number of int8s or int16s
// is refused) and the range inside the buffer, which needs
// [BufferUsageCopyDst]. Launches (and graph replays) recorded before Write,
// on any stream, see the old contents and those recorded after see v: Write first submits
// the pending work of the streams that bind the buffer (an error from that
// submit is returned, and the upload still happens). v is copied before
// Write returns. On little-endian hosts (every platform WebGPU runs on in
// practice) v's memory is passed as is, without a copy or an allocation;
// elsewhere it is byte-swapped into a copy first. Bytes are a Numeric too:
// Write(b, offset, data) with a []byte uploads raw bytes.
func Write[T Numeric](b *Buffer, offset uint64, v []T) error {
	return b.writeAt("Write", offset, leBytes(v))
}

// Read reads n elements of b at byte offset into a new slice, as
// [ReadInto] does; Read(ctx, b, 0, int(b.Size()/4)) reads a whole buffer
// of 4-byte elements. As ReadInto, it returns the data together with a
// [*gpu.LaunchError] of the flush before the read.
func Read[T Numeric](ctx context.Context, b *Buffer, offset uint64, n int) ([]T, error) {
	if n < 0 {
		return nil, newError("Read", ErrorTypeInvalidArgument, "negative length %d", n)
	}
	v := make([]T, n)
	ferr, err := readTyped(ctx, "Read", b, offset, v)
	if err != nil {
		return nil, err
	}
	return v, ferr
}

// ReadInto reads len(dst) elements of b at byte offset into dst once every
// launch (or graph replay) recorded before it that binds the buffer has run: it submits those
// streams' pending work, copies the range to a staging buffer from the
// device's pool and waits for the copy. offset and the byte length of dst
// must be multiples of 4 and the range inside the buffer, which needs
// [BufferUsageCopySrc]. On little-endian hosts the data is copied straight
// from the mapped staging buffer into dst's memory, so that in a loop that
// reuses dst, once the device's pool holds a staging buffer of the range's
// size class (the next power of two), ReadInto allocates nothing and
// creates no GPU object. If ctx is done first, ReadInto returns ctx.Err()
// and leaves dst unchanged (the submitted copy still runs; its staging
// buffer returns to the pool once mapped). An error from the flush, a
// [*gpu.LaunchError] of those streams, is returned after the data is read.
func ReadInto[T Numeric](ctx context.Context, b *Buffer, offset uint64, dst []T) error {
	ferr, err := readTyped(ctx, "ReadInto", b, offset, dst)
	if err != nil {
		return err
	}
	return ferr
}

func readTyped[T Numeric](ctx context.Context, op string, b *Buffer, offset uint64, dst []T) (ferr, err error) {
	if b == nil {
		return nil, nilBufferError(op)
	}
	raw := bytesOf(dst)
	ferr, err = b.readAt(ctx, op, offset, raw)
	if err == nil && !hostLittleEndian {
		var z T
		swapBytes(raw, int(unsafe.Sizeof(z)))
	}
	return ferr, err
}

// NewBufferFrom creates a buffer holding v (little-endian), of v's byte
// size, with the given usage (0 means [BufferUsageDefault]; the usage
// must include [BufferUsageCopyDst] to be uploaded to), in one call: it is
// [Device.NewBuffer] followed by [Write] at offset 0. The byte size of v
// must be a positive multiple of 4. If the upload fails the buffer is
// released and the error returned.
func NewBufferFrom[T Numeric](d *Device, usage BufferUsage, v []T) (*Buffer, error) {
	const op = "NewBufferFrom"
	if d == nil {
		return nil, newError(op, ErrorTypeInvalidArgument, "nil device")
	}
	data := leBytes(v)
	b, err := d.NewBuffer(uint64(len(data)), usage)
	if err != nil {
		return nil, err
	}
	if err := b.writeAt(op, 0, data); err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}
