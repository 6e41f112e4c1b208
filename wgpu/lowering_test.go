//go:build cgo

package wgpu_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// The two buffers every lowering kernel binds: a read-only input a and an
// output out of n elements each.
const (
	loweringU32IO = `
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
`
	loweringF32IO = `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
`
)

// loweringN is the number of elements of each buffer; every kernel's
// workgroup size divides it.
const loweringN = 1024

// loweringSentinel fills out before a launch, so an element a kernel
// leaves alone compares too.
const loweringSentinel = 0xdeadbeef

// loweringCase is one lowering rule: a kernel as a user writes it today
// and its twin in the driver's 2023 dialect (naga 0.13: every literal
// suffixed or typed, literal array and workgroup sizes, no overrides),
// which computes the same thing.
type loweringCase struct {
	name      string
	float     bool // a and out are array<f32> (else array<u32>)
	user      string
	constants map[string]float64 // the user kernel's WithConstants
	twin      string
	// lowered are strings the lowered user source contains and the user
	// source does not: the rule ran.
	lowered []string
	// gone are strings of the user source the lowered source lacks.
	gone []string
}

var loweringCases = []loweringCase{
	{
		name:  "abstract-int-to-f32-var",
		float: true,
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	var v: f32 = 0;
	var w: f32 = 3;
	v = v + a[i] * w - 1;
	out[i] = v;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	var v: f32 = 0.0;
	var w: f32 = 3.0;
	v = v + a[i] * w - 1.0;
	out[i] = v;
}`,
		lowered: []string{"0f", "3f", "1f"},
	},
	{
		name: "abstract-int-to-u32-add",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] + 10;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] + 10u;
}`,
		lowered: []string{"10u"},
	},
	{
		name: "abstract-vec3",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	let s: vec3<u32> = vec3(256, 1, 1);
	let t = vec2(3u, 5);
	out[i] = a[i] * s.x + s.y * 7 + s.z + t.x * t.y;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	let s: vec3<u32> = vec3<u32>(256u, 1u, 1u);
	let t: vec2<u32> = vec2<u32>(3u, 5u);
	out[i] = a[i] * s.x + s.y * 7u + s.z + t.x * t.y;
}`,
		lowered: []string{"vec3<u32>(256u, 1u, 1u)", "7u"},
	},
	{
		name: "compare-u32",
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	if (i < 3072 && a[i] < 3072) {
		out[i] = a[i];
	} else if (a[i] >= 6000) {
		out[i] = 6000 - a[i] % 7;
	} else {
		out[i] = 1;
	}
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	if (i < 3072u && a[i] < 3072u) {
		out[i] = a[i];
	} else if (a[i] >= 6000u) {
		out[i] = 6000u - a[i] % 7u;
	} else {
		out[i] = 1u;
	}
}`,
		lowered: []string{"3072u", "6000u", "7u"},
	},
	{
		name:  "abstract-float-f32",
		float: true,
		user: `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] * 0.5 + 1.25 - 3 * a[i] / 4 + 2e1;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] * 0.5 + 1.25 - 3.0 * a[i] / 4.0 + 20.0;
}`,
		lowered: []string{"0.5f", "1.25f", "3f", "4f"},
	},
	{
		name:  "abstract-float-const-fold",
		float: true,
		user: `
const QUARTER_PI = 3.14159265358979323846 / 4.0;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] * QUARTER_PI;
}`,
		// float32(math.Pi / 4), shortest form.
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] * 0.7853982;
}`,
		lowered: []string{"0.7853982f"},
		gone:    []string{"QUARTER_PI"},
	},
	{
		name:  "const-expr-workgroup-array",
		float: true,
		user: `
var<workgroup> tile: array<f32, 64 * 8>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) l: u32) {
	for (var k = 0u; k < 8; k++) {
		tile[l + 64 * k] = a[id.x] * f32(k);
	}
	workgroupBarrier();
	out[id.x] = tile[(l * 8 + 3) % 512] + tile[511 - l];
}`,
		twin: `
var<workgroup> tile: array<f32, 512>;
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) l: u32) {
	for (var k: u32 = 0u; k < 8u; k = k + 1u) {
		tile[l + 64u * k] = a[id.x] * f32(k);
	}
	workgroupBarrier();
	out[id.x] = tile[(l * 8u + 3u) % 512u] + tile[511u - l];
}`,
		lowered: []string{"array<f32, 512>", "64u", "8u"},
	},
	{
		name: "const-expr-private-array",
		user: `
var<private> acc: array<u32, 4 * 4>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	for (var k = 0u; k < 16; k++) {
		acc[k] = a[i] ^ (k * 3);
	}
	out[i] = acc[a[i] % 16] + acc[15 - i % 16];
}`,
		twin: `
var<private> acc: array<u32, 16>;
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	for (var k: u32 = 0u; k < 16u; k = k + 1u) {
		acc[k] = a[i] ^ (k * 3u);
	}
	out[i] = acc[a[i] % 16u] + acc[15u - i % 16u];
}`,
		lowered: []string{"array<u32, 16>", "16u", "3u"},
	},
	{
		name: "named-const-workgroup-size",
		user: `
const WG = 128;
@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	out[id.x] = a[id.x] + lid.x * 1000 + wid.x;
}`,
		twin: `
@compute @workgroup_size(128, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	out[id.x] = a[id.x] + lid.x * 1000u + wid.x;
}`,
		lowered: []string{"@workgroup_size(128, 1, 1)", "1000u"},
		gone:    []string{"@workgroup_size(WG)"},
	},
	{
		name: "const-expression-eval",
		user: `
const N = 4 * 16;
const M: u32 = N / 2 + 1;
const HALF = N / 2;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] % N + M * HALF;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] % 64u + 33u * 32u;
}`,
		lowered: []string{"64u", "1056u"},
		gone:    []string{"HALF"},
	},
	{
		name: "override-default",
		user: `
override SCALE: u32 = 3;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] * SCALE + 1;
}`,
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] * 3u + 1u;
}`,
		lowered: []string{"const SCALE: u32 = 3u", "1u"},
		gone:    []string{"override"},
	},
	{
		name:  "override-by-name",
		float: true,
		user: `
override SCALE: f32;
override BIAS: f32 = 0.25;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] * SCALE + BIAS;
}`,
		constants: map[string]float64{"SCALE": 2.5},
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] * 2.5 + 0.25;
}`,
		lowered: []string{"const SCALE: f32 = 2.5f", "const BIAS: f32 = 0.25f"},
		gone:    []string{"override"},
	},
	{
		name: "override-by-id",
		user: `
@id(7) override BIAS: u32 = 1;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] + BIAS;
}`,
		constants: map[string]float64{"7": 42},
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] + 42u;
}`,
		lowered: []string{"const BIAS: u32 = 42u"},
		gone:    []string{"override", "@id"},
	},
	{
		name: "override-untyped-i32",
		user: `
override K = 5;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	out[i] = a[i] + u32(K * 2);
}`,
		constants: map[string]float64{"K": 9},
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = a[i] + u32(9 * 2);
}`,
		lowered: []string{"const K: i32 = 9i", "18u"},
		gone:    []string{"override"},
	},
	{
		name: "override-bool",
		user: `
override FLIP: bool = false;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	if (FLIP) {
		out[i] = ~a[i];
	} else {
		out[i] = a[i];
	}
}`,
		constants: map[string]float64{"FLIP": 1},
		twin: `
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i: u32 = id.x;
	out[i] = ~a[i];
}`,
		lowered: []string{"const FLIP: bool = true"},
		gone:    []string{"override"},
	},
	{
		name: "override-workgroup-size-and-array",
		user: `
override WG: u32 = 64;
var<workgroup> buf: array<u32, WG>;
@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) l: u32) {
	buf[l] = a[id.x];
	workgroupBarrier();
	out[id.x] = buf[WG - 1 - l] + buf[0] * 2;
}`,
		constants: map[string]float64{"WG": 128},
		twin: `
var<workgroup> buf: array<u32, 128>;
@compute @workgroup_size(128, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) l: u32) {
	buf[l] = a[id.x];
	workgroupBarrier();
	out[id.x] = buf[128u - 1u - l] + buf[0] * 2u;
}`,
		lowered: []string{"array<u32, 128>", "@workgroup_size(128, 1, 1)", "127u"},
		gone:    []string{"override", "@workgroup_size(WG)"},
	},
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

// loweringInput is the deterministic input: u32s in [0, 8192), or for f32
// kernels the same numbers shifted and divided by 8 (so sums and products
// stay exact), as bits.
func loweringInput(float bool) []uint32 {
	v := make([]uint32, loweringN)
	for i := range v {
		x := uint32(i) * 2654435761 >> 19
		if float {
			f := float32(int32(x)-4096) / 8
			v[i] = math.Float32bits(f)
		} else {
			v[i] = x
		}
	}
	return v
}

// TestLowering checks that the lowering never changes what a kernel
// computes: each kernel as a user writes it today and its hand-written
// twin in the driver's 2023 dialect compile, run on the same input and
// give bitwise-equal outputs, and the lowered user source shows the rule
// ran.
func TestLowering(t *testing.T) {
	d := openTestDevice(t)
	for _, tc := range loweringCases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			io := loweringU32IO
			if tc.float {
				io = loweringF32IO
			}
			user := gpu.NewKernel(tc.name, io+tc.user, "main").WithConstants(tc.constants)
			twin := gpu.NewKernel(tc.name+"-twin", io+tc.twin, "main")

			ui, err := wgpu.CheckKernel(ctx, user, d.Limits())
			if err != nil {
				t.Fatalf("CheckKernel(user) = %v", err)
			}
			for _, s := range tc.lowered {
				if strings.Contains(user.Source(), s) {
					t.Errorf("test bug: user source already contains %q", s)
				}
				if !strings.Contains(ui.Lowered, s) {
					t.Errorf("Lowered lacks %q: the rule did not run; Lowered:\n%s", s, ui.Lowered)
				}
			}
			for _, s := range tc.gone {
				if !strings.Contains(user.Source(), s) {
					t.Errorf("test bug: user source lacks %q", s)
				}
				if strings.Contains(ui.Lowered, s) {
					t.Errorf("Lowered still contains %q; Lowered:\n%s", s, ui.Lowered)
				}
			}
			ti, err := wgpu.CheckKernel(ctx, twin, d.Limits())
			if err != nil {
				t.Fatalf("CheckKernel(twin) = %v", err)
			}
			if ui.WorkgroupSize != ti.WorkgroupSize {
				t.Errorf("WorkgroupSize = %v, twin's %v", ui.WorkgroupSize, ti.WorkgroupSize)
			}
			if err := d.Compile(ctx, twin); err != nil {
				t.Fatalf("Compile(twin) = %v", err)
			}
			if err := d.Compile(ctx, user); err != nil {
				t.Fatalf("Compile(user) = %v\nLowered:\n%s", err, ui.Lowered)
			}
			want := runLoweringKernel(ctx, t, d, twin, ti.WorkgroupSize, tc.float)
			got := runLoweringKernel(ctx, t, d, user, ui.WorkgroupSize, tc.float)
			touched := false
			for _, w := range want {
				touched = touched || w != loweringSentinel
			}
			if !touched {
				t.Fatalf("twin wrote no element of out")
			}
			bad := 0
			for i := range want {
				if got[i] != want[i] {
					if bad < 5 {
						t.Errorf("out[%d] = %#08x, want %#08x (twin's)", i, got[i], want[i])
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d elements differ; Lowered:\n%s", bad, len(want), ui.Lowered)
			}
		})
	}
}

// runLoweringKernel launches k over loweringN invocations on the
// deterministic input and returns out, as bits.
func runLoweringKernel(ctx context.Context, t *testing.T, d *wgpu.Device, k *gpu.Kernel, wg [3]uint32, float bool) []uint32 {
	t.Helper()
	if wg[0] == 0 || loweringN%wg[0] != 0 || wg[1] != 1 || wg[2] != 1 {
		t.Fatalf("%s: workgroup size %v does not tile %d invocations", k, wg, loweringN)
	}
	a := mustBuffer(t, d, 4*loweringN)
	defer a.Release()
	out := mustBuffer(t, d, 4*loweringN)
	defer out.Release()
	if err := wgpu.Write(a, 0, loweringInput(float)); err != nil {
		t.Fatalf("Write(a) = %v", err)
	}
	fill := make([]uint32, loweringN)
	for i := range fill {
		fill[i] = loweringSentinel
	}
	if err := wgpu.Write(out, 0, fill); err != nil {
		t.Fatalf("Write(out) = %v", err)
	}
	stream := gpu.NewStreamID()
	if err := d.Launch(stream, k, [3]uint32{loweringN / wg[0], 1, 1}, a, out); err != nil {
		t.Fatalf("Launch(%s) = %v", k, err)
	}
	if err := d.Sync(ctx, stream); err != nil {
		t.Fatalf("Sync after %s = %v", k, err)
	}
	v, err := wgpu.Read[uint32](ctx, out, 0, int(out.Size()/4))
	if err != nil {
		t.Fatalf("Read after %s = %v", k, err)
	}
	return v
}

// TestLoweringOverrideErrors checks that Compile and CheckKernel refuse
// override constants that cannot be bound, naming the override or the
// constant.
func TestLoweringOverrideErrors(t *testing.T) {
	d := openTestDevice(t)
	const src = loweringU32IO + `
override SCALE_NODEFAULT: u32;
@id(3) override BIAS_DEFAULTED: u32 = 1;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	out[id.x] = a[id.x] * SCALE_NODEFAULT + BIAS_DEFAULTED;
}`
	tests := []struct {
		name      string
		constants map[string]float64
		want      []string // in the error
	}{
		{"no-default-no-value", nil, []string{"SCALE_NODEFAULT"}},
		{"no-default-other-given", map[string]float64{"BIAS_DEFAULTED": 2}, []string{"SCALE_NODEFAULT"}},
		{"unknown-name", map[string]float64{"SCALE_NODEFAULT": 2, "NO_SUCH_OVERRIDE": 1}, []string{"NO_SUCH_OVERRIDE"}},
		{"unknown-id", map[string]float64{"SCALE_NODEFAULT": 2, "99": 1}, []string{"99"}},
		{"u32-fraction", map[string]float64{"SCALE_NODEFAULT": 1.5}, []string{"SCALE_NODEFAULT", "1.5"}},
		{"u32-negative", map[string]float64{"SCALE_NODEFAULT": -1}, []string{"SCALE_NODEFAULT", "-1"}},
		{"u32-by-id-negative", map[string]float64{"SCALE_NODEFAULT": 2, "3": -1}, []string{"BIAS_DEFAULTED", "-1"}},
		{"name-and-id", map[string]float64{"SCALE_NODEFAULT": 2, "BIAS_DEFAULTED": 1, "3": 1}, []string{"BIAS_DEFAULTED"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			k := gpu.NewKernel(tc.name, src, "main").WithConstants(tc.constants)
			check := func(op string, err error) {
				t.Helper()
				if err == nil {
					t.Fatalf("%s(%v) = nil, want an error naming %q", op, tc.constants, tc.want)
				}
				if e := asError(t, err); e.Type != wgpu.ErrorTypeValidation {
					t.Errorf("%s(%v) = %v, type %v, want %v", op, tc.constants, err, e.Type, wgpu.ErrorTypeValidation)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s(%v) = %v, want it to name %q", op, tc.constants, err, w)
					}
				}
			}
			_, err := wgpu.CheckKernel(ctx, k, d.Limits())
			check("CheckKernel", err)
			check("Compile", d.Compile(ctx, k))
			if d.Compiled(k) {
				t.Errorf("Compiled = true after a refused compile")
			}
		})
	}
	// The same module with good values compiles: the errors above are the
	// constants' fault.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	good := gpu.NewKernel("good", src, "main").WithConstants(map[string]float64{"SCALE_NODEFAULT": 2, "3": 5})
	if err := d.Compile(ctx, good); err != nil {
		t.Fatalf("Compile(%v) = %v", good.Constants(), err)
	}
}
