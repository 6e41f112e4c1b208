package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
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
		{name: "sampler", src: `@group(0) @binding(0) var s: sampler;` + main, err: wgpu.ErrorTypeValidation, msg: "only buffer bindings"},
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
