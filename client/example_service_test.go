package client_test

import (
	"context"
	"fmt"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

// A warm-up pass, then the real steps, on the in-memory service of package
// streamgatetest: the warm-up discards the step's launches and compiles its
// kernel once; the real steps execute and compile nothing.
func ExampleClient_Stats() {
	reg := registry.New()
	svc := streamgatetest.NewService()
	c := client.New(svc, client.WithRegistry(reg))
	defer c.Close()
	k := gpu.NewKernel("scale", "@compute @workgroup_size(64) fn main() {}", "main")
	buf := svc.NewBuffer(1024)
	step := func() error { return c.Launch(k, [3]uint32{4, 1, 1}, buf) }
	ctx := context.Background()

	reg.SetProcessMode(registry.ProcessCompile)
	_ = step() // discarded; the kernel is queued
	_ = step() // discarded; queued already
	_ = c.Sync(ctx)
	fmt.Println("warm-up:", c.Stats())

	reg.SetProcessMode(registry.ProcessExecute)
	for range 3 {
		_ = step()
	}
	_ = c.Sync(ctx)
	fmt.Println("real:   ", c.Stats())
	fmt.Println("compiles of scale:", svc.Compiles("scale"), "executed:", svc.Executed("scale"))
	// Output:
	// warm-up: executed=0 discarded=2 compiled_now=0 queued=1 batch_compiled=1 failed=0
	// real:    executed=3 discarded=2 compiled_now=0 queued=1 batch_compiled=1 failed=0
	// compiles of scale: 1 executed: 3
}
