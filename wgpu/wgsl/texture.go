package wgsl

import "fmt"

// The vocabulary of texture and sampler bindings: what a binding of kind
// Texture, StorageTexture or Sampler declares, in WebGPU's terms (a bind
// group layout entry's), so that a device can check what is bound against
// it and build the layout.

// TexelFormat is a texture format, named as WebGPU and WGSL name it
// ("rgba8unorm"). The zero value is no format.
type TexelFormat uint8

const (
	FormatNone TexelFormat = iota
	R8Unorm
	R8Snorm
	R8Uint
	R8Sint
	R16Uint
	R16Sint
	R16Float
	RG8Unorm
	RG8Snorm
	RG8Uint
	RG8Sint
	R32Uint
	R32Sint
	R32Float
	RG16Uint
	RG16Sint
	RG16Float
	RGBA8Unorm
	RGBA8UnormSrgb
	RGBA8Snorm
	RGBA8Uint
	RGBA8Sint
	BGRA8Unorm
	BGRA8UnormSrgb
	RGB10A2Unorm
	RG11B10Ufloat
	RG32Uint
	RG32Sint
	RG32Float
	RGBA16Uint
	RGBA16Sint
	RGBA16Float
	RGBA32Uint
	RGBA32Sint
	RGBA32Float
	Depth16Unorm
	Depth32Float
	formatCount
)

// formatInfo is what a TexelFormat is: its name, texel size, the sample
// type a texture of it is read as, and whether WGSL allows it as a storage
// texture's format.
type formatInfo struct {
	name    string
	bytes   int
	sample  SampleType
	storage bool
}

var formats = [formatCount]formatInfo{
	FormatNone:     {"", 0, 0, false},
	R8Unorm:        {"r8unorm", 1, SampleFloat, false},
	R8Snorm:        {"r8snorm", 1, SampleFloat, false},
	R8Uint:         {"r8uint", 1, SampleUint, false},
	R8Sint:         {"r8sint", 1, SampleSint, false},
	R16Uint:        {"r16uint", 2, SampleUint, false},
	R16Sint:        {"r16sint", 2, SampleSint, false},
	R16Float:       {"r16float", 2, SampleFloat, false},
	RG8Unorm:       {"rg8unorm", 2, SampleFloat, false},
	RG8Snorm:       {"rg8snorm", 2, SampleFloat, false},
	RG8Uint:        {"rg8uint", 2, SampleUint, false},
	RG8Sint:        {"rg8sint", 2, SampleSint, false},
	R32Uint:        {"r32uint", 4, SampleUint, true},
	R32Sint:        {"r32sint", 4, SampleSint, true},
	R32Float:       {"r32float", 4, SampleUnfilterableFloat, true},
	RG16Uint:       {"rg16uint", 4, SampleUint, false},
	RG16Sint:       {"rg16sint", 4, SampleSint, false},
	RG16Float:      {"rg16float", 4, SampleFloat, false},
	RGBA8Unorm:     {"rgba8unorm", 4, SampleFloat, true},
	RGBA8UnormSrgb: {"rgba8unorm-srgb", 4, SampleFloat, false},
	RGBA8Snorm:     {"rgba8snorm", 4, SampleFloat, true},
	RGBA8Uint:      {"rgba8uint", 4, SampleUint, true},
	RGBA8Sint:      {"rgba8sint", 4, SampleSint, true},
	BGRA8Unorm:     {"bgra8unorm", 4, SampleFloat, true},
	BGRA8UnormSrgb: {"bgra8unorm-srgb", 4, SampleFloat, false},
	RGB10A2Unorm:   {"rgb10a2unorm", 4, SampleFloat, false},
	RG11B10Ufloat:  {"rg11b10ufloat", 4, SampleFloat, false},
	RG32Uint:       {"rg32uint", 8, SampleUint, true},
	RG32Sint:       {"rg32sint", 8, SampleSint, true},
	RG32Float:      {"rg32float", 8, SampleUnfilterableFloat, true},
	RGBA16Uint:     {"rgba16uint", 8, SampleUint, true},
	RGBA16Sint:     {"rgba16sint", 8, SampleSint, true},
	RGBA16Float:    {"rgba16float", 8, SampleFloat, true},
	RGBA32Uint:     {"rgba32uint", 16, SampleUint, true},
	RGBA32Sint:     {"rgba32sint", 16, SampleSint, true},
	RGBA32Float:    {"rgba32float", 16, SampleUnfilterableFloat, true},
	Depth16Unorm:   {"depth16unorm", 2, SampleDepth, false},
	Depth32Float:   {"depth32float", 4, SampleDepth, false},
}

// String returns the format's WebGPU name, "rgba8unorm".
func (f TexelFormat) String() string {
	if f > FormatNone && f < formatCount {
		return formats[f].name
	}
	return fmt.Sprintf("TexelFormat(%d)", uint8(f))
}

// ParseTexelFormat returns the format named name ("rgba8unorm"), and
// false for a name it does not know.
func ParseTexelFormat(name string) (TexelFormat, bool) {
	for f := FormatNone + 1; f < formatCount; f++ {
		if formats[f].name == name {
			return f, true
		}
	}
	return FormatNone, false
}

// Valid reports whether f is a known format.
func (f TexelFormat) Valid() bool { return f > FormatNone && f < formatCount }

// BytesPerTexel returns the size of one texel of f (0 for no format).
func (f TexelFormat) BytesPerTexel() int {
	if !f.Valid() {
		return 0
	}
	return formats[f].bytes
}

// SampleType returns how a texture of format f is sampled: the sample
// type of a binding it can be bound to (a float format that cannot be
// filtered on every device, r32float and wider, is SampleUnfilterableFloat;
// it binds to a float binding only where the device filters it).
func (f TexelFormat) SampleType() SampleType {
	if !f.Valid() {
		return 0
	}
	return formats[f].sample
}

// StorageFormat reports whether WGSL allows f as a storage texture's
// format (texture_storage_2d<f, access>).
func (f TexelFormat) StorageFormat() bool { return f.Valid() && formats[f].storage }

// ViewDimension is a texture view's dimension as a binding declares it.
type ViewDimension uint8

const (
	ViewNone ViewDimension = iota
	View1D
	View2D
	View2DArray
	ViewCube
	ViewCubeArray
	View3D
)

var viewNames = []string{"", "1d", "2d", "2d-array", "cube", "cube-array", "3d"}

// String returns WebGPU's name of the dimension: "2d", "2d-array", ….
func (v ViewDimension) String() string { return enumName(v, viewNames, "ViewDimension") }

// SampleType is what a sampled texture binding reads: WebGPU's
// GPUTextureSampleType.
type SampleType uint8

const (
	SampleNone SampleType = iota
	// SampleFloat: texture_*<f32> read with a filtering sampler or textureLoad.
	SampleFloat
	// SampleUnfilterableFloat: a float texture that is only loaded (or
	// sampled with a non-filtering sampler).
	SampleUnfilterableFloat
	// SampleDepth: texture_depth_*.
	SampleDepth
	// SampleSint: texture_*<i32>.
	SampleSint
	// SampleUint: texture_*<u32>.
	SampleUint
)

var sampleNames = []string{"", "float", "unfilterable-float", "depth", "sint", "uint"}

// String returns WebGPU's name of the sample type: "float", "uint", ….
func (s SampleType) String() string { return enumName(s, sampleNames, "SampleType") }

// StorageAccess is a storage texture's access mode.
type StorageAccess uint8

const (
	AccessNone StorageAccess = iota
	// AccessWrite: texture_storage_*<format, write>.
	AccessWrite
	// AccessRead: texture_storage_*<format, read>.
	AccessRead
	// AccessReadWrite: texture_storage_*<format, read_write>.
	AccessReadWrite
)

var accessNames = []string{"", "write-only", "read-only", "read-write"}

// String returns WebGPU's name of the access: "write-only", "read-only"
// or "read-write".
func (a StorageAccess) String() string { return enumName(a, accessNames, "StorageAccess") }

// SamplerKind is a sampler binding's type: WebGPU's
// GPUSamplerBindingType.
type SamplerKind uint8

const (
	SamplerNone SamplerKind = iota
	// SamplerFiltering: sampler (the kind WebGPU's default layout gives it).
	SamplerFiltering
	// SamplerNonFiltering: a sampler used only with unfilterable textures.
	SamplerNonFiltering
	// SamplerComparison: sampler_comparison.
	SamplerComparison
)

var samplerNames = []string{"", "filtering", "non-filtering", "comparison"}

// String returns WebGPU's name of the sampler type.
func (s SamplerKind) String() string { return enumName(s, samplerNames, "SamplerKind") }

// TextureBinding is what a binding of kind Texture or StorageTexture
// declares. For a Texture: View, Sample and Multisampled; for a
// StorageTexture: View, Format and Access.
type TextureBinding struct {
	View         ViewDimension
	Sample       SampleType
	Multisampled bool
	Format       TexelFormat
	Access       StorageAccess
}

// enumName returns names[v], or "typ(v)" for the zero value or a value
// past names.
func enumName[T ~uint8](v T, names []string, typ string) string {
	if v > 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}
