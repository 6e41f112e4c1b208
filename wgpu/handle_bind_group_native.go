//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nBindGroup is a bind group; the bind group cache or its pipeline group
// releases it.
type nBindGroup struct{ ref uintptr }

func (h nBindGroup) release() { C.sg_bind_group_release(cu(h.ref)) }

// bindEntry binds a whole buffer of size bytes at binding, or a texture
// view, or a sampler.
type bindEntry struct {
	binding uint32
	buf     nBuffer
	size    uint64
	view    uintptr
	sampler uintptr
}

func (d *Device) createBindGroup(op, label string, layout nBindGroupLayout, es []bindEntry) (nBindGroup, error) {
	ces := make([]C.sgBindEntry, len(es))
	for i, e := range es {
		ces[i] = C.sgBindEntry{buffer: cu(e.buf.ref), size: C.uint64_t(e.size), binding: C.uint32_t(e.binding),
			view: cu(e.view), sampler: cu(e.sampler)}
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_bind_group(cu(d.dev.ref), cl, cu(layout.ref), firstOf(ces), C.size_t(len(ces)), s)
	})
	return nBindGroup{ref}, err
}
