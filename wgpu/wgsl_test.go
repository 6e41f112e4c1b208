package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// addWGSLForParse is addWGSL's declarations (the cgo tests' kernels are
// not visible without cgo).
const addWGSLForParse = `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(64) fn main() { _ = &a; _ = &b; _ = &c; }
`

type bindingWant struct {
	index   uint32
	name    string
	typ     wgpu.BindingType
	minSize uint64
}

func manyBindings(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "@group(0) @binding(%d) var<storage, read> b%d: array<u32>;\n", i, i)
	}
	b.WriteString("@compute @workgroup_size(1) fn main() {")
	for i := range n {
		fmt.Fprintf(&b, " _ = &b%d;", i)
	}
	b.WriteString(" }\n")
	return b.String()
}

// mainUsing is a compute entry point that statically uses the variables
// names (a binding is the entry point's only when it uses it).
func mainUsing(names ...string) string {
	var b strings.Builder
	b.WriteString("\n@compute @workgroup_size(1) fn main() {")
	for _, n := range names {
		fmt.Fprintf(&b, " _ = &%s;", n)
	}
	b.WriteString(" }")
	return b.String()
}

// TestCheckKernelBindings covers the front-end as the device uses it,
// including each source the regex scanner misread.
func TestCheckKernelBindings(t *testing.T) {
	const main = "\n@compute @workgroup_size(1) fn main() {}"
	tests := []struct {
		name string
		src  string
		max  uint32
		want []bindingWant
		err  wgpu.ErrorType
		msg  string
	}{
		{name: "none", src: main},
		{name: "add", src: addWGSLForParse, want: []bindingWant{
			{0, "a", wgpu.BindingStorageRead, 4},
			{1, "b", wgpu.BindingStorageRead, 4},
			{2, "c", wgpu.BindingStorageReadWrite, 4},
		}},
		{name: "order-and-spacing", src: `
// @group(0) @binding(7) var<storage> commented: f32;
/* @group(0) @binding(8) var<uniform> also: f32; */
struct MyStruct { a: f32, b: vec3<f32> }
@binding(1)   @group( 0 ) var<uniform> p : vec3<f32>;
@group(0)@binding(0)var<storage,read_write>out:array<vec4f, 8>;
@group(0) @binding(2) var<storage> s: MyStruct;
var<workgroup> tile: array<f32, 64>;` + mainUsing("out", "p", "s"), want: []bindingWant{
			{0, "out", wgpu.BindingStorageReadWrite, 128},
			{1, "p", wgpu.BindingUniform, 12},
			{2, "s", wgpu.BindingStorageRead, 32},
		}},
		{name: "block-comment-opener-inside-line-comment", src: `
// a line comment with /* in it
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
// and */ here` + mainUsing("x"), want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 4}}},
		{name: "nested-block-comments", src: `
/* outer /* inner */ @group(0) @binding(1) var<storage> phantom: f32; still comment */
@group(0) @binding(0) var<storage, read_write> x: array<u32>;` + mainUsing("x"), want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 4}}},
		{name: "hex-binding", src: `@group(0x0) @binding(0x0) var<storage, read_write> x: array<u32, 4>;` + mainUsing("x"),
			want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 16}}},
		{name: "const-binding", src: `const B = 0u; @group(0) @binding(B) var<storage, read_write> x: u32;` + mainUsing("x"),
			want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 4}}},
		{name: "const-array-count", src: `const N = 256u; @group(0) @binding(0) var<storage, read_write> x: array<u32, N>;` + mainUsing("x"),
			want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 1024}}},
		{name: "alias-of-fixed-array", src: `alias Block = array<u32, 64>; @group(0) @binding(0) var<storage, read_write> x: Block;` + mainUsing("x"),
			want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 256}}},
		{name: "struct-with-fixed-array", src: `struct S { v: array<u32, 64> } @group(0) @binding(0) var<storage, read_write> s: S;` + mainUsing("s"),
			want: []bindingWant{{0, "s", wgpu.BindingStorageReadWrite, 256}}},
		{name: "runtime-array-of-structs", src: `struct P { a: vec2<f32>, b: u32 } @group(0) @binding(0) var<storage, read_write> ps: array<P>;` + mainUsing("ps"),
			want: []bindingWant{{0, "ps", wgpu.BindingStorageReadWrite, 16}}},
		{name: "uniform-struct", src: `struct U { n: u32, scale: f32 } @group(0) @binding(0) var<uniform> u: U;` + mainUsing("u"),
			want: []bindingWant{{0, "u", wgpu.BindingUniform, 8}}},
		{name: "8-bindings", src: manyBindings(8), max: 1000, want: func() []bindingWant {
			var w []bindingWant
			for i := range 8 {
				w = append(w, bindingWant{uint32(i), fmt.Sprintf("b%d", i), wgpu.BindingStorageRead, 4})
			}
			return w
		}()},
		{name: "more-than-the-device-allows", src: manyBindings(7), max: 6, err: wgpu.ErrorTypeLimit, msg: "maxBindingsPerBindGroup"},
		{name: "atomic-array", src: `@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>, 3>;` + mainUsing("c"),
			want: []bindingWant{{0, "c", wgpu.BindingStorageReadWrite, 12}}},
		{name: "vec3-stride", src: `@group(0) @binding(0) var<storage, read> v: array<vec3<f32>, 2>;` + mainUsing("v"),
			want: []bindingWant{{0, "v", wgpu.BindingStorageRead, 32}}},
		{name: "empty", src: "", err: wgpu.ErrorTypeValidation, msg: "empty source"},
		{name: "whitespace", src: " \n\t// nothing\n/* here */ ", err: wgpu.ErrorTypeValidation, msg: "empty source"},
		{name: "deep-nesting", src: "@compute @workgroup_size(1) fn main() { var x = " + strings.Repeat("(", 10000) + "1u" + strings.Repeat(")", 10000) + "; }",
			err: wgpu.ErrorTypeLimit, msg: "nesting depth"},
		{name: "no-entry-point", src: `@compute @workgroup_size(1) fn other() {}`, err: wgpu.ErrorTypeValidation, msg: `no @compute entry point "main"`},
		{name: "gap", src: `@group(0) @binding(1) var<storage> a: f32; @group(0) @binding(5) var<storage> b: f32;` + mainUsing("b", "a"),
			want: []bindingWant{{1, "a", wgpu.BindingStorageRead, 4}, {5, "b", wgpu.BindingStorageRead, 4}}},
		{name: "unused-binding-is-not-the-entry-points", src: `@group(0) @binding(0) var<storage> a: f32; @group(0) @binding(1) var<storage, read_write> b: f32;` + mainUsing("b"),
			want: []bindingWant{{1, "b", wgpu.BindingStorageReadWrite, 4}}},
		{name: "shared-slot-one-used", src: `@group(0) @binding(0) var<storage> a: f32; @group(0) @binding(0) var<storage, read_write> b: array<u32>;` + mainUsing("b"),
			want: []bindingWant{{0, "b", wgpu.BindingStorageReadWrite, 4}}},
		{name: "duplicate", src: `@group(0) @binding(0) var<storage> a: f32; @group(0) @binding(0) var<storage> b: f32;` + mainUsing("a", "b"), err: wgpu.ErrorTypeValidation, msg: "share @group(0) @binding(0)"},
		{name: "group-2", src: `@group(2) @binding(0) var<storage> a: f32;` + mainUsing("a"), want: []bindingWant{{0, "a", wgpu.BindingStorageRead, 4}}},
		{name: "group-past-maxBindGroups", src: `@group(4) @binding(0) var<storage> a: f32;` + mainUsing("a"), err: wgpu.ErrorTypeLimit, msg: "maxBindGroups"},
		{name: "storage-per-stage", src: manyBindings(9), err: wgpu.ErrorTypeLimit, msg: "9 storage buffers, more than maxStorageBuffersPerShaderStage 8"},
		{name: "no-binding", src: `@group(0) var<storage> a: f32;` + mainUsing("a"), err: wgpu.ErrorTypeValidation},
		{name: "unused-sampler", src: `@group(0) @binding(0) var s: sampler;` + main},
		{name: "texture-and-buffer", src: `@group(0) @binding(0) var t: texture_2d<f32>; @group(0) @binding(1) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(1) fn main() { x[0] = f32(textureDimensions(t).x); }`,
			want: []bindingWant{{0, "t", wgpu.BindingTexture, 0}, {1, "x", wgpu.BindingStorageReadWrite, 4}}},
		{name: "texture-external", src: `@group(0) @binding(0) var t: texture_external;` + main, err: wgpu.ErrorTypeValidation, msg: "texture_external is not available to compute shaders here"},
		{name: "storage-texture-format", src: `@group(0) @binding(0) var t: texture_storage_2d<r8unorm, write>;` + main, err: wgpu.ErrorTypeValidation, msg: "WGSL does not allow r8unorm as a storage texture's format"},
		{name: "binding-array", src: `@group(0) @binding(0) var t: binding_array<texture_2d<f32>, 2>;` + main, err: wgpu.ErrorTypeUnsupported, msg: "binding arrays are not in WebGPU"},
		{name: "undefined-type", src: `@group(0) @binding(0) var<storage> s: Missing;` + main, err: wgpu.ErrorTypeValidation},
		{name: "abstract-literal", src: `@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(1) fn main() { var v: f32 = 0; x[0] = v + 10; }`, want: []bindingWant{{0, "x", wgpu.BindingStorageReadWrite, 4}}},
		{name: "invalid-by-naga", src: `@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }`, err: wgpu.ErrorTypeValidation, msg: "wgsl:1:"},
	}
	for _, tc := range tests {
		if tc.name == "invalid-by-naga" && runtime.GOOS == "js" {
			// The js build runs no compiler in CheckKernel: the browser's
			// refuses this at Compile (TestWebCompileError), so here it
			// passes the front-end, with no bindings.
			tc.err = 0
		}
		t.Run(tc.name, func(t *testing.T) {
			ki, err := wgpu.CheckKernel(context.Background(), gpu.NewKernel(tc.name, tc.src, "main"), wgpu.Limits{MaxBindingsPerBindGroup: tc.max})
			if tc.err != 0 {
				var e *wgpu.Error
				if !errors.As(err, &e) || e.Type != tc.err || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("CheckKernel = %v, %v; want an error of type %v containing %q", ki, err, tc.err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("CheckKernel = %v", err)
			}
			got := ki.Bindings
			if len(got) != len(tc.want) {
				t.Fatalf("CheckKernel bindings = %+v, want %+v", got, tc.want)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Index != w.index || g.Name != w.name || g.Type != w.typ || g.MinSize != w.minSize {
					t.Errorf("binding %d = {%d %s %v %d}, want %+v", i, g.Index, g.Name, g.Type, g.MinSize, w)
				}
			}
		})
	}
}

// TestCheckKernelHandleBindings: a texture, storage texture or sampler
// binding reaches the device's view of it with what it declares.
func TestCheckKernelHandleBindings(t *testing.T) {
	const src = `
@group(0) @binding(0) var img: texture_2d_array<i32>;
@group(0) @binding(1) var smp: sampler_comparison;
@group(0) @binding(2) var shadow: texture_depth_cube;
@group(1) @binding(0) var out: texture_storage_3d<rgba16float, write>;
@compute @workgroup_size(1) fn main() {
	let v = textureLoad(img, vec2<i32>(0), 0, 0);
	let c = textureSampleCompareLevel(shadow, smp, vec3<f32>(1.0), 0.5);
	textureStore(out, vec3<u32>(0u), vec4<f32>(f32(v.x) + c));
}`
	ki, err := wgpu.CheckKernel(context.Background(), gpu.NewKernel("handles", src, "main"), wgpu.Limits{})
	if err != nil {
		t.Fatalf("CheckKernel = %v", err)
	}
	want := []wgpu.Binding{
		{Group: 0, Index: 0, Name: "img", Type: wgpu.BindingTexture, WGSL: "texture_2d_array<i32>", Texture: wgpu.TextureBinding{View: wgsl.View2DArray, Sample: wgsl.SampleSint}},
		{Group: 0, Index: 1, Name: "smp", Type: wgpu.BindingSampler, WGSL: "sampler_comparison", Sampler: wgsl.SamplerComparison},
		{Group: 0, Index: 2, Name: "shadow", Type: wgpu.BindingTexture, WGSL: "texture_depth_cube", Texture: wgpu.TextureBinding{View: wgsl.ViewCube, Sample: wgsl.SampleDepth}},
		{Group: 1, Index: 0, Name: "out", Type: wgpu.BindingStorageTexture, WGSL: "texture_storage_3d<rgba16float, write>", Texture: wgpu.TextureBinding{View: wgsl.View3D, Format: wgsl.RGBA16Float, Access: wgsl.AccessWrite}},
	}
	if !reflect.DeepEqual(ki.Bindings, want) {
		t.Errorf("CheckKernel bindings =\n%+v\nwant\n%+v", ki.Bindings, want)
	}
}

// handleKernel declares n bindings of type typ (numbered from 0) and a
// compute entry point that uses each with use (a format with one %d, the
// binding's number).
func handleKernel(n int, typ, use string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "@group(0) @binding(%d) var h%d: %s;\n", i, i, typ)
	}
	b.WriteString("@compute @workgroup_size(1) fn main() {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t"+use+"\n", i)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestCheckKernelPerStageHandleLimits: sampled textures, samplers and
// storage textures count against WebGPU's per-stage limits of their own
// (zero limits: WebGPU's defaults, 16, 16 and 4), and not against the
// storage buffers'.
func TestCheckKernelPerStageHandleLimits(t *testing.T) {
	const (
		sampled = "_ = textureDimensions(h%d);"
		store   = "textureStore(h%d, vec2<u32>(0u), vec4<f32>(0.0));"
	)
	samplers := func(n int) string {
		return "@group(1) @binding(0) var t: texture_2d<f32>;\n" + handleKernel(n, "sampler", "_ = textureSampleLevel(t, h%d, vec2<f32>(0.0), 0.0);")
	}
	tests := []struct {
		name string
		src  string
		lim  wgpu.Limits
		msg  string // "": accepted
	}{
		{"16-sampled", handleKernel(16, "texture_2d<f32>", sampled), wgpu.Limits{}, ""},
		{"17-sampled", handleKernel(17, "texture_2d<f32>", sampled), wgpu.Limits{}, "uses 17 sampled textures, more than maxSampledTexturesPerShaderStage 16"},
		{"3-sampled-of-2", handleKernel(3, "texture_depth_2d", sampled), wgpu.Limits{MaxSampledTexturesPerShaderStage: 2}, "uses 3 sampled textures, more than maxSampledTexturesPerShaderStage 2"},
		{"16-samplers", samplers(16), wgpu.Limits{}, ""},
		{"17-samplers", samplers(17), wgpu.Limits{}, "uses 17 samplers, more than maxSamplersPerShaderStage 16"},
		{"4-storage-textures", handleKernel(4, "texture_storage_2d<rgba8unorm, write>", store), wgpu.Limits{}, ""},
		{"5-storage-textures", handleKernel(5, "texture_storage_2d<rgba8unorm, write>", store), wgpu.Limits{}, "uses 5 storage textures, more than maxStorageTexturesPerShaderStage 4"},
		{"8-storage-buffers-and-4-storage-textures", strings.Replace(manyBindings(8), "fn main() {", "fn main() {"+
			" textureStore(s0, 0u, vec4<f32>()); textureStore(s1, 0u, vec4<f32>()); textureStore(s2, 0u, vec4<f32>()); textureStore(s3, 0u, vec4<f32>());", 1) +
			"@group(1) @binding(0) var s0: texture_storage_1d<r32float, write>; @group(1) @binding(1) var s1: texture_storage_1d<r32float, write>;\n" +
			"@group(1) @binding(2) var s2: texture_storage_1d<r32float, write>; @group(1) @binding(3) var s3: texture_storage_1d<r32float, write>;\n",
			wgpu.Limits{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wgpu.CheckKernel(context.Background(), gpu.NewKernel(tc.name, tc.src, "main"), tc.lim)
			if tc.msg == "" {
				if err != nil {
					t.Errorf("CheckKernel = %v, want nil", err)
				}
				return
			}
			var we *wgpu.Error
			if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeLimit || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("CheckKernel = %v, want a Limit error containing %q", err, tc.msg)
			}
		})
	}
}
