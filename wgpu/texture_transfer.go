package wgpu

import (
	"context"
	"unsafe"
)

// Texture uploads and read-backs. The data is tightly packed rows of
// texels, as a Go program holds an image; WebGPU wants a copy between a
// texture and a buffer to have rows a multiple of 256 bytes apart, so a
// read-back copies into a pooled staging buffer with padded rows and
// strips the padding. An upload goes through the queue's writeTexture,
// which has no such rule, and is passed as is.

// copyRowAlignment is WebGPU's bytesPerRow alignment for copies between
// textures and buffers.
const copyRowAlignment = 256

// checkRegion checks that the region of size texels at origin is inside
// t and may be copied, and returns its byte size tightly packed.
func (t *Texture) checkRegion(op string, origin, size [3]uint32) (uint64, error) {
	ext := [3]uint32{t.desc.Width, t.desc.Height, t.desc.DepthOrArrayLayers}
	for i := range ext {
		if uint64(origin[i])+uint64(size[i]) > uint64(ext[i]) {
			return 0, newError(op, ErrorTypeValidation, "the region of size %v at origin %v is outside the texture's %dx%dx%d texels", size, origin, ext[0], ext[1], ext[2])
		}
	}
	if isDepth(t.desc.Format) && (origin != [3]uint32{} || size != ext) {
		// WebGPU asks for whole layers; wgpu-native for the whole texture.
		return 0, newError(op, ErrorTypeValidation, "a copy of a depth texture (%v) covers the whole texture: origin [0 0 0] and size %v, not origin %v and size %v", t.desc.Format, ext, origin, size)
	}
	return uint64(size[0]) * uint64(size[1]) * uint64(size[2]) * uint64(t.desc.Format.BytesPerTexel()), nil
}

// WriteTexture uploads data, little-endian, to the region of t of size
// texels (width, height, depth or layers) at origin: tightly packed rows
// of size[0] texels (size[0] times the format's bytes per texel), the
// rows of each layer in turn. The region must be inside the texture,
// data exactly the region's size, and the texture needs
// [TextureUsageCopyDst]; a depth32float texture cannot be written by a
// copy in WebGPU (depth16unorm can), and a depth texture's copies cover
// the whole texture. Launches recorded before WriteTexture, on any stream, see
// the old contents and those recorded after see data: WriteTexture first
// submits the pending work of the streams that bind the texture (an
// error from that submit is returned, and the upload still happens). data
// is copied before WriteTexture returns.
func WriteTexture[T Numeric](t *Texture, origin, size [3]uint32, data []T) error {
	return t.write("WriteTexture", origin, size, leBytes(data))
}

// write uploads data to the region of t (see [WriteTexture]).
func (t *Texture) write(op string, origin, size [3]uint32, data []byte) error {
	leave, err := t.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	n, err := t.checkRegion(op, origin, size)
	if err != nil {
		return err
	}
	if uint64(len(data)) != n {
		return newError(op, ErrorTypeValidation, "data of %d bytes for a region of size %v of %v (%d bytes a texel): want %d bytes", len(data), size, t.desc.Format, t.desc.Format.BytesPerTexel(), n)
	}
	if err := t.needUsage(op, TextureUsageCopyDst); err != nil {
		return err
	}
	if t.desc.Format == FormatDepth32Float {
		return newError(op, ErrorTypeValidation, "a depth32float texture cannot be written by a copy (WebGPU copies into depth16unorm only, of the depth formats)")
	}
	ferr := t.flushUsers(op)
	if n == 0 {
		return ferr
	}
	bpr := size[0] * uint32(t.desc.Format.BytesPerTexel())
	if err := t.d.queueWriteTexture(op, t.tex, origin, size, bpr, data); err != nil {
		return err
	}
	return ferr
}

// ReadTexture reads the region of t of size texels at origin once every
// launch (or graph replay) recorded before it that binds the texture has
// run: tightly packed rows, as [WriteTexture] takes them, as elements of
// type T (the region's byte size must be a whole number of them). The
// region must be inside the texture, which needs [TextureUsageCopySrc].
// It submits those streams' pending work, copies the region to a staging
// buffer from the device's pool (rows padded to WebGPU's 256-byte
// alignment, the padding stripped here) and waits for the copy. If ctx is
// done first, ReadTexture returns ctx.Err() (the submitted copy still
// runs; its staging buffer returns to the pool once mapped). An error from
// the flush, a [*gpu.LaunchError] of those streams, is returned with the
// data.
func ReadTexture[T Numeric](ctx context.Context, t *Texture, origin, size [3]uint32) ([]T, error) {
	const op = "ReadTexture"
	if t == nil {
		return nil, nilTextureError(op)
	}
	var z T
	esize := uint64(unsafe.Sizeof(z))
	n, err := t.checkRegion(op, origin, size)
	if err != nil {
		return nil, err
	}
	if n%esize != 0 {
		return nil, newError(op, ErrorTypeInvalidArgument, "the region's %d bytes are not a whole number of %T (%d bytes)", n, z, esize)
	}
	v := make([]T, n/esize)
	raw := bytesOf(v)
	ferr, err := t.readAt(ctx, op, origin, size, raw)
	if err != nil {
		return nil, err
	}
	if !hostLittleEndian {
		swapBytes(raw, int(esize))
	}
	return v, ferr
}

// readAt reads the region into dst, tightly packed. err means dst was not
// filled; ferr is the flush's error (dst was filled).
func (t *Texture) readAt(ctx context.Context, op string, origin, size [3]uint32, dst []byte) (ferr, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rd, bpr, ferr, err := t.startRead(op, origin, size)
	if err != nil || rd.stg == nil {
		return ferr, err
	}
	tight := uint64(size[0]) * uint64(t.desc.Format.BytesPerTexel())
	rows := uint64(size[1]) * uint64(size[2])
	if (uint64(bpr) == tight || rows == 1) && uint64(len(dst)) == rd.size {
		// The staging buffer holds the rows as dst wants them.
		return ferr, t.d.finishReadInto(ctx, op, rd, dst)
	}
	padded := make([]byte, rd.size)
	if err := t.d.finishReadInto(ctx, op, rd, padded); err != nil {
		return nil, err
	}
	for r := range rows {
		copy(dst[r*tight:(r+1)*tight], padded[r*uint64(bpr):])
	}
	return ferr, nil
}

// startRead checks the region, submits the pending work of the streams
// that bind t (ferr is that flush's error) and starts copying the region
// to a staging buffer, rows bpr bytes apart. An empty region starts
// nothing (rd is the zero pendingRead: its stg is nil).
func (t *Texture) startRead(op string, origin, size [3]uint32) (rd pendingRead, bpr uint32, ferr, err error) {
	leave, err := t.enter(op)
	if err != nil {
		return rd, 0, nil, err
	}
	defer leave()
	n, err := t.checkRegion(op, origin, size)
	if err != nil {
		return rd, 0, nil, err
	}
	if err := t.needUsage(op, TextureUsageCopySrc); err != nil {
		return rd, 0, nil, err
	}
	ferr = t.flushUsers(op)
	if n == 0 {
		return rd, 0, ferr, nil
	}
	tight := uint64(size[0]) * uint64(t.desc.Format.BytesPerTexel())
	padded := (tight + copyRowAlignment - 1) &^ (copyRowAlignment - 1)
	rows := uint64(size[1]) * uint64(size[2])
	// The copy writes every row but the last padded; a mapping's size is a
	// multiple of 4.
	mapSize := (padded*(rows-1) + tight + 3) &^ 3
	rd, err = t.d.startTextureRead(op, t.tex, origin, size, uint32(padded), mapSize)
	return rd, uint32(padded), ferr, err
}

// startTextureRead copies the region of tex at origin of size texels into
// a pooled staging buffer, rows bpr bytes apart, submits the copy and
// starts mapping mapSize bytes of it. Called inside d.enter.
func (d *Device) startTextureRead(op string, tex texHandle, origin, size [3]uint32, bpr uint32, mapSize uint64) (pendingRead, error) {
	s, err := d.getStaging(op, mapSize)
	if err != nil {
		return pendingRead{}, err
	}
	started, err := d.readTextureStart(op, tex, origin, size, bpr, s.buf, mapSize, s.word)
	if err != nil || !started {
		return pendingRead{}, d.failedStart(op, s, started, err)
	}
	return pendingRead{stg: s, size: mapSize}, nil
}
