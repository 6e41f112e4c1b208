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

// Example is the README's usage, the body of its main function (a test in
// readme_test.go keeps the two equal): buffers created and uploaded, a
// warm-up pass that compiles the kernel and executes nothing, a measurement
// that executes while the process discards, the real step, and the result
// read back. CI runs it on lavapipe.
func Example() {
	dev, err := wgpu.Open(wgpu.Options{}) // one device = one service
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()    // releases its buffers too
	c := client.New(dev) // its own stream, gated by registry.Default
	defer c.Close()

	add := gpu.NewKernel("add", `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&out)) { out[id.x] = a[id.x] + b[id.x]; }
}`, "main")
	const n = 4
	a, errA := dev.NewBuffer(4*n, 0) // 0: storage, upload and read-back
	b, errB := dev.NewBuffer(4*n, 0)
	out, errOut := dev.NewBuffer(4*n, 0)
	if err := errors.Join(errA, errB, errOut); err != nil {
		log.Fatal(err)
	}
	if err := errors.Join(wgpu.Write(a, 0, []float32{1, 2, 3, 4}), wgpu.Write(b, 0, []float32{10, 20, 30, 40})); err != nil {
		log.Fatal(err)
	}
	step := func() error { return c.Launch(add, [3]uint32{(n + 63) / 64, 1, 1}, a, b, out) }

	registry.Default.SetProcessMode(registry.ProcessCompileAndAutotune)
	if err := step(); err != nil { // warm-up: discarded, the kernel compiles
		log.Fatal(err)
	}
	m := c.Measure() // autotune: this client's stream executes meanwhile
	err = step()
	m.Release()
	if err != nil {
		log.Fatal(err)
	}
	registry.Default.SetProcessMode(registry.ProcessExecute)
	if err := step(); err != nil { // the real step: no compile stall
		log.Fatal(err)
	}
	sum, err := wgpu.Read[float32](context.Background(), out, 0, n) // submits the launches, waits, reads back
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum, "pipelines compiled:", dev.Stats().Compiles)
	// Output: [11 22 33 44] pipelines compiled: 1
}
