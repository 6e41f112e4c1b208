//go:build cgo

package wgpu_test

// loweringStatementCases are TestLowering's rules inside statements and
// expressions: switch cases, builtins with mixed arguments, shifts, array
// and matrix indexing, function arguments and loops.
var loweringStatementCases = []loweringCase{
	{
		name: "switch-case-u32",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	switch a[i] % 5 {
		case 1: {
			out[i] = 100;
		}
		case 2, 3: {
			out[i] = a[i] * 2;
		}
		default: {
			out[i] = 7;
		}
	}
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	switch (a[i] % 5u) {
		case 1u: {
			out[i] = 100u;
		}
		case 2u, 3u: {
			out[i] = a[i] * 2u;
		}
		default: {
			out[i] = 7u;
		}
	}
}`,
		lowered: []string{"case 1u", "case 2u, 3u", "100u"},
	},
	{
		name: "mixed-abstract-builtins-u32",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = select(0, a[i], a[i] > 5) + min(a[i], 100) + max(3, a[i] / 2) + clamp(a[i], 10, 20);
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = select(0u, a[i], a[i] > 5u) + min(a[i], 100u) + max(3u, a[i] / 2u) + clamp(a[i], 10u, 20u);
}`,
		lowered: []string{"select(0u", "100u", "20u"},
	},
	{
		name:  "mixed-abstract-builtins-f32",
		float: true,
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	let x = a[i];
	out[i] = min(x, 1) + max(0, x) + clamp(x, -1, 1) + select(0.5, x, x > 0) + abs(-2) * x;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	let x: f32 = a[i];
	out[i] = min(x, 1.0) + max(0.0, x) + clamp(x, -1.0, 1.0) + select(0.5, x, x > 0.0) + 2.0 * x;
}`,
		lowered: []string{"1f", "0f", "0.5f", "2f"},
	},
	{
		name: "bitwise-shift-hex",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = ((a[i] << 3) | 1) ^ ((a[i] & 0xff) + (a[i] >> 2));
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = ((a[i] << 3u) | 1u) ^ ((a[i] & 0xffu) + (a[i] >> 2u));
}`,
		lowered: []string{"3u", "1u", "2u"},
	},
	{
		name: "const-array-dynamic-index",
		user: `
const LUT = array(1, 2, 4, 8, 16, 32, 64, 128);
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] * u32(LUT[a[i] % 8]);
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	var lut: array<u32, 8> = array<u32, 8>(1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u);
	out[i] = a[i] * lut[a[i] % 8u];
}`,
		lowered: []string{"8u"},
		gone:    []string{"LUT"},
	},
	{
		name: "abstract-fn-args",
		user: `
fn scale(x: u32, k: u32) -> u32 {
	return x * k + 1;
}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = scale(a[i], 3) + scale(5, a[i]);
}`,
		twin: `
fn scale(x: u32, k: u32) -> u32 {
	return x * k + 1u;
}
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = scale(a[i], 3u) + scale(5u, a[i]);
}`,
		lowered: []string{"1u", "3u)", "(5u,"},
	},
	{
		name:  "abstract-const-two-types",
		float: true,
		user: `
const C = 3;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] * C + f32(i % C);
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] * 3.0 + f32(i % 3u);
}`,
		lowered: []string{"3f", "3u"},
		gone:    []string{"const C"},
	},
	{
		name: "let-array-dynamic-index",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	let lut = array<u32, 4>(1, 2, 4, 8);
	out[i] = a[i] * lut[a[i] % 4];
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	var lut: array<u32, 4> = array<u32, 4>(1u, 2u, 4u, 8u);
	out[i] = a[i] * lut[a[i] % 4u];
}`,
		lowered: []string{"(1u, 2u, 4u, 8u)", "% 4u"},
	},
	{
		name:  "let-matrix-dynamic-index",
		float: true,
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	let m = mat2x2(1, 2, 3, 4.5);
	out[i] = a[i] * m[i % 2].y;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	var m: mat2x2<f32> = mat2x2<f32>(1.0, 2.0, 3.0, 4.5);
	out[i] = a[i] * m[i % 2u].y;
}`,
		lowered: []string{"mat2x2<f32>(", "4.5f", "% 2u"},
	},
	{
		name: "i32-abstract",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	var s: i32 = -5;
	out[i] = bitcast<u32>(i32(a[i]) * s - 7);
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	var s: i32 = -5;
	out[i] = bitcast<u32>(i32(a[i]) * s - 7);
}`,
		lowered: []string{"-5i", "7i"},
	},
	{
		name: "loop-increment",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	var acc = 0u;
	for (var k = 0u; k < 8; k++) {
		acc += a[i] >> k;
	}
	out[i] = acc;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	var acc: u32 = 0u;
	for (var k: u32 = 0u; k < 8u; k = k + 1u) {
		acc = acc + (a[i] >> k);
	}
	out[i] = acc;
}`,
		lowered: []string{"8u"},
	},
}
