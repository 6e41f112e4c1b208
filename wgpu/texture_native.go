//go:build cgo

package wgpu

// The desktop's texture calls: create, view, sample, write, copy out and
// drop, each one crossing of a capi.h shim that pushes and pops its error
// scopes itself.

/*
#cgo noescape sgt_write
#cgo nocallback sgt_write
#cgo noescape sgt_read_start
#cgo nocallback sgt_read_start
#include "capi.h"
*/
import "C"

import "unsafe"

// texHandle, viewHandle and samplerHandle are a Texture's, a
// TextureView's and a Sampler's handles: wgpu-native's objects.
type (
	texHandle     = nTexture
	viewHandle    = nTextureView
	samplerHandle = nSampler
)

// featureBGRA8UnormStorage is webgpu.h's number of the
// "bgra8unorm-storage" feature.
const featureBGRA8UnormStorage = uint32(C.WGPUFeatureName_BGRA8UnormStorage)

// hasBGRA8Storage reports whether the device has the "bgra8unorm-storage"
// feature (Open does not request it, so only a driver that turns it on
// unasked has it). Called inside d.enter.
func (d *Device) hasBGRA8Storage() bool { return d.dev.hasFeature(featureBGRA8UnormStorage) }

// newTexHandle creates the driver's texture for [Device.NewTexture].
func (d *Device) newTexHandle(op string, desc TextureDesc) (texHandle, error) {
	return d.createTexture(op, "", desc)
}

// newViewHandle creates a view of dimension dim of the whole texture.
func (d *Device) newViewHandle(op string, t texHandle, desc TextureDesc, dim ViewDimension) (viewHandle, error) {
	return d.createTextureView(op, t, desc, dim)
}

// newSamplerHandle creates the driver's sampler for [Device.NewSampler].
func (d *Device) newSamplerHandle(op string, desc SamplerDesc) (samplerHandle, error) {
	return d.createSampler(op, desc)
}

func (d *Device) dropTexture(h texHandle)      { h.release() }
func (d *Device) dropTextureView(h viewHandle) { h.release() }
func (d *Device) dropSampler(h samplerHandle)  { h.release() }

// regionC is a copy's region for the shims.
func regionC(origin, size [3]uint32, bytesPerRow uint32) C.sgRegion {
	return C.sgRegion{
		x: C.uint32_t(origin[0]), y: C.uint32_t(origin[1]), z: C.uint32_t(origin[2]),
		width: C.uint32_t(size[0]), height: C.uint32_t(size[1]), depth: C.uint32_t(size[2]),
		bytesPerRow: C.uint32_t(bytesPerRow), rowsPerImage: C.uint32_t(size[1]),
	}
}

// queueWriteTexture uploads data, rows of bytesPerRow bytes, to the region
// of tex at origin of size texels. Called inside d.enter.
func (d *Device) queueWriteTexture(op string, tex texHandle, origin, size [3]uint32, bytesPerRow uint32, data []byte) error {
	r := regionC(origin, size, bytesPerRow)
	var s C.sgScope
	d.scopeMu.Lock()
	C.sgt_write(cu(d.dev.ref), cu(d.queue.ref), cu(tex.ref), &r, unsafe.Pointer(unsafe.SliceData(data)), C.size_t(len(data)), &s)
	d.scopeMu.Unlock()
	return scopeErr(op, &s)
}

// readTextureStart copies the region of tex at origin of size texels into
// staging, rows bytesPerRow apart, and starts mapping mapSize bytes of it;
// started reports whether the map callback will run. Called inside
// d.enter.
func (d *Device) readTextureStart(op string, tex texHandle, origin, size [3]uint32, bytesPerRow uint32, staging bufHandle, mapSize uint64, w mapWord) (started bool, err error) {
	r := regionC(origin, size, bytesPerRow)
	var s C.sgScope
	d.scopeMu.Lock()
	ok := C.sgt_read_start(cu(d.dev.ref), cu(d.queue.ref), cu(tex.ref), &r, cu(staging.ref), C.uint64_t(mapSize), w.p, &s)
	d.scopeMu.Unlock()
	return ok != 0, scopeErr(op, &s)
}

// settleDropped lets wgpu-native free the textures just released: one
// that a queue write touched waits for the next submit, so Close submits
// an empty batch. Called by Close with d.life write-locked.
func (d *Device) settleDropped() {
	var s C.sgScope
	d.scopeMu.Lock()
	C.sgt_submit_empty(cu(d.dev.ref), cu(d.queue.ref), &s)
	d.scopeMu.Unlock()
	scopeError(&s) // frees the message: nothing to report from Close
}
