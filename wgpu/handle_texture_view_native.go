//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nTextureView is a view of a whole texture; its texture releases it
// (Texture.Release, or Device.Close), before the texture itself.
type nTextureView struct{ ref uintptr }

func (h nTextureView) release() { C.sg_texture_view_release(cu(h.ref)) }

// createTextureView creates a view of dimension dim of every layer of tex,
// whose checked desc is desc. webgpu.h numbers view dimensions as
// ViewDimension does. Called inside d.enter.
func (d *Device) createTextureView(op string, tex nTexture, desc TextureDesc, dim ViewDimension) (nTextureView, error) {
	layers := uint32(1)
	if desc.Dimension == TextureDimension2D {
		layers = desc.DepthOrArrayLayers
	}
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_texture_view(cu(d.dev.ref), cu(tex.ref), C.uint32_t(dim), C.uint32_t(texelFormatC(desc.Format)), C.uint32_t(layers), s)
	})
	return nTextureView{ref}, err
}
