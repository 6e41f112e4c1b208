//go:build cgo

package wgpu_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// launchesPerOp is the number of tiny-kernel launches one benchmark op
// records and runs on one stream.
const launchesPerOp = 10000

// BenchmarkDispatch sweeps the device's own knob, the batch size
// (Options.MaxBatch), for launchesPerOp launches of a tiny kernel on one
// stream and a sync. The comparison with hand-written go-webgpu (one submit
// per dispatch, one pass) is bench.LaunchSuite's LaunchLoop, run by
// streamgate bench.
func BenchmarkDispatch(b *testing.B) {
	for _, batch := range []int{256, wgpu.DefaultMaxBatch, 4096} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			d := openTestDevice(b, wgpu.Options{MaxBatch: batch})
			ctx := context.Background()
			x := mustBuffer(b, d, 256)
			if err := d.Compile(ctx, incKernel); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := 0; j < launchesPerOp; j++ {
					if err := d.Launch(1, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
						b.Fatal(err)
					}
				}
				if err := d.Sync(ctx, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*launchesPerOp/b.Elapsed().Seconds(), "dispatches/s")
		})
	}
}

// BenchmarkCompiled is the check a discarded launch makes: lock-free, no
// allocation. Compiling cold against a cache hit is bench's Compile.
func BenchmarkCompiled(b *testing.B) {
	d := openTestDevice(b)
	if err := d.Compile(context.Background(), incKernel); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !d.Compiled(incKernel) {
			b.Fatal("not compiled")
		}
	}
}

// BenchmarkLaunchRecord is Device.Launch alone: the Go-side recording of an
// executed launch, with the flush that encodes every 1,000 launches outside
// the timer (bench's ExecutedLaunch times both, against go-webgpu).
func BenchmarkLaunchRecord(b *testing.B) {
	d := openTestDevice(b)
	ctx := context.Background()
	x := mustBuffer(b, d, 256)
	if err := d.Compile(ctx, incKernel); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.Launch(1, incKernel, [3]uint32{0, 0, 0}, x); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 999 {
			b.StopTimer()
			if err := d.Sync(ctx, 1); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
}

// BenchmarkPipelineLookup is the lookup a launch of a compiled kernel
// starts with, alone: Compile of kernels already compiled, one kernel
// (kernels=1) or three in turn (kernels=3: the pipeline changes on every
// call, as in bench's ExecutedLaunch/kernels=3).
func BenchmarkPipelineLookup(b *testing.B) {
	mul := gpu.NewKernel("mul", strings.ReplaceAll(incWGSL, "+ 1u", "* 3u"), "main")
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("kernels=%d", n), func(b *testing.B) {
			d := openTestDevice(b)
			ctx := context.Background()
			ks := []*gpu.Kernel{incKernel, addKernel, mul}[:n]
			for _, k := range ks {
				if err := d.Compile(ctx, k); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := d.Compile(ctx, ks[i%n]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
