//go:build cgo

package wgpu_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/streamgate/streamgate/wgpu"
)

// ExampleSetKernelStore keeps what a compile derives from a source in a
// directory of its own: the first process lowers the source and stores it;
// a process that starts again (here, the same store set anew: nothing in
// memory) reads it back, checked, and lowers nothing.
func ExampleSetKernelStore() {
	dir, err := os.MkdirTemp("", "kernels-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	kd, err := wgpu.OpenKernelDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer wgpu.SetKernelStore(wgpu.SetKernelStore(kd)) // the process's store, restored at the end
	const src = `@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) { x[id.x] *= 2.0; }`
	check := func() {
		before := wgpu.ReadKernelCacheStats()
		mi, err := wgpu.CheckModule(context.Background(), src, nil, wgpu.Limits{})
		if err != nil {
			log.Fatal(err)
		}
		after := wgpu.ReadKernelCacheStats()
		fmt.Printf("%s: lowered %d, read from the cache %d\n", mi.EntryPoints[0].Name, after.Misses-before.Misses, after.StoreHits-before.StoreHits)
	}
	check()
	wgpu.SetKernelStore(kd) // as a new process finds it
	check()
	// Output:
	// main: lowered 1, read from the cache 0
	// main: lowered 0, read from the cache 1
}
