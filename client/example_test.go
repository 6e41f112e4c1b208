//go:build cgo || (js && wasm)

package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// Example is the README's example: the body of its "## Example" block (a
// test in readme_test.go keeps the two equal). A buffer created from data,
// a warm-up pass that compiles the kernel and executes nothing, the real
// step, and the result read back. CI runs it on lavapipe.
func Example() {
	dev, err := wgpu.Open(wgpu.Options{}) // one device = one service
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()    // releases its buffers too
	c := client.New(dev) // its own stream, gated by registry.Default
	defer c.Close()
	double := gpu.NewKernel("double", `@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id: vec3<u32>) { x[id.x] *= 2.0; }`, "main")
	x, err := wgpu.NewBufferFrom(dev, 0, []float32{1, 2, 3, 4}) // 0: storage, upload and read-back
	if err != nil {
		log.Fatal(err)
	}
	registry.Default.SetProcessMode(registry.ProcessCompileAndAutotune)
	err = c.Launch(double, [3]uint32{1, 1, 1}, x) // warm-up: discarded, the kernel compiles
	registry.Default.SetProcessMode(registry.ProcessExecute)
	err = errors.Join(err, c.Launch(double, [3]uint32{1, 1, 1}, x)) // the real step: no compile stall
	v, errRead := wgpu.Read[float32](context.Background(), x, 0, 4) // submits the launch, waits, reads back
	if err := errors.Join(err, errRead); err != nil {
		log.Fatal(err)
	}
	fmt.Println(v, "pipelines compiled:", dev.Stats().Compiles)
	// Output: [2 4 6 8] pipelines compiled: 1
}
