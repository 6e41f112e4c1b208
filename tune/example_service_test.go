package tune_test

import (
	"context"
	"fmt"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
)

// A tuner picks the faster of two candidates on the in-memory service of
// package streamgatetest (timed by the wall clock there), during a warm-up
// pass: the measurements execute while the process discards. A second
// tuner on the same cache — a later run of the program — measures nothing.
func ExampleTuner_Stats() {
	reg := registry.New()
	reg.SetProcessMode(registry.ProcessCompileAndAutotune)
	svc := streamgatetest.NewService()
	c := client.New(svc, client.WithRegistry(reg))
	defer c.Close()
	k := gpu.NewKernel("k", "@compute @workgroup_size(1) fn main() {}", "main")
	candidate := func(name string, cost time.Duration) tune.Candidate {
		return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
			time.Sleep(cost) // stands in for the kernel's GPU time
			return c.Launch(k, [3]uint32{1, 1, 1})
		}}
	}
	op := tune.Op{Key: "op/64", Pure: true, Candidates: []tune.Candidate{
		candidate("slow", 2*time.Millisecond), candidate("fast", 0),
	}}
	cache := tune.NewMemoryCache()
	ctx := context.Background()

	tu := tune.New(c, tune.WithCache(cache))
	best, res, err := tu.Pick(ctx, op)
	if err != nil {
		panic(err)
	}
	fmt.Println("winner:", best.Name, "cached:", res.Cached, "stats:", tu.Stats())

	later := tune.New(c, tune.WithCache(cache))
	best, res, _ = later.Pick(ctx, op)
	fmt.Println("winner:", best.Name, "cached:", res.Cached, "stats:", later.Stats())
	// Output:
	// winner: fast cached: false stats: cache_hits=0 cache_misses=1 tuned=1 tune_errors=0
	// winner: fast cached: true stats: cache_hits=1 cache_misses=0 tuned=0 tune_errors=0
}
