//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nSampler is a sampler; its Sampler releases it (Sampler.Release, or
// Device.Close).
type nSampler struct{ ref uintptr }

func (h nSampler) release() { C.sg_sampler_release(cu(h.ref)) }

// createSampler creates the sampler a checked desc describes. Called
// inside d.enter.
func (d *Device) createSampler(op string, desc SamplerDesc) (nSampler, error) {
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_sampler(cu(d.dev.ref),
			C.uint32_t(addressModeC(desc.AddressModeU)), C.uint32_t(addressModeC(desc.AddressModeV)), C.uint32_t(addressModeC(desc.AddressModeW)),
			C.uint32_t(desc.MagFilter), C.uint32_t(desc.MinFilter), C.uint32_t(desc.Compare), s)
	})
	return nSampler{ref}, err
}

// addressModeC is m as webgpu.h numbers it (its Repeat is 0; ours,
// ClampToEdge, WebGPU's default). FilterMode and CompareFunction have
// webgpu.h's numbers already.
func addressModeC(m AddressMode) uint32 {
	switch m {
	case AddressModeRepeat:
		return uint32(C.WGPUAddressMode_Repeat)
	case AddressModeMirrorRepeat:
		return uint32(C.WGPUAddressMode_MirrorRepeat)
	}
	return uint32(C.WGPUAddressMode_ClampToEdge)
}
