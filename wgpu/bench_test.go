//go:build cgo

package wgpu_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"

	"github.com/streamgate/streamgate/client"
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
			for j := 0; j < launchesPerOp; j++ {
				enc, err := r.dev.CreateCommandEncoder(nil)
				if err != nil {
					b.Fatal(err)
				}
				pass := enc.BeginComputePass(nil)
				pass.SetPipeline(r.pipe)
				pass.SetBindGroup(0, r.bg, nil)
				pass.DispatchWorkgroups(1, 1, 1)
				if err := pass.End(); err != nil {
					b.Fatal(err)
				}
				pass.Release()
				cmd, err := enc.Finish(nil)
				if err != nil {
					b.Fatal(err)
				}
				r.queue.Submit(cmd)
				cmd.Release()
				enc.Release()
			}
			r.dev.Poll(true, nil)
		}
		reportDispatches(b)
	})
	b.Run("impl=raw-one-pass", func(b *testing.B) {
		r := newRawDevice(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			enc, err := r.dev.CreateCommandEncoder(nil)
			if err != nil {
				b.Fatal(err)
			}
			pass := enc.BeginComputePass(nil)
			pass.SetPipeline(r.pipe)
			pass.SetBindGroup(0, r.bg, nil)
			for j := 0; j < launchesPerOp; j++ {
				pass.DispatchWorkgroups(1, 1, 1)
			}
			if err := pass.End(); err != nil {
				b.Fatal(err)
			}
			pass.Release()
			cmd, err := enc.Finish(nil)
			if err != nil {
				b.Fatal(err)
			}
			r.queue.Submit(cmd)
			cmd.Release()
			enc.Release()
			r.dev.Poll(true, nil)
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

// rawDevice is go-webgpu used by hand, as a user without this package
// would: one device, the inc kernel with an explicit layout, one buffer.
type rawDevice struct {
	inst    *gowgpu.Instance
	adapter *gowgpu.Adapter
	dev     *gowgpu.Device
	queue   *gowgpu.Queue
	pipe    *gowgpu.ComputePipeline
	bg      *gowgpu.BindGroup
}

func newRawDevice(b *testing.B) *rawDevice {
	b.Helper()
	openTestDevice(b) // skip or fail the same way when there is no adapter
	r := &rawDevice{inst: gowgpu.CreateInstance(&gowgpu.InstanceDescriptor{Backends: gowgpu.InstanceBackend_Primary})}
	var err error
	if r.adapter, err = r.inst.RequestAdapter(nil); err != nil {
		b.Fatal(err)
	}
	if r.dev, err = r.adapter.RequestDevice(nil); err != nil {
		b.Fatal(err)
	}
	r.queue = r.dev.GetQueue()
	mod, err := r.dev.CreateShaderModule(&gowgpu.ShaderModuleDescriptor{WGSLDescriptor: &gowgpu.ShaderModuleWGSLDescriptor{Code: incWGSL}})
	if err != nil {
		b.Fatal(err)
	}
	defer mod.Release()
	bgl, err := r.dev.CreateBindGroupLayout(&gowgpu.BindGroupLayoutDescriptor{Entries: []gowgpu.BindGroupLayoutEntry{{
		Binding: 0, Visibility: gowgpu.ShaderStage_Compute,
		Buffer: gowgpu.BufferBindingLayout{Type: gowgpu.BufferBindingType_Storage},
	}}})
	if err != nil {
		b.Fatal(err)
	}
	defer bgl.Release()
	pl, err := r.dev.CreatePipelineLayout(&gowgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*gowgpu.BindGroupLayout{bgl}})
	if err != nil {
		b.Fatal(err)
	}
	defer pl.Release()
	if r.pipe, err = r.dev.CreateComputePipeline(&gowgpu.ComputePipelineDescriptor{
		Layout: pl, Compute: gowgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: "main"},
	}); err != nil {
		b.Fatal(err)
	}
	buf, err := r.dev.CreateBuffer(&gowgpu.BufferDescriptor{Size: 256, Usage: gowgpu.BufferUsage_Storage})
	if err != nil {
		b.Fatal(err)
	}
	defer buf.Release() // the bind group keeps it alive
	if r.bg, err = r.dev.CreateBindGroup(&gowgpu.BindGroupDescriptor{Layout: bgl, Entries: []gowgpu.BindGroupEntry{{
		Binding: 0, Buffer: buf, Size: 256,
	}}}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		r.dev.Poll(true, nil)
		r.bg.Release()
		r.pipe.Release()
		r.queue.Release()
		r.dev.Release()
		r.adapter.Release()
		r.inst.Release()
	})
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
