//go:build cgo

package wgpu_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/rawwgpu"
	"github.com/streamgate/streamgate/wgpu"
)

// launchesPerOp is the number of tiny-kernel launches one benchmark op
// records and runs on one stream.
const launchesPerOp = 10000

// BenchmarkDispatch compares, for launchesPerOp launches of a tiny kernel:
// this package's batched stream (impl=streamgate), raw go-webgpu with one
// encoder and one submit per dispatch (impl=raw-submit-each), and raw
// go-webgpu with every dispatch in one pass and one submit
// (impl=raw-one-pass, the floor of the binding). Each op ends when the GPU
// has run all launches.
func BenchmarkDispatch(b *testing.B) {
	for _, batch := range benchBatches {
		b.Run(fmt.Sprintf("impl=streamgate/batch=%d", batch), func(b *testing.B) {
			benchStreamgate(b, wgpu.Options{MaxBatch: batch})
		})
	}
	b.Run("impl=raw-submit-each", func(b *testing.B) {
		r := newRawDevice(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := r.SubmitEach(launchesPerOp, [3]uint32{1, 1, 1}); err != nil {
				b.Fatal(err)
			}
		}
		reportDispatches(b)
	})
	b.Run("impl=raw-one-pass", func(b *testing.B) {
		r := newRawDevice(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := r.OnePass(launchesPerOp, [3]uint32{1, 1, 1}); err != nil {
				b.Fatal(err)
			}
		}
		reportDispatches(b)
	})
}

var benchBatches = []int{256, 1024, 4096} // 1024 is DefaultMaxBatch

func benchStreamgate(b *testing.B, opts wgpu.Options) {
	d := openTestDevice(b, opts)
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
	reportDispatches(b)
}

func reportDispatches(b *testing.B) {
	b.ReportMetric(float64(b.N)*launchesPerOp/b.Elapsed().Seconds(), "dispatches/s")
}

// newRawDevice opens go-webgpu by hand, as a user without this package
// would, with the inc kernel bound to one buffer.
func newRawDevice(b *testing.B) *rawwgpu.Device {
	b.Helper()
	openTestDevice(b) // skip or fail the same way when there is no adapter
	r, err := rawwgpu.Open(incWGSL, 256)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(r.Release)
	return r
}

// BenchmarkCompile compares compiling a new kernel (impl=cold) with asking
// for one already compiled (impl=cached).
func BenchmarkCompile(b *testing.B) {
	ctx := context.Background()
	b.Run("impl=cold", func(b *testing.B) {
		d := openTestDevice(b)
		ks := make([]*client.Kernel, b.N)
		for i := range ks {
			ks[i] = client.NewKernel("cold", strings.Replace(incWGSL, "1u;", fmt.Sprintf("%du;", i+1), 1), "main")
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := d.Compile(ctx, ks[i]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=cached", func(b *testing.B) {
		d := openTestDevice(b)
		if err := d.Compile(ctx, incKernel); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := d.Compile(ctx, incKernel); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=compiled-check", func(b *testing.B) {
		d := openTestDevice(b)
		if err := d.Compile(ctx, incKernel); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if !d.Compiled(incKernel) {
				b.Fatal("not compiled")
			}
		}
	})
}
