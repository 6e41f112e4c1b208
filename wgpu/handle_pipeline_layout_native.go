//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nPipelineLayout belongs to a pipeline, which releases it
// (pipeline.release).
type nPipelineLayout struct{ ref uintptr }

func (h nPipelineLayout) release() { C.sg_pipeline_layout_release(cu(h.ref)) }

func (d *Device) createPipelineLayout(op, label string, bgls []nBindGroupLayout) (nPipelineLayout, error) {
	refs := make([]C.uintptr_t, len(bgls))
	for i, l := range bgls {
		refs[i] = cu(l.ref)
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_pipeline_layout(cu(d.dev.ref), cl, firstOf(refs), C.size_t(len(refs)), s)
	})
	return nPipelineLayout{ref}, err
}
