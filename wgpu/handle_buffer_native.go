//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nBuffer is a buffer; its Buffer (or staging buffer, or TimeStream)
// releases it.
type nBuffer struct{ ref uintptr }

func (h nBuffer) release() { C.sg_buffer_release(cu(h.ref)) }

func (d *Device) createBuffer(op, label string, size uint64, usage BufferUsage) (nBuffer, error) {
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_buffer(cu(d.dev.ref), cl, C.uint64_t(size), C.uint32_t(usage), s)
	})
	return nBuffer{ref}, err
}
