//go:build cgo

package wgpu_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// loweringOverrideCases are TestLowering's rules for override constants:
// defaults, values by name and by id, and overrides sizing workgroups and
// arrays.
var loweringOverrideCases = []loweringCase{
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
