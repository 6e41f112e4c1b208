package wgpu

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// A texture and the calls on it. Each backend has its texHandle,
// viewHandle and samplerHandle and the few calls that make, fill, copy out
// and drop them (texture_native.go, texture_js.go); everything else,
// the checks above all, is here and in texture_view.go, sampler.go and
// texture_transfer.go.

// The texture formats a [Texture] may have: WebGPU's core formats that are
// not compressed, packed or stencil formats.
const (
	FormatR8Unorm        = wgsl.R8Unorm
	FormatR8Snorm        = wgsl.R8Snorm
	FormatR8Uint         = wgsl.R8Uint
	FormatR8Sint         = wgsl.R8Sint
	FormatR16Uint        = wgsl.R16Uint
	FormatR16Sint        = wgsl.R16Sint
	FormatR16Float       = wgsl.R16Float
	FormatRG8Unorm       = wgsl.RG8Unorm
	FormatRG8Snorm       = wgsl.RG8Snorm
	FormatRG8Uint        = wgsl.RG8Uint
	FormatRG8Sint        = wgsl.RG8Sint
	FormatR32Uint        = wgsl.R32Uint
	FormatR32Sint        = wgsl.R32Sint
	FormatR32Float       = wgsl.R32Float
	FormatRG16Uint       = wgsl.RG16Uint
	FormatRG16Sint       = wgsl.RG16Sint
	FormatRG16Float      = wgsl.RG16Float
	FormatRGBA8Unorm     = wgsl.RGBA8Unorm
	FormatRGBA8UnormSrgb = wgsl.RGBA8UnormSrgb
	FormatRGBA8Snorm     = wgsl.RGBA8Snorm
	FormatRGBA8Uint      = wgsl.RGBA8Uint
	FormatRGBA8Sint      = wgsl.RGBA8Sint
	FormatBGRA8Unorm     = wgsl.BGRA8Unorm
	FormatBGRA8UnormSrgb = wgsl.BGRA8UnormSrgb
	FormatRGB10A2Unorm   = wgsl.RGB10A2Unorm
	FormatRG11B10Ufloat  = wgsl.RG11B10Ufloat
	FormatRG32Uint       = wgsl.RG32Uint
	FormatRG32Sint       = wgsl.RG32Sint
	FormatRG32Float      = wgsl.RG32Float
	FormatRGBA16Uint     = wgsl.RGBA16Uint
	FormatRGBA16Sint     = wgsl.RGBA16Sint
	FormatRGBA16Float    = wgsl.RGBA16Float
	FormatRGBA32Uint     = wgsl.RGBA32Uint
	FormatRGBA32Sint     = wgsl.RGBA32Sint
	FormatRGBA32Float    = wgsl.RGBA32Float
	FormatDepth16Unorm   = wgsl.Depth16Unorm
	FormatDepth32Float   = wgsl.Depth32Float
)

// TextureUsage says what a texture may be used for; values combine with
// |. The bits are WebGPU's (webgpu.h's WGPUTextureUsage); a compute
// device has no use for RenderAttachment, which is left out.
type TextureUsage uint32

const (
	TextureUsageCopySrc        TextureUsage = 0x1
	TextureUsageCopyDst        TextureUsage = 0x2
	TextureUsageTextureBinding TextureUsage = 0x4
	TextureUsageStorageBinding TextureUsage = 0x8

	textureUsageAll = TextureUsageCopySrc | TextureUsageCopyDst | TextureUsageTextureBinding | TextureUsageStorageBinding
)

var textureUsageNames = []struct {
	u    TextureUsage
	name string
}{
	{TextureUsageCopySrc, "CopySrc"}, {TextureUsageCopyDst, "CopyDst"},
	{TextureUsageTextureBinding, "TextureBinding"}, {TextureUsageStorageBinding, "StorageBinding"},
}

// String returns the usage's flags joined with "|", e.g.
// "CopyDst|TextureBinding".
func (u TextureUsage) String() string { return flagNames(u, textureUsageNames) }

// TextureDimension is a texture's dimension. The zero value stands for
// [TextureDimension2D] in a [TextureDesc].
type TextureDimension uint8

const (
	TextureDimension1D TextureDimension = iota + 1
	TextureDimension2D
	TextureDimension3D
)

// String returns WebGPU's name of the dimension: "1d", "2d" or "3d".
func (d TextureDimension) String() string {
	switch d {
	case TextureDimension1D:
		return "1d"
	case TextureDimension2D:
		return "2d"
	case TextureDimension3D:
		return "3d"
	}
	return fmt.Sprintf("TextureDimension(%d)", uint8(d))
}

// TextureDesc describes a texture for [Device.NewTexture]. It is a plain
// value. A texture has one mip level and one sample.
type TextureDesc struct {
	// Dimension is the texture's dimension; 0 means TextureDimension2D.
	Dimension TextureDimension
	// Width, Height and DepthOrArrayLayers are its size in texels: the
	// depth of a 3D texture, the array layers of a 2D one (1 for a 1D
	// texture). 0 means 1 for Height and DepthOrArrayLayers.
	Width, Height, DepthOrArrayLayers uint32
	// Format is its texel format.
	Format TexelFormat
	// Usage is what it may be used for; 0 means every usage the format
	// allows on the device: TextureBinding, CopySrc and CopyDst, and
	// StorageBinding where the format is a storage format there.
	Usage TextureUsage
}

// WebGPU's default texture limits, for a device whose driver reports none.
const (
	defaultMaxTextureDimension1D = 8192
	defaultMaxTextureDimension2D = 8192
	defaultMaxTextureDimension3D = 2048
	defaultMaxTextureArrayLayers = 256
)

// textureLimits returns the device's texture limits: 1D, 2D and 3D sizes
// and array layers, WebGPU's defaults for those the driver left 0.
func (d *Device) textureLimits() (max1D, max2D, max3D, maxLayers uint32) {
	or := func(v, def uint32) uint32 {
		if v == 0 {
			return def
		}
		return v
	}
	l := d.limits
	return or(l.MaxTextureDimension1D, defaultMaxTextureDimension1D), or(l.MaxTextureDimension2D, defaultMaxTextureDimension2D),
		or(l.MaxTextureDimension3D, defaultMaxTextureDimension3D), or(l.MaxTextureArrayLayers, defaultMaxTextureArrayLayers)
}

// isDepth reports whether f is a depth format.
func isDepth(f TexelFormat) bool { return f.SampleType() == wgsl.SampleDepth }

// storageFormat reports whether f may be a storage texture's format on d:
// WGSL's storage formats, bgra8unorm only with the "bgra8unorm-storage"
// feature. Called inside d.enter.
func (d *Device) storageFormat(f TexelFormat) bool {
	return f.StorageFormat() && (f != FormatBGRA8Unorm || d.hasBGRA8Storage())
}

// defaultTextureUsage is the usage a texture of format f gets for usage 0.
// Called inside d.enter.
func (d *Device) defaultTextureUsage(f TexelFormat) TextureUsage {
	u := TextureUsageTextureBinding | TextureUsageCopySrc | TextureUsageCopyDst
	if d.storageFormat(f) {
		u |= TextureUsageStorageBinding
	}
	return u
}

// formatUsageError checks that d supports textures of format f with usage
// u; the error names both. Called inside d.enter.
func (d *Device) formatUsageError(op string, f TexelFormat, u TextureUsage) error {
	switch {
	case f == wgsl.FormatNone:
		return newError(op, ErrorTypeInvalidArgument, "no texture format")
	case !f.Valid():
		return newError(op, ErrorTypeInvalidArgument, "unknown texture format %v", f)
	case u == 0:
		return newError(op, ErrorTypeInvalidArgument, "usage 0: a texture needs some usage")
	case u&^textureUsageAll != 0:
		return newError(op, ErrorTypeInvalidArgument, "usage %v has unknown bits", u)
	case u&TextureUsageStorageBinding == 0:
		return nil
	case isDepth(f):
		return newError(op, ErrorTypeValidation, "format %v does not support usage StorageBinding: a depth format is never a storage texture's", f)
	case f == FormatBGRA8Unorm && !d.storageFormat(f):
		return newError(op, ErrorTypeUnsupported, "format %v does not support usage StorageBinding on this device: it needs the \"bgra8unorm-storage\" feature, which the device lacks", f)
	case !f.StorageFormat():
		return newError(op, ErrorTypeValidation, "format %v does not support usage StorageBinding: WebGPU's storage formats are the 32-bit ones, rgba8 (unorm, snorm, uint, sint), rgba16 and the 32-bit-channel rg and rgba ones", f)
	}
	return nil
}

// TextureFormatSupported reports whether [Device.NewTexture] accepts
// textures of format f with usage u on d (u 0: with the format's default
// usage, so whether f is a known format at all). It is false for a nil or
// closed device.
func (d *Device) TextureFormatSupported(f TexelFormat, u TextureUsage) bool {
	leave, err := d.enter("TextureFormatSupported")
	if err != nil {
		return false
	}
	defer leave()
	if u == 0 && f.Valid() {
		u = d.defaultTextureUsage(f)
	}
	return d.formatUsageError("TextureFormatSupported", f, u) == nil
}

// checkTextureDesc checks desc against WebGPU's rules and d's limits and
// returns it with its zero fields filled in. Called inside d.enter.
func (d *Device) checkTextureDesc(op string, desc TextureDesc) (TextureDesc, error) {
	if desc.Dimension == 0 {
		desc.Dimension = TextureDimension2D
	}
	if desc.Height == 0 {
		desc.Height = 1
	}
	if desc.DepthOrArrayLayers == 0 {
		desc.DepthOrArrayLayers = 1
	}
	if desc.Usage == 0 && desc.Format.Valid() {
		desc.Usage = d.defaultTextureUsage(desc.Format)
	}
	max1D, max2D, max3D, maxLayers := d.textureLimits()
	w, h, n := desc.Width, desc.Height, desc.DepthOrArrayLayers
	switch desc.Dimension {
	case TextureDimension1D, TextureDimension2D, TextureDimension3D:
	default:
		return desc, newError(op, ErrorTypeInvalidArgument, "unknown texture dimension %v", desc.Dimension)
	}
	if err := d.formatUsageError(op, desc.Format, desc.Usage); err != nil {
		return desc, err
	}
	if w == 0 {
		return desc, newError(op, ErrorTypeInvalidArgument, "width 0: a texture has at least one texel")
	}
	switch desc.Dimension {
	case TextureDimension1D:
		switch {
		case h != 1 || n != 1:
			return desc, newError(op, ErrorTypeValidation, "a 1d texture has height and depthOrArrayLayers 1, not %d and %d", h, n)
		case w > max1D:
			return desc, newError(op, ErrorTypeLimit, "width %d exceeds maxTextureDimension1D %d", w, max1D)
		}
	case TextureDimension2D:
		switch {
		case w > max2D || h > max2D:
			return desc, newError(op, ErrorTypeLimit, "size %dx%d exceeds maxTextureDimension2D %d", w, h, max2D)
		case n > maxLayers:
			return desc, newError(op, ErrorTypeLimit, "%d array layers exceed maxTextureArrayLayers %d", n, maxLayers)
		}
	case TextureDimension3D:
		if w > max3D || h > max3D || n > max3D {
			return desc, newError(op, ErrorTypeLimit, "size %dx%dx%d exceeds maxTextureDimension3D %d", w, h, n, max3D)
		}
	}
	if isDepth(desc.Format) && desc.Dimension != TextureDimension2D {
		return desc, newError(op, ErrorTypeValidation, "a %v texture of depth format %v: depth textures are 2d", desc.Dimension, desc.Format)
	}
	return desc, nil
}

// Texture is a device texture (in a browser, a GPUTexture of the page),
// of one mip level and one sample. It is safe for concurrent use by
// multiple goroutines; uploads and read-backs are ordered with the
// launches of every stream that binds it (see [WriteTexture] and
// [ReadTexture]). The zero value is not usable; use [Device.NewTexture].
// The device owns the underlying texture and its views: release them with
// [Texture.Release] or, for all textures at once, [Device.Close].
type Texture struct {
	d    *Device     // written once
	id   uint64      // written once: process-unique among buffers, textures, views and samplers
	desc TextureDesc // written once, every field set
	tex  texHandle   // written once; released under d.life's write lock

	released atomic.Bool // set once, under d.life's write lock
	recycled atomic.Bool // set while the texture waits in the device's TempTexture pool

	mu    sync.Mutex                   // guards views
	views [viewDimensions]*TextureView // the views made, by dimension; released with the texture
}

// NewTexture creates a texture desc describes. It checks desc before the
// driver sees it: the dimension, the size against the device's limits
// (maxTextureDimension1D, 2D, 3D and maxTextureArrayLayers: an [*Error] of
// type [ErrorTypeLimit]), a 1d texture's height and layers 1, the format,
// and the usage against what the format allows on the device (see
// [Device.TextureFormatSupported]: StorageBinding only for a storage
// format, bgra8unorm's only with the "bgra8unorm-storage" feature; a
// depth texture is 2d and never storage). A refused format names the
// format and the usage.
func (d *Device) NewTexture(desc TextureDesc) (*Texture, error) {
	const op = "NewTexture"
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	desc, err = d.checkTextureDesc(op, desc)
	if err != nil {
		return nil, err
	}
	h, err := d.newTexHandle(op, desc)
	if err != nil {
		return nil, err
	}
	d.texturesCreated.Add(1)
	t := &Texture{d: d, id: bufferIDs.Add(1), desc: desc, tex: h}
	d.mu.Lock()
	d.textures[t] = struct{}{}
	d.mu.Unlock()
	return t, nil
}

// Width returns the texture's width in texels (0 for a nil *Texture).
func (t *Texture) Width() uint32 {
	if t == nil {
		return 0
	}
	return t.desc.Width
}

// Height returns the texture's height in texels (1 for a 1d texture).
func (t *Texture) Height() uint32 {
	if t == nil {
		return 0
	}
	return t.desc.Height
}

// DepthOrArrayLayers returns a 3d texture's depth, a 2d texture's array
// layers, 1 for a 1d texture.
func (t *Texture) DepthOrArrayLayers() uint32 {
	if t == nil {
		return 0
	}
	return t.desc.DepthOrArrayLayers
}

// Dimension returns the texture's dimension.
func (t *Texture) Dimension() TextureDimension {
	if t == nil {
		return 0
	}
	return t.desc.Dimension
}

// Format returns the texture's format.
func (t *Texture) Format() TexelFormat {
	if t == nil {
		return wgsl.FormatNone
	}
	return t.desc.Format
}

// Usage returns the texture's usage (the default filled in for usage 0).
func (t *Texture) Usage() TextureUsage {
	if t == nil {
		return 0
	}
	return t.desc.Usage
}

// Device returns the device that owns the texture.
func (t *Texture) Device() *Device {
	if t == nil {
		return nil
	}
	return t.d
}

// nilTextureError is the error of a call on a nil *Texture (see
// nilDeviceError).
func nilTextureError(op string) error {
	if !haveDevice {
		return noCgo(op)
	}
	return newError(op, ErrorTypeInvalidArgument, "nil texture")
}

// enter enters the device for op (see [Device.enter]) and checks that t is
// a live texture.
func (t *Texture) enter(op string) (leave func(), err error) {
	if t == nil {
		return nil, nilTextureError(op)
	}
	leave, err = t.d.enter(op)
	if err != nil {
		return nil, err
	}
	if err := t.live(op); err != nil {
		leave()
		return nil, err
	}
	return leave, nil
}

// live checks that t is not released. Called inside d.enter.
func (t *Texture) live(op string) error {
	switch {
	case t.released.Load():
		return newError(op, ErrorTypeInvalidArgument, "texture is released")
	case t.recycled.Load():
		return newError(op, ErrorTypeInvalidArgument, "texture is recycled (Device.TempTexture has not handed it out again)")
	}
	return nil
}

// needUsage checks that t has usage u for op.
func (t *Texture) needUsage(op string, u TextureUsage) error {
	if t.desc.Usage&u == 0 {
		return newError(op, ErrorTypeValidation, "the texture's usage %v lacks TextureUsage%v", t.desc.Usage, u)
	}
	return nil
}

// flushUsers submits the pending work of every stream that binds one of
// t's views (its launches, and the replays of graphs that bind it), so
// that an upload, read-back or release is ordered after it. Called with
// d.life read-locked (or write-locked, by Release).
func (t *Texture) flushUsers(op string) error {
	t.mu.Lock()
	views := t.views
	t.mu.Unlock()
	var first error
	for _, v := range views {
		if v == nil {
			continue
		}
		if err := v.slot.flushUsers(op); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Release releases the texture and its views. Work already recorded that
// binds it is submitted first and still runs (wgpu-native keeps the
// texture alive until that work completes; the browser destroys a
// GPUTexture only once the work submitted with it is done). Later
// launches binding one of its views, uploads, read-backs and new views
// return an error. Release briefly excludes every other call on the
// device. Releasing twice, or after [Device.Close], is harmless.
func (t *Texture) Release() {
	if t == nil {
		return
	}
	d := t.d
	if d.closed.Load() {
		return
	}
	d.life.Lock()
	defer d.life.Unlock()
	if d.closed.Load() || t.released.Swap(true) {
		return
	}
	t.flushUsers("Release") // errors belong to those streams' launches; nothing to report here
	d.bufEpoch.Add(1)       // every graph checks its bindings again
	t.mu.Lock()
	views := t.views
	t.mu.Unlock()
	for _, v := range views {
		if v != nil {
			v.slot.retire()
		}
	}
	d.mu.Lock()
	delete(d.textures, t)
	d.mu.Unlock()
	t.drop()
}

// drop releases t's views and t's driver texture. Called with d.life
// write-locked, once t is marked released.
func (t *Texture) drop() {
	t.mu.Lock()
	views := t.views
	t.views = [viewDimensions]*TextureView{}
	t.mu.Unlock()
	for _, v := range views {
		if v != nil {
			t.d.dropTextureView(v.view)
		}
	}
	t.d.dropTexture(t.tex)
}

// closeTextures releases every texture, its views and every sampler of d.
// Called by Close with d.life write-locked.
func (d *Device) closeTextures() {
	d.mu.Lock()
	textures := make([]*Texture, 0, len(d.textures))
	for t := range d.textures {
		t.released.Store(true)
		textures = append(textures, t)
		delete(d.textures, t)
	}
	samplers := make([]*Sampler, 0, len(d.samplers))
	for s := range d.samplers {
		s.released.Store(true)
		samplers = append(samplers, s)
		delete(d.samplers, s)
	}
	d.mu.Unlock()
	for _, t := range textures {
		t.drop()
	}
	for _, s := range samplers {
		d.dropSampler(s.h)
	}
	if len(textures) > 0 {
		d.settleDropped()
	}
}
