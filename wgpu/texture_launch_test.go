//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// The kernels of the texture launch tests.
var (
	// copyTexKernel copies a u32 texture's texels into a buffer.
	copyTexKernel = gpu.NewKernel("copytex", `
@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let size = textureDimensions(src);
	if (id.x >= size.x || id.y >= size.y) { return; }
	out[id.y * size.x + id.x] = textureLoad(src, vec2<i32>(id.xy), 0).r + 1u;
}`, "main")
	// storeKernel writes each texel's x+y into an r32float storage texture.
	storeKernel = gpu.NewKernel("store", `
@group(0) @binding(0) var dst: texture_storage_2d<r32float, write>;
@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let size = textureDimensions(dst);
	if (id.x >= size.x || id.y >= size.y) { return; }
	textureStore(dst, vec2<i32>(id.xy), vec4<f32>(f32(id.x + id.y), 0.0, 0.0, 1.0));
}`, "main")
	// pairKernel reads one texture and writes another.
	pairKernel = gpu.NewKernel("pair", `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32float, write>;
@compute @workgroup_size(1)
fn main() { textureStore(dst, vec2<i32>(0), textureLoad(src, vec2<i32>(0), 0)); }`, "main")
	// sampleKernel samples a texture with a filtering sampler.
	sampleKernel = gpu.NewKernel("sample", `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
fn main() { out[0] = textureSampleLevel(src, smp, vec2<f32>(0.5, 0.5), 0.0).r; }`, "main")
	// compareKernel samples a depth texture with a comparison sampler.
	compareKernel = gpu.NewKernel("compare", `
@group(0) @binding(0) var src: texture_depth_2d;
@group(0) @binding(1) var smp: sampler_comparison;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
fn main() { out[0] = textureSampleCompareLevel(src, smp, vec2<f32>(0.5, 0.5), 0.5); }`, "main")
)

func mustView(t testing.TB, tex *wgpu.Texture, dim wgpu.ViewDimension) *wgpu.TextureView {
	t.Helper()
	v, err := tex.View(dim)
	if err != nil {
		t.Fatalf("View(%v) = %v", dim, err)
	}
	return v
}

func mustSampler(t testing.TB, d *wgpu.Device, desc wgpu.SamplerDesc) *wgpu.Sampler {
	t.Helper()
	s, err := d.NewSampler(desc)
	if err != nil {
		t.Fatalf("NewSampler(%+v) = %v", desc, err)
	}
	return s
}

// TestTextureLaunchRuns: a launch binding a texture view and a buffer
// reads the texture's data; one binding a storage texture writes it; one
// sampling with a filtering sampler, and one comparing depth with a
// comparison sampler, read what they sample.
func TestTextureLaunchRuns(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	const w, h = 5, 3
	src := mustTexture(t, d, wgpu.TextureDesc{Width: w, Height: h, Format: wgpu.FormatR32Uint})
	data := make([]uint32, w*h)
	for i := range data {
		data[i] = uint32(10 * i)
	}
	if err := wgpu.WriteTexture(src, [3]uint32{}, [3]uint32{w, h, 1}, data); err != nil {
		t.Fatal(err)
	}
	out := mustBuffer(t, d, 4*w*h)
	if err := d.Launch(1, copyTexKernel, [3]uint32{2, 1, 1}, mustView(t, src, wgpu.ViewDimension2D), out); err != nil {
		t.Fatal(err)
	}
	got, err := wgpu.Read[uint32](ctx, out, 0, w*h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != data[i]+1 {
			t.Fatalf("texel %d read as %d, want %d", i, got[i], data[i]+1)
		}
	}

	dst := mustTexture(t, d, wgpu.TextureDesc{Width: w, Height: h, Format: wgpu.FormatR32Float})
	if err := d.Launch(1, storeKernel, [3]uint32{2, 1, 1}, mustView(t, dst, wgpu.ViewDimension2D)); err != nil {
		t.Fatal(err)
	}
	stored, err := wgpu.ReadTexture[float32](ctx, dst, [3]uint32{}, [3]uint32{w, h, 1})
	if err != nil {
		t.Fatal(err)
	}
	for y := range h {
		for x := range w {
			if v := stored[y*w+x]; v != float32(x+y) {
				t.Fatalf("stored texel (%d,%d) = %v, want %d", x, y, v, x+y)
			}
		}
	}

	img := mustTexture(t, d, wgpu.TextureDesc{Width: 2, Height: 2, Format: wgpu.FormatRGBA8Unorm})
	if err := wgpu.WriteTexture(img, [3]uint32{}, [3]uint32{2, 2, 1}, []uint8{0, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255}); err != nil {
		t.Fatal(err)
	}
	f := mustBuffer(t, d, 4)
	linear := mustSampler(t, d, wgpu.SamplerDesc{MinFilter: wgpu.FilterModeLinear, MagFilter: wgpu.FilterModeLinear})
	if err := d.Launch(1, sampleKernel, [3]uint32{1, 1, 1}, mustView(t, img, wgpu.ViewDimension2D), linear, f); err != nil {
		t.Fatal(err)
	}
	v, err := wgpu.Read[float32](ctx, f, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v[0] < 0.70 || v[0] > 0.80 { // the four texels' mean, 0.75, filtered
		t.Errorf("linear sample at the centre = %v, want about 0.75", v[0])
	}

	depth := mustTexture(t, d, wgpu.TextureDesc{Width: 1, Height: 1, Format: wgpu.FormatDepth16Unorm,
		Usage: wgpu.TextureUsageTextureBinding | wgpu.TextureUsageCopyDst})
	if err := wgpu.WriteTexture(depth, [3]uint32{}, [3]uint32{1, 1, 1}, []uint16{65535}); err != nil {
		t.Fatal(err)
	}
	cmp := mustSampler(t, d, wgpu.SamplerDesc{Compare: wgpu.CompareFunctionLess})
	if err := d.Launch(1, compareKernel, [3]uint32{1, 1, 1}, mustView(t, depth, wgpu.ViewDimension2D), cmp, f); err != nil {
		t.Fatal(err)
	}
	if v, err = wgpu.Read[float32](ctx, f, 0, 1); err != nil {
		t.Fatal(err)
	}
	if v[0] != 1 { // 0.5 < 1.0: the comparison passes
		t.Errorf("depth comparison 0.5 < 1.0 = %v, want 1", v[0])
	}
}

// TestTextureLaunchChecks: each binding that does not fit what the kernel
// declares is refused by Launch with an error naming the binding and what
// does not fit, records nothing, and leaves the launches around it whole.
func TestTextureLaunchChecks(t *testing.T) {
	d := openTestDevice(t)
	other := openTestDevice(t)
	ctx := context.Background()
	u32 := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
	f32 := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Float})
	rgba := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatRGBA8Unorm})
	layers := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 2, Format: wgpu.FormatR32Uint})
	noBind := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint, Usage: wgpu.TextureUsageCopyDst})
	noStore := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Float,
		Usage: wgpu.TextureUsageTextureBinding | wgpu.TextureUsageCopyDst})
	depth := mustTexture(t, d, wgpu.TextureDesc{Width: 1, Height: 1, Format: wgpu.FormatDepth32Float, Usage: wgpu.TextureUsageTextureBinding})
	released := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
	releasedView := mustView(t, released, wgpu.ViewDimension2D)
	released.Release()
	foreign := mustTexture(t, other, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
	out := mustBuffer(t, d, 64)
	f := mustBuffer(t, d, 4)
	linear := mustSampler(t, d, wgpu.SamplerDesc{MinFilter: wgpu.FilterModeLinear})
	cmp := mustSampler(t, d, wgpu.SamplerDesc{Compare: wgpu.CompareFunctionLess})
	gone := mustSampler(t, d, wgpu.SamplerDesc{})
	gone.Release()

	u32v, f32v, rgbav := mustView(t, u32, wgpu.ViewDimension2D), mustView(t, f32, wgpu.ViewDimension2D), mustView(t, rgba, wgpu.ViewDimension2D)
	cases := []struct {
		name string
		k    *gpu.Kernel
		bind []gpu.Binding
		want string
	}{
		{"view-dimension", copyTexKernel, []gpu.Binding{mustView(t, layers, wgpu.ViewDimension2DArray), out}, "a 2d view, but the view bound is 2d-array"},
		{"sample-type", copyTexKernel, []gpu.Binding{f32v, out}, "read as uint, but the texture bound is r32float, read as unfilterable-float"},
		{"unfilterable-with-filtering-sampler", sampleKernel, []gpu.Binding{f32v, linear, f}, "read as float, but the texture bound is r32float, read as unfilterable-float"},
		{"storage-format", storeKernel, []gpu.Binding{rgbav}, "texture_storage_2d<r32float, write>, but the texture bound is rgba8unorm"},
		{"no-texture-binding-usage", copyTexKernel, []gpu.Binding{mustView(t, noBind, wgpu.ViewDimension2D), out}, "lacks TextureUsageTextureBinding"},
		{"no-storage-usage", storeKernel, []gpu.Binding{mustView(t, noStore, wgpu.ViewDimension2D)}, "lacks TextureUsageStorageBinding"},
		{"comparison-sampler-for-sampler", sampleKernel, []gpu.Binding{rgbav, cmp, f}, "the sampler bound is a comparison sampler"},
		{"sampler-for-comparison", compareKernel, []gpu.Binding{mustView(t, depth, wgpu.ViewDimension2D), linear, f}, "is sampler_comparison, but the sampler bound is a filtering sampler"},
		{"buffer-for-texture", copyTexKernel, []gpu.Binding{out, out}, "which binds a texture view, not a buffer"},
		{"view-for-buffer", copyTexKernel, []gpu.Binding{u32v, u32v}, "which binds a buffer, not a texture view"},
		{"sampler-for-texture", sampleKernel, []gpu.Binding{linear, linear, f}, "which binds a texture view, not a sampler"},
		{"nil-view", copyTexKernel, []gpu.Binding{(*wgpu.TextureView)(nil), out}, "is not a *wgpu.TextureView"},
		{"nil-sampler", sampleKernel, []gpu.Binding{rgbav, (*wgpu.Sampler)(nil), f}, "is not a *wgpu.Sampler"},
		{"released-texture", copyTexKernel, []gpu.Binding{releasedView, out}, "texture is released"},
		{"released-sampler", sampleKernel, []gpu.Binding{rgbav, gone, f}, "sampler is released"},
		{"other-device", copyTexKernel, []gpu.Binding{mustView(t, foreign, wgpu.ViewDimension2D), out}, "texture view belongs to another device"},
		{"sampled-and-storage", pairKernel, []gpu.Binding{f32v, f32v}, "bind one texture, and one binds it as a storage texture"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := wgpu.Pending(d, 7)
			err := d.Launch(7, tc.k, [3]uint32{1, 1, 1}, tc.bind...)
			var e *wgpu.Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Launch = %v, want an *wgpu.Error saying %q", err, tc.want)
			}
			if after := wgpu.Pending(d, 7); after != before {
				t.Errorf("a refused launch left %d launches pending, want %d", after, before)
			}
			// The launch after it runs.
			if err := d.Launch(7, incKernel, [3]uint32{1, 1, 1}, out); err != nil {
				t.Fatal(err)
			}
		})
	}
	got, err := wgpu.Read[uint32](ctx, out, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != uint32(len(cases)) {
		t.Errorf("the good launches between the refused ones ran %d times, want %d", got[0], len(cases))
	}
}

// TestTextureReplay: a captured step that binds a texture view and a
// buffer replays with the texture's current data, allocates nothing per
// replay, and is refused once the texture is released.
func TestTextureReplay(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	src := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
	out := mustBuffer(t, d, 64)
	view := mustView(t, src, wgpu.ViewDimension2D)
	g := capture(t, d, 1, func(r *wgpu.GraphRecorder) error {
		return r.Launch(copyTexKernel, [3]uint32{1, 1, 1}, view, out)
	})
	for round := range 3 {
		data := make([]uint32, 16)
		for i := range data {
			data[i] = uint32(100*round + i)
		}
		if err := wgpu.WriteTexture(src, [3]uint32{}, [3]uint32{4, 4, 1}, data); err != nil {
			t.Fatal(err)
		}
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
		got, err := wgpu.Read[uint32](ctx, out, 0, 16)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != data[i]+1 {
				t.Fatalf("round %d: texel %d replayed as %d, want %d", round, i, got[i], data[i]+1)
			}
		}
	}
	if n := testing.AllocsPerRun(200, func() {
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("a replay binding a texture allocates %v times, want 0", n)
	}
	if err := d.Sync(ctx, 1); err != nil {
		t.Fatal(err)
	}
	src.Release()
	if err := g.Replay(); err == nil || !strings.Contains(err.Error(), "texture is released") {
		t.Errorf("Replay after the texture's Release = %v, want an error saying the texture is released", err)
	}
}
