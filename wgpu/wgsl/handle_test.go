package wgsl_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestHandleBindings: each texture, storage texture and sampler type a
// compute entry point may bind is reported with its kind, its canonical
// type and what it declares, aliases resolved.
func TestHandleBindings(t *testing.T) {
	type tb = wgsl.TextureBinding
	tests := []struct {
		decl    string // the type, declared as var h: <decl>
		prelude string // declarations before it
		kind    wgsl.BindingKind
		typ     string
		tex     tb
		sampler wgsl.SamplerKind
	}{
		{decl: "texture_1d<f32>", kind: wgsl.Texture, typ: "texture_1d<f32>", tex: tb{View: wgsl.View1D, Sample: wgsl.SampleFloat}},
		{decl: "texture_2d<f32>", kind: wgsl.Texture, typ: "texture_2d<f32>", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleFloat}},
		{decl: "texture_2d<i32>", kind: wgsl.Texture, typ: "texture_2d<i32>", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleSint}},
		{decl: "texture_2d<u32>", kind: wgsl.Texture, typ: "texture_2d<u32>", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleUint}},
		{decl: "texture_2d_array<f32>", kind: wgsl.Texture, typ: "texture_2d_array<f32>", tex: tb{View: wgsl.View2DArray, Sample: wgsl.SampleFloat}},
		{decl: "texture_cube<f32>", kind: wgsl.Texture, typ: "texture_cube<f32>", tex: tb{View: wgsl.ViewCube, Sample: wgsl.SampleFloat}},
		{decl: "texture_cube_array<u32>", kind: wgsl.Texture, typ: "texture_cube_array<u32>", tex: tb{View: wgsl.ViewCubeArray, Sample: wgsl.SampleUint}},
		{decl: "texture_3d<i32>", kind: wgsl.Texture, typ: "texture_3d<i32>", tex: tb{View: wgsl.View3D, Sample: wgsl.SampleSint}},
		{decl: "texture_multisampled_2d<f32>", kind: wgsl.Texture, typ: "texture_multisampled_2d<f32>", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleUnfilterableFloat, Multisampled: true}},
		{decl: "texture_multisampled_2d<i32>", kind: wgsl.Texture, typ: "texture_multisampled_2d<i32>", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleSint, Multisampled: true}},
		{decl: "texture_depth_2d", kind: wgsl.Texture, typ: "texture_depth_2d", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleDepth}},
		{decl: "texture_depth_2d_array", kind: wgsl.Texture, typ: "texture_depth_2d_array", tex: tb{View: wgsl.View2DArray, Sample: wgsl.SampleDepth}},
		{decl: "texture_depth_cube", kind: wgsl.Texture, typ: "texture_depth_cube", tex: tb{View: wgsl.ViewCube, Sample: wgsl.SampleDepth}},
		{decl: "texture_depth_cube_array", kind: wgsl.Texture, typ: "texture_depth_cube_array", tex: tb{View: wgsl.ViewCubeArray, Sample: wgsl.SampleDepth}},
		{decl: "texture_depth_multisampled_2d", kind: wgsl.Texture, typ: "texture_depth_multisampled_2d", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleDepth, Multisampled: true}},
		{decl: "texture_storage_1d<r32float, write>", kind: wgsl.StorageTexture, typ: "texture_storage_1d<r32float, write>", tex: tb{View: wgsl.View1D, Format: wgsl.R32Float, Access: wgsl.AccessWrite}},
		{decl: "texture_storage_2d<rgba8unorm, write>", kind: wgsl.StorageTexture, typ: "texture_storage_2d<rgba8unorm, write>", tex: tb{View: wgsl.View2D, Format: wgsl.RGBA8Unorm, Access: wgsl.AccessWrite}},
		{decl: "texture_storage_2d<r32uint, read>", kind: wgsl.StorageTexture, typ: "texture_storage_2d<r32uint, read>", tex: tb{View: wgsl.View2D, Format: wgsl.R32Uint, Access: wgsl.AccessRead}},
		{decl: "texture_storage_2d<r32sint, read_write>", kind: wgsl.StorageTexture, typ: "texture_storage_2d<r32sint, read_write>", tex: tb{View: wgsl.View2D, Format: wgsl.R32Sint, Access: wgsl.AccessReadWrite}},
		{decl: "texture_storage_2d_array<rgba16float, write>", kind: wgsl.StorageTexture, typ: "texture_storage_2d_array<rgba16float, write>", tex: tb{View: wgsl.View2DArray, Format: wgsl.RGBA16Float, Access: wgsl.AccessWrite}},
		{decl: "texture_storage_3d<bgra8unorm, write>", kind: wgsl.StorageTexture, typ: "texture_storage_3d<bgra8unorm, write>", tex: tb{View: wgsl.View3D, Format: wgsl.BGRA8Unorm, Access: wgsl.AccessWrite}},
		{decl: "texture_storage_2d<rgba32float, write,>", kind: wgsl.StorageTexture, typ: "texture_storage_2d<rgba32float, write>", tex: tb{View: wgsl.View2D, Format: wgsl.RGBA32Float, Access: wgsl.AccessWrite}},
		{decl: "sampler", kind: wgsl.Sampler, typ: "sampler", sampler: wgsl.SamplerFiltering},
		{decl: "sampler_comparison", kind: wgsl.Sampler, typ: "sampler_comparison", sampler: wgsl.SamplerComparison},
		{decl: "Tex", prelude: "alias F = f32; alias T2 = texture_2d<F>; alias Tex = T2;", kind: wgsl.Texture, typ: "texture_2d<f32>", tex: tb{View: wgsl.View2D, Sample: wgsl.SampleFloat}},
		{decl: "Out", prelude: "alias Out = texture_storage_2d<rgba8uint, write>;", kind: wgsl.StorageTexture, typ: "texture_storage_2d<rgba8uint, write>", tex: tb{View: wgsl.View2D, Format: wgsl.RGBA8Uint, Access: wgsl.AccessWrite}},
		{decl: "S", prelude: "alias S = sampler_comparison;", kind: wgsl.Sampler, typ: "sampler_comparison", sampler: wgsl.SamplerComparison},
	}
	for _, tc := range tests {
		t.Run(tc.decl, func(t *testing.T) {
			src := tc.prelude + "\n@group(1) @binding(3) var h: " + tc.decl + ";\n@compute @workgroup_size(1) fn main() { _ = &x; let d = h; }\n" +
				"@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n"
			m, err := wgsl.Parse(src, wgsl.Limits{})
			if err != nil {
				t.Fatalf("Parse(%q) = %v", src, err)
			}
			want := wgsl.Binding{Group: 1, Index: 3, Name: "h", Kind: tc.kind, Type: tc.typ, Texture: tc.tex, Sampler: tc.sampler}
			if len(m.Bindings) != 2 || m.Bindings[1] != want {
				t.Fatalf("Bindings = %+v, want [x %+v]", m.Bindings, want)
			}
			if got := m.EntryPoints[0].Bindings; len(got) != 2 || got[1] != want || got[0].Name != "x" {
				t.Errorf("EntryPoints[0].Bindings = %+v, want [x %+v]", got, want)
			}
			if tc.kind.IsBuffer() {
				t.Errorf("%v.IsBuffer() = true", tc.kind)
			}
		})
	}
}

// TestHandleBindingsUsedOnly: an entry point reports the handles it uses,
// directly or through a function it calls, and not the others; a handle
// shares a slot with another binding only when no entry point uses both.
func TestHandleBindingsUsedOnly(t *testing.T) {
	src := `
@group(0) @binding(0) var img: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var out: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(2) var<storage, read_write> buf: array<f32>;
fn sample(uv: vec2<f32>) -> vec4<f32> { return textureSampleLevel(img, smp, uv, 0.0); }
@compute @workgroup_size(8, 8) fn blur(@builtin(global_invocation_id) id: vec3<u32>) {
	textureStore(out, id.xy, sample(vec2<f32>(id.xy)));
}
@compute @workgroup_size(64) fn sum(@builtin(global_invocation_id) id: vec3<u32>) {
	buf[id.x] = textureLoad(img, vec2<u32>(id.x, 0u), 0).x;
}
`
	m, err := wgsl.Parse(src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("Parse = %v", err)
	}
	names := func(bs []wgsl.Binding) string {
		var s []string
		for _, b := range bs {
			s = append(s, b.Name+":"+b.Kind.String())
		}
		return strings.Join(s, " ")
	}
	for i, want := range []string{"img:texture smp:sampler out:storage-texture", "img:texture buf:storage-read-write"} {
		if got := names(m.EntryPoints[i].Bindings); got != want {
			t.Errorf("EntryPoints[%d].Bindings = %s, want %s", i, got, want)
		}
	}
	if got, want := names(m.Bindings), "img:texture smp:sampler out:storage-texture buf:storage-read-write"; got != want {
		t.Errorf("Bindings = %s, want %s", got, want)
	}
	for _, b := range m.Bindings {
		if b.Kind.IsBuffer() != (b.MinSize > 0) {
			t.Errorf("binding %s: MinSize %d for a %v", b.Name, b.MinSize, b.Kind)
		}
	}
}

// TestHandleErrors: each malformed texture or sampler declaration is an
// *Error at the construct, naming it.
func TestHandleErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
		line, col int
	}{
		{"sampled-no-args", "@group(0) @binding(0) var t: texture_2d;", "texture_2d takes one template argument, the sampled type (f32, i32 or u32)", 1, 30},
		{"sampled-two-args", "@group(0) @binding(0) var t: texture_2d<f32, f32>;", "texture_2d takes one template argument", 1, 30},
		{"sampled-f16", "enable f16;\n@group(0) @binding(0) var t: texture_3d<f16>;", "texture_3d<f16>: the sampled type must be f32, i32 or u32", 2, 41},
		{"sampled-f16-no-enable", "@group(0) @binding(0) var t: texture_2d<f16>;", "texture_2d<f16>: the sampled type must be f32, i32 or u32", 1, 41},
		{"sampled-bool-alias", "alias B = bool;\n@group(0) @binding(0) var t: texture_2d<B>;", "texture_2d<bool>: the sampled type must be f32, i32 or u32", 2, 41},
		{"sampled-vector", "@group(0) @binding(0) var t: texture_2d<vec4<f32>>;", "texture_2d<vec4<f32>>: the sampled type must be f32, i32 or u32", 1, 41},
		{"sampled-format", "@group(0) @binding(0) var t: texture_2d<rgba8unorm>;", "texture_2d<rgba8unorm>: the sampled type must be f32, i32 or u32", 1, 41},
		{"multisampled-no-args", "@group(0) @binding(0) var t: texture_multisampled_2d;", "texture_multisampled_2d takes one template argument", 1, 30},
		{"depth-args", "@group(0) @binding(0) var t: texture_depth_2d<f32>;", "type texture_depth_2d takes no template arguments", 1, 30},
		{"sampler-args", "@group(0) @binding(0) var s: sampler<f32>;", "type sampler takes no template arguments", 1, 30},
		{"storage-one-arg", "@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm>;", "texture_storage_2d takes two template arguments, a texel format and an access mode", 1, 30},
		{"storage-unknown-format", "@group(0) @binding(0) var t: texture_storage_2d<rgba7unorm, write>;", "unknown texel format rgba7unorm", 1, 49},
		{"storage-not-storage-format", "@group(0) @binding(0) var t: texture_storage_2d<r8unorm, write>;", "WGSL does not allow r8unorm as a storage texture's format", 1, 49},
		{"storage-depth-format", "@group(0) @binding(0) var t: texture_storage_2d<depth32float, write>;", "WGSL does not allow depth32float as a storage texture's format", 1, 49},
		{"storage-format-type", "@group(0) @binding(0) var t: texture_storage_2d<vec4<f32>, write>;", "the texel format must be a name", 1, 49},
		{"storage-bad-access", "@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, read_only>;", "texture_storage_2d<rgba8unorm, read_only>: the access mode must be write, read or read_write", 1, 61},
		{"storage-cube", "@group(0) @binding(0) var t: texture_storage_cube<rgba8unorm, write>;", "unknown type texture_storage_cube", 1, 30},
		{"unknown-texture", "@group(0) @binding(0) var t: texture_4d<f32>;", "unknown type texture_4d", 1, 30},
		{"external", "@group(0) @binding(0) var t: texture_external;", "texture_external is not available to compute shaders here", 1, 30},
		{"external-alias", "alias V = texture_external;\n@group(0) @binding(0) var t: V;", "texture_external is not available to compute shaders here", 1, 11},
		{"storage-space", "@group(0) @binding(0) var<storage> t: texture_2d<f32>;", "binding 0 (t): texture_2d<f32> is a handle type, which takes no address space: declare it var t: texture_2d<f32>", 1, 36},
		{"uniform-space", "alias S = sampler;\n@group(0) @binding(1) var<uniform> s: S;", "binding 1 (s): sampler is a handle type, which takes no address space", 2, 36},
		{"private-space", "var<private> t: texture_storage_2d<r32float, write>;", "var<private> t: texture_storage_2d<r32float, write> is a handle type, which takes no address space", 1, 14},
		{"workgroup-space", "var<workgroup> s: sampler;", "var<workgroup> s: sampler is a handle type", 1, 16},
		{"no-binding", "var t: texture_2d<f32>;", "var t: texture_2d<f32> needs both @group and @binding", 1, 5},
		{"no-group", "@binding(0) var s: sampler;", "var s: sampler needs both @group and @binding", 1, 17},
		{"initializer", "@group(0) @binding(0) var s: sampler = s2;", "var s: sampler cannot have an initializer", 1, 27},
		{"in-struct", "struct S { t: texture_2d<f32> }\n@group(0) @binding(0) var<storage> s: S;", "struct S: member t: texture_2d<f32> is not host-shareable", 1, 12},
		{"in-array", "@group(0) @binding(0) var<storage> s: array<sampler, 2>;", "array<sampler>: sampler is not host-shareable", 1, 39},
		{"shared-slot", "@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(0) var s: sampler;\n@compute @workgroup_size(1) fn main() { _ = textureSampleLevel(t, s, vec2<f32>(), 0.0); }",
			"binding 0 (s): entry point main uses both t and s, which share @group(0) @binding(0)", 2, 27},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse(tc.src, wgsl.Limits{})
			var e *wgsl.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %+v, %v, want a *wgsl.Error containing %q", tc.src, m, err, tc.want)
			}
			if !strings.Contains(e.Msg, tc.want) || e.Line != tc.line || e.Column != tc.col {
				t.Errorf("Parse(%q) = %v, want %d:%d: ...%s...", tc.src, err, tc.line, tc.col, tc.want)
			}
			if e.Kind != wgsl.KindInvalid {
				t.Errorf("Parse(%q).Kind = %v, want %v", tc.src, e.Kind, wgsl.KindInvalid)
			}
		})
	}
}

// TestUnsupportedResourceTypes: binding arrays and ray queries'
// acceleration structures, which naga knows and no WebGPU device binds,
// are KindUnsupported errors naming them, wherever they are declared.
func TestUnsupportedResourceTypes(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
		line, col int
	}{
		{"texture-array", "@group(0) @binding(0) var t: binding_array<texture_2d<f32>, 4>;", "var t: binding_array: binding arrays are not in WebGPU", 1, 30},
		{"buffer-array", "struct B { v: u32 }\n@group(0) @binding(1) var<storage, read_write> b: binding_array<B>;", "binding 1 (b): binding_array: binding arrays are not in WebGPU", 2, 51},
		{"acceleration-structure", "enable wgpu_ray_query;\n@group(0) @binding(0) var acc: acceleration_structure;", "var acc: acceleration_structure: ray queries are not in WebGPU", 2, 32},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wgsl.Parse(tc.src, wgsl.Limits{})
			var e *wgsl.Error
			if !errors.As(err, &e) || e.Kind != wgsl.KindUnsupported || !strings.Contains(e.Msg, tc.want) || e.Line != tc.line || e.Column != tc.col {
				t.Errorf("Parse(%q) = %v (%#v), want an unsupported error at %d:%d containing %q", tc.src, err, e, tc.line, tc.col, tc.want)
			}
		})
	}
}

// TestHandlesCountTowardMaxBindings: the limit on one entry point's
// bindings counts textures and samplers with the buffers.
func TestHandlesCountTowardMaxBindings(t *testing.T) {
	src := `
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(1) fn main() { x[0] = textureSampleLevel(t, s, vec2<f32>(), 0.0).x; }
`
	if m, err := wgsl.Parse(src, wgsl.Limits{MaxBindings: 3}); err != nil || len(m.EntryPoints[0].Bindings) != 3 {
		t.Fatalf("Parse(MaxBindings 3) = %v, want 3 bindings", err)
	}
	_, err := wgsl.Parse(src, wgsl.Limits{MaxBindings: 2})
	var e *wgsl.Error
	if !errors.As(err, &e) || e.Kind != wgsl.KindLimit || !strings.Contains(e.Msg, "entry point main uses 3 bindings (buffers, textures and samplers), more than the limit of 2") {
		t.Errorf("Parse(MaxBindings 2) = %v, want a limit error counting 3 bindings", err)
	}
}

// TestStorageFormatsAreWGSLs: the formats a storage texture may declare
// are exactly WGSL's storage texel formats.
func TestStorageFormatsAreWGSLs(t *testing.T) {
	want := []string{"r32uint", "r32sint", "r32float", "rgba8unorm", "rgba8snorm", "rgba8uint", "rgba8sint", "bgra8unorm",
		"rg32uint", "rg32sint", "rg32float", "rgba16uint", "rgba16sint", "rgba16float", "rgba32uint", "rgba32sint", "rgba32float"}
	var got []string
	for f := wgsl.FormatNone + 1; f.Valid(); f++ {
		src := "@group(0) @binding(0) var t: texture_storage_2d<" + strings.ReplaceAll(f.String(), "-", "_") + ", write>;"
		if _, err := wgsl.Parse(src, wgsl.Limits{}); err == nil {
			got = append(got, f.String())
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("storage formats = %v, want %v", got, want)
	}
}
