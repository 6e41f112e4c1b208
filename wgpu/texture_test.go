//go:build cgo || (js && wasm)

package wgpu_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func mustTexture(t testing.TB, d *wgpu.Device, desc wgpu.TextureDesc) *wgpu.Texture {
	t.Helper()
	tex, err := d.NewTexture(desc)
	if err != nil {
		t.Fatalf("NewTexture(%+v) = %v", desc, err)
	}
	return tex
}

// wantError checks that err is a *wgpu.Error of type typ whose message
// holds each of words.
func wantError(t testing.TB, what string, err error, typ wgpu.ErrorType, words ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s = nil, want a %v error", what, typ)
	}
	var e *wgpu.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s = %v (%T), want a *wgpu.Error", what, err, err)
	}
	if e.Type != typ {
		t.Errorf("%s = %v, want type %v", what, err, typ)
	}
	for _, w := range words {
		if !strings.Contains(e.Message, w) {
			t.Errorf("%s = %v, want its message to name %q", what, err, w)
		}
	}
}

// texelBytes returns n bytes of texels with no float NaN or infinity in
// them (each byte below 0x40), so that every format copies them as is.
func texelBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(0x40))
	}
	return b
}

// TestTextureReadsBackWhatWasWrittenBitwise fills textures of several
// formats and dimensions, writes a region inside each and reads the whole
// texture back: every byte equals a CPU model of the writes, whatever the
// rows' byte width (3-texel rgba8unorm rows of 12 bytes, 3-byte r8uint
// rows, rows of 1024 bytes that need no padding).
func TestTextureReadsBackWhatWasWrittenBitwise(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	for _, tc := range []struct {
		name         string
		desc         wgpu.TextureDesc
		origin, size [3]uint32
	}{
		{"rgba8unorm-2d-3x5", wgpu.TextureDesc{Width: 3, Height: 5, Format: wgpu.FormatRGBA8Unorm}, [3]uint32{1, 1, 0}, [3]uint32{2, 3, 1}},
		{"r32float-2d-7x4", wgpu.TextureDesc{Width: 7, Height: 4, Format: wgpu.FormatR32Float}, [3]uint32{0, 2, 0}, [3]uint32{7, 2, 1}},
		{"r8uint-1d-5", wgpu.TextureDesc{Dimension: wgpu.TextureDimension1D, Width: 5, Format: wgpu.FormatR8Uint}, [3]uint32{1, 0, 0}, [3]uint32{3, 1, 1}},
		{"r16float-2d-9x2", wgpu.TextureDesc{Width: 9, Height: 2, Format: wgpu.FormatR16Float}, [3]uint32{8, 0, 0}, [3]uint32{1, 2, 1}},
		{"rg8snorm-2d-300x3", wgpu.TextureDesc{Width: 300, Height: 3, Format: wgpu.FormatRG8Snorm}, [3]uint32{10, 1, 0}, [3]uint32{290, 2, 1}},
		{"rgba16uint-2d-array-5x3x4", wgpu.TextureDesc{Width: 5, Height: 3, DepthOrArrayLayers: 4, Format: wgpu.FormatRGBA16Uint}, [3]uint32{2, 0, 1}, [3]uint32{3, 3, 2}},
		{"rgba32float-3d-3x2x2", wgpu.TextureDesc{Dimension: wgpu.TextureDimension3D, Width: 3, Height: 2, DepthOrArrayLayers: 2, Format: wgpu.FormatRGBA32Float}, [3]uint32{1, 1, 1}, [3]uint32{2, 1, 1}},
		{"rgba32uint-2d-64x2", wgpu.TextureDesc{Width: 64, Height: 2, Format: wgpu.FormatRGBA32Uint}, [3]uint32{0, 1, 0}, [3]uint32{64, 1, 1}},
		{"bgra8unorm-2d-4x4", wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatBGRA8Unorm}, [3]uint32{0, 0, 0}, [3]uint32{4, 4, 1}},
		{"rgba8unorm-srgb-2d-2x2", wgpu.TextureDesc{Width: 2, Height: 2, Format: wgpu.FormatRGBA8UnormSrgb}, [3]uint32{1, 0, 0}, [3]uint32{1, 2, 1}},
		{"rgb10a2unorm-2d-3x3", wgpu.TextureDesc{Width: 3, Height: 3, Format: wgpu.FormatRGB10A2Unorm}, [3]uint32{0, 0, 0}, [3]uint32{3, 3, 1}},
		{"rg32sint-3d-2x2x3", wgpu.TextureDesc{Dimension: wgpu.TextureDimension3D, Width: 2, Height: 2, DepthOrArrayLayers: 3, Format: wgpu.FormatRG32Sint}, [3]uint32{0, 1, 1}, [3]uint32{2, 1, 2}},
		{"depth16unorm-2d-5x3x2", wgpu.TextureDesc{Width: 5, Height: 3, DepthOrArrayLayers: 2, Format: wgpu.FormatDepth16Unorm}, [3]uint32{0, 0, 0}, [3]uint32{5, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tex := mustTexture(t, d, tc.desc)
			defer tex.Release()
			r := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			bpt := tc.desc.Format.BytesPerTexel()
			w, h, n := int(tex.Width()), int(tex.Height()), int(tex.DepthOrArrayLayers())
			model := texelBytes(r, w*h*n*bpt)
			full := [3]uint32{uint32(w), uint32(h), uint32(n)}
			if err := wgpu.WriteTexture(tex, [3]uint32{}, full, model); err != nil {
				t.Fatalf("WriteTexture(whole) = %v", err)
			}
			sub := texelBytes(r, int(tc.size[0]*tc.size[1]*tc.size[2])*bpt)
			if err := wgpu.WriteTexture(tex, tc.origin, tc.size, sub); err != nil {
				t.Fatalf("WriteTexture(%v at %v) = %v", tc.size, tc.origin, err)
			}
			row := int(tc.size[0]) * bpt
			i := 0
			for z := range int(tc.size[2]) {
				for y := range int(tc.size[1]) {
					at := (((int(tc.origin[2])+z)*h+int(tc.origin[1])+y)*w + int(tc.origin[0])) * bpt
					copy(model[at:at+row], sub[i:i+row])
					i += row
				}
			}
			got, err := wgpu.ReadTexture[byte](ctx, tex, [3]uint32{}, full)
			if err != nil {
				t.Fatalf("ReadTexture(whole) = %v", err)
			}
			if !bytes.Equal(got, model) {
				t.Fatalf("ReadTexture(whole) = %v, want %v", got, model)
			}
			part, err := wgpu.ReadTexture[byte](ctx, tex, tc.origin, tc.size)
			if err != nil || !bytes.Equal(part, sub) {
				t.Fatalf("ReadTexture(%v at %v) = %v, %v, want %v", tc.size, tc.origin, part, err, sub)
			}
		})
	}
	// The driver found nothing wrong (a browser reports its errors here).
	if err := d.Sync(ctx, 0); err != nil {
		t.Fatalf("Sync after the transfers = %v", err)
	}
}

// TestTextureTypedRoundTrip moves typed texels: float32s of an r32float
// texture and bytes of a 3-texel-wide rgba8unorm one, whose 12-byte rows
// the read-back pads to 256 and strips again.
func TestTextureTypedRoundTrip(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	f := mustTexture(t, d, wgpu.TextureDesc{Width: 3, Height: 2, Format: wgpu.FormatR32Float})
	vf := []float32{1.5, -2.25, 3, 0, -0, 1e-30}
	if err := wgpu.WriteTexture(f, [3]uint32{}, [3]uint32{3, 2, 1}, vf); err != nil {
		t.Fatal(err)
	}
	gotf, err := wgpu.ReadTexture[float32](ctx, f, [3]uint32{}, [3]uint32{3, 2, 1})
	if err != nil || !reflect.DeepEqual(gotf, vf) {
		t.Fatalf("ReadTexture[float32] = %v, %v, want %v", gotf, err, vf)
	}
	c := mustTexture(t, d, wgpu.TextureDesc{Width: 3, Height: 4, Format: wgpu.FormatRGBA8Unorm})
	vc := make([]uint8, 3*4*4)
	for i := range vc {
		vc[i] = uint8(i * 7)
	}
	if err := wgpu.WriteTexture(c, [3]uint32{}, [3]uint32{3, 4, 1}, vc); err != nil {
		t.Fatal(err)
	}
	gotc, err := wgpu.ReadTexture[uint8](ctx, c, [3]uint32{}, [3]uint32{3, 4, 1})
	if err != nil || !bytes.Equal(gotc, vc) {
		t.Fatalf("ReadTexture[uint8] = %v, %v, want %v", gotc, err, vc)
	}
	// Four bytes a texel read as uint32s: one element per texel.
	got32, err := wgpu.ReadTexture[uint32](ctx, c, [3]uint32{0, 1, 0}, [3]uint32{1, 1, 1})
	if want := uint32(vc[12]) | uint32(vc[13])<<8 | uint32(vc[14])<<16 | uint32(vc[15])<<24; err != nil || len(got32) != 1 || got32[0] != want {
		t.Fatalf("ReadTexture[uint32] = %#x, %v, want [%#x]", got32, err, want)
	}
	// An empty region moves nothing.
	if err := wgpu.WriteTexture(c, [3]uint32{3, 4, 1}, [3]uint32{}, []uint8{}); err != nil {
		t.Fatalf("WriteTexture(empty) = %v", err)
	}
	if got, err := wgpu.ReadTexture[uint8](ctx, c, [3]uint32{1, 1, 0}, [3]uint32{0, 2, 1}); err != nil || len(got) != 0 {
		t.Fatalf("ReadTexture(empty) = %v, %v", got, err)
	}
	// A depth32float texture is read (zeros: a new texture is cleared).
	z := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 2, Format: wgpu.FormatDepth32Float})
	gotz, err := wgpu.ReadTexture[float32](ctx, z, [3]uint32{}, [3]uint32{4, 2, 1})
	if err != nil || !reflect.DeepEqual(gotz, make([]float32, 8)) {
		t.Fatalf("ReadTexture(depth32float) = %v, %v, want zeros", gotz, err)
	}
	if err := d.Sync(ctx, 0); err != nil {
		t.Fatalf("Sync after the transfers = %v", err)
	}
}

// TestNewTextureRefusesBadDescs checks each bad description is refused
// before the driver sees it, with an error naming what is wrong.
func TestNewTextureRefusesBadDescs(t *testing.T) {
	d := openTestDevice(t)
	lim := d.Limits()
	if lim.MaxTextureDimension1D == 0 || lim.MaxTextureDimension2D == 0 || lim.MaxTextureDimension3D == 0 || lim.MaxTextureArrayLayers == 0 {
		t.Fatalf("Limits() = %+v: the texture limits are not read from the driver", lim)
	}
	rgba := wgpu.FormatRGBA8Unorm
	for _, tc := range []struct {
		name  string
		desc  wgpu.TextureDesc
		typ   wgpu.ErrorType
		words []string
	}{
		{"zero-width", wgpu.TextureDesc{Height: 4, Format: rgba}, wgpu.ErrorTypeInvalidArgument, []string{"width 0"}},
		{"over-1d-limit", wgpu.TextureDesc{Dimension: wgpu.TextureDimension1D, Width: lim.MaxTextureDimension1D + 1, Format: rgba}, wgpu.ErrorTypeLimit, []string{"maxTextureDimension1D"}},
		{"over-2d-limit", wgpu.TextureDesc{Width: 4, Height: lim.MaxTextureDimension2D + 1, Format: rgba}, wgpu.ErrorTypeLimit, []string{"maxTextureDimension2D"}},
		{"over-layer-limit", wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: lim.MaxTextureArrayLayers + 1, Format: rgba}, wgpu.ErrorTypeLimit, []string{"maxTextureArrayLayers"}},
		{"over-3d-limit", wgpu.TextureDesc{Dimension: wgpu.TextureDimension3D, Width: 4, Height: 4, DepthOrArrayLayers: lim.MaxTextureDimension3D + 1, Format: rgba}, wgpu.ErrorTypeLimit, []string{"maxTextureDimension3D"}},
		{"1d-with-height", wgpu.TextureDesc{Dimension: wgpu.TextureDimension1D, Width: 4, Height: 2, Format: rgba}, wgpu.ErrorTypeValidation, []string{"1d", "height"}},
		{"unknown-dimension", wgpu.TextureDesc{Dimension: 9, Width: 4, Format: rgba}, wgpu.ErrorTypeInvalidArgument, []string{"dimension"}},
		{"no-format", wgpu.TextureDesc{Width: 4}, wgpu.ErrorTypeInvalidArgument, []string{"format"}},
		{"unknown-format", wgpu.TextureDesc{Width: 4, Format: 200}, wgpu.ErrorTypeInvalidArgument, []string{"unknown texture format", "200"}},
		{"unknown-usage", wgpu.TextureDesc{Width: 4, Format: rgba, Usage: 0x10}, wgpu.ErrorTypeInvalidArgument, []string{"usage", "0x10"}},
		{"storage-r8unorm", wgpu.TextureDesc{Width: 4, Format: wgpu.FormatR8Unorm, Usage: wgpu.TextureUsageStorageBinding}, wgpu.ErrorTypeValidation, []string{"r8unorm", "StorageBinding"}},
		{"storage-rgba8unorm-srgb", wgpu.TextureDesc{Width: 4, Format: wgpu.FormatRGBA8UnormSrgb, Usage: wgpu.TextureUsageStorageBinding | wgpu.TextureUsageCopyDst}, wgpu.ErrorTypeValidation, []string{"rgba8unorm-srgb", "StorageBinding"}},
		{"storage-depth32float", wgpu.TextureDesc{Width: 4, Format: wgpu.FormatDepth32Float, Usage: wgpu.TextureUsageStorageBinding}, wgpu.ErrorTypeValidation, []string{"depth32float", "StorageBinding"}},
		{"depth-3d", wgpu.TextureDesc{Dimension: wgpu.TextureDimension3D, Width: 4, Height: 4, DepthOrArrayLayers: 2, Format: wgpu.FormatDepth16Unorm}, wgpu.ErrorTypeValidation, []string{"depth16unorm", "2d"}},
		{"depth-1d", wgpu.TextureDesc{Dimension: wgpu.TextureDimension1D, Width: 4, Format: wgpu.FormatDepth32Float}, wgpu.ErrorTypeValidation, []string{"depth32float", "2d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tex, err := d.NewTexture(tc.desc)
			if err == nil {
				tex.Release()
			}
			wantError(t, fmt.Sprintf("NewTexture(%+v)", tc.desc), err, tc.typ, tc.words...)
			if tc.desc.Usage != 0 && d.TextureFormatSupported(tc.desc.Format, tc.desc.Usage) && strings.Contains(tc.name, "storage") {
				t.Errorf("TextureFormatSupported(%v, %v) = true for a refused texture", tc.desc.Format, tc.desc.Usage)
			}
		})
	}
	if d.TextureFormatSupported(wgpu.FormatBGRA8Unorm, wgpu.TextureUsageStorageBinding) {
		t.Log("the device has bgra8unorm-storage")
	} else {
		_, err := d.NewTexture(wgpu.TextureDesc{Width: 4, Format: wgpu.FormatBGRA8Unorm, Usage: wgpu.TextureUsageStorageBinding})
		wantError(t, "NewTexture(bgra8unorm, StorageBinding)", err, wgpu.ErrorTypeUnsupported, "bgra8unorm", "StorageBinding", "bgra8unorm-storage")
	}
	for _, tc := range []struct {
		f    wgpu.TexelFormat
		u    wgpu.TextureUsage
		want bool
	}{
		{wgpu.FormatRGBA8Unorm, wgpu.TextureUsageStorageBinding, true},
		{wgpu.FormatR32Float, wgpu.TextureUsageStorageBinding | wgpu.TextureUsageTextureBinding, true},
		{wgpu.FormatR8Unorm, wgpu.TextureUsageTextureBinding, true},
		{wgpu.FormatR8Unorm, wgpu.TextureUsageStorageBinding, false},
		{wgpu.FormatDepth16Unorm, 0, true},
		{wgpu.FormatDepth16Unorm, wgpu.TextureUsageStorageBinding, false},
		{200, wgpu.TextureUsageTextureBinding, false},
		{wgpu.FormatRGBA8Unorm, 0x20, false},
	} {
		if got := d.TextureFormatSupported(tc.f, tc.u); got != tc.want {
			t.Errorf("TextureFormatSupported(%v, %v) = %v, want %v", tc.f, tc.u, got, tc.want)
		}
	}
}

// TestTextureDefaultUsageIsWhatTheFormatAllows checks usage 0 gives every
// usage the format allows: storage for a storage format, not for another.
func TestTextureDefaultUsageIsWhatTheFormatAllows(t *testing.T) {
	d := openTestDevice(t)
	all := wgpu.TextureUsageTextureBinding | wgpu.TextureUsageCopySrc | wgpu.TextureUsageCopyDst
	for _, tc := range []struct {
		f    wgpu.TexelFormat
		want wgpu.TextureUsage
	}{
		{wgpu.FormatRGBA8Unorm, all | wgpu.TextureUsageStorageBinding},
		{wgpu.FormatR32Uint, all | wgpu.TextureUsageStorageBinding},
		{wgpu.FormatR8Unorm, all},
		{wgpu.FormatDepth32Float, all},
	} {
		tex := mustTexture(t, d, wgpu.TextureDesc{Width: 2, Format: tc.f})
		if got := tex.Usage(); got != tc.want {
			t.Errorf("NewTexture(%v, usage 0).Usage() = %v, want %v", tc.f, got, tc.want)
		}
		if tex.Dimension() != wgpu.TextureDimension2D || tex.Height() != 1 || tex.DepthOrArrayLayers() != 1 || tex.Format() != tc.f || tex.Device() != d {
			t.Errorf("NewTexture(%v): dimension %v, %dx%dx%d, format %v", tc.f, tex.Dimension(), tex.Width(), tex.Height(), tex.DepthOrArrayLayers(), tex.Format())
		}
		tex.Release()
	}
	if s := wgpu.TextureUsageCopySrc | wgpu.TextureUsageStorageBinding | 0x40; s.String() != "CopySrc|StorageBinding|0x40" {
		t.Errorf("TextureUsage.String() = %q", s.String())
	}
}

// TestTextureTransfersRefuseBadInput checks each bad upload or read-back
// returns an error naming the problem.
func TestTextureTransfersRefuseBadInput(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	tex := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 3, Format: wgpu.FormatRGBA8Unorm})
	noDst := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Format: wgpu.FormatRGBA8Unorm, Usage: wgpu.TextureUsageCopySrc | wgpu.TextureUsageTextureBinding})
	noSrc := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Format: wgpu.FormatRGBA8Unorm, Usage: wgpu.TextureUsageCopyDst})
	depth := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatDepth32Float})
	depth16 := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatDepth16Unorm})
	r8 := mustTexture(t, d, wgpu.TextureDesc{Width: 3, Format: wgpu.FormatR8Uint})
	whole := [3]uint32{4, 3, 1}
	read := func(tex *wgpu.Texture, origin, size [3]uint32) error {
		_, err := wgpu.ReadTexture[byte](ctx, tex, origin, size)
		return err
	}
	for _, tc := range []struct {
		name  string
		err   error
		typ   wgpu.ErrorType
		words []string
	}{
		{"short-data", wgpu.WriteTexture(tex, [3]uint32{}, whole, make([]byte, 47)), wgpu.ErrorTypeValidation, []string{"47 bytes", "want 48"}},
		{"long-data", wgpu.WriteTexture(tex, [3]uint32{}, whole, make([]uint32, 13)), wgpu.ErrorTypeValidation, []string{"52 bytes", "want 48"}},
		{"write-outside", wgpu.WriteTexture(tex, [3]uint32{1, 0, 0}, whole, make([]byte, 48)), wgpu.ErrorTypeValidation, []string{"outside", "4x3x1"}},
		{"write-past-layers", wgpu.WriteTexture(tex, [3]uint32{0, 0, 1}, [3]uint32{1, 1, 1}, make([]byte, 4)), wgpu.ErrorTypeValidation, []string{"outside"}},
		{"read-outside", read(tex, [3]uint32{0, 2, 0}, [3]uint32{4, 2, 1}), wgpu.ErrorTypeValidation, []string{"outside"}},
		{"read-overflow", read(tex, [3]uint32{1 << 31, 0, 0}, [3]uint32{1 << 31, 1, 1}), wgpu.ErrorTypeValidation, []string{"outside"}},
		{"write-no-copydst", wgpu.WriteTexture(noDst, [3]uint32{}, [3]uint32{4, 1, 1}, make([]byte, 16)), wgpu.ErrorTypeValidation, []string{"lacks TextureUsageCopyDst"}},
		{"read-no-copysrc", read(noSrc, [3]uint32{}, [3]uint32{4, 1, 1}), wgpu.ErrorTypeValidation, []string{"lacks TextureUsageCopySrc"}},
		{"write-depth32float", wgpu.WriteTexture(depth, [3]uint32{}, [3]uint32{4, 4, 1}, make([]float32, 16)), wgpu.ErrorTypeValidation, []string{"depth32float"}},
		{"read-depth-part", read(depth16, [3]uint32{1, 0, 0}, [3]uint32{2, 4, 1}), wgpu.ErrorTypeValidation, []string{"whole texture"}},
		{"read-odd-elements", func() error { _, err := wgpu.ReadTexture[uint32](ctx, r8, [3]uint32{}, [3]uint32{3, 1, 1}); return err }(), wgpu.ErrorTypeInvalidArgument, []string{"3 bytes", "uint32"}},
		{"nil-write", wgpu.WriteTexture(nil, [3]uint32{}, whole, make([]byte, 48)), wgpu.ErrorTypeInvalidArgument, []string{"nil texture"}},
		{"nil-read", read(nil, [3]uint32{}, whole), wgpu.ErrorTypeInvalidArgument, []string{"nil texture"}},
		{"nil-view", func() error { _, err := (*wgpu.Texture)(nil).View(0); return err }(), wgpu.ErrorTypeInvalidArgument, []string{"nil texture"}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantError(t, tc.name, tc.err, tc.typ, tc.words...) })
	}
	// Nothing refused reached the driver: the device's work is clean.
	if err := d.Sync(ctx, 0); err != nil {
		t.Fatalf("Sync after the refused calls = %v", err)
	}
}

// TestReleasedOrClosedTextureRefusesEveryUse checks a released texture, its
// views and a released sampler refuse every use with an error saying so,
// that Release is idempotent and harmless after Close, and that every call
// after Close returns ErrClosed.
func TestReleasedOrClosedTextureRefusesEveryUse(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	tex := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
	v, err := tex.View(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := wgpu.ViewLive(v); err != nil {
		t.Fatalf("live view: %v", err)
	}
	tex.Release()
	tex.Release()
	wantError(t, "WriteTexture(released)", wgpu.WriteTexture(tex, [3]uint32{}, [3]uint32{1, 1, 1}, []uint32{1}), wgpu.ErrorTypeInvalidArgument, "texture is released")
	_, err = wgpu.ReadTexture[uint32](ctx, tex, [3]uint32{}, [3]uint32{1, 1, 1})
	wantError(t, "ReadTexture(released)", err, wgpu.ErrorTypeInvalidArgument, "texture is released")
	_, err = tex.View(0)
	wantError(t, "View(released)", err, wgpu.ErrorTypeInvalidArgument, "texture is released")
	wantError(t, "view of a released texture", wgpu.ViewLive(v), wgpu.ErrorTypeInvalidArgument, "texture is released")
	wantError(t, "released texture", wgpu.TextureLive(tex), wgpu.ErrorTypeInvalidArgument, "texture is released")

	s, err := d.NewSampler(wgpu.SamplerDesc{})
	if err != nil {
		t.Fatal(err)
	}
	s.Release()
	s.Release()
	wantError(t, "released sampler", wgpu.SamplerLive(s), wgpu.ErrorTypeInvalidArgument, "sampler is released")

	tex2 := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Format: wgpu.FormatR32Uint})
	v2, err := tex2.View(0)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := d.NewSampler(wgpu.SamplerDesc{MagFilter: wgpu.FilterModeLinear})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	tex2.Release() // harmless after Close
	s2.Release()
	if err := wgpu.WriteTexture(tex2, [3]uint32{}, [3]uint32{1, 1, 1}, []uint32{1}); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("WriteTexture after Close = %v, want ErrClosed", err)
	}
	if _, err := wgpu.ReadTexture[uint32](ctx, tex2, [3]uint32{}, [3]uint32{1, 1, 1}); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("ReadTexture after Close = %v, want ErrClosed", err)
	}
	if _, err := tex2.View(0); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("View after Close = %v, want ErrClosed", err)
	}
	if _, err := d.NewTexture(wgpu.TextureDesc{Width: 1, Format: wgpu.FormatR8Unorm}); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("NewTexture after Close = %v, want ErrClosed", err)
	}
	if _, err := d.NewSampler(wgpu.SamplerDesc{}); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("NewSampler after Close = %v, want ErrClosed", err)
	}
	if d.TextureFormatSupported(wgpu.FormatRGBA8Unorm, 0) {
		t.Error("TextureFormatSupported after Close = true")
	}
	if err := wgpu.ViewLive(v2); err == nil {
		t.Error("a view of a closed device's texture is live")
	}
	if err := wgpu.SamplerLive(s2); err == nil {
		t.Error("a closed device's sampler is live")
	}
	if st := d.Stats(); st.TexturesLive != 0 || st.SamplersLive != 0 {
		t.Errorf("Stats after Close: %d textures, %d samplers live, want 0", st.TexturesLive, st.SamplersLive)
	}
}

// TestTextureViewsOfEachDimension makes a view of each dimension and checks
// the dimensions a texture cannot be viewed as are refused.
func TestTextureViewsOfEachDimension(t *testing.T) {
	d := openTestDevice(t)
	r := wgpu.FormatRGBA8Unorm
	tex1 := mustTexture(t, d, wgpu.TextureDesc{Dimension: wgpu.TextureDimension1D, Width: 8, Format: r})
	tex2 := mustTexture(t, d, wgpu.TextureDesc{Width: 8, Height: 4, Format: r})
	arr := mustTexture(t, d, wgpu.TextureDesc{Width: 8, Height: 4, DepthOrArrayLayers: 3, Format: r})
	cube := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 6, Format: r})
	cubes := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 12, Format: r})
	flat6 := mustTexture(t, d, wgpu.TextureDesc{Width: 8, Height: 4, DepthOrArrayLayers: 6, Format: r})
	seven := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 7, Format: r})
	tex3 := mustTexture(t, d, wgpu.TextureDesc{Dimension: wgpu.TextureDimension3D, Width: 4, Height: 4, DepthOrArrayLayers: 4, Format: r})
	depth := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 6, Format: wgpu.FormatDepth32Float})
	for _, tc := range []struct {
		name string
		tex  *wgpu.Texture
		dim  wgpu.ViewDimension
		want wgpu.ViewDimension // 0: refused
		word string
	}{
		{"1d-natural", tex1, 0, wgpu.ViewDimension1D, ""},
		{"2d-natural", tex2, 0, wgpu.ViewDimension2D, ""},
		{"2d-as-array", tex2, wgpu.ViewDimension2DArray, wgpu.ViewDimension2DArray, ""},
		{"array-natural", arr, 0, wgpu.ViewDimension2DArray, ""},
		{"cube", cube, wgpu.ViewDimensionCube, wgpu.ViewDimensionCube, ""},
		{"cube-as-cube-array", cube, wgpu.ViewDimensionCubeArray, wgpu.ViewDimensionCubeArray, ""},
		{"cube-array", cubes, wgpu.ViewDimensionCubeArray, wgpu.ViewDimensionCubeArray, ""},
		{"3d-natural", tex3, 0, wgpu.ViewDimension3D, ""},
		{"depth-cube", depth, wgpu.ViewDimensionCube, wgpu.ViewDimensionCube, ""},
		{"1d-as-2d", tex1, wgpu.ViewDimension2D, 0, "2d texture"},
		{"2d-as-1d", tex2, wgpu.ViewDimension1D, 0, "1d texture"},
		{"2d-as-3d", tex2, wgpu.ViewDimension3D, 0, "3d texture"},
		{"array-as-2d", arr, wgpu.ViewDimension2D, 0, "2d-array"},
		{"cube-of-3-layers", arr, wgpu.ViewDimensionCube, 0, "square"},
		{"cube-not-square", flat6, wgpu.ViewDimensionCube, 0, "square"},
		{"cube-of-12", cubes, wgpu.ViewDimensionCube, 0, "6 layers"},
		{"cube-array-of-7", seven, wgpu.ViewDimensionCubeArray, 0, "multiple of 6"},
		{"3d-as-2d", tex3, wgpu.ViewDimension2D, 0, "2d texture"},
		{"3d-as-2d-array", tex3, wgpu.ViewDimension2DArray, 0, "2d texture"},
		{"unknown", tex2, 9, 0, "unknown view dimension"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.tex.View(tc.dim)
			if tc.want == 0 {
				typ := wgpu.ErrorTypeValidation
				if tc.dim == 9 {
					typ = wgpu.ErrorTypeInvalidArgument
				}
				wantError(t, fmt.Sprintf("View(%v)", tc.dim), err, typ, tc.word)
				return
			}
			if err != nil {
				t.Fatalf("View(%v) = %v", tc.dim, err)
			}
			if v.Dimension() != tc.want || v.Texture() != tc.tex || v.Size() != 0 {
				t.Errorf("View(%v): dimension %v, texture %p, size %d; want %v, %p, 0", tc.dim, v.Dimension(), v.Texture(), v.Size(), tc.want, tc.tex)
			}
			again, err := tc.tex.View(tc.want)
			if err != nil || again != v {
				t.Errorf("View(%v) again = %p, %v; want the same view %p", tc.want, again, err, v)
			}
		})
	}
	if err := d.Sync(testCtx(t), 0); err != nil {
		t.Fatalf("Sync after making the views = %v", err)
	}
}

// TestSamplerKindFollowsDesc makes a sampler of each kind and checks the
// refused descriptions.
func TestSamplerKindFollowsDesc(t *testing.T) {
	d := openTestDevice(t)
	for _, tc := range []struct {
		name string
		desc wgpu.SamplerDesc
		want wgpu.SamplerKind
	}{
		{"zero", wgpu.SamplerDesc{}, wgpu.SamplerNonFiltering},
		{"nearest-repeat", wgpu.SamplerDesc{AddressModeU: wgpu.AddressModeRepeat, AddressModeV: wgpu.AddressModeMirrorRepeat}, wgpu.SamplerNonFiltering},
		{"linear-min", wgpu.SamplerDesc{MinFilter: wgpu.FilterModeLinear}, wgpu.SamplerFiltering},
		{"linear-both", wgpu.SamplerDesc{MinFilter: wgpu.FilterModeLinear, MagFilter: wgpu.FilterModeLinear, AddressModeW: wgpu.AddressModeRepeat}, wgpu.SamplerFiltering},
		{"compare-less", wgpu.SamplerDesc{Compare: wgpu.CompareFunctionLess}, wgpu.SamplerComparison},
		{"compare-linear", wgpu.SamplerDesc{Compare: wgpu.CompareFunctionGreaterEqual, MinFilter: wgpu.FilterModeLinear, MagFilter: wgpu.FilterModeLinear}, wgpu.SamplerComparison},
		{"compare-always", wgpu.SamplerDesc{Compare: wgpu.CompareFunctionAlways}, wgpu.SamplerComparison},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := d.NewSampler(tc.desc)
			if err != nil {
				t.Fatalf("NewSampler(%+v) = %v", tc.desc, err)
			}
			defer s.Release()
			if s.Kind() != tc.want || s.Size() != 0 || s.Device() != d {
				t.Errorf("NewSampler(%+v): kind %v, size %d; want %v, 0", tc.desc, s.Kind(), s.Size(), tc.want)
			}
			if err := wgpu.SamplerLive(s); err != nil {
				t.Errorf("live sampler: %v", err)
			}
		})
	}
	for _, tc := range []struct {
		desc wgpu.SamplerDesc
		word string
	}{
		{wgpu.SamplerDesc{MinFilter: 2}, "MinFilter"},
		{wgpu.SamplerDesc{MagFilter: 7}, "MagFilter"},
		{wgpu.SamplerDesc{AddressModeV: 3}, "AddressModeV"},
		{wgpu.SamplerDesc{Compare: 9}, "Compare"},
	} {
		_, err := d.NewSampler(tc.desc)
		wantError(t, fmt.Sprintf("NewSampler(%+v)", tc.desc), err, wgpu.ErrorTypeInvalidArgument, tc.word)
	}
	if err := d.Sync(testCtx(t), 0); err != nil {
		t.Fatalf("Sync after making the samplers = %v", err)
	}
}

// TestStatsCountTexturesAndSamplers checks Stats counts textures created
// and live and samplers live, and that Close leaves none.
func TestStatsCountTexturesAndSamplers(t *testing.T) {
	d := openTestDevice(t)
	base := d.Stats()
	var texs []*wgpu.Texture
	for i := range 3 {
		texs = append(texs, mustTexture(t, d, wgpu.TextureDesc{Width: uint32(i + 1), Format: wgpu.FormatR32Float}))
	}
	if _, err := texs[0].View(0); err != nil {
		t.Fatal(err)
	}
	s, err := d.NewSampler(wgpu.SamplerDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.NewSampler(wgpu.SamplerDesc{Compare: wgpu.CompareFunctionLess}); err != nil {
		t.Fatal(err)
	}
	st := d.Stats()
	if st.TexturesCreated-base.TexturesCreated != 3 || st.TexturesLive-base.TexturesLive != 3 || st.SamplersLive-base.SamplersLive != 2 {
		t.Fatalf("Stats = created %d, live %d, samplers %d; want 3, 3, 2 more than %d, %d, %d",
			st.TexturesCreated, st.TexturesLive, st.SamplersLive, base.TexturesCreated, base.TexturesLive, base.SamplersLive)
	}
	texs[1].Release()
	s.Release()
	if st := d.Stats(); st.TexturesLive-base.TexturesLive != 2 || st.SamplersLive-base.SamplersLive != 1 || st.TexturesCreated-base.TexturesCreated != 3 {
		t.Fatalf("Stats after releases = created %d, live %d, samplers %d", st.TexturesCreated, st.TexturesLive, st.SamplersLive)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if st := d.Stats(); st.TexturesLive != 0 || st.SamplersLive != 0 {
		t.Fatalf("Stats after Close = %d textures, %d samplers live", st.TexturesLive, st.SamplersLive)
	}
}

// TestTextureSoakHoldsSteady creates and releases textures, and writes and
// reads one, many times: the live counts return to where they were and the
// Go heap does not grow with the iterations.
func TestTextureSoakHoldsSteady(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	creates, transfers := 3000, 300
	if testing.Short() {
		creates, transfers = 1000, 100
	}
	base := d.Stats()
	round := func() {
		for i := range creates / 2 {
			tex := mustTexture(t, d, wgpu.TextureDesc{Width: 16 + uint32(i%5), Height: 8, Format: wgpu.FormatRGBA8Unorm})
			if i%10 == 0 {
				if _, err := tex.View(0); err != nil {
					t.Fatal(err)
				}
			}
			tex.Release()
		}
		tex := mustTexture(t, d, wgpu.TextureDesc{Width: 13, Height: 7, Format: wgpu.FormatRG32Float})
		defer tex.Release()
		v := make([]float32, 13*7*2)
		for i := range transfers / 2 {
			v[i%len(v)] = float32(i)
			if err := wgpu.WriteTexture(tex, [3]uint32{}, [3]uint32{13, 7, 1}, v); err != nil {
				t.Fatal(err)
			}
			got, err := wgpu.ReadTexture[float32](ctx, tex, [3]uint32{}, [3]uint32{13, 7, 1})
			if err != nil || !reflect.DeepEqual(got, v) {
				t.Fatalf("round %d: ReadTexture = %v, %v", i, got, err)
			}
		}
	}
	round() // warms the staging pool
	h0 := heapInUse()
	round()
	h1 := heapInUse()
	if grow := h1 - h0; grow > 4<<20 {
		t.Errorf("the Go heap grew by %d bytes over %d creates and %d transfers", grow, creates/2, transfers/2)
	}
	if st := d.Stats(); st.TexturesLive != base.TexturesLive || st.TexturesCreated-base.TexturesCreated != int64(creates+2) {
		t.Errorf("Stats = %d live, %d created; want %d live, %d created", st.TexturesLive, st.TexturesCreated-base.TexturesCreated, base.TexturesLive, creates+2)
	}
	soakNative(t, d, creates)
	if err := d.Sync(ctx, 0); err != nil {
		t.Fatalf("Sync after the soak = %v", err)
	}
}

// TestTexturesSurviveConcurrentUseAndClose runs goroutines that each
// create a texture, view, write, read and release it, and a sampler,
// over and over, while Close comes in the middle: every call succeeds
// with the right data or fails with ErrClosed, and nothing is left live.
func TestTexturesSurviveConcurrentUseAndClose(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	const workers = 4
	iters := 40
	if testing.Short() {
		iters = 15
	}
	errs := make(chan error, workers)
	started := make(chan struct{}, workers)
	for w := range workers {
		go func() {
			errs <- func() error {
				sent := false
				defer func() {
					if !sent { // failed early: Close need not wait for it
						started <- struct{}{}
					}
				}()
				for i := range iters {
					if i == 2 {
						started <- struct{}{}
						sent = true
					}
					tex, err := d.NewTexture(wgpu.TextureDesc{Width: 5, Height: 3, Format: wgpu.FormatR32Uint})
					if err != nil {
						return err
					}
					v := make([]uint32, 15)
					for j := range v {
						v[j] = uint32(w<<16 | i<<8 | j)
					}
					if _, err := tex.View(0); err != nil {
						return err
					}
					if err := wgpu.WriteTexture(tex, [3]uint32{}, [3]uint32{5, 3, 1}, v); err != nil {
						return err
					}
					got, err := wgpu.ReadTexture[uint32](ctx, tex, [3]uint32{}, [3]uint32{5, 3, 1})
					if err != nil {
						return err
					}
					if !reflect.DeepEqual(got, v) {
						return fmt.Errorf("worker %d round %d: ReadTexture = %v, want %v", w, i, got, v)
					}
					s, err := d.NewSampler(wgpu.SamplerDesc{MinFilter: wgpu.FilterMode(i % 2)})
					if err != nil {
						return err
					}
					s.Release()
					tex.Release()
				}
				return nil
			}()
		}()
	}
	for range workers {
		<-started
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for range workers {
		if err := <-errs; err != nil && !errors.Is(err, wgpu.ErrClosed) {
			t.Errorf("a worker failed with %v, want nil or ErrClosed", err)
		}
	}
	if st := d.Stats(); st.TexturesLive != 0 || st.SamplersLive != 0 {
		t.Errorf("Stats after Close = %d textures, %d samplers live", st.TexturesLive, st.SamplersLive)
	}
}
