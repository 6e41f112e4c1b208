package wgpu

import (
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The view dimensions: WebGPU's GPUTextureViewDimension.
const (
	ViewDimension1D        = wgsl.View1D
	ViewDimension2D        = wgsl.View2D
	ViewDimension2DArray   = wgsl.View2DArray
	ViewDimensionCube      = wgsl.ViewCube
	ViewDimensionCubeArray = wgsl.ViewCubeArray
	ViewDimension3D        = wgsl.View3D
)

// viewDimensions bounds the ViewDimension values (an array index).
const viewDimensions = int(wgsl.View3D) + 1

// TextureView is a view of a whole texture, of one dimension, as a launch
// binds it. It is immutable and safe for concurrent use by multiple
// goroutines. The zero value is not usable; use [Texture.View]. Its
// texture owns it: it goes with [Texture.Release] (or [Device.Close]),
// and is unusable after.
//
// It implements gpu.Buffer, the interface a launch's bindings have, so
// that it can be bound beside buffers; its Size is 0.
type TextureView struct {
	t    *Texture      // written once
	d    *Device       // written once: t's device
	id   uint64        // written once: process-unique among buffers, textures, views and samplers
	dim  ViewDimension // written once
	view viewHandle    // written once; released with t, under d.life's write lock

	slot Buffer // how a launch binds the view (see Buffer.view)
}

var _ gpu.Buffer = (*TextureView)(nil)

// naturalView is t's view dimension for View(0): 1d, 2d or 3d as the
// texture is, 2d-array for a 2d texture of several layers.
func (t *Texture) naturalView() ViewDimension {
	switch t.desc.Dimension {
	case TextureDimension1D:
		return ViewDimension1D
	case TextureDimension3D:
		return ViewDimension3D
	}
	if t.desc.DepthOrArrayLayers > 1 {
		return ViewDimension2DArray
	}
	return ViewDimension2D
}

// checkView checks that a view of dimension dim of the whole of t is
// valid in WebGPU.
func (t *Texture) checkView(op string, dim ViewDimension) error {
	w, h, n := t.desc.Width, t.desc.Height, t.desc.DepthOrArrayLayers
	bad := func(why string, args ...any) error {
		return newError(op, ErrorTypeValidation, "a %v view of a %v texture of %dx%dx%d: "+why, append([]any{dim, t.desc.Dimension, w, h, n}, args...)...)
	}
	switch dim {
	case ViewDimension1D:
		if t.desc.Dimension != TextureDimension1D {
			return bad("it needs a 1d texture")
		}
	case ViewDimension3D:
		if t.desc.Dimension != TextureDimension3D {
			return bad("it needs a 3d texture")
		}
	case ViewDimension2D, ViewDimension2DArray, ViewDimensionCube, ViewDimensionCubeArray:
		if t.desc.Dimension != TextureDimension2D {
			return bad("it needs a 2d texture")
		}
		switch {
		case dim == ViewDimension2D && n != 1:
			return bad("a 2d view shows one layer: view a texture of several layers as 2d-array")
		case (dim == ViewDimensionCube || dim == ViewDimensionCubeArray) && w != h:
			return bad("a cube's faces are square")
		case dim == ViewDimensionCube && n != 6:
			return bad("a cube has 6 layers")
		case dim == ViewDimensionCubeArray && n%6 != 0:
			return bad("a cube array has a multiple of 6 layers")
		}
	default:
		return newError(op, ErrorTypeInvalidArgument, "unknown view dimension %v", dim)
	}
	return nil
}

// View returns a view of the whole texture of dimension dim; 0 means the
// texture's own: 1d, 2d or 3d, or 2d-array for a 2d texture of more than
// one layer. It refuses a dimension the texture cannot be viewed as: 1d
// and 3d views of textures of those dimensions only; 2d, 2d-array, cube
// and cube-array views of 2d textures, 2d of one layer, cube of 6 square
// layers, cube-array of a multiple of 6. Views are made once per
// dimension: View returns the same *TextureView for the same dim, and the
// views go with the texture.
func (t *Texture) View(dim ViewDimension) (*TextureView, error) {
	const op = "View"
	leave, err := t.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	if dim == 0 {
		dim = t.naturalView()
	}
	if err := t.checkView(op, dim); err != nil {
		return nil, err
	}
	t.mu.Lock()
	v := t.views[dim]
	t.mu.Unlock()
	if v != nil {
		return v, nil
	}
	h, err := t.d.newViewHandle(op, t.tex, t.desc, dim)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v := t.views[dim]; v != nil { // another View made it meanwhile
		t.d.dropTextureView(h)
		return v, nil
	}
	v = &TextureView{t: t, d: t.d, id: bufferIDs.Add(1), dim: dim, view: h}
	v.slot = Buffer{d: t.d, id: v.id, users: map[*stream]struct{}{}, view: v}
	t.views[dim] = v
	return v, nil
}

// Texture returns the view's texture.
func (v *TextureView) Texture() *Texture {
	if v == nil {
		return nil
	}
	return v.t
}

// Dimension returns the view's dimension.
func (v *TextureView) Dimension() ViewDimension {
	if v == nil {
		return wgsl.ViewNone
	}
	return v.dim
}

// Size returns 0: a view is no buffer, and has no byte size. (It
// implements gpu.Buffer, so that launches can bind it.)
func (v *TextureView) Size() uint64 { return 0 }

// live checks that v's texture is not released. Called inside d.enter.
func (v *TextureView) live(op string) error {
	if v == nil {
		return newError(op, ErrorTypeInvalidArgument, "nil texture view")
	}
	return v.t.live(op)
}
