//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nQuerySet is a timestamp query set; TimeStream releases it.
type nQuerySet struct{ ref uintptr }

func (h nQuerySet) release() { C.sg_query_set_release(cu(h.ref)) }

func (d *Device) createQuerySet(op, label string, count uint32) (nQuerySet, error) {
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t { return C.sg_create_query_set(cu(d.dev.ref), cl, C.uint32_t(count), s) })
	return nQuerySet{ref}, err
}
