package wgsl_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

const ep = "\n@compute @workgroup_size(64) fn main() {}\n"

func TestParseBindings(t *testing.T) {
	type b = wgsl.Binding
	tests := []struct {
		name string
		src  string
		lim  wgsl.Limits
		want []b
	}{
		{"add", `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;` + ep, wgsl.Limits{},
			[]b{{0, 0, "a", wgsl.StorageRead, "array<f32>", 4, wgsl.TextureBinding{}, 0}, {0, 1, "b", wgsl.StorageRead, "array<f32>", 4, wgsl.TextureBinding{}, 0}, {0, 2, "c", wgsl.StorageReadWrite, "array<f32>", 4, wgsl.TextureBinding{}, 0}}},
		{"line-comment-hides-block-open", `
// a /* inside a line comment
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
// */` + ep, wgsl.Limits{}, []b{{0, 0, "x", wgsl.StorageReadWrite, "array<u32>", 4, wgsl.TextureBinding{}, 0}}},
		{"nested-block-comment", `
/* outer /* inner */ @group(0) @binding(1) var<storage> ghost: array<u32>; */
@group(0) @binding(0) var<storage, read_write> x: array<u32>;` + ep, wgsl.Limits{}, []b{{0, 0, "x", wgsl.StorageReadWrite, "array<u32>", 4, wgsl.TextureBinding{}, 0}}},
		{"hex-binding", `@group(0x0) @binding(0x0) var<storage, read_write> x: u32;` + ep, wgsl.Limits{}, []b{{0, 0, "x", wgsl.StorageReadWrite, "u32", 4, wgsl.TextureBinding{}, 0}}},
		{"const-binding", `@group(0) @binding(B) var<storage, read_write> x: u32; const B = 0u;` + ep, wgsl.Limits{}, []b{{0, 0, "x", wgsl.StorageReadWrite, "u32", 4, wgsl.TextureBinding{}, 0}}},
		{"const-expr-binding", `const A = 3; const B: u32 = u32(A * 2 - (1 << 2)) | 0x1u; @group(i32(~0 + 1)) @binding(B) var<storage> x: f32;` + ep, wgsl.Limits{}, []b{{0, 3, "x", wgsl.StorageRead, "f32", 4, wgsl.TextureBinding{}, 0}}},
		{"struct-fixed-array", `struct S { v: array<u32, 64> } @group(0) @binding(0) var<storage, read_write> s: S;` + ep, wgsl.Limits{}, []b{{0, 0, "s", wgsl.StorageReadWrite, "S", 256, wgsl.TextureBinding{}, 0}}},
		{"runtime-array-of-structs", `struct P { pos: vec3<f32>, m: f32, v: vec2f } @group(0) @binding(0) var<storage, read_write> p: array<P>;` + ep, wgsl.Limits{}, []b{{0, 0, "p", wgsl.StorageReadWrite, "array<P>", 32, wgsl.TextureBinding{}, 0}}},
		{"struct-ending-in-runtime-array", `struct B { n: u32, pad: vec2u, data: array<vec4f> } @group(0) @binding(0) var<storage, read_write> b: B;` + ep, wgsl.Limits{}, []b{{0, 0, "b", wgsl.StorageReadWrite, "B", 32, wgsl.TextureBinding{}, 0}}},
		{"const-count", `@group(0) @binding(0) var<storage, read_write> x: array<u32, N>; const N = 256u;` + ep, wgsl.Limits{}, []b{{0, 0, "x", wgsl.StorageReadWrite, "array<u32, 256>", 1024, wgsl.TextureBinding{}, 0}}},
		{"alias-fixed-array", `alias Block = array<vec4<f32>, 8>; alias B2 = Block; @group(0) @binding(0) var<uniform> u: B2;` + ep, wgsl.Limits{}, []b{{0, 0, "u", wgsl.Uniform, "array<vec4<f32>, 8>", 128, wgsl.TextureBinding{}, 0}}},
		{"vec3", `struct S { a: vec3<f32>, b: f32 } @group(0) @binding(0) var<storage> v: vec3<f32>; @group(0) @binding(1) var<storage> s: S;` + ep, wgsl.Limits{}, []b{{0, 0, "v", wgsl.StorageRead, "vec3<f32>", 12, wgsl.TextureBinding{}, 0}, {0, 1, "s", wgsl.StorageRead, "S", 16, wgsl.TextureBinding{}, 0}}},
		{"vec3-align", `struct S { a: f32, b: vec3<f32> } @group(0) @binding(0) var<storage> s: S;` + ep, wgsl.Limits{}, []b{{0, 0, "s", wgsl.StorageRead, "S", 32, wgsl.TextureBinding{}, 0}}},
		{"array-of-vec3", `@group(0) @binding(0) var<storage> a: array<vec3f, 10>; @group(0) @binding(1) var<storage> r: array<vec3<u32>>;` + ep, wgsl.Limits{}, []b{{0, 0, "a", wgsl.StorageRead, "array<vec3<f32>, 10>", 160, wgsl.TextureBinding{}, 0}, {0, 1, "r", wgsl.StorageRead, "array<vec3<u32>>", 16, wgsl.TextureBinding{}, 0}}},
		{"size-align", `struct S { @size(12) a: f32, @align(16) b: f32, c: u32 } @group(0) @binding(0) var<storage> s: S;` + ep, wgsl.Limits{}, []b{{0, 0, "s", wgsl.StorageRead, "S", 32, wgsl.TextureBinding{}, 0}}},
		{"size-align-const", `const K = 8; struct S { @align(K * 4) a: f32, @size(K) b: u32 } @group(0) @binding(0) var<storage> s: S;` + ep, wgsl.Limits{}, []b{{0, 0, "s", wgsl.StorageRead, "S", 32, wgsl.TextureBinding{}, 0}}},
		{"matrices", `@group(0) @binding(0) var<uniform> m: mat4x4f; @group(0) @binding(1) var<storage> m3: mat3x3<f32>; @group(0) @binding(2) var<storage> m2: mat2x3f; @group(0) @binding(3) var<storage> m4: mat4x2<f32>;` + ep, wgsl.Limits{},
			[]b{{0, 0, "m", wgsl.Uniform, "mat4x4<f32>", 64, wgsl.TextureBinding{}, 0}, {0, 1, "m3", wgsl.StorageRead, "mat3x3<f32>", 48, wgsl.TextureBinding{}, 0}, {0, 2, "m2", wgsl.StorageRead, "mat2x3<f32>", 32, wgsl.TextureBinding{}, 0}, {0, 3, "m4", wgsl.StorageRead, "mat4x2<f32>", 32, wgsl.TextureBinding{}, 0}}},
		{"f16", "enable f16;\n" + `@group(0) @binding(0) var<storage> h: array<vec3h, 3>; @group(0) @binding(1) var<storage> m: mat3x3<f16>;` + ep, wgsl.Limits{}, []b{{0, 0, "h", wgsl.StorageRead, "array<vec3<f16>, 3>", 24, wgsl.TextureBinding{}, 0}, {0, 1, "m", wgsl.StorageRead, "mat3x3<f16>", 24, wgsl.TextureBinding{}, 0}}},
		{"atomic", `struct C { n: atomic<u32>, v: array<atomic<i32>> } @group(0) @binding(0) var<storage, read_write> c: C;` + ep, wgsl.Limits{}, []b{{0, 0, "c", wgsl.StorageReadWrite, "C", 8, wgsl.TextureBinding{}, 0}}},
		{"uniform-struct-ok", `struct Inner { a: f32 } struct U { x: f32, @align(16) i: Inner, @align(16) y: f32, arr: array<vec4f, 2> } @group(0) @binding(0) var<uniform> u: U;` + ep, wgsl.Limits{}, []b{{0, 0, "u", wgsl.Uniform, "U", 80, wgsl.TextureBinding{}, 0}}},
		{"groups-sorted", `@group(1) @binding(0) var<storage> b: u32; @group(0) @binding(5) var<uniform> a: vec4u; @group(0) @binding(2) var<storage> c: i32;` + ep, wgsl.Limits{}, []b{{0, 2, "c", wgsl.StorageRead, "i32", 4, wgsl.TextureBinding{}, 0}, {0, 5, "a", wgsl.Uniform, "vec4<u32>", 16, wgsl.TextureBinding{}, 0}, {1, 0, "b", wgsl.StorageRead, "u32", 4, wgsl.TextureBinding{}, 0}}},
		{"template-shift-split", `@group(0) @binding(0) var<storage> a: array<array<u32, 4>>; @group(0) @binding(1) var<storage> b: array<vec2<u32>, (8 >> 1)>;` + ep, wgsl.Limits{}, []b{{0, 0, "a", wgsl.StorageRead, "array<array<u32, 4>>", 16, wgsl.TextureBinding{}, 0}, {0, 1, "b", wgsl.StorageRead, "array<vec2<u32>, 4>", 32, wgsl.TextureBinding{}, 0}}},
		{"private-workgroup-ignored", `var<private> p: array<u32, 4>; var<workgroup> w: array<f32, 64>; override O: u32 = 4; var<workgroup> wo: array<f32, O>; @group(0) @binding(0) var<storage> x: u32;` + ep, wgsl.Limits{}, []b{{0, 0, "x", wgsl.StorageRead, "u32", 4, wgsl.TextureBinding{}, 0}}},
		{"unicode-and-literals", `const ñame = 0x10u; const f = 1.5e3f; const g = 0x1.8p3; const h = .5h; const k = 1e-3; @group(0) @binding(ñame) var<storage> x: u32;` + ep, wgsl.Limits{}, []b{{0, 16, "x", wgsl.StorageRead, "u32", 4, wgsl.TextureBinding{}, 0}}},
		{"trailing-commas-and-directives", "enable f16;\nrequires readonly_and_readwrite_storage_textures;\ndiagnostic(off, derivative_uniformity);\n" + `struct S { a: u32, b: f32, } @group(0,) @binding(0,) var<storage, read_write,> s: S; const_assert 1 < 2;` + ep, wgsl.Limits{}, []b{{0, 0, "s", wgsl.StorageReadWrite, "S", 8, wgsl.TextureBinding{}, 0}}},
	}
	var many strings.Builder
	var manyWant []b
	for i := 0; i < 20; i++ {
		many.WriteString("@group(0) @binding(" + itoa(i) + ") var<storage, read_write> x" + itoa(i) + ": array<u32>;\n")
		manyWant = append(manyWant, b{0, uint32(i), "x" + itoa(i), wgsl.StorageReadWrite, "array<u32>", 4, wgsl.TextureBinding{}, 0})
	}
	tests = append(tests, struct {
		name string
		src  string
		lim  wgsl.Limits
		want []b
	}{"20-bindings", many.String() + ep, wgsl.Limits{MaxBindings: 32}, manyWant})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse(tc.src, tc.lim)
			if err != nil {
				t.Fatalf("Parse = %v", err)
			}
			if len(m.Bindings) != len(tc.want) {
				t.Fatalf("Parse bindings = %+v, want %+v", m.Bindings, tc.want)
			}
			for i := range tc.want {
				if m.Bindings[i] != tc.want[i] {
					t.Errorf("binding %d = %+v, want %+v", i, m.Bindings[i], tc.want[i])
				}
			}
		})
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestParseEntryPoints(t *testing.T) {
	src := `
override O = 8u;
const W = 4u;
@compute @workgroup_size(64) fn a() {}
@compute @workgroup_size(W * 2, W, 1) fn b() {}
@compute @workgroup_size(O, 2) fn c() {}
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { return vec4f(0.0); }
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
fn helper(x: u32) -> u32 { return x; }
`
	m, err := wgsl.Parse(src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("Parse = %v", err)
	}
	want := []wgsl.EntryPoint{
		{Name: "a", Stage: "compute", WorkgroupSize: [3]uint32{64, 1, 1}},
		{Name: "b", Stage: "compute", WorkgroupSize: [3]uint32{8, 4, 1}},
		{Name: "c", Stage: "compute", WorkgroupSize: [3]uint32{0, 2, 1}},
		{Name: "vs", Stage: "vertex"},
		{Name: "fs", Stage: "fragment"},
	}
	if len(m.EntryPoints) != len(want) {
		t.Fatalf("EntryPoints = %+v, want %+v", m.EntryPoints, want)
	}
	for i := range want {
		if !reflect.DeepEqual(m.EntryPoints[i], want[i]) {
			t.Errorf("EntryPoints[%d] = %+v, want %+v", i, m.EntryPoints[i], want[i])
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		lim  wgsl.Limits
		want string // substring of the message
		line int    // 0: any
	}{
		{"empty", "", wgsl.Limits{}, "empty source", 1},
		{"whitespace", " \n\t \r\n ", wgsl.Limits{}, "empty source", 3},
		{"comments-only", "// x\n/* y /* z */ */\n", wgsl.Limits{}, "empty source", 0},
		{"unterminated-comment", "/* /* */ fn main() {}", wgsl.Limits{}, "unterminated block comment", 1},
		{"too-big", strings.Repeat(" ", 100) + "fn f() {}", wgsl.Limits{MaxSourceBytes: 64}, "more than the limit of 64", 1},
		{"nested-parens", "const x = " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + ";", wgsl.Limits{}, "nesting depth 129 exceeds the limit of 128", 1},
		{"nested-braces-in-body", "fn f() " + strings.Repeat("{", 200) + strings.Repeat("}", 200), wgsl.Limits{}, "nesting depth", 1},
		{"unary-run", "fn f() { let x = " + strings.Repeat("- ", 200) + "1; }", wgsl.Limits{}, "nesting depth", 1},
		{"not-run", "fn f() { let x = " + strings.Repeat("!", 200) + "true; }", wgsl.Limits{}, "nesting depth", 1},
		{"deref-addr-run", "fn f(p: ptr<function, u32>) { let x = " + strings.Repeat("*&", 100) + "*p; }", wgsl.Limits{}, "nesting depth", 1},
		{"else-if-chain", "fn f(a: u32) { if a == 0u {}" + strings.Repeat(" else if a == 1u {}", 200) + " }", wgsl.Limits{}, "nesting depth", 1},
		{"template-nesting", "alias A = " + strings.Repeat("array<", 200) + "u32" + strings.Repeat(", 1>", 200) + ";", wgsl.Limits{}, "nesting depth", 1},
		{"binary-chain", "fn f() { let x = 1" + strings.Repeat(" + 1", 2000) + "; }", wgsl.Limits{}, "expression longer than the limit", 1},
		{"postfix-chain", "fn f(v: vec4f) { let x = v" + strings.Repeat(".xyzw", 1500) + ".x; }", wgsl.Limits{}, "expression longer than the limit", 1},
		{"const-chain", constChain(1000), wgsl.Limits{}, "more than the limit of 256", 0},
		{"fn-chain", fnChain(1000), wgsl.Limits{}, "more than the limit of 256", 0},
		{"unclosed", "fn f() { (", wgsl.Limits{}, "unclosed", 1},
		{"mismatched", "fn f() { ( ] }", wgsl.Limits{}, `unexpected "]"`, 1},
		{"leading-zero", "const x = 012;", wgsl.Limits{}, "leading zero", 1},
		{"bad-char", "const x = 1 $ 2;", wgsl.Limits{}, "invalid character", 1},
		{"bad-literal", "const x = 12abc;", wgsl.Limits{}, "malformed numeric literal", 1},
		{"const-cycle", "const A = B;\nconst B = C;\nconst C = A;\n@group(0) @binding(A) var<storage> x: u32;", wgsl.Limits{}, "depends on itself: A -> B -> C -> A", 0},
		{"self-struct", "struct S { a: u32, s: S }", wgsl.Limits{}, "depends on itself", 1},
		{"recursive-fn", "fn f() { g(); }\nfn g() { f(); }", wgsl.Limits{}, "depends on itself", 0},
		{"binding-not-const", "var<private> B: u32;\n@group(0) @binding(B) var<storage> x: u32;", wgsl.Limits{}, "@binding(B): B is not a const", 2},
		{"binding-override", "override B: u32;\n@group(0) @binding(B) var<storage> x: u32;", wgsl.Limits{}, "@binding(B): B is an override, not a const", 2},
		{"binding-undeclared", "@group(0) @binding(B) var<storage> x: u32;", wgsl.Limits{}, "B is not declared", 1},
		{"div-zero", "const Z = 0;\n@group(0) @binding(4 / Z) var<storage> x: u32;", wgsl.Limits{}, "division by zero", 2},
		{"mod-zero", "@group(0) @binding(4 % 0) var<storage> x: u32;", wgsl.Limits{}, "division by zero", 1},
		{"negative-binding", "@group(0) @binding(-1) var<storage> x: u32;", wgsl.Limits{}, "not a valid index", 1},
		{"negative-count", "@group(0) @binding(0) var<storage> x: array<u32, -4>;", wgsl.Limits{}, "array count must be positive", 1},
		{"zero-count", "@group(0) @binding(0) var<storage> x: array<u32, 0>;", wgsl.Limits{}, "array count must be positive", 1},
		{"overflow-u32", "const N = 0xffffffffu + 1u;\n@group(0) @binding(0) var<storage> x: array<u32, N>;", wgsl.Limits{}, "overflows", 1},
		{"overflow-i32-lit", "@group(0) @binding(2147483648i) var<storage> x: u32;", wgsl.Limits{}, "overflows i32", 1},
		{"overflow-shift", "@group(0) @binding(1u << 32u) var<storage> x: u32;", wgsl.Limits{}, "shift amount", 1},
		{"overflow-mul", "const N = 9223372036854775807 * 2;\n@group(0) @binding(N) var<storage> x: u32;", wgsl.Limits{}, "overflows", 1},
		{"too-large-type", "@group(0) @binding(0) var<storage> x: array<array<u32, 65536>, 65536>;", wgsl.Limits{}, "larger than", 1},
		{"float-binding", "@group(0) @binding(1.0) var<storage> x: u32;", wgsl.Limits{}, "is not an integer", 1},
		{"duplicate", "@group(0) @binding(0) var<storage> x: u32;\n@group(0) @binding(0) var<storage> y: u32;\n@compute @workgroup_size(1) fn main() { _ = x + y; }", wgsl.Limits{}, "binding 0 (y): entry point main uses both x and y, which share @group(0) @binding(0)", 2},
		{"too-many", "@group(0) @binding(0) var<storage> x: u32;\n@group(0) @binding(1) var<storage> y: u32;\n@group(0) @binding(2) var<storage> z: u32;\n@compute @workgroup_size(1) fn main() { _ = x + y + z; }", wgsl.Limits{MaxBindings: 2}, "entry point main uses 3 buffer bindings, more than the limit of 2", 3},
		{"no-address-space", "@group(0) @binding(0) var x: f32;", wgsl.Limits{}, "var x: a binding is a buffer (var<storage> or var<uniform>), a texture or a sampler, not type f32 and no address space", 1},
		{"bool", "@group(0) @binding(0) var<storage> b: array<bool, 4>;", wgsl.Limits{}, "binding 0 (b): bool is not host-shareable", 1},
		{"bool-in-struct", "struct S { a: u32, b: bool }\n@group(0) @binding(3) var<uniform> s: S;", wgsl.Limits{}, "binding 3 (s): struct S: member b: bool is not host-shareable", 2},
		{"runtime-not-last", "struct S { a: array<u32>, b: u32 }\n@group(0) @binding(2) var<storage> x: S;", wgsl.Limits{}, "binding 2 (x): runtime-sized array must be the last member of struct S", 1},
		{"runtime-in-array", "@group(0) @binding(0) var<storage> x: array<array<u32>, 2>;", wgsl.Limits{}, "fixed size", 1},
		{"runtime-in-nested-struct", "struct I { a: array<u32> }\nstruct O { i: I, n: u32 }\n@group(0) @binding(0) var<storage> x: O;", wgsl.Limits{}, "must be the last member of struct O", 2},
		{"uniform-runtime", "@group(0) @binding(0) var<uniform> u: array<vec4f>;", wgsl.Limits{}, "binding 0 (u): runtime-sized array<vec4<f32>> is not allowed in the uniform address space", 1},
		{"uniform-stride", "@group(0) @binding(1) var<uniform> u: array<f32, 4>;", wgsl.Limits{}, "binding 1 (u): array<f32, 4> has element stride 4; the uniform address space needs a multiple of 16", 1},
		{"uniform-struct-member-align", "struct I { a: f32 }\nstruct U { x: f32, i: I }\n@group(0) @binding(0) var<uniform> u: U;", wgsl.Limits{}, "binding 0 (u): struct U: member i at offset 4 must be aligned to 16", 2},
		{"uniform-after-struct", "struct I { a: f32 }\nstruct U { @align(16) i: I, y: f32 }\n@group(0) @binding(0) var<uniform> u: U;", wgsl.Limits{}, "member y at offset 4 must start at least 16 bytes after struct member i", 2},
		{"uniform-atomic", "@group(0) @binding(0) var<uniform> u: atomic<u32>;", wgsl.Limits{}, "needs var<storage, read_write>", 1},
		{"read-atomic", "@group(0) @binding(0) var<storage, read> u: array<atomic<u32>>;", wgsl.Limits{}, "needs var<storage, read_write>", 1},
		{"bad-align", "struct S { @align(3) a: u32 }\n@group(0) @binding(0) var<storage> s: S;", wgsl.Limits{}, "not a positive power of two", 1},
		{"small-align", "struct S { @align(2) a: u32 }\n@group(0) @binding(0) var<storage> s: S;", wgsl.Limits{}, "not a multiple of the alignment 4", 1},
		{"small-size", "struct S { @size(2) a: u32 }\n@group(0) @binding(0) var<storage> s: S;", wgsl.Limits{}, "smaller than the size 4", 1},
		{"f16-no-enable", "@group(0) @binding(0) var<storage> h: f16;", wgsl.Limits{}, "enable f16", 1},
		{"unknown-type", "@group(0) @binding(0) var<storage> h: Foo;", wgsl.Limits{}, "unknown type Foo", 1},
		{"missing-group", "@binding(0) var<storage> h: u32;", wgsl.Limits{}, "needs both @group and @binding", 1},
		{"binding-on-private", "@group(0) @binding(0) var<private> h: u32;", wgsl.Limits{}, "cannot have @group or @binding", 1},
		{"bad-access", "@group(0) @binding(0) var<storage, write> h: u32;", wgsl.Limits{}, "invalid access mode", 1},
		{"uniform-access", "@group(0) @binding(0) var<uniform, read> h: u32;", wgsl.Limits{}, "takes no access mode", 1},
		{"redeclared", "const A = 1;\nconst A = 2;", wgsl.Limits{}, "A redeclared", 2},
		{"directive-late", "const A = 1;\nenable f16;", wgsl.Limits{}, "after a declaration", 2},
		{"missing-semicolon", "const A = 1\nconst B = 2;", wgsl.Limits{}, "", 0},
		{"garbage", "hello world", wgsl.Limits{}, "expected a declaration", 1},
		{"workgroup-zero", "@compute @workgroup_size(0) fn main() {}", wgsl.Limits{}, "not a positive u32", 1},
		{"compute-no-size", "@compute fn main() {}", wgsl.Limits{}, "needs @workgroup_size", 1},
		{"negate-u32", "@group(0) @binding(-(1u)) var<storage> h: u32;", wgsl.Limits{}, "cannot negate a u32", 1},
		{"mixed-types", "@group(0) @binding(1u + 1i) var<storage> h: u32;", wgsl.Limits{}, "mismatched operand types", 1},
		{"comparison", "@group(0) @binding(1 < 2) var<storage> h: u32;", wgsl.Limits{}, "not supported", 1},
		{"count-override", "override N: u32 = 4;\n@group(0) @binding(0) var<storage> h: array<u32, N>;", wgsl.Limits{}, "only workgroup arrays may be sized by an override", 2},
		{"shadow-predeclared", "alias u32 = f32;", wgsl.Limits{}, "shadows a predeclared name", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse(tc.src, tc.lim)
			if err == nil {
				t.Fatalf("Parse = %+v, want an error containing %q", m, tc.want)
			}
			var e *wgsl.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse error %v (%T) is not a *wgsl.Error", err, err)
			}
			if !strings.Contains(e.Msg, tc.want) {
				t.Errorf("Parse error = %v, want it to contain %q", err, tc.want)
			}
			if tc.line != 0 && e.Line != tc.line {
				t.Errorf("Parse error = %v, want line %d", err, tc.line)
			}
			if want := "wgsl:"; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", err.Error(), want)
			}
		})
	}
}

func constChain(n int) string {
	var b strings.Builder
	b.WriteString("@group(0) @binding(c0) var<storage> x: u32;\n")
	for i := 0; i < n; i++ {
		b.WriteString("const c" + itoa(i) + " = c" + itoa(i+1) + ";\n")
	}
	b.WriteString("const c" + itoa(n) + " = 0u;\n")
	return b.String()
}

func fnChain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("fn f" + itoa(i) + "() { f" + itoa(i+1) + "(); }\n")
	}
	b.WriteString("fn f" + itoa(n) + "() {}\n")
	return b.String()
}

// TestUnclosedBracketReportedWhereItOpens: an unclosed bracket is reported
// where it opens, not at a later bracket of the same kind nor at the
// closer of an outer one.
func TestUnclosedBracketReportedWhereItOpens(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		want      string
	}{
		{"before an if", "fn f() {\n\tlet a = (1.0 + 2.0;\n\tif (a > 1.0) {\n\t}\n}\n", 2, 10, `unclosed "("`},
		{"in a call", "fn g(x: f32) -> f32 { return x; }\nfn f() {\n\tlet a = g((1.0);\n\tif (a > 1.0) {}\n}\n", 3, 11, `unclosed "("`}, // g( is the open one,
		{"at the end", "fn f() {\n\tif (true) {}\n\tlet a = [", 3, 10, `unclosed "["`},
		{"brace at the end", "fn f() {\n\tif (true) {}\n", 1, 8, `unclosed "{"`},
		{"stray closer", "fn f() { ] }", 1, 10, `unexpected "]"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wgsl.Parse(tc.src, wgsl.DefaultLimits())
			var e *wgsl.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %v, want a *wgsl.Error", tc.src, err)
			}
			if e.Line != tc.line || e.Column != tc.col || !strings.Contains(e.Msg, tc.want) {
				t.Errorf("Parse(%q) = %v, want %d:%d: %s", tc.src, err, tc.line, tc.col, tc.want)
			}
		})
	}
}
