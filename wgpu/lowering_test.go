//go:build cgo

package wgpu_test

import (
	"context"
	"math"
	"slices"
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

// loweringCases are every rule's cases, in the order they run: abstract
// literals and constant expressions (below), overrides
// (lowering_overrides_test.go), then statements and expressions
// (lowering_statements_test.go).
var loweringCases = slices.Concat(loweringLiteralCases, loweringOverrideCases, loweringStatementCases)

// loweringLiteralCases are the rules for abstract literals and constant
// expressions.
var loweringLiteralCases = []loweringCase{
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
