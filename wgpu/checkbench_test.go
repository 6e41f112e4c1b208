package wgpu_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

// BenchmarkCheckModule times a first CheckModule of a source never seen
// (a fresh unused const each round defeats the result cache; a comment
// would not when overrides are bound, since the bound tree is printed
// without comments): the front-end,
// naga 30 and the passes for the driver. case=matmul is a kernel of the
// command; case=largest is the largest corpus module that lowers;
// case=value-index is one that the value-index pass rewrites;
// case=overrides binds three overrides, one of them a new value each round
// (the bound module is what naga sees: a comment would not reach it).
func BenchmarkCheckModule(b *testing.B) {
	read := func(path string) string {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return string(src)
	}
	cases := []struct{ name, src string }{
		{"matmul", read("../internal/workload/kernels/matmul_tiled.wgsl")},
		{"largest", read("testdata/corpus/sort/gausplat__transform_backward__kernel.wgsl")},
		{"value-index", `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn pick(v: array<u32, 4>, i: u32) -> u32 { return v[i]; }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let lut = array<u32, 4>(1, 2, 4, out[0]);
	out[id.x] = lut[id.x % 4] + pick(lut, id.x % 4) + array(1u, 2u, 3u)[id.x % 3];
}`},
	}
	const overrides = `@id(1) override WG: u32 = 64u;
override scale: f32 = 1.0;
override bias = 0.0;
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
var<workgroup> tile: array<f32, WG>;
@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
	// scale, then shift
	tile[li] = x[id.x] * scale;
	workgroupBarrier();
	y[id.x] = tile[(li + 1u) % WG] + bias;
}`
	ctx := context.Background()
	lim := wgpu.Limits{MaxStorageBuffersPerShaderStage: 32} // the largest has 19
	round := 0
	for _, c := range cases {
		if _, err := wgpu.CheckModule(ctx, c.src, nil, lim); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		b.Run("case="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				round++
				if _, err := wgpu.CheckModule(ctx, fmt.Sprintf("%s\nconst sg_round_%d = 0;\n", c.src, round), nil, lim); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("case=overrides", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			round++
			if _, err := wgpu.CheckModule(ctx, overrides, map[string]float64{"1": 128, "scale": 2, "bias": float64(round)}, lim); err != nil {
				b.Fatal(err)
			}
		}
	})
}
