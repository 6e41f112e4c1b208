//go:build cgo || (js && wasm)

package client_test

import (
	"context"
	"fmt"
	"log"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// A step captured once under a discarding process mode (the warm-up: its
// kernel compiles, nothing runs) and replayed: each replay runs the step's
// launches with one call.
func ExampleClient_Capture() {
	dev, err := wgpu.Open(wgpu.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	reg := registry.New()
	c := client.New(dev, client.WithRegistry(reg))
	defer c.Close()
	inc := gpu.NewKernel("inc", `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) id: vec3<u32>) { x[id.x] += 1u; }`, "main")
	x, err := wgpu.NewBufferFrom(dev, 0, []uint32{0, 10, 20, 30})
	if err != nil {
		log.Fatal(err)
	}
	step := func() error { // two launches
		if err := c.Launch(inc, [3]uint32{1, 1, 1}, x); err != nil {
			return err
		}
		return c.Launch(inc, [3]uint32{1, 1, 1}, x)
	}

	reg.SetProcessMode(registry.ProcessCompileAndAutotune)
	g, err := c.Capture(step)
	if err != nil {
		log.Fatal(err)
	}
	defer g.Release()
	reg.SetProcessMode(registry.ProcessExecute)
	for range 3 {
		if err := c.Replay(g); err != nil {
			log.Fatal(err)
		}
	}
	v, err := wgpu.Read[uint32](context.Background(), x, 0, 4) // submits the replays, waits, reads back
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v, c.Stats())
	// Output: [6 16 26 36] executed=6 discarded=0 compiled_now=0 queued=0 batch_compiled=0 failed=0 captured=2 replays=3 replayed_launches=6 discarded_replays=0
}
