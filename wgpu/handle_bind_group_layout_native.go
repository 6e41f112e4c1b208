//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"
import "github.com/streamgate/streamgate/wgpu/wgsl"

// nBindGroupLayout belongs to a pipeline, which releases it
// (pipeline.release).
type nBindGroupLayout struct{ ref uintptr }

func (h nBindGroupLayout) release() { C.sg_bind_group_layout_release(cu(h.ref)) }

// layoutEntry is one binding of a bind group layout: a buffer's with its
// minimum size, or a texture's, storage texture's or sampler's as b
// declares it.
type layoutEntry struct {
	b       Binding
	minSize uint64
}

func (d *Device) createBindGroupLayout(op, label string, es []layoutEntry) (nBindGroupLayout, error) {
	ces := make([]C.sgLayoutEntry, len(es))
	for i, e := range es {
		ce := C.sgLayoutEntry{binding: C.uint32_t(e.b.Index)}
		tb := e.b.Texture
		switch e.b.Type {
		case BindingTexture:
			ce.kind, ce._type, ce.view = 1, C.uint32_t(sampleTypeC[tb.Sample]), C.uint32_t(tb.View)
			if tb.Multisampled {
				ce.multisampled = 1
			}
		case BindingStorageTexture:
			ce.kind, ce._type, ce.view = 2, C.WGPUStorageTextureAccess_WriteOnly, C.uint32_t(tb.View)
			ce.format = C.uint32_t(texelFormatC(tb.Format))
		case BindingSampler:
			ce.kind, ce._type = 3, C.uint32_t(e.b.Sampler) // wgsl's SamplerKind values are WebGPU's
		case BindingStorageRead:
			ce._type, ce.minSize = C.WGPUBufferBindingType_ReadOnlyStorage, C.uint64_t(e.minSize)
		case BindingUniform:
			ce._type, ce.minSize = C.WGPUBufferBindingType_Uniform, C.uint64_t(e.minSize)
		default:
			ce._type, ce.minSize = C.WGPUBufferBindingType_Storage, C.uint64_t(e.minSize)
		}
		ces[i] = ce
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_bind_group_layout(cu(d.dev.ref), cl, firstOf(ces), C.size_t(len(ces)), s)
	})
	return nBindGroupLayout{ref}, err
}

// sampleTypeC maps a sample type to WGPUTextureSampleType (view dimensions
// and sampler kinds are WebGPU's values already: see the checks below).
var sampleTypeC = [...]uint32{
	wgsl.SampleFloat:             C.WGPUTextureSampleType_Float,
	wgsl.SampleUnfilterableFloat: C.WGPUTextureSampleType_UnfilterableFloat,
	wgsl.SampleDepth:             C.WGPUTextureSampleType_Depth,
	wgsl.SampleSint:              C.WGPUTextureSampleType_Sint,
	wgsl.SampleUint:              C.WGPUTextureSampleType_Uint,
}

// The front-end's view dimensions and sampler kinds have WebGPU's values.
const (
	_ = uint(C.WGPUTextureViewDimension_2D - C.uint32_t(wgsl.View2D))
	_ = uint(C.uint32_t(wgsl.View2D) - C.WGPUTextureViewDimension_2D)
	_ = uint(C.WGPUTextureViewDimension_3D - C.uint32_t(wgsl.View3D))
	_ = uint(C.uint32_t(wgsl.View3D) - C.WGPUTextureViewDimension_3D)
	_ = uint(C.WGPUTextureViewDimension_CubeArray - C.uint32_t(wgsl.ViewCubeArray))
	_ = uint(C.uint32_t(wgsl.ViewCubeArray) - C.WGPUTextureViewDimension_CubeArray)
	_ = uint(C.WGPUSamplerBindingType_Comparison - C.uint32_t(wgsl.SamplerComparison))
	_ = uint(C.uint32_t(wgsl.SamplerComparison) - C.WGPUSamplerBindingType_Comparison)
	_ = uint(C.WGPUSamplerBindingType_NonFiltering - C.uint32_t(wgsl.SamplerNonFiltering))
	_ = uint(C.uint32_t(wgsl.SamplerNonFiltering) - C.WGPUSamplerBindingType_NonFiltering)
)
