package naga_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

const benchSource = `const WG = 64;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<f32, WG * 2>;
@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  var v: f32 = 0;
  for (var i = 0u; i < 3072; i++) { v += 1; }
  switch id.x { case 1: { v = 3; } default: {} }
  out[id.x] = v + tile[0];
}
`

// BenchmarkLower measures the three costs of Lower:
//
//   - case=cold-start: the sandbox's start (compile and first instance) in
//     a fresh state, with compcache=off (no compilation cache),
//     compcache=empty (a cache directory that fills on this start) and
//     compcache=warm (a cache directory that already holds the module, as
//     for a process after the first);
//   - case=first: a source never seen before, on a started sandbox;
//   - case=cached: a repeated source.
func BenchmarkLower(b *testing.B) {
	ctx := context.Background()
	b.Run("case=cold-start", func(b *testing.B) {
		for _, cc := range []string{"off", "empty", "warm"} {
			b.Run("compcache="+cc, func(b *testing.B) {
				base := b.TempDir()
				defer naga.SetCacheDir("")() // restores the default at the end
				if cc == "warm" {
					naga.SetCacheDir(base + "/warm")
					if err := naga.ResetSandbox(); err != nil {
						b.Fatal(err)
					}
					if err := naga.Start(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					if cc == "empty" {
						naga.SetCacheDir(fmt.Sprintf("%s/empty%d", base, i))
					}
					if err := naga.ResetSandbox(); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if err := naga.Start(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				naga.ResetSandbox()
			})
		}
	})
	b.Run("case=first", func(b *testing.B) {
		if err := naga.Start(ctx); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			// A new name makes a source never seen before.
			src := strings.Replace(benchSource, "fn main", fmt.Sprintf("fn main%d", i), 1)
			if _, err := naga.Lower(ctx, src); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
	b.Run("case=cached", func(b *testing.B) {
		if _, err := naga.Lower(ctx, benchSource); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := naga.Lower(ctx, benchSource); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
}
