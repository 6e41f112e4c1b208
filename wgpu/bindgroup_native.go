//go:build cgo

package wgpu

// newBindGroup creates the bind group of key's group with bufs bound.
// Called inside d.enter.
func (d *Device) newBindGroup(op string, key bgKey, bufs []*Buffer) (nBindGroup, error) {
	entries := make([]bindEntry, key.n)
	for i := range entries {
		entries[i] = bindEntry{binding: key.g.binds[i].Index}
		switch b := bufs[i]; {
		case b.view != nil:
			entries[i].view = b.view.view.ref
		case b.sampler != nil:
			entries[i].sampler = b.sampler.h.ref
		default:
			entries[i].buf, entries[i].size = b.buf, b.size
		}
	}
	return d.createBindGroup(op, key.g.name, key.g.bgl, entries)
}

// dropBindGroup releases a bind group that left the cache.
func (d *Device) dropBindGroup(bg *bindGroup) { bg.bg.release() }
