//go:build cgo

package wgpu

import "context"

// bufHandle is a Buffer's handle: the wgpu-native buffer.
type bufHandle = nBuffer

// newBufHandle creates the driver's buffer for [Device.NewBuffer].
func (d *Device) newBufHandle(op string, size uint64, usage BufferUsage) (bufHandle, error) {
	return d.createBuffer(op, "", size, usage)
}

// checkWebGPUUsage accepts every usage: wgpu-native validates the
// combination itself (the js build checks it before the browser does).
func checkWebGPUUsage(string, BufferUsage) error { return nil }

// dropBindGroup releases a bind group that left the cache.
func (d *Device) dropBindGroup(bg *bindGroup) { bg.bg.release() }

// dropBuffer releases a released buffer's handle.
func (d *Device) dropBuffer(h bufHandle) { h.release() }

// readAt reads into dst; err means dst was not filled, ferr is the flush's
// error (dst was filled).
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
