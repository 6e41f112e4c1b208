//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nBindGroupLayout belongs to a pipeline, which releases it
// (pipeline.release).
type nBindGroupLayout struct{ ref uintptr }

func (h nBindGroupLayout) release() { C.sg_bind_group_layout_release(cu(h.ref)) }

// layoutEntry is one buffer binding of a bind group layout.
type layoutEntry struct {
	binding uint32
	typ     BindingType
	minSize uint64
}

func (d *Device) createBindGroupLayout(op, label string, es []layoutEntry) (nBindGroupLayout, error) {
	ces := make([]C.sgLayoutEntry, len(es))
	for i, e := range es {
		t := C.WGPUBufferBindingType_Storage
		switch e.typ {
		case BindingStorageRead:
			t = C.WGPUBufferBindingType_ReadOnlyStorage
		case BindingUniform:
			t = C.WGPUBufferBindingType_Uniform
		}
		ces[i] = C.sgLayoutEntry{binding: C.uint32_t(e.binding), _type: C.uint32_t(t), minSize: C.uint64_t(e.minSize)}
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_bind_group_layout(cu(d.dev.ref), cl, firstOf(ces), C.size_t(len(ces)), s)
	})
	return nBindGroupLayout{ref}, err
}
