//go:build cgo

// Desktop only: wgpu-native's report of live objects.

package wgpu_test

import (
	"context"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestLeakReport runs a workload, closes the device and reads
// wgpu-native's own object report: nothing of ours may be left alive.
func TestLeakReport(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x, y, z := mustBuffer(t, d, 256), mustBuffer(t, d, 256), mustBuffer(t, d, 256)
	for i := 0; i < 20; i++ {
		if err := d.Launch(1, addKernel, [3]uint32{1, 1, 1}, x, y, z); err != nil {
			t.Fatal(err)
		}
		if err := d.Launch(2, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
	}
	d.Launch(1, gpu.NewKernel("bad", "fn(", "main"), [3]uint32{1, 1, 1}) // a failed compile
	if _, err := wgpu.Read[byte](ctx, z, 0, int(z.Size())); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if d.HasTimestamps() {
		if _, err := d.TimeStream(ctx, 1, func() error {
			return d.Launch(1, incKernel, [3]uint32{1, 1, 1}, y)
		}); err != nil {
			t.Fatal(err)
		}
	}
	y.Release()
	d.Launch(3, incKernel, [3]uint32{1, 1, 1}, z) // left pending at Close

	live := wgpu.Report(d)
	if live.ComputePipelines.Occupied == 0 || live.Buffers.Occupied == 0 || live.BindGroups.Occupied == 0 {
		t.Fatalf("report during the workload shows no live objects: %+v (is the C struct read right?)", live)
	}
	r, err := wgpu.CloseWithReport(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		n    uint64
	}{
		{"ComputePipelines", r.ComputePipelines.Occupied},
		{"PipelineLayouts", r.PipelineLayouts.Occupied},
		{"BindGroupLayouts", r.BindGroupLayouts.Occupied},
		{"BindGroups", r.BindGroups.Occupied},
		{"ShaderModules", r.ShaderModules.Occupied},
		{"Buffers", r.Buffers.Occupied},
		{"CommandBuffers", r.CommandBuffers.Occupied},
		{"QuerySets", r.QuerySets.Occupied},
	} {
		if c.n != 0 {
			t.Errorf("after Close: %d live %s, want 0", c.n, c.name)
		}
	}
}
