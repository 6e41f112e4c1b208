//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nShaderModule is a shader module, released once its pipeline is built.
type nShaderModule struct{ ref uintptr }

func (h nShaderModule) release() { C.sg_shader_module_release(cu(h.ref)) }

func (d *Device) createShaderModule(op, label, code string) (nShaderModule, error) {
	cl, cc := cstr(label), C.CString(code)
	defer freeStr(cl)
	defer freeStr(cc)
	if ref, ok := d.sharedScope(func() uintptr { return uintptr(C.sg_shader_module_bare(cu(d.dev.ref), cl, cc)) },
		func(ref uintptr) { C.sg_shader_module_release(C.uintptr_t(ref)) }); ok {
		return nShaderModule{ref}, nil
	}
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t { return C.sg_create_shader_module(cu(d.dev.ref), cl, cc, s) })
	return nShaderModule{ref}, err
}
