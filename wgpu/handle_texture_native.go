//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nTexture is a texture; its Texture releases it (Texture.Release, or
// Device.Close), after the texture's views.
type nTexture struct{ ref uintptr }

func (h nTexture) release() { C.sg_texture_release(cu(h.ref)) }

// createTexture creates a texture of one mip level and one sample from a
// checked desc (every field set). Called inside d.enter.
func (d *Device) createTexture(op, label string, desc TextureDesc) (nTexture, error) {
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_texture(cu(d.dev.ref), cl, C.uint32_t(textureDimensionC(desc.Dimension)),
			C.uint32_t(desc.Width), C.uint32_t(desc.Height), C.uint32_t(desc.DepthOrArrayLayers),
			C.uint32_t(texelFormatC(desc.Format)), C.uint32_t(desc.Usage), s)
	})
	return nTexture{ref}, err
}

// textureDimensionC is d as webgpu.h numbers it.
func textureDimensionC(d TextureDimension) uint32 {
	switch d {
	case TextureDimension1D:
		return uint32(C.WGPUTextureDimension_1D)
	case TextureDimension3D:
		return uint32(C.WGPUTextureDimension_3D)
	}
	return uint32(C.WGPUTextureDimension_2D)
}

// texelFormatC is f as webgpu.h numbers it (Undefined for no format).
func texelFormatC(f TexelFormat) uint32 {
	if int(f) < len(texelFormatsC) {
		return texelFormatsC[f]
	}
	return uint32(C.WGPUTextureFormat_Undefined)
}

var texelFormatsC = [...]uint32{
	FormatR8Unorm:        uint32(C.WGPUTextureFormat_R8Unorm),
	FormatR8Snorm:        uint32(C.WGPUTextureFormat_R8Snorm),
	FormatR8Uint:         uint32(C.WGPUTextureFormat_R8Uint),
	FormatR8Sint:         uint32(C.WGPUTextureFormat_R8Sint),
	FormatR16Uint:        uint32(C.WGPUTextureFormat_R16Uint),
	FormatR16Sint:        uint32(C.WGPUTextureFormat_R16Sint),
	FormatR16Float:       uint32(C.WGPUTextureFormat_R16Float),
	FormatRG8Unorm:       uint32(C.WGPUTextureFormat_RG8Unorm),
	FormatRG8Snorm:       uint32(C.WGPUTextureFormat_RG8Snorm),
	FormatRG8Uint:        uint32(C.WGPUTextureFormat_RG8Uint),
	FormatRG8Sint:        uint32(C.WGPUTextureFormat_RG8Sint),
	FormatR32Uint:        uint32(C.WGPUTextureFormat_R32Uint),
	FormatR32Sint:        uint32(C.WGPUTextureFormat_R32Sint),
	FormatR32Float:       uint32(C.WGPUTextureFormat_R32Float),
	FormatRG16Uint:       uint32(C.WGPUTextureFormat_RG16Uint),
	FormatRG16Sint:       uint32(C.WGPUTextureFormat_RG16Sint),
	FormatRG16Float:      uint32(C.WGPUTextureFormat_RG16Float),
	FormatRGBA8Unorm:     uint32(C.WGPUTextureFormat_RGBA8Unorm),
	FormatRGBA8UnormSrgb: uint32(C.WGPUTextureFormat_RGBA8UnormSrgb),
	FormatRGBA8Snorm:     uint32(C.WGPUTextureFormat_RGBA8Snorm),
	FormatRGBA8Uint:      uint32(C.WGPUTextureFormat_RGBA8Uint),
	FormatRGBA8Sint:      uint32(C.WGPUTextureFormat_RGBA8Sint),
	FormatBGRA8Unorm:     uint32(C.WGPUTextureFormat_BGRA8Unorm),
	FormatBGRA8UnormSrgb: uint32(C.WGPUTextureFormat_BGRA8UnormSrgb),
	FormatRGB10A2Unorm:   uint32(C.WGPUTextureFormat_RGB10A2Unorm),
	FormatRG11B10Ufloat:  uint32(C.WGPUTextureFormat_RG11B10Ufloat),
	FormatRG32Uint:       uint32(C.WGPUTextureFormat_RG32Uint),
	FormatRG32Sint:       uint32(C.WGPUTextureFormat_RG32Sint),
	FormatRG32Float:      uint32(C.WGPUTextureFormat_RG32Float),
	FormatRGBA16Uint:     uint32(C.WGPUTextureFormat_RGBA16Uint),
	FormatRGBA16Sint:     uint32(C.WGPUTextureFormat_RGBA16Sint),
	FormatRGBA16Float:    uint32(C.WGPUTextureFormat_RGBA16Float),
	FormatRGBA32Uint:     uint32(C.WGPUTextureFormat_RGBA32Uint),
	FormatRGBA32Sint:     uint32(C.WGPUTextureFormat_RGBA32Sint),
	FormatRGBA32Float:    uint32(C.WGPUTextureFormat_RGBA32Float),
	FormatDepth16Unorm:   uint32(C.WGPUTextureFormat_Depth16Unorm),
	FormatDepth32Float:   uint32(C.WGPUTextureFormat_Depth32Float),
}
