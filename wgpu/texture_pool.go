package wgpu

// textureBytes is the memory a texture of desc holds.
func textureBytes(desc TextureDesc) uint64 {
	return uint64(desc.Width) * uint64(desc.Height) * uint64(desc.DepthOrArrayLayers) * uint64(desc.Format.BytesPerTexel())
}

// TempTexture returns a texture of desc (checked as [Device.NewTexture]
// checks it) for transient use: one [Texture.Recycle] handed back, of
// exactly that description, once the queue has finished all the work
// submitted before it was recycled, or else a new one. Its contents are
// undefined (those of its last use). It shares [Device.TempBuffer]'s pool,
// its byte limit ([Options].TempPoolBytes) and its counts in [Stats], and
// keeps its rule: a launch recorded before the Recycle never sees the next
// user's writes, and TempTexture never waits for the queue (until the
// work is done it makes a new texture instead).
func (d *Device) TempTexture(desc TextureDesc) (*Texture, error) {
	const op = "TempTexture"
	if d == nil {
		return nil, nilDeviceError(op)
	}
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	desc, err = d.checkTextureDesc(op, desc)
	leave()
	if err != nil {
		return nil, err
	}
	if t, err := takeOrMiss(d, op, desc, d.takeTempTexture); t != nil || err != nil {
		return t, err
	}
	return d.NewTexture(desc)
}

// takeTempTexture takes a ready texture of desc from the pool; waiting
// reports whether one is there but not yet ready.
func (d *Device) takeTempTexture(op string, desc TextureDesc) (t *Texture, waiting bool, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return nil, false, err
	}
	defer leave()
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	t, p.textures[desc], waiting = takeReady(p, p.textures[desc], textureBytes(desc), func(t *Texture) bool { return t.released.Load() })
	if t != nil {
		t.setRecycled(false)
	}
	return t, waiting, nil
}

// Recycle hands t back to its device's pool for [Device.TempTexture] to
// reuse, once the work submitted so far is done; t and its views must not
// be used after (uploads, read-backs and launches binding its views
// return an error until TempTexture hands it out again). Recycle first
// submits the pending launches of the streams that bind it. When the pool
// already holds its byte limit, t is released instead. Recycling a nil,
// released or recycled texture, or one of a closed device, does nothing.
func (t *Texture) Recycle() {
	if t == nil {
		return
	}
	if !t.d.recycleTexture(t) {
		t.Release()
	}
}

// recycleTexture puts t in the pool; false when the pool is full or
// closed and t must be released instead.
func (d *Device) recycleTexture(t *Texture) (handled bool) {
	const op = "Recycle"
	leave, err := d.enter(op)
	if err != nil {
		return true
	}
	defer leave()
	if t.released.Load() || t.recycled.Load() {
		return true
	}
	t.setRecycled(true)
	d.bufEpoch.Add(1) // every graph checks its bindings again
	t.flushUsers(op)  // errors belong to those streams' launches
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	size := textureBytes(t.desc)
	if p.closed || p.held+size > p.limit {
		t.setRecycled(false)
		return false
	}
	p.textures[t.desc] = put(p, p.textures[t.desc], t, size, d.reuseSignal())
	return true
}

// setRecycled marks t and its views' slots recycled (a launch binding one
// is refused; a graph that binds one is stale once it is handed out
// again), or handed out again.
func (t *Texture) setRecycled(on bool) {
	t.recycled.Store(on)
	t.mu.Lock()
	views := t.views
	t.mu.Unlock()
	for _, v := range views {
		if v == nil {
			continue
		}
		if on {
			v.slot.gen.Add(1)
		}
		v.slot.recycled.Store(on)
	}
}
