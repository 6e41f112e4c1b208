//go:build cgo

package wgpu

// newBindGroup creates the bind group of key's group with bufs bound.
// Called inside d.enter.
func (d *Device) newBindGroup(op string, key bgKey, bufs []*Buffer) (nBindGroup, error) {
	entries := make([]bindEntry, key.n)
	for i := range entries {
		entries[i] = bindEntry{binding: key.g.binds[i].Index, buf: bufs[i].buf, size: bufs[i].size}
	}
	return d.createBindGroup(op, key.g.name, key.g.bgl, entries)
}

// dropBindGroup releases a bind group that left the cache.
func (d *Device) dropBindGroup(bg *bindGroup) { bg.bg.release() }
