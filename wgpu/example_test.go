//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// Example adds two vectors on the default adapter. CI runs it on lavapipe.
func Example() {
	d, err := wgpu.Open(wgpu.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	k := gpu.NewKernel("add", `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&c)) { c[id.x] = a[id.x] + b[id.x]; }
}`, "main")
	a, errA := d.NewBuffer(16, 0)
	b, errB := d.NewBuffer(16, 0)
	c, errC := d.NewBuffer(16, 0)
	if err := errors.Join(errA, errB, errC); err != nil {
		log.Fatal(err)
	}
	if err := errors.Join(wgpu.Write(a, 0, []float32{1, 2, 3, 4}), wgpu.Write(b, 0, []float32{10, 20, 30, 40})); err != nil {
		log.Fatal(err)
	}
	if err := d.Launch(1, k, [3]uint32{1, 1, 1}, a, b, c); err != nil {
		log.Fatal(err)
	}
	sum, err := wgpu.Read[float32](ctx, c, 0, 4) // submits stream 1's pending launches
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum)
	// Output: [11 22 33 44]
}
