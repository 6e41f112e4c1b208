//go:build cgo

package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// textureKernels are compute shaders as users write them today, binding
// textures and samplers and calling the texture built-ins a compute stage
// may call, with the kind and type each binding is reported as.
var textureKernels = []struct {
	name     string
	src      string
	bindings []string // "name kind type" in (group, binding) order
}{
	{
		name: "blur",
		src: `
@group(0) @binding(0) var img: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var out: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let size = textureDimensions(img);
	if (any(id.xy >= size)) { return; }
	let texel = 1.0 / vec2<f32>(size);
	let uv = (vec2<f32>(id.xy) + 0.5) * texel;
	var sum = vec4<f32>(0);
	for (var i = -2; i <= 2; i++) {
		sum += textureSampleLevel(img, smp, uv + vec2<f32>(f32(i), 0) * texel, 0);
	}
	textureStore(out, id.xy, (sum / 5 + textureLoad(img, id.xy, 0)) * 0.5);
}`,
		bindings: []string{"img texture texture_2d<f32>", "smp sampler sampler", "out storage-texture texture_storage_2d<rgba8unorm, write>"},
	},
	{
		name: "integer-load-and-buffer",
		src: `
alias Labels = texture_2d<u32>;
@group(0) @binding(0) var labels: Labels;
@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>>;
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let dims = textureDimensions(labels, 0);
	if (id.x < dims.x && id.y < dims.y) {
		atomicAdd(&counts[textureLoad(labels, vec2<i32>(id.xy), 0).r], 1u);
	}
	_ = textureNumLevels(labels);
}`,
		bindings: []string{"labels texture texture_2d<u32>", "counts storage-read-write array<atomic<u32>>"},
	},
	{
		name: "arrays-cubes-3d",
		src: `
@group(0) @binding(0) var layers: texture_2d_array<f32>;
@group(0) @binding(1) var env: texture_cube<f32>;
@group(0) @binding(2) var vol: texture_3d<i32>;
@group(0) @binding(3) var lin: sampler;
@group(1) @binding(0) var line: texture_storage_1d<r32float, write>;
@group(1) @binding(1) var slab: texture_storage_3d<rgba16float, write>;
@group(1) @binding(2) var sheets: texture_storage_2d_array<rgba32uint, write>;
@compute @workgroup_size(4, 4, 4)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let a = textureSampleLevel(layers, lin, vec2<f32>(0.5), i32(id.z), 0.0);
	let e = textureSampleLevel(env, lin, normalize(vec3<f32>(id) + 1.0), 0.0);
	let v = textureLoad(vol, vec3<i32>(id), 0);
	textureStore(line, id.x, vec4<f32>(a.x + e.y + f32(v.z)));
	textureStore(slab, id, a + e);
	textureStore(sheets, id.xy, id.z, vec4<u32>(u32(textureNumLayers(layers))));
	_ = textureDimensions(slab);
}`,
		bindings: []string{"layers texture texture_2d_array<f32>", "env texture texture_cube<f32>", "vol texture texture_3d<i32>", "lin sampler sampler",
			"line storage-texture texture_storage_1d<r32float, write>", "slab storage-texture texture_storage_3d<rgba16float, write>", "sheets storage-texture texture_storage_2d_array<rgba32uint, write>"},
	},
	{
		name: "depth-compare-multisampled",
		src: `
@group(0) @binding(0) var shadow: texture_depth_2d;
@group(0) @binding(1) var cmp: sampler_comparison;
@group(0) @binding(2) var msaa: texture_multisampled_2d<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let lit = textureSampleCompareLevel(shadow, cmp, vec2<f32>(0.25, 0.75), 0.5);
	let d = textureLoad(shadow, vec2<u32>(id.x, 0u), 0);
	let m = textureLoad(msaa, vec2<u32>(id.x, 0u), 0);
	out[id.x] = lit + d + f32(m.x) + f32(textureNumSamples(msaa));
}`,
		bindings: []string{"shadow texture texture_depth_2d", "cmp sampler sampler_comparison", "msaa texture texture_multisampled_2d<i32>", "out storage-read-write array<f32>"},
	},
}

// TestTextureKernelsLowerAndCompile: each texture kernel checks with its
// texture and sampler bindings reported, and its lowered source compiles
// with the driver's shader compiler (naga 0.13 inside wgpu-native 0.17): a
// shader module and a compute pipeline with the layout the driver derives.
// (That layout makes every float texture filterable, which WebGPU forbids
// for a multisampled one: the multisampled texture here is an i32 one.)
func TestTextureKernelsLowerAndCompile(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	for _, tc := range textureKernels {
		t.Run(tc.name, func(t *testing.T) {
			ki, err := wgpu.CheckKernel(ctx, gpu.NewKernel(tc.name, tc.src, "main"), d.Limits())
			if err != nil {
				t.Fatalf("CheckKernel = %v", err)
			}
			var got []string
			for _, b := range ki.Bindings {
				got = append(got, b.Name+" "+b.Type.String()+" "+b.WGSL)
			}
			if strings.Join(got, "; ") != strings.Join(tc.bindings, "; ") {
				t.Errorf("CheckKernel bindings = %q, want %q", got, tc.bindings)
			}
			if err := wgpu.DriverCompileForTest(d, ki.Lowered, ki.LoweredName); err != nil {
				t.Fatalf("the driver refuses the lowered source: %v\nLowered:\n%s", err, ki.Lowered)
			}
		})
	}
}

// TestReadableStorageTexturesUnsupportedOnDesktop: a storage texture read
// (read or read_write) is refused by CheckKernel as Unsupported, naming
// it, because the driver refuses it: its own compiler takes the source,
// but the pipeline fails for want of a native feature the device does not
// request. When a driver upgrade makes the second half pass, the refusal
// is to be lifted.
func TestReadableStorageTexturesUnsupportedOnDesktop(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	for _, access := range []string{"read", "read_write"} {
		t.Run(access, func(t *testing.T) {
			// Written in the driver's dialect, so that it needs no lowering.
			src := fmt.Sprintf(`@group(0) @binding(0) var t: texture_storage_2d<r32float, %s>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1, 1, 1)
fn main() {
    out[0] = textureLoad(t, vec2<i32>(0i, 0i)).x;
}
`, access)
			_, err := wgpu.CheckKernel(ctx, gpu.NewKernel(access, src, "main"), d.Limits())
			var we *wgpu.Error
			if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeUnsupported || !strings.Contains(err.Error(), access+" storage textures") || !strings.Contains(err.Error(), "wgsl:1:27") {
				t.Errorf("CheckKernel = %v, want an Unsupported error at wgsl:1:27 naming %s storage textures", err, access)
			}
			err = wgpu.DriverCompileForTest(d, src, "main")
			if err == nil || !strings.Contains(err.Error(), "StorageTextureAccess") {
				t.Errorf("the driver's compile = %v, want its refusal (no matching StorageTextureAccess)", err)
			}
		})
	}
}
