//go:build cgo

package wgpu_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// A device with a logger of its own, and what it holds after one launch.
// The driver's own log goes to slog too (wgpu.SetLogger); by default
// warnings and errors go to slog.Default().
func ExampleDevice_Stats() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, err := wgpu.Open(wgpu.Options{Logger: logger})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	k := gpu.NewKernel("fill", `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id: vec3<u32>) { x[id.x] = id.x * 10u; }`, "main")
	x, err := d.NewBuffer(16, 0)
	if err != nil {
		log.Fatal(err)
	}
	if err := d.Launch(gpu.NewStreamID(), k, [3]uint32{1, 1, 1}, x); err != nil {
		log.Fatal(err)
	}
	got, err := wgpu.Read[uint32](context.Background(), x, 0, int(x.Size()/4))
	if err != nil {
		log.Fatal(err)
	}
	c := d.Stats()
	fmt.Println(got)
	fmt.Printf("compiles=%d pipelines=%d buffers=%d streams=%d\n", c.Compiles, c.PipelinesCached, c.BuffersLive, c.StreamsLive)
	// Output:
	// [0 10 20 30]
	// compiles=1 pipelines=1 buffers=1 streams=1
}
