//go:build cgo || (js && wasm)

package client_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// counterWGSL adds 1 to count[0] once per executed launch of one workgroup:
// the number of executed launches is readable from the device.
const counterWGSL = `
@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;

@compute @workgroup_size(1)
fn main() {
	atomicAdd(&count[0], 1u);
}
`

var counter = gpu.NewKernel("counter", counterWGSL, "main")

// gpuCount reads the counter buffer after syncing c.
func gpuCount(t *testing.T, c *client.Client, buf *wgpu.Buffer) uint32 {
	t.Helper()
	require.NoError(t, c.Sync(context.Background()))
	v, err := wgpu.Read[uint32](context.Background(), buf, 0, int(buf.Size()/4))
	require.NoError(t, err)
	return v[0]
}

func newCounter(t *testing.T, d *wgpu.Device) *wgpu.Buffer {
	t.Helper()
	buf, err := d.NewBuffer(4, 0)
	require.NoError(t, err)
	require.NoError(t, wgpu.Write(buf, 0, []uint32{0}))
	t.Cleanup(buf.Release)
	return buf
}

func launchN(t *testing.T, c *client.Client, buf *wgpu.Buffer, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		require.NoError(t, c.Launch(counter, [3]uint32{1, 1, 1}, buf))
	}
}

func TestGPUCompileDiscardsAndBatchCompilesOnce(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompile)
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	before := d.Stats().Compiles

	launchN(t, c, buf, 50)
	assert.False(t, d.Compiled(counter), "under Compile a discarded launch only queues")
	assert.Equal(t, int64(0), d.Stats().Compiles-before)
	require.NoError(t, c.CompileQueued(context.Background()))
	assert.True(t, d.Compiled(counter))
	assert.Equal(t, int64(1), d.Stats().Compiles-before, "compiled exactly once")
	assert.Equal(t, uint32(0), gpuCount(t, c, buf), "50 launches executed 0 times")
	assert.Equal(t, client.Stats{Discarded: 50, Queued: 1, BatchCompiled: 1}, c.Stats())

	r.SetProcessMode(registry.ProcessExecute)
	launchN(t, c, buf, 5)
	assert.Equal(t, uint32(5), gpuCount(t, c, buf))
	assert.Equal(t, int64(1), d.Stats().Compiles-before, "the real pass compiles nothing")
}

func TestGPUCompileAndAutotuneCompilesNow(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	launchN(t, c, buf, 10)
	// The first discarded launch checked and lowered the kernel and left
	// the driver's part running; Sync waits for it.
	assert.Equal(t, uint64(1), c.Stats().CompiledNow)
	assert.Equal(t, uint32(0), gpuCount(t, c, buf))
	assert.True(t, d.Compiled(counter), "compiled by the Sync after the first discarded launch")
	assert.Equal(t, uint64(1), c.Stats().CompiledNow)
}

func TestGPUMeasure(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	a := client.New(d, client.WithRegistry(r))
	b := a.Fork()
	bufA, bufB := newCounter(t, d), newCounter(t, d)

	m := a.Measure()
	launchN(t, a, bufA, 7)
	launchN(t, b, bufB, 7)
	assert.Equal(t, uint32(7), gpuCount(t, a, bufA), "inside Measure they execute")
	assert.Equal(t, uint32(0), gpuCount(t, b, bufB), "client B's stream stays discarded")
	m.Release()
	launchN(t, a, bufA, 7)
	assert.Equal(t, uint32(7), gpuCount(t, a, bufA), "after Release they are discarded again")
}

func TestGPUSameStreamOtherDevice(t *testing.T) {
	d1, d2 := streamgatetest.OpenDevice(t), streamgatetest.OpenDevice(t)
	require.NotEqual(t, d1.ServiceID(), d2.ServiceID())
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompile)
	// Under Single both clients are on stream 0: the same stream id on two
	// devices.
	c1 := client.New(d1, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
	c2 := client.New(d2, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
	require.Equal(t, c1.Stream().Stream, c2.Stream().Stream)
	buf1, buf2 := newCounter(t, d1), newCounter(t, d2)
	m := c1.Measure()
	defer m.Release()
	launchN(t, c1, buf1, 3)
	launchN(t, c2, buf2, 3)
	assert.Equal(t, uint32(3), gpuCount(t, c1, buf1))
	assert.Equal(t, uint32(0), gpuCount(t, c2, buf2), "stream 0 of the other device is left alone")
}

func TestGPUSingleOtherGoroutine(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompile)
	a := client.New(d, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
	buf := newCounter(t, d)
	m := a.Measure()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		other := client.New(d, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
		for i := 0; i < 4; i++ {
			assert.NoError(t, other.Launch(counter, [3]uint32{1, 1, 1}, buf))
		}
		assert.NoError(t, other.Flush())
	}()
	wg.Wait()
	m.Release()
	assert.Equal(t, uint32(4), gpuCount(t, a, buf), "under Single a launch from another goroutine during a measurement executes")
}

// TestGPUSingleConcurrentLaunches: under Single, clients on many goroutines
// launch on the one shared stream at once; during a measurement every
// launch executes exactly once.
func TestGPUSingleConcurrentLaunches(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompile)
	buf := newCounter(t, d)
	first := client.New(d, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
	m := first.Measure()
	const goroutines, each = 4, 150
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := first.Fork()
			for range each {
				if !assert.NoError(t, c.Launch(counter, [3]uint32{1, 1, 1}, buf)) {
					return
				}
			}
		}()
	}
	wg.Wait()
	m.Release()
	assert.Equal(t, uint32(goroutines*each), gpuCount(t, first, buf))
}

func TestGPUNestedOutOfOrderFromOtherGoroutines(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompile)
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	outer := c.Measure()                             // Execute
	inner := r.Set(registry.Discard, c.Stream())     // Discard, newest
	innermost := r.Set(registry.Execute, c.Stream()) // Execute, newest
	want := uint32(0)
	step := func(n int, executes bool) {
		launchN(t, c, buf, n)
		if executes {
			want += uint32(n)
		}
		assert.Equal(t, want, gpuCount(t, c, buf))
	}
	release := func(o *registry.Override) {
		done := make(chan struct{})
		go func() { defer close(done); o.Release() }()
		<-done
	}
	step(2, true) // innermost decides
	release(inner)
	step(3, true) // innermost still decides
	release(innermost)
	step(4, true) // outer decides
	release(outer)
	release(outer) // twice: harmless
	step(5, false)
	assert.Zero(t, r.Live(registry.Execute))
	assert.Zero(t, r.Live(registry.Discard))
}

// TestGPUConcurrentMeasurements: 8 goroutines, each with its own client and
// counter, launch while measurements open and close at random; the GPU
// count equals the launches issued while the stream executed.
func TestGPUConcurrentMeasurements(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	const goroutines = 8
	launches := 400
	if testing.Short() {
		launches = 100
	}
	bufs := make([]*wgpu.Buffer, goroutines)
	for i := range bufs {
		bufs[i] = newCounter(t, d)
	}
	want := make([]uint32, goroutines)
	clients := make([]*client.Client, goroutines)
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		clients[g] = client.New(d, client.WithRegistry(r))
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clients[g]
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			var open []*registry.Override
			for i := 0; i < launches; i++ {
				switch rng.IntN(8) {
				case 0:
					open = append(open, c.Measure())
				case 1:
					if len(open) > 0 {
						j := rng.IntN(len(open)) // out of order
						open[j].Release()
						open = append(open[:j], open[j+1:]...)
					}
				}
				if !assert.NoError(t, c.Launch(counter, [3]uint32{1, 1, 1}, bufs[g])) {
					return
				}
				if len(open) > 0 {
					want[g]++
				}
			}
			for _, o := range open {
				o.Release()
			}
		}()
	}
	wg.Wait()
	for g := 0; g < goroutines; g++ {
		got := gpuCount(t, clients[g], bufs[g])
		assert.Equal(t, want[g], got, "goroutine %d", g)
		assert.Equal(t, uint64(want[g]), clients[g].Stats().Executed)
		assert.Equal(t, uint64(launches)-uint64(want[g]), clients[g].Stats().Discarded)
	}
	assert.Zero(t, r.Live(registry.Execute))
}

func TestGPULaunchErrorsLoseNothing(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	launchN(t, c, buf, 2)
	bad := gpu.NewKernel("bad", "@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }", "main")
	var werr *wgpu.Error
	require.ErrorAs(t, c.Launch(bad, [3]uint32{1, 1, 1}), &werr)
	assert.Contains(t, werr.Message, "bad")
	assert.Error(t, c.Launch(counter, [3]uint32{1 << 30, 1, 1}, buf), "dispatch over the limits")
	assert.Error(t, c.Launch(counter, [3]uint32{1, 1, 1}), "missing binding")
	launchN(t, c, buf, 3)
	assert.Equal(t, uint32(5), gpuCount(t, c, buf), "the good launches around the bad ones all ran")
	assert.Equal(t, uint64(5), c.Stats().Executed)
}

// TestGoodLaunchesSurviveABadOne: 7 good launches, one bad, 5 good,
// for each kind of bad launch a user can make through a client: the bad
// one's Launch fails, the GPU counter reads exactly 12 and Stats counts 12
// executed.
func TestGoodLaunchesSurviveABadOne(t *testing.T) {
	const twoWGSL = `
struct S { v: array<u32, 64> }
@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> s: S;
@compute @workgroup_size(1)
fn main() {
	atomicAdd(&count[0], 1u);
	s.v[0] = 1u;
}
`
	two := gpu.NewKernel("two", twoWGSL, "main")
	d := streamgatetest.OpenDevice(t)
	big, err := d.NewBuffer(256, 0)
	require.NoError(t, err)
	t.Cleanup(big.Release)
	small, err := d.NewBuffer(4, 0)
	require.NoError(t, err)
	t.Cleanup(small.Release)
	uniform, err := d.NewBuffer(256, wgpu.BufferUsageUniform|wgpu.BufferUsageCopyDst)
	require.NoError(t, err)
	t.Cleanup(uniform.Release)
	bad := map[string]func(c *client.Client, count *wgpu.Buffer) error{
		"too-small-struct": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(two, [3]uint32{1, 1, 1}, count, small)
		},
		"wrong-usage": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(two, [3]uint32{1, 1, 1}, count, uniform)
		},
		"too-few-buffers": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(two, [3]uint32{1, 1, 1}, count)
		},
		"oversized-dispatch": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(two, [3]uint32{d.Limits().MaxComputeWorkgroupsPerDimension + 1, 1, 1}, count, big)
		},
		"nil-kernel": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(nil, [3]uint32{1, 1, 1}, count, big)
		},
		"nil-buffer": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(two, [3]uint32{1, 1, 1}, count, nil)
		},
		"invalid-wgsl": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(gpu.NewKernel("broken", "@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }", "main"), [3]uint32{1, 1, 1})
		},
		"empty-source": func(c *client.Client, count *wgpu.Buffer) error {
			return c.Launch(gpu.NewKernel("empty", "", "main"), [3]uint32{1, 1, 1})
		},
	}
	for name, launchBad := range bad {
		t.Run(name, func(t *testing.T) {
			r := registry.New()
			c := client.New(d, client.WithRegistry(r))
			defer c.Close()
			count := newCounter(t, d)
			for range 7 {
				require.NoError(t, c.Launch(two, [3]uint32{1, 1, 1}, count, big))
			}
			assert.Error(t, launchBad(c, count))
			for range 5 {
				require.NoError(t, c.Launch(two, [3]uint32{1, 1, 1}, count, big))
			}
			assert.Equal(t, uint32(12), gpuCount(t, c, count))
			st := c.Stats()
			assert.Equal(t, uint64(12), st.Executed)
			assert.Zero(t, st.Failed)
		})
	}
}

// TestExecutedLaunchAllocatesNothing: an executed launch through a client on
// the real device allocates nothing once its kernel is compiled and its
// bind group cached.
func TestExecutedLaunchAllocatesNothing(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))
	defer c.Close()
	buf := newCounter(t, d)
	launchN(t, c, buf, 2) // compile, bind group
	if allocs := testing.AllocsPerRun(200, func() {
		if err := c.Launch(counter, [3]uint32{0, 0, 0}, buf); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("executed Launch allocates %.1f times, want 0", allocs)
	}
	require.NoError(t, c.Sync(context.Background()))
}
