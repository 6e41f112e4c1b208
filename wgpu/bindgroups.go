//go:build cgo

package wgpu

// Bind groups: cached per device by (pipeline group, buffers), with a
// stream's few most recent ones in front.

// bindGroup is a cached bind group. It is released when one of its buffers
// is, or by Close.
type bindGroup struct {
	key     bgKey      // written once
	bg      nBindGroup // written once
	buffers []*Buffer  // written once: the n buffers bound
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
	entries := make([]bindEntry, key.n)
	for i := range entries {
		entries[i] = bindEntry{binding: key.g.binds[i].Index, buf: bufs[i].buf, size: bufs[i].size}
	}
	nbg, err := d.createBindGroup(op, key.g.name, key.g.bgl, entries)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Message = key.g.name + ": " + e.Message
		}
		return nil, err
	}
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	if old, ok := d.bindGroups[key]; ok { // lost a race: keep the first
		nbg.release()
		return old, nil
	}
	bg = &bindGroup{key: key, bg: nbg, buffers: append([]*Buffer(nil), bufs...)}
	d.bindGroups[key] = bg
	for _, b := range bg.buffers {
		if len(b.bindGroups) == 0 || b.bindGroups[len(b.bindGroups)-1] != bg {
			b.bindGroups = append(b.bindGroups, bg)
		}
	}
	return bg, nil
}
