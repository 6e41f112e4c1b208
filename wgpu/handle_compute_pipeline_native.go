//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nComputePipeline belongs to a pipeline, which releases it
// (pipeline.release).
type nComputePipeline struct{ ref uintptr }

func (h nComputePipeline) release() { C.sg_compute_pipeline_release(cu(h.ref)) }

func (d *Device) createComputePipeline(op, label string, layout nPipelineLayout, module nShaderModule, entry string) (nComputePipeline, error) {
	cl, ce := cstr(label), C.CString(entry)
	defer freeStr(cl)
	defer freeStr(ce)
	if ref, ok := d.sharedScope(func() uintptr {
		return uintptr(C.sg_compute_pipeline_bare(cu(d.dev.ref), cl, cu(layout.ref), cu(module.ref), ce))
	}, func(ref uintptr) { C.sg_compute_pipeline_release(C.uintptr_t(ref)) }); ok {
		return nComputePipeline{ref}, nil
	}
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_compute_pipeline(cu(d.dev.ref), cl, cu(layout.ref), cu(module.ref), ce, s)
	})
	return nComputePipeline{ref}, err
}
