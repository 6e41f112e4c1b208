package wgpu

import (
	"fmt"
	"strings"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// BindingType is how a kernel declares a binding: the front-end's
// [wgsl.BindingKind] itself, so that a binding has one kind type from the
// WGSL to the launch.
type BindingType = wgsl.BindingKind

const (
	// BindingStorageRead: var<storage> or var<storage, read>.
	BindingStorageRead = wgsl.StorageRead
	// BindingStorageReadWrite: var<storage, read_write>.
	BindingStorageReadWrite = wgsl.StorageReadWrite
	// BindingUniform: var<uniform>.
	BindingUniform = wgsl.Uniform
	// BindingTexture: a sampled texture, texture_2d<f32>,
	// texture_depth_2d, ...
	BindingTexture = wgsl.Texture
	// BindingStorageTexture: texture_storage_2d<rgba8unorm, write>, ...
	BindingStorageTexture = wgsl.StorageTexture
	// BindingSampler: sampler or sampler_comparison.
	BindingSampler = wgsl.Sampler
)

// The vocabulary of texture and sampler bindings is the front-end's, as
// BindingType is: one type from the WGSL to the launch.
type (
	// TextureBinding is what a texture or storage texture binding
	// declares: [wgsl.TextureBinding].
	TextureBinding = wgsl.TextureBinding
	// TexelFormat is a texture format: [wgsl.TexelFormat].
	TexelFormat = wgsl.TexelFormat
	// ViewDimension is a texture view's dimension: [wgsl.ViewDimension].
	ViewDimension = wgsl.ViewDimension
	// SampleType is what a sampled texture binding reads:
	// [wgsl.SampleType].
	SampleType = wgsl.SampleType
	// StorageAccess is a storage texture's access: [wgsl.StorageAccess].
	StorageAccess = wgsl.StorageAccess
	// SamplerKind is a sampler binding's type: [wgsl.SamplerKind].
	SamplerKind = wgsl.SamplerKind
)

// The sample types a sampled texture binding reads (its Texture.Sample),
// and the access of a storage texture binding (its Texture.Access).
const (
	SampleTypeFloat             = wgsl.SampleFloat
	SampleTypeUnfilterableFloat = wgsl.SampleUnfilterableFloat
	SampleTypeDepth             = wgsl.SampleDepth
	SampleTypeSint              = wgsl.SampleSint
	SampleTypeUint              = wgsl.SampleUint

	StorageAccessWrite     = wgsl.AccessWrite
	StorageAccessRead      = wgsl.AccessRead
	StorageAccessReadWrite = wgsl.AccessReadWrite
)

// Binding is one binding of a kernel's entry point: @group(Group)
// @binding(Index), a buffer, a texture, a storage texture or a sampler.
type Binding struct {
	Group   uint32
	Index   uint32
	Name    string
	Type    BindingType
	WGSL    string // the binding's type as the front-end resolved it, e.g. "array<u32, 256>", "texture_2d<f32>"
	MinSize uint64 // bytes the bound buffer needs at least; 0 for a texture or sampler
	// Texture is what a BindingTexture or BindingStorageTexture declares:
	// the view dimension and sample type, or the format and access.
	Texture TextureBinding
	// Sampler is a BindingSampler's type (filtering or comparison).
	Sampler SamplerKind
}

// String names the binding as errors do: "binding out (@group(0) @binding(2))".
func (b Binding) String() string {
	return fmt.Sprintf("binding %s (@group(%d) @binding(%d))", b.Name, b.Group, b.Index)
}

// bindingList names bindings for an error: "a, b, out".
func bindingList(bs []Binding) string {
	if len(bs) == 0 {
		return "none"
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}
