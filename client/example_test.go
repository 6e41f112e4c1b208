//go:build cgo

package client_test

import (
	"context"
	"log"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// Example is the README's usage: a warm-up pass that compiles every kernel
// and executes nothing, then the real step, and a measurement that executes
// while the process discards. (No Output: CPU-only CI does not run GPU
// examples; the package's tests run the same calls on lavapipe.)
func Example() {
	dev, err := wgpu.Open(wgpu.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	c := client.New(dev) // its own stream on dev, gated by registry.Default
	buf, _ := dev.NewBuffer(4, 0)
	count := client.NewKernel("count", `
@group(0) @binding(0) var<storage, read_write> n: array<atomic<u32>>;
@compute @workgroup_size(1) fn main() { atomicAdd(&n[0], 1u); }`, "main")
	step := func() error { return c.Launch(count, [3]uint32{1, 1, 1}, buf) }

	registry.Default.SetProcessMode(registry.ProcessCompileAndAutotune)
	_ = step() // warm-up: discarded, the kernel compiles
	m := c.Measure()
	_ = step() // a measurement: this client's stream executes
	m.Release()
	registry.Default.SetProcessMode(registry.ProcessExecute)
	_ = step() // the real step: no compile stall
	if err := c.Sync(context.Background()); err != nil {
		log.Fatal(err)
	}
}
