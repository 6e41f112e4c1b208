//go:build js && wasm

package wgpu

import "syscall/js"

// The browser's texture calls: each one call into the page (jsrt_js.go).
// The browser validates asynchronously: what it rejects lands in the
// device's error scopes and the next Sync reports it; NewTexture's checks
// refuse everything WebGPU would first.

// texHandle, viewHandle and samplerHandle are a Texture's, a
// TextureView's and a Sampler's handles: the GPUTexture's,
// GPUTextureView's and GPUSampler's indices in the device's JS table.
type (
	texHandle     = int
	viewHandle    = int
	samplerHandle = int
)

// hasBGRA8Storage reports whether the GPUDevice has the
// "bgra8unorm-storage" feature (Open does not request it).
func (d *Device) hasBGRA8Storage() bool {
	f := d.dev.Get("features")
	return f.Truthy() && f.Call("has", "bgra8unorm-storage").Bool()
}

// newTexHandle creates the page's GPUTexture for [Device.NewTexture].
func (d *Device) newTexHandle(op string, desc TextureDesc) (ref texHandle, err error) {
	catchJS(op, &err, func() {
		ref = d.rt.createTexture.Invoke(desc.Dimension.String(), desc.Width, desc.Height, desc.DepthOrArrayLayers,
			desc.Format.String(), int(desc.Usage)).Int()
	})
	return ref, err
}

// newViewHandle creates a GPUTextureView of dimension dim of the whole
// texture t.
func (d *Device) newViewHandle(op string, t texHandle, _ TextureDesc, dim ViewDimension) (ref viewHandle, err error) {
	catchJS(op, &err, func() { ref = d.rt.createView.Invoke(t, dim.String()).Int() })
	return ref, err
}

// newSamplerHandle creates the page's GPUSampler for [Device.NewSampler].
func (d *Device) newSamplerHandle(op string, desc SamplerDesc) (ref samplerHandle, err error) {
	catchJS(op, &err, func() {
		ref = d.rt.createSampler.Invoke(desc.AddressModeU.String(), desc.AddressModeV.String(), desc.AddressModeW.String(),
			desc.MagFilter.String(), desc.MinFilter.String(), desc.Compare.String()).Int()
	})
	return ref, err
}

// dropTexture destroys a released texture's GPUTexture (the browser does
// so once the work submitted with it is done); dropTextureView and
// dropSampler forget theirs (the collector has them once no bind group
// holds them).
func (d *Device) dropTexture(ref texHandle)      { d.rt.destroy.Invoke(ref) }
func (d *Device) dropTextureView(ref viewHandle) { d.rt.del.Invoke(ref) }
func (d *Device) dropSampler(ref samplerHandle)  { d.rt.del.Invoke(ref) }

// queueWriteTexture uploads data, rows of bytesPerRow bytes, to the region
// of tex at origin of size texels (queue.writeTexture).
func (d *Device) queueWriteTexture(op string, tex texHandle, origin, size [3]uint32, bytesPerRow uint32, data []byte) (err error) {
	d.jsMu.Lock()
	catchJS(op, &err, func() {
		d.rt.load(data)
		d.rt.writeTexture.Invoke(tex, origin[0], origin[1], origin[2], size[0], size[1], size[2], bytesPerRow, len(data))
	})
	d.jsMu.Unlock()
	return err
}

// readTextureStart copies the region of tex at origin of size texels into
// the staging buffer stg, rows bytesPerRow apart, and starts mapping
// mapSize bytes of it; w is set once the mapping settles, with the bytes
// copied out and stg unmapped again by then. Called inside d.enter.
func (d *Device) readTextureStart(op string, tex texHandle, origin, size [3]uint32, bytesPerRow uint32, stg bufHandle, mapSize uint64, w mapWord) (started bool, err error) {
	var p js.Value
	catchJS(op, &err, func() {
		p = d.rt.readTexture.Invoke(tex, origin[0], origin[1], origin[2], size[0], size[1], size[2], bytesPerRow, stg, float64(mapSize))
	})
	if err != nil {
		return false, err
	}
	w.w.state.Store(0)
	w.w.done = make(chan struct{})
	w.w.val, w.w.msg = js.Undefined(), ""
	w.settle(p)
	return true, nil
}

// settleDropped does nothing: destroying the device lets the browser free
// everything.
func (d *Device) settleDropped() {}
